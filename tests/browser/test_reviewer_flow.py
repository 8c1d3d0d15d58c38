"""A reviewer in a real browser: log in, create a case, assess a photoresist use with one
override and its reason, read the results."""

import re

import pytest
from playwright.sync_api import expect

from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-only"


def test_reviewer_creates_case_walks_photoresist_wizard_and_reads_results(page, django_user_model):
    make_user(django_user_model, "riley", group="reviewer", cbi=True)
    log_in(page, "riley", PASSWORD)

    page.get_by_role("link", name="New case").click()
    page.get_by_label(re.compile(r"^\s*Case number")).fill("P-26-0777")
    page.get_by_label(re.compile(r"^\s*Submitter")).fill("Acme Photochemicals")
    page.get_by_label(re.compile(r"^\s*Specific chemical name")).fill("Photoacid generator X")
    page.get_by_label(re.compile(r"^\s*Generic name")).fill("Onium salt")
    page.get_by_label(re.compile(r"^\s*Production volume \(kg/yr\)")).fill("5,000")
    page.get_by_label(re.compile(r"^\s*Use\*?\s*$")).fill("Photoacid generator in a photoresist.")
    page.get_by_role("button", name="Create case").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("P-26-0777")

    page.get_by_role("button", name="Start assessment").click()
    page.get_by_label("Emission scenario").select_option("photoresist-2010")
    page.get_by_role("button", name="Add use").click()

    # Step 1: override Fchem without a reason first: refused on the reason field.
    expect(page.get_by_role("heading", level=2)).to_contain_text("Step 1 of")
    page.get_by_label(re.compile(r"^\s*Fchem")).fill("0.2")
    page.get_by_role("button", name="Save and next").click()
    expect(page.locator(".invalid-feedback")).to_contain_text("Give a reason for changing the default")
    page.get_by_label("Reason for a value other than the default").nth(1).fill("Submitter: 20 % in the resist")
    page.get_by_role("button", name="Save and next").click()
    expect(page.get_by_role("heading", level=2)).to_contain_text("Step 2 of")

    while page.get_by_role("button", name="Save and next").count():
        page.get_by_role("button", name="Save and next").click()
    page.get_by_role("button", name="Save and compute").click()

    expect(page.get_by_role("heading", name="Environmental releases")).to_be_visible()
    scenario = Scenario.objects.get(assessment__submission__case_number="P-26-0777")
    assert scenario.reasons["Fchem"] == "Submitter: 20 % in the resist"
    # ESD 2010 Eqn 3-2, 3-3 by hand: 36 × 0.2 = 7.2 kg/site-day; 0.994 × 5,000 / (7.2 × 360) = 1.92 → 2 sites
    assert scenario.result["facility"]["Nsites"] == 2
    facility = page.locator("section[aria-labelledby=facility-title]")
    expect(facility.locator("tr", has_text="Nsites").first).to_contain_text("2")
    inputs = page.locator("section[aria-labelledby=inputs-title]")
    expect(inputs.locator("tr", has_text="Fchem")).to_contain_text("Submitter: 20 % in the resist")
    expect(page.get_by_role("img", name=re.compile(r"^Incineration: "))).to_be_visible()
