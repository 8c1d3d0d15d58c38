"""The OpenAPI description for a client that has only a token: ``GET /api/v1/openapi.json``
with ``Authorization: Bearer TOKEN`` gives the document (the one the pages' login gets,
tests/api/test_openapi.py); a token the API refuses is refused here as every operation
refuses it (401, the one error shape); with neither a token nor the login, not the document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import timezone

from api import tokens

from .conftest import Api

pytestmark = pytest.mark.django_db

URL = "/api/v1/openapi.json"
CHECKED_IN = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def test_a_token_gets_the_description(client, reviewer):
    token = tokens.token_create(owner=reviewer, name="client generator", days=30).token
    response = Api(client, token).get(URL)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    served = response.json()
    assert served["openapi"].startswith("3.")
    assert served == json.loads(CHECKED_IN.read_text(encoding="utf-8"))
    assert "no-store" in response["Cache-Control"]


def test_without_token_or_login_the_description_is_not_given(client):
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/api/v1/openapi.json"
    assert b"openapi" not in response.content


def test_a_revoked_token_is_refused_with_the_one_error_shape(client, reviewer):
    made = tokens.token_create(owner=reviewer, name="old script", days=30)
    revoked = tokens.token_revoke(token=made.row, by=reviewer)
    assert revoked.revoked_at is not None
    response = Api(client, made.token).get(URL)
    assert response.status_code == 401 and response["WWW-Authenticate"] == 'Bearer realm="api"'
    date = timezone.localtime(revoked.revoked_at).date().isoformat()
    assert response.json() == {"errors": {"__all__": tokens.REVOKED_TOKEN.format(date=date)}}
    assert response.json()["errors"]["__all__"] == (
        f"This token was revoked on {date}: make a new one on the API tokens page.")


@pytest.mark.parametrize("authorization, message", [
    ("Bearer pmn_00000000_not-a-token-this-system-made", tokens.BAD_TOKEN),
    ("Basic cmV2OnNlY3JldA==", tokens.NO_TOKEN),
    ("", tokens.NO_TOKEN),
])
def test_an_authorization_that_is_not_a_valid_token_is_401(client, authorization, message):
    response = client.get(URL, headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response.json() == {"errors": {"__all__": message}}


def test_a_refused_token_is_refused_even_beside_a_login(client, reviewer):
    # A request that sends a token is the API's: the session is not read.
    client.force_login(reviewer)
    response = client.get(URL, headers={"Authorization": "Bearer pmn_00000000_not-a-token-this-system-made"})
    assert response.status_code == 401 and response.json() == {"errors": {"__all__": tokens.BAD_TOKEN}}


@override_settings(API_RATE_LIMIT_PER_MINUTE=1)
def test_the_description_counts_against_the_tokens_rate_limit(client, reviewer):
    api = Api(client, tokens.token_create(owner=reviewer, name="generator", days=30).token)
    assert api.get(URL).status_code == 200
    refused = api.get(URL)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert refused.json()["errors"]["__all__"].startswith("Too many requests with this token: at most 1 a minute.")
