"""Report workers beat (``reports.heartbeat``), and a report lost with its worker is put
back in the queue (``reports.recovery``) and drawn by another, with no new download: at most three workers take
it, then it fails with a message the download page shows beside its Try again button.

The recovery rules are checked on rows written by the test (a worker row with its last
beat, a running task naming its workers), the heartbeat thread and the worker's hooks in
threads of the test, and the issue's own case on PostgreSQL with two real
``manage.py report_worker`` processes, one of them killed (SIGKILL) while it draws."""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings as project_settings
from django.db import connection
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from assessments.band_tasks import sensitivity_band
from assessments.management.commands.report_worker import ReconnectingWorker, recover_lost_reports
from assessments.models import ReportWorker
from assessments.reports import heartbeat, recovery, tasks
from assessments.reports.cache import store_pdf, stored_pdf
from assessments.reports.heartbeat import ReportLost
from assessments.reports.recovery import MAX_ATTEMPTS
from tests.database import postgresql_only

ROOT = Path(project_settings.BASE_DIR)
HTML = '<html lang="en"><body><h1>Initial Review Engineering Report</h1><p>{text}</p></body></html>'
SILENT = heartbeat.silent_after()


@pytest.fixture
def queue(settings, report_cache):
    settings.TASKS = settings.QUEUE_TASKS
    return report_cache


def ago(seconds: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=seconds)


def worker_row(worker_id: str, *, beat_ago: float = 1, started_ago: float = 600, current=None,
               stopped: bool = False) -> ReportWorker:
    return ReportWorker.objects.create(worker_id=worker_id, host="report-host", pid=4242, started_at=ago(started_ago),
                                       beat_at=ago(beat_ago), current_task_id=current,
                                       stopped_at=ago(beat_ago) if stopped else None)


def running_task(*, worker_ids: list[str], started_ago: float = 120, n: int = 1) -> DBTaskResult:
    """A report task as a worker leaves it while drawing: RUNNING, its HTML still there."""
    key = f"{n:07x}" + "b" * 57
    state = tasks.render_request(key=key, html=HTML.format(text=f"Report {n}"), assessment_id=n, copy="full")
    DBTaskResult.objects.filter(pk=state.task_id).update(status=TaskResultStatus.RUNNING, started_at=ago(started_ago),
                                                         worker_ids=worker_ids)
    return DBTaskResult.objects.get(pk=state.task_id)


def silent_seconds() -> float:
    return SILENT.total_seconds() + 1


# The recovery -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_task_whose_worker_is_silent_goes_back_to_the_queue_with_its_html(queue):
    worker_row("killed", beat_ago=silent_seconds())
    task = running_task(worker_ids=["killed"])
    assert recover_lost_reports().requeued == [str(task.pk)]
    task.refresh_from_db()
    assert (task.status, task.started_at, task.worker_ids) == (TaskResultStatus.READY, None, ["killed"])
    assert task.args_kwargs["kwargs"]["html"] == HTML.format(text="Report 1")  # to be drawn again
    assert task in DBTaskResult.objects.ready()  # the backend's own test of a task to take


@pytest.mark.django_db
def test_a_band_task_whose_worker_is_silent_goes_back_to_the_queue_and_holds_its_key(queue):
    """The sensitivity band's task is recovered by the same mechanism as the IRER's: it has
    no HTML to drop, and while it waits again no second task is enqueued for its key."""
    worker_row("killed", beat_ago=silent_seconds())
    key = "c" * 64
    result = sensitivity_band.enqueue(key=key, scenario_key="photoresist-2010", inputs={}, samples=10, seed=1)
    DBTaskResult.objects.filter(pk=result.id).update(status=TaskResultStatus.RUNNING, started_at=ago(120),
                                                     worker_ids=["killed"])
    assert recover_lost_reports().requeued == [str(result.id)]
    row = DBTaskResult.objects.get(pk=result.id)
    assert (row.status, row.worker_ids) == (TaskResultStatus.READY, ["killed"])
    assert list(tasks.active(sensitivity_band, key=key, backend=row.backend_name)) == [row]


