"""A change to the engine measured over the stored assessments on the report workers, and what
the pages read of it (``models.ImpactRun``; the replay is ``esd impact``'s, :mod:`assessments.impact`).

A supervisor starts a run from the engine-change page (:func:`start_run`): either the
installed engine against every result an earlier engine stored (:attr:`ImpactRun.Kind.ENGINE`,
``esd impact --against older``: what installing this release changes in the record), or a
proposed default (:attr:`ImpactRun.Kind.OVERRIDE`, ``esd impact --override``). The assessments
are cut into :func:`parts_count` ranges of about equal numbers of computed uses, each a task
(:data:`impact_part`) on the queue the IRER PDFs use, so every report worker takes a part and
the page shows the run's progress as the parts' counts (:func:`progress`). A part is replayed
again whole if its worker is lost (``reports.recovery`` puts its task back): it first deletes
what it wrote.

Who may see what is read at the time of reading (:func:`visible_uses`): an uncleared person's
page, counts and largest moves are computed from the cases they may see, so a CBI case is in
none of them. The notes of an approved revision (:func:`approved_notes`) are the rows of
engine runs: the revision itself is never written.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from . import selectors
from .engine_marks import OPEN_STATUSES
from .engine_refresh import MoveRow, move_rows
from .esd.parameters import EngineValidationError
from .esd.results import ENGINE_VERSION
from .impact import Move, Override, Refused, assessment_impact, assessments_with_uses, parse_overrides, stored_by
from .impact_engines import OLDER, InstalledEngine
from .models import Assessment, ImpactPart, ImpactRun, ImpactUse, Scenario, Status, Submission
from .roles import REVIEWER_GROUP, SUPERVISOR_GROUP, is_cbi_cleared, is_supervisor

logger = logging.getLogger(__name__)

#: Parts a run is cut into, unless the setting ``IMPACT_RUN_PARTS`` says otherwise: more parts
#: than workers, so the page's progress moves and a lost worker costs one part.
DEFAULT_PARTS = 8
#: A part writes its rows and its count every this many assessments.
WRITE_EVERY = 50

ONLY_SUPERVISORS = "Only a supervisor measures a change to the engine over the team's work."
RUN_UNDER_WAY = "A measure is under way (started {started}); wait for it to finish before starting another."
NO_OLDER_RESULTS = ("Every stored result was computed by the installed engine ({version}): there is no earlier "
                    "engine's result to measure against.")
NOTHING_STORED = "No use has been computed yet: there is nothing to measure."
PART_FAILED = "Part {number} stopped: {kind}: {reason}"
RUNNING = "{done} of {uses} uses replayed ({parts_done} of {parts} parts done)."
#: For a person not cleared for CBI: the uses counted include CBI cases', so only the parts show.
RUNNING_PARTS = "{parts_done} of {parts} parts done."
PARTS_LOST = ("A part was lost with its report worker as many times as the workers retry it; start the measure "
              "again (the report service's log has the reason).")


# --- starting a run ------------------------------------------------------------------------


def _check_supervisor(user: User | AnonymousUser) -> User:
    if not isinstance(user, User) or not is_supervisor(user):
        raise PermissionDenied(ONLY_SUPERVISORS)
    return user


def parts_count() -> int:
    """The parts of a run: setting ``IMPACT_RUN_PARTS``, else :data:`DEFAULT_PARTS`."""
    return max(1, int(getattr(settings, "IMPACT_RUN_PARTS", DEFAULT_PARTS)))


def _uses_selected(kind: str) -> Q:
    return stored_by(OLDER) if kind == ImpactRun.Kind.ENGINE else Q()


def cut(ids: Sequence[int], parts: int) -> list[tuple[int, int, int]]:
    """``ids`` (one assessment id a computed use, sorted) cut into at most ``parts`` ranges
    ``(first, last, uses)`` of about equal uses, an assessment never split.

    >>> cut([1, 1, 2, 3, 3, 3, 7], 2)
    [(1, 3, 6), (7, 7, 1)]
    >>> cut([4, 5], 8)
    [(4, 4, 1), (5, 5, 1)]
    >>> cut([], 3)
    []
    """
    found: list[tuple[int, int, int]] = []
    size = math.ceil(len(ids) / parts) if ids else 0
    start = 0
    while start < len(ids):
        end = min(start + size, len(ids))
        while end < len(ids) and ids[end] == ids[end - 1]:  # the whole of the last assessment
            end += 1
        found.append((ids[start], ids[end - 1], end - start))
        start = end
    return found


def start_run(*, by: User | AnonymousUser, kind: str, overrides: Sequence[str] = ()) -> ImpactRun:
    """Start measuring a change (``kind``: :class:`ImpactRun.Kind`; ``overrides``: the
    ``KEY.INPUT=VALUE`` texts of an override run, read by :func:`impact.parse_overrides`):
    the run, its parts, and a task a part once the transaction commits. A supervisor only;
    one run at a time. Refusals raise ``ValidationError`` and write nothing."""
    user = _check_supervisor(by)
    if kind not in ImpactRun.Kind.values:
        raise ValidationError({"kind": f"{kind!r} is not one of {', '.join(ImpactRun.Kind.values)}"})
    try:
        parsed = parse_overrides(list(overrides)) if kind == ImpactRun.Kind.OVERRIDE else []
    except EngineValidationError as exc:
        raise ValidationError({"overrides": list(exc.errors.values())}) from None
    if kind == ImpactRun.Kind.OVERRIDE and not parsed:
        raise ValidationError({"overrides": ["Give at least one changed default (KEY.INPUT=VALUE)."]})
    with transaction.atomic():
        under_way = ImpactRun.objects.select_for_update().filter(finished_at__isnull=True, failed="").first()
        if under_way is not None:
            raise ValidationError(RUN_UNDER_WAY.format(started=timezone.localtime(under_way.created_at)
                                                       .strftime("%Y-%m-%d %H:%M")))
        ids = list(Scenario.objects.filter(_uses_selected(kind), result__isnull=False)
                   .order_by("assessment_id").values_list("assessment_id", flat=True))
        if not ids:
            raise ValidationError(NO_OLDER_RESULTS.format(version=ENGINE_VERSION) if kind == ImpactRun.Kind.ENGINE
                                  else NOTHING_STORED)
        change: dict[str, Any] = {"overrides": [o.as_dict() for o in parsed]}
        if kind == ImpactRun.Kind.ENGINE:
            change["stored_by"] = OLDER
        run = ImpactRun.objects.create(kind=kind, change=change, engine_version=ENGINE_VERSION, started_by=user)
        ImpactPart.objects.bulk_create(
            ImpactPart(run=run, number=n, first_id=first, last_id=last, uses=uses)
            for n, (first, last, uses) in enumerate(cut(ids, parts_count()), start=1))
        part_ids = list(run.parts.values_list("pk", flat=True))
        transaction.on_commit(lambda: _enqueue(part_ids))
    return run


def _enqueue(part_ids: Sequence[int]) -> None:
    """A task a part, its id kept on the part (:func:`check_lost`)."""
    for pk in part_ids:
        result = impact_part.enqueue(part_id=pk)
        ImpactPart.objects.filter(pk=pk).update(task_id=str(result.id))


def _overrides_of(run: ImpactRun) -> list[Override]:
    texts = [f"{o['scenario']}.{o['input']}={o['value']}" for o in run.change.get("overrides", [])]
    return parse_overrides(texts)


# --- a part, on a report worker ------------------------------------------------------------


def _rows(run: ImpactRun, assessment: Assessment, touched: Iterable[tuple[Scenario, list[Move] | Refused]],
          action: str) -> list[ImpactUse]:
    rows = []
    for use, found in touched:
        moves = [] if isinstance(found, Refused) else [m.as_dict() for m in found]
        relatives = [abs(m["relative"]) for m in moves if m["relative"] is not None]
        appears = any(m["relative"] is None for m in moves)
        rows.append(ImpactUse(
            run=run, assessment_id=assessment.pk, submission_id=assessment.submission_id, scenario_id=use.pk,
            scenario_key=use.scenario_key, position=use.position, title=use.title, status=assessment.status,
            action=action, stored_by=str((use.result or {}).get("engine_version", "")),
            moves=moves, refused=found.errors if isinstance(found, Refused) else {},
            largest=None if appears or isinstance(found, Refused) else max(relatives, default=0.0),
            crossed=any(m["threshold"] for m in moves)))
    return rows


def replay_part(part: ImpactPart) -> None:
    """Replay the run's change over the part's assessments, writing a row a use that moves
    (or that the engine refuses) and the count done as it goes."""
    run = part.run
    overrides = _overrides_of(run)
    engine = InstalledEngine()
    ImpactUse.objects.filter(run=run, assessment_id__gte=part.first_id, assessment_id__lte=part.last_id).delete()
    ImpactPart.objects.filter(pk=part.pk).update(done=0, finished_at=None)
    pending: list[ImpactUse] = []
    done = 0
    walk = assessments_with_uses(uses=_uses_selected(run.kind), ids=(part.first_id, part.last_id))
    for seen, assessment in enumerate(walk, start=1):
        case, touched = assessment_impact(assessment, overrides, engine=engine)
        if case is not None:
            pending += _rows(run, assessment, touched, case.action)
        done += len(assessment.scenarios.all())
        if seen % WRITE_EVERY == 0:
            _write(part, pending, done)
            pending = []
    _write(part, pending, min(done, part.uses), finished=True)


def _write(part: ImpactPart, rows: list[ImpactUse], done: int, *, finished: bool = False) -> None:
    with transaction.atomic():
        ImpactUse.objects.bulk_create(rows)
        changes: dict[str, Any] = {"done": min(done, part.uses)}
        if finished:
            changes["finished_at"] = timezone.now()
        ImpactPart.objects.filter(pk=part.pk).update(**changes)
        if finished and not ImpactPart.objects.filter(run_id=part.run_id, finished_at__isnull=True).exists():
            ImpactRun.objects.filter(pk=part.run_id, finished_at__isnull=True).update(finished_at=timezone.now())


@task()
def impact_part(*, part_id: int) -> None:
    """A report worker's share of a run (:func:`replay_part`); a failure stops the run, with
    its reason on the page."""
    part = ImpactPart.objects.select_related("run").filter(pk=part_id).first()
    if part is None or part.run.failed:  # the run was deleted, or stopped by another part
        return
    try:
        replay_part(part)
    except Exception as exc:
        ImpactRun.objects.filter(pk=part.run_id).update(
            failed=PART_FAILED.format(number=part.number, kind=type(exc).__name__, reason=exc))
        logger.exception("Impact run %s, part %s failed", part.run_id, part.number)
        raise


# --- reading runs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """How far a run is: uses replayed of all, parts finished of all, and its state."""

    done: int
    uses: int
    parts_done: int
    parts: int

    @property
    def percent(self) -> int:
        return 100 if not self.uses else math.floor(100 * self.done / self.uses)

    def shown_to(self, user: User | AnonymousUser) -> ProgressShown:
        """The progress as ``user``'s page shows it: by uses to a person cleared for CBI, by
        parts only to anyone else (the uses counted include the CBI cases')."""
        if is_cbi_cleared(user):
            return ProgressShown(self.percent, RUNNING.format(done=self.done, uses=self.uses,
                                                              parts_done=self.parts_done, parts=self.parts))
        percent = 100 if not self.parts else 100 * self.parts_done // self.parts
        return ProgressShown(percent, RUNNING_PARTS.format(parts_done=self.parts_done, parts=self.parts))


@dataclass(frozen=True)
class ProgressShown:
    percent: int
    text: str


def progress(run: ImpactRun) -> Progress:
    """The run's progress from its parts (one query)."""
    totals = run.parts.aggregate(done=_sum("done"), uses=_sum("uses"), parts=Count("pk"),
                                 parts_done=Count("pk", filter=Q(finished_at__isnull=False)))
    return Progress(done=totals["done"], uses=totals["uses"], parts_done=totals["parts_done"], parts=totals["parts"])


def check_lost(run: ImpactRun) -> ImpactRun:
    """Stop ``run`` when one of its parts' tasks failed without saying so: lost with its worker
    more times than the report workers retry it (``reports.recovery.MAX_ATTEMPTS``), so no
    worker will finish it. The run as it now is."""
    if run.finished_at is not None or run.failed:
        return run
    tasks = {str(pk) for pk in run.parts.filter(finished_at__isnull=True).exclude(task_id="")
             .values_list("task_id", flat=True)}
    if tasks and DBTaskResult.objects.filter(pk__in=tasks, status=TaskResultStatus.FAILED).exists():
        ImpactRun.objects.filter(pk=run.pk, failed="").update(failed=PARTS_LOST)
        run.refresh_from_db()
    return run


def _sum(field: str) -> Coalesce:
    """``Sum`` that is 0, not null, over no row."""
    return Coalesce(Sum(field), 0)


def latest_run(*, user: User | AnonymousUser, kind: str = ImpactRun.Kind.ENGINE) -> ImpactRun | None:
    """The newest run of ``kind`` (a supervisor only)."""
    _check_supervisor(user)
    return ImpactRun.objects.filter(kind=kind).select_related("started_by").first()


def run_get(*, user: User | AnonymousUser, pk: int) -> ImpactRun:
    """Run ``pk`` (a supervisor only); ``ImpactRun.DoesNotExist`` when there is none."""
    _check_supervisor(user)
    return ImpactRun.objects.select_related("started_by").get(pk=pk)


def recent_runs(*, user: User | AnonymousUser, count: int = 10) -> list[ImpactRun]:
    _check_supervisor(user)
    return list(ImpactRun.objects.select_related("started_by")[:count])


def visible_uses(*, user: User | AnonymousUser, run: ImpactRun) -> QuerySet[ImpactUse]:
    """The run's rows whose case ``user`` may see (a supervisor only)."""
    _check_supervisor(user)
    return ImpactUse.objects.filter(selectors.visible_to(user=user, case="submission__"), run=run)




@dataclass(frozen=True)
class Filters:
    """The page's filters, read and checked (:func:`read_filters`)."""

    status: str = "open"  # "open", "approved" or "all"
    scenario: str = ""
    engineer: int | None = None
    crossed: bool = False

    @property
    def narrowed(self) -> bool:
        """Whether the filters leave out any row (the page says "under these filters")."""
        return self != Filters(status="all")

    def apply(self, rows: QuerySet[ImpactUse]) -> QuerySet[ImpactUse]:
        if self.status == "open":
            rows = rows.filter(status__in=OPEN_STATUSES)
        elif self.status == "approved":
            rows = rows.filter(status=Status.APPROVED)
        if self.scenario:
            rows = rows.filter(scenario_key=self.scenario)
        if self.engineer is not None:
            rows = rows.filter(assessment__engineer_id=self.engineer)
        if self.crossed:
            rows = rows.filter(crossed=True)
        return rows


STATUS_FILTERS = (("open", "Open work (draft, submitted, returned)"), ("approved", "Approved (note only)"),
                  ("all", "All"))


def engineer_choices() -> QuerySet[User]:
    """The engineers the page filters by: the team's active members (by role, never by the
    cases they hold, so the list says nothing about a case a person may not see)."""
    return (User.objects.filter(is_active=True, groups__name__in=(REVIEWER_GROUP, SUPERVISOR_GROUP))
            .distinct().order_by("username"))


def read_filters(params: Mapping[str, str]) -> tuple[Filters, dict[str, str]]:
    """The filters of a query string, and an error a bad one (field → words); a bad filter is
    left out, never guessed."""
    errors: dict[str, str] = {}
    status = params.get("status", "open") or "open"
    if status not in dict(STATUS_FILTERS):
        errors["status"] = f"Status must be one of: {', '.join(dict(STATUS_FILTERS))}."
        status = "open"
    engineer: int | None = None
    if params.get("engineer"):
        try:
            engineer = int(params["engineer"])
        except ValueError:
            errors["engineer"] = "Engineer must be one of the list's names."
    return Filters(status=status, scenario=params.get("scenario", "")[:40], engineer=engineer,
                   crossed=params.get("crossed") in ("1", "on", "true")), errors


@dataclass(frozen=True)
class Summary:
    """What a run moved in the rows a person may see under the filters."""

    cases: int
    revisions: int
    uses: int
    crossed: int
    refused: int


def summary(rows: QuerySet[ImpactUse]) -> Summary:
    """Counts over ``rows`` (already limited to what the person may see), in one query."""
    totals = rows.aggregate(cases=Count("submission", distinct=True), revisions=Count("assessment", distinct=True),
                            uses=Count("pk"), crossed=Count("pk", filter=Q(crossed=True)),
                            refused=Count("pk", filter=~Q(refused={})))
    return Summary(**totals)


def largest_moves(rows: QuerySet[ImpactUse], *, limit: int = 50) -> list[ImpactUse]:
    """The rows with the largest move first (a figure that appears or goes, or a refusal,
    counts as largest), then by case."""
    return list(rows.select_related("submission", "assessment__engineer")
                .order_by(F("largest").desc(nulls_first=True), "id")[:limit])


# --- a move as the pages print it ----------------------------------------------------------


def move_lines(moves: Iterable[Mapping[str, Any]]) -> list[MoveRow]:
    """Moves as ``esd impact --json`` gives them (``ImpactUse.moves``), as the Recompute
    preview words them (``engine_refresh.move_rows``; the outputs named by their ids, the
    results not being at hand)."""
    return move_rows([Move(**move) for move in moves], old_result=None, new_result={})


# --- the notes of an approved revision -----------------------------------------------------

#: The note's words, on the case page and in the history.
ENGINE_NOTE = ("Engine {version} would print {count} figure{s} of this approved revision differently (measured "
               "{at}). The approved revision and its sealed IRER are unchanged; a new revision computes with "
               "the installed engine.")
#: Which figure a note names (the case page's sentence and the history's field).
NOTED_FIGURE = "{output}, {estimate}, {quantity} (use {use})"
NOTE_LINE = "{figure}: engine {version} would print {new} instead of {old}"


@dataclass(frozen=True)
class EngineNote:
    """What one engine run found for one approved revision: its rows' moves in words."""

    run: ImpactRun
    revision: int
    assessment_id: int
    lines: list[tuple[int, MoveRow]]  # (use, the move)
    refused: list[tuple[int, dict[str, str]]]

    @property
    def text(self) -> str:
        count = len(self.lines)
        at = timezone.localtime(self.run.finished_at).strftime("%Y-%m-%d") if self.run.finished_at else ""
        return ENGINE_NOTE.format(version=self.run.engine_version, count=count, s="" if count == 1 else "s", at=at)

    @property
    def figures(self) -> list[tuple[str, MoveRow]]:
        """Each moved figure's name (:data:`NOTED_FIGURE`) and its move."""
        return [(NOTED_FIGURE.format(output=line.output, estimate=line.estimate, quantity=line.quantity, use=use),
                 line) for use, line in self.lines]

    @property
    def sentences(self) -> list[str]:
        return [NOTE_LINE.format(figure=figure, version=self.run.engine_version, new=line.new, old=line.old)
                for figure, line in self.figures]


def engine_notes(rows: Iterable[ImpactUse]) -> list[EngineNote]:
    """Rows of engine runs grouped into one note a revision and engine version (the newest
    run of each version: a later measure of the same release replaces an earlier one)."""
    notes: dict[tuple[int, str], EngineNote] = {}
    for row in rows:
        key = (row.assessment_id, row.run.engine_version)
        note = notes.get(key)
        if note is None:
            note = notes[key] = EngineNote(run=row.run, revision=row.assessment.revision,
                                           assessment_id=row.assessment_id, lines=[], refused=[])
        elif note.run.pk != row.run_id:
            continue  # an older measure of the same release
        note.lines.extend((row.position, line) for line in move_lines(row.moves))
        if row.refused:
            note.refused.append((row.position, row.refused))
    return list(notes.values())


def _note_rows() -> QuerySet[ImpactUse]:
    return (ImpactUse.objects.filter(run__kind=ImpactRun.Kind.ENGINE, run__finished_at__isnull=False,
                                     assessment__status=Status.APPROVED)
            .select_related("run__started_by", "assessment").order_by("-run__finished_at", "-run_id", "assessment_id", "position"))


def approved_notes(*, assessment: Assessment) -> list[EngineNote]:
    """The notes of an approved revision (none for another status), newest engine first: what
    a later engine would print instead. The revision is read only."""
    if assessment.status != Status.APPROVED:
        return []
    return engine_notes(_note_rows().filter(assessment=assessment))


def case_notes(*, submission: Submission) -> list[EngineNote]:
    """The notes of every approved revision of a case (the case page's section); the page is
    the case's, so who may see it is checked there."""
    return engine_notes(_note_rows().filter(submission=submission))
