"""API tokens in the admin: listed (never the token: only its prefix and SHA-256 exist), and
revoked by an administrator through ``tokens.token_revoke``."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from reviewer.http import AuthenticatedHttpRequest

from . import tokens
from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ("name", "owner", "shown_prefix", "created_at", "expires_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "owner__username")
    fields = ("owner", "name", "shown_prefix", "created_at", "expires_at", "last_used_at", "revoked_at", "revoked_by")
    readonly_fields = fields
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:  # tokens are made by their owner (page) or by manage.py api_token
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: AuthenticatedHttpRequest, queryset: QuerySet[ApiToken]) -> None:
        done = 0
        for token in queryset:
            try:
                tokens.token_revoke(token=token, by=request.user)
            except (ValidationError, PermissionDenied):
                continue
            done += 1
        self.message_user(request, f"{done} token(s) revoked.", messages.SUCCESS)
