"""General facility estimates (ESD 2010 Section 3; ESD 2004 §3.1).

Daily photoresist use (Eqn 3-1), daily chemical use (3-2), number of sites (3-3, rounded
up, or known), the daily use recalculated for those sites, and containers per site-year
(3-4). The 2004 edition differs: it keeps Qchem_day after Eqn 3-3 and only handles fewer
than one site (footnote 5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from ..calc import Calc
from ..figures import BALANCE, FacilityFigure, computed_by, entered
from ..parameters import ALL, EngineValidationError
from ..text import num
from . import constants as c
from . import equations as eq
from . import equations_2004 as eq04
from .params import CHEMSTEER, DAILY_USE_BASES, DISPENSED, params_2004, revised_params

NUMERICAL_LIMIT = (
    "these inputs give a daily use rate of {Qchem_day} kg/site-day and {Nsites} sites, which cannot be "
    "computed; check Qchem_yr, Fchem, Napply, TIMEapply_hours, Qapply and RHOphoto"
)


#: What tells the first value of a quantity the facility estimates compute twice apart from
#: the second, in the trace's printed names (``names.printed_names``): the daily use of
#: Eqn 3-2 before the sites are counted (then recalculated for whole sites), the number of
#: sites and of containers before they are rounded up.
BEFORE_SITES = "Eqn 3-2, before the sites are counted"
UNROUNDED_SITES = "Eqn 3-3, unrounded"
UNROUNDED_CONTAINERS = "Eqn 3-4, unrounded"

_INPUTS = {p.symbol: p for p in revised_params(c.HAND_AREAS_2018, stripping=True)}
_INPUTS_2004 = {p.symbol: p for p in params_2004()}

#: Every key of a result's ``facility`` mapping, as the pages and the report name it
#: (``Scenario.facility_labels``, :class:`~assessments.esd.figures.FacilityFigure`). The
#: general facility estimates (:class:`Facility`), both editions:
_FACILITY = {
    "Qphoto_day": computed_by(eq.photoresist_daily_use),
    "Qchem_day_eqn_3_2": computed_by(eq.chemical_daily_use, first_step=True),
    "Nsites_calculated": computed_by(eq.number_of_sites, first_step=True),
    # Computed (Eqn 3-3 rounded up) or known: named by the equation that gave it.
    "Nsites": FacilityFigure("Number of sites", "sites", step="Nsites", by_equation=True),
    # Recalculated for the sites (ESD or ChemSTEER), or, in the 2004 edition, kept from Eqn 3-2.
    "Qchem_day": FacilityFigure("Daily use rate of the chemical per site", "kg chemical/site-day", step="Qchem_day",
                                by_equation=True),
    "Qchem_received_day": computed_by(eq.chemical_received_daily),
    "Qcont": computed_by(eq.container_mass),
    "Ncont_site_yr_calculated": computed_by(eq.containers_per_site_year, first_step=True),
    "Ncont_site_yr": computed_by(eq.whole_containers),
}
_RELEASE_TOTAL = FacilityFigure("All releases added up, all sites", "kg/yr", role=BALANCE)
#: The 2010 ESD and its 2018 update.
FACILITY_LABELS = {
    **_FACILITY,
    "TIMEapply_days": entered(_INPUTS["TIMEapply_days"]),
    "daily_use_basis": entered(_INPUTS["daily_use_basis"]),
    "container_release_equation": FacilityFigure("Equation of the container-residue release (Release 1)", ""),
    "TIMEdays_container_residue": FacilityFigure("Days a year of the container-residue release (Release 1)", "days/yr",
                                                 step="TIMEdays_container_residue"),
    "TIMEdays_equip_residue": FacilityFigure("Days a year of the equipment-cleaning release (Release 2)", "days/yr"),
    "Noperators_site_day": computed_by(eq.operators_per_site),
    "Ntechs_site_day": computed_by(eq.technicians_per_site),
    "Nworkers_exposed_site": FacilityFigure(
        "Distinct workers exposed per site (operators and technicians, Eqn 5-1, 5-2)", "workers/site"),
    "release_total_kg_yr": _RELEASE_TOTAL,
    "stripping_process": entered(_INPUTS["stripping_process"]),  # the 2018 update only
}
#: The 2004 edition (it has no daily-use choice: its result says the daily use is kept).
FACILITY_LABELS_2004 = {
    **_FACILITY,
    # As entered, or fewer days for one site when Eqn 3-3 gives less than one (footnote 5).
    "TIMEapply_days": entered(_INPUTS_2004["TIMEapply_days"], step="TIMEapply_days", by_equation=True),
    "daily_use_basis": FacilityFigure("Daily use after rounding the number of sites up", ""),
    "Nworkers_low": entered(_INPUTS_2004["Nworkers_low"]),
    "Nworkers_high": entered(_INPUTS_2004["Nworkers_high"]),
    "release_total_kg_yr": _RELEASE_TOTAL,
}


@dataclass(frozen=True)
class Facility:
    """The general facility estimates a scenario's releases and exposures use."""

    Qphoto_day: float
    TIMEapply_days: float
    Qchem_day_eqn_3_2: float
    Nsites_calculated: float | None
    Nsites: int
    Qchem_day: float
    daily_use_basis: str
    Qchem_received_day: float | None = None
    Qcont: float | None = None
    Ncont_site_yr_calculated: float | None = None
    Ncont_site_yr: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def containers(self) -> Containers:
        """The chemical received and the containers it comes in (ESD 2010 Eqns 4-1b, 3-4).

        The 2004 edition counts no containers (:func:`facility_2004`).
        """
        if self.Qchem_received_day is None or self.Qcont is None or self.Ncont_site_yr is None:
            raise TypeError("the ESD 2004 facility estimates count no containers (ESD 2010 Eqn 3-4)")
        return Containers(self.Qchem_received_day, self.Qcont, self.Ncont_site_yr)


