"""Presentation: a stored result (a scenario's snapshot, ``Scenario.result``) as the pages
and the IRER show it: its state, the media in words, the inputs used, the facility
estimates, the releases and exposures with their basis sentences, the mass balance and the
exposure summary across the uses. Nothing here filters by who is asking: the reads, with
the visibility rules, are ``selectors.py``'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from . import exposure_limits, numbers
from .basis_text import with_shared_basis
from .case_links import CaseChange, case_changes, is_linked
from .esd import chemsteer_v32, registry
from .esd.figures import BALANCE, FACTS, facility_figures
from .esd.options import ED_AS_PRINTED, ED_AS_SET, MEDIUM_NAMES, media_in_words
from .esd.parameters import ALL, CHOICE, EngineValidationError
from .esd.site_data import SITE_SPECIFIC
from .esd.text import internal_name
from .models import Assessment, Scenario, Submission
from .numbers import entered, percent, quantity, signed_percent, significant, unit_for
from .site_data import result_entries
from .trace import trace_steps

CURRENT, STALE, UNCOMPUTED = "current", "stale", "uncomputed"
NOT_CURRENT = "NOT CURRENT: inputs changed since this use was computed"
NOT_COMPUTED = "NOT COMPUTED: this use has no results yet"


def scenario_state(scenario: Scenario) -> str:
    """``current`` when the stored result was computed from the scenario's present inputs,
    ``stale`` when the inputs changed since, ``uncomputed`` when there is no result."""
    if scenario.result is None:
        return UNCOMPUTED
    return CURRENT if scenario.computed_inputs == scenario.inputs else STALE


def over_release_warning(result: dict[str, Any] | None) -> str:
    """The engine's warning that a use releases more than it uses beyond whole-container
    rounding, naming the inputs that cause it (``mass_balance/over_release_warning``, issue
    26); "" when there is none, or for a result stored before the engine gave it."""
    return str(((result or {}).get("mass_balance") or {}).get("over_release_warning") or "")


def result_facts(result: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's facility facts of a stored result (``Result.facts``): sites, operating
    days, workers, the use; empty for a result computed before the engine declared them."""
    return dict((result or {}).get("facts") or {})


def scenario_summary(*, scenario: Scenario) -> dict[str, Any]:
    """Key figures of a scenario for the assessment page (from its snapshot), whether they
    are current, and its method's full title."""
    state = scenario_state(scenario)
    result = scenario.result
    title = method_title(scenario.scenario_key)
    if not result:
        return {"computed": False, "state": state, "method_title": title}
    facts = result_facts(result)
    return {
        "computed": True,
        "state": state,
        "method_title": title,
        "stale": state == STALE,
        "case_changes": not_current_case_changes(scenario),
        "sites": facts.get("sites"),
        "days": facts.get("operating_days"),
        "used_kg_yr": facts.get("used_kg_yr"),
        "release_count": len(result.get("releases", [])),
        "exposure_count": len(result.get("exposures", [])),
        "total_kg_yr": sum(result.get("totals_by_medium", {}).values()),
        "warnings": result.get("warnings", []),
        "over_release": over_release_warning(result),
    }


#: The media by name, as the engine declares them (esd.results.MEDIUM_NAMES): one list.
MEDIUM_LABELS = dict(MEDIUM_NAMES)


def medium_label(medium: str) -> str:
    """``"water or incineration"`` -> ``"Water or incineration"``."""
    parts = [MEDIUM_LABELS.get(part, part) for part in medium.split(" or ")]
    return " or ".join([parts[0]] + [p.lower() for p in parts[1:]])


def release_media_text(release: dict[str, Any]) -> str:
    """How a release's media read: ``Water or incineration``, or ``Water 25 %, incineration 75 %``,
    with the medium chosen for it where the document leaves it open (:func:`medium_choice_text`)."""
    media = release.get("media", [])
    if media and all(m.get("fraction") is not None for m in media):
        text = ", ".join(f"{MEDIUM_LABELS.get(m['medium'], m['medium'])} {percent(m['fraction'])}" for m in media)
    elif release.get("chosen_medium") and release.get("medium_chosen_by") == REVIEWER_CHOSE:
        text = MEDIUM_LABELS.get(release["chosen_medium"], release["chosen_medium"])
    else:
        text = medium_label(" or ".join(m["medium"] for m in media))
    choice = medium_choice_text(release)
    return f"{text} ({choice})" if choice else text


