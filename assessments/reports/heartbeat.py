"""Report workers' heartbeats: which workers are alive, and what each is drawing.

django-tasks-db (0.13) keeps no heartbeat: a worker killed while drawing (SIGKILL, the OOM
killer, a host lost) leaves its task "running" for good, and nothing says it is gone. So
each report worker (``manage.py report_worker``) runs a :class:`Heartbeat`: a thread with a
database connection of its own that writes the worker's :class:`~assessments.models.ReportWorker`
row every :func:`heartbeat_seconds` (when it beat, and which task it is drawing), and then
calls the look for lost reports the worker hands it (``recovery.recover_lost_tasks``).
db_worker's loop has no hook called at each poll, so the heartbeat thread is where every
worker looks, idle or drawing. This module imports neither task module: the worker passes
the recovery in.

A worker is alive while it beats: within :func:`silent_after` of its last beat, not stopped
(:func:`alive_workers`). The rules by which a report is lost with its worker, put back in the
queue or failed (:class:`ReportLost`) are ``recovery``'s.

Hosts sharing a queue must keep their clocks in step (NTP): silence is judged by the
looking host's clock against the beating host's, and seconds of skew are harmless next to 30.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet
from django.db.utils import InterfaceError, OperationalError
from django.utils import timezone

from ..models.workers import ReportWorker

logger = logging.getLogger("assessments.reports.worker")

#: Seconds between two beats of a worker (setting ``REPORT_WORKER_HEARTBEAT_SECONDS``).
HEARTBEAT_SECONDS = 5.0
#: Seconds without a beat after which a worker counts as gone and its report as lost
#: (setting ``REPORT_WORKER_SILENT_AFTER_SECONDS``): six beats missed, so a database or a
#: host busy for a few seconds does not send a report being drawn to another worker.
WORKER_SILENT_AFTER_SECONDS = 30.0

BEAT_FAILED_LOG = "Report worker %s: heartbeat not recorded (%s)"

DATABASE_LOST = (OperationalError, InterfaceError)


class ReportLost(Exception):
    """A report task's worker was lost while drawing it, ``recovery.MAX_ATTEMPTS`` times
    (or after dropping its HTML with no PDF stored). Only its class path and message are
    recorded (the task's ``exception_class_path`` and ``traceback``); never raised. It stays
    in this module, below both the recovery that records it and the download page that
    reads it (``tasks._state``), under the class path the failed tasks' rows hold."""


def heartbeat_seconds() -> float:
    return float(getattr(settings, "REPORT_WORKER_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))


def silent_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "REPORT_WORKER_SILENT_AFTER_SECONDS",
                                           WORKER_SILENT_AFTER_SECONDS)))


def alive_workers(*, now: datetime | None = None) -> QuerySet[ReportWorker]:
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
    the thread, which beats every :func:`heartbeat_seconds` and then calls ``recover`` (the
    worker's look for lost reports, ``recovery.recover_lost_tasks``); :meth:`stop` ends it,
    records the stop and closes the thread's connection. The worker sets
    :attr:`current_task_id` while it draws."""

    def __init__(self, worker_id: str, *, recover: Callable[[], object]):
        self.worker_id = worker_id
        self.current_task_id: str | None = None
        self._recover = recover
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
            self._recover()
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
