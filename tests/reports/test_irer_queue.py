"""The IRER drawn by a report worker (assessments.reports.tasks) through django-tasks'
database backend: a download not in the cache enqueues its report once and shows its
progress; a worker draws and stores it; the download then serves the stored file. Also the
failures the page must explain (drawing failed, the file could not be stored, the worker
died, no worker running), and the CBI check on the status endpoint. The worker is
django-tasks-db's own ``Worker``, run in the test's thread until the queue is empty; its
heartbeat (``reports.heartbeat``, which ``manage.py report_worker`` keeps) is the row the
``queue`` fixture writes, so the page counts one worker running."""

import datetime
import re
import threading
from unittest import mock

import pytest
from django.conf import settings as project_settings
from django.db import connection
from django.utils import timezone
from django.utils.html import escape
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from assessments.models import ReportWorker
from assessments.reports import heartbeat, tasks
from assessments.reports.tasks import render_request
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db

DATABASE_BACKEND = project_settings.QUEUE_TASKS  # the production queue (reviewer/settings.py)


@pytest.fixture
def queue(settings, report_cache):
    """The production task backend (a table of the test database), a fresh report cache and
    one report worker's heartbeat (the worker of :func:`run_worker`)."""
    settings.TASKS = DATABASE_BACKEND
    heartbeat.register(worker_id="test-worker")
    return report_cache


def run_worker(*, worker_id: str = "test-worker") -> None:
    """django-tasks-db's worker, in this thread, until no task is left. It checks its
    database connection between tasks; here that connection is the test's own, inside the
    test's transaction, so the check is left out."""
    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id=worker_id, excluded_queue_names=[])
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        worker.run()


def download_url(assessment, *, sanitised=False) -> str:
    return f"/assessments/{assessment.pk}/irer.pdf" + ("?copy=sanitised" if sanitised else "")


def request_report(client, assessment, *, sanitised=False):
    """GET the download of a report that is not stored: the page that follows it."""
    response = client.get(download_url(assessment, sanitised=sanitised))
    assert response.status_code == 202 and response["Content-Type"].startswith("text/html")
    return response


def status(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def test_a_download_not_stored_enqueues_the_report_and_shows_that_it_is_queued(client, queue, renders, reviewer,
                                                                                sample_assessment):
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    [row] = DBTaskResult.objects.all()
    assert row.status == TaskResultStatus.READY and row.task_path == "assessments.reports.tasks.irer_render"
    html = page.content.decode()
    assert "Preparing the report" in html and "IRER-P-18-0123-r1.pdf" in html
    assert re.search(r'role="status"[^>]*>\s*' + re.escape(tasks.QUEUED_MESSAGE), html)
    assert page.context["status_url"] == f"/assessments/{sample_assessment.pk}/irer/tasks/{row.id}/"
    assert status(client, page.context["status_url"]) == {
        "state": "queued", "step": "queued", "message": tasks.QUEUED_MESSAGE, "ahead": 0, "workers": 1,
        "workers_text": "1 report worker running.", "action": tasks.WAITING_ACTION, "tone": "info",
    }
    assert re.search(r'id="irer-progress-workers"[^>]*>1 report worker running.</p>', html)
    assert renders.call_count == 0  # nothing drawn in the request


def test_the_worker_draws_the_report_and_the_download_then_serves_the_stored_file(client, queue, renders, reviewer,
                                                                                   sample_assessment):
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    run_worker()
    assert renders.call_count == 1
    assert status(client, page.context["status_url"])["state"] == "ready"
    assert status(client, page.context["status_url"])["message"] == tasks.READY_MESSAGE
    response = client.get(download_url(sample_assessment))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-18-0123-r1.pdf"'
    assert "P-18-0123" in pdf_text(response.content)
    assert [p.read_bytes() for p in queue.rglob("*.pdf")] == [response.content]
    assert renders.call_count == 1  # served as stored, not drawn again


def test_the_worker_drops_the_reports_html_from_the_queue_when_done(client, queue, reviewer, cbi_assessment):
    client.force_login(reviewer)
    request_report(client, cbi_assessment)
    [row] = DBTaskResult.objects.all()
    assert "Tetrakis" in row.args_kwargs["kwargs"]["html"]  # the full copy, CBI included, while queued
    run_worker()
    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert row.args_kwargs == {"args": [], "kwargs": {"key": row.args_kwargs["kwargs"]["key"],
                                                      "assessment_id": cbi_assessment.pk, "copy": "full"}}


def test_two_downloads_of_one_report_share_one_task(client, queue, renders, reviewer, supervisor, sample_assessment):
    client.force_login(reviewer)
    first = request_report(client, sample_assessment)
    client.force_login(supervisor)
    second = request_report(client, sample_assessment)
    assert DBTaskResult.objects.count() == 1
    assert first.context["status_url"] == second.context["status_url"]
    run_worker()
    assert renders.call_count == 1


def test_a_report_being_drawn_is_not_enqueued_again(client, queue, reviewer, sample_assessment):
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=timezone.now())
    again = request_report(client, sample_assessment)
    assert DBTaskResult.objects.count() == 1 and again.context["status_url"] == page.context["status_url"]
    assert status(client, page.context["status_url"])["message"] == tasks.RENDERING_MESSAGE
    assert tasks.RENDERING_MESSAGE in again.content.decode()


