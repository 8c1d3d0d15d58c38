"""The CBI custody log records every way a person sees a CBI case's full data: one row per
page or copy, naming who, when, which case and revision, which page or copy, and from
where; nothing for a sanitised copy, nothing for a case claimed nothing.

The users and both cases are made once for the module (``shared_cases``, tests/audit/conftest.py);
each test's own rows are rolled back after it."""

from __future__ import annotations

import getpass

import pytest
from django.core.management import call_command

from assessments.wizards import wizard_steps
from audit.models import CbiAccess
from tests.audit.conftest import ADDRESS, BROWSER, fresh
from tests.audit.shared_fixtures import cbi, plain, reviewer, supervisor
from tests.conftest import make_user
from tests.reports.test_irer_queue import run_worker

pytestmark = pytest.mark.django_db

What = CbiAccess.What



#: (what, address, the revision it names: "first", "second" or None for the case as a whole)
WAYS_IN = [
    (What.CASE_PAGE, lambda d: f"/cases/{d['case'].pk}/", None),
    (What.CASE_FORM, lambda d: f"/cases/{d['case'].pk}/edit/", None),
    (What.ASSESSMENT_PAGE, lambda d: f"/assessments/{d['second'].pk}/", "second"),
    (What.USE_RESULTS, lambda d: f"/scenarios/{d['use'].pk}/", "second"),
    (What.USE_WIZARD, lambda d: f"/scenarios/{d['use'].pk}/wizard/{wizard_steps(d['use'].scenario_key)[0].key}/",
     "second"),
    (What.HISTORY, lambda d: f"/assessments/{d['first'].pk}/history/", "first"),
    (What.COMPARE, lambda d: f"/assessments/{d['second'].pk}/compare/", "second"),
    (What.REPORT_PREVIEW, lambda d: f"/assessments/{d['first'].pk}/irer/", "first"),
    (What.IRER_PDF, lambda d: f"/assessments/{d['first'].pk}/irer.pdf", "first"),
    (What.IRER_DOCX, lambda d: f"/assessments/{d['first'].pk}/irer.docx", "first"),
    (What.IRER_CONTACTS_PDF, lambda d: f"/assessments/{d['second'].pk}/irer-with-contacts.pdf", "second"),
    (What.CONTACT_REPORT, lambda d: f"/contacts/{d['contact'].pk}/", None),
    (What.CONTACT_REPORT_PDF, lambda d: f"/contacts/{d['contact'].pk}/report.pdf", None),
    (What.CONTACT_REPORTS_PDF, lambda d: f"/cases/{d['case'].pk}/contacts.pdf", None),
]

#: The copies that have a sanitised version (``?copy=sanitised``).
SANITISED = [
    (What.REPORT_PREVIEW, lambda d: f"/assessments/{d['first'].pk}/irer/"),
    (What.IRER_PDF, lambda d: f"/assessments/{d['first'].pk}/irer.pdf"),
    (What.IRER_DOCX, lambda d: f"/assessments/{d['first'].pk}/irer.docx"),
    (What.IRER_CONTACTS_PDF, lambda d: f"/assessments/{d['second'].pk}/irer-with-contacts.pdf"),
    (What.CONTACT_REPORT_PDF, lambda d: f"/contacts/{d['contact'].pk}/report.pdf"),
    (What.CONTACT_REPORTS_PDF, lambda d: f"/cases/{d['case'].pk}/contacts.pdf"),
]


