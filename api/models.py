"""The API's own rows: each person's tokens (stored as a SHA-256 only) and the responses
kept for ``Idempotency-Key`` retries.

A token is ``pmn_<prefix>_<secret>``: the prefix (visible, unique) finds the row, and the
SHA-256 of the whole token, compared in constant time, proves it. The token itself is
shown once, when made, and never stored."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

NAME_MAX_LENGTH = 100
PREFIX_LENGTH = 8
IDEMPOTENCY_KEY_MAX_LENGTH = 255


class ApiToken(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=NAME_MAX_LENGTH, help_text="What the token is for, e.g. “CDX intake script”.")
    prefix = models.CharField(max_length=16, unique=True, help_text="The token's visible start, for finding it.")
    digest = models.CharField("SHA-256", max_length=64, help_text="Of the whole token; the token is never stored.")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The rate limit's window (api.tokens.rate_check): when the current minute started, requests in it.
    window_started_at = models.DateTimeField(null=True, blank=True)
    window_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} (pmn_{self.prefix}_…)"

    @property
    def shown_prefix(self) -> str:
        return f"pmn_{self.prefix}_…"

    def state(self, now: datetime | None = None) -> str:
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        return "active"


class IdempotentRequest(models.Model):
    """One POST made with an ``Idempotency-Key``: what was asked (method, path and body, as a
    SHA-256) and, once answered, the answer, returned again to a retry with the same key."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=IDEMPOTENCY_KEY_MAX_LENGTH)
    request_digest = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty while being answered.")
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["token", "key"], name="api_idempotency_token_key")]
