""""What drives each number" in a real browser: on the results page (its summary and the
override table unfolded) and on the use's sensitivity page (every chart's table unfolded) axe-core
finds no WCAG 2.1 AA violation; the keyboard reaches each chart's table, and the summary's links
lead to the charts."""

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


@pytest.mark.parametrize("where", ["", "sensitivity/"], ids=["results", "charts"])
def test_unfolded_meets_wcag_aa(new_page, use, where):
    page = new_page(bypass_csp=True)
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/{where}")
    page.eval_on_selector_all("#sensitivity details", "els => els.forEach(e => e.open = true)")
    shown = "svg.tornado-chart" if where else "#sensitivity-summary tbody tr"
    assert page.locator(f"#sensitivity {shown}").count() > 0
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results": found})


def test_the_summarys_link_leads_to_the_chart(new_page, use):
    page = new_page()
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/")
    page.locator("#sensitivity-summary-detail > summary").click()  # folded: the page opens with the figures
    link = page.locator("#sensitivity-summary tbody tr").nth(2).locator("a")
    label = link.inner_text()
    link.click()
    page.wait_for_url(f"**/scenarios/{use.pk}/sensitivity/#sensitivity-3")
    assert page.locator("#sensitivity-3 figcaption").inner_text() == label


def test_keyboard_reaches_each_charts_table(new_page, use):
    page = new_page()
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/sensitivity/")
    page.locator("#sensitivity-title").focus()
    summaries = page.locator("#sensitivity figure details > summary")
    count = summaries.count()
    drawn = page.locator("#sensitivity figure svg").count()
    assert count == drawn > 0, "a table for every drawn chart"
    reached = 0
    for _ in range(count * 4 + 10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#sensitivity figure details > summary')"):
            page.keyboard.press("Enter")
            reached += 1
            if reached == count:
                break
    assert reached == count
    assert page.locator("#sensitivity figure details[open] table").count() == count
