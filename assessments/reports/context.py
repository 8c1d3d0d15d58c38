"""The IRER's content for one assessment: what ``templates/reports/_irer_sheet.html``
prints, for the browser preview and the PDF alike (EPA 2018 photoresist update, Section 7,
is the layout).

Everything is read from the stored snapshots (``Scenario.result``, and for an approved
revision ``Assessment.case_snapshot``: ``models.as_printed``), so an approved report prints
exactly what was approved, whatever the case is amended to later; a use whose inputs changed since it was
computed is marked NOT CURRENT on the first page and beside the use. Numbers are
formatted here, as EPA prints them (two significant figures in E-notation). CBI is
applied by :mod:`.cbi`. Nothing here knows a scenario: sites, days, workers, the process
description and the mass balance are the engine's declarations in the result.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import dateformat, timezone

from ..esd import registry
from ..esd.parameters import EngineValidationError
from ..esd.text import irer_percent
from ..exposure_limits import tlv_pel_text
from ..models import Assessment, IrerNote, Status, Submission, VolumeQualifier, as_printed
from ..numbers import entered, unit_for
from ..presentation import (
    DOSE_KEYS,
    DOSES_NOT_COMPUTED,
    NOT_COMPUTED,
    NOT_CURRENT,
    STALE,
    UNCOMPUTED,
    dose_basis_text,
    exposure_rows,
    exposure_summary,
    inputs_used,
    mass_balance_rows,
    result_facts,
    scenario_state,
)
from ..selectors import uses_volume
from ..site_data import SITE_STEP_TITLE, result_entries
from ..templatetags.figures import epa, significant
from . import header as header_lines
from .cbi import CBI_TEXT, Cbi
from .releases import computed_bases, release_groups

SANITISED_NOTE = (
    "SANITISED COPY: items claimed as confidential business information (CBI) are replaced by "
    "the generic name or [CBI], as are the figures that would reveal them."
)
CBI_BANNER = "CONTAINS CONFIDENTIAL BUSINESS INFORMATION: claimed items are in [brackets]"
VOLUME_EXCESS_HIDDEN = "The uses add up to more than the case's production volume."
#: The standing of an input of the submitter's site data in the inputs table.
SITE_DATA_STANDING = "Site data"

STATUS_LABELS = {
    Status.DRAFT: "Staff Draft",
    Status.SUBMITTED: "Staff Draft: submitted for approval",
    Status.RETURNED: "Staff Draft: returned for revision",
    Status.APPROVED: "Approved",
}


def trace_inputs(step: dict, cbi: Cbi, symbols: frozenset[str], inputs: dict | None = None) -> str:
    """A trace step's inputs as printed, ``symbol = value`` joined by commas; claimed ones
    redacted. An input of the use (``inputs``, the values the engine was given) prints as
    entered, a figure an earlier step computed to three significant figures."""
    inputs = inputs or {}

    def text(name: str, value: Any) -> str:
        given = name in inputs and inputs[name] == value and not isinstance(value, bool)
        return entered(value) if given else significant(value)

    return ", ".join(
        f"{name} = {cbi.number(symbols, name, value, text(name, value))}" for name, value in step.get("inputs", {}).items()
    )


def facility_basis(result: dict, cbi: Cbi, symbols: frozenset[str]) -> list[dict]:
    """The general facility estimates, one short line each: the value, its units and its
    citation, and the number of its step in the appendix's calculation trace, where the
    equation and its inputs are printed (once: the use section used to repeat them)."""
    facility_keys = set(result.get("facility", {}))
    lines = []
    for number, step in enumerate(result.get("trace", []), start=1):
        if step["symbol"] not in facility_keys:
            continue
        value = cbi.number(symbols, step["symbol"], step["value"], significant(step["value"]))
        units = unit_for(step["value"], step["units"])
        lines.append({"step": number, "text": cbi.scrub(f"{step['symbol']} = {value} {units} ({step['citation']})")})
    return lines


def process_description(result: dict, cbi: Cbi) -> str:
    """The IRER's arrow chain, from the engine's process steps (``Result.process``), e.g.
    ``Chemical is unloaded from 3.79-liter containers (15%) --> charged to application
    equipment --> ...``."""
    return cbi.scrub(" --> ".join(result.get("process", [])))


def release_total(result: dict) -> float:
    """kg/yr, all sites: the engine's totals by medium (``Result.totals_by_medium``), summed."""
    return sum((result.get("totals_by_medium") or {}).values())


