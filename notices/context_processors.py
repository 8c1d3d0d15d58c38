"""The unread-notice count for the navigation bar (``templates/notices/_nav.html``): one query."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .selectors import unread_count


def notice_nav(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notices": 0}
    return {"unread_notices": unread_count(user=user)}
