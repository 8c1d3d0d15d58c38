"""The wizard shows only the inputs that apply, live (static/js/wizard-conditions.js): on
the CVD containers step the gas-only inputs appear when the precursor is a gas whose
density is found by the compressibility factor and leave again otherwise; a hidden input
is not reached with the Tab key; what the step saves is what applied."""

import re

import pytest
from playwright.sync_api import expect

from assessments import services
from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cvd_use(django_user_model):
    engineer = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    assessment = make_assessment(make_submission(production_volume_kg_yr=10000, molecular_weight=32.0), engineer)
    return services.scenario_add(assessment=assessment, by=engineer, scenario_key="cvd-2015")


def row(page, symbol):
    return page.locator(f"[data-symbol={symbol}]")


def test_gas_only_inputs_appear_for_a_gas_by_compressibility_and_leave_again(page, cvd_use):
    log_in(page, "riley")
    page.goto(f"{page.base}/scenarios/{cvd_use.pk}/wizard/containers/")
    for symbol in ("z", "P", "T", "Tc", "Pc", "m_container"):
        expect(row(page, symbol)).to_be_hidden()
    expect(row(page, "RHOformulation")).to_be_visible()

    page.get_by_label("Physical state of the precursor", exact=True).select_option("gas")
    expect(row(page, "z")).to_be_hidden()  # a gas, but the density is still the state's default
    page.get_by_label(re.compile(r"Compressibility factor, for a gas")).check()
    for symbol in ("z", "P", "T", "Tc", "Pc", "MW_chem"):
        expect(row(page, symbol)).to_be_visible()
    expect(row(page, "RHOformulation")).to_be_hidden()

    # keyboard: from the method's reason, Tab goes to the molecular weight: the density
    # entered and the fill mass, hidden, are not in the tab order
    row(page, "density_method").get_by_label(re.compile("Reason for a value other than the default")).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[data-symbol]').dataset.symbol") == "MW_chem"

    page.get_by_label("Physical state of the precursor", exact=True).select_option("liquid")
    for symbol in ("z", "P", "T", "Tc", "Pc"):
        expect(row(page, symbol)).to_be_hidden()


def test_the_step_saves_what_applied(page, cvd_use):
    log_in(page, "riley")
    page.goto(f"{page.base}/scenarios/{cvd_use.pk}/wizard/containers/")
    page.get_by_label("Physical state of the precursor", exact=True).select_option("gas")
    page.get_by_label(re.compile(r"Compressibility factor, for a gas")).check()
    row(page, "z").locator("input[type=text]").first.fill("0.15")
    for symbol, reason in (("physical_state", "Silane"), ("density_method", "A gas in a cylinder")):
        row(page, symbol).get_by_label(re.compile("Reason for a value other than the default")).fill(reason)
    page.get_by_role("button", name="Save and next").click()
    expect(page.get_by_role("heading", level=2)).to_contain_text("Step 3 of")
    scenario = Scenario.objects.get(pk=cvd_use.pk)
    assert scenario.inputs["z"] == 0.15 and scenario.inputs["density_method"] == "compressibility"
    assert "RHOformulation" not in scenario.inputs
