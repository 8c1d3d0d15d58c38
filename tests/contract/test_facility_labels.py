"""Every facility quantity a scenario returns is declared by the scenario
(``Scenario.facility_labels``: a :class:`~assessments.esd.figures.FacilityFigure` with its
label, units, role and the trace step that computed it), and the pages name it by that
declaration only: never by an equation's docstring, an input's label or a symbol's suffix.
Checked on every worked example the documents print (the runs of the self-verification),
on a plain case and on inputs that take the other branches (``varied_inputs``), so a
quantity a scenario starts to return cannot reach the results page or Compare undeclared."""

from __future__ import annotations

import copy
from collections import defaultdict

import pytest

from assessments import comparison, presentation
from assessments.esd import figures, registry
from tests.contract.varied_inputs import input_sets

SCENARIOS = registry.scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_facility_key_is_declared(scenario):
    undeclared: dict[str, list] = {}
    for inputs in input_sets(scenario):
        result = scenario.compute(inputs).as_dict()
        for key in figures.undeclared(result, scenario.facility_labels):
            undeclared.setdefault(key, []).append(inputs)
    assert not undeclared, f"{scenario.key}: facility keys the scenario does not declare: {sorted(undeclared)}"


def test_the_synthetic_scenario_declares_its_facility_keys(synthetic):
    for inputs in ({"yearly_mass": 2500.0}, {"yearly_mass": 2500.0, "plant_count": 2}):
        result = synthetic.compute(inputs).as_dict()
        assert figures.undeclared(result, synthetic.facility_labels) == []
        assert all(row["label"] for row in presentation.facility_rows(result=result, scenario_key=synthetic.key))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_facility_quantity_has_a_label(scenario):
    unlabelled: dict[str, object] = {}
    shown = set()
    for inputs in input_sets(scenario):
        result = scenario.compute(inputs).as_dict()
        for row in presentation.facility_rows(result=result, scenario_key=scenario.key):
            shown.add(row["symbol"])
            if not row["label"]:
                unlabelled[row["symbol"]] = row["value"]
    assert shown, "no facility quantity shown"
    assert not unlabelled, f"{scenario.key}: facility quantities without a label: {unlabelled}"


def _by_declaration() -> list[tuple[str, list]]:
    """The scenarios grouped by the declarations they share (the 2010 ESD and its 2018 update)."""
    groups: dict[int, list] = defaultdict(list)
    for scenario in SCENARIOS:
        groups[id(scenario.facility_labels)].append(scenario)
    return [("+".join(s.key for s in group), group) for group in groups.values()]


@pytest.mark.parametrize("group", [g for _, g in _by_declaration()], ids=[k for k, _ in _by_declaration()])
def test_every_declared_figure_names_a_quantity_a_scenario_declaring_it_returns(group):
    returned: set[str] = set()
    for scenario in group:
        for inputs in input_sets(scenario):
            result = scenario.compute(inputs).as_dict()
            returned |= {key for key, _ in _leaves(result["facility"])}
    declared = set(group[0].facility_labels)
    assert declared <= returned, declared - returned


@pytest.mark.parametrize("group", [g for _, g in _by_declaration()], ids=[k for k, _ in _by_declaration()])
def test_the_declared_step_computed_its_figure(group):
    """Where the trace holds the step a figure declares, that step's value is the figure
    (the first step of its symbol for a value before rounding, else the last), and every
    declared step is recorded by some input that gives the figure a value."""
    recorded: set[str] = set()
    held: set[str] = set()
    wrong = []
    for scenario in group:
        for inputs in input_sets(scenario):
            result = scenario.compute(inputs).as_dict()
            flat = dict(_leaves(result["facility"]))
            held |= {key for key, value in flat.items() if value is not None}
            for key, declaration in scenario.facility_labels.items():
                steps = [s for s in result["trace"] if declaration.step and s["symbol"] == declaration.step]
                if not steps or flat.get(key) is None:
                    continue
                recorded.add(key)
                step = steps[0] if declaration.first_step else steps[-1]
                if step["value"] != pytest.approx(flat[key], rel=1e-12):
                    wrong.append((scenario.key, key, step["value"], flat[key]))
    assert not wrong, wrong
    stepped = {key for key, d in group[0].facility_labels.items() if d.step} & held
    assert stepped <= recorded, f"declared steps never recorded: {stepped - recorded}"


def _leaves(mapping: dict, prefix: str = ""):
    for key, value in mapping.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{prefix}{key}/")
        else:
            yield f"{prefix}{key}", value


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


def test_a_value_before_rounding_cites_its_own_step_not_the_rounding():
    # ESD 2010 §6.1.3: 5,000 × 0.99 / (5.4 × 360) = 2.546 sites, rounded up to 3 (§6.1.4).
    rows = _rows("photoresist-2010", {"Qchem_yr": 5000.0, "Fchem": 0.15})
    assert rows["Nsites_calculated"]["label"] == "Number of sites using the photoresist, before rounding"
    assert rows["Nsites_calculated"]["citation"] == "ESD 2010 Eqn 3-3, §3.5"
    assert rows["Nsites"]["label"] == "The number of sites rounded up to the next integer"
    assert rows["Nsites"]["citation"] == "ESD 2010 Eqn 3-3 footnote, §3.5"
    assert rows["Qchem_day_eqn_3_2"]["citation"] == "ESD 2010 Eqn 3-2, §3.4"