def _clauses(text: str) -> list[str]:
    """``text`` cut at its top-level "; " (not inside parentheses), each clause without the
    final full stop."""
    clauses, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith("; ", i):
            clauses.append(text[start:i])
            start = i + 2
    clauses.append(text[start:])
    return [c.strip().rstrip(".") for c in clauses if c.strip().rstrip(".")]


def shared_basis(model: str, bases: list[str]) -> tuple[str, list[str]]:
    """The bases of one activity's estimates (central tendency, high end...) as one
    sentence they share and each one's own: the engine writes each estimate's basis in
    full, so the clauses every estimate repeats (the worker count, the days, "no gloves
    assumed") and the model's name the block's heading already prints are said once."""
    prefix = f"{model}: "
    split = [_clauses(b[len(prefix):] if b.startswith(prefix) else b) for b in bases]
    common = [c for c in split[0] if all(c in other for other in split[1:])] if len(split) > 1 else []
    own = ["; ".join(c for c in clauses if c not in common) for clauses in split]
    return "; ".join(common), own


def exposure_blocks(result: dict, route: str, cbi: Cbi) -> list[dict]:
    blocks = []
    for exposure in result.get("exposures", []):
        if exposure["route"] != route:
            continue
        estimates = exposure["estimates"]
        common, own = shared_basis(exposure["model"], [e["basis"] for e in estimates])
        blocks.append(
            {
                "letter": exposure["letter"],
                "activity": exposure["activity"],
                "model": exposure["model"],
                "equation": exposure["equation"],
                "workers": significant(exposure["workers_per_site"], 3),
                "workers_word": unit_for(exposure["workers_per_site"], "workers"),
                "days": significant(exposure["days_per_year"], 3),
                "basis": cbi.scrub(common),
                "estimates": [
                    {"label": e.get("irer_label") or e["label"].title(), "mg_day": epa(e["mg_day"]),
                     "basis": cbi.scrub(text)}
                    for e, text in zip(estimates, own)
                ],
            }
        )
    return blocks


def _concentration_texts(estimate: dict, cbi: Cbi, symbols: frozenset[str]) -> tuple[str, str]:
    """An estimate's mg/m³ and ppm as printed. In the sanitised copy of a case whose
    molecular weight is claimed the ppm is [CBI]: with the mg/m³ beside it, it gives the
    molecular weight away (ppm = mg/m³ × 24.45 / MW)."""
    mg_m3 = cbi.number(symbols, "", estimate["mg_m3"], epa(estimate["mg_m3"]))
    if cbi.hides_ppm and estimate["ppm"] is not None:
        return mg_m3, CBI_TEXT
    return mg_m3, cbi.number(symbols, "", estimate["ppm"], epa(estimate["ppm"]))


def dose_table(result: dict, submission: Submission, cbi: Cbi, symbols: frozenset[str]) -> dict:
    """The use's doses and airborne concentrations, one row per estimate (the exposure
    blocks print each mg/day; this compact table puts the rest beside it), and the dose
    basis, printed once per use. Columns without a figure in any row are left out."""
    exposures = exposure_rows(result=result, submission=submission)
    rows = []
    for exposure in exposures:
        for e in exposure["estimates"]:
            mg_m3, ppm = _concentration_texts(e, cbi, symbols)
            rows.append(
                {
                    "letter": exposure["letter"],
                    "route": exposure["route"].capitalize(),
                    "label": e.get("irer_label") or e["label"].title(),
                    "mg_day": epa(e["mg_day"]),
                    "mg_m3": mg_m3,
                    "ppm": ppm,
                    "doses": [cbi.number(symbols, "", e[name], epa(e[name])) for name, _, _ in DOSE_KEYS],
                    "limit": e["limit"].text if e["limit"] else "",
                    "above": bool(e["limit"] and e["limit"].above),
                }
            )
    computed = bool(result.get("dose_basis"))
    return {
        "rows": rows,
        "computed": computed,
        "basis": cbi.scrub(dose_basis_text(result)) if computed else DOSES_NOT_COMPUTED,
        "show_concentrations": any(x["has_concentrations"] for x in exposures),
        "show_limit": any(row["limit"] for row in rows),
    }


