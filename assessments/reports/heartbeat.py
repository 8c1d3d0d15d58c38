"""Report workers' heartbeats, and the reports lost with a worker put back in the queue.

django-tasks-db (0.13) keeps no heartbeat and retries nothing: a worker killed while
drawing (SIGKILL, the OOM killer, a host lost) leaves its task "running" for good. So each
report worker (``manage.py report_worker``) runs a :class:`Heartbeat`: a thread with a
database connection of its own that writes the worker's :class:`~assessments.models.ReportWorker`
row every :func:`heartbeat_seconds` (when it beat, and which task it is drawing), and then
looks for lost reports (:func:`recover_lost_tasks`). db_worker's loop has no hook called at
each poll, so the heartbeat thread is where every worker looks, idle or drawing; the
download's status check looks too, for its own task, so a lost report is found even when no
worker is left.

A "running" IRER task is lost when the worker that took it last (``worker_ids[-1]``)

- has not beaten for :func:`silent_after` (killed, or cut off from the database), or has
  stopped;
- has restarted since it took the task (its row's ``started_at`` is later: a service
  manager restarts a crashed worker under the same id within seconds);
- beats on, a full :func:`silent_after` past the claim, naming another task or none (its
  database connection dropped while it recorded the result, ``report_worker``);
- keeps no heartbeat at all (``db_worker`` run directly) and took it
  :data:`NO_HEARTBEAT_LOST_AFTER` ago, the rule before heartbeats.

A lost task goes back to the queue where it was (status READY, ``started_at`` cleared, as a
task not yet taken; its priority and enqueue time unchanged, so it is next) and another
worker draws it, until it has been taken :data:`MAX_ATTEMPTS` times (``len(worker_ids)``,
which each claim extends): then it fails (:class:`ReportLost`, its message in the task's
traceback) and the download page offers Try again. A lost task still holds its HTML: the
worker drops it only when done (``tasks._drop_html``); one lost after that (between the
drop and recording the result) is recorded successful if its PDF is stored, else failed.

The recovery locks the running tasks it looks at (``SELECT ... FOR UPDATE SKIP LOCKED``
on PostgreSQL, an exclusive transaction on SQLite), so two workers never put back one task
twice, and only a task still "running" is put back: a task is never in the queue and being
drawn by a live worker at once. One case remains where two workers draw one report: a
worker that draws on while cut off from the database for :func:`silent_after`. Both then
store the same bytes under the same key (the cache never overwrites), so the download is
the same.

Hosts sharing a queue must keep their clocks in step (NTP): silence is judged by the
looking host's clock against the beating host's, and seconds of skew are harmless next to 30.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.db.utils import InterfaceError, OperationalError
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from ..models import ReportWorker
from .cache import stored_pdf

logger = logging.getLogger("assessments.reports.worker")

#: Seconds between two beats of a worker (setting ``REPORT_WORKER_HEARTBEAT_SECONDS``).
HEARTBEAT_SECONDS = 5.0
#: Seconds without a beat after which a worker counts as gone and its report as lost
#: (setting ``REPORT_WORKER_SILENT_AFTER_SECONDS``): six beats missed, so a database or a
#: host busy for a few seconds does not send a report being drawn to another worker.
WORKER_SILENT_AFTER_SECONDS = 30.0
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
BEAT_FAILED_LOG = "Report worker %s: heartbeat not recorded (%s)"

SILENT, STOPPED, RESTARTED, MOVED_ON, NO_HEARTBEAT = (
    "silent", "stopped", "restarted since", "drawing something else", "keeps no heartbeat")

DATABASE_LOST = (OperationalError, InterfaceError)


class ReportLost(Exception):
    """A report task's worker was lost while drawing it, :data:`MAX_ATTEMPTS` times (or
    after dropping its HTML with no PDF stored). Only its class path and message are
    recorded (the task's ``exception_class_path`` and ``traceback``); never raised."""


def heartbeat_seconds() -> float:
    return float(getattr(settings, "REPORT_WORKER_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))


def silent_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "REPORT_WORKER_SILENT_AFTER_SECONDS",
                                           WORKER_SILENT_AFTER_SECONDS)))


def alive_workers(*, now: datetime | None = None):
    """Report workers running: beaten within :func:`silent_after`, not stopped."""
    since = (now or timezone.now()) - silent_after()
    return ReportWorker.objects.filter(stopped_at__isnull=True, beat_at__gte=since)


def workers_alive() -> int:
    """How many report workers are running, for the download page."""
    return alive_workers().count()


# The beat -----------------------------------------------------------------------------------