@pytest.mark.django_db
def test_each_worker_that_takes_it_counts_an_attempt(queue):
    worker_row("first", beat_ago=silent_seconds())
    task = running_task(worker_ids=["first"])
    recover_lost_reports()
    task.refresh_from_db()
    task.claim("second")  # as db_worker claims it: the worker id appended
    assert task.worker_ids == ["first", "second"]
    worker_row("second", beat_ago=silent_seconds(), started_ago=silent_seconds() + 60)
    DBTaskResult.objects.filter(pk=task.pk).update(started_at=ago(silent_seconds() + 5))
    assert recover_lost_reports().requeued == [str(task.pk)]
    task.refresh_from_db()
    assert task.status == TaskResultStatus.READY and len(task.worker_ids) == 2


@pytest.mark.django_db
def test_the_third_loss_fails_the_task_with_its_message_and_drops_the_html(queue):
    for worker_id in ("w1", "w2", "w3"):
        worker_row(worker_id, beat_ago=silent_seconds())
    task = running_task(worker_ids=["w1", "w2", "w3"])
    assert MAX_ATTEMPTS == 3
    assert recover_lost_reports().failed == [str(task.pk)]
    task.refresh_from_db()
    assert task.status == TaskResultStatus.FAILED and task.finished_at is not None
    assert task.exception_class_path == "assessments.reports.heartbeat.ReportLost"
    assert task.traceback == ("Lost 3 times: the report worker drawing it stopped each time (workers w1, w2, w3); "
                              "not tried again.")
    assert "html" not in task.args_kwargs["kwargs"] and task.args_kwargs["kwargs"]["copy"] == "full"


@pytest.mark.django_db
def test_an_alive_workers_task_is_left_alone(queue):
    task = running_task(worker_ids=["drawing"], started_ago=240)  # a long draw
    worker_row("drawing", beat_ago=2, current=task.pk)
    assert not recover_lost_reports()
    task.refresh_from_db()
    assert task.status == TaskResultStatus.RUNNING and task.worker_ids == ["drawing"]


@pytest.mark.django_db
def test_a_task_just_taken_is_left_alone_before_the_workers_next_beat(queue):
    worker_row("drawing", beat_ago=1, current=None)  # its last beat before it took the task
    task = running_task(worker_ids=["drawing"], started_ago=0.5)
    assert not recover_lost_reports()
    assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.RUNNING


@pytest.mark.parametrize(("row", "reason"), [
    ({"stopped": True}, "stopped"),
    ({"started_ago": 10}, "restarted since"),  # restarted under the same id after taking it
    ({"current": None, "beat_ago": 1}, "drawing something else"),  # its result not recorded (connection lost)
])
@pytest.mark.django_db
def test_a_task_its_worker_no_longer_draws_goes_back_to_the_queue(queue, caplog, row, reason):
    task = running_task(worker_ids=["w"], started_ago=silent_seconds() + 20)
    worker_row("w", **row)
    assert recover_lost_reports().requeued == [str(task.pk)]
    assert f"lost with worker w ({reason}): back in the queue (attempt 1 of 3 taken)" in caplog.text


@pytest.mark.django_db
def test_a_task_of_a_worker_with_no_heartbeat_is_lost_after_five_minutes(queue):
    """db_worker run directly keeps no heartbeat: the rule before heartbeats."""
    recent = running_task(worker_ids=["plain-db-worker"], started_ago=200, n=1)
    old = running_task(worker_ids=["plain-db-worker"], started_ago=301, n=2)
    assert recover_lost_reports().requeued == [str(old.pk)]
    assert DBTaskResult.objects.get(pk=recent.pk).status == TaskResultStatus.RUNNING


@pytest.mark.django_db
def test_a_task_lost_after_its_html_was_dropped_is_done_if_its_pdf_is_stored(queue):
    worker_row("w", beat_ago=silent_seconds())
    done, undone = running_task(worker_ids=["w"], n=1), running_task(worker_ids=["w"], n=2)
    for task in (done, undone):
        kwargs = {name: value for name, value in task.args_kwargs["kwargs"].items() if name != "html"}
        DBTaskResult.objects.filter(pk=task.pk).update(args_kwargs={"args": [], "kwargs": kwargs})
    store_pdf(key=done.args_kwargs["kwargs"]["key"], render=lambda: b"%PDF-1.7\nreport\n%%EOF\n")
    found = recover_lost_reports()
    assert (found.successful, found.failed, found.requeued) == ([str(done.pk)], [str(undone.pk)], [])
    undone.refresh_from_db()
    assert undone.traceback.startswith("Lost after the draw: worker w stopped after dropping the report's HTML")


