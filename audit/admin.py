from django.contrib import admin

from reviewer.admin_records import ReadOnlyAdmin

from .models import AuthEvent


@admin.register(AuthEvent)
class AuthEventAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """The audit trail, read-only: no one adds, edits or deletes a row here."""

    list_display = ("at", "kind", "username", "user", "ip", "user_agent")
    list_filter = ("kind", "at")
    search_fields = ("username", "ip")
    date_hierarchy = "at"
    list_select_related = ("user",)
