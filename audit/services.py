"""The writes of the audit trail (logins and the rest) and of the CBI custody log."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

from .client import client_ip
from .models import USER_AGENT_MAX_LENGTH, AuthEvent, CbiAccess

if TYPE_CHECKING:
    from assessments.models import Assessment, Submission

USERNAME_MAX_LENGTH = AuthEvent._meta.get_field("username").max_length


def auth_event_record(*, kind: str, request: HttpRequest | None = None, user: User | None = None,
                      username: str | None = None) -> AuthEvent:
    """Record an authentication event. ``username`` defaults to the user's; a failed
    login names the username as typed and is linked to the user of that name, if any.
    Nothing else from the login form (never the password) is stored."""
    if username is not None:
        username = str(username).replace("\x00", "")[:USERNAME_MAX_LENGTH]
    if user is None and username:
        User = get_user_model()
        user = User._default_manager.filter(**{User.USERNAME_FIELD: username}).first()
    if username is None and user is not None:
        username = user.get_username()
    meta = getattr(request, "META", {}) if request is not None else {}
    return AuthEvent.objects.create(
        kind=kind,
        username=(username or "")[:USERNAME_MAX_LENGTH],
        user=user,
        ip=client_ip(request) if request is not None else None,
        user_agent=meta.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH],
    )


# The CBI custody log ---------------------------------------------------------------------------

logger = logging.getLogger("audit.custody")

CASE_NUMBER_MAX_LENGTH = CbiAccess._meta.get_field("case_number").max_length
DETAIL_MAX_LENGTH = CbiAccess._meta.get_field("detail").max_length
REFUSED_NUMBER_LOG = (
    "Case number refused: %r typed by user %r (%s, custody log entry %s): it is the number of a case they may "
    "not see."
)


def _client(request: HttpRequest | None) -> tuple[str | None, str]:
    """The client's address (``audit.client``) and user agent, as the row keeps them."""
    if request is None:
        return None, ""
    return client_ip(request), getattr(request, "META", {}).get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH]


def _person(user: User | AnonymousUser | None) -> tuple[User | None, str]:
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        return None, ""
    return user, user.get_username()[:USERNAME_MAX_LENGTH]


#: Which page or copy a custody row records (``CbiAccess.What``), for its callers.
What = CbiAccess.What


def cbi_access_record(
    *, what: str, request: HttpRequest | None = None, user: User | AnonymousUser | None = None,
    submission: Submission | None = None, assessment: Assessment | None = None, sanitised: bool = False,
    detail: str = "", os_user: str = "",
) -> CbiAccess | None:
    """Record that the request's user (``user``; for a command, ``os_user``) was shown or
    handed the full data of a case: the one place that decides whether a custody row is
    written. It is when the case is CBI and the copy is not the sanitised one; otherwise
    nothing is written and None is returned.

    ``assessment``: a revision's page or report; the case is then the case as that
    revision prints it (``Assessment.case_data``: an approved revision keeps the claims it
    was approved with, and any made since). ``sanitised``: the copy the caller hands over
    (never read from the request: a page has no sanitised copy, whatever its address says).
    """
    case = assessment.case_data if assessment is not None else submission
    if case is None or sanitised or not case.is_cbi:
        return None
    if user is None and request is not None:
        user = getattr(request, "user", None)
    person, username = _person(user)
    ip, user_agent = _client(request)
    return CbiAccess.objects.create(
        kind=CbiAccess.Kind.ACCESS,
        what=what,
        user=person,
        username=username,
        os_user=(os_user or "")[:USERNAME_MAX_LENGTH],
        submission_id=case.pk,
        case_number=case.case_number[:CASE_NUMBER_MAX_LENGTH],
        assessment=assessment,
        revision=assessment.revision if assessment is not None else None,
        detail=(detail or "")[:DETAIL_MAX_LENGTH],
        ip=ip,
        user_agent=user_agent,
    )


def case_number_refusal_record(*, user: User | AnonymousUser, typed: str, case: Submission, what: str,
                               request: HttpRequest | None = None) -> CbiAccess:
    """Record, for review, that ``user`` tried to give a case (``what``: a new case or a
    renumbering) the number ``typed``, which is ``case``'s, a case they may not see. The
    row is in ``case``'s custody log and the admin's; the warning logged names the user and
    the number typed, nothing of the case."""
    person, username = _person(user)
    ip, user_agent = _client(request)
    row = CbiAccess.objects.create(
        kind=CbiAccess.Kind.REFUSED_NUMBER,
        what=what,
        user=person,
        username=username,
        submission_id=case.pk,
        case_number=(typed or "")[:CASE_NUMBER_MAX_LENGTH],
        ip=ip,
        user_agent=user_agent,
    )
    logger.warning(REFUSED_NUMBER_LOG, typed, username, CbiAccess.What(what).label, row.pk)
    return row


def clearance_change_record(*, user: User, granted: bool, request: HttpRequest | None, detail: str) -> CbiAccess:
    """Record that ``user``'s CBI clearance was granted or removed (by the identity provider's
    groups, at a sign-in or a renewal): a custody row with no case."""
    ip, user_agent = _client(request)
    return CbiAccess.objects.create(
        kind=CbiAccess.Kind.CLEARANCE,
        what=What.SIGN_IN,
        user=user,
        username=user.get_username()[:USERNAME_MAX_LENGTH],
        case_number="",
        detail=detail[:DETAIL_MAX_LENGTH],
        ip=ip,
        user_agent=user_agent,
    )