def exposure_summary_section(assessment: Assessment, uses: list, cbi: Cbi) -> dict:
    """The exposure summary across all uses (:func:`assessments.presentation.exposure_summary`),
    numbers as the report prints them (E-notation, two figures; counts as counts)."""
    summary = exposure_summary(assessment=assessment, scenarios=uses)
    groups = []
    for group in summary["groups"]:
        rows = []
        for row in group["rows"]:
            if row["kind"] == "limit":
                cells = [{"text": c.text if c else "—", "above": bool(c and c.above)} for c in row["cells"]]
            elif row["kind"] == "span":
                cells = [{"text": row["cells"][0], "above": False}]
            else:
                hidden = cbi.hides_ppm and row["unit"] == "ppm"
                cells = [
                    {"text": CBI_TEXT if hidden and c is not None else cbi.number(frozenset(), "", c, epa(c)), "above": False}
                    for c in row["cells"]
                ]
            rows.append({"quantity": row["short"], "number": row["kind"] == "number", "span": row["kind"] == "span",
                         "cells": cells})
        groups.append(
            {
                "use": group["use_number"],
                "not_current": group["not_current"],
                "activity": f"{group['letter']}. {cbi.scrub(group['activity'])}",
                "route": group["route"].capitalize(),
                "workers": significant(group["workers_per_site"], 3),
                "sites": significant(group["sites"], 3),
                "sites_word": "site" if group["sites"] == 1 else "sites",
                "workers_all_sites": significant(group["workers_all_sites"], 3),
                "days": significant(group["days_per_year"], 3),
                "rows": rows,
            }
        )
    return {
        "labels": [label.title() for label in summary["labels"]],
        "groups": groups,
        "limit": summary["limit"],
        "not_computed": [cbi.scrub(title) for title in summary["not_computed"]],
    }


ROUTES = (("inhalation", "Inhalation"), ("dermal", "Dermal"))


def _route_statement(result: dict, route: str) -> str:
    """Why a route has no block: the engine's own note on it, if any."""
    keyword = "Inhalation" if route == "inhalation" else "Dermal"
    for note in result.get("notes", []):
        if note.startswith(keyword) or f"{keyword.lower()} exposure" in note.lower():
            return note
    for note in result.get("notes", []):
        if "exposure" in note.lower() and ("none" in note.lower() or "negligible" in note.lower()):
            return note
    return f"{keyword} exposure is not assessed for this use."


def exposure_routes(result: dict, cbi: Cbi) -> tuple[list[dict], set[str]]:
    """The routes of OCCUPATIONAL EXPOSURES, in order: each one's title and its blocks, or,
    without a block, the statement why. Routes that share one statement (a use-wide "no
    exposure", e.g. a CVD fab's) are printed together under one title ("Inhalation and
    dermal"), so the statement is printed once. Also the notes printed so, which the use's
    Notes leave out."""
    routes: list[dict] = []
    printed: set[str] = set()
    for route, title in ROUTES:
        blocks = exposure_blocks(result, route, cbi)
        if blocks:
            routes.append({"title": title, "blocks": blocks, "statement": ""})
            continue
        note = _route_statement(result, route)
        printed.add(note)
        shared = next((r for r in routes if not r["blocks"] and r["note"] == note), None)
        if shared is not None:
            shared["title"] += f" and {title.lower()}"
            continue
        routes.append({"title": title, "blocks": [], "statement": cbi.scrub(note), "note": note})
    for r in routes:
        r.pop("note", None)
    return routes, printed


