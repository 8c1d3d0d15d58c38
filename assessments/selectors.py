"""Reads: every query the views and the report need, with the visibility rules.

A CBI case (any field claimed confidential) exists only for users cleared for CBI;
for everyone else it is filtered out of lists and ``get`` raises ``Http404``, so an
uncleared user cannot even learn that the case number is taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, Field, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from .esd import registry
from .esd.parameters import EngineValidationError
from .exposure_limits import case_limit
from .models import SCENARIO_UNDO_WINDOW, Assessment, Scenario, Status, Submission
from .numbers import entered, share, significant
from .presentation import STALE, exposure_summary, result_facts, scenario_state, scenario_summary
from .roles import is_cbi_cleared


def visible_submissions(*, user: User | AnonymousUser) -> QuerySet[Submission]:
    """The cases ``user`` may see."""
    if not user.is_authenticated:
        return Submission.objects.none()
    return Submission.objects.filter(visible_to(user=user))


def visible_to(*, user: User | AnonymousUser, case: str = "") -> Q:
    """The visibility rule of :func:`visible_submissions` as a condition on a case, or on
    the case at the path ``case`` (``"submission__"`` from an assessment): a condition on
    the row read, so a list of assessments reads them through its own index instead of
    first reading every visible case."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    return Q() if is_cbi_cleared(user) else Q(**{f"{case}is_cbi": False})


def submission_list_for_user(*, user: User | AnonymousUser) -> QuerySet[Submission]:
    """Visible cases, newest first (:data:`CASE_ORDER`), each with its latest assessment's
    ``latest_status``, ``latest_revision`` and ``latest_engineer`` (kept on the case by
    ``models.refresh_latest_assessment``; the engineer read in the same query)."""
    return visible_submissions(user=user).select_related("latest_engineer").order_by(*CASE_ORDER)


#: The shortest query the text search looks for anywhere in the searched fields.
SEARCH_MIN_LENGTH = 3
SHORT_SEARCH = (
    "A search of one or two characters finds the case numbers that start with them; "
    "type three or more to search the chemical, submitter and case names too."
)


def is_short_search(q: str) -> bool:
    """Whether the text search reads ``q`` as the start of a case number (:data:`SHORT_SEARCH`)."""
    return 0 < len(q.strip()) < SEARCH_MIN_LENGTH


def submission_search(
    *, user: User | AnonymousUser, q: str = "", status: str = "", engineer: str = "", has_approved: bool = False
) -> QuerySet[Submission]:
    """:func:`submission_list_for_user` narrowed by a free-text query (any of
    ``Submission.SEARCHED_FIELDS`` contains it, ignoring case), the latest assessment's
    status (``models.NO_ASSESSMENT`` for cases without one) and its engineer (user name or
    name, partial), and ``has_approved``: any revision approved, the latest or an earlier
    one (revision 1 approved while revision 2 is a draft), where ``status`` reads the
    latest revision only.

    A query shorter than :data:`SEARCH_MIN_LENGTH` characters finds the case numbers that
    start with it (:data:`SHORT_SEARCH`): a word of one or two characters is in nearly
    every case, or in too few for any index to find.

    Each condition is an indexed read on PostgreSQL: the status one column of the case
    (index ``submission_status_newest_first``), the text one trigram index per searched
    field (migration 0007), a short query the case numbers' prefix index (migration 0024)."""
    queryset = submission_list_for_user(user=user)
    q = q.strip()
    if is_short_search(q):
        queryset = queryset.filter(case_number__istartswith=q)
    elif q:
        matches = Q()
        for name in Submission.SEARCHED_FIELDS:
            matches |= Q(**{f"{name}__icontains": q})
        queryset = queryset.filter(matches)
    if status:
        queryset = queryset.filter(latest_status=status)
    if has_approved:
        # One EXISTS over the case's revisions (read through the index on submission, revision).
        queryset = queryset.filter(
            Exists(Assessment.objects.filter(submission=OuterRef("pk"), status=Status.APPROVED))
        )
    engineer = engineer.strip()
    if engineer:
        username = get_user_model().USERNAME_FIELD
        queryset = queryset.filter(
            Q(**{f"latest_engineer__{username}__icontains": engineer})
            | Q(latest_engineer__first_name__icontains=engineer)
            | Q(latest_engineer__last_name__icontains=engineer)
        )
    return queryset


# Paging the case list by keyset ---------------------------------------------------------------
#
# A page is the cases after (older than) or before (newer than) one case's place in the
# list's order, read from the index in that order and stopped after one page: the oldest
# page costs what the newest does, and nothing counts every case. A place is written in
# the page links as ``<received, UTC>,<id>``, e.g. ``2026-01-03T10:00:00.000000Z,4711``.

