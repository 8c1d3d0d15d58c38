"""Numbers that know who they are: every figure the engine returns carries its label, units
and role as the engine declares them (``@equation(..., label=...)``, the scenarios'
``FacilityFigure`` declarations, :mod:`assessments.esd.figures`), and the pages read them
from there: never from a docstring, never from a symbol's suffix."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

from assessments import presentation
from assessments.esd import calc, figures, registry
from assessments.esd.provenance import flatten
from tests.contract.varied_inputs import input_sets

SCENARIOS = registry.scenarios()


def _engine_modules():
    import assessments.esd as esd

    return [importlib.import_module(m.name) for m in pkgutil.walk_packages(esd.__path__, esd.__name__ + ".")]


def _equations() -> list:
    found = {}
    for module in _engine_modules():
        for value in vars(module).values():
            if callable(value) and isinstance(getattr(value, "info", None), calc.EquationInfo):
                found[id(value)] = value
    return list(found.values())


def test_every_equation_in_the_engine_declares_a_label():
    equations = _equations()
    assert len(equations) > 80  # the photoresist, CVD, EIIP and inhalation equations
    blank = [f"{fn.__module__}.{fn.__name__}" for fn in equations if not fn.info.label.strip()]
    assert not blank, blank
    symbols = [f"{fn.__module__}.{fn.__name__}" for fn in equations if fn.info.label in (fn.info.symbol, fn.__name__)]
    assert not symbols, f"labels that are only a symbol: {symbols}"


def test_an_equation_without_a_label_is_refused_where_it_is_declared():
    with pytest.raises(TypeError):
        calc.equation("y", "kg/day", "a × b", "Doc Eqn 1")  # label is a required keyword
    with pytest.raises(ValueError, match="needs a label"):
        calc.equation("y", "kg/day", "a × b", "Doc Eqn 1", label="  ")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_trace_step_carries_a_label(scenario):
    unlabelled = set()
    for inputs in input_sets(scenario):
        for step in scenario.compute(inputs).trace:
            if not step.label.strip():
                unlabelled.add((step.symbol, step.citation))
    assert not unlabelled, unlabelled


#: Parts of ``Result.as_dict()`` whose numbers are not figures of the result: the inputs, each
#: step's own inputs (figures elsewhere in the result, or inputs) and a release's number.
NOT_FIGURES = re.compile(r"^(inputs(/.*)?|trace/\d+/inputs(/.*)?|releases/\d+/number)$")


def _numbers(result: dict) -> dict[str, object]:
    return {path: value for path, value in flatten(result).items()
            if isinstance(value, (int, float)) and not isinstance(value, bool) and not NOT_FIGURES.match(path)
            and not isinstance(_parent(result, path), list)}


def _parent(result: dict, path: str):
    """The container of the value at ``path`` (a list's own path holds its length in ``flatten``)."""
    node = result
    for part in path.split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _check_figures(result, declared) -> list[str]:
    """What is wrong with the figures of ``result``: a number of the result no figure names,
    a figure at a path that does not hold its value, a figure without a label or a role."""
    data = result.as_dict()
    listed = figures.figures_of(data, declared)
    by_path = {f.path: f for f in listed}
    problems = [f"two figures at {path}" for path in by_path if sum(f.path == path for f in listed) > 1]
    numbers = _numbers(data)
    problems += [f"no figure for {path}" for path in numbers if path not in by_path]
    flat = flatten(data)
    for f in listed:
        if flat.get(f.path, object()) != f.value:
            problems.append(f"{f.path} does not hold {f.value!r}")
        if not f.label.strip():
            problems.append(f"{f.path} has no label")
        if f.role not in figures.ROLES:
            problems.append(f"{f.path} has the role {f.role!r}")
    return problems


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_figures_name_every_number_of_a_result(scenario):
    problems = set()
    for inputs in input_sets(scenario):
        problems |= set(_check_figures(scenario.compute(inputs), scenario.facility_labels))
    assert not problems, sorted(problems)


def test_figures_name_every_number_of_the_synthetic_scenario(synthetic):
    for inputs in ({"yearly_mass": 2500.0, "molar_mass": 250.0}, {"yearly_mass": 2500.0, "plant_count": 2}):
        result = synthetic.compute(inputs)
        assert not _check_figures(result, synthetic.facility_labels)
        assert figures.figures(result)  # the registered scenario's declarations


def test_figures_have_the_paths_and_words_a_reviewer_reads():
    # The ESD 2010 §6 example: 5,000 kg/yr at 15 %; Release 1 is container residue.
    result = registry.compute("photoresist-2018", {"Qchem_yr": 5000.0, "Fchem": 0.15})
    listed = {f.path: f for f in figures.figures(result)}
    assert (listed["facility/Nsites"].label, listed["facility/Nsites"].units, listed["facility/Nsites"].role) == (
        "The number of sites rounded up to the next integer", "sites", "facility")
    assert listed["facility/Nsites"].value == 3
    estimate = listed["releases/0/estimates/0/kg_site_day"]
    assert (estimate.units, estimate.role) == ("kg/site-day", "release")
    assert estimate.label.startswith("Daily release per site, Release 1 (")
    assert listed["exposures/0/estimates/0/mg_day"].role == "exposure"
    assert (listed["exposures/0/estimates/0/add_mg_kg_day"].role,
            listed["exposures/0/estimates/0/add_mg_kg_day"].units) == ("dose", "mg/kg-day")
    assert (listed["facts/sites"].label, listed["facts/sites"].role) == ("Number of sites", "fact")
    assert (listed["mass_balance/used_kg_yr"].role, listed["mass_balance/used_kg_yr"].value) == ("balance", 5000.0)
    step = listed["trace/0/value"]
    assert (step.label, step.role, step.citation) == (
        "Daily dispense (use) rate of the photoresist per site", "trace", result.trace[0].citation)


def test_an_airborne_concentration_is_a_concentration():
    # The CVD supplier site's container cleaning (App. D): an inhalation estimate with its 8-hour TWA.
    result = registry.compute("cvd-2015", {"Qchem_yr": 5000.0, "supplier_site": "yes", "VP_chem": 100.0,
                                           "MW_chem": 100.0})
    roles = {f.path.rsplit("/", 1)[1]: f.role for f in figures.figures(result) if f.path.startswith("exposures/")}
    assert roles["mg_m3"] == roles["ppm"] == "concentration"
    listed = {f.path: f for f in figures.figures(result)}
    assert listed["facility/supplier/Cv_chem"].label == "Airborne concentration of the precursor scaled from an analogue's data"


# The rule: docstrings name nothing --------------------------------------------------------------

OTHER_TEXT = "Something else entirely, to prove that no page reads it [furlongs]."


def _replace_every_docstring(monkeypatch) -> int:
    """Every function and method of the engine gets another docstring; returns how many."""
    replaced = 0
    seen = set()
    for module in _engine_modules():
        for value in vars(module).values():
            targets = [value]
            if inspect.isclass(value) and value.__module__.startswith("assessments.esd"):
                targets += [m for m in vars(value).values() if inspect.isfunction(m)]
            for target in targets:
                if (inspect.isfunction(target) and target.__module__.startswith("assessments.esd")
                        and id(target) not in seen):
                    seen.add(id(target))
                    monkeypatch.setattr(target, "__doc__", OTHER_TEXT)
                    replaced += 1
    return replaced


#: Inputs of the pages compared: the 2004 edition (both ends of the adhesion range, always), the
#: 2010 ESD with both ends asked for, the 2018 update with ChemSTEER's daily use and a known
#: number of sites, CVD as a gas with the supplier site and as a liquid with a site-specific release.
PAGES = (
    ("photoresist-2004", {}),
    ("photoresist-2010", {"Fphoto_wafer_range": "both"}),
    ("photoresist-2018", {"daily_use_basis": "chemsteer", "Nsites": 4}),
    ("cvd-2015", {"physical_state": "gas", "supplier_site": "yes", "VP_chem": 100.0, "MW_chem": 100.0}),
    ("cvd-2015", {"physical_state": "liquid", "site_specific": [
        {"method": "source_test", "replaces": 1, "source": "EIIP Example 6.4-3 (stack test)",
         "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020, "OH": 1760,
                    "days_per_year": 220}}]}),
)


