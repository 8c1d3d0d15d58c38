"""A new use takes from the case only the inputs its scenario declares it carries
(``Param.from_case``). The case's use concentration is the chemical's share of its use
formulation (a photoresist's 5 %); the CVD precursor's Fchem is its purity as received
(ESD 2015 §3.3 ¶39: supplied pure, > 99.99 %, 100 % by default), so a CVD use keeps the
ESD's 1.0 while a photoresist use on the same case takes 0.05 (issue 26)."""

from __future__ import annotations

import pytest

from assessments import services
from assessments.esd import registry
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def case():
    return make_submission(production_volume_kg_yr=5000.0, use_concentration=0.05)


def test_the_cvd_precursors_fchem_is_not_the_cases_use_concentration(case):
    inputs, reasons = services.initial_inputs(submission=case, scenario_key="cvd-2015")
    assert "Fchem" not in inputs and "Fchem" not in reasons
    assert inputs["Qchem_yr"] == 5000.0
    assert registry.get("cvd-2015").params["Fchem"].from_case is None


def test_a_new_cvd_use_computes_with_the_esds_pure_precursor(case, reviewer):
    use = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key="cvd-2015")
    assert "Fchem" not in use.inputs
    computed = services.scenario_compute(scenario=use, by=reviewer)
    assert computed.result["inputs"]["Fchem"] == 1.0  # ESD 2015 Table A-4 default


@pytest.mark.parametrize("key", ["photoresist-2004", "photoresist-2010", "photoresist-2018"])
def test_a_photoresist_use_takes_the_cases_concentration(case, reviewer, key):
    use = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=key)
    assert use.inputs["Fchem"] == 0.05
    assert use.reasons["Fchem"]  # the case is its reason
