"""How long a login lasts: SESSION_COOKIE_AGE (8 hours) at most, SESSION_IDLE_TIMEOUT
(30 minutes) without a request, and the session cookie ends with the browser."""

from __future__ import annotations

import time

import pytest

from audit.models import AuthEvent
from audit.sessions import LOGIN_AT, SEEN_AT

pytestmark = pytest.mark.django_db


def shift_clocks(client, *, login_ago: int, seen_ago: int) -> None:
    session = client.session
    now = int(time.time())
    session[LOGIN_AT] = now - login_ago
    session[SEEN_AT] = now - seen_ago
    session.save()


def test_active_session_continues(client, reviewer):
    client.force_login(reviewer)
    shift_clocks(client, login_ago=8 * 3600 - 60, seen_ago=30 * 60 - 60)
    assert client.get("/").status_code == 200


def test_session_ends_after_idle_timeout(client, reviewer):
    client.force_login(reviewer)
    shift_clocks(client, login_ago=3600, seen_ago=30 * 60 + 1)
    response = client.get("/", follow=True)
    assert response.redirect_chain[0] == ("/accounts/login/?next=/", 302)
    assert "You were logged out after 30 minutes without activity" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_session_ends_after_absolute_age(client, reviewer):
    client.force_login(reviewer)
    shift_clocks(client, login_ago=8 * 3600 + 1, seen_ago=10)
    response = client.get("/", follow=True)
    assert response.redirect_chain[0] == ("/accounts/login/?next=/", 302)
    assert "Your login lasts at most 8 hours" in response.content.decode()


def test_each_request_restarts_the_idle_clock(client, reviewer):
    client.force_login(reviewer)
    shift_clocks(client, login_ago=3600, seen_ago=25 * 60)
    assert client.get("/").status_code == 200
    assert int(time.time()) - client.session[SEEN_AT] < 5


def test_idle_timeout_can_be_turned_off(client, reviewer, settings):
    settings.SESSION_IDLE_TIMEOUT = 0
    client.force_login(reviewer)
    shift_clocks(client, login_ago=3600, seen_ago=3600)
    assert client.get("/").status_code == 200


def test_login_starts_both_clocks(client, reviewer):
    client.post("/accounts/login/", {"username": "rev", "password": "pw-for-tests-only"})
    now = int(time.time())
    assert now - client.session[LOGIN_AT] < 5 and now - client.session[SEEN_AT] < 5


def test_expired_session_is_audited(client, reviewer):
    client.force_login(reviewer)
    shift_clocks(client, login_ago=3600, seen_ago=3600)
    client.get("/")
    event = AuthEvent.objects.latest("pk")
    assert (event.kind, event.user) == (AuthEvent.Kind.SESSION_EXPIRED, reviewer)


def test_session_cookie_ends_with_the_browser_and_is_flagged(client, reviewer):
    response = client.post("/accounts/login/", {"username": "rev", "password": "pw-for-tests-only"})
    cookie = response.cookies["sessionid"]
    assert cookie["expires"] == "" and cookie["max-age"] == ""  # a browser-session cookie
    assert (cookie["secure"], cookie["httponly"], cookie["samesite"]) == (True, True, "Lax")