class Containers(NamedTuple):
    """A 2010-edition facility's containers (:meth:`Facility.containers`)."""

    Qchem_received_day: float
    Qcont: float
    Ncont_site_yr: int


def _daily_use(calc: Calc, inputs: Mapping[str, Any]) -> tuple[float, float]:
    Qphoto_day = calc(eq.photoresist_daily_use, Napply=inputs["Napply"], TIMEapply_hours=inputs["TIMEapply_hours"],
                      Qapply=inputs["Qapply"], RHOphoto=inputs["RHOphoto"])
    Qchem_day = calc(eq.chemical_daily_use, qualifier=BEFORE_SITES, Qphoto_day=Qphoto_day, Fchem=inputs["Fchem"],
                     Napp_ratio=inputs["Napp_ratio"])
    return Qphoto_day, Qchem_day


def _sites(calc: Calc, inputs: Mapping[str, Any], Qchem_day: float, days: float) -> float:
    if not Qchem_day > 0:
        raise EngineValidationError({ALL: NUMERICAL_LIMIT.format(Qchem_day=num(Qchem_day), Nsites="infinite")})
    Nsites = calc(eq.number_of_sites, qualifier=UNROUNDED_SITES, Fcontainer_disp=inputs["Fcontainer_disp"],
                  Qchem_yr=inputs["Qchem_yr"],
                  Qchem_day=Qchem_day, TIMEapply_days=days)
    if not math.isfinite(Nsites):
        raise EngineValidationError({ALL: NUMERICAL_LIMIT.format(Qchem_day=num(Qchem_day), Nsites="infinite")})
    return Nsites


def revised_facility(calc: Calc, inputs: Mapping[str, Any]) -> Facility:
    """ESD 2010 Eqns 3-1 to 3-4 with the rounding-up rule and the chosen daily-use basis."""
    days = inputs["TIMEapply_days"]
    Qphoto_day, Qchem_day_3_2 = _daily_use(calc, inputs)
    if inputs["Nsites"] is None:
        Nsites_calculated = _sites(calc, inputs, Qchem_day_3_2, days)
        Nsites = calc(eq.whole_sites, Nsites=Nsites_calculated)
    else:
        Nsites_calculated, Nsites = None, inputs["Nsites"]
    basis = inputs["daily_use_basis"]
    if basis == CHEMSTEER:
        Qchem_day = calc(eq.chemical_daily_use_chemsteer, Qchem_yr=inputs["Qchem_yr"], Nsites=Nsites,
                         TIMEapply_days=days, note=f"daily use: {dict(DAILY_USE_BASES)[CHEMSTEER]}")
    else:
        Qchem_day = calc(eq.chemical_daily_use_for_sites, Fcontainer_disp=inputs["Fcontainer_disp"],
                         Qchem_yr=inputs["Qchem_yr"], Nsites=Nsites, TIMEapply_days=days,
                         note=f"daily use: {dict(DAILY_USE_BASES)[DISPENSED]}")
    Qchem_received_day = calc(eq.chemical_received_daily, Qchem_day=Qchem_day,
                              Fcontainer_disp=inputs["Fcontainer_disp"])
    Qcont = calc(eq.container_mass, Vcont=inputs["Vcont"], RHOphoto=inputs["RHOphoto"])
    Ncont_calculated = calc(eq.containers_per_site_year, qualifier=UNROUNDED_CONTAINERS, Qchem_yr=inputs["Qchem_yr"],
                            Fchem=inputs["Fchem"],
                            Qcont=Qcont, Nsites=Nsites)
    Ncont_site_yr = calc(eq.whole_containers, Ncont_site_yr=Ncont_calculated)
    return Facility(Qphoto_day, days, Qchem_day_3_2, Nsites_calculated, Nsites, Qchem_day, basis,
                    Qchem_received_day, Qcont, Ncont_calculated, Ncont_site_yr)