def test_the_full_and_the_sanitised_copy_are_two_tasks_and_the_second_counts_the_first(client, queue, reviewer,
                                                                                        cbi_assessment):
    client.force_login(reviewer)
    request_report(client, cbi_assessment)
    sanitised = request_report(client, cbi_assessment, sanitised=True)
    assert DBTaskResult.objects.count() == 2
    assert sanitised.context["status_url"].endswith("/?copy=sanitised")
    queued = status(client, sanitised.context["status_url"])
    assert (queued["ahead"], queued["message"]) == (1, "Queued behind 1 other report.")


def test_a_failed_drawing_is_reported_and_the_next_download_tries_again(client, queue, reviewer, sample_assessment):
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    with mock.patch.object(tasks, "html_to_pdf", side_effect=RuntimeError("Pango exploded at /srv/secret/path")):
        run_worker()
    failed = client.get(page.context["status_url"])
    assert failed.json() == {"state": "failed", "step": None, "message": tasks.FAILED_MESSAGE, "ahead": None,
                             "workers": 1, "workers_text": "1 report worker running.", "action": "Try again",
                             "tone": "danger"}
    assert b"Pango" not in failed.content and b"Traceback" not in failed.content
    retry = request_report(client, sample_assessment)  # the page's "Try again" is the download URL
    assert DBTaskResult.objects.count() == 2 and retry.context["status_url"] != page.context["status_url"]
    run_worker()
    assert client.get(download_url(sample_assessment))["Content-Type"] == "application/pdf"


def test_a_report_that_cannot_be_stored_says_so(client, queue, settings, reviewer, sample_assessment):
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    blocker = queue / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    settings.STORAGES = {**settings.STORAGES, "reports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": blocker}}}
    run_worker()
    assert status(client, page.context["status_url"])["message"] == tasks.NOT_STORED_MESSAGE


def test_a_task_lost_with_its_worker_is_queued_again_and_keeps_its_key(client, queue, reviewer, sample_assessment):
    """Its worker silent for 30 s: the status check puts it back in the queue (heartbeat),
    the page says it is a second attempt, and a new download waits for the same task."""
    client.force_login(reviewer)
    page = request_report(client, sample_assessment)
    silent = timezone.now() - heartbeat.silent_after() - datetime.timedelta(seconds=1)
    heartbeat.register(worker_id="killed-worker", now=silent - datetime.timedelta(seconds=5))
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=silent, worker_ids=["killed-worker"])
    queued = status(client, page.context["status_url"])
    assert queued["state"] == "queued"
    assert queued["message"] == tasks.QUEUED_MESSAGE + " Attempt 2 of 3: the report worker drawing it before stopped."
    again = request_report(client, sample_assessment)
    assert again.context["status_url"] == page.context["status_url"]
    assert DBTaskResult.objects.filter(status=TaskResultStatus.READY).count() == 1


def test_a_task_with_no_worker_running_says_the_report_service_is_not_running_at_once(client, queue, reviewer,
                                                                                     sample_assessment):
    client.force_login(reviewer)
    ReportWorker.objects.update(beat_at=timezone.now() - heartbeat.silent_after() - datetime.timedelta(seconds=1))
    page = request_report(client, sample_assessment)
    no_worker = status(client, page.context["status_url"])
    assert (no_worker["state"], no_worker["step"], no_worker["tone"]) == ("no-worker", "queued", "warning")
    assert (no_worker["workers"], no_worker["workers_text"]) == (0, "0 report workers running.")
    assert no_worker["message"] == ("The report service is not running: no report worker has checked in for 30 "
                                    "seconds. This report stays queued and is drawn as soon as the service runs; "
                                    "tell the administrator.")
    assert tasks.NO_WORKER_MESSAGE.format(seconds=30) in page.content.decode()


def test_a_task_waiting_behind_a_busy_worker_is_only_queued(client, queue, reviewer, sample_assessment, cbi_assessment):
    client.force_login(reviewer)
    request_report(client, cbi_assessment)
    page = request_report(client, sample_assessment)
    busy = DBTaskResult.objects.order_by("enqueued_at").first()
    started = timezone.now() - datetime.timedelta(seconds=60)  # a long draw, its worker beating all along
    DBTaskResult.objects.filter(pk=busy.pk).update(status=TaskResultStatus.RUNNING, started_at=started,
                                                   worker_ids=["test-worker"])
    ReportWorker.objects.update(started_at=started - datetime.timedelta(seconds=1), current_task_id=busy.pk)
    queued = status(client, page.context["status_url"])
    assert (queued["state"], queued["ahead"], queued["workers"]) == ("queued", 0, 1)
    assert DBTaskResult.objects.get(pk=busy.pk).status == TaskResultStatus.RUNNING


