"""What the portfolio page and its CSV show, read from the ledger's cells (``portfolio.models``)
and, for the open cases' list, from the cases' own due-date index: a few queries, none of
which reads a row per case (``benchmarks/portfolio.py`` counts the rows they examine).

Who sees what: a reviewer their own work (the engineer filter is themselves), a supervisor
the team's or one engineer's. A person not cleared for CBI reads the cells of cases without
a claim only, so no count, average or chart of theirs holds a CBI case (``tests/portfolio``
draws the page and the CSV of two workloads that differ only in CBI cases).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, IntegerField, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from assessments import presentation
from assessments.due_dates import of_engineer, running
from assessments.esd import registry
from assessments.impact_runs import engineer_choices
from assessments.models import Scenario, Status, Submission
from assessments.roles import is_cbi_cleared, is_supervisor
from assessments.selectors import visible_submissions

from . import rework
from .models import EVERY_METHOD, DepartureCell, DueCell, RevisionRecord, ReworkCell

#: The periods offered, by the months they reach back (the month of today included).
PERIODS = (("3", "Last 3 months"), ("12", "Last 12 months"), ("36", "Last 3 years"))
DEFAULT_PERIOD = "12"
#: The open cases listed, soonest due first.
LISTED = 25
#: The inputs and methods listed at most.
TOP = 10

BAD_PERIOD = "Period must be one of: {choices}."
BAD_ENGINEER = "Engineer must be one of the list's names."
BAD_METHOD = "Method must be one of the list's methods."


@dataclass(frozen=True)
class Filters:
    """The page's filters, read and checked (:func:`read_filters`): an engineer's id (None:
    the team), a method (``""``: every method) and a period in months."""

    engineer: int | None = None
    scenario: str = EVERY_METHOD
    period: str = DEFAULT_PERIOD

    @property
    def months(self) -> int:
        return int(self.period)

    def first_month(self, today: date) -> date:
        """The first month the period counts (``months`` months, this one included)."""
        month = today.month - self.months
        return date(today.year + month // 12, month % 12 + 1, 1)

    def as_params(self) -> dict[str, str]:
        return {"engineer": "" if self.engineer is None else str(self.engineer), "scenario": self.scenario,
                "period": self.period}


def method_choices() -> list[tuple[str, str]]:
    return [(s.key, presentation.method_title(s.key)) for s in registry.scenarios()]


def read_filters(params: Mapping[str, str], *, user: User | AnonymousUser) -> tuple[Filters, dict[str, str]]:
    """The filters of a query string, and the error of each bad one (field → words: a bad
    filter is left out, never guessed). A reviewer's engineer is always themselves."""
    errors: dict[str, str] = {}
    period = params.get("period") or DEFAULT_PERIOD
    if period not in dict(PERIODS):
        errors["period"] = BAD_PERIOD.format(choices=", ".join(label for _, label in PERIODS))
        period = DEFAULT_PERIOD
    scenario = params.get("scenario") or EVERY_METHOD
    if scenario and scenario not in dict(method_choices()):
        errors["scenario"] = BAD_METHOD
        scenario = EVERY_METHOD
    engineer: int | None = None
    if params.get("engineer"):
        try:
            engineer = int(params["engineer"])
        except ValueError:
            engineer = None
        if engineer is None or not engineer_choices().filter(pk=engineer).exists():
            errors["engineer"] = BAD_ENGINEER
            engineer = None
    if not is_supervisor(user):
        engineer = user.pk
    return Filters(engineer=engineer, scenario=scenario, period=period), errors


# --- the cells a person may read --------------------------------------------------------------


def _cells(model: type[Any], filters: Filters, user: User | AnonymousUser, *, method: bool = True) -> QuerySet[Any]:
    rows: QuerySet[Any] = model._default_manager.all()
    if not is_cbi_cleared(user):
        rows = rows.filter(cbi=False)
    if filters.engineer is not None:
        rows = rows.filter(engineer_id=filters.engineer)
    if method:
        rows = rows.filter(scenario=filters.scenario)
    return rows


def _sum(name: str) -> Coalesce:
    return Coalesce(Sum(name), 0, output_field=IntegerField())


@dataclass(frozen=True)
class Bucket:
    label: str
    count: int


