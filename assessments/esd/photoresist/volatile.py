"""A volatile chemical: vapour releases and inhalation with the standard EPA models.

The photoresist documents cover nonvolatile chemicals only: air releases and inhalation
"are not expected" (ESD 2010 §4 and §5) and the IRER writes "negligible for nonvolatile
chemicals (VP < 0.001 torr)". When a reviewer enters ``VPchem`` of 0.001 torr or more the
scenario warns that the chemical is outside the ESD's premise and, for the 2010 and 2018
scenarios, adds screening estimates with the standard EPA/OPPT models of the ESD's
Appendix B, for the two activities where workers open the liquid:

- Release 6, Exposure A (inhalation): vapour displaced while unloading the photoresist
  containers, EPA/OAQPS AP-42 Loading Model (Eq B-5/B-6; Table B-1 container defaults:
  fill rate and saturation factor 0.5 typical / 1 worst), the container's own volume,
  hours = containers a day ÷ fill rate; EPA/OPPT Mass Balance Model indoors (Eq B-7 to
  B-10; Table B-2: 3,000 / 500 ft³/min, mixing 0.5 / 0.1), at most 8 h.
- Release 7, Exposure C (inhalation): evaporation while cleaning the application
  equipment, EPA/OPPT Penetration Model (Eq B-1/B-2) with the equipment-cleaning opening
  (92 cm) and a single large vessel's 1 h (Table B-1/B-2; the sample IRER calls the
  activity "a Single, Large Vessel"). The Penetration (indoor) model rather than Table
  B-1's outdoor default, because spin coaters stand in cleanrooms (ESD 2010 §4.1).

Each vapour release is at most the residue it evaporates from, on the same days, and
what evaporates is taken from that residue: Release 6 from the container residue
(Release 1), Release 7 from the equipment-cleaning residue (Release 2). The generation
models assume a pool that never runs dry; a residue of a few grams runs dry within the
hour (100 kg/yr at Fchem 0.02, VP 5 torr, MW 100: the Penetration Model gives 0.166 kg
over a one-hour cleaning from 0.00276 kg of residue). The
rule is conservation of mass, as the material balance method states it (EIIP Vol. II,
Ch. 6, 1999, §3.1.1 and Eqn 6.4-1); the ESD is silent, as it assumes a nonvolatile
chemical. Release 1 therefore carries one estimate per Release 6 estimate, with its
label and its ``case`` (the saturation factor), so that the totals add a consistent
pair. The inhalation estimates use the lesser of the model's generation rate and the
rate at which the (limited) release evaporates over the activity, so that they imply no
more vapour than the air release.

Release numbers 6 and 7 follow the ESD's five; they are not the ESD's releases. The soft
bake, which evaporates whatever is volatile in the resist, is not covered by any of the
documents and is named in the warning. The 2004 scenario reproduces old assessments and
only warns. The vapour-pressure correction factor is EPA's default 1 (conservative).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..calc import Calc, equation
from ..models import inhalation, residue, vapour, volatility
from ..results import Exposure, ExposureEstimate, Medium, Release, release_estimate
from ..text import count, given, num
from . import constants as c
from .facility import Facility
from .releases import IRER_SOURCES, RevisedReleases

APPENDIX_B = f"{c.ESD_2010} Appendix B"
MASS_LIMIT_CITATION = (
    "Conservation of mass: EIIP Vol. II Ch. 6 (1999) §3.1.1 and Eqn 6.4-1 (material balance); ESD 2010 silent "
    "(it assumes a nonvolatile chemical, §4 and §5)"
)
CT, HE, OUTPUT = "central tendency", "high end", "output"


@equation("Qvapor_generation", "g/s", "AP-42: Fsaturation_factor × MWchem × Vcont_empty × 3,785.4 × RATEfill / 3,600 "
          "× VPchem / 760 / (82.05 × 298)", f"{APPENDIX_B} Eq B-5 (in ChemSTEER's form)",
          label="Vapour displaced while filling or emptying containers")
def loading_generation_rate(MWchem: float, VPchem: float, Vcont_empty: float, RATEfill: float,
                            Fsaturation_factor: float) -> float:
    """Vapour displaced while filling or emptying containers [g/s] (EPA/OAQPS AP-42 Loading Model).

    Parameters
    ----------
    MWchem : molecular weight [g/mol]
    VPchem : vapour pressure [torr]
    Vcont_empty : container volume [gal]
    RATEfill : containers filled or emptied per hour [containers/h] (Table B-1)
    Fsaturation_factor : saturation factor [-] (Table B-1: 0.5 typical, 1 worst case)

    Notes
    -----
    ESD 2010, Appendix B.2.1.3, Eq B-5; :func:`assessments.esd.models.vapour.ap42_loading_generation_rate`.

    >>> f"{loading_generation_rate(100, 10, 55, 20, 1):.4e}"
    '6.2243e-02'
    """
    return vapour.ap42_loading_generation_rate(MWchem, VPchem, Vcont_empty, RATEfill, Fsaturation_factor)


@equation("Qvapor_generation", "g/s", "Penetration: 8.24e-8 × MWchem^0.835 × VPchem × (1/29 + 1/MWchem)^0.25 × "
          "RATEair_speed^0.5 × AREAopening / (298^0.05 × Dopening^0.5 × 1^0.5)",
          f"{APPENDIX_B} Eq B-1 (in ChemSTEER's form)", label="Evaporation from an open liquid surface indoors")
def evaporation_rate(MWchem: float, VPchem: float, Dopening: float) -> float:
    """Evaporation from an open liquid surface indoors [g/s] (EPA/OPPT Penetration Model).

    Parameters
    ----------
    MWchem : molecular weight [g/mol]
    VPchem : vapour pressure [torr]
    Dopening : diameter of the opening [cm] (Table B-1: 92 for equipment cleaning)

    Notes
    -----
    ESD 2010, Appendix B.2.1.1, Eq B-1, at 100 ft/min; :func:`assessments.esd.models.vapour.penetration_generation_rate`.

    >>> f"{evaporation_rate(100, 10, 5.08):.4e}"
    '1.1972e-03'
    """
    return vapour.penetration_generation_rate(MWchem, VPchem, Dopening)


@equation("Elocalair", "kg/site-day", "Qvapor_generation × TIMEactivity_hours × 3,600 / 1,000",
          f"{APPENDIX_B} Eq B-2/B-6", label="Daily vapour release to air")
def air_release(Qvapor_generation: float, TIMEactivity_hours: float) -> float:
    """Daily vapour release to air [kg/site-day].

    Parameters
    ----------
    Qvapor_generation : vapour generation rate [g/s]
    TIMEactivity_hours : hours of the activity per site-day [h/site-day]

    Notes
    -----
    ESD 2010, Appendix B.2.1, Eq B-2, B-4, B-6; :func:`assessments.esd.models.vapour.vapour_release_kg_day`.

    >>> round(air_release(3.13e-3, 1 / 60), 6)
    0.000188
    """
    return vapour.vapour_release_kg_day(Qvapor_generation, TIMEactivity_hours)


@equation("EXPinhalation", "mg/day", "min(1.7e5 × 298 × Qvapor_generation / (MWchem × RATEventilation × "
          "Fmixing_factor), VPchem × 10⁶ / 760) × MWchem / 24.45 × 1.25 × TIMEexposure",
          f"{APPENDIX_B} Eq B-7 to B-10", label="Inhalation of vapour per worker-day")
def vapour_inhalation(Qvapor_generation: float, MWchem: float, VPchem: float, RATEventilation: float,
                      Fmixing_factor: float, TIMEexposure: float) -> float:
    """Inhalation of vapour per worker-day [mg/day] (EPA/OPPT Mass Balance Model).

    Parameters
    ----------
    Qvapor_generation : vapour generation rate [g/s]
    MWchem : molecular weight [g/mol]
    VPchem : vapour pressure [torr] (the saturation cap, Eq B-8)
    RATEventilation : ventilation rate [ft³/min] (Table B-2)
    Fmixing_factor : mixing factor [-] (0.5 typical, 0.1 worst case)
    TIMEexposure : exposure hours a worker-day [h/day], at most 8

    Notes
    -----
    ESD 2010, Appendix B.2.2.1, Eq B-7 to B-10, through :mod:`assessments.esd.models.inhalation`.
    By hand: 1.7e5 × 298 × 0.01 / (100 × 3,000 × 0.5) = 3.377 ppm (below saturation,
    13,158 ppm); × 100 / 24.45 = 13.81 mg/m³; × 1.25 m³/h × 1 h = 17.27 mg/day.

    >>> round(vapour_inhalation(0.01, 100, 10, 3000, 0.5, 1), 2)
    17.27
    """
    ppm = inhalation.mass_balance_concentration_ppm(Qvapor_generation, MWchem, RATEventilation, Fmixing_factor, VPchem)
    return inhalation.inhalation_dose(inhalation.ppm_to_mg_m3(ppm, MWchem), TIMEexposure)


@equation("Cv_task", "ppm", "min(1.7e5 × 298 × Qvapor_generation / (MWchem × RATEventilation × Fmixing_factor), "
          "VPchem × 10⁶ / 760)", f"{APPENDIX_B} Eq B-7, B-8",
          label="Vapour concentration in the breathing zone during the task")
def vapour_concentration(Qvapor_generation: float, MWchem: float, VPchem: float, RATEventilation: float,
                         Fmixing_factor: float) -> float:
    """Vapour concentration in the breathing zone during the task [ppm] (EPA/OPPT Mass Balance Model).

    Parameters
    ----------
    Qvapor_generation : vapour generation rate [g/s]
    MWchem : molecular weight [g/mol]
    VPchem : vapour pressure [torr] (the saturation cap, Eq B-8)
    RATEventilation : ventilation rate [ft³/min] (Table B-2)
    Fmixing_factor : mixing factor [-] (0.5 typical, 0.1 worst case)

    Notes
    -----
    ESD 2010, Appendix B.2.2.1, Eq B-7 and B-8 ("use the lesser value"): the concentration
    :func:`vapour_inhalation` breathes over the task's hours. By hand: 1.7e5 × 298 × 0.01 /
    (100 × 3,000 × 0.5) = 3.377 ppm, below saturation (13,158 ppm).

    >>> round(vapour_concentration(0.01, 100, 10, 3000, 0.5), 3)
    3.377
    """
    return inhalation.mass_balance_concentration_ppm(Qvapor_generation, MWchem, RATEventilation, Fmixing_factor, VPchem)


@equation("Elocalair", "kg/site-day",
          "min(Elocalair_model, Elocal_residue), Elocalair_model = Qvapor_generation × TIMEactivity_hours × 3,600 / 1,000",
          MASS_LIMIT_CITATION, label="Vapour released by an activity, at most the residue it evaporates from")
def evaporated_release(Elocalair_model: float, Elocal_residue: float) -> float:
    """Vapour released by an activity, at most the residue it evaporates from [kg/site-day].

    Elocalair = min(Elocalair_model, Elocal_residue)

    Parameters
    ----------
    Elocalair_model : the vapour model's release over the activity (Eq B-2, B-6) [kg/site-day]
    Elocal_residue : the residue the vapour comes from, on the same days [kg/site-day]
        (Release 1 for unloading, Release 2 for equipment cleaning)

    Notes
    -----
    Conservation of mass (:data:`assessments.esd.models.vapour.MASS_LIMIT_SOURCE`); the
    ESD is silent, as it assumes a nonvolatile chemical. By hand, a volatile example
    (100 kg/yr, Fchem 0.02, VP 5 torr, MW 100): the Penetration Model gives 0.166 kg over a
    cleaning, the equipment holds 0.00276 kg/site-day of residue.

    >>> evaporated_release(0.166, 0.00276), evaporated_release(1.2e-4, 0.0278)
    (0.00276, 0.00012)
    """
    return vapour.mass_limited_release_kg_day(Elocalair_model, Elocal_residue)


@equation("Elocalcontainer_residue_disp", "kg/site-day",
          "Elocalcontainer_residue_disp (Eqn 4-1a or 4-1b) − Elocalair (Release 6)", MASS_LIMIT_CITATION,
          label="Container residue released as liquid: what did not evaporate while unloading")
def container_residue_left_liquid(Elocalcontainer_residue_disp: float, Elocalair: float) -> float:
    """Container residue released as liquid: what did not evaporate while unloading [kg/site-day].

    Parameters
    ----------
    Elocalcontainer_residue_disp : container residue, Eqn 4-1a or 4-1b [kg/site-day]
    Elocalair : vapour displaced while unloading the same containers (Release 6) [kg/site-day]

    Notes
    -----
    Conservation of mass (:data:`assessments.esd.models.vapour.MASS_LIMIT_SOURCE`).

    >>> container_residue_left_liquid(0.0278, 0.00012)
    0.02768
    """
    return max(0.0, Elocalcontainer_residue_disp - Elocalair)


@equation("Elocalequip_disp", "kg/site-day", "Elocalequip_disp (Eqn 4-2) − Elocalair (Release 7)",
          MASS_LIMIT_CITATION, label="Equipment residue released as liquid: what did not evaporate during the cleaning")
def equipment_residue_left_liquid(Elocalequip_disp: float, Elocalair: float) -> float:
    """Equipment residue released as liquid: what did not evaporate during the cleaning [kg/site-day].

    Parameters
    ----------
    Elocalequip_disp : equipment-cleaning residue, Eqn 4-2 [kg/site-day]
    Elocalair : vapour from the same cleaning (Release 7) [kg/site-day]

    Notes
    -----
    Conservation of mass (:data:`assessments.esd.models.vapour.MASS_LIMIT_SOURCE`).

    >>> equipment_residue_left_liquid(0.00276, 0.00276)
    0.0
    """
    return max(0.0, Elocalequip_disp - Elocalair)


@equation("Qvapor_generation", "g/s", "min(Qvapor_generation, Elocalair × 1,000 / (TIMEactivity_hours × 3,600))",
          MASS_LIMIT_CITATION,
          label="The generation rate for inhalation, no more than the vapour the release lets evaporate")
def generation_rate_within_release(Qvapor_generation: float, Elocalair: float, TIMEactivity_hours: float) -> float:
    """The generation rate for inhalation, no more than the vapour the release lets evaporate [g/s].

    Parameters
    ----------
    Qvapor_generation : the vapour model's rate (Eq B-1 or B-5) [g/s]
    Elocalair : the activity's vapour release, limited by the residue [kg/site-day]
    TIMEactivity_hours : hours of the activity per site-day [h/site-day]

    Notes
    -----
    Eq B-2/B-6 solved for G (:func:`assessments.esd.models.vapour.generation_rate_for_release`):
    the time-averaged rate at which the release's mass evaporates over the activity. The
    Mass Balance Model (Eq B-7) then uses a rate that matches the air release.

    >>> round(generation_rate_within_release(0.0461, 0.00276, 1), 6), generation_rate_within_release(0.01, 1.0, 1)
    (0.000767, 0.01)
    """
    return min(Qvapor_generation, vapour.generation_rate_for_release(Elocalair, TIMEactivity_hours))


@dataclass
class VolatileOutcome:
    """What a volatile chemical adds: Releases 6 and 7, inhalation A and C, and the liquid
    Releases 1 and 2 less what evaporates from them (``liquid``, by release number)."""

    releases: list[Release] = field(default_factory=list)
    exposures: list[Exposure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    liquid: dict[int, Release] = field(default_factory=dict)

    def replace_liquid(self, releases: list[Release]) -> list[Release]:
        """``releases`` with Releases 1 and 2 replaced by what stays liquid."""
        return [self.liquid.get(r.number, r) for r in releases]


def nonvolatile_note(vp: float | None, doc: str) -> str:
    stated = ("no vapour pressure was entered for this use, so the chemical is taken as nonvolatile" if vp is None
              else f"VPchem = {given(vp)} torr is below it")
    return (f"Inhalation: not assessed, negligible for nonvolatile chemicals (VP < {given(c.NONVOLATILE_VP_TORR)} "
            f"torr; {stated}); {doc} assesses dermal exposure only. Air: no release of a nonvolatile "
            "photoresist chemical is expected.")


_SCREENING = (
    "VPchem = {vp} torr is {gate} torr or more: the chemical is not the nonvolatile photoresist component the ESD "
    "covers. {what} The soft and hard bakes, which evaporate volatile components, are in no photoresist document: "
    "assess them separately."
)


def revised_volatility(calc: Calc, inputs: Mapping[str, Any], fac: Facility, rel: RevisedReleases,
                       dermal: Mapping[str, Exposure]) -> VolatileOutcome:
    """Notes for a nonvolatile chemical; otherwise vapour releases 6 and 7 (each at most the
    residue it evaporates from, which keeps the rest as liquid) and inhalation A and C."""
    vp, mw = inputs["VPchem"], inputs["MWchem"]
    if vp is None or volatility.is_nonvolatile(vp, c.NONVOLATILE_VP_TORR):
        return VolatileOutcome(notes=[nonvolatile_note(vp, c.ESD_2010)])
    out = VolatileOutcome(warnings=[_SCREENING.format(
        vp=num(vp), gate=given(c.NONVOLATILE_VP_TORR),
        what="Vapour releases (Releases 6 and 7) and inhalation exposures (A and C) were added with the standard "
             f"EPA/OPPT models of {APPENDIX_B}: screening estimates outside the ESD's own method. Each vapour release "
             "is at most the residue it evaporates from (Release 1 for 6, Release 2 for 7), and what evaporates is "
             "taken from that residue (conservation of mass).")])
    container, equipment = (next(r for r in rel.releases if r.number == n) for n in (1, 2))
    unloading, liquid_1, rates, exposure_hours = _container_vapour(calc, inputs, fac, container, rel.container_days)
    cleaning, liquid_2, G_clean = _cleaning_vapour(calc, inputs, fac, equipment, rel.cleaning_days)
    out.releases += [unloading, cleaning]
    out.liquid = {1: liquid_1, 2: liquid_2}
    clean_hours = inhalation.EQUIPMENT_CLEANING_EXPOSURE_HOURS[c.EQUIPMENT_CLEANING_ACTIVITY]
    out.exposures += [_inhalation(calc, dermal["A"], rates, exposure_hours, mw, vp),
                      _inhalation(calc, dermal["C"], {CT: G_clean, HE: G_clean}, clean_hours, mw, vp)]
    return out


@dataclass(frozen=True)
class _Rate:
    """A generation rate for inhalation: the model's, and the one within the release."""

    model: float
    used: float
    release_kg_day: float
    hours: float

    def text(self, release: int) -> str:
        if self.used < self.model:
            return (f"vapour generation {num(self.used)} g/s: the model's {num(self.model)} g/s limited to the "
                    f"{num(self.release_kg_day)} kg/site-day Release {release} lets evaporate over {num(self.hours)} h "
                    "(the residue it evaporates from; conservation of mass)")
        return f"vapour generation {num(self.used)} g/s"