@pytest.mark.django_db
def test_a_second_recovery_finds_nothing_to_do(queue):
    worker_row("killed", beat_ago=silent_seconds())
    running_task(worker_ids=["killed"])
    assert recover_lost_reports().requeued
    assert not recover_lost_reports()


@pytest.mark.django_db(transaction=True)
def test_two_recoveries_at_once_put_a_task_back_once(queue):
    worker_row("killed", beat_ago=silent_seconds())
    task = running_task(worker_ids=["killed"])
    start, results = threading.Barrier(2), []

    def recover() -> None:
        try:
            start.wait(10)
            results.append(recover_lost_reports())
        finally:
            connection.close()

    threads = [threading.Thread(target=recover) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(len(result.requeued) for result in results) == [0, 1]
    task.refresh_from_db()
    assert task.status == TaskResultStatus.READY and task.worker_ids == ["killed"]


@postgresql_only("SKIP LOCKED is PostgreSQL's (SQLite runs one writer at a time)")
@pytest.mark.django_db(transaction=True)
def test_a_recovery_skips_the_task_another_is_recovering_on_postgresql(queue):
    worker_row("killed", beat_ago=silent_seconds())
    task = running_task(worker_ids=["killed"])
    inside, go_on, results = threading.Event(), threading.Event(), []
    real_recover = recovery._recover

    def slow_recover(*args, **kwargs):
        inside.set()
        go_on.wait(10)  # holding the task's row lock
        return real_recover(*args, **kwargs)

    def first() -> None:
        try:
            results.append(recover_lost_reports())
        finally:
            connection.close()

    with mock.patch.object(recovery, "_recover", slow_recover):
        thread = threading.Thread(target=first)
        thread.start()
        assert inside.wait(10)
        second = recover_lost_reports()  # skips the locked row at once, rather than waiting for it
        go_on.set()
        thread.join(10)
    assert not second and results[0].requeued == [str(task.pk)]


# The download page ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_status_says_how_many_report_workers_are_running(client, queue, reviewer, sample_assessment):
    worker_row("a", beat_ago=1)
    worker_row("b", beat_ago=SILENT.total_seconds() - 2)
    worker_row("silent", beat_ago=silent_seconds())
    worker_row("stopped", beat_ago=1, stopped=True)
    client.force_login(reviewer)
    page = client.get(f"/assessments/{sample_assessment.pk}/irer.pdf")
    assert page.status_code == 202
    assert '<p id="irer-progress-workers" class="small text-muted">2 report workers running.</p>' in page.content.decode()
    status = client.get(page.context["status_url"]).json()
    assert (status["state"], status["ahead"], status["workers"], status["workers_text"]) == (
        "queued", 0, 2, "2 report workers running.")


@pytest.mark.django_db
def test_the_status_check_puts_back_its_own_lost_task_and_shows_it_drawn_again(client, queue, reviewer,
                                                                                sample_assessment):
    client.force_login(reviewer)
    page = client.get(f"/assessments/{sample_assessment.pk}/irer.pdf")
    worker_row("killed", beat_ago=silent_seconds())
    worker_row("alive", beat_ago=1)
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=ago(60), worker_ids=["killed"])
    queued = client.get(page.context["status_url"]).json()
    assert queued["state"] == "queued" and queued["workers"] == 1
    assert queued["message"].endswith("Attempt 2 of 3: the report worker drawing it before stopped.")
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=ago(1), worker_ids=["killed", "alive"])
    drawing = client.get(page.context["status_url"]).json()
    assert drawing["message"] == tasks.RENDERING_MESSAGE + " Attempt 2 of 3: the report worker drawing it before stopped."


