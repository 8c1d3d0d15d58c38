"""Who may do what with review calendars. The services enforce these; views and templates
only ask them (to show or hide a link), so each rule lives here once.

Visibility is the case's (``assessments.permissions.may_see``): a CBI case's calendar
exists only for users cleared for CBI; for anyone else the pages are a 404.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from assessments.models import Submission
from assessments.permissions import may_see
from assessments.roles import is_cbi_cleared

from .roles import ASSIGN_PERMISSION, CHANGE_PERMISSION

#: Who may be a case's engineer: whoever may work on assessments.
ENGINEER_PERMISSION = "assessments.change_assessment"


def can_record(user: User | AnonymousUser, submission: Submission) -> bool:
    """Record the received date, the period, suspensions and extensions: reviewers and
    supervisors, on a case they may see."""
    return user.is_authenticated and user.has_perm(CHANGE_PERMISSION) and may_see(user, submission)


def can_assign(user: User | AnonymousUser, submission: Submission) -> bool:
    """Assign or reassign the case's engineer: supervisors only, on a case they may see."""
    return user.is_authenticated and user.has_perm(ASSIGN_PERMISSION) and may_see(user, submission)


def may_be_assigned(user: User, submission: Submission) -> bool:
    """An active reviewer or supervisor, cleared for CBI when the case is CBI."""
    return (
        user.is_active
        and user.has_perm(ENGINEER_PERMISSION)
        and (not submission.is_cbi or is_cbi_cleared(user))
    )
