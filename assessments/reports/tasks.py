"""The IRER PDF drawn by the report workers, off the web workers.

A download whose PDF is not in the report cache (``reports.cache``) enqueues
:data:`irer_render` with the HTML to draw and the cache key it is stored under, once per
key: a second download of the same report while it is queued or being drawn waits for
the same task (:func:`render_request`). A worker (``manage.py report_worker``: the database
backend of django-tasks' ``db_worker``, reconnecting when its database connection drops) draws the HTML with WeasyPrint and stores the PDF under the key;
the download page follows the task (:func:`render_state`) and then fetches the stored file.
The PDF is a function of the HTML and the vendored fonts alone, so the worker checks
nothing and cannot draw anything but what the key names: who may have which copy is
checked in the request, before anything is enqueued or served (``reports.services``).

The queue is a table of this database (``django_tasks_db.models.DBTaskResult``): no other
server. Workers claim tasks with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL (an
exclusive transaction on SQLite), so workers on several hosts share one queue and each task
is drawn once. The HTML holds the full report (CBI included): it stays in the task's row
only until the worker is done with it (:func:`_drop_html`).

Nothing tells a waiting download whether a worker is running, so it is inferred from the
table: a task that has waited :data:`WORKERS_IDLE_AFTER` while no task started, finished
or was being drawn means no worker is running; a task still "running"
:data:`RENDER_LOST_AFTER` after it started was lost with its worker (killed mid-draw) and
no longer holds its key, so the next download enqueues it again.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import Q
from django.utils import timezone
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from .cache import ReportNotStored, store_pdf
from .render import html_to_pdf

logger = logging.getLogger(__name__)

# A draw of the longest report takes seconds (README, Performance); one "running" for this
# long was lost with its worker.
RENDER_LOST_AFTER = timedelta(minutes=5)
# An idle worker looks for a task every --interval seconds (db_worker's default 1; 0.5 in the
# quick start and the README); a task left waiting this long while no task started,
# finished or was being drawn means no worker is running.
WORKERS_IDLE_AFTER = timedelta(seconds=20)
# PostgreSQL advisory locks are keyed by two integers: this module's, and the report key's.
ADVISORY_LOCK_CLASS = 0x1E8E

QUEUED, RENDERING, READY, FAILED, NO_WORKER = "queued", "rendering", "ready", "failed", "no-worker"
STEPS = ((QUEUED, "Queued"), (RENDERING, "Drawing the PDF"), (READY, "Ready"))

QUEUED_MESSAGE = "Queued: the report service takes it next."
QUEUED_BEHIND_MESSAGE = "Queued behind {ahead} other report{s}."
RENDERING_MESSAGE = "Drawing the PDF: a few seconds for most reports, longer for long ones."
READY_MESSAGE = "Ready: the download starts now. If it does not, use the button."
FAILED_MESSAGE = ("The report could not be drawn. Try again; if it fails again, tell the administrator "
                  "(the report service's log has the error).")
NOT_STORED_MESSAGE = ("The report was drawn but could not be stored for download (the report cache folder is "
                      "missing, full or unwritable). Tell the administrator, then try again.")
LOST_MESSAGE = "The report service stopped while drawing this report. Try again."
NO_WORKER_MESSAGE = ("The report service is not running: no report has been taken up for {seconds} seconds. "
                     "This report stays queued and is drawn as soon as the service runs; tell the administrator.")
ACTIONS = {READY: "Download the report", FAILED: "Try again"}
WAITING_ACTION = "Download when ready"
TONES = {QUEUED: "info", RENDERING: "info", READY: "success", FAILED: "danger", NO_WORKER: "warning"}

# What a state is read from: never the task's arguments, which hold the report's HTML.
_STATE_FIELDS = ("id", "status", "priority", "run_after", "enqueued_at", "started_at", "queue_name", "backend_name",
                 "exception_class_path")


@task(takes_context=True)
def irer_render(context: TaskContext, *, key: str, html: str, assessment_id: int, copy: str) -> None:
    """Draw ``html`` (``render.irer_html(..., for_pdf=True)``) and store the PDF in the
    report cache under ``key``, unless a PDF is stored there already. ``assessment_id``
    and ``copy`` (``"full"`` or ``"sanitised"``) name the report for its download page's
    status check and the log. Raises :class:`~.cache.ReportNotStored` when the PDF cannot
    be stored."""
    start = time.perf_counter()
    try:
        store_pdf(key=key, render=lambda: html_to_pdf(html))
    finally:
        _drop_html(context)
    logger.info("IRER of assessment %s (%s copy) stored in %.1f s", assessment_id, copy, time.perf_counter() - start)


def _drop_html(context: TaskContext) -> None:
    """Remove the report's HTML from the task's row once the worker is done with it (the
    row is kept, with the key and the report's name, for the download page and the log)."""
    db_result = getattr(context.task_result, "db_result", None)  # the immediate backend keeps no row
    if db_result is not None:
        kwargs = {name: value for name, value in db_result.args_kwargs["kwargs"].items() if name != "html"}
        DBTaskResult.objects.filter(pk=db_result.pk).update(args_kwargs={"args": [], "kwargs": kwargs})


@dataclass(frozen=True)
class RenderState:
    """Where a report's task is, for the download page and its status endpoint."""

    task_id: str
    state: str  # QUEUED, RENDERING, READY, FAILED or NO_WORKER
    message: str
    ahead: int | None = None  # reports queued before it, while QUEUED

    @property
    def finished(self) -> bool:
        return self.state in (READY, FAILED)

    @property
    def step(self) -> str | None:
        """The step of :data:`STEPS` it is at (a task with no worker is still queued)."""
        return QUEUED if self.state == NO_WORKER else (None if self.state == FAILED else self.state)

    @property
    def steps(self) -> list[dict]:
        return [{"state": state, "label": label, "current": state == self.step} for state, label in STEPS]

    @property
    def action(self) -> str:
        """The label of the page's one button, which requests the download again."""
        return ACTIONS.get(self.state, WAITING_ACTION)

    @property
    def tone(self) -> str:
        """Bootstrap's alert colour for the message."""
        return TONES[self.state]

    def as_json(self) -> dict:
        return {"state": self.state, "step": self.step, "message": self.message, "ahead": self.ahead,
                "action": self.action, "tone": self.tone}


def render_request(*, key: str, html: str, assessment_id: int, copy: str) -> RenderState:
    """The task drawing the PDF of ``key``: the one queued or being drawn, else a new one.
    With a backend that runs the task at once (the immediate backend of the test settings)
    it has finished on return. Following a queued task (:func:`render_state`) needs the
    database backend, whose table is the queue."""
    arguments = {"key": key, "html": html, "assessment_id": assessment_id, "copy": copy}
    backend = irer_render.get_backend()
    if not isinstance(backend, DatabaseBackend):
        result = irer_render.enqueue(**arguments)
        failure = result.errors[0].exception_class_path if result.errors else ""
        return _state(str(result.id), result.status, failure)
    with _key_lock(key):
        row = _active(key=key, backend=backend.alias).first()
        if row is None:
            row = irer_render.enqueue(**arguments).db_result
    return _row_state(row)


def render_state(*, task_id: str, assessment_id: int, copy: str) -> RenderState | None:
    """The state of task ``task_id`` if it draws the ``copy`` of assessment
    ``assessment_id``'s report; else None (no such task, or another report's)."""
    try:
        row = (
            DBTaskResult.objects.only(*_STATE_FIELDS)
            .filter(task_path=irer_render.module_path, args_kwargs__kwargs__assessment_id=assessment_id,
                    args_kwargs__kwargs__copy=copy)
            .get(pk=task_id)
        )
    except (DBTaskResult.DoesNotExist, ValidationError):
        return None
    return _row_state(row)


def _active(*, key: str, backend: str):
    """Tasks of ``key`` queued or being drawn (not lost), oldest first."""
    lost = timezone.now() - RENDER_LOST_AFTER
    return (
        DBTaskResult.objects.only(*_STATE_FIELDS)
        .filter(task_path=irer_render.module_path, backend_name=backend)
        .filter(Q(status=TaskResultStatus.READY) | Q(status=TaskResultStatus.RUNNING, started_at__gte=lost))
        .filter(args_kwargs__kwargs__key=key)
        .order_by("enqueued_at")
    )


@contextmanager
def _key_lock(key: str):
    """One request at a time looks for ``key``'s task and enqueues it: a transaction holding
    a PostgreSQL advisory lock on the key, or SQLite's exclusive lock on the database."""
    alias = router.db_for_write(DBTaskResult)
    with exclusive_transaction(alias):
        connection = connections[alias]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, int(key[:7], 16)])
        yield


