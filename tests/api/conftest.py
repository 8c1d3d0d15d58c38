"""Fixtures of the API tests: a token for a user, and a client that sends it."""

from __future__ import annotations

import pytest

from api import tokens


def make_token(user, name: str = "tests", days: int = 30) -> str:
    return tokens.token_create(owner=user, name=name, days=days).token


class Api:
    """The test client with ``Authorization: Bearer TOKEN`` (and no session)."""

    def __init__(self, client, token: str | None):
        self.client, self.token = client, token

    def _headers(self, headers: dict | None) -> dict:
        sent = dict(headers or {})
        if self.token is not None:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        return sent

    def get(self, path: str, data=None, headers: dict | None = None):
        return self.client.get(path, data or {}, headers=self._headers(headers))

    def post(self, path: str, body=None, headers: dict | None = None, key: str | None = "k-1", raw: bytes | None = None):
        import json

        sent = self._headers(headers)
        if key is not None:
            sent.setdefault("Idempotency-Key", key)
        content = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.generic("POST", path, content, content_type="application/json", headers=sent)


@pytest.fixture
def api_as(client):
    """``api_as(user)``: a client with a new token of ``user``'s; ``api_as(None)``: no token."""

    def make(user, **kwargs) -> Api:
        client.logout()
        return Api(client, make_token(user, **kwargs) if user is not None else None)

    return make
