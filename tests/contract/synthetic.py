"""A made-up scenario, registered only inside the contract tests (``registry.registered``).

Its symbols deliberately share nothing with the real scenarios' (no ``Qchem_yr``, no
``Nsites``), so a page or report that works for it works from the engine's declarations
alone: the inputs' case fields (``from_case``), the facility facts, the process, the
media, the mass balance. Its arithmetic is trivial and stated in its own docstrings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from assessments.esd.calc import Calc, equation
from assessments.esd.figures import FacilityFigure, computed_by
from assessments.esd.parameters import CHOICE, INT, Param, ParamSet, Step
from assessments.esd.registry import Scenario
from assessments.esd.results import (
    Exposure,
    ExposureEstimate,
    Facts,
    Medium,
    Release,
    Result,
    Trace,
    release_estimate,
)
from assessments.esd.text import num

KEY = "synthetic-contract"
DOC = "Synthetic test document"


@equation("plant_count", "sites", "ceil(yearly_mass / mass_per_plant)", f"{DOC} Eqn 1",
          label="Plants needed, rounded up")
def plant_count(yearly_mass: float, mass_per_plant: float) -> int:
    """Plants needed, rounded up [sites].

    >>> plant_count(2500.0, 1000.0)
    3
    """
    return max(1, math.ceil(yearly_mass / mass_per_plant))


@equation("daily_mass", "kg/site-day", "yearly_mass / (plant_count × run_days)", f"{DOC} Eqn 2",
          label="Mass handled a plant a day")
def daily_mass(yearly_mass: float, plant_count: int, run_days: float) -> float:
    """Mass handled a plant a day [kg/site-day].

    >>> daily_mass(3000.0, 3, 200)
    5.0
    """
    return yearly_mass / (plant_count * run_days)


@equation("rinse_loss", "kg/site-day", "daily_mass × part_of_mix × rinse_share", f"{DOC} Eqn 3",
          label="Chemical rinsed to water a plant a day")
def rinse_loss(daily_mass: float, part_of_mix: float, rinse_share: float) -> float:
    """Chemical rinsed to water a plant a day [kg/site-day].

    >>> rinse_loss(5.0, 0.5, 0.1)
    0.25
    """
    return daily_mass * part_of_mix * rinse_share


@equation("moles_handled", "mol/site-day", "rinse_loss × 1000 / molar_mass", f"{DOC} Eqn 4",
          label="Moles rinsed a plant a day")
def moles_handled(rinse_loss: float, molar_mass: float) -> float:
    """Moles rinsed a plant a day [mol/site-day].

    >>> moles_handled(0.25, 250.0)
    1.0
    """
    return rinse_loss * 1000 / molar_mass


PARAMS = ParamSet(
    params=(
        Param("yearly_mass", "Mass of the product made a year", "kg/yr", None, "The case", "amounts",
              lower=0, lower_open=True, required=True, from_case="production_volume_kg_yr"),
        Param("part_of_mix", "Share of the chemical in the mix", "kg/kg", 0.5, f"{DOC} Table 1", "amounts",
              lower=0, upper=1, lower_open=True, from_case="use_concentration"),
        Param("molar_mass", "Molar mass of the chemical", "g/mol", None, "The case", "amounts",
              lower=0, lower_open=True, from_case="molecular_weight", if_empty="the moles are not given"),
        Param("plant_count", "Plants, when known", "sites", None, f"{DOC} §2", "plants", lower=1, kind=INT,
              if_empty="computed from the mass a plant handles"),
        Param("mass_per_plant", "Mass one plant handles a year", "kg/site-yr", 1000.0, f"{DOC} Table 2",
              "plants", lower=0, lower_open=True),
        Param("run_days", "Days a plant runs", "days/yr", 200, f"{DOC} Table 2", "plants", lower=1, upper=365),
        Param("rinse_share", "Share rinsed to water", "kg/kg", 0.1, f"{DOC} Table 3", "plants", lower=0, upper=1),
        Param("rinse_medium", "Where the rinse goes", "", "water", f"{DOC} §3", "plants", kind=CHOICE,
              choices=(("water", "Water"), ("incineration", "Incineration"))),
        Param("crew", "Workers a plant", "workers/site", 3, f"{DOC} §4", "plants", lower=0, kind=INT),
    ),
    steps=(Step("amounts", "Amounts"), Step("plants", "Plants")),
)


def run(v: Mapping[str, Any]) -> Result:
    calc = Calc(Trace())
    known = v["plant_count"] is not None
    plants = v["plant_count"] if known else calc(plant_count, yearly_mass=v["yearly_mass"],
                                                  mass_per_plant=v["mass_per_plant"])
    daily = calc(daily_mass, yearly_mass=v["yearly_mass"], plant_count=plants, run_days=v["run_days"])
    rinse = calc(rinse_loss, daily_mass=daily, part_of_mix=v["part_of_mix"], rinse_share=v["rinse_share"])
    mix = f"{num(v['part_of_mix'] * 100)}%"
    basis = f"{num(daily)} kg/site-day of a mix with {mix} of the chemical, {num(v['rinse_share'])} rinsed (Eqn 3)."
    if v["molar_mass"] is not None:
        moles = calc(moles_handled, rinse_loss=rinse, molar_mass=v["molar_mass"])
        basis += f" That is {num(moles)} mol/site-day at {num(v['molar_mass'], 5)} g/mol."
    release = Release(1, "Rinse of the mixing vessel", "Synthetic rinse model", f"{DOC} Eqn 3",
                      [Medium(v["rinse_medium"], 1.0)],
                      [release_estimate("conservative", rinse, v["run_days"], plants, basis)])
    used = v["yearly_mass"] * v["part_of_mix"]
    exposure = Exposure("A", "Mixing by hand", "dermal", "Synthetic contact model", f"{DOC} Eqn 5", v["crew"],
                        min(v["run_days"], 250), [ExposureEstimate("high end", 10.0, f"A {mix} mix on the hands.")])
    return Result(
        scenario=KEY, inputs=dict(v), facility={"plant_count": plants, "daily_mass": daily}, releases=[release],
        exposures=[exposure], warnings=[], trace=calc.trace.steps, notes=[f"Mix holds {mix} of the chemical."],
        default_set={"summary": "synthetic defaults, Tables 1 to 3"},
        process=[f"Chemical arrives in drums ({mix})", "mixed into the product", "rinsed"],
        facts=Facts(sites=plants, sites_known=known, operating_days=v["run_days"], workers_per_site=v["crew"],
                    workers_basis="the mixing crew of each plant", used_kg_yr=used),
        consumed_kg_yr=used - release.estimates[0].kg_year_all_sites,
    )


#: Its facility figures: the plants, computed or known (named by the equation that gave them,
#: else as plants), and the mass a plant handles a day.
FACILITY = {
    "plant_count": FacilityFigure("Plants", "sites", step="plant_count", by_equation=True),
    "daily_mass": computed_by(daily_mass),
}

SYNTHETIC = Scenario(KEY, "Synthetic contract scenario", DOC, PARAMS, run, facility_labels=FACILITY)
