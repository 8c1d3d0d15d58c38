"""``Authorization: Bearer TOKEN``, the API's only credential: a session cookie is not read
(a browser logged in to the pages is not logged in to the API, so the API needs no CSRF
check and the pages keep theirs). A token that lets the request in makes its owner the
request's user and counts the request against the token's rate limit."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from .errors import RateLimited
from .models import ApiToken
from .tokens import RATE_LIMITED, rate_check, rate_limit, token_authenticate


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        row = token_authenticate(token)  # TokenRefused: 401 with the reason
        request.user = row.owner
        wait = rate_check(row)
        if wait is not None:
            raise RateLimited(RATE_LIMITED.format(limit=rate_limit(), seconds=wait), wait)
        return row


def token_of(request: HttpRequest) -> ApiToken:
    token: ApiToken = request.auth  # type: ignore[attr-defined]  # ninja sets it on the request it authenticated
    return token
