from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from reviewer.admin_records import ReadOnlyAdmin

from .models import AuthEvent, CbiAccess
from .selectors import custody_rows_visible


@admin.register(AuthEvent)
class AuthEventAdmin(ReadOnlyAdmin, admin.ModelAdmin[AuthEvent]):
    """The audit trail, read-only: no one adds, edits or deletes a row here."""

    list_display = ("at", "kind", "username", "user", "ip", "user_agent")
    list_filter = ("kind", "at")
    search_fields = ("username", "ip")
    date_hierarchy = "at"
    list_select_related = ("user",)


@admin.register(CbiAccess)
class CbiAccessAdmin(ReadOnlyAdmin, admin.ModelAdmin[CbiAccess]):
    """The CBI custody log, read-only: no one adds, edits or deletes a row here (the model,
    its queryset and, on PostgreSQL, a trigger refuse it anyway)."""

    list_display = ("at", "kind", "what", "case_number", "revision", "username", "os_user", "ip", "detail")
    list_filter = ("kind", "what", "at")
    search_fields = ("case_number", "username", "os_user", "ip")
    date_hierarchy = "at"
    list_select_related = ("user",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[CbiAccess]:
        # A CBI case's rows only for users cleared for CBI: its number is not to be confirmed to others.
        return custody_rows_visible(super().get_queryset(request), user=request.user)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even "delete selected"
