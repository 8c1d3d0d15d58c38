"""Roles: the two groups of the review team and the CBI clearance permission.

Reviewers write cases and assessments; supervisors also approve or return them. CBI
clearance is granted per user (``assessments.view_cbi``), whatever the group.
``ensure_roles`` runs after every ``migrate`` so a fresh database has both groups.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, Group, Permission, User

REVIEWER_GROUP = "reviewer"
SUPERVISOR_GROUP = "supervisor"
#: Administrators signed in by the identity provider (signin.accounts): staff with every
#: permission but CBI clearance, which comes from the CBI groups as anyone's does. (A local
#: superuser, the break-glass administrator, holds every permission, CBI clearance included.)
ADMINISTRATOR_GROUP = "administrator"

CBI_PERMISSION = "assessments.view_cbi"
REVIEW_PERMISSION = "assessments.review_assessment"

_REVIEWER_CODENAMES = (
    "add_submission", "change_submission", "view_submission",
    "add_assessment", "change_assessment", "view_assessment",
    "add_scenario", "change_scenario", "delete_scenario", "view_scenario",
    "view_reviewdecision",
)
ROLE_PERMISSIONS = {
    REVIEWER_GROUP: _REVIEWER_CODENAMES,
    SUPERVISOR_GROUP: _REVIEWER_CODENAMES + ("review_assessment",),
}


def ensure_roles(**_kwargs: object) -> None:
    """Create the groups and give them their permissions (idempotent)."""
    for group_name, codenames in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        permissions = Permission.objects.filter(content_type__app_label="assessments", codename__in=codenames)
        group.permissions.add(*permissions)


def administrator_group() -> Group:
    """The administrators' group, with every permission there is but CBI clearance (set again
    each time a role is given, so permissions added by a later version are included)."""
    group, _ = Group.objects.get_or_create(name=ADMINISTRATOR_GROUP)
    app_label, codename = CBI_PERMISSION.split(".")
    group.permissions.set(Permission.objects.exclude(content_type__app_label=app_label, codename=codename))
    return group


def holds_role(user: User) -> bool:
    """Whether ``user`` holds a role of the review team: a reviewer, a supervisor or an
    administrator. A person whose roles the identity provider took away holds none, and their
    API tokens stop working (``api.tokens``)."""
    return user.is_active and (
        user.is_superuser
        or user.groups.filter(name__in=(REVIEWER_GROUP, SUPERVISOR_GROUP, ADMINISTRATOR_GROUP)).exists()
    )


def is_administrator(user: User | AnonymousUser) -> bool:
    """A superuser, or a member of the administrators' group."""
    return user.is_authenticated and (
        user.is_superuser or user.groups.filter(name=ADMINISTRATOR_GROUP).exists()
    )


def is_cbi_cleared(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and user.has_perm(CBI_PERMISSION)


def is_supervisor(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and user.has_perm(REVIEW_PERMISSION)
