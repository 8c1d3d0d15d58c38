"""The "Submitter's site data" step in a real browser: a reviewer opens a CVD use's wizard,
enters the submitter's EIIP source test (EIIP Example 6.4-3's HF data), computes, reads
the site-specific release on the results page and finds it in the IRER's PDF; without
JavaScript, "Show this method's inputs" brings up the same fields."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from assessments import services
from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.browser.test_irer_download import pdf_text, queue, report_worker
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCE = "PMN attachment 3: 2023 stack test, tool exhaust"
ACTIVITY = "CVD tool exhaust stack"


@pytest.fixture
def cvd_use(django_user_model) -> Scenario:
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    case = make_submission(case_number="P-26-0350", production_volume_kg_yr=10000)
    assessment = make_assessment(case, reviewer)
    return services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="CVD precursor")


def open_site_data_step(page, scenario: Scenario) -> None:
    page.goto(f"{page.base}/scenarios/{scenario.pk}/wizard/")
    page.get_by_role("button", name=re.compile(r"^\d+\. Submitter's site data$")).click()
    expect(page.get_by_role("heading", level=2)).to_contain_text("Submitter's site data")


def fill_source_test(page) -> None:
    """EIIP Example 6.4-3: HF, 15.4 ppmvd, MW 20.0, 109,020 dscf/hr; 1,760 hr/yr over 220 days."""
    inputs = page.locator('fieldset[data-site-method="source_test"]')
    inputs.get_by_label("Pollutant class").select_option("inorganic")
    inputs.get_by_label("Measured concentration of the pollutant").fill("15.4")
    inputs.get_by_label("Molecular weight of the pollutant").fill("20")
    inputs.get_by_label("Stack gas volumetric flow rate").fill("109,020")
    inputs.get_by_label("Operating hours of the emitting process").fill("1760")
    inputs.get_by_label("Days of release").fill("220")
    page.get_by_label("Release it replaces").select_option("1")
    page.get_by_label("Source of the data").fill(SOURCE)
    page.get_by_label("Activity (optional)").fill(ACTIVITY)


def test_a_reviewer_enters_a_source_test_computes_and_finds_it_in_the_irer(queue, page, cvd_use, tmp_path):
    log_in(page, "riley")
    open_site_data_step(page, cvd_use)
    expect(page.get_by_label("No site data")).to_be_checked()
    source_test = page.get_by_label("Source test (stack concentration and flow)")
    expect(source_test).to_have_accessible_description(re.compile("the preferred method for inorganic HAPs"))
    expect(page.locator('fieldset[data-site-method="source_test"]')).to_be_hidden()

    source_test.check()  # JavaScript shows the method's inputs at once: no button needed
    expect(page.locator('fieldset[data-site-method="source_test"]')).to_be_visible()
    expect(page.locator('fieldset[data-site-method="evaporation"]')).to_be_hidden()
    expect(page.get_by_role("button", name="Show this method's inputs")).to_be_hidden()
    fill_source_test(page)

    # A value out of range first: the engine's message on the field, nothing computed.
    page.get_by_label("Measured concentration of the pollutant").fill("-1")
    page.get_by_role("button", name="Save and compute").click()
    concentration = page.get_by_label("Measured concentration of the pollutant")
    expect(concentration).to_have_accessible_description(re.compile(r"C_x must be at least 0 ppmvd\."))
    cvd_use.refresh_from_db()
    assert cvd_use.result is None and "site_specific" not in cvd_use.inputs

    concentration.fill("15.4")
    page.get_by_role("button", name="Save and compute").click()
    releases = page.locator("section[aria-labelledby=releases-title]")
    expect(releases.locator("tr", has_text=f"{ACTIVITY} (site-specific data)")).to_contain_text("site-specific")
    # EIIP Eqn 6.4-3 by hand: 15.4 × 20 × 109,020 / (385.5 × 10^6) = 0.0871 lb/hr × 1,760 hr/yr
    # × 0.45359237 kg/lb = 69.5 kg/site-yr, over 220 days = 0.316 kg/site-day
    expect(releases.locator("tr", has_text=ACTIVITY)).to_contain_text("0.316")
    expect(page.locator("section[aria-labelledby=site-data-title]")).to_contain_text(SOURCE)

    page.goto(f"{page.base}/assessments/{cvd_use.assessment.pk}/")
    page.get_by_role("link", name="Download IRER (PDF)").click()
    with page.expect_download(timeout=30000) as info, report_worker():
        download = info.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    text = " ".join(pdf_text(saved).split())
    assert "Output, site-specific data: 3.2E-1 kg/site-day over 220 days/yr" in text
    assert f"from: {ACTIVITY} (site-specific data)" in text
    assert f"source: {SOURCE}" in text  # the site data's source in the inputs' sources


def test_without_javascript_the_button_shows_the_methods_inputs(browser, live_server, cvd_use):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.base = live_server.url
        log_in(page, "riley")
        open_site_data_step(page, cvd_use)
        page.get_by_label("Source test (stack concentration and flow)").check()
        expect(page.locator('fieldset[data-site-method="source_test"]')).to_be_hidden()
        page.get_by_role("button", name="Show this method's inputs").click()
        expect(page.locator('fieldset[data-site-method="source_test"]')).to_be_visible()
        expect(page.get_by_label("Source test (stack concentration and flow)")).to_be_checked()
        fill_source_test(page)
        page.get_by_role("button", name="Save and compute").click()
        expect(page.get_by_role("heading", name="Environmental releases")).to_be_visible()
        cvd_use.refresh_from_db()
        assert cvd_use.inputs["site_specific"][0]["inputs"]["C_x"] == 15.4
        assert cvd_use.result["releases"][0]["site_specific"] is True
    finally:
        context.close()
