"""The status the IRER prints at its head: ChemSTEER v3.2's list (``ListOfAssStatus``),
chosen by the reviewer on the notes page, "CEB Staff Draft" to start, "Other" with the
reviewer's words; the workflow's state added while the revision is in review."""

import pytest
from django.db import IntegrityError, transaction

from assessments.irer_status import irer_status_text
from assessments.models import Status
from assessments.models.case_fields import IRER_STATUS_OTHER_MISSING, IRER_STATUS_OTHER_NOT_OTHER, IrerStatus
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

# ChemSTEER v3.2, mdb/ChmSteer/tables/ListOfAssStatus.csv, in its SortOrder.
CHEMSTEER_LIST = [
    "Contractor Draft", "CEB Staff Draft", "Focus Ready Draft", "Standard Review Draft",
    "Post-Focus Draft Revision 1", "Post-Focus Draft Revision 2", "Post-Focus Draft Revision 3",
    "Post-Focus Draft Revision 4", "Post-Focus Draft Revision 5", "Other",
]


def test_the_choices_are_chemsteers_list():
    assert IrerStatus.values == CHEMSTEER_LIST and IrerStatus.labels == CHEMSTEER_LIST


def test_a_new_assessment_is_a_ceb_staff_draft(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assert assessment.irer_status == "CEB Staff Draft"
    assert irer_status_text(assessment) == "CEB Staff Draft"


def test_the_head_prints_the_chosen_status_and_where_the_review_is(reviewer):
    assessment = make_assessment(make_submission(), reviewer, irer_status=IrerStatus.CONTRACTOR_DRAFT)
    assert irer_status_text(assessment) == "Contractor Draft"  # the seed: "Contractor Draft 2/15/2018"
    assessment.status = Status.SUBMITTED
    assert irer_status_text(assessment) == "Contractor Draft: submitted for approval"
    assessment.status = Status.RETURNED
    assert irer_status_text(assessment) == "Contractor Draft: returned for revision"
    assessment.status = Status.APPROVED
    assert irer_status_text(assessment) == "Approved"


def test_other_prints_the_reviewers_words(reviewer):
    assessment = make_assessment(make_submission(), reviewer, irer_status=IrerStatus.OTHER,
                                 irer_status_other="Final for the docket")
    assert irer_status_text(assessment) == "Other: Final for the docket"


def test_the_database_refuses_other_without_words_and_words_without_other(reviewer):
    case = make_submission()
    for status, words in ((IrerStatus.OTHER, ""), (IrerStatus.CEB_STAFF_DRAFT, "Final")):
        with pytest.raises(IntegrityError), transaction.atomic():
            make_assessment(case, reviewer, irer_status=status, irer_status_other=words)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_assessment(case, reviewer, irer_status="Final")


def post_notes(client, assessment, **data):
    url = f"/assessments/{assessment.pk}/notes/"
    seen = client.get(url).context["form"]["version_seen"].value()
    return client.post(url, {"notes": "", "version_seen": seen, **data})


def test_the_reviewer_chooses_the_status_on_the_notes_page(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    client.force_login(reviewer)
    page = client.get(f"/assessments/{assessment.pk}/notes/").content.decode()
    assert 'name="irer_status"' in page and 'name="irer_status_other"' in page
    response = post_notes(client, assessment, irer_status="Focus Ready Draft")
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert assessment.irer_status == "Focus Ready Draft"
    assert "Focus Ready Draft" in client.get(f"/assessments/{assessment.pk}/").content.decode()


def test_other_needs_its_words_on_the_form(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    client.force_login(reviewer)
    response = post_notes(client, assessment, irer_status="Other", irer_status_other="  ")
    assert response.status_code == 200
    assert response.context["form"].errors["irer_status_other"] == [IRER_STATUS_OTHER_MISSING]
    response = post_notes(client, assessment, irer_status="CEB Staff Draft", irer_status_other="Final")
    assert response.context["form"].errors["irer_status_other"] == [IRER_STATUS_OTHER_NOT_OTHER]
    response = post_notes(client, assessment, irer_status="Other", irer_status_other="Final for the docket")
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert (assessment.irer_status, assessment.irer_status_other) == ("Other", "Final for the docket")
    assert "Other: Final for the docket" in client.get(f"/assessments/{assessment.pk}/").content.decode()


def test_a_form_without_the_status_keeps_it(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer, irer_status=IrerStatus.STANDARD_REVIEW_DRAFT)
    client.force_login(reviewer)
    assert post_notes(client, assessment, notes="One site.").status_code == 302
    assessment.refresh_from_db()
    assert assessment.irer_status == "Standard Review Draft"
