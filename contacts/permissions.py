"""Who may do what with contact reports. The services enforce these; views and templates
only ask them, so each rule lives here once.

- Read: whoever may see the case (``assessments.permissions.may_see``: a CBI case only
  users cleared for CBI) may read its contact reports, except that a CBI contact report is
  seen only by users cleared for CBI. For anyone else it does not exist (a 404, never a 403).
- Record and correct: reviewers and supervisors (the groups' ``add``/``change``
  permissions) who may see the case, as any of them may correct the case itself
  (``assessments.permissions.can_edit_submission``). Only a user cleared for CBI may mark
  a contact CBI.
- Approved work is final: a contact report that applies to an approved revision is locked
  (:func:`is_locked`), and no contact is added to an approved revision. Record a new
  contact, linked to the current revision, instead.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from assessments.models import Assessment, Status, Submission
from assessments.permissions import may_see
from assessments.roles import is_cbi_cleared

from .models import ContactReport
from .roles import ADD_PERMISSION, CHANGE_PERMISSION


def may_read(user: User | AnonymousUser, report: ContactReport) -> bool:
    return may_see(user, report.submission) and (not report.is_cbi or is_cbi_cleared(user))


def can_add(user: User | AnonymousUser, submission: Submission) -> bool:
    return user.is_authenticated and user.has_perm(ADD_PERMISSION) and may_see(user, submission)


def is_locked(report: ContactReport) -> bool:
    """Applies to an approved revision: final with it."""
    return report.is_locked


def can_edit(user: User | AnonymousUser, report: ContactReport) -> bool:
    return (
        user.is_authenticated
        and user.has_perm(CHANGE_PERMISSION)
        and may_read(user, report)
        and not is_locked(report)
    )


def can_mark_cbi(user: User | AnonymousUser) -> bool:
    return is_cbi_cleared(user)


def can_link(assessment: Assessment) -> bool:
    """A contact may be added to (or taken off) a revision that is not approved."""
    return assessment.status != Status.APPROVED
