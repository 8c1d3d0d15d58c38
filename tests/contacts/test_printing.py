"""Contact reports in print: alone, after the IRER, and in the sanitised copy. The text
is read back from the PDF (pypdf), not only its first bytes."""

import pytest

from assessments import workflow
from contacts import reports
from tests._review_support import add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import make_contact
from tests.reports.conftest import pdf_text, report_cache

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def draft(reviewer):
    assessment = make_assessment(make_submission(case_number="P-26-0500", submitter="Acme Photochemicals",
                                                 cbi_claims=["submitter"]), reviewer)
    add_computed_scenario(assessment)
    return assessment


def test_one_contact_report_alone(client, reviewer, draft):
    report = make_contact(draft.submission, reviewer, notes="Spin coating confirmed by phone.")
    client.force_login(reviewer)
    response = client.get(f"/contacts/{report.pk}/report.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('attachment; filename="Contact-P-26-0500-')
    text = flat(pdf_text(response.content))
    assert "CONTACT REPORT" in text and "Spin coating confirmed by phone." in text
    assert "Called to (EPA called the submitter)" in text and "Sam Submitter" in text


def test_all_of_a_case_in_one_pdf_oldest_first(client, reviewer, draft):
    from datetime import timedelta

    from django.utils import timezone

    make_contact(draft.submission, reviewer, notes="Second call.", contacted_at=timezone.now() - timedelta(hours=1))
    make_contact(draft.submission, reviewer, notes="First call.", contacted_at=timezone.now() - timedelta(days=2))
    client.force_login(reviewer)
    text = flat(pdf_text(client.get(f"/cases/{draft.submission.pk}/contacts.pdf").content))
    assert text.index("First call.") < text.index("Second call.")


def test_irer_followed_by_the_contacts_of_that_revision(client, reviewer, draft, report_cache):
    make_contact(draft.submission, reviewer, assessments=[draft], notes="Applies to revision 1.")
    make_contact(draft.submission, reviewer, notes="About the case as a whole.")
    client.force_login(reviewer)
    response = client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-26-0500-r1-with-contacts.pdf"'
    text = flat(pdf_text(response.content))
    assert text.index("INITIAL REVIEW ENGINEERING REPORT") < text.index("CONTACT REPORTS")
    assert "Applies to revision 1." in text and "About the case as a whole." not in text
    # The full copy of a CBI case brackets the claimed submitter, as the IRER does.
    assert "[Acme Photochemicals]" in text


def test_combined_pdf_is_served_from_the_report_cache_the_second_time(client, reviewer, draft, report_cache):
    make_contact(draft.submission, reviewer, assessments=[draft])
    client.force_login(reviewer)
    first = client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf").content
    assert list(report_cache.rglob("*.pdf"))
    assert client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf").content == first


def test_sanitised_copy_prints_cbi_in_place_of_a_cbi_contact(client, reviewer, draft, report_cache):
    make_contact(draft.submission, reviewer, assessments=[draft], is_cbi=True, submitter_name="Quinn Secret",
                 notes="The line speed is 40 wafers per hour.", phone="202 555 0177")
    make_contact(draft.submission, reviewer, assessments=[draft], submitter_name="Pat Public",
                 submitter_affiliation="Acme Photochemicals", notes="Acme Photochemicals will send the SDS.")
    client.force_login(reviewer)
    text = flat(pdf_text(client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf?copy=sanitised").content))
    for secret in ("Quinn Secret", "40 wafers", "202 555 0177", "Acme Photochemicals"):
        assert secret not in text, secret
    assert "Pat Public" in text and "[CBI] will send the SDS." in text
    assert text.count("[CBI]") >= 6
    assert reports.SANITISED_SECTION_NOTE in text


def test_full_copy_brackets_a_cbi_contact(client, reviewer, draft):
    report = make_contact(draft.submission, reviewer, is_cbi=True, submitter_name="Quinn Secret")
    client.force_login(reviewer)
    text = flat(pdf_text(client.get(f"/contacts/{report.pk}/report.pdf").content))
    assert "[Quinn Secret, Acme Photochemicals]" in text and reports.CBI_SECTION_NOTE in text


def test_uncleared_user_prints_no_cbi_contact(client, reviewer, uncleared_reviewer, report_cache):
    case = make_submission(case_number="P-26-0501")
    assessment = make_assessment(case, reviewer)
    add_computed_scenario(assessment)
    make_contact(case, reviewer, assessments=[assessment], is_cbi=True, submitter_name="Quinn Secret")
    make_contact(case, reviewer, assessments=[assessment], submitter_name="Pat Public")
    client.force_login(uncleared_reviewer)
    text = flat(pdf_text(client.get(f"/assessments/{assessment.pk}/irer-with-contacts.pdf").content))
    assert "Pat Public" in text and "Quinn Secret" not in text and "CBI)" not in text
    case_text = flat(pdf_text(client.get(f"/cases/{case.pk}/contacts.pdf").content))
    assert "Pat Public" in case_text and "Quinn Secret" not in case_text


def test_locked_contact_page_offers_no_edit(client, reviewer, other_supervisor, draft):
    report = make_contact(draft.submission, reviewer, assessments=[draft])
    workflow.assessment_submit(assessment=draft, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=draft, by=other_supervisor, comment="Fine.")
    client.force_login(reviewer)
    page = client.get(f"/contacts/{report.pk}/").content.decode()
    assert "applies to approved revision 1 and is final" in page and f"/contacts/{report.pk}/edit/" not in page
    assert client.get(f"/contacts/{report.pk}/edit/").status_code == 403


def test_queued_like_the_irer_and_followed_through_its_status_endpoint(client, settings, reviewer, draft,
                                                                       report_cache):
    """With the production queue, the combined report is drawn by a report worker: the
    download page follows the task through the IRER's status endpoint, then serves the file."""
    from django_tasks_db.models import DBTaskResult

    from assessments.reports import heartbeat
    from tests.reports.test_irer_queue import DATABASE_BACKEND, run_worker

    settings.TASKS = DATABASE_BACKEND
    heartbeat.register(worker_id="test-worker")  # run_worker's heartbeat: no worker alive shows "no-worker"
    make_contact(draft.submission, reviewer, assessments=[draft], notes="Queued with the report.")
    client.force_login(reviewer)
    page = client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf")
    assert page.status_code == 202 and "IRER-P-26-0500-r1-with-contacts.pdf" in page.content.decode()
    [row] = DBTaskResult.objects.all()
    assert page.context["status_url"] == f"/assessments/{draft.pk}/irer/tasks/{row.id}/"
    assert client.get(page.context["status_url"]).json()["state"] == "queued"
    run_worker()
    assert client.get(page.context["status_url"]).json()["state"] == "ready"
    response = client.get(f"/assessments/{draft.pk}/irer-with-contacts.pdf")
    assert response.status_code == 200 and "Queued with the report." in flat(pdf_text(response.content))
