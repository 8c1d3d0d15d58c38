from django.contrib import admin
from django.http import HttpRequest

from .models import Identity


@admin.register(Identity)
class IdentityAdmin(admin.ModelAdmin[Identity]):
    """The links between accounts and identities at the providers. A link is made by the
    first single sign-on, or by ``manage.py signin link`` / ``link-piv``; here it can be
    seen and removed (the person then signs in as a new account)."""

    list_display = ("user", "issuer", "subject", "created_at", "last_sign_in")
    search_fields = ("user__username", "subject", "issuer")
    readonly_fields = ("user", "issuer", "subject", "created_at", "last_sign_in")

    def has_add_permission(self, request: HttpRequest, obj: Identity | None = None) -> bool:
        return False
