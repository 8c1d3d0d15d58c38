"""The reports lost with a report worker, put back in the queue or failed.

django-tasks-db (0.13) retries nothing: a worker killed while drawing (SIGKILL, the OOM
killer, a host lost) leaves its task "running" for good. Each report worker's heartbeat
thread (``reports.heartbeat``) looks for lost reports after each beat, with
:func:`recover_lost_tasks` (``manage.py report_worker`` hands it the report tasks); the
download's status check looks too, for its own task (``tasks._row_state``), so a lost report
is found even when no worker is left.

A "running" report task is lost when the worker that took it last (``worker_ids[-1]``)

- has not beaten for ``heartbeat.silent_after()`` (killed, or cut off from the database),
  or has stopped;
- has restarted since it took the task (its row's ``started_at`` is later: a service
  manager restarts a crashed worker under the same id within seconds);
- beats on, a full ``silent_after()`` past the claim, naming another task or none (its
  database connection dropped while it recorded the result, ``report_worker``);
- keeps no heartbeat at all (``db_worker`` run directly) and took it
  :data:`NO_HEARTBEAT_LOST_AFTER` ago, the rule before heartbeats.

A lost task goes back to the queue where it was (status READY, ``started_at`` cleared, as a
task not yet taken; its priority and enqueue time unchanged, so it is next) and another
worker draws it, until it has been taken :data:`MAX_ATTEMPTS` times (``len(worker_ids)``,
which each claim extends): then it fails (``heartbeat.ReportLost``, its message in the
task's traceback) and the download page offers Try again. A lost IRER task still holds its
HTML: the worker drops it only when done (``tasks._drop_html``); one lost after that
(between the drop and recording the result) is recorded successful if its PDF is stored,
else failed.

The recovery locks the running tasks it looks at (``SELECT ... FOR UPDATE SKIP LOCKED``
on PostgreSQL, an exclusive transaction on SQLite), so two workers never put back one task
twice, and only a task still "running" is put back: a task is never in the queue and being
drawn by a live worker at once. One case remains where two workers draw one report: a
worker that draws on while cut off from the database for ``silent_after()``. Both then
store the same bytes under the same key (the cache never overwrites), so the download is
the same.

The report tasks are passed in (the IRER's ``tasks.irer_render``, and the others such as
``band_tasks.sensitivity_band``): both task modules call into this one, never the reverse.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import router
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet
from django_tasks_db.utils import exclusive_transaction

from ..models.workers import ReportWorker
from . import heartbeat
from .cache import stored_pdf

logger = logging.getLogger("assessments.reports.worker")

#: Times a report may be taken by a worker (the first draw and two after losses).
MAX_ATTEMPTS = 3
#: A task taken by a worker that keeps no heartbeat (``db_worker`` run directly) counts as
#: lost this long after it started (a draw of the longest report takes seconds).
NO_HEARTBEAT_LOST_AFTER = timedelta(minutes=5)

LOST_TRACEBACK = ("Lost {attempts} times: the report worker drawing it stopped each time (workers {workers}); "
                  "not tried again.")
LOST_AFTER_DRAW_TRACEBACK = ("Lost after the draw: worker {worker} stopped after dropping the report's HTML and "
                             "before recording the result, and no PDF is stored under its key.")
REQUEUED_LOG = "Report task %s lost with worker %s (%s): back in the queue (attempt %d of %d taken)"
FAILED_LOG = "Report task %s lost with worker %s (%s) %d times: failed"

SILENT, STOPPED, RESTARTED, MOVED_ON, NO_HEARTBEAT = (
    "silent", "stopped", "restarted since", "drawing something else", "keeps no heartbeat")


@dataclass(frozen=True)
class Recovery:
    """What one look for lost reports did: task ids put back in the queue, failed, and
    recorded successful (lost after the draw, the PDF stored)."""

    requeued: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    successful: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.requeued or self.failed or self.successful)


def lost_reason(*, task: DBTaskResult[..., Any], worker: ReportWorker | None, now: datetime) -> str | None:
    """Why ``task`` (running) is lost with ``worker``, the row of its last worker (None:
    that worker keeps no heartbeat); None while that worker is drawing it."""
    started = task.started_at or now
    if worker is None:
        return NO_HEARTBEAT if started < now - NO_HEARTBEAT_LOST_AFTER else None
    if worker.stopped_at is not None:
        return STOPPED
    if worker.beat_at < now - heartbeat.silent_after():
        return SILENT
    if worker.started_at > started:
        return RESTARTED
    if str(worker.current_task_id) != str(task.id) and worker.beat_at > started + heartbeat.silent_after():
        return MOVED_ON
    return None


def recover_lost_tasks(*, irer: Task[..., Any], others: Collection[Task[..., Any]] = (),
                       task_ids: Iterable[str] | None = None) -> Recovery:
    """Put the lost running tasks of the report workers (of ``irer``, the IRER's task
    ``tasks.irer_render``, and of ``others``, such as the sensitivity band's; all, or those
    of ``task_ids``) back in the queue, or fail those taken :data:`MAX_ATTEMPTS` times (the
    module's docstring). Only ``irer``'s tasks drop their HTML when drawn, and store a PDF."""
    paths = [irer.module_path, *(other.module_path for other in others)]

    alias = router.db_for_write(DBTaskResult)
    recovery = Recovery()
    with exclusive_transaction(alias):
        running = (DBTaskResult.objects.using(alias).running().filter(task_path__in=paths)
                   .only("id", "task_path", "status", "started_at", "worker_ids").order_by())
        if task_ids is not None:
            running = running.filter(pk__in=list(task_ids))
        tasks = list(running.select_for_update(skip_locked=True))
        if not tasks:
            return recovery
        workers = {worker.worker_id: worker for worker in ReportWorker.objects.using(alias).filter(
            worker_id__in={task.worker_ids[-1] for task in tasks if task.worker_ids})}
        now = timezone.now()
        for task in tasks:
            last = task.worker_ids[-1] if task.worker_ids else ""
            reason = lost_reason(task=task, worker=workers.get(last), now=now)
            if reason is not None:
                _recover(task, alias=alias, worker_id=last, reason=reason, now=now, recovery=recovery,
                         drawn_before_lost=task.task_path == irer.module_path)
    return recovery


def _recover(task: DBTaskResult[..., Any], *, alias: str, worker_id: str, reason: str, now: datetime,
             recovery: Recovery, drawn_before_lost: bool) -> None:
    kwargs = DBTaskResult.objects.using(alias).values_list("args_kwargs", flat=True).get(pk=task.pk)["kwargs"]
    rows = DBTaskResult.objects.using(alias).filter(pk=task.pk, status=TaskResultStatus.RUNNING)
    attempts = len(task.worker_ids)
    if drawn_before_lost and "html" not in kwargs:  # an IRER lost after its draw: stored, or lost
        if stored_pdf(key=kwargs["key"]) is not None:
            rows.update(status=TaskResultStatus.SUCCESSFUL, finished_at=now, exception_class_path="", traceback="")
            recovery.successful.append(str(task.pk))
            return
        _fail(rows, now=now, message=LOST_AFTER_DRAW_TRACEBACK.format(worker=worker_id), kwargs=kwargs)
        recovery.failed.append(str(task.pk))
    elif attempts < MAX_ATTEMPTS:
        rows.update(status=TaskResultStatus.READY, started_at=None)
        recovery.requeued.append(str(task.pk))
        logger.warning(REQUEUED_LOG, task.pk, worker_id, reason, attempts, MAX_ATTEMPTS)
        return
    else:
        workers = ", ".join(task.worker_ids)
        _fail(rows, now=now, message=LOST_TRACEBACK.format(attempts=attempts, workers=workers), kwargs=kwargs)
        recovery.failed.append(str(task.pk))
    logger.warning(FAILED_LOG, task.pk, worker_id, reason, attempts)


def _fail(rows: DBTaskResultQuerySet, *, now: datetime, message: str, kwargs: dict[str, Any]) -> None:
    """Fail the task as ``heartbeat.ReportLost``, dropping the report's HTML from its row as
    a finished draw does (``tasks._drop_html``)."""
    lost = heartbeat.ReportLost
    rows.update(
        status=TaskResultStatus.FAILED, finished_at=now, return_value=None,
        exception_class_path=f"{lost.__module__}.{lost.__qualname__}", traceback=message,
        args_kwargs={"args": [], "kwargs": {name: value for name, value in kwargs.items() if name != "html"}},
    )
