"""The review conversation (issue 16, item 5): withdrawal, comments on single uses, and
the approval comment on the assessment page."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from assessments import transfer, workflow
from assessments.models import DecisionAction, ReviewDecision, Status
from assessments.transfer.checks import check_trail
from notices import services
from notices.models import Notice, UseComment, Verb
from tests._review_support import approved, draft_with_result, returned, submitted

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


# Withdrawal -------------------------------------------------------------------------------


def test_the_engineer_withdraws_a_submission_and_it_is_recorded(engineer):
    assessment = submitted(engineer)
    assessment = workflow.assessment_withdraw(assessment=assessment, by=engineer, note="Forgot a use.")
    assert assessment.status == Status.DRAFT
    decision = ReviewDecision.objects.filter(assessment=assessment).last()
    assert (decision.action, decision.from_status, decision.to_status) == ("withdraw", "submitted", "draft")
    assert decision.get_action_display() == "Withdrawn" and decision.comment == "Forgot a use."
    assessment.refresh_from_db()
    assert assessment.submission.latest_status == Status.DRAFT


def test_only_the_engineer_withdraws(engineer, boss):
    assessment = submitted(engineer)
    with pytest.raises(PermissionDenied, match=workflow.WITHDRAW_NOT_ALLOWED):
        workflow.assessment_withdraw(assessment=assessment, by=boss)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED and assessment.decisions.count() == 1


@pytest.mark.parametrize("maker", ["draft", "returned", "approved"])
def test_only_a_submitted_assessment_is_withdrawn(engineer, boss, maker):
    assessment = {"draft": lambda: draft_with_result(engineer), "returned": lambda: returned(engineer, boss),
                  "approved": lambda: approved(engineer, boss)}[maker]()
    count = assessment.decisions.count()
    with pytest.raises(PermissionDenied, match="cannot be withdrawn now"):
        workflow.assessment_withdraw(assessment=assessment, by=engineer)
    assert assessment.decisions.count() == count


def test_withdraw_button_and_view(client, engineer, boss):
    assessment = submitted(engineer)
    client.force_login(boss)
    assert "Withdraw the submission" not in client.get(reverse("assessment-detail", args=[assessment.pk])).content.decode()
    assert client.post(reverse("assessment-withdraw", args=[assessment.pk])).status_code == 403
    client.force_login(engineer)
    page = client.get(reverse("assessment-detail", args=[assessment.pk])).content.decode()
    assert "Withdraw the submission" in page and 'for="withdraw-note"' in page
    client.post(reverse("assessment-withdraw", args=[assessment.pk]), {"note": "Not yet."})
    assessment.refresh_from_db()
    assert assessment.status == Status.DRAFT


def test_the_transfer_trail_accepts_a_withdrawal(engineer, boss):
    assessment = submitted(engineer)
    workflow.assessment_withdraw(assessment=assessment, by=engineer)
    workflow.assessment_submit(assessment=assessment, by=engineer)
    workflow.assessment_approve(assessment=assessment, by=boss)
    assessment.refresh_from_db()
    decisions = list(assessment.decisions.order_by("at", "id"))
    assert [d.action for d in decisions] == ["submit", "withdraw", "submit", "approve"]
    check_trail(assessment, decisions, "x")  # no TransferError
    decisions[1].by = boss
    decisions[1].by_id = boss.pk
    with pytest.raises(transfer.TransferError, match="who alone submits or withdraws it"):
        check_trail(assessment, decisions, "x")


# Comments on single uses ------------------------------------------------------------------


def _return_with(client, assessment, **fields):
    scenario = assessment.scenarios.get()
    data = {"comment": "See the use.", **{f"use-comment-{scenario.pk}": v for v in fields.values()}}
    return client.post(reverse("assessment-return", args=[assessment.pk]), data), scenario


def test_a_supervisor_returns_with_a_comment_on_a_use(client, engineer, boss):
    assessment = submitted(engineer)
    client.force_login(boss)
    page = client.get(reverse("assessment-detail", args=[assessment.pk])).content.decode()
    scenario = assessment.scenarios.get()
    assert f'<label class="form-label small" for="use-comment-{scenario.pk}">' in page
    _return_with(client, assessment, text="Fchem looks high.")
    assessment.refresh_from_db()
    assert assessment.status == Status.RETURNED
    comment = UseComment.objects.get()
    assert (comment.scenario, comment.author, comment.text) == (scenario, boss, "Fchem looks high.")

    client.force_login(engineer)
    for url in (reverse("scenario-results", args=[scenario.pk]), reverse("scenario-wizard", args=[scenario.pk])):
        response = client.get(url, follow=True)
        assert "Fchem looks high." in response.content.decode()
    assert "Mark resolved" in client.get(reverse("scenario-results", args=[scenario.pk])).content.decode()

    client.post(reverse("use-comment-resolve", args=[comment.pk]))
    comment.refresh_from_db()
    assert comment.resolved_by == engineer and comment.resolved_at is not None
    assert "Fchem looks high." not in client.get(reverse("scenario-results", args=[scenario.pk])).content.decode()


def test_a_bad_use_comment_refuses_the_whole_return(client, engineer, boss):
    assessment = submitted(engineer)
    client.force_login(boss)
    response, _ = _return_with(client, assessment, text="a\x00b")
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED and not UseComment.objects.exists()
    _return_with(client, assessment, text="x" * (services.USE_COMMENT_LIMIT + 1))
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED and not UseComment.objects.exists()


def test_only_a_supervisor_comments_and_only_on_a_returned_revision(engineer, boss, other_reviewer_cbi):
    assessment = submitted(engineer)
    scenario = assessment.scenarios.get()
    with pytest.raises(PermissionDenied, match=services.USE_COMMENT_NOT_ALLOWED):
        services.use_comment_add(scenario=scenario, by=boss, text="Too early.")  # still submitted
    workflow.assessment_return(assessment=assessment, by=boss, comment="Again.")
    for who in (engineer, other_reviewer_cbi):
        with pytest.raises(PermissionDenied, match=services.USE_COMMENT_NOT_ALLOWED):
            services.use_comment_add(scenario=scenario, by=who, text="Hmm.")
    with pytest.raises(ValidationError):
        services.use_comment_add(scenario=scenario, by=boss, text="   ")
    assert not UseComment.objects.exists()


def test_a_comment_on_another_revisions_use_undoes_the_return(engineer, boss):
    """The comments are written by the notices' receiver of ``events.returned``, sent with
    ``send`` inside the return's transaction: its refusal reaches the caller and undoes the
    return, its notice and every comment."""
    elsewhere = draft_with_result(engineer).scenarios.get()
    assessment = submitted(engineer)
    scenario = assessment.scenarios.get()
    with pytest.raises(ValidationError, match=services.USE_COMMENT_OTHER_REVISION):
        workflow.assessment_return(assessment=assessment, by=boss, comment="Again.",
                                   use_comments={scenario.pk: "Check it.", elsewhere.pk: "And this."})
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED and assessment.decisions.count() == 1
    assert not UseComment.objects.exists() and not Notice.objects.filter(verb=Verb.RETURNED).exists()


def test_only_the_engineer_resolves(engineer, boss):
    assessment = submitted(engineer)
    scenario = assessment.scenarios.get()
    workflow.assessment_return(
        assessment=assessment, by=boss, comment="Again.", use_comments={scenario.pk: "Check it."}
    )
    comment = UseComment.objects.get()
    with pytest.raises(PermissionDenied, match=services.RESOLVE_NOT_ALLOWED):
        services.use_comment_resolve(comment=comment, by=boss)
    services.use_comment_resolve(comment=comment, by=engineer)
    with pytest.raises(ValidationError, match=services.ALREADY_RESOLVED):
        services.use_comment_resolve(comment=comment, by=engineer)


# The approval comment ---------------------------------------------------------------------


def test_the_approval_comment_is_on_the_assessment_page(client, engineer, boss):
    assessment = approved(engineer, boss)  # comment "Looks right."
    assert assessment.decisions.filter(action=DecisionAction.APPROVE, comment="Looks right.").exists()
    client.force_login(engineer)
    page = client.get(reverse("assessment-detail", args=[assessment.pk])).content.decode()
    assert 'The approver\'s comment:</p>\n  <blockquote class="mb-0 approval-comment">Looks right.</blockquote>' in page
