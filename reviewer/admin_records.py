"""Admin pages of records (review decisions, login events, a contact's links): shown, never
added, changed or deleted there; their own service writes them."""

from __future__ import annotations

from django.db.models import Model
from django.http import HttpRequest


class ReadOnlyAdmin:
    """Mixed into a ``ModelAdmin`` or an inline, before it: nothing is added, changed or
    deleted through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
