"""Writes and reads of API tokens: made, found, revoked, counted against the rate limit.

Every rule about a token lives here once: the page, the admin and ``manage.py api_token``
call :func:`token_create` and :func:`token_revoke`; the API's bearer check calls
:func:`token_authenticate` and :func:`rate_check`. Messages are module constants."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Case, F, QuerySet, Value, When
from django.http import Http404
from django.utils import timezone

from assessments.roles import holds_role, is_administrator

from .models import NAME_MAX_LENGTH, PREFIX_LENGTH, ApiToken

TOKEN_START = "pmn_"
NAME_REQUIRED = "Name the token (what it is for), so you know which one to revoke."
NAME_TOO_LONG = f"The name is longer than {NAME_MAX_LENGTH} characters."
NAME_TAKEN = "You have an active token of this name already: choose another name, or revoke that one."
DAYS_OUT_OF_RANGE = "Days must be a whole number from 1 to {maximum} (the token then expires)."
REVOKE_NOT_ALLOWED = "Only the token's owner or an administrator may revoke it."
ALREADY_REVOKED = "This token is revoked already."
NO_TOKEN = "Give a token: Authorization: Bearer TOKEN (make one on the API tokens page)."
BAD_TOKEN = "This token is not one this system made (mistyped, or deleted)."
EXPIRED_TOKEN = "This token expired on {date}: make a new one on the API tokens page."
REVOKED_TOKEN = "This token was revoked on {date}: make a new one on the API tokens page."
INACTIVE_OWNER = "The account this token belongs to is not active."
NO_ROLE_OWNER = "The person this token belongs to no longer holds a reviewer's, supervisor's or administrator's role."
RATE_LIMITED = "Too many requests with this token: at most {limit} a minute. Retry after {seconds} s."

RATE_WINDOW = timedelta(minutes=1)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def max_days() -> int:
    return settings.API_TOKEN_MAX_DAYS


@dataclass(frozen=True)
class NewToken:
    """A token just made: the row, and the token itself, which is never shown again."""

    row: ApiToken
    token: str


def _check_days(days: object) -> int:
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= max_days():
        raise ValidationError({"days": DAYS_OUT_OF_RANGE.format(maximum=max_days())})
    return days


@transaction.atomic
def token_create(*, owner: User, name: str, days: int | None = None) -> NewToken:
    """A new token of ``owner``'s named ``name``, valid ``days`` days (default
    ``API_TOKEN_DEFAULT_DAYS``, at most ``API_TOKEN_MAX_DAYS``). Only its SHA-256 is stored."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": NAME_REQUIRED})
    if len(name) > NAME_MAX_LENGTH or "\x00" in name:
        raise ValidationError({"name": NAME_TOO_LONG})
    days = _check_days(settings.API_TOKEN_DEFAULT_DAYS if days is None else days)
    now = timezone.now()
    if ApiToken.objects.filter(owner=owner, name=name, revoked_at__isnull=True, expires_at__gt=now).exists():
        raise ValidationError({"name": NAME_TAKEN})
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    while ApiToken.objects.filter(prefix=prefix).exists():  # 32 bits: a clash is rare, never ambiguous
        prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    token = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"  # 256 random bits after the prefix
    row = ApiToken.objects.create(owner=owner, name=name, prefix=prefix, digest=digest(token), created_at=now,
                                  expires_at=now + timedelta(days=days))
    return NewToken(row, token)


def may_revoke(user: User | AnonymousUser, token: ApiToken) -> bool:
    return user.is_authenticated and (token.owner_id == user.pk or is_administrator(user))


@transaction.atomic
def token_revoke(*, token: ApiToken, by: User) -> ApiToken:
    """Revoke ``token`` (its owner, or a superuser in the admin): it answers 401 from now on."""
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if not may_revoke(by, token):
        raise PermissionDenied(REVOKE_NOT_ALLOWED)
    if token.revoked_at is not None:
        raise ValidationError(ALREADY_REVOKED)
    token.revoked_at, token.revoked_by = timezone.now(), by
    token.save(update_fields=["revoked_at", "revoked_by"])
    return token


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    """``user``'s tokens, newest first (revoked and expired ones too: the page says which)."""
    return ApiToken.objects.filter(owner=user).order_by("-created_at", "-pk")


def token_get_own(*, user: User, pk: int) -> ApiToken:
    try:
        return tokens_of(user=user).get(pk=pk)
    except ApiToken.DoesNotExist:
        raise Http404("No such token.") from None


class TokenRefused(Exception):
    """A bearer token that does not let the request in: the 401's message."""


def token_authenticate(token: str) -> ApiToken:
    """The active token ``token``, with its owner; ``TokenRefused`` saying why not."""
    start, _, rest = (token or "").partition(TOKEN_START)
    prefix = rest.split("_", 1)[0] if not start else ""
    row = ApiToken.objects.select_related("owner").filter(prefix=prefix).first() if prefix else None
    # The digest is compared even for an unknown prefix, so both take the same time.
    expected = row.digest if row is not None else "0" * 64
    if not hmac.compare_digest(expected, digest(token or "")) or row is None:
        raise TokenRefused(BAD_TOKEN)
    if row.revoked_at is not None:
        raise TokenRefused(REVOKED_TOKEN.format(date=timezone.localtime(row.revoked_at).date().isoformat()))
    if row.expires_at <= timezone.now():
        raise TokenRefused(EXPIRED_TOKEN.format(date=timezone.localtime(row.expires_at).date().isoformat()))
    if not row.owner.is_active:
        raise TokenRefused(INACTIVE_OWNER)
    if not holds_role(row.owner):
        raise TokenRefused(NO_ROLE_OWNER)
    return row


def rate_limit() -> int:
    return settings.API_RATE_LIMIT_PER_MINUTE


def rate_check(token: ApiToken) -> int | None:
    """Count this request against ``token``'s minute (one UPDATE, shared by every process, which
    also records ``last_used_at``); None when within ``API_RATE_LIMIT_PER_MINUTE``, else the
    seconds until the minute ends (the 429's Retry-After)."""
    now = timezone.now()
    in_window = When(window_started_at__gt=now - RATE_WINDOW, then=F("window_count") + 1)
    ApiToken.objects.filter(pk=token.pk).update(
        window_count=Case(in_window, default=Value(1)),
        window_started_at=Case(When(window_started_at__gt=now - RATE_WINDOW, then=F("window_started_at")),
                               default=Value(now)),
        last_used_at=now,
    )
    started, count = ApiToken.objects.filter(pk=token.pk).values_list("window_started_at", "window_count").get()
    if count <= rate_limit():
        return None
    assert started is not None, "the update above starts the window"
    return max(1, int((started + RATE_WINDOW - now).total_seconds() + 0.999))