def _limit(calc: Calc, model_kg: float, residue_kg: float, what: str) -> float:
    return calc(evaporated_release, Elocalair_model=model_kg, Elocal_residue=residue_kg,
                note=f"{what}: at most the residue it evaporates from")


def _limit_text(model_kg: float, kg: float, residue_kg: float, source: str) -> str:
    if kg < model_kg:
        return (f"the model gives {num(model_kg)} kg/site-day, more than the {num(residue_kg)} kg/site-day of {source} "
                f"on the same days, so the release is that residue: {num(kg)} kg/site-day")
    return (f"{num(kg)} kg/site-day, within the {num(residue_kg)} kg/site-day of {source} on the same days "
            "(the limit)")


_TAKEN = ("A vapour release is at most the residue it evaporates from, and is taken from it (conservation of mass: "
          "EIIP Vol. II Ch. 6, 1999, §3.1.1 and Eqn 6.4-1; the ESD assumes a nonvolatile chemical and is silent).")


def _container_vapour(calc: Calc, inputs: Mapping[str, Any], fac: Facility, container: Release,
                      container_days: float) -> tuple[Release, Release, dict[str, _Rate], float]:
    """Release 6 (AP-42 Loading Model, at most the container residue), Release 1 less it,
    the generation rates for inhalation and the exposure hours."""
    vp, mw = inputs["VPchem"], inputs["MWchem"]
    gallons = residue.gallons_from_litres(inputs["Vcont"])
    defaults = vapour.CONTAINER_VAPOUR_DEFAULTS[residue.container_type(gallons).key]
    per_day = fac.containers().Ncont_site_yr / container_days
    hours = vapour.container_activity_hours(per_day, defaults.fill_rate_per_h)
    saturation = {CT: defaults.saturation_typical, HE: defaults.saturation_worst}
    (left,) = container.estimates
    estimates, liquid, rates = [], [], {}
    for label, f in saturation.items():
        what = f"container unloading, {label}"
        G = calc(loading_generation_rate, MWchem=mw, VPchem=vp, Vcont_empty=gallons,
                 RATEfill=defaults.fill_rate_per_h, Fsaturation_factor=f, note=what)
        model_kg = calc(air_release, Qvapor_generation=G, TIMEactivity_hours=hours, note=what)
        kg = _limit(calc, model_kg, left.kg_site_day, what)
        rates[label] = _Rate(G, calc(generation_rate_within_release, Qvapor_generation=G, Elocalair=kg,
                                     TIMEactivity_hours=hours, note=f"{what}, for Exposure A inhalation"), kg, hours)
        stays = calc(container_residue_left_liquid, Elocalcontainer_residue_disp=left.kg_site_day, Elocalair=kg,
                     note=f"Release 1 less Release 6, {label}")
        case = f"Fsaturation_factor = {given(f)}"
        basis = (f"{vapour.AP42_LOADING_MODEL}, {label}: {count(per_day, 'container', shown=num)} of "
                 f"{num(gallons)} gal a day at "
                 f"{num(defaults.fill_rate_per_h)} containers/h ({num(hours)} h), saturation factor {given(f)}, VPchem "
                 f"{num(vp)} torr, MWchem {num(mw)} g/mol (Table B-1 defaults): "
                 + _limit_text(model_kg, kg, left.kg_site_day, "container residue (Release 1)")
                 + f", over {count(container_days, 'day', shown=num)}/yr from {count(fac.Nsites, 'site')}, to air "
                 "(not an ESD release). "
                 f"Release 1 keeps the rest. {_TAKEN}")
        estimates.append(release_estimate(label, kg, container_days, fac.Nsites, basis, case))
        kept = (f"{left.basis} Less the vapour displaced while unloading (Release 6, {label}, saturation factor "
                f"{given(f)}): {num(left.kg_site_day)} − {num(kg)} = {num(stays)} kg/site-day stays liquid. {_TAKEN}")
        liquid.append(release_estimate(label, stays, left.days_per_year, left.sites, kept, case))
    release = Release(6, "Vapour displaced while unloading photoresist containers (volatile chemical)",
                      vapour.AP42_LOADING_MODEL, f"{APPENDIX_B} Eq B-5, B-6", [Medium("air")], estimates,
                      irer_source=IRER_SOURCES[6])
    return (release, replace(container, estimates=liquid), rates,
            inhalation.container_exposure_hours(per_day, defaults.fill_rate_per_h))


