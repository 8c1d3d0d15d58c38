from django.contrib import admin

from .models import AuthEvent


@admin.register(AuthEvent)
class AuthEventAdmin(admin.ModelAdmin):
    """The audit trail, read-only: no one adds, edits or deletes a row here."""

    list_display = ("at", "kind", "username", "user", "ip", "user_agent")
    list_filter = ("kind", "at")
    search_fields = ("username", "ip")
    date_hierarchy = "at"
    list_select_related = ("user",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