def facility_2004(calc: Calc, inputs: Mapping[str, Any]) -> Facility:
    """ESD 2004 Eqns 3-1 to 3-3: Qchem_day is kept after Eqn 3-3 (the edition's example).

    Fewer than one site: one site and fewer application days (footnote 5). More than one:
    rounded up to whole sites (the worked example's result is illegible; INTERFACE.md
    counts whole sites) without recalculating Qchem_day, as the example carries 5.4 into
    every release. A known Nsites: Eqn 3-3 solved for Qchem_day (its only unknown).
    """
    days = inputs["TIMEapply_days"]
    Qphoto_day, Qchem_day = _daily_use(calc, inputs)
    Qchem_day_3_2 = Qchem_day
    Nsites_calculated = None
    if inputs["Nsites"] is not None:
        Nsites = inputs["Nsites"]
        Qchem_day = calc(eq.chemical_daily_use_for_sites, Fcontainer_disp=inputs["Fcontainer_disp"],
                         Qchem_yr=inputs["Qchem_yr"], Nsites=Nsites, TIMEapply_days=days,
                         note="known Nsites: ESD 2004 Eqn 3-3 solved for Qchem_day")
    else:
        Nsites_calculated = _sites(calc, inputs, Qchem_day, days)
        Nsites = calc(eq.whole_sites, Nsites=Nsites_calculated,
                      note="ESD 2004 gives no rounding rule above one site; whole sites, Qchem_day kept")
        if Nsites_calculated < 1:
            days = calc(eq04.application_days_for_one_site, Fcontainer_disp=inputs["Fcontainer_disp"],
                        Qchem_yr=inputs["Qchem_yr"], Qchem_day=Qchem_day, Nsites=Nsites)
    return Facility(Qphoto_day, days, Qchem_day_3_2, Nsites_calculated, Nsites, Qchem_day, "not recalculated")


def site_count_warnings(Nsites: int, fabs_50_plus: int, fabs_all: int, source: str) -> list[str]:
    """Warnings when Nsites exceeds the fabs that exist (ESD 2010 §3.5 note and §1.4).

    >>> site_count_warnings(300, 268, 955, "ESD 2010, Section 1.4")
    ['Nsites (300) exceeds the 268 US fabs with 50 or more employees (ESD 2010, Section 1.4)']
    >>> site_count_warnings(3, 268, 955, "ESD 2010, Section 1.4")
    []
    """
    warnings = []
    if Nsites > fabs_50_plus:
        warnings.append(f"Nsites ({Nsites}) exceeds the {fabs_50_plus} US fabs with 50 or more employees ({source})")
    if Nsites > fabs_all:
        warnings.append(f"Nsites ({Nsites}) exceeds the {fabs_all:,} US semiconductor facilities of all sizes ({source})")
    return warnings


def known_sites_comparison(fac: Facility, source: str) -> tuple[list[str], list[str]]:
    """Notes and warnings comparing a known Nsites' daily use with Eqn 3-2's (ESD 2010 §3.6 box)."""
    note = (
        f"Nsites is known ({fac.Nsites}): Qchem_day = {num(fac.Qchem_day)} kg/site-day from the production "
        f"volume, against {num(fac.Qchem_day_eqn_3_2)} kg/site-day from Eqn 3-2 for the facility inputs; "
        f"{source} recommends comparing the two throughputs."
    )
    warnings = []
    if fac.Qchem_day > fac.Qchem_day_eqn_3_2 * (1 + 1e-9):
        warnings.append(
            f"With Nsites = {fac.Nsites} each site would dispense {num(fac.Qchem_day)} kg/site-day of the chemical, "
            f"more than the {num(fac.Qchem_day_eqn_3_2)} kg/site-day a facility of the chosen scale uses "
            f"(Eqn 3-2): check Nsites, Fchem and the Eqn 3-1 inputs ({source})"
        )
    return [note], warnings
