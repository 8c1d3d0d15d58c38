"""Who may read, record and correct contact reports, per role (contacts.permissions,
enforced by contacts.services and contacts.selectors)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from assessments import workflow
from assessments.models import ApprovedWorkLocked
from contacts import selectors, services
from contacts.models import ContactReport
from tests._review_support import add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission, make_user
from tests.contacts.factories import contact_data, make_contact

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def no_role(django_user_model):
    """Logged in, in no group: may read public cases, may not write."""
    return make_user(django_user_model, "visitor")


@pytest.fixture
def public_case():
    return make_submission()


@pytest.fixture
def cbi_case():
    return make_submission(cbi_claims=["submitter"])


@pytest.mark.parametrize("role", ["reviewer", "supervisor"])
def test_reviewers_and_supervisors_record_a_contact(request, public_case, role):
    user = request.getfixturevalue(role)
    assessment = make_assessment(public_case, user)
    report = services.contact_report_create(submission=public_case, by=user, data=contact_data(),
                                            assessments=[assessment])
    assert report.created_by == user
    assert list(report.assessments.all()) == [assessment]
    assert report.history.get().history_user == user
    assert report.links.get().history.get().history_user == user


def test_a_user_without_a_role_may_not_record_a_contact(public_case, no_role):
    with pytest.raises(PermissionDenied, match=services.ADD_NOT_ALLOWED):
        services.contact_report_create(submission=public_case, by=no_role, data=contact_data())
    assert not ContactReport.objects.exists()


def test_a_user_without_a_role_reads_contacts_of_a_public_case(public_case, reviewer, no_role):
    report = make_contact(public_case, reviewer)
    assert list(selectors.contact_reports_for_case(user=no_role, submission=public_case)) == [report]
    with pytest.raises(PermissionDenied, match=services.EDIT_NOT_ALLOWED):
        services.contact_report_update(report=report, by=no_role, data={"notes": "Mine now."})


def test_any_reviewer_of_the_team_corrects_a_contact(public_case, reviewer, supervisor):
    report = make_contact(public_case, reviewer)
    services.contact_report_update(report=report, by=supervisor, data={"notes": "Spin coating, 2 coats."})
    report.refresh_from_db()
    assert report.notes == "Spin coating, 2 coats." and report.version == 2
    assert report.history.latest().history_user == supervisor


def test_uncleared_user_does_not_see_contacts_of_a_cbi_case(cbi_case, reviewer, uncleared_reviewer):
    report = make_contact(cbi_case, reviewer)
    assert not selectors.visible_contact_reports(user=uncleared_reviewer).exists()
    with pytest.raises(Http404):
        selectors.contact_report_get(user=uncleared_reviewer, pk=report.pk)
    with pytest.raises(PermissionDenied):
        services.contact_report_create(submission=cbi_case, by=uncleared_reviewer, data=contact_data())


def test_uncleared_user_does_not_see_a_cbi_contact_of_a_public_case(public_case, reviewer, uncleared_reviewer):
    public = make_contact(public_case, reviewer)
    secret = make_contact(public_case, reviewer, is_cbi=True)
    assert list(selectors.contact_reports_for_case(user=uncleared_reviewer, submission=public_case)) == [public]
    assert list(selectors.contact_reports_for_case(user=reviewer, submission=public_case)) == [public, secret]
    with pytest.raises(Http404):
        selectors.contact_report_get(user=uncleared_reviewer, pk=secret.pk)


def test_only_a_cleared_user_marks_a_contact_cbi(public_case, uncleared_reviewer):
    with pytest.raises(ValidationError) as caught:
        services.contact_report_create(submission=public_case, by=uncleared_reviewer, data=contact_data(is_cbi=True))
    assert caught.value.message_dict == {"is_cbi": [services.CBI_NOT_CLEARED]}
    assert not ContactReport.objects.exists()


def test_the_model_rules_hold_in_the_service_and_nothing_is_written(public_case, reviewer):
    with pytest.raises(ValidationError) as caught:
        services.contact_report_create(submission=public_case, by=reviewer, data=contact_data(notes="a\x00b"))
    assert caught.value.message_dict == {"notes": ["Notes must not contain NUL characters."]}
    assert not ContactReport.objects.exists()


def test_a_revision_of_another_case_is_refused(public_case, reviewer):
    other = make_assessment(make_submission(), reviewer)
    with pytest.raises(ValidationError) as caught:
        services.contact_report_create(submission=public_case, by=reviewer, data=contact_data(), assessments=[other])
    assert "is not an assessment of this case" in caught.value.message_dict["assessments"][0]
    assert not ContactReport.objects.exists()


def test_a_stale_edit_is_refused(public_case, reviewer, supervisor):
    report = make_contact(public_case, reviewer)
    services.contact_report_update(report=report, by=supervisor, data={"phone": "202 555 0199"}, seen_version=1)
    with pytest.raises(ValidationError) as caught:
        services.contact_report_update(report=report, by=reviewer, data={"phone": "202 555 0111"}, seen_version=1)
    assert caught.value.messages == [services.STALE_EDIT]
    report.refresh_from_db()
    assert report.phone == "202 555 0199"


def test_revisions_are_linked_and_unlinked_by_an_edit(public_case, reviewer):
    first = make_assessment(public_case, reviewer)
    report = make_contact(public_case, reviewer, assessments=[first])
    services.contact_report_update(report=report, by=reviewer, data={}, assessments=[])
    assert not report.links.exists()
    kinds = [(e["kind"], e["changed"]) for e in selectors.contact_history(report=report)]
    assert ("Linked to revision", ["revision 1"]) in kinds and ("Unlinked from revision", ["revision 1"]) in kinds


@pytest.mark.usefixtures("toy_engine")
class TestApprovedRevision:
    @pytest.fixture
    def approved_case(self, reviewer, other_supervisor):
        assessment = make_assessment(make_submission(), reviewer)
        add_computed_scenario(assessment)
        linked = make_contact(assessment.submission, reviewer, assessments=[assessment])
        workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
        workflow.assessment_approve(assessment=assessment, by=other_supervisor, comment="Fine.")
        assessment.refresh_from_db()
        return assessment, linked

    @pytest.mark.parametrize("role", ["reviewer", "supervisor"])
    def test_a_contact_of_an_approved_revision_is_locked_for_everyone(self, request, approved_case, role):
        user = request.getfixturevalue(role)
        _, linked = approved_case
        with pytest.raises(ApprovedWorkLocked):
            services.contact_report_update(report=linked, by=user, data={"notes": "Changed."})
        linked.refresh_from_db()
        assert linked.notes != "Changed." and linked.version == 1
        assert not selectors.report_detail(user=user, report=linked)["can_edit"]

    def test_no_contact_is_added_to_an_approved_revision(self, approved_case, reviewer):
        assessment, _ = approved_case
        with pytest.raises(ValidationError) as caught:
            services.contact_report_create(submission=assessment.submission, by=reviewer, data=contact_data(),
                                           assessments=[assessment])
        assert caught.value.message_dict["assessments"][0].startswith("Revision 1 is approved and final")
        assert ContactReport.objects.count() == 1

    def test_the_next_revision_takes_new_contacts(self, approved_case, reviewer):
        assessment, _ = approved_case
        second = workflow.assessment_revise(assessment=assessment, by=reviewer)
        assert list(selectors.linkable_assessments(submission=assessment.submission)) == [second]
        report = services.contact_report_create(submission=assessment.submission, by=reviewer, data=contact_data(),
                                                assessments=[second])
        assert list(report.assessments.all()) == [second]
