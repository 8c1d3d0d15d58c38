"""The case form's error summary in a real browser: focused when the page comes back with
errors (static/js/error-summary.js), each link taking the keyboard to its field."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_summary_takes_the_focus_and_its_links_reach_the_fields(page, django_user_model):
    make_user(django_user_model, "riley", group="reviewer", cbi=True)
    log_in(page, "riley")
    page.goto(page.base + "/cases/new/")
    page.get_by_label("Case number").fill("P-26-0900")
    page.get_by_label("Production volume (kg/yr)").fill("0")
    page.get_by_label("Molecular weight (g/mol)").fill("1,5")
    page.get_by_role("button", name="Create case").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Production volume (kg/yr): The production volume must be greater than 0 kg/yr.")

    page.keyboard.press("Tab")  # the first link of the summary
    expect(summary.get_by_role("link").first).to_be_focused()
    summary.get_by_role("link", name=re.compile("^Molecular weight")).press("Enter")
    field = page.locator("#id_molecular_weight")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("label[for='id_molecular_weight']")).to_be_in_viewport()
