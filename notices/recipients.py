"""Who the review workflow's notices go to: the people a case concerns, never anyone
merely for being an administrator, never anyone who may not see the case.

A submitted revision goes to the supervisors the case concerns: the supervisor who
assigned the case's engineer (the review calendar's history) and the supervisors who
approved or returned an earlier revision of it. When none of them may act on it, it goes
to every supervisor who may. "Supervisor" is the role (``review_assessment`` through the
supervisor group or granted to the user), not the superuser flag: a superuser who is not
a supervisor is not asked to review. Whoever is named must be active, may see the case
(CBI clearance for a CBI case) and is not the revision's engineer, who may not review
their own work. Approval and return go to the revision's engineer (``receivers``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission, User
from django.db.models import Q, QuerySet

from assessments.models import Assessment, DecisionAction, ReviewDecision, Submission
from assessments.permissions import may_see
from calendar_review.models import ReviewCalendar


def _supervisors_by_role() -> QuerySet[User]:
    """Active users who hold the review permission through a group or themselves."""
    perm = Permission.objects.filter(content_type__app_label="assessments", codename="review_assessment").first()
    return get_user_model().objects.filter(is_active=True).filter(
        Q(user_permissions=perm) | Q(groups__permissions=perm)
    ).distinct()


def _assigned_by(submission: Submission) -> list[int]:
    """The user who assigned the case's current engineer (its review calendar's history)."""
    calendar = ReviewCalendar.objects.filter(submission=submission).first()
    if calendar is None or calendar.assigned_engineer_id is None:
        return []
    assigner, engineer = None, None
    for row in calendar.history.order_by("history_date", "history_id").only("assigned_engineer_id", "history_user_id"):
        if row.assigned_engineer_id != engineer:
            engineer, assigner = row.assigned_engineer_id, row.history_user_id
    return [assigner] if assigner is not None and engineer == calendar.assigned_engineer_id else []


def _earlier_reviewers(assessment: Assessment) -> list[int]:
    """Who approved or returned a revision of the case before."""
    return list(
        ReviewDecision.objects.filter(assessment__submission_id=assessment.submission_id,
                                      action__in=[DecisionAction.APPROVE, DecisionAction.RETURN])
        .values_list("by_id", flat=True).distinct()
    )


def review_supervisors(*, assessment: Assessment) -> list[User]:
    """The supervisors to tell that ``assessment`` awaits review (see the module's rule)."""
    submission = assessment.submission
    eligible = [user for user in _supervisors_by_role().order_by("pk")
                if user.pk != assessment.engineer_id and may_see(user, submission)]
    concerned = set(_assigned_by(submission)) | set(_earlier_reviewers(assessment))
    named = [user for user in eligible if user.pk in concerned]
    return named or eligible