def _cleaning_vapour(calc: Calc, inputs: Mapping[str, Any], fac: Facility, equipment: Release,
                     cleaning_days: float) -> tuple[Release, Release, _Rate]:
    """Release 7 (Penetration Model, at most the equipment residue), Release 2 less it, and
    the generation rate for inhalation."""
    vp = inputs["VPchem"]
    what = "equipment cleaning"
    G = calc(evaporation_rate, MWchem=inputs["MWchem"], VPchem=vp, Dopening=vapour.D_OPENING_EQUIPMENT_CLEANING_CM,
             note=what)
    hours = vapour.EQUIPMENT_CLEANING_HOURS[c.EQUIPMENT_CLEANING_ACTIVITY]
    model_kg = calc(air_release, Qvapor_generation=G, TIMEactivity_hours=hours, note=what)
    (left,) = equipment.estimates
    kg = _limit(calc, model_kg, left.kg_site_day, what)
    rate = _Rate(G, calc(generation_rate_within_release, Qvapor_generation=G, Elocalair=kg, TIMEactivity_hours=hours,
                         note=f"{what}, for Exposure C inhalation"), kg, hours)
    stays = calc(equipment_residue_left_liquid, Elocalequip_disp=left.kg_site_day, Elocalair=kg,
                 note="Release 2 less Release 7")
    basis = (f"{vapour.PENETRATION_MODEL} (indoors, 100 ft/min): a {num(vapour.D_OPENING_EQUIPMENT_CLEANING_CM)}-cm "
             f"opening for {num(hours)} h a cleaning (Table B-1, single large vessel), VPchem {num(vp)} torr: "
             + _limit_text(model_kg, kg, left.kg_site_day, "equipment residue (Release 2)")
             + f", over {count(cleaning_days, 'day', shown=num)}/yr from {count(fac.Nsites, 'site')}, to air "
             "(not an ESD release). "
             f"Release 2 keeps the rest. {_TAKEN}")
    release = Release(7, "Vapour from cleaning the application equipment (volatile chemical)",
                      vapour.PENETRATION_MODEL, f"{APPENDIX_B} Eq B-1, B-2", [Medium("air")],
                      [release_estimate(OUTPUT, kg, cleaning_days, fac.Nsites, basis)], irer_source=IRER_SOURCES[7])
    kept = (f"{left.basis} Less the vapour from the cleaning (Release 7): {num(left.kg_site_day)} − {num(kg)} = "
            f"{num(stays)} kg/site-day stays liquid. {_TAKEN}")
    liquid = replace(equipment, estimates=[release_estimate(left.label, stays, left.days_per_year, left.sites, kept,
                                                            left.case)])
    return release, liquid, rate


