"""The portfolio page in a real browser: axe-core finds no WCAG 2.1 AA violation on it (the
team's view with rework, departures and open cases in every chart), the keyboard reaches
every chart's table, and no text of a chart overlaps another as the browser lays it out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from assessments import services, workflow
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def workload(django_user_model: Any) -> None:
    """Two cases of the team's: one returned once with a departure from a default, one open."""
    riley = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    sam = make_user(django_user_model, "sam", group="supervisor", cbi=True)
    for number, key in enumerate(("photoresist-2018", "cvd-2015")):
        case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15, molecular_weight=200.0)
        assessment = make_assessment(case, riley)
        use = services.scenario_add(assessment=assessment, by=riley, scenario_key=key)
        services.scenario_compute(scenario=use, by=riley)
        if number == 0:
            assessment = workflow.assessment_submit(assessment=assessment, by=riley, note="Ready.")
            workflow.assessment_return(assessment=assessment, by=sam, comment="Check the volume.")


@pytest.mark.parametrize("user", ["sam", "riley"])
def test_portfolio_meets_wcag_aa(new_page: Callable[..., Any], workload: None, user: str) -> None:
    page = new_page(bypass_csp=True)
    log_in(page, user)
    page.goto(page.base + "/portfolio/")
    assert page.locator("svg.portfolio-chart").count() >= 3
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results": found})


def test_keyboard_reaches_each_charts_table(new_page: Callable[..., Any], workload: None) -> None:
    page = new_page()
    log_in(page, "sam")
    page.goto(page.base + "/portfolio/")
    tables = page.locator("[id^='chart-'][id$='-table']")
    wanted = {tables.nth(i).get_attribute("id") for i in range(tables.count())}
    assert len(wanted) == 4
    reached = set()
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        if focused in wanted:
            reached.add(focused)
        if reached == wanted:
            break
    assert reached == wanted


DRAWN = """() => [...document.querySelectorAll('svg.portfolio-chart')].map(svg => {
  const box = e => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  return [...svg.querySelectorAll('text, rect')].map(e => [e.tagName, e.textContent, box(e)]);
})"""


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_text_of_a_chart_overlaps(new_page: Callable[..., Any], workload: None) -> None:
    page = new_page()
    log_in(page, "sam")
    page.goto(page.base + "/portfolio/")
    for drawn in page.evaluate(DRAWN):
        overlaps = [(a[1], b[1]) for i, a in enumerate(drawn) for b in drawn[i + 1:]
                    if "text" in (a[0], b[0]) and _meets(a[2], b[2])]
        assert not overlaps, overlaps
