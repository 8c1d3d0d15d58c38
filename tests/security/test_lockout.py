"""Login throttling (audit.lockout.LoginThrottle over django-axes), with the default limits:
5 failed logins for one username from one address start progressive delays for that pair
(15 s after the last failure, doubled with each further failure, at most 300 s); an attempt
during a wait is refused unchecked and not counted; the right password after it logs in.
20 failures from one address under usernames that have no account mark the address: its
failed logins are answered 429, a right password still logs in. Nobody's failures lock a
user out (issue 27: five made-up names behind a proxy locked every user out for 15 minutes).

Time passes by moving the recorded attempts back, as the throttle reads them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.exceptions import AxesBackendRequestParameterRequired
from axes.models import AccessAttempt
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from audit.lockout import ADDRESS_MARKED, delay_after
from audit.models import AuthEvent

from ._production import production_settings, run_in_production

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "pw-for-tests-only"  # tests.conftest.make_user's
OTHER_ADDRESS = "192.0.2.7"


def fail(client, username="rev", times=1, **extra):
    for _ in range(times):
        response = client.post(LOGIN, {"username": username, "password": "wrong-password"}, **extra)
    return response


def log_in(client, username="rev", **extra):
    return client.post(LOGIN, {"username": username, "password": PASSWORD}, **extra)


def seconds_pass(seconds: float) -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=seconds))


def recorded_failures(username: str) -> int:
    return sum(a.failures_since_start for a in AccessAttempt.objects.filter(username=username))


# --- one username from one address: progressive delays -------------------------------------


def test_four_failures_do_not_delay(client, reviewer):
    assert fail(client, times=4).status_code == 200
    assert log_in(client).status_code == 302


def test_fifth_failure_starts_a_wait(client, reviewer):
    assert fail(client, times=4).status_code == 200
    response = fail(client)
    assert response.status_code == 429
    assert response["Retry-After"] == "15"


def test_right_password_during_the_wait_is_refused_unchecked_and_not_counted(client, reviewer):
    fail(client, times=5)
    response = log_in(client)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    fail(client, times=3)  # refused too, not counted: the wait does not grow
    assert recorded_failures("rev") == 5
    assert 0 < int(fail(client)["Retry-After"]) <= 15


def test_right_password_after_the_wait_logs_in(client, reviewer):
    fail(client, times=5)
    seconds_pass(14)
    assert log_in(client).status_code == 429
    seconds_pass(1.5)
    assert log_in(client).status_code == 302


def test_each_further_failure_doubles_the_wait(client, reviewer):
    fail(client, times=5)
    waits = []
    for _ in range(4):
        seconds_pass(delay_after(recorded_failures("rev")).total_seconds() + 1)
        response = fail(client)  # checked, and wrong
        waits.append(response["Retry-After"])
    assert waits == ["30", "60", "120", "240"]


def test_the_wait_is_at_most_the_longest_delay(client, reviewer):
    fail(client, times=5)
    AccessAttempt.objects.update(failures_since_start=60)  # someone kept failing for this user from here
    seconds_pass(299)
    assert log_in(client).status_code == 429
    seconds_pass(2)  # 300 s after the last failure: LOGIN_MAX_DELAY_SECONDS
    assert log_in(client).status_code == 302


def test_someone_elses_failures_only_delay_a_known_user(client, reviewer, supervisor):
    # Someone at the supervisor's address (a shared network, a proxy) fails as "sup" ...
    fail(client, username="sup", times=5)
    seconds_pass(300 + 1)
    # ... and the supervisor, with the right password, gets in after the wait, not 15 minutes later.
    assert log_in(client, username="sup").status_code == 302


def test_a_wait_is_for_that_username_from_that_address(client, reviewer, supervisor):
    fail(client, times=5)
    assert log_in(client, REMOTE_ADDR=OTHER_ADDRESS).status_code == 302  # the same user elsewhere
    client.logout()
    assert log_in(client, username="sup").status_code == 302  # another user from the same address


def test_made_up_names_from_one_address_keep_nobody_out(client, reviewer, supervisor):
    # Issue 27: behind a proxy every client had one address, and five made-up names locked everyone out.
    for number in range(30):
        fail(client, username=f"made-up-{number}")
    assert log_in(client, username="sup").status_code == 302
    client.logout()
    assert log_in(client).status_code == 302


def test_successful_login_clears_its_failures(client, reviewer):
    fail(client, times=4)
    assert log_in(client).status_code == 302
    client.logout()
    assert fail(client, times=4).status_code == 200  # counting starts again


def test_failures_are_forgotten_after_the_cool_off(client, reviewer):
    fail(client, times=5)
    seconds_pass(15 * 60 + 1)
    assert fail(client, times=4).status_code == 200  # counting starts again


def test_answers_do_not_tell_whether_a_username_exists(client, reviewer):
    def answers(username):
        responses = [fail(client, username=username) for _ in range(6)]
        return [(r.status_code, r.get("Retry-After")) for r in responses]

    assert answers("rev") == answers("nobody-of-that-name")


def test_admin_login_is_throttled_too(client, django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    for _ in range(5):
        response = client.post("/admin/login/", {"username": "root", "password": "wrong-password"})
    assert response.status_code == 429


def test_waits_are_audited_as_lockouts(client, reviewer):
    fail(client, times=6)
    kinds = list(AuthEvent.objects.order_by("pk").values_list("kind", flat=True))
    assert kinds == [AuthEvent.Kind.LOGIN_FAILED] * 4 + [AuthEvent.Kind.LOCKED_OUT] * 2


# --- one address, usernames that have no account --------------------------------------------


def test_unknown_usernames_from_one_address_mark_it(client, reviewer):
    for number in range(19):
        assert fail(client, username=f"made-up-{number}").status_code == 200
    response = fail(client, username="made-up-19")  # the twentieth
    assert response.status_code == 429
    assert ADDRESS_MARKED in response.context["form"].non_field_errors()


def test_a_marked_address_answers_every_failure_alike_and_lets_the_right_password_in(client, reviewer):
    for number in range(20):
        fail(client, username=f"made-up-{number}")
    known, unknown = fail(client, username="rev"), fail(client, username="made-up-20")
    assert known.status_code == unknown.status_code == 429
    assert known.context["form"].non_field_errors() == unknown.context["form"].non_field_errors()
    assert AuthEvent.objects.filter(kind=AuthEvent.Kind.LOCKED_OUT).count() == 3
    assert log_in(client).status_code == 302


def test_a_marked_address_is_only_that_address(client, reviewer):
    for number in range(20):
        fail(client, username=f"made-up-{number}")
    assert fail(client, username="made-up-20", REMOTE_ADDR=OTHER_ADDRESS).status_code == 200


def test_known_usernames_do_not_count_towards_the_address(client, django_user_model):
    for name in ("u1", "u2", "u3", "u4", "u5", "u6"):
        django_user_model.objects.create_user(username=name, password=PASSWORD)
        fail(client, username=name, times=4)  # 24 failures from this address, none a made-up name
    assert fail(client, username="made-up").status_code == 200


# --- the lockout page ------------------------------------------------------------------------


def test_lockout_page_explains(client, reviewer):
    response = fail(client, times=5)
    assert response.status_code == 429
    assert "registration/lockout.html" in [t.name for t in response.templates]
    assert response["Retry-After"] == "15"
    text = response.content.decode()
    assert "Too many failed logins" in text
    assert "After 5 failed logins for <strong>rev</strong> from this computer, logging in as this user" in text
    retry_at = response.context["retry_at"]
    # The time shown is the next whole minute after the wait, so an attempt then is checked.
    assert retry_at.second == 0 and timedelta(seconds=15) <= retry_at - timezone.now() <= timedelta(seconds=75)
    assert f"Try again after <strong>{retry_at:%-I:%M} " in text
    assert "Ask an administrator" in text


def test_lockout_page_escapes_the_username(client):
    response = fail(client, username="<b>x</b>", times=5)
    assert response.status_code == 429
    assert "&lt;b&gt;x&lt;/b&gt;" in response.content.decode() and "<b>x</b>" not in response.content.decode()


# --- the limits: declared once, from the environment -----------------------------------------

LIMITS = ("LOGIN_FAILURE_LIMIT", "LOGIN_ADDRESS_FAILURE_LIMIT", "LOGIN_COOLOFF_MINUTES", "LOGIN_DELAY_SECONDS",
          "LOGIN_MAX_DELAY_SECONDS", "AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME")


def test_limits_from_the_environment():
    values = production_settings(*LIMITS, LOGIN_FAILURE_LIMIT="3", LOGIN_ADDRESS_FAILURE_LIMIT="50",
                                 LOGIN_COOLOFF_MINUTES="60", LOGIN_DELAY_SECONDS="5", LOGIN_MAX_DELAY_SECONDS="600")
    assert values == {"LOGIN_FAILURE_LIMIT": 3, "LOGIN_ADDRESS_FAILURE_LIMIT": 50, "LOGIN_COOLOFF_MINUTES": 60,
                      "LOGIN_DELAY_SECONDS": 5, "LOGIN_MAX_DELAY_SECONDS": 600,
                      "AXES_FAILURE_LIMIT": 3, "AXES_COOLOFF_TIME": "1:00:00"}


def test_lockout_defaults_in_production():
    values = production_settings(*LIMITS, "AXES_LOCKOUT_PARAMETERS", "AXES_HANDLER", "AUTHENTICATION_BACKENDS")
    assert values == {
        "LOGIN_FAILURE_LIMIT": 5, "LOGIN_ADDRESS_FAILURE_LIMIT": 20, "LOGIN_COOLOFF_MINUTES": 15,
        "LOGIN_DELAY_SECONDS": 15, "LOGIN_MAX_DELAY_SECONDS": 300, "AXES_FAILURE_LIMIT": 5,
        "AXES_COOLOFF_TIME": "0:15:00", "AXES_LOCKOUT_PARAMETERS": [["username", "ip_address"]],
        "AXES_HANDLER": "audit.lockout.LoginThrottle",
        "AUTHENTICATION_BACKENDS": ["axes.backends.AxesStandaloneBackend", "signin.backends.LocalAccountBackend",
                                    "signin.backends.IdentityBackend"],
    }


@pytest.mark.parametrize(("env", "message"), [
    ({"LOGIN_FAILURE_LIMIT": "five"}, "LOGIN_FAILURE_LIMIT must be a whole number of at least 1, not 'five'."),
    ({"LOGIN_ADDRESS_FAILURE_LIMIT": "0"}, "LOGIN_ADDRESS_FAILURE_LIMIT must be a whole number of at least 1, not '0'."),
    ({"LOGIN_MAX_DELAY_SECONDS": "3600"},
     "LOGIN_MAX_DELAY_SECONDS must be at least LOGIN_DELAY_SECONDS (15) and at most LOGIN_COOLOFF_MINUTES in seconds "
     "(900), not 3600."),
])
def test_a_limit_out_of_range_is_refused_by_name(env, message):
    result = run_in_production("", **env)
    assert result.returncode != 0
    assert message in result.stderr


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
