"""A use whose linked input followed an amendment of the case says so where it is marked
not current (issue 26): the results page, the assessment page and the IRER draft, in words
that name the case ("Computed with a production volume of 2,400 kg/yr; the case now says
3,000 kg/yr: compute again"). A reason that quotes the case's old value is flagged on the
wizard step, the results page and the supervisors' queue.

The real engine (OECD ESD photoresist 2010): its production volume comes from the case.
"""

from __future__ import annotations

import html
import re

import pytest

from assessments import services, workflow
from assessments.models import Assessment, Scenario
from assessments.presentation import NOT_CURRENT
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"
CASE_WORDS = "Computed with a production volume of 2,400 kg/yr; the case now says 3,000 kg/yr: compute again."
OVERRIDE_REASON = "Only 2,000 of the 2,400 kg/yr go to spin coating (submitter's letter)."
FLAG = "This reason quotes 2,400 kg/yr; the case's production volume is now 3,000 kg/yr."
AMENDMENT = "Amended PMN of 2026-03-02: production volume 3,000 kg/yr."


def text_of(content: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", content.decode())))


def add_use(assessment: Assessment, title: str, *, override: bool = False) -> Scenario:
    engineer = assessment.engineer
    scenario = services.scenario_add(assessment=assessment, by=engineer, scenario_key=KEY, title=title)
    assert scenario.inputs["Qchem_yr"] == 2400.0  # from the case
    if override:
        services.scenario_save_step(scenario=scenario, by=engineer, step="production",
                                    values={"Qchem_yr": "2,000", "Fchem": "0.15"},
                                    reasons={"Qchem_yr": OVERRIDE_REASON, "Fchem": "MSDS: 15 %."})
    return services.scenario_compute(scenario=scenario, by=engineer)


@pytest.fixture
def amended(reviewer) -> Assessment:
    """A draft with a use from the case and one the reviewer overrode, both computed; then
    the case's production volume amended from 2,400 to 3,000 kg/yr."""
    assessment = make_assessment(make_submission(case_number="P-26-0926", production_volume_kg_yr=2400.0), reviewer)
    add_use(assessment, "Spin coating")
    add_use(assessment, "Edge bead removal", override=True)
    services.submission_update(submission=assessment.submission, by=reviewer,
                               data={"production_volume_kg_yr": 3000.0}, cbi_claims=[])
    return assessment


def use(assessment: Assessment, title: str) -> Scenario:
    return assessment.scenarios.get(title=title)


def test_the_results_page_says_not_current_because_the_case_changed(client, reviewer, amended):
    client.force_login(reviewer)
    text = text_of(client.get(f"/scenarios/{use(amended, 'Spin coating').pk}/").content)
    assert NOT_CURRENT in text
    assert CASE_WORDS in text


def test_the_results_page_flags_the_reason_that_quotes_the_old_volume(client, reviewer, amended):
    client.force_login(reviewer)
    text = text_of(client.get(f"/scenarios/{use(amended, 'Edge bead removal').pk}/").content)
    assert f"Production volume of the chemical: {FLAG}" in text
    assert NOT_CURRENT not in text  # the reviewer's own value did not move


def test_the_wizard_step_flags_the_reason_beside_its_input(client, reviewer, amended):
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{use(amended, 'Edge bead removal').pk}/wizard/production/")
    assert response.status_code == 200
    text = text_of(response.content)
    assert text.index("Production volume of the chemical") < text.index(FLAG)


def test_the_assessment_page_names_the_use_and_the_case_change(client, reviewer, amended):
    client.force_login(reviewer)
    text = text_of(client.get(f"/assessments/{amended.pk}/").content)
    assert f"“Spin coating”: {CASE_WORDS}" in text
    assert "“Edge bead removal”: Computed with" not in text


def test_the_irer_draft_says_it_beside_the_use(client, reviewer, amended):
    client.force_login(reviewer)
    text = text_of(client.get(f"/assessments/{amended.pk}/irer/").content)
    assert NOT_CURRENT in text and CASE_WORDS in text


def test_the_sanitised_irer_withholds_a_claimed_volumes_change(client, reviewer, amended):
    case = amended.submission
    case.refresh_from_db()
    services.submission_update(submission=case, by=reviewer, data={}, cbi_claims=["production_volume_kg_yr"])
    client.force_login(reviewer)
    full = text_of(client.get(f"/assessments/{amended.pk}/irer/").content)
    sanitised = text_of(client.get(f"/assessments/{amended.pk}/irer/?copy=sanitised").content)
    assert CASE_WORDS in full
    assert "2,400" not in sanitised and CASE_WORDS not in sanitised
    assert "Computed with an earlier production volume than the case's: compute again." in sanitised


def test_the_review_queue_flags_a_reason_that_quotes_the_old_volume(client, reviewer, supervisor):
    first = make_assessment(make_submission(case_number="P-26-0927", production_volume_kg_yr=2400.0), reviewer)
    add_use(first, "Edge bead removal", override=True)
    workflow.assessment_submit(assessment=first, by=reviewer)
    workflow.assessment_approve(assessment=first, by=supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    services.submission_update(submission=second.submission, by=reviewer,
                               data={"production_volume_kg_yr": 3000.0}, cbi_claims=[], reason=AMENDMENT)
    workflow.assessment_submit(assessment=second, by=reviewer, note="Amended volume.")
    client.force_login(supervisor)
    text = text_of(client.get("/review/").content)
    assert f"“Edge bead removal”, Production volume of the chemical: {FLAG}" in text
