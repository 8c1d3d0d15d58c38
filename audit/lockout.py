"""The page a locked-out login gets (django-axes' ``AXES_LOCKOUT_CALLABLE``): 429 Too Many
Requests with ``Retry-After``, and a page saying what happened and when to try again.

Each attempt during a lockout starts the cool-off again (axes'
``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT``), so the wait always runs from now.
"""

from __future__ import annotations

from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from django.shortcuts import render
from django.utils import timezone

LOCKOUT_TEMPLATE = "registration/lockout.html"
LOCKOUT_STATUS = 429


def lockout_response(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else None
    context = {
        "username": get_client_username(request, credentials) or "",
        "failure_limit": get_failure_limit(request, credentials),
        "cool_off_minutes": round(seconds / 60) if seconds else None,
        "retry_at": timezone.localtime() + cool_off if cool_off else None,
    }
    response = render(request, LOCKOUT_TEMPLATE, context, status=LOCKOUT_STATUS)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