def _workers_total(facts: dict, cbi: Cbi, symbols: frozenset[str]) -> dict:
    """"Tot. # of workers exposed via assessed routes" as ChemSTEER prints it: over all sites
    (workers a site × sites; 198 for the sample's 66 a site at 3 sites), with the per-site
    count and its basis in the basis line. Hidden with the number of sites when that is claimed."""
    per_site, sites = facts.get("workers_per_site"), facts.get("sites")
    basis = cbi.scrub(facts.get("workers_basis", "")).rstrip(".")  # the template ends the sentence
    if not isinstance(per_site, (int, float)) or not isinstance(sites, (int, float)):
        return {"workers": significant(per_site, 3), "workers_basis": basis}
    sites_text = cbi.number(symbols, "", sites, significant(sites, 3))
    if sites_text == CBI_TEXT:
        return {"workers": CBI_TEXT, "workers_basis": f"{significant(per_site, 3)} a site × {CBI_TEXT} sites; {basis}"}
    if not per_site:
        return {"workers": "0", "workers_basis": basis}
    word = "site" if sites == 1 else "sites"
    return {"workers": significant(per_site * sites, 3),
            "workers_basis": f"{significant(per_site, 3)} a site × {sites_text} {word}; {basis}"}


def _irer_per(scenario_key: str) -> str:
    """How the "to:" line names the scenario's document ("per ESD", "per revised ESD")."""
    try:
        return registry.get(scenario_key).irer_per
    except EngineValidationError:
        return "per ESD"


def _method(scenario_key: str) -> tuple[str, str]:
    """The scenario's title and source, or its key for a scenario no longer registered."""
    try:
        spec = registry.get(scenario_key)
    except EngineValidationError:
        return scenario_key, ""
    return spec.title, spec.source


def mass_balance_section(result: dict, cbi: Cbi) -> dict | None:
    """The mass balance block of the appendix, as printed (hidden with the production volume)."""
    balance = mass_balance_rows(result)
    if balance is None:
        return None

    def kg(value: float) -> str:
        return CBI_TEXT if cbi.hides_annual_totals else epa(value)

    return {
        "used": kg(balance["used"]),
        "rows": [(label, kg(amount)) for label, amount in balance["rows"]],
        "released": kg(balance["released"]),
        "consumed": kg(balance["consumed"]),
        "difference": kg(balance["difference"]),
        "basis": cbi.scrub(balance["basis"]),
        "allowance": kg(balance["allowance"]) if balance["allowance"] else "",
        "allowance_basis": cbi.scrub(balance["allowance_basis"]),
    }


def scenario_section(scenario, submission: Submission, cbi: Cbi) -> dict:
    result = scenario.result or {}
    facts = result_facts(result)
    symbols = cbi.symbols(scenario.scenario_key)
    method, source = _method(scenario.scenario_key)
    total = release_total(result)
    state = scenario_state(scenario)
    routes, printed = exposure_routes(result, cbi)
    return {
        "title": scenario.title,
        "method": method,
        "source": source,
        "computed": bool(result),
        "state": state,
        "not_current": {STALE: NOT_CURRENT, UNCOMPUTED: NOT_COMPUTED}.get(state, ""),
        "sites": cbi.number(symbols, "", facts.get("sites"), significant(facts.get("sites"), 3)),
        "sites_given": bool(facts.get("sites_known")),
        "days": significant(facts.get("operating_days"), 3),
        "basis": facility_basis(result, cbi, symbols),
        "process": process_description(result, cbi),
        "mass_balance": mass_balance_section(result, cbi),
        "release_groups": release_groups(result, scenario.release_texts or {}, _irer_per(scenario.scenario_key), cbi),
        "computed_bases": computed_bases(result, cbi),
        "release_total": CBI_TEXT if cbi.hides_annual_totals else epa(total),
        **_workers_total(facts, cbi, symbols),
        "routes": routes,
        "doses": dose_table(result, submission, cbi, symbols),
        "warnings": [cbi.scrub(w) for w in result.get("warnings", [])],
        # A note printed as a route's statement above is not printed again.
        "notes": [cbi.scrub(n) for n in result.get("notes", []) if n not in printed],
        "engine_version": result.get("engine_version", ""),
        "default_set": cbi.scrub(result.get("default_set", {}).get("summary", "")),
        **_inputs_with_sources(scenario, result, cbi, symbols),
        "trace": [
            {
                "symbol": step["symbol"],
                "equation": step["equation"],
                "inputs": trace_inputs(step, cbi, symbols, result.get("inputs")),
                "value": cbi.number(symbols, step["symbol"], step["value"], significant(step["value"])),
                "units": unit_for(step["value"], step["units"]),
                "citation": step["citation"],
                "note": cbi.scrub(step.get("note", "")),
            }
            for step in result.get("trace", [])
        ],
    }


