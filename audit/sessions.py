"""How long a login lasts: at most ``SESSION_COOKIE_AGE`` seconds after it began
(absolute), and at most ``SESSION_IDLE_TIMEOUT`` seconds without a request (idle;
0 turns the idle limit off). The session cookie itself ends with the browser
(``SESSION_EXPIRE_AT_BROWSER_CLOSE``).

Django's own expiry is a single age that either runs from the login or, with
``SESSION_SAVE_EVERY_REQUEST``, from the last request; it cannot be both, and a
per-session ``set_expiry(seconds)`` would turn the browser-session cookie into a
persistent one. So the login time and the last request's time are kept in the session
and checked here on every request; an expired login is logged out (recorded in the
audit trail as an expired session) and sent to the login page with a message saying why.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from django.http.response import HttpResponseBase

LOGIN_AT = "_login_at"
SEEN_AT = "_seen_at"
# The last request's time is written at most once a minute: the idle limit is kept to the
# minute without a session write on every request.
SEEN_RESOLUTION_SECONDS = 60

IDLE = "idle"
ABSOLUTE = "absolute"


def _minutes(seconds: int) -> str:
    minutes = round(seconds / 60)
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def expired_message(reason: str) -> str:
    if reason == IDLE:
        return f"You were logged out after {_minutes(settings.SESSION_IDLE_TIMEOUT)} without activity. Please log in again."
    return f"Your login lasts at most {_minutes(settings.SESSION_COOKIE_AGE)}. Please log in again."


def session_started(session: SessionBase, *, now: int | None = None) -> None:
    """Start both clocks (called at each login)."""
    now = int(time.time()) if now is None else now
    session[LOGIN_AT] = now
    session[SEEN_AT] = now


def session_expiry_reason(session: SessionBase, *, now: int) -> str | None:
    """``IDLE`` or ``ABSOLUTE`` if the login in ``session`` has expired, else None."""
    login_at = session.get(LOGIN_AT)
    seen_at = session.get(SEEN_AT)
    if login_at is not None and now - login_at > settings.SESSION_COOKIE_AGE:
        return ABSOLUTE
    idle = settings.SESSION_IDLE_TIMEOUT
    if idle and seen_at is not None and now - seen_at > idle:
        return IDLE
    return None


class SessionLifetimeMiddleware:
    """Ends a login that is too old or was idle too long. Place it after
    AuthenticationMiddleware and MessageMiddleware: the request then goes on as
    anonymous, and LoginRequiredMiddleware sends it to the login page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.user.is_authenticated:
            now = int(time.time())
            session = request.session
            reason = session_expiry_reason(session, now=now)
            if reason:
                request.session_expired = reason  # type: ignore[attr-defined]  # an attribute of ours, read by the logout receiver (audit trail)
                logout(request)
                messages.info(request, expired_message(reason))
            else:
                if LOGIN_AT not in session:  # a login from before this middleware
                    session_started(session, now=now)
                elif now - session.get(SEEN_AT, 0) >= SEEN_RESOLUTION_SECONDS:
                    session[SEEN_AT] = now
        return self.get_response(request)
