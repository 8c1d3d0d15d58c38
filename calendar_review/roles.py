"""The review team's permissions on review calendars, given to the groups of
``assessments.roles``: reviewers and supervisors record received dates, periods,
suspensions and extensions; only supervisors assign a case's engineer."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP

CHANGE_PERMISSION = "calendar_review.change_reviewcalendar"
ASSIGN_PERMISSION = "calendar_review.assign_engineer"

_RECORD_CODENAMES = (
    "add_reviewcalendar", "change_reviewcalendar", "view_reviewcalendar",
    "add_suspension", "change_suspension", "view_suspension",
    "add_extension", "view_extension",
)
ROLE_PERMISSIONS = {
    REVIEWER_GROUP: _RECORD_CODENAMES,
    SUPERVISOR_GROUP: _RECORD_CODENAMES + ("assign_engineer",),
}


def ensure_calendar_roles(**_kwargs: object) -> None:
    """Give both groups their review-calendar permissions (idempotent)."""
    for group_name, codenames in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="calendar_review", codename__in=codenames)
        )