def _row_state(row: DBTaskResult) -> RenderState:
    now = timezone.now()
    if row.status == TaskResultStatus.READY and _no_worker(row, now):
        return RenderState(str(row.id), NO_WORKER,
                           NO_WORKER_MESSAGE.format(seconds=int(WORKERS_IDLE_AFTER.total_seconds())))
    if row.status == TaskResultStatus.READY:
        return RenderState(str(row.id), QUEUED, *_queued(row))
    if row.status == TaskResultStatus.RUNNING and row.started_at < now - RENDER_LOST_AFTER:
        return RenderState(str(row.id), FAILED, LOST_MESSAGE)
    return _state(str(row.id), row.status, row.exception_class_path)


def _state(task_id: str, status: str, failure: str) -> RenderState:
    """The state of a task from its status alone (no queue to look into)."""
    if status == TaskResultStatus.READY:
        return RenderState(task_id, QUEUED, QUEUED_MESSAGE)
    if status == TaskResultStatus.RUNNING:
        return RenderState(task_id, RENDERING, RENDERING_MESSAGE)
    if status == TaskResultStatus.SUCCESSFUL:
        return RenderState(task_id, READY, READY_MESSAGE)
    not_stored = failure == f"{ReportNotStored.__module__}.{ReportNotStored.__qualname__}"
    return RenderState(task_id, FAILED, NOT_STORED_MESSAGE if not_stored else FAILED_MESSAGE)


def _queued(row: DBTaskResult) -> tuple[str, int]:
    """The message and the number of tasks a worker takes before this one (the backend's
    order: priority, then run_after, then enqueued_at)."""
    before = (Q(priority__gt=row.priority) | Q(priority=row.priority, run_after__lt=row.run_after)
              | Q(priority=row.priority, run_after=row.run_after, enqueued_at__lt=row.enqueued_at))
    ahead = (DBTaskResult.objects.ready().filter(backend_name=row.backend_name, queue_name=row.queue_name)
             .filter(before).count())
    if not ahead:
        return QUEUED_MESSAGE, 0
    return QUEUED_BEHIND_MESSAGE.format(ahead=ahead, s="" if ahead == 1 else "s"), ahead


def _no_worker(row: DBTaskResult, now: datetime) -> bool:
    """Has ``row`` waited :data:`WORKERS_IDLE_AFTER` with no sign of a worker meanwhile?"""
    since = now - WORKERS_IDLE_AFTER
    if row.enqueued_at > since:
        return False
    working = (Q(started_at__gte=since) | Q(finished_at__gte=since)
               | Q(status=TaskResultStatus.RUNNING, started_at__gte=now - RENDER_LOST_AFTER))
    return not DBTaskResult.objects.filter(backend_name=row.backend_name).filter(working).exists()
