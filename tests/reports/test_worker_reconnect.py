"""A report worker (``manage.py report_worker``) outlives a lost database connection: it
closes the broken connection, retries with a growing delay, logging each attempt, and
then draws the reports queued meanwhile (issue 27: ``db_worker`` exited for good).

The worker runs in a thread of the test with its own connection, so the tests use
committed data (``transaction=True``). On PostgreSQL the connection is really cut
(``pg_terminate_backend``); on any database the loss is also simulated by the driver's
error on the worker's next query."""

from __future__ import annotations

import logging
import threading
import time
from unittest import mock

import pytest
from django.db import connection, connections
from django.db.utils import OperationalError
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from assessments.management.commands import report_worker
from assessments.management.commands.report_worker import ReconnectingWorker
from assessments.reports import tasks
from assessments.reports.cache import _name
from tests.database import postgresql_only

pytestmark = pytest.mark.django_db(transaction=True)

HTML = "<html><body><h1>Initial Review Engineering Report</h1><p>{text}</p></body></html>"
LOGGER = report_worker.logger.name


@pytest.fixture
def queue(settings, tmp_path):
    """The production task backend and a fresh report cache; short reconnect delays."""
    settings.TASKS = settings.QUEUE_TASKS
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}},
    }
    with mock.patch.object(report_worker, "RETRY_FIRST_SECONDS", 0.05):
        yield tmp_path


def enqueue(n: int) -> tuple[str, str]:
    """Queue the drawing of a small report; its key and task id."""
    key = f"{n:07x}" + "a" * 57
    state = tasks.render_request(key=key, html=HTML.format(text=f"Report {n}"), assessment_id=n, copy="full")
    assert state.state in (tasks.QUEUED, tasks.NO_WORKER)  # queued; NO_WORKER before the worker's first beat
    return key, state.task_id


def drawn(report_cache, key: str) -> bool:
    path = report_cache / _name(key)
    return path.exists() and path.read_bytes().startswith(b"%PDF-")


def worker(**options) -> ReconnectingWorker:
    settings = {"queue_names": ["default"], "interval": 0.05, "batch": False, "backend_name": "default",
                "startup_delay": False, "max_tasks": None, "worker_id": "reconnect-test", "excluded_queue_names": []}
    return ReconnectingWorker(**(settings | options))


def test_a_lost_connection_is_retried_and_the_queued_report_drawn(queue, caplog):
    """The driver's error on the worker's first look for a task, as when the server ended
    the connection: the worker reconnects and draws the report (it used to exit)."""
    key, task_id = enqueue(1)
    real_get_locked = DBTaskResultQuerySet.get_locked
    failures = iter([OperationalError("server closed the connection unexpectedly")])

    def get_locked(self):
        for error in failures:
            raise error
        return real_get_locked(self)

    with caplog.at_level(logging.WARNING, logger=LOGGER), \
            mock.patch.object(DBTaskResultQuerySet, "get_locked", get_locked):
        worker(batch=True).run()  # batch: until the queue is empty
    assert DBTaskResult.objects.get(pk=task_id).status == TaskResultStatus.SUCCESSFUL
    assert drawn(queue, key)
    messages = [record.getMessage() for record in caplog.records if record.name == LOGGER]
    assert messages[0].startswith("Report worker reconnect-test lost its database connection (OperationalError: "
                                  "server closed the connection unexpectedly)")
    assert any("reconnected to the database after 1 attempt(s)" in message for message in messages)


def test_each_retry_is_logged_and_waits_longer_while_the_database_stays_away(queue, caplog):
    answers = iter([OperationalError("could not connect to server"), OperationalError("could not connect to server")])
    real_cursor = connections["default"].__class__.cursor

    def cursor(self, *args, **kwargs):
        for error in answers:
            raise error
        return real_cursor(self, *args, **kwargs)

    sleeps = []
    with caplog.at_level(logging.WARNING, logger=LOGGER), \
            mock.patch.object(report_worker.time, "sleep", sleeps.append), \
            mock.patch.object(connections["default"].__class__, "cursor", cursor):
        assert worker().reconnect() is True
    messages = [record.getMessage() for record in caplog.records if record.name == LOGGER]
    assert messages == [
        "Report worker reconnect-test: reconnecting to the database in 0.1 s (attempt 1)",
        "Report worker reconnect-test: the database did not answer (attempt 1: OperationalError: could not connect "
        "to server)",
        "Report worker reconnect-test: reconnecting to the database in 0.1 s (attempt 2)",
        "Report worker reconnect-test: the database did not answer (attempt 2: OperationalError: could not connect "
        "to server)",
        "Report worker reconnect-test: reconnecting to the database in 0.2 s (attempt 3)",
        "Report worker reconnect-test reconnected to the database after 3 attempt(s); taking reports again",
    ]
    assert sleeps == [0.05, 0.1, 0.2]  # doubling from RETRY_FIRST_SECONDS


def test_the_wait_between_retries_stops_growing_at_its_ceiling(queue):
    answers = iter([OperationalError("could not connect to server")] * 12)

    def cursor(self, *args, **kwargs):
        for error in answers:
            raise error
        return real_cursor(self, *args, **kwargs)

    real_cursor = connections["default"].__class__.cursor
    sleeps = []
    with mock.patch.object(report_worker.time, "sleep", sleeps.append), \
            mock.patch.object(connections["default"].__class__, "cursor", cursor):
        assert worker().reconnect() is True
    assert len(sleeps) == 13 and max(sleeps) == sleeps[-1] == report_worker.RETRY_MAX_SECONDS


def test_a_worker_told_to_stop_while_reconnecting_stops():
    stopping = worker()
    stopping.running = False
    assert stopping.reconnect() is False


@postgresql_only("pg_terminate_backend ends another session's connection: PostgreSQL's")
def test_the_worker_carries_on_after_its_postgresql_session_is_terminated_mid_draw(queue, caplog):
    """The worker's session is ended while it draws a report (a restart or failover
    would do the same): recording the report fails, and the worker used to exit with it.
    It reconnects and draws the next report."""
    running = worker()
    drawing, go_on, pids = threading.Event(), threading.Event(), []
    real_html_to_pdf = tasks.html_to_pdf

    def html_to_pdf(html):
        if not pids:  # the first report: hold it while the session is ended
            with connections["default"].cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            drawing.set()
            go_on.wait(timeout=30)
        return real_html_to_pdf(html)

    def work():
        try:
            running.run()
        finally:
            connections.close_all()

    with caplog.at_level(logging.WARNING, logger=LOGGER), mock.patch.object(tasks, "html_to_pdf", html_to_pdf):
        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        enqueue(3)
        assert drawing.wait(timeout=30)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pids[0]])
            assert cursor.fetchone()[0] is True
        go_on.set()
        second, second_task = enqueue(4)
        _wait_for(lambda: drawn(queue, second))
        running.running = False
        thread.join(timeout=10)
    assert DBTaskResult.objects.get(pk=second_task).status == TaskResultStatus.SUCCESSFUL
    messages = [record.getMessage() for record in caplog.records if record.name == LOGGER]
    assert any("lost its database connection" in message for message in messages), messages
    assert any("reconnected to the database" in message for message in messages), messages


def _wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the worker did not draw the report"
        time.sleep(0.05)
