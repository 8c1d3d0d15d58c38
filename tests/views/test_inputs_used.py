"""The "inputs used" table: an input not given reads "Not given", and one the scenario
computes instead (a number of sites) shows the computed value, on the results page and
in the report alike."""

from __future__ import annotations

import pytest

from assessments import presentation, services
from assessments.reports.context import irer_context
from tests.conftest import make_assessment, make_submission
from tests.reports import reading

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=scenario, by=reviewer)


def _rows(scenario):
    return {row["param"].symbol: row for row in presentation.inputs_used(scenario=scenario, result=scenario.result)}


def test_a_quantity_the_scenario_computes_is_shown_computed(scenario):
    row = _rows(scenario)["Nsites"]
    # ESD 2010 §6.1: 5,000 kg/yr at 15 % gives 3 sites (Eqn 3-3, rounded up).
    assert (row["standing"], row["value"]) == (presentation.COMPUTED, 3)


def test_an_optional_input_left_out_is_not_given(scenario):
    row = _rows(scenario)["VPchem"]
    assert (row["standing"], row["value"]) == (presentation.NOT_GIVEN, None)


def test_standings_of_defaults_and_overrides(scenario):
    rows = _rows(scenario)
    assert rows["Fchem"]["standing"] == presentation.OVERRIDDEN  # from the case, with the case as reason
    assert rows["Qchem_yr"]["standing"] == presentation.GIVEN
    assert rows["Napply"]["standing"] == presentation.DEFAULT


def test_report_and_results_page_use_the_same_standings(client, reviewer, scenario):
    report = reading.inputs(irer_context(assessment=scenario.assessment))
    assert report["Nsites"]["standing"] == "Computed" and report["Nsites"]["value"] == "3"
    assert report["VPchem"]["standing"] == "Not given" and report["VPchem"]["value"] == presentation.VALUE_NOT_GIVEN
    client.force_login(reviewer)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "<td>Not given</td>" in html and "<td>Computed</td>" in html
