"""Every facility quantity a scenario returns is named on the pages: by the scenario's
declaration (``Scenario.facility_labels``), the equation that computed it or the input it
is, never a bare symbol. Checked on every worked example the documents print (the runs of
the self-verification), on a plain case and on inputs that take the other branches (known
sites, the supplier site, a volatile chemical, few containers, cleanings), so a quantity a
scenario starts to return cannot reach the results page or Compare without a label."""

from __future__ import annotations

import dataclasses

import pytest

from assessments import comparison, presentation
from assessments.esd import registry
from assessments.esd.verification import Run, figures

SCENARIOS = registry.scenarios()


def _runs(value, found: list[Run]) -> None:
    if isinstance(value, Run):
        found.append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _runs(getattr(value, f.name), found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _runs(item, found)


def _worked_examples(key: str) -> list[dict]:
    """The effective inputs of every run of the documents' worked examples for ``key``."""
    found: list[Run] = []
    for figure in figures():
        _runs(figure.source, found)
    unique = {run.cache_key(): run.effective_inputs() for run in found if run.scenario.key == key}
    return list(unique.values())


def _case(scenario) -> dict:
    values = {"production_volume_kg_yr": 5000.0, "use_concentration": 0.15, "molecular_weight": 200.0,
              "vapour_pressure_torr": 5.0}
    return {p.symbol: values[p.from_case] for p in scenario.params.params if p.from_case in values}


#: Inputs that take the branches a plain case does not (each kept where the scenario has it).
BRANCHES = (
    {"Nsites": 1},
    {"supplier_site": "yes", "Nsites_supplier": 2},
    {"physical_state": "gas"},
    {"Vcont": 1000.0, "Ncont_site_day": 1},
    {"cleanings_per_year": 12},
    {"vapour_pressure_torr": None},
)


def _input_sets(scenario) -> list[dict]:
    case = _case(scenario)
    sets = [case] + [{**case, **{k: v for k, v in branch.items() if k in scenario.params}} for branch in BRANCHES]
    return _worked_examples(scenario.key) + sets


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_facility_quantity_has_a_label(scenario):
    unlabelled: dict[str, object] = {}
    shown = set()
    for inputs in _input_sets(scenario):
        result = scenario.compute(inputs).as_dict()
        for row in presentation.facility_rows(result=result, scenario_key=scenario.key):
            shown.add(row["symbol"])
            if not row["label"]:
                unlabelled[row["symbol"]] = row["value"]
    assert shown, "no facility quantity shown"
    assert not unlabelled, f"{scenario.key}: facility quantities without a label: {unlabelled}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_declared_label_names_a_quantity_the_scenario_returns(scenario):
    returned = set()
    for inputs in _input_sets(scenario):
        returned |= set(scenario.compute(inputs).facility)
    assert set(scenario.facility_labels) <= returned, set(scenario.facility_labels) - returned


def _rows(key: str, inputs: dict) -> dict[str, dict]:
    result = registry.compute(key, inputs).as_dict()
    return {row["symbol"]: row for row in presentation.facility_rows(result=result, scenario_key=key)}


def test_the_photoresist_quantities_read_with_their_labels_and_units():
    # ESD 2010 §6 inputs (5,000 kg/yr, 15 %): 360 application days; the releases add up to the
    # production volume (Eqn 4-1b: containers emptied every application day, §6.2.1);
    # 2 operators × 8 lines × 3 shifts + 6 technicians × 3 shifts = 48 + 18 = 66 distinct workers
    # a site (Eqn 5-1, 5-2; §6.3.1 and §6.3.2 print 48 and 18).
    rows = _rows("photoresist-2010", {"Qchem_yr": 5000.0, "Fchem": 0.15})
    assert (rows["release_total_kg_yr"]["label"], rows["release_total_kg_yr"]["text"]) == (
        "All releases added up, all sites", "5,000 kg/yr")
    assert (rows["TIMEdays_container_residue"]["label"], rows["TIMEdays_container_residue"]["text"]) == (
        "Days a year of the container-residue release (Release 1)", "360 days/yr")
    assert rows["TIMEdays_equip_residue"]["text"] == "360 days/yr"
    assert rows["Nworkers_exposed_site"]["text"] == "66 workers/site"
    assert rows["container_release_equation"]["label"] == "Equation of the container-residue release (Release 1)"
    assert rows["container_release_equation"]["text"] == "ESD 2010 Eqn 4-1b"


def test_the_cvd_quantities_read_with_their_labels_and_units():
    # By hand, at the ESD 2015 defaults (1,000 kg/site-yr, 360 days, Fcontainer_disp 0.1; Table A-4):
    # Eqn 3-2: 5,000 × 0.9 ÷ (1,000 ÷ 360 × 360) = 4.5 -> 5 sites; the daily use recalculated for
    # them (§3.6): 4,500 ÷ (5 × 360) = 2.5 kg/site-day, × 360 days = 900 kg/site-yr.
    rows = _rows("cvd-2015", {"Qchem_yr": 5000.0})
    assert rows["Qchem_site_yr_used"]["text"] == "900 kg/site-yr"
    assert rows["Qchem_site_yr_used"]["label"].startswith("Use of the precursor per site a year")
    assert rows["density_basis"]["label"] == "Where the density of the precursor comes from"
    assert rows["worker_exposure_fab"]["label"] == "Worker exposure at the fab"


def test_a_quantity_not_computed_for_the_inputs_is_not_listed():
    # Nsites known: Eqn 3-3 is not used, the sites before rounding are not computed (None).
    result = registry.compute("photoresist-2010", {"Qchem_yr": 5000.0, "Nsites": 2}).as_dict()
    assert result["facility"]["Nsites_calculated"] is None
    symbols = [row["symbol"] for row in presentation.facility_rows(result=result, scenario_key="photoresist-2010")]
    assert "Nsites_calculated" not in symbols and "Nsites" in symbols


@pytest.mark.django_db
def test_compare_names_the_facility_quantities_by_their_labels(reviewer):
    from assessments import services
    from tests.conftest import make_assessment, make_submission

    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    values = comparison._result_values(scenario)
    assert values["Facility: All releases added up, all sites"] == "5,000 kg/yr"
    assert not [label for label in values if label.startswith("Facility: ") and "_" in label], values
