"""The supplier site, ESD 2015 Appendices C and D (outside the ESD's scope).

Release 2: the residue of the containers returned for cleaning (Eqn C-1a, one container a
day, or C-1b, the daily throughput), less what evaporates while they are cleaned.
Release 3: that vapour (Eqn C-2 to C-5, HCFC-22 analogue data of Table C-3), never more
than the residue (decision 11). Exposure A: the supplier workers' inhalation (Eqn D-1),
for the time it takes to handle the day's containers unless an exposure time is entered
(decision 8). Releases 3 and Exposure A pass the volatility gates of Appendices C and D.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..calc import Calc
from ..models import inhalation
from ..models.volatility import NONVOLATILE, cvd_volatility_class
from ..parameters import EngineValidationError
from ..results import Exposure, ExposureEstimate, Medium, Release, release_estimate
from ..text import count, figure, given
from . import equations_supplier as eqs
from .constants import DOC, VP_NEGLIGIBLE_TORR

#: The supplier's day: its containers cannot take more than 24 hours to unload and fill
#: (the standard model's refusal, ``models.vapour.container_activity_hours``).
RATE_TOO_SLOW = ("must be at least {least:g} containers/hr: the supplier handles {containers:g} containers a "
                 "day, more than 24 hours' work at {rate:g} an hour")

MEDIA_NOTE = (
    "Media: wastewater treatment (POTW), incineration or landfill (App. C); Table C-2 adds "
    "deep-well injection for gases, counted here as land disposal (landfill)."
)


@dataclass(frozen=True)
class Residue:
    """The container residue at one supplier site, before anything evaporates."""

    kg_site_day: float
    days: float
    containers_per_day: float
    equation: str
    basis: str


@dataclass(frozen=True)
class Supplier:
    """Releases 2 and 3, Exposure A and the residue a year over all supplier sites [kg/yr]."""

    releases: list[Release]
    exposures: list[Exposure]
    residue_kg_yr: float
    residue: Residue
    containers_site_yr: int


def _residue(calc: Calc, v: Mapping[str, Any], per_site: int, rho: float) -> Residue:
    """Eqn C-1a when the containers a year are at most the supplier's days, else C-1b (decision 7)."""
    n_sup, days_sup, f_disp = v["Nsites_supplier"], v["TIME_operating_days_supplier"], v["Fcontainer_disp"]
    if per_site <= days_sup:
        kg = calc(eqs.container_residue_release_per_container, Vcontainer=v["Vcontainer"], RHOformulation=rho,
                  Fchem=v["Fchem"], Fcontainer_disp=f_disp)
        basis = (
            f"One container a day: {given(v['Vcontainer'])} L × {figure(rho)} kg/L × {given(v['Fchem'])} × "
            f"{given(f_disp)} residue (Eqn C-1a), over the {count(per_site, 'container')} a year "
            "the supplier cleans (footnote 23). Conservatively assumes all residue is disposed "
            f"of (App. C). {MEDIA_NOTE}"
        )
        return Residue(kg, per_site, 1.0, "C-1a", basis)
    q_sup = calc(eqs.supplier_daily_use_rate, Qchem_yr=v["Qchem_yr"], Nsites_supplier=n_sup,
                 TIME_operating_days_supplier=days_sup)
    kg = calc(eqs.container_residue_release_daily, Qchem_site_day=q_sup, Fcontainer_disp=f_disp)
    basis = (
        f"{count(per_site, 'container')} a year outnumber the supplier's "
        f"{count(days_sup, 'operating day', shown=given)}: "
        f"daily throughput {figure(q_sup)} kg/site-day × {given(f_disp)} residue "
        f"(Eqn C-1b). Conservatively assumes all residue is disposed of (App. C). {MEDIA_NOTE}"
    )
    return Residue(kg, days_sup, per_site / days_sup, "C-1b", basis)


def _residue_release(residue: Residue, kg_site_day: float, basis: str, n_sup: int) -> Release:
    return Release(
        number=2,
        source="Supplier site (App. C, outside the ESD's scope): container residue",
        irer_source="Cleaning Residuals from Returned Precursor Containers (supplier site)",
        model="ESD 2015 Appendix C container residue (Fcontainer_disp)",
        equation=f"{DOC} App. C Eqn {residue.equation}",
        media=[Medium("water"), Medium("incineration"), Medium("landfill")],
        estimates=[release_estimate("conservative", kg_site_day, residue.days, n_sup, basis)],
    )