@pytest.mark.django_db
def test_a_report_lost_three_times_says_so_with_a_try_again_button(client, queue, reviewer, sample_assessment):
    client.force_login(reviewer)
    url = f"/assessments/{sample_assessment.pk}/irer.pdf"
    page = client.get(url)
    for worker_id in ("w1", "w2", "w3"):
        worker_row(worker_id, beat_ago=silent_seconds())
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=ago(60), worker_ids=["w1", "w2", "w3"])
    failed = client.get(page.context["status_url"]).json()
    message = ("The report could not be drawn: the report worker drawing it stopped 3 times. Try again; if it "
               "happens again, tell the administrator.")
    assert (failed["state"], failed["message"], failed["action"], failed["tone"]) == (
        "failed", message, "Try again", "danger")
    assert ReportLost.__name__ not in str(failed)
    again = client.get(url)  # the Try again button: the download URL, a new task
    assert again.status_code == 202 and DBTaskResult.objects.count() == 2


# The heartbeat and the worker --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_records_the_worker_its_task_and_its_stop(settings):
    settings.REPORT_WORKER_HEARTBEAT_SECONDS = 0.05
    beating = heartbeat.Heartbeat("beating", recover=recover_lost_reports)
    beating.start()
    try:
        row = ReportWorker.objects.get(worker_id="beating")
        assert (row.host, row.pid, row.stopped_at) == (os.uname().nodename, os.getpid(), None)
        beating.current_task_id = "6f1c3a52-32a4-4d3e-9a4e-2b8a0d8f2c11"
        _wait_for(lambda: str(ReportWorker.objects.get(worker_id="beating").current_task_id) == beating.current_task_id)
        assert heartbeat.workers_alive() == 1
    finally:
        beating.stop()
    row = ReportWorker.objects.get(worker_id="beating")
    assert row.stopped_at is not None and row.current_task_id is None
    assert heartbeat.workers_alive() == 0


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_looks_for_lost_reports_with_the_recovery_it_is_handed(settings):
    settings.REPORT_WORKER_HEARTBEAT_SECONDS = 0.05
    looked = threading.Event()
    beating = heartbeat.Heartbeat("looking", recover=looked.set)
    beating.start()
    try:
        assert looked.wait(10)
    finally:
        beating.stop()


@pytest.mark.django_db(transaction=True)
def test_the_report_worker_beats_while_it_draws_and_records_its_stop(queue, settings):
    settings.REPORT_WORKER_HEARTBEAT_SECONDS = 0.05
    state = tasks.render_request(key="c" * 64, html=HTML.format(text="Beating"), assessment_id=1, copy="full")
    seen = []
    real_html_to_pdf = tasks.html_to_pdf

    def html_to_pdf(html):
        _wait_for(lambda: ReportWorker.objects.filter(worker_id="hb", current_task_id=state.task_id).exists())
        seen.append(True)
        return real_html_to_pdf(html)

    worker = ReconnectingWorker(queue_names=["default"], interval=0.05, batch=True, backend_name="default",
                                startup_delay=False, max_tasks=None, worker_id="hb", excluded_queue_names=[])
    with mock.patch.object(tasks, "html_to_pdf", html_to_pdf):
        worker.run()  # batch: until the queue is empty, then stops
    assert seen and DBTaskResult.objects.get(pk=state.task_id).status == TaskResultStatus.SUCCESSFUL
    row = ReportWorker.objects.get(worker_id="hb")
    assert row.stopped_at is not None and row.current_task_id is None


@pytest.mark.django_db
def test_the_admin_lists_the_workers_with_their_heartbeat(client, django_user_model):
    worker_row("host-a-1", beat_ago=3, current="6f1c3a52-32a4-4d3e-9a4e-2b8a0d8f2c11")
    worker_row("host-b-1", beat_ago=silent_seconds())
    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    client.force_login(admin)
    listing = client.get("/admin/assessments/reportworker/")
    html = listing.content.decode()
    assert listing.status_code == 200 and "host-a-1" in html and "host-b-1" in html
    fresh, silent = (int(age) for age in re.findall(r"(\d+) s ago", html))  # newest beat first
    assert 3 <= fresh < 3 + 10 and int(silent_seconds()) <= silent < int(silent_seconds()) + 10  # a slow run's margin
    assert html.count('alt="True"') == 1 and html.count('alt="False"') == 1  # alive: host-a-1 only
    assert "/admin/django_tasks_database/dbtaskresult/6f1c3a52-32a4-4d3e-9a4e-2b8a0d8f2c11/change/" in html
    assert "Add report worker" not in html
    assert client.get("/admin/assessments/reportworker/add/").status_code == 403


def _wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# The case: a worker killed while it draws ----------------------------------------------

