"""Reads: every query the views and the report need, with the visibility rules.

A CBI case (any field claimed confidential) exists only for users cleared for CBI;
for everyone else it is filtered out of lists and ``get`` raises ``Http404``, so an
uncleared user cannot even learn that the case number is taken.
"""

from __future__ import annotations

import re

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404

from .models import Assessment, Scenario, Submission
from .roles import is_cbi_cleared


def visible_submissions(*, user) -> QuerySet[Submission]:
    """The cases ``user`` may see."""
    if not user.is_authenticated:
        return Submission.objects.none()
    queryset = Submission.objects.all()
    if not is_cbi_cleared(user):
        queryset = queryset.filter(is_cbi=False)
    return queryset


def submission_list_for_user(*, user) -> QuerySet[Submission]:
    """Visible cases, newest first, each annotated with its latest assessment's
    ``latest_revision``, ``latest_status`` and ``latest_engineer`` (username)."""
    latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
    return (
        visible_submissions(user=user)
        .annotate(
            latest_revision=Subquery(latest.values("revision")[:1]),
            latest_status=Subquery(latest.values("status")[:1]),
            latest_engineer=Subquery(latest.values("engineer__username")[:1]),
        )
        .order_by("-created_at", "-id")
    )


def submission_search(*, user, q: str = "", status: str = "", engineer: str = "") -> QuerySet[Submission]:
    """:func:`submission_list_for_user` narrowed by a free-text query (case number,
    chemical or generic name, submitter), the latest assessment's status (``none`` for
    cases without one) and its engineer (user name or name, partial)."""
    queryset = submission_list_for_user(user=user)
    q = q.strip()
    if q:
        queryset = queryset.filter(
            Q(case_number__icontains=q)
            | Q(chemical_name__icontains=q)
            | Q(generic_name__icontains=q)
            | Q(submitter__icontains=q)
            | Q(case_name__icontains=q)
        )
    # The status filters are written as EXISTS over the assessments rather than as a
    # filter on the ``latest_status`` annotation, which the database would compute for
    # every case before filtering (a sequential scan with a subquery per case).
    if status == "none":
        queryset = queryset.filter(~Exists(Assessment.objects.filter(submission=OuterRef("pk"))))
    elif status:
        later = Assessment.objects.filter(submission=OuterRef("submission"), revision__gt=OuterRef("revision"))
        latest_with_status = Assessment.objects.filter(submission=OuterRef("pk"), status=status).exclude(Exists(later))
        queryset = queryset.filter(Exists(latest_with_status))
    engineer = engineer.strip()
    if engineer:
        latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
        queryset = queryset.annotate(
            latest_engineer_first=Subquery(latest.values("engineer__first_name")[:1]),
            latest_engineer_last=Subquery(latest.values("engineer__last_name")[:1]),
        ).filter(
            Q(latest_engineer__icontains=engineer)
            | Q(latest_engineer_first__icontains=engineer)
            | Q(latest_engineer_last__icontains=engineer)
        )
    return queryset


def submission_get(*, user, pk: int) -> Submission:
    """The case ``pk`` if ``user`` may see it; otherwise ``Http404``."""
    try:
        return visible_submissions(user=user).get(pk=pk)
    except Submission.DoesNotExist:
        raise Http404("No such case.") from None


# The case's fields as the IRER header block groups them (spec/irer.md, "Header block").
HEADER_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Case", ("case_number", "case_type", "case_name", "submitter")),
    ("Volume", ("production_volume_kg_yr", "import_only")),
    ("Chemical identity", ("chemical_name", "generic_name", "cas_number")),
    ("Use", ("use_description", "use_concentration", "other_uses", "consumer_use")),
    ("Hazard communication", ("msds", "label", "tlv_pel")),
    (
        "Physical-chemical properties (CRSS)",
        (
            "physical_state", "molecular_weight", "vapour_pressure_torr", "vapour_pressure_temp_c",
            "water_solubility_g_l", "water_solubility_temp_c", "pct_below_500_da", "pct_below_1000_da",
        ),
    ),
    ("SAT concerns", ("sat_migration", "pbt_rating", "sat_health", "sat_eco")),
)


