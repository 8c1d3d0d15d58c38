"""The one write of the audit trail."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from .client import client_ip
from .models import USER_AGENT_MAX_LENGTH, AuthEvent

USERNAME_MAX_LENGTH = AuthEvent._meta.get_field("username").max_length


def auth_event_record(*, kind: str, request=None, user=None, username: str | None = None) -> AuthEvent:
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
