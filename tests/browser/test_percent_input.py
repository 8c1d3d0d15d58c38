"""A control efficiency typed in the "Submitter's site data" step, in a real browser (issue
26): EIIP asks for it in per cent, the ESDs' efficiencies are fractions, and typing 0.9 for
90 % used to give a release ten times too large, silently. Now 90 is 90 %, 0.9 is asked
about on the field (0.9 % or 90 %?), and "0.9%" with its sign is 0.9 %, kept as typed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.browser.test_site_data_wizard import cvd_use, open_site_data_step  # cvd_use: the fixture, a CVD use

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCE = "PMN attachment 2: the scrubber vendor's data sheet"
ACTIVITY = "Wet scrubber exhaust"
# By hand (EIIP Eqn 6.5-3, 6.5-2): E_x = 1 lb/unit × 10 units/hr = 10 lb/hr; × 100 hr/yr =
# 1,000 lb/yr × 0.45359237 kg/lb = 453.59237 kg/yr, over 10 days = 45.359 kg/site-day
# before the scrubber. With CE = 90 %: E_x = 10 × 0.10 = 1 lb/hr, 4.5359 kg/site-day ("4.54");
# with CE = 0.9 %: E_x = 10 × 0.991 = 9.91 lb/hr, 44.951 kg/site-day ("45"), which is what
# 0.9 typed for 90 % used to give: ten times the 90 % release.
AT_90_PERCENT = ("4.54", "E_x = 1 lb/hr × 100 hr/yr", "After a control device of 90 % efficiency")
AT_0_9_PERCENT = ("45", "E_x = 9.91 lb/hr × 100 hr/yr", "After a control device of 0.9 % efficiency")


def fill_emission_factor(page, ce: str) -> None:
    inputs = page.locator('fieldset[data-site-method="emission_factor"]')
    inputs.get_by_label("Pollutant class").select_option("voc")
    inputs.get_by_label("Emission factor", exact=False).fill("1")
    inputs.get_by_label("Activity factor").fill("10")
    inputs.get_by_label("Operating hours of the emitting process").fill("100")
    inputs.get_by_label("Days of release").fill("10")
    inputs.get_by_label("Control efficiency of the device").fill(ce)
    page.get_by_label("Source of the data").fill(SOURCE)
    page.get_by_label("Activity (optional)").fill(ACTIVITY)


def control_efficiency(page):
    return page.locator('fieldset[data-site-method="emission_factor"]').get_by_label("Control efficiency of the device")


def expect_release(page, kg_site_day: str, *basis: str) -> None:
    """The site-specific release's kg/site-day cell and the words of its basis."""
    row = page.locator("section[aria-labelledby=releases-title]").locator("tr", has_text=ACTIVITY)
    expect(row.get_by_role("cell").nth(4)).to_have_text(kg_site_day)
    for words in basis:
        expect(row).to_contain_text(words)


def test_a_control_efficiency_is_read_in_per_cent_and_0_9_is_asked_about(page, cvd_use: Scenario):
    log_in(page, "riley")
    open_site_data_step(page, cvd_use)
    page.get_by_label("Emission factor × activity").check()
    # The convention beside the field, in the help its aria-describedby names.
    expect(control_efficiency(page)).to_have_accessible_description(re.compile(r"Scale: per cent, 0 to 100"))

    # 0.9: asked about on the field, never computed as a ten-fold release.
    fill_emission_factor(page, "0.9")
    page.get_by_role("button", name="Save and compute").click()
    expect(control_efficiency(page)).to_have_accessible_description(re.compile(
        r"CE is in per cent \(between 0 and 100 %\): 0\.9 would be read as 0\.9 %, not 90 %; type 90 for 90 %, "
        r"or 0\.9% \(with the sign\) if you mean 0\.9 %\."))
    expect(control_efficiency(page)).to_have_value("0.9")  # what was typed stays, to be corrected
    cvd_use.refresh_from_db()
    assert cvd_use.result is None and "site_specific" not in cvd_use.inputs

    # 90: the 90 % release, a tenth of the uncontrolled one.
    control_efficiency(page).fill("90")
    page.get_by_role("button", name="Save and compute").click()
    expect_release(page, *AT_90_PERCENT)
    cvd_use.refresh_from_db()
    assert cvd_use.inputs["site_specific"][0]["inputs"]["CE"] == 90.0

    # "0.9%": 0.9 % as confirmed; stored and shown again as typed, computed as 0.9 % every time.
    open_site_data_step(page, cvd_use)
    expect(control_efficiency(page)).to_have_value("90")
    control_efficiency(page).fill("0.9%")
    page.get_by_role("button", name="Save and compute").click()
    expect_release(page, *AT_0_9_PERCENT)
    cvd_use.refresh_from_db()
    assert cvd_use.inputs["site_specific"][0]["inputs"]["CE"] == "0.9%"
    open_site_data_step(page, cvd_use)
    expect(control_efficiency(page)).to_have_value("0.9%")
