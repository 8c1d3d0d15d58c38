"""Reads of the notices app."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q

from assessments.permissions import may_see
from assessments.roles import is_supervisor

from .models import Notice, UseComment

NOTICE_LIST_LENGTH = 100


def unread_count(*, user) -> int:
    """One query."""
    return Notice.objects.filter(recipient=user, read_at__isnull=True).count()


def notice_list(*, user) -> list[Notice]:
    return list(Notice.objects.filter(recipient=user).select_related("submission")[:NOTICE_LIST_LENGTH])


def supervisors_for(submission) -> list:
    """The active supervisors who may see ``submission`` (CBI clearance for a CBI case)."""
    perm = Permission.objects.filter(content_type__app_label="assessments", codename="review_assessment").first()
    users = get_user_model().objects.filter(is_active=True).filter(
        Q(is_superuser=True) | Q(user_permissions=perm) | Q(groups__permissions=perm)
    ).distinct()
    return [user for user in users if is_supervisor(user) and may_see(user, submission)]


def open_use_comments(*, scenario) -> list[UseComment]:
    """The comments on ``scenario`` not yet marked resolved, oldest first."""
    return list(UseComment.objects.filter(scenario=scenario, resolved_at__isnull=True).select_related("author"))
