"""The API tokens page in a real browser: reached from every page's bar; axe-core finds no
WCAG 2.1 AA violation with no token, with a refused form and with a token just made; the
token shown once lets a program read the API as its owner, and revoked it does not."""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_violations(page) -> None:
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results": found})


def test_make_use_and_revoke_a_token(new_page, django_user_model):
    make_user(django_user_model, "riley", group="reviewer", cbi=True)
    page = new_page(bypass_csp=True)
    log_in(page, "riley")
    page.get_by_role("link", name="API tokens").click()
    page.wait_for_url("**/api-tokens/")
    assert page.get_by_text("You have no tokens yet.").is_visible()
    _no_violations(page)

    page.get_by_role("button", name="Make the token").click()  # no name: refused, by field
    name = page.get_by_label("Name")
    assert name.get_attribute("aria-invalid") == "true"
    _no_violations(page)

    name.fill("Risk model import")
    page.get_by_role("button", name="Make the token").click()
    token = page.get_by_label("The token").input_value()
    assert token.startswith("pmn_") and page.get_by_role("cell", name="Risk model import", exact=True).is_visible()
    _no_violations(page)

    api = page.context.request
    assert api.get(page.base + "/api/v1/cases", headers={"Authorization": f"Bearer {token}"}).status == 200
    page.get_by_role("button", name="Revoke “Risk model import”").click()
    assert page.get_by_role("cell", name="revoked").is_visible()
    assert api.get(page.base + "/api/v1/cases", headers={"Authorization": f"Bearer {token}"}).status == 401