def test_the_status_of_a_cbi_report_is_not_found_for_an_uncleared_user(client, queue, reviewer, uncleared_reviewer,
                                                                      cbi_assessment):
    client.force_login(reviewer)
    full = request_report(client, cbi_assessment).context["status_url"]
    sanitised = request_report(client, cbi_assessment, sanitised=True).context["status_url"]
    key = DBTaskResult.objects.order_by("enqueued_at").first().args_kwargs["kwargs"]["key"]
    client.force_login(uncleared_reviewer)
    for url in (full, sanitised):
        response = client.get(url)
        assert response.status_code == 404
        assert key.encode() not in response.content and url.split("/")[5].encode() not in response.content


def test_a_task_answers_only_for_its_own_report_and_copy(client, queue, reviewer, sample_assessment, cbi_assessment):
    client.force_login(reviewer)
    task_url = request_report(client, cbi_assessment).context["status_url"]
    assert client.get(task_url).status_code == 200
    assert client.get(task_url + "?copy=sanitised").status_code == 404
    assert client.get(task_url.replace(f"/{cbi_assessment.pk}/", f"/{sample_assessment.pk}/")).status_code == 404
    assert client.get(f"/assessments/{cbi_assessment.pk}/irer/tasks/not-a-task/").status_code == 404


def test_the_page_works_without_inline_script_and_without_javascript(client, queue, reviewer, sample_assessment):
    client.force_login(reviewer)
    html = request_report(client, sample_assessment).content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts and all(" src=" in s for s in scripts)
    assert '<script src="/static/js/irer-progress.js" defer>' in scripts
    assert not re.search(r"\son\w+=|style=", html)
    # Without JavaScript the button requests the download again: the file once it is ready.
    assert f'id="irer-progress-action" class="btn btn-primary" href="{download_url(sample_assessment)}"' in html
    assert 'aria-current="step">1. Queued</li>' in html


def test_a_drawing_that_fails_at_once_shows_the_failure(client, settings, report_cache, reviewer, sample_assessment):
    """The immediate backend (the test settings) draws in the request: a failure is the
    page's, with no traceback."""
    client.force_login(reviewer)
    with mock.patch.object(tasks, "html_to_pdf", side_effect=RuntimeError("Pango exploded")):
        response = client.get(download_url(sample_assessment))
    assert response.status_code == 503
    html = response.content.decode()
    assert escape(tasks.FAILED_MESSAGE) in html and "Pango" not in html and "Traceback" not in html
    assert ">Try again</a>" in html


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="DATABASE_URL is not PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_workers_on_postgresql_draw_each_task_once(settings, report_cache):
    settings.TASKS = DATABASE_BACKEND
    keys = [f"{n:064x}" for n in range(1, 9)]
    for key in keys:
        render_request(key=key, html=f"<p>{key}</p>", assessment_id=1, copy="full")
    drawn, lock = [], threading.Lock()

    def draw(html: str) -> bytes:
        with lock:
            drawn.append(html)
        threading.Event().wait(0.05)  # long enough for the two workers to overlap
        return b"%PDF-1.7\n" + html.encode() + b"\n%%EOF\n"

    def work(worker_id: str) -> None:
        try:
            Worker(queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False,
                   max_tasks=None, worker_id=worker_id, excluded_queue_names=[]).run()
        finally:
            connection.close()

    with mock.patch.object(tasks, "html_to_pdf", side_effect=draw):
        workers = [threading.Thread(target=work, args=(f"worker-{n}",)) for n in (1, 2)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join(60)
    assert sorted(drawn) == sorted(f"<p>{key}</p>" for key in keys)  # each drawn once
    rows = list(DBTaskResult.objects.all())
    assert {row.status for row in rows} == {TaskResultStatus.SUCCESSFUL}
    assert all(len(row.worker_ids) == 1 for row in rows)
    assert {row.worker_ids[0] for row in rows} == {"worker-1", "worker-2"}  # both took some


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="DATABASE_URL is not PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_on_postgresql_enqueue_one_task(settings, report_cache):
    settings.TASKS = DATABASE_BACKEND
    start, states = threading.Barrier(4), []

    def request() -> None:
        try:
            start.wait(10)
            states.append(render_request(key="ab" * 32, html="<p>same</p>", assessment_id=1, copy="full"))
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(states) == 4 and len({state.task_id for state in states}) == 1
    assert DBTaskResult.objects.count() == 1
