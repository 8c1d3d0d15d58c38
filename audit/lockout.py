"""The login throttle (django-axes' ``AXES_HANDLER``) and what a throttled login is answered
(``AXES_LOCKOUT_CALLABLE``). Its limits are settings (reviewer/settings.py, README
"Configuration"), read here and nowhere else.

Two rules, so that nobody's failed logins can keep another user out:

- **One username from one address.** Its first ``LOGIN_FAILURE_LIMIT`` failures are free;
  from then on each attempt waits ``LOGIN_DELAY_SECONDS`` after the last failure, doubled
  with each further failure, at most ``LOGIN_MAX_DELAY_SECONDS``. An attempt during the
  wait is refused without its password being checked, and not counted (so it does not
  prolong the wait); an attempt after it is checked as any other: the right password logs
  in, a wrong one doubles the next wait. The rule is the same whether the username exists,
  so its answers tell nothing about which do.
- **One address, usernames that have no account.** ``LOGIN_ADDRESS_FAILURE_LIMIT`` such
  failures (a higher limit) mark the address: every failed login from it is then answered
  429, the login form again with ``ADDRESS_MARKED``, and recorded as a lockout in the audit
  trail, whatever the username (again, nothing told). A right password is never refused by
  this rule: the address may be a proxy or a network that many people share.

Failures are forgotten ``LOGIN_COOLOFF_MINUTES`` after the last one from that username and
address; a login clears its own username and address's.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.utils import timezone

LOCKOUT_TEMPLATE = "registration/lockout.html"
LOCKOUT_STATUS = 429
ADDRESS_MARKED = (
    "Many failed logins have come from this computer's address under usernames that have no account here, so "
    "each failed login from it is recorded as a possible attack. Check your username and password: the right "
    "ones still log you in."
)


def delay_after(failures: int) -> timedelta:
    """How long one username from one address waits after its last failure, having failed
    ``failures`` times: nothing below ``LOGIN_FAILURE_LIMIT``, then ``LOGIN_DELAY_SECONDS``
    doubled with each further failure, at most ``LOGIN_MAX_DELAY_SECONDS``.

    >>> from django.conf import settings
    >>> limit, first = settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_DELAY_SECONDS
    >>> delay_after(limit - 1).total_seconds(), delay_after(limit).total_seconds() == first
    (0.0, True)
    >>> delay_after(limit + 1).total_seconds() == 2 * first
    True
    >>> delay_after(limit + 60).total_seconds() == settings.LOGIN_MAX_DELAY_SECONDS
    True
    """
    if failures < settings.LOGIN_FAILURE_LIMIT:
        return timedelta(0)
    doublings = min(failures - settings.LOGIN_FAILURE_LIMIT, 32)  # far beyond any maximum; keeps the number small
    seconds = min(settings.LOGIN_DELAY_SECONDS * 2**doublings, settings.LOGIN_MAX_DELAY_SECONDS)
    return timedelta(seconds=seconds)


def _username_exists(username: str | None) -> bool:
    if not username:
        return False
    User = get_user_model()
    return User._default_manager.filter(**{User.USERNAME_FIELD: username}).exists()


class AxesRequest(HttpRequest):
    """A login request as django-axes marks it (``AxesMiddleware``, its handler), and the
    marks of ours below."""

    axes_attempt_time: datetime
    axes_ip_address: str | None
    axes_locked_out: bool
    axes_credentials: dict[str, Any] | None
    login_wait: timedelta
    login_address_marked: bool


class LoginThrottle(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes has no types: its handler is Any
    """django-axes' database handler (one ``AccessAttempt`` row per username, address and
    browser, counting failures) with the wait and the address rule above."""

    def pair_failures(self, request: AxesRequest, credentials: dict[str, Any] | None = None) -> tuple[int, datetime | None]:
        """This username's failures from this address within the cool-off, and the last one's time."""
        failures: int | None = 0
        last: datetime | None = None
        for attempts in self.get_user_attempts(request, credentials):  # one query set: username and address
            totals = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            failures, last = totals["failures"], totals["last"]
        return failures or 0, last

    def wait(self, request: AxesRequest, credentials: dict[str, Any] | None = None) -> timedelta:
        """How long this username from this address must still wait before an attempt is checked."""
        failures, last = self.pair_failures(request, credentials)
        if last is None:
            return timedelta(0)
        remaining: timedelta = last + delay_after(failures) - request.axes_attempt_time
        return max(remaining, timedelta(0))

    def address_marked(self, request: AxesRequest) -> bool:
        """Whether this address has failed ``LOGIN_ADDRESS_FAILURE_LIMIT`` times within the
        cool-off under usernames that have no account."""
        if request.axes_ip_address is None:
            return False
        User = get_user_model()
        since = request.axes_attempt_time - timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)
        failures = (
            AccessAttempt.objects.filter(ip_address=request.axes_ip_address, attempt_time__gte=since)
            .exclude(username__in=User._default_manager.values(User.USERNAME_FIELD))
            .aggregate(total=Sum("failures_since_start"))["total"]
        )
        return (failures or 0) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT

    def is_locked(self, request: AxesRequest, credentials: dict[str, Any] | None = None) -> bool:
        """Asked before the password is checked (``AxesStandaloneBackend``): refused only
        during this username and address's wait."""
        wait = self.wait(request, credentials)
        request.login_wait = wait
        return wait > timedelta(0)

    def user_login_failed(self, sender: str, credentials: dict[str, Any], request: AxesRequest | None = None,
                          **kwargs: Any) -> None:
        """After a checked attempt failed (django-axes counts it and marks the request when
        the failure starts a wait), the address rule: a marked address's failures are all
        answered as lockouts."""
        refused_unchecked = getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or refused_unchecked:
            return
        if request.axes_locked_out:  # this failure starts a wait
            request.login_wait = self.wait(request, credentials)
            return
        if self.address_marked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials
            request.login_address_marked = True
            user_locked_out.send(
                "axes", request=request, username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )


def lockout_response(request: AxesRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """429 Too Many Requests. During a wait: the lockout page, with ``Retry-After`` the
    seconds left. From a marked address: the login form again, with ``ADDRESS_MARKED``."""
    if getattr(request, "login_address_marked", False) and isinstance(original_response, TemplateResponse):
        context = dict(original_response.context_data or {})
        form = context.get("form")
        if form is not None:
            form.add_error(None, ADDRESS_MARKED)
        return TemplateResponse(request, original_response.template_name, context, status=LOCKOUT_STATUS).render()
    wait: timedelta = getattr(request, "login_wait", None) or timedelta(0)
    seconds = max(1, math.ceil(wait.total_seconds()))
    # The page names a time to the minute: the next whole minute after the wait ends, so
    # an attempt at the time shown is checked.
    retry_at = timezone.localtime() + timedelta(seconds=seconds)
    if retry_at.second or retry_at.microsecond:
        retry_at = retry_at.replace(second=0, microsecond=0) + timedelta(minutes=1)
    context = {
        "username": get_client_username(request, credentials) or "",
        "failure_limit": settings.LOGIN_FAILURE_LIMIT,
        "wait_seconds": seconds,
        "cool_off_minutes": max(1, math.ceil(seconds / 60)),
        "retry_at": retry_at,
    }
    response = render(request, LOCKOUT_TEMPLATE, context, status=LOCKOUT_STATUS)
    response["Retry-After"] = str(seconds)
    return response