def _page(client, scenario) -> str:
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    # Computing again moves the "computed" time (by a minute, across a minute's end).
    return re.sub(r" · computed \d{4}-\d{2}-\d{2} \d{2}:\d{2}", " · computed (time)", html)


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "inputs"), PAGES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(PAGES)])
def test_the_results_page_reads_no_docstring(client, reviewer, monkeypatch, key, inputs):
    from assessments import services
    from tests.conftest import make_assessment, make_submission

    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15, molecular_weight=100.0,
                           vapour_pressure_torr=5.0)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=key)
    scenario.inputs = {**scenario.inputs, **inputs}
    scenario.save()
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    client.force_login(reviewer)
    rows = presentation.facility_rows(result=scenario.result, scenario_key=key)
    page = _page(client, scenario)
    listed = figures.figures_of(scenario.result, registry.get(key).facility_labels)
    assert all(row["label"] for row in rows)

    assert _replace_every_docstring(monkeypatch) > 200
    assert calc.equation_info(_equations()[0]).label  # the declarations stand
    assert presentation.facility_rows(result=scenario.result, scenario_key=key) == rows
    assert _page(client, scenario) == page
    # Computed again with the other docstrings, the result and its figures are the same.
    again = services.scenario_compute(scenario=scenario, by=reviewer)
    assert figures.figures_of(again.result, registry.get(key).facility_labels) == listed
    assert _page(client, again) == page
    assert OTHER_TEXT not in page


def test_no_page_report_or_figure_reads_a_docstring():
    """The docstring test above cannot see a docstring read once and cached; this one can:
    nothing that names a figure (the presentation and comparison reads, the report, the
    templates and their tags, the engine's figures) reads ``__doc__``."""
    from pathlib import Path

    root = Path(presentation.__file__).resolve().parent.parent
    readers = [root / "assessments" / "presentation.py", root / "assessments" / "comparison.py",
               root / "assessments" / "esd" / "figures.py", root / "assessments" / "esd" / "calc.py",
               *(root / "assessments" / "reports").glob("*.py"), *(root / "assessments" / "templatetags").glob("*.py"),
               *(root / "templates").rglob("*.html")]
    found = [str(path.relative_to(root)) for path in readers if re.search(r"__doc__|getdoc", path.read_text())]
    assert not found, found
