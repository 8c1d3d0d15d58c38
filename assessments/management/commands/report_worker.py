"""``manage.py report_worker``: the report worker that outlives a lost database connection.

django-tasks-db's ``db_worker`` (the worker that draws the IRER PDFs, see
``assessments.reports.tasks``) exits for good when its database connection drops: a
PostgreSQL restart or failover, a network blip, an administrator ending idle sessions.
This command takes the same options and runs the same worker, but when the database
fails (``OperationalError`` or ``InterfaceError``, while looking for a task or while
recording one) it closes the broken connection, waits, checks the database answers, and
carries on; the wait doubles from :data:`RETRY_FIRST_SECONDS` up to
:data:`RETRY_MAX_SECONDS` while the database stays away. Each attempt is logged (logger
``assessments.reports.worker``, a warning). A report being drawn when the connection
dropped is left "running"; the workers' heartbeats find it and put it back in the queue.

Each worker beats (``reports.heartbeat``): a thread with its own database connection
records the worker (its ``ReportWorker`` row: host, pid, the task it draws) every
``REPORT_WORKER_HEARTBEAT_SECONDS`` (5) and then puts back in the queue
(:func:`recover_lost_reports`) the reports whose worker has been silent for
``REPORT_WORKER_SILENT_AFTER_SECONDS`` (30), so another worker draws them, at most three
times (``reports.recovery``). db_worker's loop has no hook called at each poll, so the
heartbeat thread is where each worker looks for lost reports, idle or drawing.

SIGTERM and Ctrl-C behave as with ``db_worker``: the report being drawn is finished, then
the worker exits (at once when idle or while it waits to reconnect), recording its stop
(``stopped_at``). A second signal ends the draw at once; its task is then left "running"
and put back in the queue by the other workers once the stopped worker's row says so.
SIGKILL leaves no time for anything: the task is put back once the worker has been silent
for 30 s.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.core.management.base import CommandError
from django.db import connections
from django.db.utils import InterfaceError, OperationalError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from assessments.band_tasks import sensitivity_band
from assessments.impact_runs import impact_part
from assessments.reports.heartbeat import Heartbeat
from assessments.reports.recovery import Recovery, recover_lost_tasks
from assessments.reports.tasks import irer_render

logger = logging.getLogger("assessments.reports.worker")

RETRY_FIRST_SECONDS = 0.5
RETRY_MAX_SECONDS = 30.0

CONNECTION_LOST_LOG = "Report worker %s lost its database connection (%s); reconnecting"
RETRY_LOG = "Report worker %s: reconnecting to the database in %.1f s (attempt %d)"
RETRY_FAILED_LOG = "Report worker %s: the database did not answer (attempt %d: %s)"
RECONNECTED_LOG = "Report worker %s reconnected to the database after %d attempt(s); taking reports again"

DATABASE_LOST = (OperationalError, InterfaceError)


def recover_lost_reports() -> Recovery:
    """Put back in the queue (or fail) the lost tasks of the report workers: the IRER's
    (``tasks.irer_render``), the sensitivity band's (``band_tasks.sensitivity_band``) and the
    parts of a measure of an engine change (``impact_runs.impact_part``), by the rules of ``reports.recovery``. Each worker's heartbeat thread calls it after each
    beat."""
    return recover_lost_tasks(irer=irer_render, others=[sensitivity_band, impact_part])


def _first_line(error: BaseException) -> str:
    """The error's class and the first line of its message (a driver's message may go on
    with the statement it was running)."""
    message = str(error).strip().splitlines()
    return f"{type(error).__name__}: {message[0]}" if message else type(error).__name__


def _close_connections() -> None:
    """Close every database connection of this thread; closing a broken one may itself
    fail, which changes nothing: the next query opens a new one."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except DATABASE_LOST:
            connection.connection = None


class ReconnectingWorker(db_worker.Worker):
    """django-tasks-db's worker, restarted after each loss of the database connection,
    with a heartbeat (``reports.heartbeat``) while it runs."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.heartbeat = Heartbeat(self.worker_id, recover=recover_lost_reports)

    def run(self) -> None:
        self.heartbeat.start()
        try:
            self._run()
        finally:  # the end of a batch, a signal (SystemExit), or any error
            self.heartbeat.stop()

    def _run(self) -> None:
        while True:
            try:
                return super().run()
            except DATABASE_LOST as error:
                logger.warning(CONNECTION_LOST_LOG, self.worker_id, _first_line(error))
                self.running_task = False
                if not self.reconnect():
                    return None

    def run_task(self, db_task_result: DBTaskResult[..., Any]) -> None:
        """Draw the task, its id in the worker's heartbeat meanwhile."""
        self.heartbeat.current_task_id = str(db_task_result.id)
        try:
            super().run_task(db_task_result)
        finally:
            self.heartbeat.current_task_id = None

    def reconnect(self) -> bool:
        """Wait, with a growing delay, until the queue's database answers. False if the
        worker was told to stop meanwhile."""
        alias = DBTaskResult.objects.db
        delay, attempt = RETRY_FIRST_SECONDS, 0
        while self.running:
            attempt += 1
            _close_connections()
            logger.warning(RETRY_LOG, self.worker_id, delay, attempt)
            time.sleep(delay)
            try:
                with connections[alias].cursor() as cursor:
                    cursor.execute("SELECT 1")
            except DATABASE_LOST as error:
                logger.warning(RETRY_FAILED_LOG, self.worker_id, attempt, _first_line(error))
                delay = min(delay * 2, RETRY_MAX_SECONDS)
                continue
            logger.warning(RECONNECTED_LOG, self.worker_id, attempt)
            return True
        return False


class Command(db_worker.Command):
    help = "Run a report worker (django-tasks-db's db_worker) that reconnects when its database connection drops"

    def handle(self, *, verbosity: int, queue_name: str, interval: float, batch: bool, backend_name: str,
               startup_delay: bool, reload: bool, max_tasks: int | None, worker_id: str, exclude_queues: str,
               **options: Any) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = ReconnectingWorker(
            queue_names=queue_names, interval=interval, batch=batch, backend_name=backend_name,
            startup_delay=startup_delay, max_tasks=max_tasks, worker_id=worker_id, excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only the reloader's child handles signals
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
