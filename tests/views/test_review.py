"""The review's pages wired up: the queue, the action buttons and what they post, the
return comment on the assessment page, the new revision, the navigation link, and every
edit path through the views (wizard included) refused on approved work."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.utils.html import escape

from assessments import services, workflow
from assessments.models import Assessment, ReviewDecision, Scenario, Status
from assessments.roles import SUPERVISOR_GROUP
from tests._review_support import (
    TOY_KEY,
    approved,
    draft_with_result,
    other_reviewer,
    returned,
    submitted,
    toy_engine,
)
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def detail(pk: int) -> str:
    return f"/assessments/{pk}/"


# The queue ------------------------------------------------------------------------------------


def test_queue_lists_submitted_assessments_oldest_first(client, reviewer, other_reviewer, supervisor):
    first = submitted(reviewer)
    second = submitted(other_reviewer)
    draft_with_result(reviewer)  # not submitted: not listed
    approved(reviewer, supervisor)  # approved: not listed
    client.force_login(supervisor)
    response = client.get("/review/")
    assert response.status_code == 200
    assert [a.pk for a in response.context["queue"]] == [first.pk, second.pk]
    html = response.content.decode()
    assert first.submission.case_number in html and second.submission.case_number in html
    assert "Ready." in html  # the submission note


def test_queue_flags_the_supervisors_own_submission(client, supervisor):
    own = submitted(supervisor)
    client.force_login(supervisor)
    response = client.get("/review/")
    assert [a.pk for a in response.context["queue"]] == [own.pk]
    assert 'title="Another supervisor must review it">yours</span>' in response.content.decode()


def test_queue_hides_cbi_cases_from_an_uncleared_supervisor(client, reviewer, django_user_model):
    public = submitted(reviewer)
    secret = submitted(reviewer, cbi_claims=["chemical_name"])
    uncleared = make_user(django_user_model, "sup-no-cbi", group=SUPERVISOR_GROUP)
    client.force_login(uncleared)
    response = client.get("/review/")
    assert [a.pk for a in response.context["queue"]] == [public.pk]
    assert secret.submission.case_number not in response.content.decode()


def test_queue_is_refused_to_a_reviewer(client, reviewer):
    client.force_login(reviewer)
    assert client.get("/review/").status_code == 403


def test_nav_shows_the_queue_with_its_count_to_supervisors_only(client, reviewer, other_reviewer, supervisor):
    submitted(other_reviewer)
    submitted(supervisor)  # own work: not counted as waiting for this supervisor
    client.force_login(supervisor)
    page = client.get("/")
    assert page.context["show_review_queue"] is True and page.context["review_queue_count"] == 1
    assert 'href="/review/">Review queue <span class="badge text-bg-light">1' in page.content.decode()
    client.force_login(reviewer)
    page = client.get("/")
    assert page.context["show_review_queue"] is False
    assert 'href="/review/"' not in page.content.decode()


# Submit ---------------------------------------------------------------------------------------


def test_engineer_sees_submit_and_submits_with_a_note(client, reviewer):
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    page = client.get(detail(assessment.pk))
    assert page.context["can_submit"] and f'action="/assessments/{assessment.pk}/submit/"' in page.content.decode()
    assert '<label class="form-label" for="submit-note">' in page.content.decode()
    response = client.post(f"/assessments/{assessment.pk}/submit/", {"note": "Please check Fchem."})
    assert response.status_code == 302 and response["Location"] == detail(assessment.pk)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED
    assert ReviewDecision.objects.get(assessment=assessment).comment == "Please check Fchem."


def test_submit_with_an_uncomputed_use_shows_why_and_changes_nothing(client, reviewer):
    assessment = draft_with_result(reviewer)
    services.scenario_add(assessment=assessment, by=reviewer, scenario_key=TOY_KEY, title="Cleaning")
    client.force_login(reviewer)
    page = client.get(detail(assessment.pk))
    assert "compute “Cleaning” (not computed yet);" in page.content.decode()
    response = client.post(f"/assessments/{assessment.pk}/submit/", {"note": ""})
    assert response.status_code == 302
    assert messages_of(response) == [workflow.NOT_COMPUTED.format(titles="“Cleaning”")]
    assessment.refresh_from_db()
    assert assessment.status == Status.DRAFT and not ReviewDecision.objects.exists()


def test_someone_elses_submit_is_forbidden(client, reviewer, other_reviewer):
    assessment = draft_with_result(reviewer)
    client.force_login(other_reviewer)
    assert not client.get(detail(assessment.pk)).context["can_submit"]
    assert client.post(f"/assessments/{assessment.pk}/submit/").status_code == 403
    assessment.refresh_from_db()
    assert assessment.status == Status.DRAFT and not ReviewDecision.objects.exists()


def test_actions_answer_405_to_get(client, reviewer):
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    for action in ("submit", "approve", "return", "revise"):
        assert client.get(f"/assessments/{assessment.pk}/{action}/").status_code == 405


# Approve and return ---------------------------------------------------------------------------


def test_supervisor_sees_approve_and_return_with_labelled_comments(client, reviewer, supervisor):
    assessment = submitted(reviewer)
    client.force_login(supervisor)
    page = client.get(detail(assessment.pk))
    html = page.content.decode()
    assert page.context["can_review"]
    assert f'action="/assessments/{assessment.pk}/approve/"' in html and f'action="/assessments/{assessment.pk}/return/"' in html
    assert '<label class="form-label" for="approve-comment">' in html and '<label class="form-label" for="return-comment">' in html
    assert "with this note:" in html and "Ready." in html


def test_supervisor_approves_through_the_page(client, reviewer, supervisor):
    assessment = submitted(reviewer)
    client.force_login(supervisor)
    response = client.post(f"/assessments/{assessment.pk}/approve/", {"comment": "Fine."})
    assert response.status_code == 302 and response["Location"] == detail(assessment.pk)
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED and assessment.approved_by == supervisor
    page = client.get(detail(assessment.pk))
    assert "This revision is final" in page.content.decode()


def test_supervisor_sees_no_buttons_on_own_submission(client, supervisor):
    assessment = submitted(supervisor)
    client.force_login(supervisor)
    page = client.get(detail(assessment.pk))
    assert not page.context["can_review"]
    assert "another supervisor must approve or return it" in page.content.decode()
    assert client.post(f"/assessments/{assessment.pk}/approve/").status_code == 403
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED


def test_return_without_a_comment_is_refused_with_the_message(client, reviewer, supervisor):
    assessment = submitted(reviewer)
    client.force_login(supervisor)
    response = client.post(f"/assessments/{assessment.pk}/return/", {"comment": "  "})
    assert response.status_code == 302
    assert messages_of(response) == [workflow.RETURN_COMMENT_REQUIRED]
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED
    assert list(assessment.decisions.values_list("action", flat=True)) == ["submit"]


def test_the_engineer_sees_the_return_comment_prominently(client, reviewer, supervisor):
    assessment = submitted(reviewer)
    client.force_login(supervisor)
    client.post(f"/assessments/{assessment.pk}/return/", {"comment": "Fchem <0.2> is the MSDS maximum; use the typical value."})
    client.force_login(reviewer)
    page = client.get(detail(assessment.pk))
    html = page.content.decode()
    assert page.context["review_latest_return"].comment == "Fchem <0.2> is the MSDS maximum; use the typical value."
    assert '<div class="alert alert-warning" role="alert" aria-labelledby="return-comment-title">' in html
    assert escape("Fchem <0.2> is the MSDS maximum; use the typical value.") in html
    # Above the case header and the uses: the first thing under the title.
    assert html.index("return-comment-title") < html.index('id="case-header"') < html.index('id="uses-title"')


def test_return_comment_is_not_shown_once_resubmitted(client, reviewer, supervisor):
    assessment = returned(reviewer, supervisor)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    client.force_login(reviewer)
    assert client.get(detail(assessment.pk)).context["review_latest_return"] is None


# New revision ---------------------------------------------------------------------------------


def test_new_revision_from_the_page(client, reviewer, supervisor, other_reviewer):
    assessment = approved(reviewer, supervisor)
    client.force_login(other_reviewer)
    page = client.get(detail(assessment.pk))
    assert page.context["can_revise"] and f'action="/assessments/{assessment.pk}/revise/"' in page.content.decode()
    response = client.post(f"/assessments/{assessment.pk}/revise/")
    new = Assessment.objects.get(submission=assessment.submission, revision=2)
    assert response.status_code == 302 and response["Location"] == detail(new.pk)
    assert new.engineer == other_reviewer and new.status == Status.DRAFT
    assert messages_of(response) == ["Revision 2 started as a copy of revision 1."]


def test_new_revision_of_an_older_revision_is_forbidden(client, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    workflow.assessment_revise(assessment=assessment, by=reviewer)
    client.force_login(reviewer)
    assert not client.get(detail(assessment.pk)).context["can_revise"]
    assert client.post(f"/assessments/{assessment.pk}/revise/").status_code == 403
    assert Assessment.objects.filter(submission=assessment.submission).count() == 2


# Approved work refuses every edit through the views ----------------------------------------------


@pytest.fixture
def approved_assessment(reviewer, supervisor):
    return approved(reviewer, supervisor)


def _state():
    return (list(Assessment.objects.order_by("pk").values()), list(Scenario.objects.order_by("pk").values()))


def test_wizard_of_an_approved_assessment_is_forbidden(client, reviewer, approved_assessment):
    scenario = approved_assessment.scenarios.get()
    client.force_login(reviewer)
    before = _state()
    assert client.get(f"/scenarios/{scenario.pk}/wizard/").status_code == 403
    assert client.get(f"/scenarios/{scenario.pk}/wizard/volume/").status_code == 403
    response = client.post(
        f"/scenarios/{scenario.pk}/wizard/volume/",
        {f"scenario-wizard-{scenario.pk}-current_step": "volume", "volume-Qchem_yr": "1", "volume-Fchem": "0.1"},
    )
    assert response.status_code == 403
    assert client.get(f"/scenarios/{scenario.pk}/wizard/done/").status_code == 403
    assert _state() == before


@pytest.mark.parametrize("path", ["scenarios/new/", "duplicate/", "delete/"])
def test_scenario_actions_on_an_approved_assessment_are_forbidden(client, reviewer, approved_assessment, path):
    scenario = approved_assessment.scenarios.get()
    url = f"/assessments/{approved_assessment.pk}/{path}" if path == "scenarios/new/" else f"/scenarios/{scenario.pk}/{path}"
    client.force_login(reviewer)
    before = _state()
    assert client.post(url, {"scenario_key": TOY_KEY, "title": "More"}).status_code == 403
    assert _state() == before


def test_case_edit_of_an_approved_assessment_is_forbidden(client, reviewer, approved_assessment):
    client.force_login(reviewer)
    case = approved_assessment.submission
    assert client.get(f"/cases/{case.pk}/edit/").status_code == 403


def test_approved_page_shows_no_edit_controls(client, reviewer, approved_assessment):
    client.force_login(reviewer)
    page = client.get(detail(approved_assessment.pk))
    html = page.content.decode()
    assert not page.context["can_edit"] and not page.context["can_submit"]
    assert "/wizard/" not in html and "Add use" not in html


# CBI -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["submit", "approve", "return", "revise"])
def test_actions_on_a_cbi_case_are_404_for_an_uncleared_user(client, reviewer, uncleared_reviewer, action):
    assessment = submitted(reviewer, cbi_claims=["submitter"])
    client.force_login(uncleared_reviewer)
    assert client.post(f"/assessments/{assessment.pk}/{action}/", {"comment": "x"}).status_code == 404
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED and assessment.decisions.count() == 1