def _display_number(value: float) -> str:
    """A case's number as typed, not as Python prints it: ``200``, ``0.15``, ``1.0E-6``."""
    from .templatetags.figures import epa, significant

    if value != 0 and abs(value) < 1e-3:
        return epa(value)
    return significant(value, 6)


def submission_header_groups(*, submission: Submission) -> list[dict]:
    """``[{"title", "fields": [{"name", "label", "value", "claimed"}]}]`` for display.

    ``value`` is the display value (choice labels, Yes/No for flags, ``None`` when
    not given); ``claimed`` tells whether the submitter claims the field as CBI.
    """
    groups = []
    for title, names in HEADER_GROUPS:
        fields = []
        for name in names:
            field = Submission._meta.get_field(name)
            value = getattr(submission, name)
            if field.choices:
                value = getattr(submission, f"get_{name}_display")()
            elif isinstance(value, bool):
                value = "Yes" if value else "No"
            elif isinstance(value, float):
                value = _display_number(value)
            elif value == "":
                value = None
            fields.append(
                {
                    "name": name,
                    "label": field.verbose_name[:1].upper() + field.verbose_name[1:],
                    "value": value,
                    "claimed": submission.is_claimed(name),
                }
            )
        groups.append({"title": title, "fields": fields})
    return groups


def assessments_for_submission(*, submission: Submission) -> QuerySet[Assessment]:
    return submission.assessments.select_related("engineer", "approved_by").order_by("-revision")


def assessment_get(*, user, pk: int) -> Assessment:
    """The assessment ``pk`` if ``user`` may see its case; otherwise ``Http404``."""
    try:
        return (
            Assessment.objects.select_related("submission", "engineer", "approved_by")
            .filter(submission__in=visible_submissions(user=user))
            .get(pk=pk)
        )
    except Assessment.DoesNotExist:
        raise Http404("No such assessment.") from None


def scenario_get(*, user, pk: int) -> Scenario:
    """The scenario ``pk`` if ``user`` may see its case; otherwise ``Http404``."""
    try:
        return (
            Scenario.objects.select_related("assessment__submission", "assessment__engineer")
            .filter(assessment__submission__in=visible_submissions(user=user))
            .get(pk=pk)
        )
    except Scenario.DoesNotExist:
        raise Http404("No such scenario.") from None


CURRENT, STALE, UNCOMPUTED = "current", "stale", "uncomputed"
NOT_CURRENT = "NOT CURRENT: inputs changed since this use was computed"
NOT_COMPUTED = "NOT COMPUTED: this use has no results yet"


def scenario_state(scenario: Scenario) -> str:
    """``current`` when the stored result was computed from the scenario's present inputs,
    ``stale`` when the inputs changed since, ``uncomputed`` when there is no result."""
    if scenario.result is None:
        return UNCOMPUTED
    return CURRENT if scenario.computed_inputs == scenario.inputs else STALE


def result_facts(result: dict | None) -> dict:
    """The engine's facility facts of a stored result (``Result.facts``): sites, operating
    days, workers, the use; empty for a result computed before the engine declared them."""
    return dict((result or {}).get("facts") or {})


def scenario_summary(*, scenario: Scenario) -> dict:
    """Key figures of a scenario for the assessment page (from its snapshot), and whether
    they are current."""
    state = scenario_state(scenario)
    result = scenario.result
    if not result:
        return {"computed": False, "state": state}
    facts = result_facts(result)
    return {
        "computed": True,
        "state": state,
        "stale": state == STALE,
        "sites": facts.get("sites"),
        "days": facts.get("operating_days"),
        "used_kg_yr": facts.get("used_kg_yr"),
        "release_count": len(result.get("releases", [])),
        "exposure_count": len(result.get("exposures", [])),
        "total_kg_yr": sum(result.get("totals_by_medium", {}).values()),
        "warnings": result.get("warnings", []),
    }


