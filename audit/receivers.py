"""django.contrib.auth's signals, written to the audit trail by the service.

django-axes' receivers run first (``axes`` comes before ``audit`` in INSTALLED_APPS), so
a failed login that is (now) locked out is already marked ``request.axes_locked_out``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from .models import AuthEvent
from .services import auth_event_record
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
