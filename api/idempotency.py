"""``Idempotency-Key`` on POST: a retried request gets the answer the first one got, and
acts once.

The key (with the token: keys are the token's own) is stored, with a SHA-256 of the
method, path and body, before the request acts, in a transaction of its own, so a second
request with the key while the first is being answered finds the row and is told 409
(:data:`IN_PROGRESS`) rather than acting twice. The answer (status, type, body) is stored
when it is known; an answer of 500 or more is not kept (the row goes, and a retry acts).
The same key with another request is refused (:data:`KEY_REUSED`). Keys are forgotten
after ``API_IDEMPOTENCY_HOURS``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .models import IDEMPOTENCY_KEY_MAX_LENGTH, ApiToken, IdempotentRequest

HEADER = "Idempotency-Key"
KEY_REQUIRED = (f"This request changes something: give an {HEADER} header (any unique text of at most "
                f"{IDEMPOTENCY_KEY_MAX_LENGTH} characters, e.g. a UUID), so a retry does not act twice.")
KEY_TOO_LONG = f"The {HEADER} is longer than {IDEMPOTENCY_KEY_MAX_LENGTH} characters (or empty)."
KEY_REUSED = f"This {HEADER} was used for another request (another path or body): use a new key for a new request."
IN_PROGRESS = f"A request with this {HEADER} is still being answered: retry in a moment."
REPLAYED_HEADER = "Idempotent-Replayed"


class KeyProblem(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def _request_digest(request: HttpRequest) -> str:
    sha = hashlib.sha256()
    for part in (request.method or "", request.get_full_path(), ""):
        sha.update(part.encode("utf-8") + b"\x00")
    sha.update(request.body)
    return sha.hexdigest()


def forget_old(*, now: datetime | None = None) -> int:
    """Delete the keys older than ``API_IDEMPOTENCY_HOURS``; how many."""
    since = (now or timezone.now()) - timedelta(hours=settings.API_IDEMPOTENCY_HOURS)
    return IdempotentRequest.objects.filter(created_at__lt=since).delete()[0]


def _replay(row: IdempotentRequest) -> HttpResponse:
    response = HttpResponse(bytes(row.body), status=row.status_code, content_type=row.content_type or None)
    if row.location:
        response["Location"] = row.location
    response[REPLAYED_HEADER] = "true"
    return response


def once(request: HttpRequest, token: ApiToken, act: Callable[[], HttpResponse], *, required: bool) -> HttpResponse:
    """``act()``'s answer, or the answer stored for this token's key: ``act`` runs at most once
    a key. Without a key, ``act`` runs when the key is not ``required``; else ``KeyProblem``."""
    key = request.headers.get(HEADER)
    if key is None:
        if required:
            raise KeyProblem(KEY_REQUIRED, 400)
        return act()
    key = key.strip()
    if not key or len(key) > IDEMPOTENCY_KEY_MAX_LENGTH:
        raise KeyProblem(KEY_TOO_LONG, 400)
    forget_old()
    fingerprint = _request_digest(request)
    try:
        with transaction.atomic():
            row = IdempotentRequest.objects.create(token=token, key=key, request_digest=fingerprint)
    except IntegrityError:
        stored = IdempotentRequest.objects.get(token=token, key=key)
        if stored.request_digest != fingerprint:
            raise KeyProblem(KEY_REUSED, 422) from None
        if stored.status_code is None:
            raise KeyProblem(IN_PROGRESS, 409) from None
        return _replay(stored)
    try:
        response = act()
    except BaseException:
        row.delete()
        raise
    if response.status_code >= 500 or getattr(response, "streaming", False):
        row.delete()
        return response
    row.status_code = response.status_code
    row.content_type = response.get("Content-Type", "")
    row.body = response.content
    row.location = response.get("Location", "")
    row.save(update_fields=["status_code", "content_type", "body", "location"])
    return response