def totals_by_medium(*, scenarios) -> list[tuple[str, float]]:
    """kg/yr, all sites, by medium, summed over the computed scenarios; largest first."""
    totals: dict[str, float] = {}
    for scenario in scenarios:
        for medium, amount in ((scenario.result or {}).get("totals_by_medium") or {}).items():
            totals[medium] = totals.get(medium, 0.0) + amount
    return sorted(totals.items(), key=lambda item: -item[1])


VOLUME_EXCESS = (
    "The uses add up to {used} kg/yr, more than the case's production volume of {pv} kg/yr "
    "({percent} of it)."
)


def uses_volume(*, assessment: Assessment, scenarios=None) -> dict:
    """The chemical the computed uses put through, summed, against the case's production
    volume: ``{"used_kg_yr", "pv_kg_yr", "excess", "message"}``. ``excess`` is true when
    the uses together need more than the case makes or imports."""
    from .templatetags.figures import significant

    scenarios = list(assessment.scenarios.all()) if scenarios is None else scenarios
    used = sum(result_facts(s.result).get("used_kg_yr") or 0.0 for s in scenarios)
    pv = assessment.submission.production_volume_kg_yr
    excess = used > pv * (1 + 1e-9)
    message = (
        VOLUME_EXCESS.format(used=significant(used, 4), pv=significant(pv, 4), percent=f"{100 * used / pv:.0f} %")
        if excess
        else ""
    )
    return {"used_kg_yr": used, "pv_kg_yr": pv, "excess": excess, "message": message}


def assessment_overview(*, assessment: Assessment) -> dict:
    """Everything the assessment page shows below the header."""
    scenarios = list(assessment.scenarios.all())
    rows = [(scenario, scenario_summary(scenario=scenario)) for scenario in scenarios]
    warnings = [(scenario, w) for scenario, summary in rows for w in summary.get("warnings", [])]
    return {
        "scenarios": rows,
        "totals": totals_by_medium(scenarios=scenarios),
        "totals_not_current": [s for s, summary in rows if summary["state"] == STALE],
        "warnings": warnings,
        "uncomputed": [scenario for scenario, summary in rows if not summary["computed"]],
        "volume": uses_volume(assessment=assessment, scenarios=scenarios),
    }


MEDIUM_LABELS = {
    "air": "Air",
    "water": "Water",
    "incineration": "Incineration",
    "landfill": "Landfill",
    "fuel_blending": "Fuel blending",
    "destroyed": "Destroyed",
}


def medium_label(medium: str) -> str:
    """``"water or incineration"`` -> ``"Water or incineration"``."""
    parts = [MEDIUM_LABELS.get(part, part) for part in medium.split(" or ")]
    return " or ".join([parts[0]] + [p.lower() for p in parts[1:]])


def release_media_text(release: dict) -> str:
    """How a release's media read: ``Water or incineration``, or ``Water 25 %, incineration 75 %``."""
    media = release.get("media", [])
    if media and all(m.get("fraction") is not None for m in media):
        return ", ".join(f"{MEDIUM_LABELS.get(m['medium'], m['medium'])} {m['fraction'] * 100:g} %" for m in media)
    return medium_label(" or ".join(m["medium"] for m in media))


GIVEN, OVERRIDDEN, DEFAULT, COMPUTED, NOT_GIVEN = "Given", "Overridden", "Default", "Computed", "Not given"