def _exposure_hours(calc: Calc, v: Mapping[str, Any], residue: Residue) -> tuple[float, str]:
    """TIME_exposure as entered, else the container-handling time (decision 8); and its words."""
    if v["TIME_exposure"] is not None:
        return v["TIME_exposure"], ""
    hours = calc(eqs.exposure_duration, containers_per_day=residue.containers_per_day, RATE_fill=v["RATE_fill"],
                 note="TIME_exposure left empty: the time to handle the day's containers")
    return hours, (
        f"the time to handle {count(residue.containers_per_day, 'container', shown=figure)} a day at "
        f"{given(v['RATE_fill'])} "
        "an hour, at most 8 hr/day: App. C Eqn C-5 where-list, the App. D sample's 0.016 hr/day, "
        "ESD No. 9 (2010) Table B-2"
    )


def supplier(calc: Calc, v: Mapping[str, Any], facility: dict[str, Any], rho: float,
             notes: list[str]) -> Supplier:
    """Appendices C and D: the supplier site (outside the ESD's scope)."""
    n_sup, days_sup = v["Nsites_supplier"], v["TIME_operating_days_supplier"]
    per_site = calc(eqs.supplier_containers_per_site_year,
                    Ncontainer_unload_site_yr=facility["Ncontainer_unload_site_yr"],
                    Nsites=facility["Nsites"], Nsites_supplier=n_sup)
    sup: dict[str, Any] = {"Nsites_supplier": n_sup, "TIME_operating_days_supplier": days_sup,
                           "Ncontainer_supplier_site_yr": per_site}
    residue = _residue(calc, v, per_site, rho)
    sup.update(residue_equation=residue.equation, containers_per_day=residue.containers_per_day)
    vp = v["VP_chem"]
    volatility = cvd_volatility_class(vp)
    sup["volatility"] = volatility
    sup["Nworkers_supplier"] = v["Nworkers_supplier"]
    if residue.containers_per_day / v["RATE_fill"] > 24:
        raise EngineValidationError({"RATE_fill": RATE_TOO_SLOW.format(
            least=residue.containers_per_day / 24, containers=residue.containers_per_day, rate=v["RATE_fill"])})
    hours = calc(eqs.activity_hours, containers_per_day=residue.containers_per_day, RATE_fill=v["RATE_fill"])
    sup["TIME_activity_hours"] = hours
    air_days = min(per_site, days_sup)  # = residue.days under C-1a and C-1b alike
    residue_kg_yr = residue.kg_site_day * residue.days * n_sup
    result = Supplier([], [], residue_kg_yr, residue, per_site)
    facility["supplier"] = sup
    if volatility == NONVOLATILE:
        notes.append(
            f"Supplier site: VP {given(vp)} torr < {given(VP_NEGLIGIBLE_TORR)} torr, so the air release "
            "while cleaning containers and the inhalation exposure are negligible "
            "(ESD 2015 App. C, App. D)."
        )
    elif v["toxic_reactive_pyrophoric"] == "yes":
        notes.append(
            "Supplier site: a toxic, reactive or pyrophoric precursor is cleaned in contained "
            "spaces; the air release and the inhalation exposure are mitigated by engineering "
            "controls and not quantified (ESD 2015 App. C, App. D)."
        )
    else:
        return _volatile(calc, v, sup, residue, result, hours, air_days)
    result.releases.append(_residue_release(residue, residue.kg_site_day, residue.basis, n_sup))
    return result