def days_left_buckets(filters: Filters, user: User | AnonymousUser, *, today: date, soon: int) -> list[Bucket]:
    """The open cases by days left: overdue, due within ``soon`` days, within 30, 60, later,
    and those whose clock is stopped. From the due cells: the running and stopped
    totals, and the dates from today on; overdue is the running total less those (two queries
    over the due cells, each an index range: the cells of days past are never read)."""
    edges = [(f"Due in 0–{soon} days", today, today + timedelta(days=soon)),
             (f"{soon + 1}–30 days", today + timedelta(days=soon + 1), today + timedelta(days=30)),
             ("31–60 days", today + timedelta(days=31), today + timedelta(days=60)),
             ("More than 60 days", today + timedelta(days=61), None)]
    sums: dict[str, Any] = {}
    for index, (_, start, end) in enumerate(edges):
        where = Q(due_on__gte=start) & (Q(due_on__lte=end) if end is not None else Q())
        sums[f"b{index}"] = Coalesce(Sum("cases", filter=where), 0, output_field=IntegerField())
    cells = _cells(DueCell, filters, user)
    counts = cells.filter(due_on__gte=today).aggregate(**sums)  # the dates from today on: an index range
    counts |= cells.filter(due_on__isnull=True).aggregate(
        running=Coalesce(Sum("cases", filter=Q(stopped=False)), 0, output_field=IntegerField()),
        stopped=Coalesce(Sum("cases", filter=Q(stopped=True)), 0, output_field=IntegerField()))
    ahead = [Bucket(label, counts[f"b{i}"]) for i, (label, _, _) in enumerate(edges)]
    return [Bucket("Overdue", counts["running"] - sum(b.count for b in ahead)), *ahead,
            Bucket("Clock stopped", counts["stopped"])]


MEASURES = ("revisions", "returned_revisions", "returns", "amendments", "recomputes")
TIMED_FIELDS = tuple((str(status), f"{status}_seconds", f"{status}_now", f"{status}_since") for status in rework.TIMED)


@dataclass(frozen=True)
class Rework:
    """The rework of the revisions started in the period: counts, and the days spent in each
    status (ended spans, and the current ones up to now), in total and per revision."""

    revisions: int = 0
    returned_revisions: int = 0
    returns: int = 0
    amendments: int = 0
    recomputes: int = 0
    seconds: dict[str, int] = field(default_factory=dict)

    def per_revision(self, value: float) -> float | None:
        return value / self.revisions if self.revisions else None

    @property
    def days(self) -> dict[str, float]:
        """Mean days in each status per revision."""
        return {status: seconds / 86400 / self.revisions if self.revisions else 0.0
                for status, seconds in self.seconds.items()}


def _rework(row: Mapping[str, Any], now: datetime) -> Rework:
    seconds = {status: row[closed] + row[count] * rework.epoch(now) - row[since]
               for status, closed, count, since in TIMED_FIELDS}
    return Rework(**{name: row[name] for name in MEASURES}, seconds=seconds)


def _rework_sums() -> dict[str, Coalesce]:
    names = [*MEASURES, *(name for _, *names in TIMED_FIELDS for name in names)]
    return {name: _sum(name) for name in names}


def rework_total(filters: Filters, user: User | AnonymousUser, *, now: datetime) -> Rework:
    rows = _cells(ReworkCell, filters, user).filter(month__gte=filters.first_month(now.date()))
    return _rework(rows.aggregate(**_rework_sums()), now)


@dataclass(frozen=True)
class MethodRework:
    key: str
    title: str
    rework: Rework

    @property
    def rework_per_revision(self) -> float:
        r = self.rework
        return (r.returns + r.amendments + r.recomputes) / r.revisions if r.revisions else 0.0


def rework_by_method(filters: Filters, user: User | AnonymousUser, *, now: datetime) -> list[MethodRework]:
    """Each method's rework (returns, amendments and recomputes per revision), most first;
    with a method chosen, that method's alone."""
    rows = _cells(ReworkCell, filters, user, method=False).filter(month__gte=filters.first_month(now.date()))
    rows = rows.exclude(scenario=EVERY_METHOD) if not filters.scenario else rows.filter(scenario=filters.scenario)
    titles = dict(method_choices())
    found = [MethodRework(row["scenario"], titles.get(row["scenario"], row["scenario"]), _rework(row, now))
             for row in rows.values("scenario").annotate(**_rework_sums()).order_by("scenario")]
    found.sort(key=lambda m: (-m.rework_per_revision, -m.rework.revisions, m.title))
    return found[:TOP]