def inputs_used(*, scenario: Scenario, result: dict) -> list[dict]:
    """Every input of the scenario as computed: value, standing, the reason, and the
    default's source (the report's "inputs used" table too).

    ``standing``: ``Overridden`` (differs from a default, with a reason), ``Given`` (an
    optional input entered), ``Default``, ``Computed`` (not given, and the scenario
    computed the quantity: ``value`` is the computed one, from the result's facility
    estimates) or ``Not given``."""
    from .esd import registry

    effective = result.get("inputs", {})
    facility = result.get("facility", {})
    rows = []
    for param in registry.get(scenario.scenario_key).params.params:
        value = effective.get(param.symbol, param.default)
        given = param.symbol in scenario.inputs
        if given:
            standing = OVERRIDDEN if param.default is not None else GIVEN
        elif value is not None:
            standing = DEFAULT
        elif isinstance(facility.get(param.symbol), (int, float)):
            value, standing = facility[param.symbol], COMPUTED
        else:
            standing = NOT_GIVEN
        rows.append(
            {
                "param": param,
                "value": value,
                "standing": standing,
                "overridden": standing == OVERRIDDEN,
                "given": given,
                "reason": scenario.reasons.get(param.symbol, ""),
            }
        )
    return rows


_DERIVED_SUFFIX = re.compile(r"^(?P<base>.+?)(?P<suffix>_calculated|_unrounded|_eqn_[0-9_]+|_low_end|_high_end|_used)$")


def _trace_for(symbol: str, trace: list[dict]) -> dict:
    """Units and citation of a facility quantity from the trace step that computed it.

    A symbol computed in several steps takes its last step (e.g. a count after rounding
    up); a derived key (the symbol with a suffix such as ``_unrounded`` or ``_eqn_3_2``)
    takes the first step of its base symbol.
    """
    steps = [step for step in trace if step["symbol"] == symbol]
    step = steps[-1] if steps else None
    if step is None:
        match = _DERIVED_SUFFIX.match(symbol)
        if match:
            steps = [s for s in trace if s["symbol"] == match["base"]]
            step = steps[0] if steps else None
    return {"units": step["units"], "citation": step["citation"]} if step else {"units": "", "citation": ""}


def default_set_text(default_set: dict) -> str:
    """The default set a result used, in the engine's one line (``default_set["summary"]``)."""
    return default_set.get("summary", "")


def scenario_results(*, scenario: Scenario) -> dict:
    """The results page's content, read from the scenario's stored snapshot."""
    result = scenario.result or {}
    trace = result.get("trace", [])
    facility = [
        {"symbol": symbol, "value": value, "numeric": isinstance(value, (int, float)), **_trace_for(symbol, trace)}
        for symbol, value in result.get("facility", {}).items()
        if not isinstance(value, (dict, list))
    ]
    releases = [dict(release, media_text=release_media_text(release)) for release in result.get("releases", [])]
    totals = sorted((result.get("totals_by_medium") or {}).items(), key=lambda item: -item[1])
    largest = max((amount for _, amount in totals), default=0) or 1
    chart = [
        {"medium": medium_label(medium), "kg_yr": amount, "percent": 100 * amount / largest}
        for medium, amount in totals
    ]
    return {
        "result": result,
        "facility": facility,
        "releases": releases,
        "exposures": result.get("exposures", []),
        "trace": trace,
        "chart": chart,
        "total_kg_yr": sum(amount for _, amount in totals),
        "inputs_used": inputs_used(scenario=scenario, result=result),
        "default_set": default_set_text(result.get("default_set", {})),
        "mass_balance": mass_balance_rows(result),
        "state": scenario_state(scenario),
        "not_current": NOT_CURRENT if scenario_state(scenario) == STALE else "",
    }


def mass_balance_rows(result: dict) -> dict | None:
    """The result's mass balance for display: ``{"used", "rows": [(label, kg/yr)],
    "consumed", "difference", "basis", "allowance", "allowance_basis"}``; None for a
    result computed before the engine reported one."""
    balance = result.get("mass_balance")
    if not balance:
        return None
    released = sorted(balance["released_kg_yr"].items(), key=lambda item: -item[1])
    return {
        "used": balance["used_kg_yr"],
        "rows": [(medium_label(medium), amount) for medium, amount in released],
        "released": sum(amount for _, amount in released),
        "consumed": balance["consumed_kg_yr"],
        "difference": balance["difference_kg_yr"],
        "basis": balance["basis"],
        "allowance": balance.get("allowance_kg_yr", 0.0),
        "allowance_basis": balance.get("allowance_basis", ""),
    }
