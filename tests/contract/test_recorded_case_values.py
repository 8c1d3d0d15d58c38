"""An input whose stored reason records that it took a claimed case value carries the claim
in the sanitised copy, whether or not its scenario still declares ``from_case``.

CVD's Fchem was prefilled from the case's use concentration until the precursor's purity
was told apart from it; uses saved then hold the case's value with the case's reason. Two
such cases differing only in the claimed concentration print the same sanitised copy.
"""

from __future__ import annotations

import pytest

from assessments import services
from assessments.case_links import CASE_REASON, case_field_label
from assessments.esd import registry
from assessments.models import Scenario
from tests.contract.sanitised import PLAIN, build, first_difference, sanitised_copies

pytestmark = pytest.mark.django_db

CVD_KEYS = [s.key for s in registry.scenarios()
            if "Fchem" in registry.get(s.key).params and not registry.get(s.key).params["Fchem"].from_case]
REASON = CASE_REASON.format(field=case_field_label("use_concentration"))


def _saved_then(key: str, concentration: float, reviewer):
    """A CVD use as saved when Fchem took the case's concentration, computed again."""
    assessment = build(key, {**PLAIN, "use_concentration": concentration}, ["use_concentration"], branch={},
                       site_data=False, reviewer=reviewer)
    scenario = Scenario.objects.get(assessment=assessment)
    scenario.inputs = {**scenario.inputs, "Fchem": concentration}
    scenario.reasons = {**scenario.reasons, "Fchem": REASON}
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


def test_there_is_such_an_input():
    assert CVD_KEYS, "no scenario has an Fchem that does not declare from_case: this test has nothing to read"


@pytest.mark.parametrize("key", CVD_KEYS)
def test_a_concentration_taken_from_the_case_is_withheld(key, reviewer):
    first = sanitised_copies(_saved_then(key, 0.137, reviewer))
    second = sanitised_copies(_saved_then(key, 0.862, reviewer))
    for name in first:
        assert first[name] == second[name], f"{key}, {name}:\n" + first_difference(first[name], second[name])
        assert "0.137" not in first[name] and "13.7" not in first[name]


@pytest.mark.parametrize("key", CVD_KEYS[:1])
def test_a_value_of_the_reviewers_own_is_printed(key, reviewer):
    """Only the record moves the claim: the same input with a reason of the reviewer's own is
    the reviewer's figure, printed in the sanitised copy."""
    assessment = build(key, {**PLAIN, "use_concentration": 0.137}, ["use_concentration"], branch={},
                       site_data=False, reviewer=reviewer)
    scenario = Scenario.objects.get(assessment=assessment)
    scenario.inputs = {**scenario.inputs, "Fchem": 0.4375}
    scenario.reasons = {**scenario.reasons, "Fchem": "Supplier's certificate of analysis: 50 % in hexane."}
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    copy = sanitised_copies(assessment)["sheet (print)"]
    assert "0.4375" in copy
