"""PIV at the proxy (signin.piv) and local accounts (signin.backends): the certificate's
subject is believed only from the TLS proxy, signs in the account it is linked to, and ends
that session when another certificate (or none) comes; local passwords sign in everyone for
the quick start, and only the named break-glass administrators when LOCAL_SIGN_IN is off.
``manage.py signin`` links identities, checking its input as the admin would."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.core.management.base import SystemCheckError

from signin import config
from signin.checks import sign_in_settings
from signin.middleware import PIV_NOT_LINKED
from signin.models import PIV_ISSUER, Identity
from signin.views import NOT_CONFIGURED

pytestmark = pytest.mark.django_db

DN = "CN=RITA REVIEWER 1234567890,OU=Environmental Protection Agency,O=U.S. Government,C=US"
PROXY = "10.0.0.5"


@pytest.fixture
def piv(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.PIV_SUBJECT_HEADER = "X-SSL-Client-S-DN"
    settings.PIV_VERIFY_HEADER = "X-SSL-Client-Verify"
    settings.PIV_PROXY_ADDRESSES = "10.0.0.0/24"
    return settings


@pytest.fixture
def rita(reviewer):
    Identity.objects.create(user=reviewer, issuer=PIV_ISSUER, subject=DN)
    return reviewer


def _headers(subject: str = DN, *, verified: str = "SUCCESS", remote: str = PROXY) -> dict:
    return {"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": "203.0.113.7", "HTTP_X_SSL_CLIENT_S_DN": subject,
            "HTTP_X_SSL_CLIENT_VERIFY": verified}


def test_a_verified_certificate_through_the_proxy_signs_in_its_linked_account(piv, rita, client):
    response = client.get("/", **_headers())
    assert response.status_code == 200 and response.wsgi_request.user == rita


def test_the_subject_header_is_ignored_from_anywhere_but_the_proxy(piv, rita, client):
    """A client that reaches the application directly and sets the header itself."""
    response = client.get("/", **_headers(remote="198.51.100.9"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_an_unverified_certificate_signs_nobody_in(piv, rita, client):
    response = client.get("/", **_headers(verified="FAILED:certificate has expired"))
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_a_certificate_linked_to_no_account_is_told_so(piv, rita, client):
    other = "CN=SOMEONE ELSE,O=U.S. Government,C=US"
    response = client.get("/", follow=True, **_headers(other))
    assert PIV_NOT_LINKED.format(subject=other) in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_another_certificate_ends_the_session(piv, rita, client, supervisor):
    client.get("/", **_headers())
    assert client.session["_auth_user_id"] == str(rita.pk)
    response = client.get("/", **_headers("CN=NOT LINKED,C=US"))
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_piv_needs_a_trusted_proxy(settings):
    settings.PIV_SUBJECT_HEADER = "X-SSL-Client-S-DN"
    settings.TRUSTED_PROXY_COUNT = None
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXY_COUNT"):
        config.piv()


def test_local_accounts_sign_in_for_the_quick_start(client, reviewer):
    assert client.post("/accounts/login/", {"username": reviewer.username, "password": "pw-for-tests-only"}
                       ).status_code == 302


def test_with_local_sign_in_off_only_break_glass_administrators_may_use_a_password(client, settings, reviewer):
    admin = User.objects.create_superuser("breakglass", password="break-glass-pw-123")
    settings.LOCAL_SIGN_IN = False
    settings.BREAK_GLASS_USERS = "breakglass"
    refused = client.post("/accounts/login/", {"username": reviewer.username, "password": "pw-for-tests-only"})
    assert refused.status_code == 200 and "_auth_user_id" not in client.session
    allowed = client.post("/accounts/login/", {"username": "breakglass", "password": "break-glass-pw-123"})
    assert allowed.status_code == 302 and client.session["_auth_user_id"] == str(admin.pk)


def test_the_command_links_a_certificate_and_a_provider_subject(reviewer, capsys):
    call_command("signin", "link-piv", reviewer.username, DN)
    call_command("signin", "link", reviewer.username, "--issuer", "https://login.agency.example/", "--subject", "a1b2")
    assert set(Identity.objects.filter(user=reviewer).values_list("issuer", "subject")) == {
        (PIV_ISSUER, DN), ("https://login.agency.example", "a1b2")}
    with pytest.raises(CommandError, match="No account named 'nobody'"):
        call_command("signin", "link", "nobody", "--issuer", "https://x.example", "--subject", "s")
    with pytest.raises(CommandError, match="already linked"):
        call_command("signin", "link-piv", reviewer.username, DN)
    with pytest.raises(CommandError, match="at most 255 characters"):
        call_command("signin", "link-piv", reviewer.username, "C" * 256)


def test_single_sign_on_not_set_up_sends_to_the_login_page_saying_so(client):
    response = client.get("/accounts/sso/start/", follow=True)
    assert response.redirect_chain == [("/accounts/login/", 302)]
    assert NOT_CONFIGURED in response.content.decode()
    assert "Sign in with" not in response.content.decode()  # no button either


@pytest.mark.parametrize("changes, words", [
    ({"OIDC_CLIENT_ID": ""}, "OIDC_CLIENT_ID is required"),
    ({"OIDC_CLIENT_AUTH": "client_secret_post"}, "OIDC_CLIENT_AUTH must be one of private_key_jwt, client_secret_basic"),
    ({"OIDC_CLIENT_AUTH": "client_secret_basic", "OIDC_CLIENT_SECRET": ""}, "OIDC_CLIENT_SECRET is required"),
    ({"OIDC_PRIVATE_KEY_FILE": "/nonexistent/key.pem"}, "OIDC_PRIVATE_KEY_FILE: cannot read '/nonexistent/key.pem'"),
])
def test_a_half_configured_provider_is_an_error_of_manage_py_check(settings, changes, words):
    settings.OIDC_ISSUER = "https://sso.agency.example"
    settings.OIDC_CLIENT_ID = "pmn-review"
    settings.OIDC_CLIENT_AUTH = "private_key_jwt"
    settings.OIDC_PRIVATE_KEY_FILE = __file__  # readable: a PEM's text is read as text
    for name, value in changes.items():
        setattr(settings, name, value)
    errors = sign_in_settings()
    assert [error.id for error in errors] == ["signin.E001"] and words in errors[0].msg
    with pytest.raises(SystemCheckError, match=r"signin\.E001"):
        call_command("check")


def test_a_complete_provider_setting_passes_the_check(settings):
    settings.OIDC_ISSUER = "https://sso.agency.example"
    settings.OIDC_CLIENT_ID = "pmn-review"
    settings.OIDC_CLIENT_AUTH = "client_secret_basic"
    settings.OIDC_CLIENT_SECRET = "s3cret"
    assert sign_in_settings() == []
