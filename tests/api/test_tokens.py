"""Tokens: stored as a SHA-256 only, shown once, listed and revoked by their owner on a page,
revoked by an administrator, made by ``manage.py api_token``; the rate limit per token."""

from __future__ import annotations

import hashlib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from api import tokens
from api.models import ApiToken
from audit.models import CbiAccess
from tests._review_support import draft_with_result, toy_engine

from .conftest import Api, make_token

pytestmark = pytest.mark.django_db


def test_only_the_sha256_of_the_token_is_stored(reviewer):
    made = tokens.token_create(owner=reviewer, name="script", days=10)
    row = ApiToken.objects.get()
    assert made.token.startswith(f"pmn_{row.prefix}_") and len(made.token) > 50
    assert row.digest == hashlib.sha256(made.token.encode()).hexdigest()
    assert made.token not in str(ApiToken.objects.values().get())
    assert (row.expires_at - row.created_at).days == 10


@pytest.mark.parametrize("days", [0, -1, 366, 1.5, True])
def test_days_out_of_range_are_refused_naming_the_range(reviewer, days):
    with pytest.raises(Exception) as refused:
        tokens.token_create(owner=reviewer, name="x", days=days)
    assert refused.value.message_dict == {"days": [tokens.DAYS_OUT_OF_RANGE.format(maximum=365)]}
    assert not ApiToken.objects.exists()


def test_the_page_makes_a_token_shows_it_once_and_lists_it(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/api-tokens/", {"name": "CDX intake", "days": "30"})
    assert response.status_code == 200
    token = response.context["new_token"].token
    assert token in response.content.decode()
    row = ApiToken.objects.get(owner=reviewer)
    assert row.digest == tokens.digest(token)
    again = client.get("/api-tokens/").content.decode()
    assert token not in again and "CDX intake" in again and row.shown_prefix in again
    assert Api(client, token).get("/api/v1/scenarios").status_code == 200


def test_the_page_says_what_is_wrong_with_a_field(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/api-tokens/", {"name": "x", "days": "999"})
    assert response.status_code == 400
    html = response.content.decode()
    assert tokens.DAYS_OUT_OF_RANGE.format(maximum=365) in html
    assert 'aria-invalid="true"' in html and 'id="id_days_error"' in html
    assert not ApiToken.objects.exists()


def test_the_owner_revokes_a_token_and_it_is_refused_from_then_on(client, reviewer):
    token = make_token(reviewer)
    row = ApiToken.objects.get()
    client.force_login(reviewer)
    assert client.post("/api-tokens/revoke/", {"token": row.pk}).status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is not None and row.revoked_by == reviewer
    client.logout()
    response = Api(client, token).get("/api/v1/cases")
    assert response.status_code == 401 and "revoked" in response.json()["errors"]["__all__"]


def test_nobody_revokes_another_persons_token_on_the_page(client, reviewer, supervisor):
    make_token(reviewer)
    client.force_login(supervisor)
    assert client.post("/api-tokens/revoke/", {"token": ApiToken.objects.get().pk}).status_code == 404
    assert ApiToken.objects.get().revoked_at is None


def test_an_administrator_revokes_any_token_in_the_admin(client, reviewer, django_user_model):
    make_token(reviewer)
    admin = django_user_model.objects.create_superuser("boss", password="pw-for-tests-only")
    client.force_login(admin)
    assert client.get("/admin/api/apitoken/").status_code == 200
    response = client.post("/admin/api/apitoken/", {"action": "revoke", "_selected_action": [ApiToken.objects.get().pk]})
    assert response.status_code == 302
    assert ApiToken.objects.get().revoked_by == admin


def test_the_command_prints_the_token_once(reviewer):
    out, err = StringIO(), StringIO()
    call_command("api_token", "rev", "--name", "nightly", "--days", "7", stdout=out, stderr=err)
    token = out.getvalue().strip()
    assert ApiToken.objects.get().digest == tokens.digest(token)
    assert token not in err.getvalue()


def test_the_command_refuses_an_unknown_user_and_bad_days(reviewer):
    with pytest.raises(CommandError):
        call_command("api_token", "nobody", "--name", "x")
    with pytest.raises(CommandError, match="1 to 365"):
        call_command("api_token", "rev", "--name", "x", "--days", "0")
    assert not ApiToken.objects.exists()


@override_settings(API_RATE_LIMIT_PER_MINUTE=3)
def test_the_rate_limit_answers_429_with_retry_after(client, reviewer):
    api = Api(client, make_token(reviewer))
    assert [api.get("/api/v1/scenarios").status_code for _ in range(3)] == [200, 200, 200]
    refused = api.get("/api/v1/scenarios")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["errors"]["__all__"].startswith("Too many requests")
    other = Api(client, make_token(reviewer, name="other"))  # per token
    assert other.get("/api/v1/scenarios").status_code == 200


def test_last_used_is_recorded(client, reviewer):
    api = Api(client, make_token(reviewer))
    assert ApiToken.objects.get().last_used_at is None
    api.get("/api/v1/scenarios")
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.usefixtures("toy_engine")
def test_api_reads_of_a_cbi_case_are_in_its_custody_log(client, reviewer):
    draft = draft_with_result(reviewer, cbi_claims=["submitter"])
    api = Api(client, make_token(reviewer, name="dashboard"))
    before = CbiAccess.objects.count()
    api.get(f"/api/v1/cases/{draft.submission_id}")
    api.get(f"/api/v1/assessments/{draft.pk}")
    api.get(f"/api/v1/uses/{draft.scenarios.get().pk}")
    api.get(f"/api/v1/assessments/{draft.pk}/report.docx")
    api.get(f"/api/v1/assessments/{draft.pk}/report.docx?copy=sanitised")  # a sanitised copy: no row
    api.get(f"/api/v1/cases/{draft.submission_id}/export")
    rows = list(CbiAccess.objects.order_by("pk")[before:])
    assert [row.what for row in rows] == ["case_page", "assessment_page", "use_results", "irer_docx", "export"]
    assert all(row.user == reviewer and "API (token “dashboard”)" in row.detail for row in rows)
