"""The audit trail of logins, logouts and failed logins (audit.AuthEvent): who, from
where, with which browser, when; never the attempted password; read-only in the admin."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from audit.client import client_ip
from audit.models import AuthEvent

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "pw-for-tests-only"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chromium/140"


def test_successful_login_is_audited(client, reviewer):
    client.post(LOGIN, {"username": "rev", "password": PASSWORD}, HTTP_USER_AGENT=BROWSER, REMOTE_ADDR="192.0.2.10")
    event = AuthEvent.objects.get()
    assert (event.kind, event.username, event.user, event.ip, event.user_agent) == (
        AuthEvent.Kind.LOGIN, "rev", reviewer, "192.0.2.10", BROWSER)


def test_failed_login_is_audited_without_password(client, reviewer):
    client.post(LOGIN, {"username": "rev", "password": "Tr0ub4dor&3-guess"}, HTTP_USER_AGENT=BROWSER)
    event = AuthEvent.objects.get()
    assert (event.kind, event.username, event.user, event.ip) == (AuthEvent.Kind.LOGIN_FAILED, "rev", reviewer, "127.0.0.1")
    stored = [str(value) for row in AuthEvent.objects.values_list() for value in row]
    assert not any("Tr0ub4dor" in value for value in stored)


def test_failed_login_for_an_unknown_username_is_audited(client):
    client.post(LOGIN, {"username": "nobody", "password": "whatever-it-is"})
    event = AuthEvent.objects.get()
    assert (event.kind, event.username, event.user) == (AuthEvent.Kind.LOGIN_FAILED, "nobody", None)


def test_logout_is_audited(client, reviewer):
    client.force_login(reviewer)
    client.post("/accounts/logout/", HTTP_USER_AGENT=BROWSER)
    event = AuthEvent.objects.latest("pk")
    assert (event.kind, event.user, event.username, event.user_agent) == (AuthEvent.Kind.LOGOUT, reviewer, "rev", BROWSER)


def test_logout_without_login_is_not_audited(client):
    client.post("/accounts/logout/")
    assert not AuthEvent.objects.exists()


def test_locked_out_attempts_are_audited_as_such(client, reviewer):
    for _ in range(6):
        client.post(LOGIN, {"username": "rev", "password": "wrong-password"})
    kinds = list(AuthEvent.objects.order_by("pk").values_list("kind", flat=True))
    # Four failures, the fifth locks, the sixth is refused.
    assert kinds == ["login_failed"] * 4 + ["locked_out"] * 2


def test_deleting_a_user_keeps_their_trail(client, reviewer):
    client.force_login(reviewer)
    reviewer.delete()
    event = AuthEvent.objects.get()
    assert (event.kind, event.user, event.username) == (AuthEvent.Kind.LOGIN, None, "rev")


def test_audit_trail_is_read_only_in_the_admin(client, django_user_model, reviewer):
    root = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client.force_login(reviewer)  # an event to look at
    client.force_login(root)
    event = AuthEvent.objects.filter(username="rev").get()
    listing = client.get("/admin/audit/authevent/")
    assert listing.status_code == 200 and "rev" in listing.content.decode()
    change = client.get(f"/admin/audit/authevent/{event.pk}/change/")
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()  # view only
    assert client.get("/admin/audit/authevent/add/").status_code == 403
    assert client.post(f"/admin/audit/authevent/{event.pk}/change/", {"kind": "logout"}).status_code == 403
    assert client.post(f"/admin/audit/authevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuthEvent.objects.filter(pk=event.pk, kind="login").exists()


def test_client_address_is_remote_addr_without_a_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.66")
    assert client_ip(request) == "192.0.2.1"  # a client-written header is ignored


def test_client_address_behind_a_trusted_proxy_is_the_one_it_saw(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client forged the first entry; the proxy appended the address it saw.
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.66, 198.51.100.23")
    assert client_ip(request) == "198.51.100.23"


def test_client_address_that_is_not_an_address_is_not_stored(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(RequestFactory().get("/", HTTP_X_FORWARDED_FOR="not-an-ip")) is None
    assert client_ip(RequestFactory().get("/")) is None  # the header missing


def test_lockout_and_audit_see_the_same_client_behind_a_proxy(client, reviewer, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(5):
        response = client.post(LOGIN, {"username": "rev", "password": "wrong-password"},
                               HTTP_X_FORWARDED_FOR="198.51.100.23")
    assert response.status_code == 429
    assert set(AuthEvent.objects.values_list("ip", flat=True)) == {"198.51.100.23"}
    # Another client behind the same proxy is not locked out.
    other = client.post(LOGIN, {"username": "rev", "password": PASSWORD}, HTTP_X_FORWARDED_FOR="198.51.100.24")
    assert other.status_code == 302
