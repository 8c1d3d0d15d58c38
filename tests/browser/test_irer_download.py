"""The IRER download through the report queue, in a real browser, with a report worker
(django-tasks-db's ``Worker``) running in a thread beside the live server: the reviewer
clicks the download, sees the report queued, and receives the PDF once the worker has
drawn it; without JavaScript the page's button fetches it."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from django.db import connection
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import expect
from pypdf import PdfReader

from assessments.reports import heartbeat, tasks
from tests.browser.conftest import log_in
from tests.conftest import make_user
from tests.reports.conftest import build_sample_assessment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def queue(settings, tmp_path):
    """The production task backend, a report cache of this test's own, and the heartbeat of
    the report worker (``reports.heartbeat``: with no worker alive the page says so at once)."""
    settings.TASKS = settings.QUEUE_TASKS
    heartbeat.register(worker_id="browser-test-worker")
    settings.STORAGES = {**settings.STORAGES, "reports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path / "reports"}}}


@contextmanager
def report_worker():
    """A report worker polling the queue every 0.1 s in a thread, until the block ends."""
    worker = Worker(queue_names=["default"], interval=0.1, batch=False, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="browser-test-worker", excluded_queue_names=[])

    def run() -> None:
        try:
            worker.run()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        worker.running = False
        thread.join(30)


@pytest.fixture
def assessment(django_user_model):
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    return build_sample_assessment(reviewer)


def pdf_text(path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_reviewer_clicks_download_sees_the_report_queued_and_receives_the_pdf(queue, page, assessment, tmp_path):
    log_in(page, "riley")
    page.goto(f"{page.base}/assessments/{assessment.pk}/")
    page.get_by_role("link", name="Download IRER (PDF)").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Preparing the report")
    progress = page.get_by_role("status").filter(has_text="Queued")
    expect(progress).to_have_text(tasks.QUEUED_MESSAGE)
    expect(page.locator("[aria-current=step]")).to_have_text("1. Queued")
    expect(page.get_by_role("link", name=tasks.WAITING_ACTION)).to_be_visible()

    with page.expect_download(timeout=30000) as info, report_worker():
        download = info.value
    assert download.suggested_filename == "IRER-P-18-0123-r1.pdf"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert "P-18-0123" in pdf_text(saved)
    expect(page.get_by_role("status")).to_have_text(tasks.READY_MESSAGE)
    expect(page.locator("[aria-current=step]")).to_have_text("3. Ready")
    expect(page.get_by_role("link", name=tasks.ACTIONS[tasks.READY])).to_be_visible()
    assert DBTaskResult.objects.get().worker_ids == ["browser-test-worker"]


def test_without_javascript_the_button_fetches_the_report_once_it_is_ready(queue, browser, live_server, assessment,
                                                                          tmp_path):
    context = browser.new_context(java_script_enabled=False, accept_downloads=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.base = live_server.url
        log_in(page, "riley")
        page.goto(f"{page.base}/assessments/{assessment.pk}/irer.pdf")
        expect(page.get_by_role("status")).to_have_text(tasks.QUEUED_MESSAGE)

        with report_worker():
            for _ in range(300):
                if DBTaskResult.objects.filter(status="SUCCESSFUL").exists():
                    break
                threading.Event().wait(0.1)
        with page.expect_download() as info:
            page.get_by_role("link", name=tasks.WAITING_ACTION).click()
        saved = tmp_path / "irer.pdf"
        info.value.save_as(saved)
        assert "P-18-0123" in pdf_text(saved)
    finally:
        context.close()
