"""``/healthz`` (reviewer/health.py): the web process's health check."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError

from reviewer import health

from .security._production import production_get

pytestmark = pytest.mark.django_db


def test_answers_ok_without_a_login_and_is_never_cached(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-store" in response["Cache-Control"]
    assert "sessionid" not in response.cookies


def test_head_is_answered_as_get_without_a_body(client):
    response = client.head("/healthz")
    assert response.status_code == 200 and response.content == b""


def test_post_is_refused(client):
    assert client.post("/healthz").status_code == 405


def test_unreachable_database_answers_503_and_names_no_error(client, monkeypatch, caplog):
    class Down:
        def __enter__(self):
            raise OperationalError("connection to server at 10.0.0.5 failed: password authentication failed")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: Down())
    response = client.get("/healthz")
    assert response.status_code == health.UNAVAILABLE_STATUS
    assert json.loads(response.content) == {"status": "unavailable"}
    assert b"10.0.0.5" not in response.content and b"password" not in response.content
    assert "did not answer" in caplog.text and "10.0.0.5" not in caplog.text


def test_plain_http_reaches_it_where_every_other_page_is_redirected():
    assert production_get("/accounts/login/", secure=False)["status"] == 301
    assert production_get("/healthz", secure=False)["status"] in (200, health.UNAVAILABLE_STATUS)
