"""The long pages, measured in Chromium at 1366 × 900: a computed use's results page and
the comparison of two revisions open with what a reviewer needs and fold the rest away.

The case is the demo's: the photoresist sample of EPA's 2018 update (5,000 kg/yr at 15 %,
ChemSTEER's daily use, the stripping process unknown), revision 1 approved; revision 2
assesses the worker exposures too (five dermal activities, two estimates each) and names
the stripping process. Before the summary and the folding, the results page of revision 2
was 10,565 px tall and the comparison 5,865 px; after, about 3,200 px and 1,900 px.
"""

from __future__ import annotations

import pytest

from assessments import services, workflow
from assessments.models import Scenario
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from tests.browser.conftest import log_in
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESULTS_LIMIT_PX = 5_000
COMPARE_LIMIT_PX = 3_000

SAMPLE_INPUTS = {"stripping_process": "unknown", "daily_use_basis": "chemsteer", "include_exposures": "no"}
SAMPLE_REASONS = {
    "stripping_process": "The submission does not name the stripping process.",
    "daily_use_basis": "Reproduces the ChemSTEER sample IRER (EPA 2018 update, Section 7).",
    "include_exposures": "The sample IRER presents releases only (EPA 2018 update, Section 7).",
}


@pytest.fixture
def demo_case(django_user_model):
    """Revision 1 approved (releases only), revision 2 computed with the worker exposures."""
    reviewer = make_user(django_user_model, "riley", group=REVIEWER_GROUP, cbi=True)
    supervisor = make_user(django_user_model, "sam", group=SUPERVISOR_GROUP, cbi=True)
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    first = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=first, by=reviewer, scenario_key="photoresist-2018")
    scenario.inputs |= SAMPLE_INPUTS
    scenario.reasons |= SAMPLE_REASONS
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    workflow.assessment_submit(assessment=first, by=reviewer, note="As the sample IRER.")
    workflow.assessment_approve(assessment=first, by=supervisor, comment="Approved.")
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    use = second.scenarios.get()
    use.inputs = {k: v for k, v in use.inputs.items() if k != "include_exposures"} | {"stripping_process": "organic_solvent"}
    use.reasons = {k: v for k, v in use.reasons.items() if k != "include_exposures"} | {
        "stripping_process": "The submitter strips the resist with an organic solvent."}
    use.save()
    use = services.scenario_compute(scenario=Scenario.objects.get(pk=use.pk), by=reviewer)
    assert len(use.result["exposures"]) == 5
    return second, use


def _height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_the_results_page_of_a_computed_use_is_under_its_length(page, demo_case):
    _, use = demo_case
    log_in(page, "riley")
    page.goto(f"{page.base}/scenarios/{use.pk}/")
    assert page.get_by_role("heading", name="Summary").is_visible()
    assert page.get_by_text("Number of sites", exact=True).is_visible()
    height = _height(page)
    assert height < RESULTS_LIMIT_PX, height
    # The folded detail is there, one click away: the calculation trace opens in place.
    assert not page.locator("#trace-detail ol").is_visible()
    page.locator("#trace-detail > summary").click()
    assert page.locator("#trace-detail ol").is_visible()
    assert _height(page) > height


def test_the_comparison_lists_the_differences_only_under_its_length(page, demo_case):
    second, _ = demo_case
    log_in(page, "riley")
    page.goto(f"{page.base}/assessments/{second.pk}/compare/")
    height = _height(page)
    assert height < COMPARE_LIMIT_PX, height
    unchanged = page.get_by_role("rowheader", name="Days of application per year (TIMEapply_days)")
    assert unchanged.count() == 0
    # Every input, with the unchanged ones, is one link away (no script needed).
    page.get_by_role("link", name="Show all inputs and results").click()
    page.wait_for_url("**all=1")
    assert unchanged.count() == 1
    assert _height(page) > height
