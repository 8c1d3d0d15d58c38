"""Shared report storage (issue: "Reports live on one disk"): with the report cache in the
database (assessments.reports.db_storage), a report drawn and stored on one host is
downloaded on another that shares nothing with it but the database: each "host" here is
its own settings (its own REPORT_CACHE_DIR folder, its own storage instance) and its own
test client. The approved copies (SealedReport rows) are served on every host alike.

Done when: the report a worker draws on host A is the file host B serves, no file is
written to either host's folder, and host B draws nothing. The last test runs the worker's
path in a real second process (python, the test settings, the same DATABASE_URL) and
downloads its PDF in this one; it needs committed data (``transaction=True``)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from assessments.models import ReportFile, SealedReport
from assessments.reports import cache
from assessments.reports.context import irer_context
from tests.reports.conftest import pdf_text
from tests.reports.test_irer_queue import download_url, request_report, run_worker
from tests.reports.test_sealed_irer import approve

ROOT = Path(__file__).resolve().parents[2]
DB_STORAGE = {"BACKEND": "assessments.reports.db_storage.DatabaseReportStorage"}
NOT_DRAWN_HERE = "host B drew a report: it must serve the one host A stored"


@contextmanager
def host(folder: Path, *, tasks=None):
    """Run the block as one host: its own report folder, the report storage in the
    database (a fresh storage instance: STORAGES changes), and the given task backend."""
    folder.mkdir(parents=True, exist_ok=True)
    overrides = {"REPORT_CACHE_DIR": folder, "STORAGES": {**settings.STORAGES, "reports": DB_STORAGE}}
    if tasks is not None:
        overrides["TASKS"] = tasks
    with override_settings(**overrides):
        yield


def files_in(*folders: Path) -> list[Path]:
    return [path for folder in folders for path in folder.rglob("*") if path.is_file()]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def nothing_drawn():
    return mock.patch("assessments.reports.tasks.html_to_pdf", side_effect=AssertionError(NOT_DRAWN_HERE))


@pytest.mark.django_db
def test_a_report_a_worker_stored_on_one_host_is_downloaded_on_another(tmp_path, renders, reviewer, supervisor,
                                                                      sample_assessment):
    folder_a, folder_b = tmp_path / "host-a", tmp_path / "host-b"
    with host(folder_a, tasks=settings.QUEUE_TASKS):  # host A: the web enqueues, its worker draws
        request_report(logged_in(reviewer), sample_assessment)
        run_worker()
        assert renders.call_count == 1
    [stored] = ReportFile.objects.all()
    with host(folder_b), nothing_drawn():  # host B: another web host, its own empty folder
        response = logged_in(supervisor).get(download_url(sample_assessment))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content == bytes(stored.content) and stored.size == len(response.content)
    assert "P-18-0123" in pdf_text(response.content)
    assert renders.call_count == 1  # drawn once, on host A
    assert files_in(folder_a, folder_b) == []  # no folder shared, none written


@pytest.mark.django_db
def test_a_report_stored_through_the_cache_on_one_host_is_served_on_another(tmp_path, reviewer, sample_assessment):
    """The worker's own call (cache.store_pdf), with the key the download computes."""
    context = irer_context(assessment=sample_assessment)
    key = cache.report_key(context, approved=False)
    pdf = b"%PDF-1.7\n% drawn on host A\n" + b"0" * 300_000 + b"\n%%EOF\n"
    with host(tmp_path / "host-a"):
        cache.store_pdf(key=key, render=lambda: pdf)
    with host(tmp_path / "host-b"), nothing_drawn():
        response = logged_in(reviewer).get(download_url(sample_assessment))
    assert response.status_code == 200 and response.content == pdf
    assert list(ReportFile.objects.values_list("name", flat=True)) == [cache._name(key)]


@pytest.mark.django_db
def test_the_sealed_approved_copy_is_served_on_every_host(tmp_path, reviewer, supervisor, sample_assessment):
    with host(tmp_path / "host-a"):
        approved = approve(sample_assessment, reviewer, supervisor)  # sealed at approval, on host A
    sealed = bytes(SealedReport.objects.get(assessment=approved, copy="full").pdf)
    with host(tmp_path / "host-b"), nothing_drawn():
        response = logged_in(reviewer).get(download_url(approved))
    assert response.status_code == 200 and response.content == sealed
    assert files_in(tmp_path) == []


# A real second process.

SECOND_PROCESS = """
import sys
import django
django.setup()
from django.conf import settings
from django.test.utils import override_settings
from assessments.models import Assessment
from assessments.reports import cache, tasks
from assessments.reports.context import irer_context
from assessments.reports.render import irer_html

with override_settings(STORAGES={**settings.STORAGES, "reports": {"BACKEND": sys.argv[2]}}):
    assessment = Assessment.objects.get(pk=int(sys.argv[1]))
    context = irer_context(assessment=assessment)
    key = cache.report_key(context, approved=False)
    # The worker's path: the task, run at once by the test settings' immediate backend.
    result = tasks.irer_render.enqueue(key=key, html=irer_html(context, for_pdf=True), assessment_id=assessment.pk,
                                       copy="full")
    assert not result.errors, result.errors
    print(key, settings.REPORT_CACHE_DIR)
"""


def database_url() -> str:
    """The URL of this test run's database, for a second process to open it."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    assert connection.vendor == "postgresql", connection.vendor
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_a_report_drawn_in_another_process_is_downloaded_in_this_one(tmp_path, reviewer, sample_assessment):
    if connection.vendor == "sqlite" and ":memory:" in str(connection.settings_dict["NAME"]):
        pytest.skip("an in-memory SQLite database is not shared with another process")
    env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    done = subprocess.run([sys.executable, "-c", SECOND_PROCESS, str(sample_assessment.pk), DB_STORAGE["BACKEND"]],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    key, its_folder = done.stdout.split()
    stored = ReportFile.objects.get(name=cache._name(key))
    with host(tmp_path / "this-host"), nothing_drawn():
        response = logged_in(reviewer).get(download_url(sample_assessment))
    assert response.status_code == 200 and response.content == bytes(stored.content)
    assert "P-18-0123" in pdf_text(response.content)
    assert Path(its_folder) != tmp_path / "this-host" and files_in(tmp_path) == []
