"""Contact reports travel with their case (assessments.transfer, contacts.transfer):
exported with the revisions they apply to, and imported only as the pages would accept
them, the whole case or nothing."""

import copy
from datetime import timedelta

import pytest
from django.utils import timezone

from assessments import transfer, workflow
from assessments.models import Submission
from contacts.models import ContactReport
from tests._review_support import add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import make_contact

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.fixture
def exported(reviewer, other_supervisor):
    """Revision 1 approved with a contact made during its review; revision 2 a draft with a
    CBI contact; one contact about the case as a whole. Exported, then renumbered so that
    it imports beside the original."""
    first = make_assessment(make_submission(case_number="P-26-0900"), reviewer)
    add_computed_scenario(first)
    make_contact(first.submission, reviewer, assessments=[first], notes="During the review of revision 1.",
                 contacted_at=timezone.now() - timedelta(days=3))
    workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=first, by=other_supervisor, comment="Fine.")
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    make_contact(first.submission, reviewer, assessments=[second], is_cbi=True, notes="Line speed, CBI.",
                 contacted_at=timezone.now() - timedelta(days=1))
    make_contact(first.submission, reviewer, notes="About the case.", contacted_at=timezone.now() - timedelta(days=2))
    document = transfer.case_export(case_number="P-26-0900")
    document["case"]["case_number"] = "P-26-0901"
    return document


def test_export_lists_each_contact_with_its_revisions(exported):
    rows = exported["contact_reports"]
    assert [(r["notes"], r["revisions"]) for r in rows] == [
        ("During the review of revision 1.", [1]), ("About the case.", []), ("Line speed, CBI.", [2]),
    ]
    assert rows[0]["created_by"] == "rev" and "submission" not in rows[0] and "id" not in rows[0]


def test_import_writes_the_contacts_linked_to_the_imported_revisions(exported):
    case = transfer.case_import(document=exported)
    reports = list(ContactReport.objects.filter(submission=case).order_by("contacted_at"))
    assert [r.notes for r in reports] == ["During the review of revision 1.", "About the case.", "Line speed, CBI."]
    assert [[a.revision for a in r.assessments.all()] for r in reports] == [[1], [], [2]]
    assert reports[0].is_locked and reports[2].is_cbi and not reports[2].is_locked
    assert reports[0].history.get().history_change_reason.startswith("Imported from a case export")
    # Exported again, the contacts are what they were.
    again = transfer.case_export(case_number="P-26-0901")["contact_reports"]
    assert again == exported["contact_reports"]


def test_an_export_without_contact_reports_still_imports(exported):
    del exported["contact_reports"]
    case = transfer.case_import(document=exported)
    assert not case.contact_reports.exists()


@pytest.mark.parametrize("change, message", [
    (lambda rows: rows[0].update(contacted_at=(timezone.now() + timedelta(days=5)).isoformat()), "is in the future"),
    (lambda rows: rows[0].update(revisions=[9]), "names revision 9, which is not in the file's assessments"),
    (lambda rows: rows[0].update(revisions="1"), "must be a list of revision numbers"),
    (lambda rows: rows[0].update(epa_name="x" * 201), "at most 200 are allowed"),
    (lambda rows: rows[0].update(direction="fax"), "direction"),
    (lambda rows: rows[0].update(colour="blue"), "unknown field(s) colour"),
    (lambda rows: rows[0].update(notes="a\x00b"), "must not contain NUL characters"),
    (lambda rows: rows[0].update(created_by="nobody"), "These users do not exist in this installation: nobody"),
])
def test_an_invalid_contact_refuses_the_whole_import(exported, change, message):
    document = copy.deepcopy(exported)
    change(document["contact_reports"])
    before = ContactReport.objects.count()
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert message in str(caught.value)
    assert not Submission.objects.filter(case_number="P-26-0901").exists()
    assert ContactReport.objects.count() == before
