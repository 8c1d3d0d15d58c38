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

Each report worker beats (``reports.heartbeat``: a row per worker, written every 5 s), so
the download page says how many workers are running and its place in the queue, and says
at once when no worker is running (:data:`NO_WORKER`). A task whose worker stopped beating
(killed mid-draw) is put back in the queue by the other workers within
``heartbeat.WORKER_SILENT_AFTER_SECONDS`` and drawn again, with no new download
(``reports.recovery``); after ``recovery.MAX_ATTEMPTS`` workers lost it fails, and the
page says so and offers Try again. The status check looks for its own task's loss too, so a
report lost with the last worker is shown queued (with no worker running), not drawing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import Q
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks.base import Task
from django_tasks_db import DatabaseBackend
from django_tasks_db.backend import TaskResult as DatabaseTaskResult
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet
from django_tasks_db.utils import exclusive_transaction

from . import heartbeat, recovery
from .cache import ReportNotStored, store_pdf
from .render import html_to_pdf

logger = logging.getLogger(__name__)

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
LOST_MESSAGE = ("The report could not be drawn: the report worker drawing it stopped {times}. Try again; if it "
                "happens again, tell the administrator.")
AGAIN_NOTE = " Attempt {attempt} of {attempts}: the report worker drawing it before stopped."
NO_WORKER_MESSAGE = ("The report service is not running: no report worker has checked in for {seconds} seconds. "
                     "This report stays queued and is drawn as soon as the service runs; tell the administrator.")
WORKERS_TEXT = "{count} report worker{s} running."
ACTIONS = {READY: "Download the report", FAILED: "Try again"}
WAITING_ACTION = "Download when ready"
TONES = {QUEUED: "info", RENDERING: "info", READY: "success", FAILED: "danger", NO_WORKER: "warning"}

# What a state is read from: never the task's arguments, which hold the report's HTML.
_STATE_FIELDS = ("id", "status", "priority", "run_after", "enqueued_at", "started_at", "queue_name", "backend_name",
                 "exception_class_path", "worker_ids")


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
    db_result: DBTaskResult[..., Any] | None = getattr(context.task_result, "db_result", None)  # the immediate backend keeps no row
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
    workers: int | None = None  # report workers running (None: the backend has none, it draws at once)

    @property
    def finished(self) -> bool:
        return self.state in (READY, FAILED)

    @property
    def step(self) -> str | None:
        """The step of :data:`STEPS` it is at (a task with no worker is still queued)."""
        return QUEUED if self.state == NO_WORKER else (None if self.state == FAILED else self.state)

    @property
    def steps(self) -> list[dict[str, Any]]:
        return [{"state": state, "label": label, "current": state == self.step} for state, label in STEPS]

    @property
    def action(self) -> str:
        """The label of the page's one button, which requests the download again."""
        return ACTIONS.get(self.state, WAITING_ACTION)

    @property
    def tone(self) -> str:
        """Bootstrap's alert colour for the message."""
        return TONES[self.state]

    @property
    def workers_text(self) -> str:
        """How many report workers are running, in words ("" when not known)."""
        if self.workers is None:
            return ""
        return WORKERS_TEXT.format(count=self.workers, s="" if self.workers == 1 else "s")

    def as_json(self) -> dict[str, Any]:
        return {"state": self.state, "step": self.step, "message": self.message, "ahead": self.ahead,
                "workers": self.workers, "workers_text": self.workers_text, "action": self.action, "tone": self.tone}


def render_request(*, key: str, html: str, assessment_id: int, copy: str) -> RenderState:
    """The task drawing the PDF of ``key``: the one queued or being drawn, else a new one.
    With a backend that runs the task at once (the immediate backend of the test settings)
    it has finished on return. Following a queued task (:func:`render_state`) needs the
    database backend, whose table is the queue."""
    backend = database_backend(irer_render)
    if backend is None:
        result = irer_render.enqueue(key=key, html=html, assessment_id=assessment_id, copy=copy)
        failure = result.errors[0].exception_class_path if result.errors else ""
        return _state(str(result.id), result.status, failure)
    with _key_lock(key):
        row = active(irer_render, key=key, backend=backend.alias).first()
        if row is None:
            # The database backend's result (the backend is checked above), with its row.
            enqueued = cast(DatabaseTaskResult[..., None],
                            irer_render.enqueue(key=key, html=html, assessment_id=assessment_id, copy=copy))
            row = enqueued.db_result
    return _row_state(row)


