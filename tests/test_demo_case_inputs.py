"""Each demo use takes what its case gives, as a use added in the application does
(``services.initial_inputs``: the inputs linked to the case, ``assessments.case_links``),
the fixture's inputs and reasons, the reviewer's, on top (``load_demo.with_case_inputs``).
So the engine computes the sample case with the vapour pressure and molecular weight the
case gives, and its IRER's inhalation line states the vapour pressure the case gives.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from pytest_django.fixtures import Settings

from assessments.case_links import case_input, case_reason, is_linked
from assessments.esd import registry
from assessments.esd.photoresist import constants as photoresist
from assessments.esd.photoresist import volatile
from assessments.models import Scenario, Submission
from assessments.reports.context import irer_context
from assessments.reports.document import plain_text
from demo.management.commands import load_demo

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RECORDS = json.loads((FIXTURES / "demo_cases.json").read_text(encoding="utf-8"))
SAMPLE, CVD = "P-18-0123", "P-26-0042"

#: The inputs each demo use takes from its case (``Param.from_case``), linked, with the value
#: it stores: the sample case gives PV 5,000 kg/yr, 15 % in the formulation, VP 1.0E-6 torr and
#: MW 200 (README, "Demo cases"); the CVD case PV 1,200 kg/yr, MW 410.9, VP 0.05 torr, and
#: "liquid", the document's default, which stores nothing.
LINKED: dict[tuple[str, int], dict[str, Any]] = {
    (SAMPLE, 1): {"Qchem_yr": 5000.0, "Fchem": 0.15, "VPchem": 1e-06, "MWchem": 200.0},
    (SAMPLE, 2): {"Qchem_yr": 5000.0, "Fchem": 0.15, "VPchem": 1e-06, "MWchem": 200.0},
    (CVD, 1): {"Qchem_yr": 1200.0, "MW_chem": 410.9, "VP_chem": 0.05, "physical_state": None},
}


@pytest.fixture
def demo(settings: Settings) -> None:
    settings.DEBUG = True  # load_demo runs only on a development machine
    call_command("load_demo", stdout=io.StringIO())


def use(number: str, revision: int) -> Scenario:
    return Scenario.objects.select_related("assessment__submission").get(
        assessment__submission__case_number=number, assessment__revision=revision)


def test_no_demo_use_in_the_fixture_repeats_a_value_its_case_gives() -> None:
    """A value equal to the case's, typed in the fixture, would unlink the input (its
    reason is the reviewer's, or none): the fixture leaves it to the case."""
    cases = {r["pk"]: r["fields"] for r in RECORDS if r["model"] == "assessments.submission"}
    revisions = {r["pk"]: r["fields"]["submission"] for r in RECORDS if r["model"] == "assessments.assessment"}
    repeated = []
    for record in (r for r in RECORDS if r["model"] == "assessments.scenario"):
        fields = record["fields"]
        case = cases[revisions[fields["assessment"]]]
        for param in registry.get(fields["scenario_key"]).params.params:
            given = param.from_case and param.symbol in fields["inputs"]
            if given and param.coerce(fields["inputs"][param.symbol]) == param.coerce(case[param.from_case]):
                repeated.append((case["case_number"], param.symbol))
    assert repeated == []


@pytest.mark.parametrize("number,revision", LINKED)
def test_every_demo_use_holds_the_inputs_its_case_gives_linked(demo: None, number: str, revision: int) -> None:
    scenario = use(number, revision)
    case = scenario.assessment.submission
    params = registry.get(scenario.scenario_key).params
    linked = {
        p.symbol: scenario.inputs.get(p.symbol) for p in params.params
        if p.from_case and is_linked(p, inputs=scenario.inputs, reasons=scenario.reasons,
                                     case_value=getattr(case, p.from_case))
    }
    assert linked == LINKED[(number, revision)]
    for symbol, value in linked.items():
        if value is not None:  # stored as a use added in the application stores it: the case its reason
            assert scenario.reasons.get(symbol) in (None, case_reason(params[symbol])), symbol


@pytest.mark.parametrize("number,revision", LINKED)
def test_every_demo_result_is_computed_with_the_case_inputs_that_apply(demo: None, number: str, revision: int) -> None:
    """The engine reads every linked input that applies; one that does not apply (the CVD
    use's MW_chem and VP_chem: no supplier site, the density by the physical state) takes
    the document's default, as in any use."""
    scenario = use(number, revision)
    params = registry.get(scenario.scenario_key).params
    applying = params.applicable(scenario.inputs)
    assert scenario.result is not None
    computed = scenario.result["inputs"]
    for symbol, value in LINKED[(number, revision)].items():
        expected = value if symbol in applying and value is not None else params[symbol].default
        assert computed[symbol] == expected, symbol
    assert scenario.computed_inputs == scenario.inputs


def test_the_sample_use_is_computed_with_the_cases_vapour_pressure_and_weight(demo: None) -> None:
    for revision in (1, 2):
        result = use(SAMPLE, revision).result
        assert result is not None
        computed = result["inputs"]
        assert (computed["VPchem"], computed["MWchem"]) == (1e-06, 200.0)
    assert use(CVD, 1).inputs["MW_chem"] == 410.9


def test_the_sample_irer_states_the_vapour_pressure_the_case_gives(demo: None) -> None:
    """The inhalation note is the engine's for the case's VP (1E-6 torr, below the
    nonvolatile limit), not the one for a use given no vapour pressure."""
    for revision in (1, 2):
        text = plain_text(irer_context(assessment=use(SAMPLE, revision).assessment)["document"])
        assert volatile.nonvolatile_note(1e-06, photoresist.ESD_2010) in text
        assert "VPchem = 1E-6 torr is below it" in text
        assert volatile.nonvolatile_note(None, photoresist.ESD_2010) not in text


# The rule --------------------------------------------------------------------------------------------


def test_a_fixture_value_replaces_the_case_value_and_its_reason() -> None:
    case = Submission(production_volume_kg_yr=5000.0, vapour_pressure_torr=1e-06, molecular_weight=200.0,
                      use_concentration=0.15)
    scenario = Scenario(scenario_key="photoresist-2018", inputs={"VPchem": 0.5, "MWchem": 250.0},
                        reasons={"VPchem": "MSDS, section 9."})
    load_demo.with_case_inputs(scenario, case)
    assert scenario.inputs == {"Qchem_yr": 5000.0, "Fchem": 0.15, "VPchem": 0.5, "MWchem": 250.0}
    params = registry.get("photoresist-2018").params
    # the reviewer's reason for VPchem; MWchem, typed over, keeps no reason of the case's
    assert scenario.reasons == {"Fchem": case_reason(params["Fchem"]), "VPchem": "MSDS, section 9."}
    assert case_input(params["MWchem"], case.molecular_weight) == (200.0, case_reason(params["MWchem"]))