@dataclass(frozen=True)
class InputDeparture:
    key: str
    method: str
    symbol: str
    label: str
    uses: int
    crossed: int
    measured: int
    log_micro: int

    @property
    def typical(self) -> str:
        """The typical factor by which the departure alone moves the use's figures (the
        geometric mean of each use's largest factor), or "—" when none is finite."""
        return rework.factor_text(self.log_micro / self.measured) if self.measured else "—"

    @property
    def typical_factor(self) -> float | None:
        return math.exp(self.log_micro / self.measured / rework.LOG_SCALE) if self.measured else None


def departures_most_often(filters: Filters, user: User | AnonymousUser, *, now: datetime) -> list[InputDeparture]:
    """The inputs most often departed from in the period's computed uses, with how many of
    those departures alone cross a review threshold and their typical effect."""
    rows = _cells(DepartureCell, filters, user, method=False).filter(month__gte=filters.first_month(now.date()))
    if filters.scenario:
        rows = rows.filter(scenario=filters.scenario)
    rows = (rows.values("scenario", "symbol")
            .annotate(uses=_sum("uses"), crossed=_sum("crossed"), measured=_sum("measured"), log_micro=_sum("log_micro"))
            .filter(uses__gt=0).order_by("-uses", "scenario", "symbol")[:TOP])
    titles = dict(method_choices())
    return [InputDeparture(row["scenario"], titles.get(row["scenario"], row["scenario"]), row["symbol"],
                           _label(row["scenario"], row["symbol"]), row["uses"], row["crossed"], row["measured"],
                           row["log_micro"]) for row in rows]


def _label(key: str, symbol: str) -> str:
    try:
        params = registry.get(key).params
    except ValueError:  # a method this installation's engine no longer has (EngineValidationError)
        return symbol
    return params[symbol].label if symbol in params else symbol


# --- the open cases, soonest due first ---------------------------------------------------------


@dataclass(frozen=True)
class OpenCase:
    case: Submission
    days_left: int
    returns: int
    amendments: int
    recomputes: int


def open_case_rows(filters: Filters, user: User | AnonymousUser, *, today: date) -> list[OpenCase]:
    """The open cases whose clock runs, soonest due first (:data:`LISTED`: the cases' own
    due-date index), each with the rework of all its revisions (the ledger's records of
    those cases alone)."""
    # The cases' own due-date index (``submission_open_due_first``), without the lists'
    # older-engine mark; the columns listed only.
    cases = running(visible_submissions(user=user).exclude(latest_status=Status.APPROVED))
    if filters.engineer is not None:
        cases = of_engineer(cases, User(pk=filters.engineer))
    if filters.scenario:
        cases = cases.filter(Exists(Scenario.objects.filter(
            assessment__submission=OuterRef("pk"), assessment__revision=OuterRef("latest_revision"),
            scenario_key=filters.scenario)))
    listed = list(cases.order_by("due_on", "id").only("id", "case_number", "due_on", "is_cbi")[:LISTED])
    sums = {row["case_id"]: (row["returns"], row["amendments"], row["recomputes"])
            for row in RevisionRecord.objects.filter(case_id__in=[c.pk for c in listed]).values("case_id")
            .annotate(returns=_sum("returns"), amendments=_sum("amendments"), recomputes=_sum("recomputes"))}
    return [OpenCase(case, (case.due_on - today).days if case.due_on else 0, *sums.get(case.pk, (0, 0, 0)))
            for case in listed]


# --- one case's rework, revision by revision ---------------------------------------------------


@dataclass(frozen=True)
class RevisionRework:
    """A revision's rework as its ledger record holds it, with the seconds in each timed
    status up to now (``rework.seconds_in``) and its computed uses' departures."""

    revision: int
    status: str
    returns: int
    amendments: int
    recomputes: int
    seconds: dict[str, int]
    departures: list[dict[str, Any]]


def case_rework(case: Submission, *, now: datetime) -> list[RevisionRework]:
    """Each revision of ``case``, oldest first (the case page's Rework section, the API)."""
    return [RevisionRework(record.revision, record.status, record.returns, record.amendments, record.recomputes,
                           rework.seconds_in(record, now), list(record.departures))
            for record in RevisionRecord.objects.filter(case_id=case.pk).order_by("revision")]

