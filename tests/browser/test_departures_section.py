"""Section 508 (WCAG 2.1 AA) on the results page's "Defaults against the case" opened: the
departures' tables (captions, header scopes, the flags' emphasis) as a reviewer reads them,
and the summary folding them one click away."""

from __future__ import annotations

import pytest

from assessments import services
from assessments.roles import REVIEWER_GROUP
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, report
from tests.conftest import make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(new_page):
    return new_page(bypass_csp=True)  # axe-core is injected


def test_the_opened_departures_meet_wcag_aa(page, django_user_model):
    reviewer = make_user(django_user_model, "riley", group=REVIEWER_GROUP, cbi=True)
    case = make_submission(production_volume_kg_yr=5000.0, use_concentration=0.15)
    assessment = services.assessment_start(submission=case, by=reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2018")
    use = services.scenario_save_step(scenario=use, by=reviewer, step="containers",
                                      values={"Fcontainer_disp": 0.01}, reasons={"Fcontainer_disp": "Drum data: 1 %."})
    use = services.scenario_compute(scenario=use, by=reviewer)
    log_in(page, "riley")
    page.goto(f"{page.base}/scenarios/{use.pk}/")
    summary = page.locator("#departures-summary")
    assert summary.inner_text() == "Defaults against the case: 2 departures, 1 crosses a review threshold"
    assert not page.locator("#departures-runs").is_visible()
    summary.click()
    assert page.locator("#departures-runs").is_visible()
    found = axe_violations(page)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report({"results, departures open": found})
