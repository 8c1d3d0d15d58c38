"""The authentication audit trail: one row per login, logout, failed login, refused
(locked-out) login and expired session. Rows are written only by
:func:`audit.services.auth_event_record` and are never edited; the admin shows them
read-only. The attempted password is never stored."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

USER_AGENT_MAX_LENGTH = 500


class AuthEvent(models.Model):
    class Kind(models.TextChoices):
        LOGIN = "login", "logged in"
        LOGOUT = "logout", "logged out"
        LOGIN_FAILED = "login_failed", "login failed"
        LOCKED_OUT = "locked_out", "login refused: locked out"
        SESSION_EXPIRED = "session_expired", "session expired"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    username = models.CharField(
        max_length=150, blank=True, help_text="As typed at the login, or the user's username."
    )
    # SET_NULL: deleting a user keeps their trail (the username stays on each row).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ip = models.GenericIPAddressField("IP address", null=True, blank=True)
    user_agent = models.CharField(max_length=USER_AGENT_MAX_LENGTH, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "authentication event"
        indexes = [models.Index(fields=["username", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_kind_display()}: {self.username or '?'}"