#: Who chose the medium of a release the document leaves open (the engine's Release.medium_chosen_by).
REVIEWER_CHOSE, DOCUMENT_DEFAULT = "reviewer", "document"


def medium_choice_text(release: dict[str, Any]) -> str:
    """Where the document leaves a release's medium open, the words that say how the totals
    count it: the reviewer's choice among the listed media, or, where the reviewer did not
    choose, that the medium is one of those listed and the document's default is counted.
    ``""`` for a release whose medium the document fixes.

    >>> medium_choice_text({"media": [{"medium": "water"}, {"medium": "landfill"}],
    ...                     "chosen_medium": "water", "medium_chosen_by": "document"})
    'one of those listed, not chosen by the reviewer: the totals count it under water, the default'
    """
    chosen, by = release.get("chosen_medium"), release.get("medium_chosen_by")
    if not by:
        return ""
    listed = media_in_words([m["medium"] for m in release.get("media", [])])
    name = (MEDIUM_LABELS.get(chosen, chosen) if chosen else "").lower()
    if by == REVIEWER_CHOSE:
        if len(release.get("media", [])) > 1 and chosen and all(m.get("fraction") is None for m in release["media"]):
            return f"chosen by the reviewer among {listed}"
        return "chosen by the reviewer in place of the document's media"
    return f"one of those listed, not chosen by the reviewer: the totals count it under {name}, the default"


GIVEN, OVERRIDDEN, DEFAULT, COMPUTED, NOT_GIVEN = "Given", "Overridden", "Default", "Computed", "Not given"
#: The value of an input a use holds none for, in the inputs tables: nothing entered, or,
#: where the case gives the quantity the input carries, left out of this use by the reviewer
#: (the report never says "not given" beside the case's value: issue 41).
VALUE_NOT_GIVEN, VALUE_LEFT_OUT = numbers.NOT_GIVEN, "left out of this use"
#: The standing of an input that holds what the case gives it (``case_links.is_linked``:
#: the case's production volume, vapour pressure, molecular weight ...): its provenance.
FROM_CASE = "From the case"


def inputs_used(*, scenario: Scenario, result: dict[str, Any], case: Submission | None = None) -> list[dict[str, Any]]:
    """Every input of the scenario that applied to the result: value, standing, the
    reason, and the default's source (the report's "inputs used" table too). An input
    that did not apply (its ``applies_when`` did not hold on the result's inputs, e.g. the
    supplier's inputs when the supplier site is not assessed) is not listed.

    ``standing``: ``From the case`` (the input holds what ``case``, the case as the page or
    the report reads it, gives it: ``case_links.is_linked``), ``Overridden`` (differs from a
    default, with a reason), ``Given`` (an optional input entered), ``Default``, ``Computed`` (not given, and the scenario
    computed the quantity: ``value`` is the computed one, from the result's facility
    estimates) or ``Not given``. A choice's ``value`` is its label, as the form lists it
    (``code``: the value the engine read). ``reason``: the reason the reviewer gave, for an
    override or for any value. ``units``: the input's units agreeing with its value (``1
    site``, ``2 sites``). ``text``: the value as the tables print it (as entered; a choice by
    its label; :data:`VALUE_NOT_GIVEN` or :data:`VALUE_LEFT_OUT` for none)."""
    effective = result.get("inputs", {})
    facility = result.get("facility", {})
    params = registry.get(scenario.scenario_key).params
    applying = params.applicable(effective)
    rows = []
    for param in params.params:
        if param.symbol not in applying:
            continue
        value = effective.get(param.symbol, param.default)
        code = value
        given = param.symbol in scenario.inputs
        if given and case is not None and param.from_case and is_linked(
                param, inputs=scenario.inputs, reasons=scenario.reasons, case_value=getattr(case, param.from_case)):
            standing = FROM_CASE
        elif given:
            standing = OVERRIDDEN if param.default is not None else GIVEN
        elif value is not None:
            standing = DEFAULT
        elif isinstance(facility.get(param.symbol), (int, float)):
            value, standing = facility[param.symbol], COMPUTED
        else:
            standing = NOT_GIVEN
        if param.kind == CHOICE and value is not None:
            value = param.choice_label(value)
        if value is None:
            case_gives = case is not None and param.from_case and getattr(case, param.from_case) not in (None, "")
            text = VALUE_LEFT_OUT if case_gives else VALUE_NOT_GIVEN
        else:
            text = entered(value) if param.kind != CHOICE else str(value)
        rows.append(
            {
                "param": param,
                "value": value,
                "text": text,
                "code": code,
                "units": unit_for(value, param.units),
                "standing": standing,
                # Changed from the document's default (highlighted), the case's value as much as the reviewer's.
                "overridden": given and param.default is not None,
                "given": given,
                "reason": scenario.reasons.get(param.symbol, ""),
            }
        )
    return rows