# Long enough to kill the worker mid-draw (about 3 s to draw, more with the worker's first
# WeasyPrint start), short enough for the test: a report with a 150-row table.
LONG_HTML = ('<html lang="en"><body><h1>Initial Review Engineering Report</h1><table>'
             + "".join(f"<tr><td>{n}</td><td>Release {n} of the photoresist to water</td><td>{n * 0.37:.3f} "
                       "kg/site-day</td></tr>" for n in range(150))
             + "</table></body></html>")
# The worker processes' settings: the production settings with this test's database and
# report cache, and heartbeats quick enough for the test (0.5 s; silent after 3 s).
WORKER_SETTINGS = """\
from reviewer.settings import *  # noqa

DATABASES["default"]["NAME"] = {database!r}
STORAGES["reports"] = {{"BACKEND": "django.core.files.storage.FileSystemStorage",
                       "OPTIONS": {{"location": {reports!r}}}}}
REPORT_WORKER_HEARTBEAT_SECONDS = 0.5
REPORT_WORKER_SILENT_AFTER_SECONDS = 3
"""


@postgresql_only("two worker processes share the test database: PostgreSQL's, as in production")
@pytest.mark.django_db(transaction=True)
def test_a_report_whose_worker_is_killed_mid_draw_is_drawn_by_another_worker(queue, tmp_path):
    (tmp_path / "worker_settings.py").write_text(
        WORKER_SETTINGS.format(database=connection.settings_dict["NAME"], reports=str(queue)), encoding="utf-8")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "worker_settings", "PYTHONPATH": str(tmp_path),
           "SECRET_KEY": "test-only-secret-key-not-for-production", "DEBUG": "0"}
    with contextlib.ExitStack() as stack:
        processes = {
            worker_id: stack.enter_context(subprocess.Popen(
                [sys.executable, "manage.py", "report_worker", "--no-reload", "--no-startup-delay", "--interval",
                 "0.2", "--worker-id", worker_id],
                cwd=ROOT, env=env, stdout=stack.enter_context(open(tmp_path / f"{worker_id}.log", "w")),
                stderr=subprocess.STDOUT))
            for worker_id in ("hb-1", "hb-2")
        }
        stack.callback(_end, processes)
        _kill_one_and_see_the_other_draw(processes)


def _end(processes: dict[str, subprocess.Popen]) -> None:
    for process in processes.values():
        if process.poll() is None:
            process.kill()
            process.wait(10)


def _kill_one_and_see_the_other_draw(processes: dict[str, subprocess.Popen]) -> None:
    """Enqueue a long report, SIGKILL the worker that takes it, see the other draw it."""
    _wait_for(lambda: heartbeat.workers_alive() == 2, timeout=60)
    state = tasks.render_request(key="d" * 64, html=LONG_HTML, assessment_id=1, copy="full")
    _wait_for(lambda: DBTaskResult.objects.get(pk=state.task_id).status == TaskResultStatus.RUNNING)
    [first] = DBTaskResult.objects.get(pk=state.task_id).worker_ids
    processes[first].send_signal(signal.SIGKILL)
    processes[first].wait(10)
    killed_at = time.monotonic()
    assert DBTaskResult.objects.get(pk=state.task_id).status == TaskResultStatus.RUNNING  # killed mid-draw
    _wait_for(lambda: DBTaskResult.objects.get(pk=state.task_id).status == TaskResultStatus.SUCCESSFUL,
              timeout=60)
    seconds = time.monotonic() - killed_at
    task = DBTaskResult.objects.get(pk=state.task_id)
    second = "hb-2" if first == "hb-1" else "hb-1"
    assert task.worker_ids == [first, second]  # two attempts recorded
    pdf = stored_pdf(key="d" * 64)
    assert pdf is not None and pdf.startswith(b"%PDF-")
    assert DBTaskResult.objects.count() == 1  # no new download, no new task
    killed = ReportWorker.objects.get(worker_id=first)
    assert killed.stopped_at is None and str(killed.current_task_id) in ("None", state.task_id)
    print(f"drawn by {second} {seconds:.1f} s after {first} was killed")
    processes[second].send_signal(signal.SIGTERM)  # graceful: stops, recording it
    assert processes[second].wait(30) == 0
    assert ReportWorker.objects.get(worker_id=second).stopped_at is not None
