"""Login throttling (django-axes): 5 failed logins for one username from one address lock
that pair out for the cool-off (15 minutes by default), 5 failed logins from one address
whatever the usernames lock that address, attempts during a lock do not prolong it, and the
lockout page says so."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.exceptions import AxesBackendRequestParameterRequired
from axes.models import AccessAttempt
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from ._production import production_settings

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "pw-for-tests-only"  # tests.conftest.make_user's


def fail(client, username="rev", times=1, **extra):
    for _ in range(times):
        response = client.post(LOGIN, {"username": username, "password": "wrong-password"}, **extra)
    return response


def test_four_failures_do_not_lock(client, reviewer):
    assert fail(client, times=4).status_code == 200
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}).status_code == 302


def test_login_locked_after_five_failures(client, reviewer):
    assert fail(client, times=4).status_code == 200
    assert fail(client).status_code == 429  # the fifth


def test_correct_password_refused_while_locked(client, reviewer):
    fail(client, times=5)
    response = client.post(LOGIN, {"username": "rev", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_lock_is_for_that_address_not_for_the_user_elsewhere(client, reviewer, supervisor):
    fail(client, times=5)
    # The same user from another address still logs in; the address is locked for everyone.
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}, REMOTE_ADDR="192.0.2.7").status_code == 302
    client.logout()
    assert client.post(LOGIN, {"username": "sup", "password": PASSWORD}).status_code == 429


def test_one_address_trying_many_usernames_is_locked(client, reviewer, supervisor):
    for name in ("alice", "bob", "carol", "dave"):
        assert fail(client, username=name).status_code == 200
    assert fail(client, username="erin").status_code == 429  # the fifth failure from this address
    assert client.post(LOGIN, {"username": "sup", "password": PASSWORD}).status_code == 429
    client.logout()
    assert client.post(LOGIN, {"username": "sup", "password": PASSWORD}, REMOTE_ADDR="192.0.2.8").status_code == 302


def test_attempts_during_a_lock_do_not_prolong_it(client, reviewer):
    fail(client, times=5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert fail(client, times=3).status_code == 429  # refused while locked, and the clock not restarted
    assert all(a.attempt_time < timezone.now() - timedelta(minutes=13) for a in AccessAttempt.objects.all())
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=1, seconds=1))
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}).status_code == 302


def test_lock_lifts_after_the_cool_off(client, reviewer):
    fail(client, times=5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}).status_code == 302


def test_lock_holds_until_the_cool_off_ends(client, reviewer):
    fail(client, times=5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14, seconds=50))
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}).status_code == 429


def test_successful_login_clears_earlier_failures(client, reviewer):
    fail(client, times=4)
    assert client.post(LOGIN, {"username": "rev", "password": PASSWORD}).status_code == 302
    client.logout()
    assert fail(client, times=4).status_code == 200  # counting starts again


def test_admin_login_is_throttled_too(client, django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    for _ in range(5):
        response = client.post("/admin/login/", {"username": "root", "password": "wrong-password"})
    assert response.status_code == 429


def test_lockout_page_explains(client, reviewer):
    response = fail(client, times=5)
    assert response.status_code == 429
    assert "registration/lockout.html" in [t.name for t in response.templates]
    assert response["Retry-After"] == "900"
    text = response.content.decode()
    assert "Too many failed logins" in text
    assert "After 5 failed logins for <strong>rev</strong> from this computer, logging in as this user" in text
    retry_at = timezone.localtime(timezone.now() + timedelta(minutes=15))
    assert f"Try again after <strong>{retry_at:%-I:%M} " in text and "(15 minutes from now)" in text
    assert "Ask an administrator" in text


def test_lockout_page_escapes_the_username(client):
    response = fail(client, username="<b>x</b>", times=5)
    assert response.status_code == 429
    assert "&lt;b&gt;x&lt;/b&gt;" in response.content.decode() and "<b>x</b>" not in response.content.decode()


def test_failure_limit_and_cool_off_from_the_environment():
    values = production_settings("AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME", LOGIN_FAILURE_LIMIT="3",
                                 LOGIN_COOLOFF_MINUTES="60")
    assert values == {"AXES_FAILURE_LIMIT": 3, "AXES_COOLOFF_TIME": "1:00:00"}


def test_lockout_defaults_in_production():
    values = production_settings("AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME", "AXES_LOCKOUT_PARAMETERS",
                                 "AUTHENTICATION_BACKENDS")
    assert values == {
        "AXES_FAILURE_LIMIT": 5, "AXES_COOLOFF_TIME": "0:15:00", "AXES_LOCKOUT_PARAMETERS": [["username", "ip_address"], "ip_address"],
        "AUTHENTICATION_BACKENDS": ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"],
    }


def test_attempt_records_hold_no_password(client, reviewer):
    client.post(LOGIN, {"username": "rev", "password": "my-secret-guess"})
    attempt = AccessAttempt.objects.get()
    assert "my-secret-guess" not in attempt.post_data and "my-secret-guess" not in attempt.get_data


# The test suite logs users in with force_login, which never calls authenticate(), so
# axes does not see it; the test client's login() calls authenticate() without a request,
# which axes refuses: give it one.


def test_force_login_works_with_the_axes_backends(client, reviewer):
    client.force_login(reviewer)
    assert client.get("/").status_code == 200


def test_test_client_login_needs_a_request_under_axes(client, reviewer):
    with pytest.raises(AxesBackendRequestParameterRequired):
        client.login(username="rev", password=PASSWORD)
    assert client.login(request=HttpRequest(), username="rev", password=PASSWORD)
    assert client.get("/").status_code == 200