def default_set_text(default_set: dict[str, Any]) -> str:
    """The default set a result used, in the engine's one line (``default_set["summary"]``)."""
    summary: str = default_set.get("summary", "")
    return summary


# Worker exposures: doses, airborne concentrations, the TLV/PEL ---------------------------------
#
# Every exposure estimate of a result from the engine's contract version 2 carries its doses
# (``apdr_mg_kg_day``, ``add_mg_kg_day``, ``ladd_mg_kg_day``) and, for an inhalation estimate
# from an airborne concentration, ``mg_m3`` and ``ppm``; the result carries its
# ``dose_basis`` once (spec/INTERFACE.md, "Additions, version 2"). A result stored before
# has none of them: its doses are "not computed", never zero or a figure from elsewhere.

DOSES_NOT_COMPUTED = "not computed: recompute the use"
# The estimate keys of the doses and concentrations, and their short names as printed.
DOSE_KEYS = (("apdr", "apdr_mg_kg_day", "APDR"), ("add", "add_mg_kg_day", "ADD"), ("ladd", "ladd_mg_kg_day", "LADD"))
CONCENTRATION_KEYS = (("mg_m3", "mg_m3", "mg/m³"), ("ppm", "ppm", "ppm"))
# Characterisations from low to high, as the summary's columns read; any other label follows.
ROUTE_ORDER = {"inhalation": 0, "dermal": 1}
LABEL_ORDER = ("low end", "central tendency", "high end", "conservative", "what-if", "output")


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return value


def dose_basis_text(result: dict[str, Any]) -> str:
    """The result's dose basis in one line (``""`` when it has none):
    ``body weight 80 kg; 40 working years; averaging time 40 yr (ADD), 70 yr (LADD); source: ...``."""
    basis = (result or {}).get("dose_basis") or {}
    if not basis:
        return ""
    parts = []
    if basis.get("body_weight_kg") is not None:
        parts.append(f"body weight {significant(basis['body_weight_kg'], 3)} kg")
    if basis.get("working_years") is not None:
        parts.append(f"{significant(basis['working_years'], 3)} working years")
    times = [
        f"{significant(basis[key], 3)} yr ({dose})"
        for key, dose in (("averaging_time_yr", "ADD"), ("averaging_time_cancer_yr", "LADD"))
        if basis.get(key) is not None
    ]
    if times:
        parts.append("averaging time " + ", ".join(times))
    parts.append(_exposure_days_text(basis))
    if basis.get("source"):
        parts.append(f"source: {basis['source'].rstrip('.')}")
    return "; ".join(parts)


def _exposure_days_text(basis: dict[str, Any]) -> str:
    """The exposure days of the doses (ChemSTEER's ED): the reviewer's, each exposure's own as
    printed, or, in a result stored before INTERFACE.md's version 3, each exposure's at most the cap."""
    days, cap = _finite(basis.get("exposure_days")), _finite(basis.get("exposure_days_cap"))
    if days is not None:
        return "exposure days " + ED_AS_SET.format(days=days)
    if cap is not None:
        return f"exposure days: each exposure's days a year, at most {cap:g}"
    return "exposure days: " + ED_AS_PRINTED


