"""Single sign-on through a real OpenID Connect provider (tests/oidc/conftest.py): the first
sign-in creates the account, linked by the provider's subject and never by e-mail; roles and
CBI clearance come from the provider's groups at each sign-in and each renewal (a change of
clearance in the custody log); the client authenticates by private_key_jwt, or by
client_secret_basic; the provider's keys rotate without a restart; sign-out ends both
sessions; API tokens die with their owner's roles."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils.html import escape

from api.tokens import NO_ROLE_OWNER, TokenRefused, token_authenticate, token_create
from assessments.roles import is_cbi_cleared, is_supervisor
from audit.models import CbiAccess
from signin import oidc
from signin.accounts import NO_ROLE, NOT_LINKED
from signin.middleware import NO_ROLE_NOW
from signin.models import Identity
from signin.views import SESSION_OIDC
from tests.conftest import make_submission

from .conftest import BASIC_CLIENT_ID, BASIC_SECRET, CLIENT_ID, PIV_ACR, make_key, sign_in_http

pytestmark = pytest.mark.django_db(transaction=True)


def _user(provider, subject: str) -> User:
    return Identity.objects.get(issuer=provider.issuer, subject=subject).user


def test_a_first_sign_in_creates_the_account_linked_by_subject_with_the_groups_roles(provider, client):
    start = client.get("/accounts/sso/start/?next=/review/")
    asked = parse_qs(urlsplit(start["Location"]).query)
    assert asked["code_challenge_method"] == ["S256"] and len(asked["code_challenge"][0]) == 43  # PKCE
    assert asked["nonce"][0] and asked["state"][0] and asked["response_type"] == ["code"]
    response, _ = sign_in_http(client, "cleo", next_url="/review/")
    assert response.status_code == 302 and response["Location"] == "/review/"
    user = _user(provider, "cleo")
    assert user.username == "cleo" and (user.first_name, user.last_name) == ("Cleo", "Cleared")
    assert not user.has_usable_password()  # signs in through the provider only
    assert is_cbi_cleared(user) and not is_supervisor(user)
    assert client.get("/").status_code == 200
    # The session keeps what sign-out and renewal need.
    record = client.session[SESSION_OIDC]
    assert record["subject"] == "cleo" and record["id_token"] and record["refresh_token"]


def test_the_second_sign_in_finds_the_same_account(provider, client):
    sign_in_http(client, "rita")
    first = _user(provider, "rita")
    client.logout()
    sign_in_http(client, "rita")
    assert _user(provider, "rita").pk == first.pk and User.objects.filter(identities__subject="rita").count() == 1


def test_a_person_is_never_linked_by_e_mail(provider, client):
    """A local account with the same e-mail address (and username) stays apart: the sign-in
    makes an account of its own."""
    local = User.objects.create_user("sam", email="sam@agency.example", password="local-password-123")
    sign_in_http(client, "sam")
    person = _user(provider, "sam")
    assert person.pk != local.pk and person.username == "sam-2"
    assert not Identity.objects.filter(user=local).exists()


def test_a_supervisor_is_a_supervisor_and_a_reviewer_is_not(provider, client):
    sign_in_http(client, "sam")
    assert is_supervisor(_user(provider, "sam"))
    sign_in_http(client, "uma")
    uma = _user(provider, "uma")
    assert not is_supervisor(uma) and not is_cbi_cleared(uma)


def test_roles_are_read_again_at_each_sign_in_and_a_clearance_change_is_in_the_custody_log(provider, client):
    sign_in_http(client, "uma")
    uma = _user(provider, "uma")
    assert not is_cbi_cleared(uma)
    provider.account("uma", groups=["pmn-reviewers", "pmn-cbi"])
    client.logout()
    sign_in_http(client, "uma")
    uma = User.objects.get(pk=uma.pk)
    assert is_cbi_cleared(uma)
    row = CbiAccess.objects.get(user=uma, kind=CbiAccess.Kind.CLEARANCE)
    assert row.detail.startswith("CBI clearance granted by " + provider.issuer) and "pmn-cbi" in row.detail
    assert row.case_number == "" and row.what == CbiAccess.What.SIGN_IN


def test_a_person_removed_from_the_cleared_group_loses_cbi_at_the_next_request_after_the_renewal(
        provider, client, settings):
    case = make_submission(is_cbi=True, cbi_claims=["chemical_name"])
    sign_in_http(client, "cleo")
    cleo = _user(provider, "cleo")
    assert client.get(f"/cases/{case.pk}/").status_code == 200
    provider.account("cleo", groups=["pmn-reviewers"])
    # Within the renewal interval the session holds what the sign-in gave ...
    assert client.get(f"/cases/{case.pk}/").status_code == 200
    # ... and at the first request after it, the provider's groups are read again.
    settings.OIDC_RENEW_SECONDS = 0
    assert client.get(f"/cases/{case.pk}/").status_code == 404
    assert not is_cbi_cleared(User.objects.get(pk=cleo.pk))
    row = CbiAccess.objects.get(user=cleo, kind=CbiAccess.Kind.CLEARANCE, detail__startswith="CBI clearance removed")
    assert "pmn-cbi" in row.detail
    assert client.get("/").status_code == 200  # still signed in, as a reviewer


def test_a_person_left_with_no_role_is_signed_out_and_their_api_tokens_stop(provider, client, settings):
    sign_in_http(client, "rita")
    rita = _user(provider, "rita")
    token = token_create(owner=rita, name="scripts", days=30).token
    assert token_authenticate(token).owner == rita
    provider.account("rita", groups=["other-program"])
    settings.OIDC_RENEW_SECONDS = 0
    response = client.get("/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert escape(NO_ROLE_NOW.format(name="Agency sign-in")) in response.content.decode()
    with pytest.raises(TokenRefused, match=NO_ROLE_OWNER):
        token_authenticate(token)


def test_a_person_whose_groups_give_no_role_is_refused_and_nothing_is_created(provider, client):
    users = User.objects.count()
    response, _ = sign_in_http(client, "nobody")
    assert response.status_code == 403
    assert escape(NO_ROLE.format(name="Agency sign-in")) in response.content.decode()
    assert User.objects.count() == users and not Identity.objects.filter(subject="nobody").exists()
    assert "_auth_user_id" not in client.session


def test_the_provider_refuses_the_client_without_private_key_jwt(provider, client, settings):
    """pmn-review is registered with private_key_jwt: a client secret in its place is refused
    by the provider (invalid_client), and the sign-in with it."""
    settings.OIDC_CLIENT_AUTH = "client_secret_basic"
    settings.OIDC_CLIENT_SECRET = "a-guess-at-a-secret"
    users = User.objects.count()
    response, _ = sign_in_http(client, "rita")
    assert response.status_code == 403 and "invalid_client" in response.content.decode()
    assert User.objects.count() == users


def test_client_secret_basic_signs_in_with_an_agency_provider_that_uses_it(provider, client, settings):
    settings.OIDC_CLIENT_ID = BASIC_CLIENT_ID
    settings.OIDC_CLIENT_AUTH = "client_secret_basic"
    settings.OIDC_CLIENT_SECRET = BASIC_SECRET
    response, _ = sign_in_http(client, "rita")
    assert response.status_code == 302 and _user(provider, "rita").is_active


def test_the_provider_s_keys_rotate_without_a_restart(provider, client, monkeypatch):
    sign_in_http(client, "rita")  # the application now holds the first key set
    monkeypatch.setattr(oidc, "REFETCH_SECONDS", 0)  # the rotation comes later than the minute between fetches
    client.logout()
    provider.start(signing_key=make_key("provider-2"))  # the provider signs with a new key
    try:
        response, _ = sign_in_http(client, "rita")
        assert response.status_code == 302
    finally:
        provider.start(signing_key=make_key("provider-1"))
        oidc.forget_provider()


def test_the_assurance_level_is_required_where_configured(provider, client, settings):
    settings.OIDC_REQUIRED_ACR = PIV_ACR
    provider.account("uma", acr="http://idmanagement.gov/ns/assurance/aal/1")
    response, _ = sign_in_http(client, "uma")
    assert response.status_code == 403 and "Please sign in with your PIV card" in response.content.decode()
    assert not Identity.objects.filter(subject="uma").exists()
    response, _ = sign_in_http(client, "rita")  # signed in at PIV's level
    assert response.status_code == 302


def test_sign_out_ends_the_session_and_the_provider_s(provider, client):
    sign_in_http(client, "rita")
    id_token = client.session[SESSION_OIDC]["id_token"]
    response = client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    # A page that goes on to the provider's sign-out (a refresh, and a link).
    url = response.context["url"]
    assert f'<meta http-equiv="refresh" content="0;url={escape(url)}">' in response.content.decode()
    end = urlsplit(url)
    query = parse_qs(end.query)
    assert f"{end.scheme}://{end.netloc}" == provider.issuer and end.path.endswith("/session/end")
    assert query["id_token_hint"] == [id_token] and query["client_id"] == [CLIENT_ID]
    assert query["post_logout_redirect_uri"] == ["http://testserver/accounts/login/"]


def test_sign_out_of_a_local_account_goes_to_the_login_page(provider, client, reviewer):
    client.force_login(reviewer)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"


def test_an_administrator_reaches_the_admin_site_without_cbi_clearance(provider, client):
    """The administrators' group gives the admin site and every permission but CBI clearance,
    which comes from the CBI groups alone: never a superuser."""
    case = make_submission(is_cbi=True, cbi_claims=["chemical_name"])
    sign_in_http(client, "ada")
    ada = _user(provider, "ada")
    assert ada.is_staff and not ada.is_superuser and not is_cbi_cleared(ada)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/auth/user/").status_code == 200
    assert client.get(f"/cases/{case.pk}/").status_code == 404
    cases = client.get("/admin/assessments/submission/")
    assert cases.status_code == 200 and case.case_number not in cases.content.decode()
    provider.account("ada", groups=["pmn-reviewers"])
    client.logout()
    sign_in_http(client, "ada")
    ada = User.objects.get(pk=ada.pk)
    assert not ada.is_staff and not ada.groups.filter(name="administrator").exists()