def _inhalation(calc: Calc, skin: Exposure, rates: Mapping[str, _Rate], hours: float, mw: float, vp: float) -> Exposure:
    release = 6 if skin.letter == "A" else 7
    cases = ((CT, inhalation.Q_INDOOR_TYPICAL_FT3_MIN, inhalation.K_MIXING_TYPICAL),
             (HE, inhalation.Q_INDOOR_WORST_FT3_MIN, inhalation.K_MIXING_WORST))
    estimates = []
    for label, Q, k in cases:
        rate = rates[label]
        mg = calc(vapour_inhalation, Qvapor_generation=rate.used, MWchem=mw, VPchem=vp, RATEventilation=Q,
                  Fmixing_factor=k, TIMEexposure=hours, note=f"Exposure {skin.letter} inhalation, {label}")
        basis = (f"{inhalation.MASS_BALANCE_MODEL}, {label}: {rate.text(release)}, ventilation {num(Q)} ft³/min, "
                 f"mixing factor {given(k)} (Table B-2, indoors; the lesser of Eq B-7 and the saturation concentration, "
                 f"Eq B-8), {num(hours)} h/day at 1.25 m³/h: {num(mg)} mg/day.")
        twa = calc(inhalation.twa_mg_m3, EXPinhalation=mg, note=f"Exposure {skin.letter} inhalation, {label}")
        ppm = calc(inhalation.twa_ppm, Cm_8hr_TWA=twa, MW=mw, note=f"Exposure {skin.letter} inhalation, {label}")
        # The concentration during the task, for a short-term limit (INTERFACE.md, "Additions, version 3").
        during = f"Exposure {skin.letter} inhalation, {label}: during the task"
        task_ppm = calc(vapour_concentration, Qvapor_generation=rate.used, MWchem=mw, VPchem=vp, RATEventilation=Q,
                        Fmixing_factor=k, note=during)
        task = calc(inhalation.task_mg_m3, Cv=task_ppm, MW=mw, note=during)
        minutes = calc(inhalation.task_minutes, TIMEexposure=hours, note=during)
        estimates.append(ExposureEstimate(label, mg, basis, mg_m3=twa, ppm=ppm, task_mg_m3=task, task_ppm=task_ppm,
                                          task_minutes=minutes))
    return Exposure(skin.letter, skin.activity, "inhalation", inhalation.MASS_BALANCE_MODEL, f"{APPENDIX_B} Eq B-7 to B-10",
                    skin.workers_per_site, skin.days_per_year, estimates)


def volatility_2004(vp: float | None) -> VolatileOutcome:
    """The 2004 edition's gates: notes, or warnings (no estimates: it reproduces old assessments)."""
    if vp is None or volatility.is_nonvolatile(vp, c.NONVOLATILE_VP_TORR):
        return VolatileOutcome(notes=[nonvolatile_note(vp, c.ESD_2004) + " (ESD 2004 Section 4, p. 19: "
                                      "'Negligible (VP < 0.001 torr)')"])
    what = ("Inhalation exposure may not be negligible (ESD 2004 Explanatory notes: 'not likely' below 0.001 torr)")
    if not volatility.air_release_negligible_2004(vp):
        what += (f", nor air releases (negligible only below {given(c.AIR_RELEASE_VP_TORR_2004)} torr)")
    what += ("; the 2004 method has no vapour or inhalation estimates: use photoresist-2010 or photoresist-2018, "
             "which add the standard EPA/OPPT vapour models.")
    return VolatileOutcome(warnings=[_SCREENING.format(vp=num(vp), gate=given(c.NONVOLATILE_VP_TORR), what=what)])