CASE_ORDER = ("-created_at", "-id")  # Submission.Meta.ordering; index submission_newest_first
PAGE_PARAMETERS = ("after", "before", "oldest", "page")  # "page": the numbered pages' (ignored)
_PLACE_TIME = "%Y-%m-%dT%H:%M:%S.%fZ"
BAD_PLACE = "This page link is not one the case list makes ({problem}): showing the newest cases."


def split_place(text: str) -> tuple[str, int] | None:
    """A page link's place, ``<key>,<id>``: the key's text and the row's id, or ``None``
    when it is not one (no comma, or an id that is not 1 to 18 ASCII digits). The case
    list's and the due-date lists' places (``due_dates.DuePlace``) read their key from it."""
    key, comma, pk = text.partition(",")
    if not comma or not (pk.isascii() and pk.isdigit()) or len(pk) > 18:
        return None
    return key, int(pk)


class BadPlace(ValueError):
    """A page link's ``after``/``before``/``oldest`` that the case list did not make."""


@dataclass(frozen=True)
class CasePlace:
    """A case's place in the list's order: received time, then id (both descending)."""

    created_at: datetime
    pk: int

    @classmethod
    def of(cls, case: Submission) -> CasePlace:
        return cls(case.created_at, case.pk)

    def __str__(self) -> str:
        return f"{self.created_at.astimezone(UTC).strftime(_PLACE_TIME)},{self.pk}"

    @classmethod
    def parse(cls, text: str) -> CasePlace:
        parts = split_place(text)
        if parts is None:
            raise BadPlace(BAD_PLACE.format(problem="expected a received time and a case id"))
        stamp, pk = parts
        try:
            created_at = datetime.strptime(stamp, _PLACE_TIME).replace(tzinfo=UTC)
        except ValueError:
            raise BadPlace(BAD_PLACE.format(problem="the received time is not one")) from None
        return cls(created_at, pk)

    def older(self) -> Q:
        """The cases after this place in the list. ``created_at <=`` alone is what the
        index reads from; the rest breaks ties between cases received at the same time."""
        return Q(created_at__lte=self.created_at) & (Q(created_at__lt=self.created_at) | Q(pk__lt=self.pk))

    def newer(self) -> Q:
        return Q(created_at__gte=self.created_at) & (Q(created_at__gt=self.created_at) | Q(pk__gt=self.pk))


@dataclass(frozen=True)
class PageRequest:
    """Which page of the list: the newest (no place), ``after`` or ``before`` a place, or
    the ``oldest``."""

    after: CasePlace | None = None
    before: CasePlace | None = None
    oldest: bool = False

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> PageRequest:
        """From the page link's parameters; ``BadPlace`` for a link the list did not make.
        The old numbered pages' ``page`` is ignored: such a link shows the newest page."""
        given = [name for name in ("after", "before", "oldest") if params.get(name)]
        if not given:
            return cls()
        if len(given) > 1:
            raise BadPlace(BAD_PLACE.format(problem="give one of after, before and oldest"))
        if given == ["oldest"]:
            if params["oldest"] != "1":
                raise BadPlace(BAD_PLACE.format(problem="oldest is 1"))
            return cls(oldest=True)
        place = CasePlace.parse(params[given[0]])
        return cls(after=place) if given == ["after"] else cls(before=place)


@dataclass
class CasePage:
    """One page of cases, newest first, and where the links from it lead: ``newer`` and
    ``older`` are the places of its first and last case (``None`` at either end)."""

    object_list: list[Submission]
    newer: CasePlace | None
    older: CasePlace | None

    @property
    def is_newest(self) -> bool:
        return self.newer is None

    @property
    def is_oldest(self) -> bool:
        return self.older is None

    @property
    def has_other_pages(self) -> bool:
        return not (self.is_newest and self.is_oldest)