def exposure_rows(*, result: dict[str, Any], submission: Submission) -> list[dict[str, Any]]:
    """The result's worker exposures with, on each estimate, its doses and airborne
    concentrations (``None`` where the estimate has none) and its comparison with the
    case's TLV/PEL (``limit``: an :class:`~assessments.exposure_limits.LimitCheck`, or None);
    on each exposure ``sites`` and ``workers_all_sites`` (workers per site × sites). The
    one reading of a stored result's exposures for the results page, the summary and the IRER."""
    result = result or {}
    limit = exposure_limits.case_limit(submission)
    doses_computed = exposure_limits.reports_concentrations(result)
    sites = result_facts(result).get("sites")
    rows = []
    for index, exposure in enumerate(result.get("exposures", [])):
        workers = exposure.get("workers_per_site")
        estimates = []
        for estimate_index, estimate in enumerate(exposure.get("estimates", [])):
            row = dict(estimate, index=estimate_index)
            for name, key, _ in DOSE_KEYS + CONCENTRATION_KEYS:
                row[name] = _finite(estimate.get(key))
            row["limit"] = exposure_limits.check_estimate(
                estimate, route=exposure.get("route", ""), limit=limit,
                molecular_weight=submission.molecular_weight, result=result,
            )
            estimates.append(row)
        rows.append(
            dict(
                exposure,
                index=index,  # its place in the result's exposures (the report's provenance reads it)
                estimates=estimates,
                sites=sites,
                workers_all_sites=workers * sites if isinstance(workers, (int, float)) and isinstance(sites, (int, float)) else None,
                doses_computed=doses_computed,
                has_concentrations=any(e["mg_m3"] is not None or e["ppm"] is not None for e in estimates),
            )
        )
    return rows


def _label_key(label: str) -> tuple[int, str]:
    return (LABEL_ORDER.index(label) if label in LABEL_ORDER else len(LABEL_ORDER), label)


