"""The case's physical and chemical properties reach every use that reads them (issue 41),
for every registered scenario and every input that declares the case field it carries
(``Param.from_case``): a new use takes the case's value, the inputs tables give its
provenance ("From the case"), and an amended property moves it and marks the use not
current, saying which property moved, as an amended production volume does.
"""

from __future__ import annotations

import pytest

from assessments import presentation, services
from assessments.case_links import case_field_label
from assessments.esd import registry
from assessments.models import Submission
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

#: The case's measured properties an engine input may carry, and an amendment of each.
PROPERTIES = {"vapour_pressure_torr": (0.5, 0.8), "molecular_weight": (200.0, 250.0)}
CARRIED = [(scenario.key, param.symbol, param.from_case) for scenario in registry.scenarios()
           for param in scenario.params.params if param.from_case in PROPERTIES]


def test_every_property_the_case_gives_is_carried_by_an_input_of_some_scenario():
    assert {field for _, _, field in CARRIED} == set(PROPERTIES)
    assert {key for key, _, _ in CARRIED} == {s.key for s in registry.scenarios()}


def _case(**fields) -> Submission:
    values = {field: before for field, (before, _) in PROPERTIES.items()}
    return make_submission(vapour_pressure_temp_c=25.0, **(values | fields))


@pytest.mark.parametrize(("key", "symbol", "field"), CARRIED, ids=[f"{k}-{s}" for k, s, _ in CARRIED])
def test_a_new_use_takes_the_property_and_names_the_case_as_its_source(key, symbol, field, reviewer):
    assessment = make_assessment(_case(), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    assert scenario.inputs[symbol] == PROPERTIES[field][0]
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    rows = {r["param"].symbol: r for r in presentation.inputs_used(scenario=scenario, result=scenario.result,
                                                                   case=assessment.submission)}
    if symbol in rows:  # listed where it applies (a supplier's inputs only with the supplier site)
        assert rows[symbol]["standing"] == presentation.FROM_CASE
        assert scenario.result["inputs"][symbol] == PROPERTIES[field][0]


@pytest.mark.parametrize(("key", "symbol", "field"), CARRIED, ids=[f"{k}-{s}" for k, s, _ in CARRIED])
def test_an_amended_property_moves_the_input_and_marks_the_use_not_current(key, symbol, field, reviewer):
    assessment = make_assessment(_case(), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    services.scenario_compute(scenario=scenario, by=reviewer)
    case = assessment.submission
    services.submission_update(submission=case, by=reviewer, data={field: PROPERTIES[field][1]},
                               cbi_claims=list(case.cbi_claims), reason="")
    scenario.refresh_from_db()
    assert scenario.inputs[symbol] == PROPERTIES[field][1]
    assert presentation.scenario_state(scenario) == presentation.STALE
    changes = presentation.not_current_case_changes(scenario)
    assert [c.field for c in changes] == [field]
    assert case_field_label(field) in changes[0].text


def test_a_property_the_reviewer_left_out_reads_left_out_not_missing(reviewer):
    """A use computed without the case's vapour pressure says so: it never prints "not given"
    beside the header's value."""
    assessment = make_assessment(_case(), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    scenario.inputs = {k: v for k, v in scenario.inputs.items() if k != "VPchem"}
    scenario.save()
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    rows = {r["param"].symbol: r for r in presentation.inputs_used(scenario=scenario, result=scenario.result,
                                                                   case=assessment.submission)}
    assert rows["VPchem"]["text"] == presentation.VALUE_LEFT_OUT
    assert rows["MWchem"]["standing"] == presentation.FROM_CASE