def _get(client, url: str):
    response = client.get(url, HTTP_USER_AGENT=BROWSER, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 200, (url, response.status_code)
    return response


@pytest.mark.parametrize(("what", "url", "revision"), WAYS_IN, ids=[w.value for w, _, _ in WAYS_IN])
def test_each_way_in_to_a_cbi_case_writes_one_row(client, reviewer, cbi, what, url, revision):
    client.force_login(reviewer)
    _get(client, url(cbi))
    row = CbiAccess.objects.get()
    assessment = cbi[revision] if revision else None
    assert (row.kind, row.what, row.user, row.username) == (CbiAccess.Kind.ACCESS, what, reviewer, "rev")
    assert (row.submission_id, row.case_number) == (cbi["case"].pk, "P-26-0042")
    assert (row.assessment, row.revision) == (assessment, assessment.revision if assessment else None)
    assert (row.ip, row.user_agent, row.os_user) == (ADDRESS, BROWSER, "")


@pytest.mark.parametrize(("what", "url", "revision"), WAYS_IN, ids=[w.value for w, _, _ in WAYS_IN])
def test_no_way_in_to_a_case_claimed_nothing_writes_a_row(client, reviewer, plain, what, url, revision):
    client.force_login(reviewer)
    _get(client, url(plain))
    assert not CbiAccess.objects.exists()


@pytest.mark.parametrize(("what", "url"), SANITISED, ids=[w.value for w, _ in SANITISED])
def test_a_sanitised_copy_writes_no_row(client, reviewer, cbi, what, url):
    client.force_login(reviewer)
    _get(client, url(cbi) + "?copy=sanitised")
    assert not CbiAccess.objects.exists()


def test_a_page_is_recorded_whatever_its_address_asks(client, reviewer, cbi):
    """A page has no sanitised copy: ``?copy=sanitised`` on the case page does not hide the view."""
    client.force_login(reviewer)
    _get(client, f"/cases/{cbi['case'].pk}/?copy=sanitised")
    assert CbiAccess.objects.get().what == What.CASE_PAGE


def test_the_compare_page_names_the_other_revision(client, reviewer, cbi):
    client.force_login(reviewer)
    _get(client, f"/assessments/{cbi['second'].pk}/compare/?with={cbi['first'].pk}")
    assert CbiAccess.objects.get().detail == "with revision 1"


def test_a_report_still_being_drawn_is_recorded_when_handed_over(client, reviewer, cbi, settings, tmp_path):
    """The page that follows a queued report shows no data: the PDF, when it comes, is recorded once.
    The draft revision's: an approved revision's is served at once, as sealed at approval."""
    settings.TASKS = settings.QUEUE_TASKS  # the production queue: the report waits for a worker
    settings.STORAGES = {**settings.STORAGES, "reports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}}}
    client.force_login(reviewer)
    url = f"/assessments/{cbi['second'].pk}/irer.pdf"
    assert client.get(url).status_code == 202
    assert not CbiAccess.objects.exists()
    run_worker()
    assert _get(client, url)["Content-Type"] == "application/pdf"
    assert list(CbiAccess.objects.values_list("what", flat=True)) == [What.IRER_PDF]


def test_an_approved_revision_keeps_its_claims_for_the_log(client, reviewer, cbi):
    """The claims withdrawn after approval still hold for the approved revision's report."""
    case = cbi["case"]
    type(case).objects.filter(pk=case.pk).update(cbi_claims=[], is_cbi=False)  # as an amendment would leave it
    client.force_login(reviewer)
    _get(client, f"/assessments/{cbi['first'].pk}/irer/")
    _get(client, f"/cases/{case.pk}/")
    assert list(CbiAccess.objects.values_list("what", flat=True)) == [What.REPORT_PREVIEW]


def test_the_export_command_records_the_operating_system_user(cbi, tmp_path):
    out = tmp_path / "case.json"
    call_command("export_case", "P-26-0042", "-o", str(out))
    row = CbiAccess.objects.get()
    assert (row.what, row.user, row.os_user, row.submission_id, row.assessment) == (
        What.EXPORT, None, getpass.getuser(), cbi["case"].pk, None)
    assert row.detail == f"to {out}"


def test_exporting_a_case_claimed_nothing_writes_no_row(plain, tmp_path):
    call_command("export_case", "P-26-0043", "-o", str(tmp_path / "case.json"))
    assert not CbiAccess.objects.exists()


def test_the_admins_case_page_is_recorded(client, django_user_model, cbi, plain):
    admin_user = make_user(django_user_model, "root", cbi=True, is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    _get(client, f"/admin/assessments/submission/{plain['case'].pk}/change/")
    _get(client, f"/admin/assessments/submission/{cbi['case'].pk}/change/")
    row = CbiAccess.objects.get()
    assert (row.what, row.user, row.submission_id) == (What.ADMIN_CASE, admin_user, cbi["case"].pk)


def test_the_irer_command_records_the_full_copy_only(cbi, tmp_path):
    call_command("irer", "P-26-0042", "--revision", "1", "--sanitised", "-o", str(tmp_path / "s.pdf"))
    assert not CbiAccess.objects.exists()
    call_command("irer", "P-26-0042", "--revision", "1", "-o", str(tmp_path / "r.pdf"))
    row = CbiAccess.objects.get()
    assert (row.what, row.user, row.os_user, row.assessment, row.revision) == (
        What.IRER_PDF, None, getpass.getuser(), cbi["first"], 1)
