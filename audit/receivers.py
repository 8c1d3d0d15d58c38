"""django.contrib.auth's signals, written to the audit trail by the service, and the
custody events of ``assessments.events``, written to the CBI custody log.

django-axes' receivers run first (``axes`` comes before ``audit`` in INSTALLED_APPS), so
a failed login that is (now) locked out is already marked ``request.axes_locked_out``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from assessments import events
from assessments.models import Assessment, Submission

from .models import AuthEvent
from .services import auth_event_record, case_number_refusal_record, cbi_access_record
from .sessions import session_started


@receiver(user_logged_in, dispatch_uid="audit.login")
def on_login(sender: type[User], request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        session_started(request.session)
    auth_event_record(kind=AuthEvent.Kind.LOGIN, request=request, user=user)


@receiver(user_logged_out, dispatch_uid="audit.logout")
def on_logout(sender: type[User], request: HttpRequest | None, user: User | None, **kwargs: Any) -> None:
    if user is None:  # a logout without a login
        return
    expired = getattr(request, "session_expired", None)
    kind = AuthEvent.Kind.SESSION_EXPIRED if expired else AuthEvent.Kind.LOGOUT
    auth_event_record(kind=kind, request=request, user=user)


@receiver(user_login_failed, dispatch_uid="audit.login_failed")
def on_login_failed(sender: str, credentials: dict[str, Any], request: HttpRequest | None = None,
                    **kwargs: Any) -> None:
    # Django has already replaced the password in ``credentials``; only the username is read.
    locked = getattr(request, "axes_locked_out", False)
    kind = AuthEvent.Kind.LOCKED_OUT if locked else AuthEvent.Kind.LOGIN_FAILED
    auth_event_record(kind=kind, request=request, username=credentials.get(get_user_model().USERNAME_FIELD))



@receiver(events.case_data_shown, dispatch_uid="audit.case_data_shown")
def on_case_data_shown(
    sender: type, *, what: str, request: HttpRequest | None, user: User | AnonymousUser | None,
    submission: Submission | None, assessment: Assessment | None, sanitised: bool, detail: str, os_user: str,
    **kwargs: Any,
) -> None:
    """``events.shown``: the custody log's one writer decides whether a row is written."""
    cbi_access_record(what=what, request=request, user=user, submission=submission, assessment=assessment,
                      sanitised=sanitised, detail=detail, os_user=os_user)


@receiver(events.case_number_refused, dispatch_uid="audit.case_number_refused")
def on_case_number_refused(sender: type, *, user: User | AnonymousUser, typed: str, case: Submission, what: str,
                           request: HttpRequest | None, **kwargs: Any) -> None:
    case_number_refusal_record(user=user, typed=typed, case=case, what=what, request=request)
