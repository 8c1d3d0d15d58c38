""""What drives each number" in a real browser: on the results page (its summary and the
override table unfolded) and on the use's sensitivity page (every chart's table unfolded, with its
Monte Carlo band and without) axe-core finds no WCAG 2.1 AA violation; the keyboard reaches each
chart's table, and the summary's links lead to the charts; and on the demo's sample case, with its
band, no text of a chart overlaps another or what is drawn, as the browser lays it out, and none
is wider than the page's layout measured it (issue 41)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assessments import sensitivity_view, services
from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def use(django_user_model: Any) -> Scenario:
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True)
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15, molecular_weight=200.0)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=scenario, by=reviewer)


@pytest.fixture
def band_storage(settings: Any, tmp_path: Path) -> Path:
    """A fresh report storage for the band the page's button computes, and a small band."""
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}},
    }
    settings.SENSITIVITY_BAND_SAMPLES = 200
    return tmp_path


@pytest.fixture
def sample_use(django_user_model: Any) -> Scenario:
    """The demo's sample case P-18-0123 (revision 1): its photoresist use, as computed."""
    reviewer = make_user(django_user_model, "sam", group="reviewer", cbi=True)
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2018")
    scenario.inputs = {**scenario.inputs, "stripping_process": "unknown", "daily_use_basis": "chemsteer",
                       "include_exposures": "no"}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=reviewer)


def compute_band(page: Any) -> None:
    """Press the sensitivity page's button: the test settings' backend computes the band at once."""
    page.get_by_role("button", name=sensitivity_view.BAND_ACTION).click()
    page.wait_for_selector("#sensitivity svg.tornado-chart line.tornado-band", state="attached")


@pytest.mark.parametrize(("where", "band"), [("", False), ("sensitivity/", False), ("sensitivity/", True)],
                         ids=["results", "charts", "charts-with-band"])
def test_unfolded_meets_wcag_aa(
    new_page: Callable[..., Any], use: Scenario, band_storage: Path, where: str, band: bool
) -> None:
    page = new_page(bypass_csp=True)
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/{where}")
    if band:
        compute_band(page)
    page.eval_on_selector_all("#sensitivity details", "els => els.forEach(e => e.open = true)")
    shown = "svg.tornado-chart" if where else "#sensitivity-summary tbody tr"
    assert page.locator(f"#sensitivity {shown}").count() > 0
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results": found})


def test_the_summarys_link_leads_to_the_chart(new_page: Callable[..., Any], use: Scenario) -> None:
    page = new_page()
    log_in(page, "riley")
    page.goto(page.base + f"/scenarios/{use.pk}/")
    page.locator("#sensitivity-summary-detail > summary").click()  # folded: the page opens with the figures
    link = page.locator("#sensitivity-summary tbody tr").nth(2).locator("a")
    label = link.inner_text()
    link.click()
    page.wait_for_url(f"**/scenarios/{use.pk}/sensitivity/#sensitivity-3")
    assert page.locator("#sensitivity-3 figcaption").inner_text() == label


def test_keyboard_reaches_each_charts_table(new_page: Callable[..., Any], use: Scenario) -> None:
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


#: Every text of each chart, its box as the browser lays it out (getBBox: the SVG's units), and
#: the box of each bar and line.
DRAWN = """() => [...document.querySelectorAll('#sensitivity svg.tornado-chart')].map(svg => {
  const box = e => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const line = e => { const b = box(e), half = parseFloat(getComputedStyle(e).strokeWidth) / 2;
                      return [b[0] - half, b[1] - half, b[2] + half, b[3] + half]; };
  return {texts: [...svg.querySelectorAll('text')].map(t => [t.textContent, box(t)]),
          marks: [...svg.querySelectorAll('rect')].map(r => [r.getAttribute('class'), box(r)])
                 .concat([...svg.querySelectorAll('line')].map(l => [l.getAttribute('class'), line(l)]))};
})"""


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_text_of_a_chart_overlaps_as_the_browser_draws_it(
    new_page: Callable[..., Any], sample_use: Scenario, band_storage: Path
) -> None:
    page = new_page()
    log_in(page, "sam")
    page.goto(page.base + f"/scenarios/{sample_use.pk}/sensitivity/")
    page.evaluate("document.fonts.ready")
    compute_band(page)
    page.evaluate("document.fonts.ready")
    charts = page.evaluate(DRAWN)
    assert charts and all(chart["texts"] for chart in charts)
    # The first chart: three bars that move it by less than their figures show, and its
    # band's P95 just short of the base line.
    assert [t for t, _ in charts[0]["texts"]].count("moves it by less than 0.001 %") == 3
    faults: list[str] = []
    for n, chart in enumerate(charts, start=1):
        for i, (text, box) in enumerate(chart["texts"]):
            laid_out = sensitivity_view.text_width(text)
            if box[2] - box[0] > laid_out:
                faults.append(f"chart {n}: {text!r} is {box[2] - box[0]:.2f} wide, laid out {laid_out:.2f}")
            faults += [f"chart {n}: {text!r} overlaps {other!r}" for other, other_box in chart["texts"][i + 1:]
                       if _meets(box, other_box)]
            faults += [f"chart {n}: {text!r} crosses a {cls}" for cls, mark in chart["marks"] if _meets(box, mark)]
    assert faults == []