def exposure_summary(*, assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> dict[str, Any]:
    """Worker exposures across all the uses of ``assessment``, as ChemSTEER's exposure
    summary prints them: one group of rows per use, activity and route, one row per
    quantity (mg/day; mg/m³ and ppm where an estimate has them; APDR, ADD, LADD in
    mg/kg-day; the TLV/PEL comparison for inhalation when the case gives a limit), one
    column per characterisation the estimates carry (``labels``, low to high); beside each
    group the workers per site, the sites, the workers over all sites and the days a year.

    ``{"labels", "groups": [{"use_number", "use", "not_current", "letter", "activity",
    "route", "workers_per_site", "sites", "workers_all_sites", "days_per_year",
    "rows": [{"quantity", "unit", "short", "kind", "cells": [value or None, one per label]}]}],
    "not_computed": [titles of uses without results], "limit": "5 mg/m³", "5 mg/m³ ceiling" or "",
    "limit_compared": what each inhalation estimate's flag compares with the limit, or ""}``.
    A cell holds a number (``kind`` "number"), a
    :class:`~assessments.exposure_limits.LimitCheck` (``kind`` "limit"), or, alone in its
    row, :data:`DOSES_NOT_COMPUTED` (``kind`` "span": a result stored before the engine
    reported doses); None where the activity has no estimate of that characterisation."""
    submission = assessment.submission
    scenarios = list(assessment.scenarios.all()) if scenarios is None else scenarios
    limit = exposure_limits.case_limit(submission)
    collected = []
    labels: set[str] = set()
    not_computed = []
    for number, scenario in enumerate(scenarios, start=1):
        if not scenario.result:
            not_computed.append(scenario.title)
            continue
        stale = scenario_state(scenario) == STALE
        for exposure in exposure_rows(result=scenario.result, submission=submission):
            labels |= {e["label"] for e in exposure["estimates"]}
            collected.append((number, scenario, stale, exposure))
    ordered = sorted(labels, key=_label_key)
    # Within a use, by activity (its letter), inhalation before dermal, as ChemSTEER lists them.
    collected.sort(key=lambda item: (item[0], item[3].get("letter", ""), ROUTE_ORDER.get(item[3].get("route", ""), 2)))
    groups = []
    for number, scenario, stale, exposure in collected:
        by_label = {e["label"]: e for e in exposure["estimates"]}

        def cells(name: str, by_label: dict[str, dict[str, Any]] = by_label) -> list[Any]:
            return [by_label[label][name] if label in by_label else None for label in ordered]

        rows = [{"quantity": "Potential dose rate", "unit": "mg/day", "short": "mg/day", "kind": "number",
                 "key": "mg_day", "cells": cells("mg_day")}]
        for name, key, unit in CONCENTRATION_KEYS:
            if any(e[name] is not None for e in exposure["estimates"]):
                rows.append({"quantity": "Airborne concentration (8-h TWA)", "unit": unit, "short": unit, "kind": "number",
                             "key": key, "cells": cells(name)})
        if exposure["doses_computed"]:
            for name, key, short in DOSE_KEYS:
                rows.append({"quantity": short, "unit": "mg/kg-day", "short": short, "kind": "number", "key": key,
                             "cells": cells(name)})
        else:
            rows.append({"quantity": "APDR, ADD, LADD", "unit": "mg/kg-day", "short": "APDR, ADD, LADD", "kind": "span",
                         "cells": [DOSES_NOT_COMPUTED]})
        if limit is not None and exposure["route"] == "inhalation":
            rows.append({
                "quantity": "TLV/PEL", "unit": "", "short": "TLV/PEL", "kind": "limit",
                "cells": [by_label[label]["limit"] if label in by_label else None for label in ordered],
            })
        groups.append(
            {
                "use_number": number,
                "scenario": scenario,
                "exposure_index": exposure["index"],
                "estimate_index": [by_label[label]["index"] if label in by_label else None for label in ordered],
                "use": scenario.title,
                "not_current": stale,
                "letter": exposure.get("letter", ""),
                "activity": exposure.get("activity", ""),
                "route": exposure.get("route", ""),
                "workers_per_site": exposure.get("workers_per_site"),
                "sites": exposure["sites"],
                "workers_all_sites": exposure["workers_all_sites"],
                "days_per_year": exposure.get("days_per_year"),
                "rows": rows,
                "any_above": any(e["limit"] is not None and e["limit"].above for e in exposure["estimates"]),
            }
        )
    return {"labels": ordered, "groups": groups, "not_computed": not_computed, "limit": limit.text if limit else "",
            "limit_compared": limit.compared_with if limit else ""}


def _site_data_entries(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The submitter's site data the result was computed with (``site_data.result_entries``)."""
    return result_entries(result)


def scenario_results(*, scenario: Scenario) -> dict[str, Any]:
    """The results page's content, read from the scenario's stored snapshot: a summary
    (``facts``, the facility estimates by name, the totals), the releases and exposures
    with their basis sentences (a sentence several rows share is given once:
    :func:`shared_basis`), and the detail the page folds away (inputs, trace)."""
    result = scenario.result or {}
    # A sum of the releases among the facility estimates (``release_total_kg_yr``: one set, the
    # site data left out) is not listed: the summary gives the one total, saying what it adds.
    facility = [row for row in facility_rows(result=result, scenario_key=scenario.scenario_key) if row["role"] != BALANCE]
    releases = [dict(release, media_text=release_media_text(release)) for release in result.get("releases", [])]
    release_basis = with_shared_basis(releases)
    totals = sorted((result.get("totals_by_medium") or {}).items(), key=lambda item: -item[1])
    largest = max((amount for _, amount in totals), default=0) or 1
    exposures = exposure_rows(result=result, submission=scenario.assessment.submission)
    exposure_basis = with_shared_basis(exposures)
    inputs = inputs_used(scenario=scenario, result=result, case=scenario.assessment.case_data)
    chart = [
        {"medium": medium_label(medium), "kg_yr": amount, "percent": 100 * amount / largest}
        for medium, amount in totals
    ]
    return {
        "result": result,
        "method_title": method_title(scenario.scenario_key),
        "facts": result_fact_rows(result),
        "facility": facility,
        "releases": releases,
        "release_basis_common": release_basis,
        "exposures": exposures,
        "exposure_basis_common": exposure_basis,
        "dose_basis": dose_basis_text(result),
        "doses_computed": bool(result.get("dose_basis")),
        "doses_not_computed": DOSES_NOT_COMPUTED,
        "show_concentrations": any(x["has_concentrations"] for x in exposures),
        "show_limit": any(e["limit"] is not None for x in exposures for e in x["estimates"]),
        "trace": trace_steps(result=result, scenario_key=scenario.scenario_key),
        "chart": chart,
        "release_total": release_total(result),
        "inputs_used": inputs,
        "overridden_count": sum(1 for row in inputs if row["overridden"]),
        "site_data": _site_data_entries(result),
        "default_set": default_set_text(result.get("default_set", {})),
        "mass_balance": mass_balance_rows(result),
        "over_release": over_release_warning(result),
        "state": scenario_state(scenario),
        "not_current": NOT_CURRENT if scenario_state(scenario) == STALE else "",
        "case_changes": not_current_case_changes(scenario),
    }


def not_current_case_changes(scenario: Scenario) -> list[CaseChange]:
    """Why the use is not current where the case is why: its linked inputs followed an
    amendment of the case since it was computed (``case_links.case_changes``: each with
    the case field and the sentence "Computed with a production volume of 2,400 kg/yr; the
    case now says 3,000 kg/yr: compute again"); empty for a use that is current."""
    if scenario_state(scenario) != STALE:
        return []
    return case_changes(scenario, scenario.assessment.case_data)


#: What the results page's one total adds (:func:`release_total`), in words.
TOTAL_DOCUMENT = "the document's releases"
TOTAL_SITE_DATA = "the submitter's site data ({amount}{replacing})"
TOTAL_BY_SET = "each medium's total from its own conservative set"
TOTAL_HIGHEST = "each release at its highest estimate"


def release_total(result: dict[str, Any]) -> dict[str, Any]:
    """The one total of a use's annual releases, all sites and media, and the words saying
    what it adds: ``{"kg_yr", "site_data_kg_yr", "includes"}``. It is the sum of the
    totals by medium (the chart's bars; the mass balance's releases): every release once,
    the submitter's site data among them, each medium's total from its own conservative
    set where estimates depend on a range (``Result.totals_sets``), else each release at its
    highest estimate.

    >>> result = {"totals_by_medium": {"water": 2400.0, "air": 270.0}, "totals_sets": {"water": "F = 0.07"},
    ...           "releases": [{"number": 1, "site_specific": False, "estimates": [{"kg_year_all_sites": 2400.0}]},
    ...                        {"number": 2, "site_specific": True, "estimates": [{"kg_year_all_sites": 270.0}]}],
    ...           "inputs": {"site_specific": [{"replaces": None}]}}
    >>> total = release_total(result)
    >>> total["kg_yr"], total["includes"]
    (2670.0, "the document's releases and the submitter's site data (270 kg/yr), each medium's total from its own conservative set")
    """
    releases = result.get("releases", [])
    site_kg = sum(max((e["kg_year_all_sites"] for e in r.get("estimates", [])), default=0.0)
                  for r in releases if r.get("site_specific"))
    parts = [TOTAL_DOCUMENT] if any(not r.get("site_specific") for r in releases) else []
    if any(r.get("site_specific") for r in releases):
        entries = (result.get("inputs") or {}).get(SITE_SPECIFIC) or []
        replaced = [str(e["replaces"]) for e in entries if isinstance(e, dict) and e.get("replaces") is not None]
        replacing = ""
        if replaced:
            numbers = replaced[0] if len(replaced) == 1 else ", ".join(replaced[:-1]) + " and " + replaced[-1]
            replacing = f", in place of Release{'s' if len(replaced) > 1 else ''} {numbers}"
        parts.append(TOTAL_SITE_DATA.format(amount=quantity(site_kg, "kg/yr"), replacing=replacing))
    way = TOTAL_BY_SET if result.get("totals_sets") else TOTAL_HIGHEST
    return {
        "kg_yr": sum((result.get("totals_by_medium") or {}).values()),
        "site_data_kg_yr": site_kg,
        "includes": ", ".join(filter(None, [" and ".join(parts), way])),
    }


#: What the mass balance's "released" adds, said where the figure stands (issue 41): not one
#: consistent set of inputs, so it may exceed the use.
RELEASED_IS = ("the sum of each release's highest estimate, each medium's total from the set of inputs "
               "conservative for that medium (not one consistent set)")
#: Said beside a difference below zero: why it is not chemical released beyond the use.
BELOW_ZERO = "The difference is below zero by the documents' conventions, not by chemical released beyond the use: {why}"


def mass_balance_rows(result: dict[str, Any]) -> dict[str, Any] | None:
    """The result's mass balance for display: ``{"used", "rows": [(label, kg/yr)], "released",
    "released_is"`` (:data:`RELEASED_IS`), ``"below_zero"`` (:data:`BELOW_ZERO`, or ``""``),
    ``"consumed", "difference", "basis", "allowance", "allowance_basis", "over_release"}``
    (:func:`over_release_warning`); None for a result computed before the engine reported one."""
    balance = result.get("mass_balance")
    if not balance:
        return None
    released = sorted(balance["released_kg_yr"].items(), key=lambda item: -item[1])
    difference = balance["difference_kg_yr"]
    allowance = balance.get("allowance_kg_yr", 0.0)
    below_zero = ""
    if difference < 0:
        below_zero = BELOW_ZERO.format(why=balance.get("allowance_basis") if allowance else balance["basis"])
    return {
        "used": balance["used_kg_yr"],
        "rows": [(medium_label(medium), amount) for medium, amount in released],
        "released": sum(amount for _, amount in released),
        "released_is": RELEASED_IS,
        "below_zero": below_zero,
        "consumed": balance["consumed_kg_yr"],
        "difference": balance["difference_kg_yr"],
        "basis": balance["basis"],
        "allowance": balance.get("allowance_kg_yr", 0.0),
        "allowance_basis": balance.get("allowance_basis", ""),
        "over_release": over_release_warning(result),
    }


# The results page: the summary and the basis sentences ----------------------------------------

#: The engine's facility facts (``Result.facts``) in the order the results page's summary
#: lists them; their labels and units are the engine's (``esd.figures.FACTS``).
FACT_ORDER = ("sites", "operating_days", "used_kg_yr", "workers_per_site")
SITES_KNOWN, SITES_COMPUTED = "as entered", "computed"


def result_fact_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The result's facility facts, labelled, each with its units: ``[{"label", "text",
    "note", "explanation"}]`` (``note``: whether the sites were entered or computed;
    ``explanation``: how the workers were counted); empty for a result stored before the
    engine declared them.

    >>> [(r["label"], r["text"]) for r in result_fact_rows({"facts": {"sites": 1, "sites_known": True,
    ...     "operating_days": 250, "workers_per_site": 0, "workers_basis": "", "used_kg_yr": 5000.0}})]
    [('Number of sites', '1 site'), ('Days of operation', '250 days/yr'), ('Chemical used, all sites', '5,000 kg/yr'), ('Workers exposed per site via the assessed routes', '0 workers')]
    """
    facts = result_facts(result)
    rows = []
    for key in FACT_ORDER:
        label, units = FACTS[key]
        if facts.get(key) is None:
            continue
        note = explanation = ""
        if key == "sites":
            note = SITES_KNOWN if facts.get("sites_known") else SITES_COMPUTED
        elif key == "workers_per_site":
            explanation = facts.get("workers_basis") or ""
        rows.append({"label": label, "text": quantity(facts[key], units), "note": note, "explanation": explanation})
    return rows


def method_title(scenario_key: str) -> str:
    """The method's full title as the engine declares it, its edition year included (the
    key itself for a method this installation's engine does not know)."""
    try:
        return registry.get(scenario_key).full_title
    except EngineValidationError:  # an imported case's method the engine no longer offers
        return scenario_key