def case_page(cases: QuerySet[Submission], *, request: PageRequest, size: int) -> CasePage:
    """The page ``request`` of ``cases`` (in :data:`CASE_ORDER`): ``size`` cases, read with
    one query of ``size + 1`` rows (the extra row tells whether there are more). A place
    past either end (a case deleted since, a link edited by hand) gives the page at that
    end, with one more query."""
    ascending = tuple(name.lstrip("-") for name in CASE_ORDER)
    if request.before is not None or request.oldest:
        if request.before is not None:
            cases_in_reverse = cases.filter(request.before.newer())
        else:
            cases_in_reverse = cases
        rows = list(cases_in_reverse.order_by(*ascending)[: size + 1])
        more, rows = len(rows) > size, rows[:size][::-1]
        if not rows and request.before is not None:
            return case_page(cases, request=PageRequest(), size=size)
        return _page(rows, newer=more, older=request.before is not None)
    after = cases.filter(request.after.older()) if request.after is not None else cases
    rows = list(after.order_by(*CASE_ORDER)[: size + 1])
    more, rows = len(rows) > size, rows[:size]
    if not rows and request.after is not None:
        return case_page(cases, request=PageRequest(oldest=True), size=size)
    return _page(rows, newer=request.after is not None, older=more)


def _page(rows: list[Submission], *, newer: bool, older: bool) -> CasePage:
    return CasePage(
        object_list=rows,
        newer=CasePlace.of(rows[0]) if newer and rows else None,
        older=CasePlace.of(rows[-1]) if older and rows else None,
    )


def submission_get(*, user: User | AnonymousUser, pk: int) -> Submission:
    """The case ``pk`` if ``user`` may see it; otherwise ``Http404``."""
    try:
        return visible_submissions(user=user).get(pk=pk)
    except Submission.DoesNotExist:
        raise Http404("No such case.") from None


# The case's fields as the IRER header block groups them (spec/irer.md, "Header block").
HEADER_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Case", ("case_number", "case_type", "case_name", "submitter")),
    ("Volume", ("production_volume_kg_yr", "volume_qualifier")),
    ("Chemical identity", ("chemical_name", "generic_name", "cas_number")),
    ("Use", ("use_description", "use_concentration", "other_uses", "consumer_use")),
    ("Hazard communication", ("msds", "label", "tlv_pel_value", "tlv_pel_unit", "tlv_pel_kind", "tlv_pel")),
    (
        "Physical-chemical properties (CRSS)",
        (
            "physical_state", "molecular_weight", "vapour_pressure_torr", "vapour_pressure_temp_c",
            "water_solubility_g_l", "water_solubility_temp_c", "pct_below_500_da", "pct_below_1000_da",
        ),
    ),
    (
        "SAT concerns",
        (
            "groundwater_migration", "groundwater_migration_other", "pbt_persistence", "pbt_bioaccumulation",
            "pbt_toxicity", "pbt_note", "sat_health", "sat_eco",
        ),
    ),
)


# The case's TLV/PEL value, unit and kind, shown as one item ("TLV/PEL: 5 mg/m³ ceiling") on the pages.
TLV_PEL_SHOWN_AS_ONE = ("tlv_pel_value", "tlv_pel_unit", "tlv_pel_kind")


def _display_number(value: float) -> str:
    """A case's number as typed, not as Python prints it: ``200``, ``0.15``, ``1E-6``
    (:func:`assessments.numbers.entered`)."""
    return entered(value)


def submission_header_groups(*, submission: Submission) -> list[dict[str, Any]]:
    """``[{"title", "fields": [{"name", "label", "value", "claimed"}]}]`` for display.

    ``value`` is the display value (choice labels, Yes/No for flags, ``None`` when
    not given); ``claimed`` tells whether the submitter claims the field as CBI.
    """
    groups: list[dict[str, Any]] = []
    for title, names in HEADER_GROUPS:
        fields: list[dict[str, Any]] = []
        for name in names:
            field = Submission._meta.get_field(name)
            assert isinstance(field, Field), f"{name}: a column of the case (HEADER_GROUPS)"
            value = getattr(submission, name)
            if name in TLV_PEL_SHOWN_AS_ONE:
                # The value, its unit and its kind read as one item: "5 mg/m³", "5 mg/m³ ceiling".
                if name != "tlv_pel_value":
                    continue
                limit = case_limit(submission)
                fields.append({"name": name, "label": "TLV/PEL", "value": limit.text if limit else None, "claimed": False})
                continue
            if field.choices:
                value = getattr(submission, f"get_{name}_display")()
            elif isinstance(value, bool):
                value = "Yes" if value else "No"
            elif isinstance(value, float):
                value = _display_number(value)
            elif value == "":
                value = None
            verbose_name = str(field.verbose_name)
            fields.append(
                {
                    "name": name,
                    "label": verbose_name[:1].upper() + verbose_name[1:],
                    "value": value,
                    "claimed": submission.is_claimed(name),
                }
            )
        groups.append({"title": title, "fields": fields})
    return groups


def assessments_for_submission(*, submission: Submission) -> QuerySet[Assessment]:
    return submission.assessments.select_related("engineer", "approved_by").order_by("-revision")


