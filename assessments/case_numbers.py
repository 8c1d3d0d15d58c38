"""Whether a case number belongs to a case the user may not see (a CBI case, for a user not
cleared for CBI). Such a number must not be confirmed to them: the case form and the
admin's treat it as free, and the case services refuse it at the save in words that name
no case (``services.CASE_NUMBER_REFUSED``), recording the attempt for review. Numbers are
compared as stored: normalised (``models.normalise_case_number``)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from .models import Submission, normalise_case_number
from .permissions import may_see


def hidden_case(*, user: User | AnonymousUser, case_number: str, exclude_pk: int | None = None) -> Submission | None:
    """The case numbered ``case_number`` (other than ``exclude_pk``, the case being
    renumbered) if there is one and ``user`` may not see it; otherwise None."""
    number = normalise_case_number(case_number)
    if not number:
        return None
    cases = Submission.objects.filter(case_number=number)
    if exclude_pk is not None:
        cases = cases.exclude(pk=exclude_pk)
    case = cases.first()
    return case if case is not None and not may_see(user, case) else None