def _inputs_with_sources(scenario, result: dict, cbi: Cbi, symbols: frozenset[str]) -> dict:
    """The "inputs used" rows, each citing its source by number: many inputs share one
    source (a table of the document), which is printed once below the table."""
    sources: list[str] = []
    rows = []
    if not result:
        return {"inputs": rows, "sources": sources}
    for row in inputs_used(scenario=scenario, result=result):  # the inputs that applied, choices by label
        param, value = row["param"], row["value"]
        reason = row["reason"]
        if reason and row["given"]:
            source = cbi.scrub(reason)  # the reviewer's source of the value entered
        elif reason:  # a reason given beside a default (or left empty): the document's source and the words
            source = cbi.scrub(f"{param.source} (reviewer: {reason})")
        else:
            source = cbi.scrub(param.source)
        if source not in sources:
            sources.append(source)
        shown = cbi.number(symbols, param.symbol, value, entered(value))
        rows.append(
            {
                "symbol": param.symbol,
                "label": param.label,
                # the units agree with the value ("1 site"); a withheld value keeps the declared units,
                # which tell nothing about it
                "units": param.units if shown == CBI_TEXT else row["units"],
                "value": shown,
                "standing": row["standing"],
                "source_ref": sources.index(source) + 1,
                "overridden": row["overridden"],
            }
        )
    for entry in result_entries(result):  # the submitter's site data (EIIP), one source each
        source = cbi.scrub(
            f"{SITE_STEP_TITLE} {entry['number']}: {entry['method'].title}, {entry['replaces']}; source: {entry['source']}"
            + (f"; activity: {entry['activity']}" if entry["activity"] else "")
        )
        if source not in sources:
            sources.append(source)
        for site_row in entry["rows"]:
            param, value = site_row["param"], site_row["value"]
            rows.append(
                {
                    "symbol": param.symbol,
                    "label": f"{param.label} (site data {entry['number']})",
                    "units": param.units,
                    "value": cbi.number(symbols, param.symbol, value, entered(value)),
                    "standing": SITE_DATA_STANDING,
                    "source_ref": sources.index(source) + 1,
                    "overridden": False,
                }
            )
    return {"inputs": rows, "sources": sources}


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


def header(submission: Submission, assessment: Assessment, cbi: Cbi, uses=()) -> dict:
    """The header block as ChemSTEER prints it (the sample IRER's first page; :mod:`.header`
    formats its figures and lines); ``uses`` the assessment's scenarios, whose results name
    the engine version in the generated-by line."""
    s = submission

    def number(value, units=""):
        return "" if value is None else f"{significant(value, 3)}{units}"

    pbt = " ".join(part for part in (s.pbt_rating, cbi.scrub(s.pbt_note)) if part)
    return {
        "case_type": s.case_type,
        "assessment_date": assessment.assessment_date,
        "pv": cbi.item("production_volume_kg_yr", entered(s.production_volume_kg_yr)),
        "volume_qualifier": s.get_volume_qualifier_display(),
        "import_only": s.volume_qualifier == VolumeQualifier.IMPORT_ONLY,  # reports/docx.py reads it
        "engineer": assessment.engineer.get_full_name() or assessment.engineer.get_username(),
        "submitter": cbi.item("submitter", s.submitter),
        "use": cbi.item("use_description", s.use_description),
        "concentration": cbi.item("use_concentration", irer_percent(s.use_concentration) if s.use_concentration else ""),
        "other_uses": cbi.item("other_uses", s.other_uses),
        "msds": _yes_no(s.msds),
        "label": _yes_no(s.label),
        "tlv_pel": tlv_pel_text(s, note=cbi.scrub(s.tlv_pel)),
        "chemical_name": cbi.item("chemical_name", s.chemical_name),
        "generic_name": s.generic_name,
        "cas_number": cbi.item("cas_number", s.cas_number),
        "solubility": header_lines.solubility_text(s.water_solubility_g_l, s.water_solubility_temp_c),
        "physical_state": s.get_physical_state_display(),
        "mw": cbi.item("molecular_weight", header_lines.two_decimals(s.molecular_weight)),
        "pct_500": number(s.pct_below_500_da, " %"),
        "pct_1000": number(s.pct_below_1000_da, " %"),
        "vp": header_lines.vapour_pressure_text(s.vapour_pressure_torr, s.vapour_pressure_temp_c),
        "consumer_use": cbi.item("consumer_use", s.consumer_use),
        "sat_migration": cbi.scrub(s.groundwater_migration_text),
        "pbt_rating": pbt,
        "sat_health": s.sat_health,
        "sat_eco": s.sat_eco,
        "oer": assessment.occupational_exposure_rating,
        "generated_by": header_lines.generated_by(
            (use.result or {}).get("engine_version", "") for use in uses if use.result
        ),
        "notes": cbi.scrub(assessment.notes),
        "pollution_prevention": cbi.scrub(assessment.pollution_prevention),
        "exposure_based_review": _yes_no(assessment.exposure_based_review),
    }


