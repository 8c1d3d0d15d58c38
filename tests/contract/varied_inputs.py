"""Inputs that take a scenario through its branches, for the contract tests over every
scenario: every worked example the documents print (the runs of the self-verification), a
plain case, and the plain case with each branch a plain case does not take (each input
kept where the scenario has it): a known number of sites, the supplier site (volatile,
nonvolatile, or mitigated), a gas or a liquid, each way of finding the density, both ends
of the Fphoto_wafer range, ChemSTEER's daily use, few containers, cleanings less than
daily, a nonvolatile chemical, fewer than one site, releases only."""

from __future__ import annotations

import dataclasses

from assessments.esd.verification import Run, figures

#: Inputs that take the branches a plain case does not (each kept where the scenario has it).
BRANCHES = (
    {"Nsites": 1},
    {"Nsites": 3},
    {"supplier_site": "yes", "Nsites_supplier": 2},
    {"supplier_site": "yes", "VP_chem": 0.0001},
    {"supplier_site": "yes", "toxic_reactive_pyrophoric": "yes"},
    {"physical_state": "gas"},
    {"physical_state": "liquid"},
    {"physical_state": "gas", "density_method": "compressibility", "z": 0.9, "MW_chem": 100.0, "Tc": 300.0,
     "Pc": 40.0},
    {"density_method": "fill_mass", "m_container": 20.0},
    {"RHOformulation": 1.2},
    {"Qchem_site_day_basis": "eqn_3_1"},
    {"U_process_low": 0.5, "U_process_high": 0.5},
    {"Fphoto_wafer_range": "both"},
    {"daily_use_basis": "chemsteer"},
    {"Vcont": 1000.0, "Ncont_site_day": 1},
    {"cleanings_per_year": 12},
    {"VPchem": None},
    {"Qchem_yr": 10.0},
    {"include_exposures": "no"},
)

#: An EIIP site-specific air release (Example 6.4-3's stack test) replacing Release 1.
SITE_DATA = {
    "method": "source_test",
    "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020, "OH": 1760,
               "days_per_year": 220},
    "replaces": 1,
    "source": "EIIP Example 6.4-3 (stack test)",
}


def _runs(value, found: list[Run]) -> None:
    if isinstance(value, Run):
        found.append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _runs(getattr(value, f.name), found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _runs(item, found)


def worked_examples(key: str) -> list[dict]:
    """The effective inputs of every run of the documents' worked examples for ``key``."""
    found: list[Run] = []
    for figure in figures():
        _runs(figure.source, found)
    unique = {run.cache_key(): run.effective_inputs() for run in found if run.scenario.key == key}
    return list(unique.values())


def case_inputs(scenario) -> dict:
    """The inputs a plain case gives the scenario (5,000 kg/yr at 15 %, 200 g/mol, 5 torr)."""
    values = {"production_volume_kg_yr": 5000.0, "use_concentration": 0.15, "molecular_weight": 200.0,
              "vapour_pressure_torr": 5.0}
    return {p.symbol: values[p.from_case] for p in scenario.params.params if p.from_case in values}


def input_sets(scenario, *, site_data: bool = True) -> list[dict]:
    """The worked examples, the plain case, each branch and (``site_data``) the plain case
    with a site-specific release."""
    case = case_inputs(scenario)
    sets = [case] + [{**case, **{k: v for k, v in branch.items() if k in scenario.params}} for branch in BRANCHES]
    if site_data:
        sets.append({**case, "site_specific": [SITE_DATA]})
    return worked_examples(scenario.key) + sets
