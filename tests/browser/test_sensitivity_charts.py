"""The results page's "What drives each number" in a real browser: with every chart and
table unfolded, axe-core finds no WCAG 2.1 AA violation, and the keyboard reaches each
chart's table."""

from __future__ import annotations

import pytest

from assessments import services
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def use(django_user_model):
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15, molecular_weight=200.0)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=scenario, by=reviewer)


def test_charts_unfolded_meet_wcag_aa(new_page, use):
    page = new_page(bypass_csp=True)
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/")
    page.eval_on_selector_all("#sensitivity details", "els => els.forEach(e => e.open = true)")
    assert page.locator("#sensitivity svg.tornado-chart").count() > 0
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results": found})


def test_keyboard_reaches_each_charts_table(new_page, use):
    page = new_page()
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/")
    page.locator("#sensitivity-detail > summary").focus()
    page.keyboard.press("Enter")
    summaries = page.locator("#sensitivity figure details > summary")
    count = summaries.count()
    assert count == page.locator("#sensitivity figure").count() > 0
    reached = 0
    for _ in range(count * 3 + 5):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#sensitivity figure details > summary')"):
            page.keyboard.press("Enter")
            reached += 1
            if reached == count:
                break
    assert reached == count
    assert page.locator("#sensitivity figure details[open] table").count() == count