def database_backend(task_function: Task[..., Any]) -> DatabaseBackend | None:
    """The backend of ``task_function`` if it is django-tasks-db's (its queue a table of the
    database), else None (the immediate backend of the test settings). django-tasks-db types
    its classes against ``django.tasks`` (Django 6, whose stubs django-stubs ships) and this
    project runs them on django-tasks: one class at run time, two unrelated ones to the type
    checker, hence the check on an ``object``."""
    backend: object = task_function.get_backend()
    return backend if isinstance(backend, DatabaseBackend) else None


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


def active(task_function: Task[..., Any], *, key: str, backend: str) -> DBTaskResultQuerySet:
    """Tasks of ``task_function`` (``irer_render``, or the band's ``band_tasks.sensitivity_band``)
    for ``key`` queued or running, oldest first. A task lost with its worker is put back in
    the queue (``recovery``), so it holds its key until it is done or fails."""
    return (
        DBTaskResult.objects.only(*_STATE_FIELDS)
        .filter(task_path=task_function.module_path, backend_name=backend)
        .filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
        .filter(args_kwargs__kwargs__key=key)
        .order_by("enqueued_at")
    )


@contextmanager
def _key_lock(key: str) -> Iterator[None]:
    """One request at a time looks for ``key``'s task and enqueues it: a transaction holding
    a PostgreSQL advisory lock on the key, or SQLite's exclusive lock on the database."""
    alias = router.db_for_write(DBTaskResult)
    with exclusive_transaction(alias):
        connection = connections[alias]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, int(key[:7], 16)])
        yield


def _row_state(row: DBTaskResult[..., Any]) -> RenderState:
    """The state of ``row``, after putting it back in the queue if it was lost with its
    worker (``recovery.recover_lost_tasks``), with the workers running."""
    if row.status == TaskResultStatus.RUNNING and recovery.recover_lost_tasks(irer=irer_render, task_ids=[row.id]):
        row = DBTaskResult.objects.only(*_STATE_FIELDS).get(pk=row.pk)
    workers = heartbeat.workers_alive()
    if row.status == TaskResultStatus.READY and not workers:
        message = NO_WORKER_MESSAGE.format(seconds=int(heartbeat.silent_after().total_seconds()))
        return RenderState(str(row.id), NO_WORKER, message, workers=workers)
    if row.status == TaskResultStatus.READY:
        message, ahead = _queued(row)
        return RenderState(str(row.id), QUEUED, message + _again(row, taken=len(row.worker_ids) + 1), ahead, workers)
    state = _state(str(row.id), row.status, row.exception_class_path, attempts=len(row.worker_ids))
    again = _again(row, taken=len(row.worker_ids)) if state.state == RENDERING else ""
    return RenderState(state.task_id, state.state, state.message + again, workers=workers)


def _again(row: DBTaskResult[..., Any], *, taken: int) -> str:
    """The note on a report queued or drawn again after a worker was lost with it."""
    return AGAIN_NOTE.format(attempt=taken, attempts=recovery.MAX_ATTEMPTS) if taken > 1 else ""


def _state(task_id: str, status: str, failure: str, *, attempts: int = 1) -> RenderState:
    """The state of a task from its status alone (no queue to look into)."""
    if status == TaskResultStatus.READY:
        return RenderState(task_id, QUEUED, QUEUED_MESSAGE)
    if status == TaskResultStatus.RUNNING:
        return RenderState(task_id, RENDERING, RENDERING_MESSAGE)
    if status == TaskResultStatus.SUCCESSFUL:
        return RenderState(task_id, READY, READY_MESSAGE)
    if failure == _class_path(heartbeat.ReportLost):
        return RenderState(task_id, FAILED, LOST_MESSAGE.format(times="once" if attempts == 1 else f"{attempts} times"))
    return RenderState(task_id, FAILED, NOT_STORED_MESSAGE if failure == _class_path(ReportNotStored) else FAILED_MESSAGE)


def _class_path(exception: type[BaseException]) -> str:
    """An exception's class as django-tasks-db records a failure's (``exception_class_path``)."""
    return f"{exception.__module__}.{exception.__qualname__}"


def _queued(row: DBTaskResult[..., Any]) -> tuple[str, int]:
    """The message and the number of tasks a worker takes before this one (the backend's
    order: priority, then run_after, then enqueued_at)."""
    before = (Q(priority__gt=row.priority) | Q(priority=row.priority, run_after__lt=row.run_after)
              | Q(priority=row.priority, run_after=row.run_after, enqueued_at__lt=row.enqueued_at))
    ahead = (DBTaskResult.objects.ready().filter(backend_name=row.backend_name, queue_name=row.queue_name)
             .filter(before).count())
    if not ahead:
        return QUEUED_MESSAGE, 0
    return QUEUED_BEHIND_MESSAGE.format(ahead=ahead, s="" if ahead == 1 else "s"), ahead

