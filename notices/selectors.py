"""Reads of the notices app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User

from .models import Notice, UseComment

if TYPE_CHECKING:
    from assessments.models import Scenario

NOTICE_LIST_LENGTH = 100


def unread_count(*, user: User) -> int:
    """One query."""
    return Notice.objects.filter(recipient=user, read_at__isnull=True).count()


def notice_list(*, user: User) -> list[Notice]:
    return list(Notice.objects.filter(recipient=user).select_related("submission")[:NOTICE_LIST_LENGTH])


def open_use_comments(*, scenario: Scenario) -> list[UseComment]:
    """The comments on ``scenario`` not yet marked resolved, oldest first."""
    return list(UseComment.objects.filter(scenario=scenario, resolved_at__isnull=True).select_related("author"))