def facility_rows(*, result: dict[str, Any], scenario_key: str) -> list[dict[str, Any]]:
    """The result's general facility estimates as a reviewer reads them, in the engine's
    order, each named as its scenario declares it (``Scenario.facility_labels``, read
    through :func:`assessments.esd.figures.facility_figures`): ``label`` (``""`` for a
    quantity the scenario does not declare: the contract tests refuse one), ``symbol``,
    ``value``, ``units``, ``text`` (the value with its units:
    :func:`assessments.numbers.quantity`; a choice by its name), ``numeric``, ``citation``
    (of the trace step the declaration names) and ``basis`` (the sentence the declaration
    names, given on its quantity's row rather than on a row of its own). A quantity the
    scenario did not compute for these inputs (``None``, e.g. the sites before rounding
    when they are known) is not listed, nor the figures of a part nested in the facility
    estimates (the supplier site's, which its releases and exposures give)."""
    try:
        scenario = registry.get(scenario_key)
        params, declared = scenario.params, scenario.facility_labels
    except EngineValidationError:  # a method this installation's engine does not know
        params, declared = None, {}
    on_their_rows = {d.basis for d in declared.values() if d.basis}
    rows = []
    for figure in facility_figures(result, declared):
        symbol, value = figure.key, figure.value
        if "/" in symbol or symbol in on_their_rows or isinstance(value, list):
            continue
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        param = params[symbol] if params is not None and symbol in params else None
        if numeric:
            text = quantity(value, figure.units)
        elif param is not None and param.choices:
            text = str(dict(param.choices).get(value, value))
        else:
            text = str(value)
        rows.append({
            "symbol": symbol,
            "shown_symbol": "" if internal_name(symbol) else symbol,  # an engine key: the label says it
            "label": figure.label,
            "value": value,
            "numeric": numeric,
            "units": figure.units,
            "text": text,
            "citation": figure.citation,
            "basis": figure.basis,
            "role": figure.role,
        })
    return rows