def _local_date(value) -> str:
    """A date or time as the status line prints it, in the current time zone: ``11/25/2026``."""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return dateformat.format(value, "n/j/Y") if value else ""


def status_lines(assessment: Assessment, approver: str) -> tuple[str, str]:
    """The status under the title (``Staff Draft 11/2/2026``, the assessment's date) and the
    one in the running footer (``Staff Draft``). An approved revision says who approved it
    and when, once: ``Approved 11/25/2026 by Sam Supervisor``, in both."""
    label = STATUS_LABELS[assessment.status]
    if assessment.status == Status.APPROVED and approver:
        approved = f"{label} {_local_date(assessment.approved_at)} by {approver}"
        return approved, approved
    return f"{label} {_local_date(assessment.assessment_date)}".strip(), label


def irer_context(*, assessment: Assessment, sanitised: bool = False) -> dict:
    """Everything the IRER template prints for ``assessment`` (full or sanitised copy).

    Who may have which copy is the caller's check (``reports.services``)."""
    assessment = as_printed(assessment)
    submission = assessment.submission
    cbi = Cbi(submission, sanitised)
    approved = assessment.status == Status.APPROVED
    uses = list(assessment.scenarios.all())
    scenarios = [scenario_section(s, submission, cbi) for s in uses]
    approver = assessment.approved_by
    approved_by = (approver.get_full_name() or approver.get_username()) if approved and approver else ""
    volume = uses_volume(assessment=assessment, scenarios=uses)
    status_line, running_status = status_lines(assessment, approved_by)
    return {
        "assessment_id": assessment.pk,
        "submission_id": assessment.submission_id,
        "case_number": submission.case_number,
        "case_name": cbi.scrub(submission.case_name or submission.generic_name),
        "revision": assessment.revision,
        "cbi_case": submission.is_cbi,
        "cbi_label": f"CBI: {_yes_no(submission.is_cbi and not sanitised)}",
        "sanitised": sanitised,
        "sanitised_note": SANITISED_NOTE if sanitised and submission.is_cbi else "",
        "cbi_banner": CBI_BANNER if submission.is_cbi and not sanitised else "",
        "status_label": STATUS_LABELS[assessment.status],
        "status_line": status_line,
        # the running footer: the status, and on a CBI case's full copy that it holds CBI
        "running_status": running_status
        + (" · CONFIDENTIAL BUSINESS INFORMATION" if submission.is_cbi and not sanitised else ""),
        "draft": not approved,
        "approved_by": approved_by,
        "approved_at": assessment.approved_at if approved else None,
        "printed_at": timezone.now(),
        "header": header(submission, assessment, cbi, uses),
        "scenarios": scenarios,
        "exposure_summary": exposure_summary_section(assessment, uses, cbi),
        # ChemSTEER's wording the engineer chose, printed after "IRER Note:"
        "release_note": IrerNote(assessment.irer_note).label.removeprefix("IRER Note: "),
        "all_uses_total": CBI_TEXT
        if cbi.hides_annual_totals
        else epa(sum(release_total(s.result or {}) for s in uses)),
        "not_current": [
            {"number": number, "title": section["title"], "text": section["not_current"]}
            for number, section in enumerate(scenarios, start=1)
            if section["not_current"]
        ],
        "volume_excess": volume["excess"],
        "volume_message": "" if not volume["excess"] else (
            VOLUME_EXCESS_HIDDEN if cbi.hides_annual_totals else volume["message"]
        ),
        "volume_reason": cbi.scrub(assessment.volume_excess_reason) if volume["excess"] else "",
    }
