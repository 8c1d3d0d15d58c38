"""Who may read the CBI custody log. Selectors and views ask; the rule lives here once.

A case's log: supervisors (and administrators, who hold every permission) who may see the
case (a CBI case is a 404 for a user not cleared for CBI, its log too). One's own rows:
every user, on "My CBI access"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User

from assessments.permissions import may_see
from assessments.roles import is_supervisor

if TYPE_CHECKING:
    from assessments.models import Submission

CASE_LOG_NOT_ALLOWED = "Only supervisors may read a case's CBI custody log."


def can_read_case_log(user: User | AnonymousUser, submission: Submission) -> bool:
    return is_supervisor(user) and may_see(user, submission)
