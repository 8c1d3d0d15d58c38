"""The review team's permissions on contact reports, given to the groups of
``assessments.roles`` (reviewers and supervisors alike record and correct contacts).
Nobody's group may delete a contact report: it is a record of what was said."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP

ADD_PERMISSION = "contacts.add_contactreport"
CHANGE_PERMISSION = "contacts.change_contactreport"

CONTACT_CODENAMES = (
    "add_contactreport", "change_contactreport", "view_contactreport",
    "add_contactreportassessment", "delete_contactreportassessment", "view_contactreportassessment",
)


def ensure_contact_roles(**_kwargs: object) -> None:
    """Give both groups the contact reports' permissions (idempotent)."""
    permissions = list(Permission.objects.filter(content_type__app_label="contacts", codename__in=CONTACT_CODENAMES))
    for group_name in (REVIEWER_GROUP, SUPERVISOR_GROUP):
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.add(*permissions)
