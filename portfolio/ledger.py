"""The portfolio's ledger kept up to date: each case's and revision's record made again from
its rows (``portfolio.rework`` decides what they say), and the difference between its old
and new share added to the cells, in the caller's transaction.

:func:`refresh_cases` is the one writer, called (through :func:`later`, once the writer's
transaction has committed) by ``portfolio.receivers`` whenever a case, a revision, a use, a
review decision or a calendar is saved or deleted, and whenever the derived copies on a case
are written in bulk (``assessments.models.case_rows_refreshed``);
:func:`rebuild` makes every record and cell again (``manage.py portfolio rebuild``, after a
bulk load that writes no signal). Both read the rows through :class:`Reads`: a few queries
per :data:`CHUNK` of cases, whatever their number of revisions and uses.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.db.models import F

from assessments import departures
from assessments.exposure_limits import case_limit
from assessments.models import Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission

from . import rework
from .models import CaseRecord, DepartureCell, DueCell, RevisionRecord, ReworkCell

#: Cases read at a time by :func:`rebuild` (each with its revisions, uses and history).
CHUNK = 500

Shares = Callable[[Any], rework.Share]


@dataclass(frozen=True)
class Cells:
    """A kind of cell: its model, the fields of its key (in the share's order) and the share
    a record has of it."""

    model: type[models.Model]
    key: tuple[str, ...]
    share: Shares


REWORK = Cells(ReworkCell, ("engineer_id", "scenario", "month", "cbi"), rework.rework_share)
DEPARTURES = Cells(DepartureCell, ("engineer_id", "scenario", "month", "cbi", "symbol"), rework.departure_share)
DUE = Cells(DueCell, ("engineer_id", "scenario", "cbi", "due_on", "stopped"), rework.due_share)
REVISION_CELLS = (REWORK, DEPARTURES)


def add(cells: Cells, delta: rework.Share) -> None:
    """Add ``delta`` to its cells: an UPDATE of each cell, or a new cell where there is none."""
    for key, changes in delta.items():
        where = dict(zip(cells.key, key))
        if not cells.model._default_manager.filter(**where).update(**{name: F(name) + value for name, value in changes.items()}):
            cells.model._default_manager.create(**where, **changes)


# --- reading the rows --------------------------------------------------------------------------


@dataclass
class Reads:
    """Every row the records of ``case_ids`` are made from, read in a few queries."""

    cases: dict[int, Submission]
    revisions: dict[int, list[Assessment]] = field(default_factory=dict)
    decisions: dict[int, list[tuple[datetime, str, str]]] = field(default_factory=dict)
    uses: dict[int, list[Scenario]] = field(default_factory=dict)
    computed: dict[int, list[tuple[int, datetime]]] = field(default_factory=dict)
    changes: dict[int, list[tuple[datetime, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, case_ids: Iterable[int], *, history: bool = True) -> Reads:
        """The rows of these cases; ``history=False``: the cases, their revisions and their
        uses' methods only (what a case record is made from)."""
        ids = list(case_ids)
        reads = cls(cases=Submission.objects.in_bulk(ids))
        revisions = Assessment.objects.filter(submission_id__in=ids).order_by("submission_id", "revision")
        for assessment in revisions:
            assessment.submission = reads.cases[assessment.submission_id]
            reads.revisions.setdefault(assessment.submission_id, []).append(assessment)
        assessment_ids = [a.pk for found in reads.revisions.values() for a in found]
        if not history:
            latest = [found[-1].pk for found in reads.revisions.values()]
            for use in Scenario.objects.filter(assessment_id__in=latest).only("id", "assessment_id", "scenario_key"):
                reads.uses.setdefault(use.assessment_id, []).append(use)
            return reads
        for decision in (ReviewDecision.objects.filter(assessment_id__in=assessment_ids).order_by("at", "id")
                         .values_list("assessment_id", "at", "action", "to_status")):
            reads.decisions.setdefault(decision[0], []).append(decision[1:])
        for use in Scenario.objects.filter(assessment_id__in=assessment_ids).order_by("position", "pk"):
            reads.uses.setdefault(use.assessment_id, []).append(use)
        for assessment_id, use_id, at in (Scenario.history.filter(assessment_id__in=assessment_ids,
                                                                  computed_at__isnull=False)
                                          .values_list("assessment_id", "id", "computed_at").distinct()):
            reads.computed.setdefault(assessment_id, []).append((use_id, at))
        for case_id, at, kind in (Submission.history.filter(id__in=ids, history_type="~")
                                  .values_list("id", "history_date", "history_type")):
            reads.changes.setdefault(case_id, []).append((at, kind))
        return reads


# --- making the records ------------------------------------------------------------------------

#: The departures found for one use's inputs and case limits, kept for the call (a rebuild
#: meets the same inputs many times).
DepartureMemo = dict[tuple[str, str, str, Any], list[tuple[str, tuple[str, ...], Any]]]


def _departure_facts(use: Scenario, case: Submission, memo: DepartureMemo) -> list[dict[str, Any]]:
    key = (use.scenario_key, json.dumps(use.computed_inputs, sort_keys=True, default=str),
           repr(case_limit(case)), case.molecular_weight)
    if key not in memo:
        found = departures.use_departures(use, case=case)
        memo[key] = [(d.symbol, tuple(d.thresholds), d.effects) for d in found.departures]
    return [rework.departure_fact(use=use.pk, scenario=use.scenario_key, symbol=symbol, thresholds=thresholds,
                                  effects=effects) for symbol, thresholds, effects in memo[key]]


def revision_record(assessment: Assessment, *, reads: Reads, old: RevisionRecord | None,
                    next_started: datetime | None, memo: DepartureMemo) -> RevisionRecord:
    """The record of ``assessment`` from ``reads`` (``old``'s departures kept for each use
    whose result has not changed since)."""
    case = assessment.submission
    decisions = reads.decisions.get(assessment.pk, [])
    spans = rework.status_spans(assessment.created_at, [(at, to_status) for at, _, to_status in decisions])
    seconds = rework.closed_seconds(spans)
    approvals = [a.approved_at for a in reads.revisions.get(case.pk, [])]
    amendments = rework.amendment_times(reads.changes.get(case.pk, []), approvals)
    submitted = rework.first_submitted((at, action) for at, action, _ in decisions)
    uses = reads.uses.get(assessment.pk, [])
    printed = assessment.case_data
    facts: list[dict[str, Any]] = []
    computed_of: dict[str, str] = {}
    kept = old.departures_of if old is not None else {}
    for use in uses:
        if use.result is None or use.computed_at is None:
            continue
        # What the departures were found from: the result, and the case's TLV/PEL and molecular
        # weight that decide an exposure's crossing (an amendment of either finds them again).
        stamp = computed_of[str(use.pk)] = "|".join(
            (use.computed_at.isoformat(), repr(case_limit(printed)), repr(printed.molecular_weight)))
        if kept.get(str(use.pk)) == stamp and old is not None:
            facts += [fact for fact in old.departures if fact["use"] == use.pk]
        else:
            facts += _departure_facts(use, printed, memo)
    return RevisionRecord(
        assessment_id=assessment.pk, case_id=case.pk, revision=assessment.revision,
        engineer_id=assessment.engineer_id, cbi=case.is_cbi, month=rework.month_of(assessment.created_at),
        status=assessment.status, status_since=spans[-1].start,
        returns=sum(1 for _, action, _ in decisions if action == DecisionAction.RETURN),
        amendments=rework.amendments_within(amendments, assessment.created_at, next_started),
        recomputes=rework.recomputes_after(submitted, reads.computed.get(assessment.pk, [])),
        draft_seconds=seconds[Status.DRAFT], submitted_seconds=seconds[Status.SUBMITTED],
        returned_seconds=seconds[Status.RETURNED],
        scenarios=sorted({use.scenario_key for use in uses}), departures=facts, departures_of=computed_of,
    )


def case_record(case: Submission, *, reads: Reads) -> CaseRecord:
    """The record of ``case``: open unless its latest revision is approved."""
    revisions = reads.revisions.get(case.pk, [])
    latest = revisions[-1] if revisions else None
    engineer = case.assigned_engineer_id or (latest.engineer_id if latest is not None else None)
    uses = reads.uses.get(latest.pk, []) if latest is not None else []
    return CaseRecord(case_id=case.pk, engineer_id=engineer, cbi=case.is_cbi,
                      open=latest is None or latest.status != Status.APPROVED,
                      due_on=case.due_on, stopped=case.clock_stopped_on is not None,
                      scenarios=sorted({use.scenario_key for use in uses}))


def _revision_records(case: Submission, reads: Reads, old: dict[int, RevisionRecord],
                      memo: DepartureMemo) -> Iterator[RevisionRecord]:
    revisions = reads.revisions.get(case.pk, [])
    for index, assessment in enumerate(revisions):
        following = revisions[index + 1].created_at if index + 1 < len(revisions) else None
        yield revision_record(assessment, reads=reads, old=old.get(assessment.pk), next_started=following, memo=memo)


# --- writing -----------------------------------------------------------------------------------


def _fields(model: type[models.Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def _same(a: models.Model, b: models.Model) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in _fields(type(a)))


def _move(cells: Iterable[Cells], old: Any, new: Any) -> None:
    for kind in cells:
        add(kind, rework.difference(kind.share(old) if old is not None else {},
                                    kind.share(new) if new is not None else {}))


def later(case_ids: Iterable[int]) -> None:
    """Refresh these cases once the writer's transaction has committed (at once outside one):
    the refresh then reads what was committed, takes no lock while the writer holds its own,
    and runs once for every case written in the transaction, however many rows of it were."""
    pending = _pending()
    pending.update(case_ids)
    # robust: the write has committed; a refresh that fails is logged (with its case ids) and
    # leaves that case's records as they were until its next write or a rebuild, never an
    # error page for a write that was made.
    transaction.on_commit(_refresh_pending, robust=True)


_local = threading.local()


def _pending() -> set[int]:
    if not hasattr(_local, "cases"):
        _local.cases = set()
    found: set[int] = _local.cases
    return found


def _refresh_pending() -> None:
    """The cases written since the last refresh (those of a transaction rolled back too: a
    refresh of an unchanged case changes nothing)."""
    cases = set(_pending())
    _pending().clear()
    if cases:
        refresh_cases(cases)


def refresh_cases(case_ids: Iterable[int]) -> None:
    """Make the records of these cases and of their revisions again, and move their cells
    by the difference; a case or revision deleted takes its record and share away. The cases'
    rows are locked first, in order, so two refreshes of a case never interleave (each reads
    the rows after the other has written its records)."""
    ids = sorted(set(case_ids))
    if not ids:
        return
    with transaction.atomic():
        list(Submission.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
        reads = Reads.of(ids)
        old_cases = CaseRecord.objects.select_for_update().in_bulk(ids)
        old_revisions = {r.pk: r for r in RevisionRecord.objects.select_for_update().filter(case_id__in=ids)}
        memo: DepartureMemo = {}
        for case_id in ids:
            case = reads.cases.get(case_id)
            new_case = case_record(case, reads=reads) if case is not None else None
            _write(DUE, old_cases.get(case_id), new_case)
            fresh = {r.pk: r for r in _revision_records(case, reads, old_revisions, memo)} if case is not None else {}
            for pk in {r.pk for r in old_revisions.values() if r.case_id == case_id} | fresh.keys():
                _write(REVISION_CELLS, old_revisions.get(pk), fresh.get(pk))


def _write(cells: Cells | tuple[Cells, ...], old: models.Model | None, new: models.Model | None) -> None:
    if old is not None and new is not None and _same(old, new):
        return
    _move(cells if isinstance(cells, tuple) else (cells,), old, new)
    if new is not None:
        new.save()
    elif old is not None:
        old.delete()


def rebuild(*, case_ids: Iterable[int] | None = None, due_only: bool = False) -> dict[str, int]:
    """Every record and cell made again from the rows (``case_ids``: those cases' only, by
    :func:`refresh_cases`); ``due_only``: the case records and due cells alone (the cases'
    due dates were written in bulk). Returns the rows written."""
    if case_ids is not None:
        refresh_cases(case_ids)
        return {}
    with transaction.atomic():
        if due_only:
            return _rebuild_due()
        for model in (CaseRecord, RevisionRecord, ReworkCell, DepartureCell, DueCell):
            model.objects.all().delete()
        memo: DepartureMemo = {}
        cases: list[CaseRecord] = []
        revisions: list[RevisionRecord] = []
        totals: dict[Cells, rework.Share] = defaultdict(dict)
        for reads in _chunks():
            for case in reads.cases.values():
                cases.append(case_record(case, reads=reads))
                revisions += _revision_records(case, reads, {}, memo)
            _flush(cases, revisions, totals)
        return _write_cells(totals) | {"cases": CaseRecord.objects.count(), "revisions": RevisionRecord.objects.count()}


def _rebuild_due() -> dict[str, int]:
    CaseRecord.objects.all().delete()
    DueCell.objects.all().delete()
    totals: dict[Cells, rework.Share] = defaultdict(dict)
    for reads in _chunks(history=False):
        found = [case_record(case, reads=reads) for case in reads.cases.values()]
        for record in found:
            rework.accumulate(totals[DUE], DUE.share(record))
        CaseRecord.objects.bulk_create(found, batch_size=2000)
    return _write_cells(totals)


def _chunks(*, history: bool = True) -> Iterator[Reads]:
    ids = list(Submission.objects.order_by("pk").values_list("pk", flat=True))
    for first in range(0, len(ids), CHUNK):
        yield Reads.of(ids[first:first + CHUNK], history=history)


def _flush(cases: list[CaseRecord], revisions: list[RevisionRecord], totals: dict[Cells, rework.Share]) -> None:
    for case in cases:
        rework.accumulate(totals[DUE], DUE.share(case))
    for kind in REVISION_CELLS:
        for revision in revisions:
            rework.accumulate(totals[kind], kind.share(revision))
    CaseRecord.objects.bulk_create(cases, batch_size=2000)
    RevisionRecord.objects.bulk_create(revisions, batch_size=2000)
    cases.clear()
    revisions.clear()


def _write_cells(totals: dict[Cells, rework.Share]) -> dict[str, int]:
    written = {}
    for kind, share in totals.items():
        kind.model._default_manager.bulk_create([kind.model(**dict(zip(kind.key, key)), **measures)
                                        for key, measures in share.items()], batch_size=2000)
        written[kind.model._meta.model_name or ""] = len(share)
    return written


def stored_cells(cells: Cells) -> rework.Share:
    """The cells as stored, summed by key (two rows of one cell read as one)."""
    total: rework.Share = {}
    measures = [f.attname for f in cells.model._meta.concrete_fields if f.attname not in ("id", *cells.key)]
    for row in cells.model._default_manager.values_list(*cells.key, *measures):
        rework.accumulate(total, {tuple(row[:len(cells.key)]): dict(zip(measures, row[len(cells.key):]))})
    return total


def differences() -> list[str]:
    """Each cell that does not equal the sum of its records' shares (none: ``[]``)."""
    wrong = []
    expected = {DUE: rework.summed_shares(DUE.share(r) for r in CaseRecord.objects.all())}
    revisions = list(RevisionRecord.objects.all())
    for kind in REVISION_CELLS:
        expected[kind] = rework.summed_shares(kind.share(r) for r in revisions)
    for kind, share in expected.items():
        stored = stored_cells(kind)
        for key in share.keys() | stored.keys():
            want = {n: v for n, v in share.get(key, {}).items() if v}
            have = {n: v for n, v in stored.get(key, {}).items() if v}
            if want != have:
                wrong.append(f"{kind.model.__name__} {key}: stored {have}, records {want}")
    return wrong