def register(*, worker_id: str, now: datetime | None = None) -> ReportWorker:
    """The row of worker ``worker_id`` as this process starts: its host, pid and start; a
    row kept from an earlier process under the same id is taken over."""
    now = now or timezone.now()
    worker, _ = ReportWorker.objects.update_or_create(
        worker_id=worker_id,
        defaults={"host": socket.gethostname()[:255], "pid": os.getpid(), "started_at": now, "beat_at": now,
                  "current_task_id": None, "stopped_at": None},
    )
    return worker


def beat(*, worker_id: str, current_task_id: str | None, now: datetime | None = None) -> None:
    """Record that worker ``worker_id`` is alive and drawing ``current_task_id`` (None: idle)."""
    now = now or timezone.now()
    if not ReportWorker.objects.filter(worker_id=worker_id).update(beat_at=now, current_task_id=current_task_id):
        register(worker_id=worker_id, now=now)  # the row was deleted (an administrator): write it again


def stopped(*, worker_id: str) -> None:
    """Record that worker ``worker_id`` stopped (on a signal, or at the end of a batch)."""
    ReportWorker.objects.filter(worker_id=worker_id).update(stopped_at=timezone.now(), current_task_id=None)


class Heartbeat:
    """The heartbeat of one worker process: :meth:`start` registers the worker and starts
    the thread, which beats every :func:`heartbeat_seconds` and then recovers lost reports;
    :meth:`stop` ends it, records the stop and closes the thread's connection. The worker
    sets :attr:`current_task_id` while it draws."""

    def __init__(self, worker_id: str):
        self.worker_id = worker_id
        self.current_task_id: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        try:
            register(worker_id=self.worker_id)
        except DATABASE_LOST as error:  # the thread registers at its first beat
            logger.warning(BEAT_FAILED_LOG, self.worker_id, error)
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{self.worker_id}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=max(10.0, 2 * heartbeat_seconds()))
            self._thread = None

    def _run(self) -> None:
        try:
            while not self._stop.wait(heartbeat_seconds()):
                self._beat_once()
        finally:
            try:
                stopped(worker_id=self.worker_id)
            except Exception as error:
                logger.warning(BEAT_FAILED_LOG, self.worker_id, error)
            connections.close_all()  # this thread's own connections

    def _beat_once(self) -> None:
        try:
            beat(worker_id=self.worker_id, current_task_id=self.current_task_id)
            recover_lost_tasks()
        except DATABASE_LOST as error:
            logger.warning(BEAT_FAILED_LOG, self.worker_id, error)
            _close_connections()
        except Exception:  # the beat must outlive any one failure
            logger.exception(BEAT_FAILED_LOG, self.worker_id, "unexpected error")


def _close_connections() -> None:
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except DATABASE_LOST:
            connection.connection = None


# The recovery -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recovery:
    """What one look for lost reports did: task ids put back in the queue, failed, and
    recorded successful (lost after the draw, the PDF stored)."""

    requeued: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    successful: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.requeued or self.failed or self.successful)


def lost_reason(*, task: DBTaskResult, worker: ReportWorker | None, now: datetime) -> str | None:
    """Why ``task`` (running) is lost with ``worker``, the row of its last worker (None:
    that worker keeps no heartbeat); None while that worker is drawing it."""
    started = task.started_at or now
    if worker is None:
        return NO_HEARTBEAT if started < now - NO_HEARTBEAT_LOST_AFTER else None
    if worker.stopped_at is not None:
        return STOPPED
    if worker.beat_at < now - silent_after():
        return SILENT
    if worker.started_at > started:
        return RESTARTED
    if str(worker.current_task_id) != str(task.id) and worker.beat_at > started + silent_after():
        return MOVED_ON
    return None


def recover_lost_tasks(*, task_ids: Iterable[str] | None = None) -> Recovery:
    """Put the lost running tasks of the report workers (the IRER's and the sensitivity
    band's; all, or those of ``task_ids``) back in the queue, or fail those taken
    :data:`MAX_ATTEMPTS` times (the module's docstring)."""
    from ..band_tasks import sensitivity_band  # both import this module
    from .tasks import irer_render

    paths = [irer_render.module_path, sensitivity_band.module_path]

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
                         drawn_before_lost=task.task_path == irer_render.module_path)
    return recovery


def _recover(task: DBTaskResult, *, alias: str, worker_id: str, reason: str, now: datetime,
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


def _fail(rows, *, now: datetime, message: str, kwargs: dict[str, Any]) -> None:
    """Fail the task as :class:`ReportLost`, dropping the report's HTML from its row as a
    finished draw does (``tasks._drop_html``)."""
    rows.update(
        status=TaskResultStatus.FAILED, finished_at=now, return_value=None,
        exception_class_path=f"{ReportLost.__module__}.{ReportLost.__qualname__}", traceback=message,
        args_kwargs={"args": [], "kwargs": {name: value for name, value in kwargs.items() if name != "html"}},
    )