def test_a_quantity_computed_by_one_of_several_equations_is_named_by_the_one_used():
    dispensed = _rows("photoresist-2018", {"Qchem_yr": 5000.0})
    chemsteer = _rows("photoresist-2018", {"Qchem_yr": 5000.0, "daily_use_basis": "chemsteer"})
    known = _rows("photoresist-2018", {"Qchem_yr": 5000.0, "Nsites": 2})
    assert dispensed["Qchem_day"]["label"] == "Daily dispense rate recalculated for a whole (or known) number of sites"
    assert chemsteer["Qchem_day"]["label"] == "Daily use rate as ChemSTEER recalculates it after rounding Nsites"
    # A known number of sites: no equation computed it.
    assert (known["Nsites"]["label"], known["Nsites"]["text"], known["Nsites"]["citation"]) == (
        "Number of sites", "2 sites", "")


def test_the_cvd_quantities_read_with_their_labels_and_units():
    # By hand, at the ESD 2015 defaults (1,000 kg/site-yr, 360 days, Fcontainer_disp 0.1; Table A-4):
    # Eqn 3-2: 5,000 × 0.9 ÷ (1,000 ÷ 360 × 360) = 4.5 -> 5 sites; the daily use recalculated for
    # them (§3.6): 4,500 ÷ (5 × 360) = 2.5 kg/site-day, × 360 days = 900 kg/site-yr.
    rows = _rows("cvd-2015", {"Qchem_yr": 5000.0})
    assert rows["Qchem_site_yr_used"]["text"] == "900 kg/site-yr"
    assert rows["Qchem_site_yr_used"]["label"].startswith("Use of the precursor per site a year")
    assert rows["density_basis"]["label"] == "Where the density of the precursor comes from"
    assert rows["worker_exposure_fab"]["label"] == "Worker exposure at the fab"
    assert rows["Nsites"]["text"] == "5 sites" and rows["Nsites"]["basis"] == "Eqn 3-2, rounded up"
    assert "Nsites_basis" not in rows and "EF_basis" not in rows  # given on their quantities' rows


def test_the_cvd_range_ends_are_named_by_their_declarations():
    # Eqn 4-1 at each end of the utilisation range (§4.3 ¶59-60, Table A-4: 0.3 to 0.5), on the
    # 2.5 kg/site-day worked above: 2.5 × (1 − 0.5) = 1.25 and 2.5 × (1 − 0.3) = 1.75 kg/site-day.
    rows = _rows("cvd-2015", {"Qchem_yr": 5000.0})
    low, high = rows["Elocal_control_low_end"], rows["Elocal_control_high_end"]
    assert low["label"] == "Unreacted precursor vented from the chamber to POU abatement, low end"
    assert high["label"] == "Unreacted precursor vented from the chamber to POU abatement, high end"
    assert (low["value"], high["value"]) == (pytest.approx(1.25), pytest.approx(1.75))
    assert low["citation"] == high["citation"] == "ESD 2015 Eqn 4-1, §4.3"
    meet = _rows("cvd-2015", {"Qchem_yr": 5000.0, "U_process_low": 0.5, "U_process_high": 0.5})
    assert meet["Qconsumed_output"]["label"] == "Precursor consumed (reacted) in deposition"


def test_a_quantity_not_computed_for_the_inputs_is_not_listed():
    # Nsites known: Eqn 3-3 is not used, the sites before rounding are not computed (None).
    result = registry.compute("photoresist-2010", {"Qchem_yr": 5000.0, "Nsites": 2}).as_dict()
    assert result["facility"]["Nsites_calculated"] is None
    symbols = [row["symbol"] for row in presentation.facility_rows(result=result, scenario_key="photoresist-2010")]
    assert "Nsites_calculated" not in symbols and "Nsites" in symbols


def test_an_undeclared_quantity_gets_no_label_from_elsewhere():
    # Fchem is an input with a label; a facility key the scenario does not declare is not named by it.
    result = registry.compute("photoresist-2010", {"Qchem_yr": 5000.0}).as_dict()
    result["facility"]["Fchem"] = 0.15
    rows = {row["symbol"]: row for row in presentation.facility_rows(result=result, scenario_key="photoresist-2010")}
    assert rows["Fchem"]["label"] == ""
    assert figures.undeclared(result, registry.get("photoresist-2010").facility_labels) == ["Fchem"]


def test_a_result_stored_before_steps_carried_labels_reads_the_declarations():
    result = registry.compute("photoresist-2010", {"Qchem_yr": 5000.0}).as_dict()
    old = copy.deepcopy(result)
    for step in old["trace"]:
        del step["label"]
    now = {row["symbol"]: row for row in presentation.facility_rows(result=result, scenario_key="photoresist-2010")}
    before = {row["symbol"]: row for row in presentation.facility_rows(result=old, scenario_key="photoresist-2010")}
    assert before["Nsites"]["label"] == "Number of sites"
    assert before["Qchem_day"]["label"] == "Daily use rate of the chemical per site"
    assert before["Qphoto_day"] == now["Qphoto_day"]


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
