"""Who may do what. Services enforce these; views and templates only ask them (to
show or hide a button), so each rule lives here once.

Visibility (CBI) is the selectors' business: a user who may not see a case gets a 404
before any of these questions is asked. The workflow's rules (submit, review, revise)
also refuse a case the user may not see, so a service called outside a view cannot
act on it either.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from .models import Assessment, Status, Submission
from .roles import REVIEW_PERMISSION, is_cbi_cleared

EDITABLE_STATUSES = (Status.DRAFT, Status.RETURNED)


def may_see(user: User | AnonymousUser, submission: Submission) -> bool:
    """The visibility rule of ``selectors.visible_submissions``, for one case."""
    return user.is_authenticated and (not submission.is_cbi or is_cbi_cleared(user))


def assessment_is_frozen(assessment: Assessment) -> bool:
    """Submitted (under review) or approved (final): no edit path may change it."""
    return assessment.status not in EDITABLE_STATUSES


def submission_is_frozen(submission: Submission) -> bool:
    """The case is read-only while its latest revision is submitted (under review with this
    header) or approved (final); it may be amended before any revision exists and while the
    latest is a draft or returned. An approved revision keeps the case data it was approved
    with (``Assessment.case_snapshot``), so amending the case for the next revision leaves
    the approved report as it was. Read from the stored rows, not the case's copy of the
    latest status, which an instance in memory may hold stale."""
    latest = submission.assessments.order_by("-revision").values_list("status", flat=True).first()
    return latest is not None and latest not in EDITABLE_STATUSES


def has_approved_revision(submission: Submission) -> bool:
    """A change to the case is then an amendment: the form asks for its reason."""
    return submission.assessments.filter(status=Status.APPROVED).exists()


def can_create_submission(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and user.has_perm("assessments.add_submission")


def can_edit_submission(user: User | AnonymousUser, submission: Submission) -> bool:
    """Any reviewer or supervisor may correct or amend the case unless it is frozen
    (:func:`submission_is_frozen`: its latest revision is submitted or approved)."""
    if not (user.is_authenticated and user.has_perm("assessments.change_submission")):
        return False
    return not submission_is_frozen(submission)


def can_start_assessment(user: User | AnonymousUser, submission: Submission) -> bool:
    """A new revision 1 may be started only when the case has no assessment yet;
    later revisions come from copying an approved one."""
    return (
        user.is_authenticated
        and user.has_perm("assessments.add_assessment")
        and not submission.assessments.exists()
    )


def can_edit_assessment(user: User | AnonymousUser, assessment: Assessment) -> bool:
    """The assessment's own engineer edits it while it is a draft or returned."""
    return (
        user.is_authenticated
        and assessment.engineer_id == user.pk
        and assessment.status in EDITABLE_STATUSES
        and user.has_perm("assessments.change_assessment")
    )


def can_submit(user: User | AnonymousUser, assessment: Assessment) -> bool:
    return can_edit_assessment(user, assessment) and may_see(user, assessment.submission)


def can_withdraw(user: User | AnonymousUser, assessment: Assessment) -> bool:
    """Take a submitted assessment back (to a draft) before a decision: its engineer only."""
    return (
        user.is_authenticated
        and assessment.engineer_id == user.pk
        and assessment.status == Status.SUBMITTED
        and user.has_perm("assessments.change_assessment")
        and may_see(user, assessment.submission)
    )


def can_review(user: User | AnonymousUser, assessment: Assessment) -> bool:
    """Approve or return: a supervisor, on a submitted assessment, never their own."""
    return (
        user.is_authenticated
        and user.has_perm(REVIEW_PERMISSION)
        and assessment.status == Status.SUBMITTED
        and assessment.engineer_id != user.pk
        and may_see(user, assessment.submission)
    )


def can_revise(user: User | AnonymousUser, assessment: Assessment) -> bool:
    """Start the next revision from an approved assessment (the latest one)."""
    if not (user.is_authenticated and user.has_perm("assessments.add_assessment")):
        return False
    if assessment.status != Status.APPROVED or not may_see(user, assessment.submission):
        return False
    latest = assessment.submission.assessments.order_by("-revision").values_list("revision", flat=True).first()
    return latest == assessment.revision
