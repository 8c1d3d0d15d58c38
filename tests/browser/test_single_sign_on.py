"""Single sign-on in Chromium through the real OpenID Connect provider of tests/oidc: a
reviewer, a supervisor, a cleared and an uncleared person each sign in at the provider's own
page and see what their groups allow; sign-out ends the provider's session too (the next
sign-in asks for the password again); the login page, the refusal page and the page on the
way to the provider's sign-out meet WCAG 2.1 AA (axe-core)."""

from __future__ import annotations

import pytest

from signin import oidc
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_submission
from tests.oidc.conftest import PASSWORD, oidc_provider, provider

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, login: str) -> None:
    page.goto(page.base + "/accounts/login/")
    page.get_by_role("link", name="Sign in with Agency sign-in").click()
    page.get_by_label("User name").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(page.base + "/")


@pytest.fixture
def cases(provider):
    return {"open": make_submission(case_number="P-26-1001", chemical_name="Plain ester"),
            "cbi": make_submission(case_number="P-26-1002", is_cbi=True, cbi_claims=["chemical_name"],
                                   chemical_name="Claimed onium salt")}


@pytest.mark.parametrize("login, supervisor, cleared", [
    ("rita", False, False), ("sam", True, True), ("cleo", False, True), ("uma", False, False),
])
def test_each_person_sees_what_their_groups_allow(new_page, cases, login, supervisor, cleared):
    page = new_page()
    sign_in(page, login)
    nav = page.get_by_role("navigation").first
    assert (nav.get_by_role("link", name="Review queue").count() == 1) is supervisor
    page.goto(page.base + f"/cases/{cases['open'].pk}/")
    assert "Plain ester" in page.content()
    answer = page.goto(page.base + f"/cases/{cases['cbi'].pk}/")
    assert (answer.status == 200) is cleared
    assert ("Claimed onium salt" in page.content()) is cleared


def test_sign_out_ends_the_provider_s_session_too(new_page, provider):
    page = new_page()
    sign_in(page, "rita")
    page.get_by_role("button", name="Log out").click()
    # The provider asks to confirm the sign-out (its own page), then comes back to the login page.
    page.get_by_role("button", name="Yes, sign me out").click()
    page.wait_for_url(page.base + "/accounts/login/")
    page.get_by_role("link", name="Sign in with Agency sign-in").click()
    assert page.get_by_label("User name").is_visible()  # asked again: the provider's session ended


def test_the_login_refusal_and_signing_out_pages_meet_wcag_2_1_aa(new_page, provider):
    page = new_page(bypass_csp=True)
    page.goto(page.base + "/accounts/login/")
    found = {}
    if violations := axe_violations(page):
        found["/accounts/login/"] = violations
    page.goto(page.base + "/accounts/sso/callback/?state=forged&code=forged")
    assert oidc.STATE_REFUSED in page.content()
    if violations := axe_violations(page):
        found["refused"] = violations
    # The page between the sign-out here and the provider's, held (the provider not reached).
    sign_in(page, "rita")
    page.route(provider.issuer + "/**", lambda route: route.fulfill(status=204))  # 204: the page stays
    page.get_by_role("button", name="Log out").click()
    page.get_by_role("heading", name="Signed out here").wait_for()
    if violations := axe_violations(page):
        found["signing out"] = violations
    assert not found, report(found)