def _volatile(calc: Calc, v: Mapping[str, Any], sup: dict[str, Any], residue: Residue, result: Supplier,
              hours: float, air_days: float) -> Supplier:
    """Eqn C-2 to C-5, the vapour taken from the residue (decision 11), and Eqn D-1."""
    vp, mw, n_sup = v["VP_chem"], v["MW_chem"], v["Nsites_supplier"]
    cv = calc(eqs.analogue_airborne_concentration, Cv_k=v["Cv_k"], VP_chem=vp, X_chem=v["X_chem"],
              VP_k=v["VP_k"], X_k=v["X_k"])
    q_nf = calc(eqs.near_field_ventilation_rate, FSA=v["FSA"], v_NF=v["v_NF"])
    g_air = calc(eqs.generation_rate, Q_NF=q_nf, Q_FF=v["Q_FF"], Cv_chem=cv, MW_chem=mw)
    air_c5 = calc(eqs.container_cleaning_air_release, G_air=g_air, TIME_activity_hours=hours)
    air = calc(eqs.air_release_from_residue, Elocal_air_cleaning=air_c5,
               Elocal_container_residue_disp=residue.kg_site_day, note="at most the residue it evaporates from")
    left = calc(eqs.residue_left_after_evaporation, Elocal_container_residue_disp=residue.kg_site_day,
                Elocal_air_evaporated=air, note="Release 2: the residue less the vapour of Release 3")
    sup.update(Cv_chem=cv, Q_NF=q_nf, G_air=g_air)
    rule = eqs.MASS_BALANCE_RULE
    residue_basis = (
        f"{residue.basis} Less the {figure(air)} kg/site-day that evaporates while the containers are cleaned "
        f"(Release 3, on the same {count(residue.days, 'day', shown=given)} a year): {figure(residue.kg_site_day)} − "
        f"{figure(air)} = {figure(left)} kg/site-day ({rule})."
    )
    result.releases.append(_residue_release(residue, left, residue_basis, n_sup))
    analogue = (
        f"{sup['volatility']} precursor (VP {given(vp)} torr): HCFC-22 analogue {given(v['Cv_k'])} ppm scaled "
        f"to {figure(cv)} ppm (Eqn C-2)"
    )
    capped = (
        f" Eqn C-5 gives {figure(air_c5)} kg/site-day, more than the {figure(residue.kg_site_day)} kg/site-day "
        "of residue it evaporates from: the release is the whole residue."
        if air < air_c5 else ""
    )
    result.releases.append(Release(
        number=3,
        source="Supplier site (App. C, outside the ESD's scope): air release while cleaning containers",
        irer_source="Container Cleaning Vapour (supplier site)",
        model="ESD 2015 Appendix C near-field model with analogue data (EPA 2011)",
        equation=f"{DOC} App. C Eqn C-2 to C-5",
        media=[Medium("air", 1.0)],
        estimates=[release_estimate(
            "high end", air, air_days, n_sup,
            f"{analogue}; near field {figure(q_nf)} ft³/min (Eqn C-3), generation "
            f"{figure(g_air)} kg/s (Eqn C-4) over {figure(hours)} hr/day of container cleaning "
            f"(Eqn C-5), on the lesser of {count(result.containers_site_yr, 'container')} or "
            f"{count(v['TIME_operating_days_supplier'], 'day', shown=given)} a year."
            f"{capped} Taken from the container residue, which Release 2 gives less this amount ({rule}).")],
    ))
    exposure_hours, how = _exposure_hours(calc, v, residue)
    dose = calc(eqs.inhalation_exposure, Cv_chem=cv, MW_chem=mw, V_molar=v["V_molar"],
                RATE_breathing=v["RATE_breathing"], TIME_exposure=exposure_hours)
    twa = calc(inhalation.twa_mg_m3, EXPinhalation=dose, RATEbreathing=v["RATE_breathing"])
    twa_ppm = calc(inhalation.twa_ppm, Cm_8hr_TWA=twa, MW=mw, Vmolar=v["V_molar"])
    # During the task: Eqn C-2's concentration, breathed over TIME_exposure (INTERFACE.md, "Additions, version 3").
    task = calc(inhalation.task_mg_m3, Cv=cv, MW=mw, Vmolar=v["V_molar"], note="Exposure A: during the task")
    minutes = calc(inhalation.task_minutes, TIMEexposure=exposure_hours, note="Exposure A: during the task")
    time_words = how or f"the container cleaning itself takes {figure(hours)} hr/day"
    result.exposures.append(Exposure(
        letter="A",
        activity="Container cleaning at the supplier site (App. D, outside the ESD's scope)",
        route="inhalation",
        model="ESD 2015 Appendix D inhalation with analogue data (HCFC-22, EPA 1990)",
        equation=f"{DOC} App. D Eqn D-1",
        workers_per_site=v["Nworkers_supplier"],
        days_per_year=air_days,
        estimates=[ExposureEstimate(
            "high end", dose,
            f"{analogue}, × {given(mw)} g/mol / {given(v['V_molar'])} L/mol × "
            f"{given(v['RATE_breathing'])} m³/hr × {figure(exposure_hours) if how else given(exposure_hours)} "
            f"hr/day (Eqn D-1; {time_words}). Dermal: qualitative only (App. D, CEB 1991).",
            mg_m3=twa, ppm=twa_ppm, task_mg_m3=task, task_ppm=cv, task_minutes=minutes)],
    ))
    return result