def chemsteer_v32_column(*, scenario: Scenario) -> dict[str, Any] | None:
    """The results page's ChemSTEER v3.2 column (issue 42), or None while the assessment's
    switch (``Assessment.chemsteer_v32``) is off or the use has no result: the use's computed
    inputs by the installed engine and in v3.2 mode, output by output (``rows``, each with
    ``change``: v3.2's figure against the engine's, in words), the v3.2 defaults the
    scenario's engine differs on with their standing for this use and their citation
    (``differences``), what was refused (``errors``) and the kinds of difference there are
    none of (``none_of``). Everything it names comes from the engine
    (:mod:`assessments.esd.chemsteer_v32`); nothing here is printed in the IRER."""
    if not scenario.assessment.chemsteer_v32 or not scenario.result:
        return None
    inputs = scenario.computed_inputs if isinstance(scenario.computed_inputs, dict) else {}
    try:
        done = chemsteer_v32.side_by_side(scenario.scenario_key, inputs)
    except EngineValidationError as exc:  # a method this installation's engine does not know
        return {"name": chemsteer_v32.NAME, "rows": [], "differences": [], "none_of": [],
                "errors": [str(message) for message in exc.errors.values()], "stored_version": ""}
    stored = str((scenario.result or {}).get("engine_version") or "")
    rows = [{
        "subject": row.subject, "estimate": row.estimate, "quantity": row.quantity, "units": row.units,
        "engine": row.engine, "v32": row.v32, "moved": row.moved,
        "change": (signed_percent(row.relative) if row.relative is not None else "changed") if row.moved else "same",
    } for row in done.rows]
    return {
        "name": chemsteer_v32.NAME,
        "engine_version": done.engine_version,
        # The figures above were computed by another engine: both columns here are the installed one's.
        "stored_version": stored if stored and stored != done.engine_version else "",
        "rows": rows,
        "moved_count": sum(1 for row in rows if row["moved"]),
        "differences": [{"label": s.label, "engine": s.engine_text, "v32": s.v32_text, "standing": s.words,
                         "applied": s.applied, "citation": s.difference.citation} for s in done.standings],
        "applied_count": len(done.applied),
        "errors": [f"{label}: {message}" if label != ALL else message for label, message in done.errors.items()],
        "none_of": [{"kind": kind, "why": why} for kind, why in chemsteer_v32.NO_DIFFERENCE],
    }
