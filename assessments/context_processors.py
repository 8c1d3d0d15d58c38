"""Template context every page needs: whether to show the supervisors' review queue
in the navigation bar, and how many assessments wait in it. Computed here so the
template only shows or hides (``templates/base.html``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .review import review_queue_count
from .roles import is_supervisor


def review_nav(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not is_supervisor(user):
        return {"show_review_queue": False, "review_queue_count": 0}
    return {"show_review_queue": True, "review_queue_count": review_queue_count(user=user)}