def assessment_get(*, user: User | AnonymousUser, pk: int) -> Assessment:
    """The assessment ``pk`` if ``user`` may see its case; otherwise ``Http404``."""
    try:
        return (
            Assessment.objects.select_related("submission", "engineer", "approved_by")
            .filter(submission__in=visible_submissions(user=user))
            .get(pk=pk)
        )
    except Assessment.DoesNotExist:
        raise Http404("No such assessment.") from None


def scenario_get(*, user: User | AnonymousUser, pk: int, deleted_too: bool = False) -> Scenario:
    """The scenario ``pk`` if ``user`` may see its case; otherwise ``Http404``. A deleted
    use is a 404 too, unless ``deleted_too`` (to undo its delete)."""
    manager = Scenario.all_objects if deleted_too else Scenario.objects
    try:
        return (
            manager.select_related("assessment__submission", "assessment__engineer")
            .filter(assessment__submission__in=visible_submissions(user=user))
            .get(pk=pk)
        )
    except Scenario.DoesNotExist:
        raise Http404("No such scenario.") from None


def recently_deleted_uses(*, assessment: Assessment) -> list[Scenario]:
    """The uses of ``assessment`` deleted less than ``SCENARIO_UNDO_WINDOW`` ago, most
    recent first, each with ``restorable_until``: the assessment page offers to undo each."""
    since = timezone.now() - SCENARIO_UNDO_WINDOW
    uses = list(
        Scenario.all_objects.filter(assessment=assessment, deleted_at__gt=since).order_by("-deleted_at", "-id")
    )
    for use in uses:
        assert use.deleted_at is not None, "read with deleted_at__gt"
        use.restorable_until = use.deleted_at + SCENARIO_UNDO_WINDOW  # type: ignore[attr-defined]  # the page's, on the row
    return uses


def scenario_contents(*, scenario: Scenario) -> dict[str, Any]:
    """What a use holds, as the page that confirms its delete lists it: its method, whether
    it is computed, how many inputs differ from the document's defaults (and reasons are
    given), the releases with the engineer's report text, and the supervisor's open
    comments on it. All of it comes back when the delete is undone."""
    try:
        method = registry.get(scenario.scenario_key).title
    except EngineValidationError:  # a scenario no longer registered
        method = scenario.scenario_key
    return {
        "method": method,
        "state": scenario_state(scenario),
        "inputs": len(scenario.inputs),
        "reasons": sum(1 for text in scenario.reasons.values() if text),
        "release_texts": len(scenario.release_texts or {}),
        "open_comments": scenario.use_comments.filter(resolved_at__isnull=True).count(),
    }


def totals_by_medium(*, scenarios: Iterable[Scenario]) -> list[tuple[str, float]]:
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


def uses_volume(*, assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> dict[str, Any]:
    """The chemical the computed uses put through, summed, against the case's production
    volume: ``{"used_kg_yr", "pv_kg_yr", "excess", "message"}``. ``excess`` is true when
    the uses together need more than the case makes or imports."""
    scenarios = list(assessment.scenarios.all()) if scenarios is None else scenarios
    used = sum(result_facts(s.result).get("used_kg_yr") or 0.0 for s in scenarios)
    pv = assessment.submission.production_volume_kg_yr
    excess = used > pv * (1 + 1e-9)
    message = (
        VOLUME_EXCESS.format(used=significant(used, 4), pv=significant(pv, 4), percent=share(used, pv))
        if excess
        else ""
    )
    return {"used_kg_yr": used, "pv_kg_yr": pv, "excess": excess, "message": message}


def assessment_overview(*, assessment: Assessment) -> dict[str, Any]:
    """Everything the assessment page shows below the header."""
    scenarios = list(assessment.scenarios.all())
    rows = [(scenario, scenario_summary(scenario=scenario)) for scenario in scenarios]
    warnings = [(scenario, w) for scenario, summary in rows for w in summary.get("warnings", [])]
    return {
        "scenarios": rows,
        "totals": totals_by_medium(scenarios=scenarios),
        "totals_not_current": [s for s, summary in rows if summary["state"] == STALE],
        # Where the case is why (its amendment reached the use's linked inputs): in words.
        "case_changes": [(s, change) for s, summary in rows for change in summary.get("case_changes", [])],
        "warnings": warnings,
        "uncomputed": [scenario for scenario, summary in rows if not summary["computed"]],
        "volume": uses_volume(assessment=assessment, scenarios=scenarios),
        "exposure_summary": exposure_summary(assessment=assessment, scenarios=scenarios),
    }
