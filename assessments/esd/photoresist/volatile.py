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

Release numbers 6 and 7 follow the ESD's five; they are not the ESD's releases. The soft
bake, which evaporates whatever is volatile in the resist, is not covered by any of the
documents and is named in the warning. The 2004 scenario reproduces old assessments and
only warns. The vapour-pressure correction factor is EPA's default 1 (conservative).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..models import inhalation, residue, vapour, volatility
from ..results import Exposure, ExposureEstimate, Medium, Release, release_estimate
from . import constants as c
from ..calc import Calc, equation
from .facility import Facility
from ..text import given, num

APPENDIX_B = f"{c.ESD_2010} Appendix B"
CT, HE, OUTPUT = "central tendency", "high end", "output"


@equation("Qvapor_generation", "g/s", "AP-42: Fsaturation_factor × MWchem × Vcont_empty × 3,785.4 × RATEfill / 3,600 "
          "× VPchem / 760 / (82.05 × 298)", f"{APPENDIX_B} Eq B-5 (ChemSTEER form; body lost in the extracted text)")
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
          f"{APPENDIX_B} Eq B-1 (ChemSTEER form; body lost in the extracted text)")
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
          f"{APPENDIX_B} Eq B-2/B-6")
def air_release(Qvapor_generation: float, TIMEactivity_hours: float) -> float:
    """Daily vapour release to air [kg/site-day].

    Parameters
    ----------
    Qvapor_generation : vapour generation rate [g/s]
    TIMEactivity_hours : hours of the activity a site-day [h/site-day]

    Notes
    -----
    ESD 2010, Appendix B.2.1, Eq B-2, B-4, B-6; :func:`assessments.esd.models.vapour.vapour_release_kg_day`.

    >>> round(air_release(3.13e-3, 1 / 60), 6)
    0.000188
    """
    return vapour.vapour_release_kg_day(Qvapor_generation, TIMEactivity_hours)


@equation("EXPinhalation", "mg/day", "min(1.7e5 × 298 × Qvapor_generation / (MWchem × RATEventilation × "
          "Fmixing_factor), VPchem × 10⁶ / 760) × MWchem / 24.45 × 1.25 × TIMEexposure",
          f"{APPENDIX_B} Eq B-7 to B-10")
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


@dataclass
class VolatileOutcome:
    releases: list[Release] = field(default_factory=list)
    exposures: list[Exposure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def nonvolatile_note(vp: float | None, doc: str) -> str:
    stated = "no vapour pressure was given" if vp is None else f"VPchem = {num(vp)} torr"
    return (f"Inhalation: not assessed, negligible for nonvolatile chemicals (VP < {given(c.NONVOLATILE_VP_TORR)} "
            f"torr; {stated}); {doc} assesses dermal exposure only. Air: no release of a nonvolatile "
            "photoresist chemical is expected.")


_SCREENING = (
    "VPchem = {vp} torr is {gate} torr or more: the chemical is not the nonvolatile photoresist component the ESD "
    "covers. {what} The soft and hard bakes, which evaporate volatile components, are in no photoresist document: "
    "assess them separately."
)


def revised_volatility(calc: Calc, inputs: Mapping[str, Any], fac: Facility, container_days: float,
                       cleaning_days: float, dermal: Mapping[str, Exposure]) -> VolatileOutcome:
    """Notes for a nonvolatile chemical; vapour releases 6, 7 and inhalation A, C otherwise."""
    vp, mw = inputs["VPchem"], inputs["MWchem"]
    if vp is None or volatility.is_nonvolatile(vp, c.NONVOLATILE_VP_TORR):
        return VolatileOutcome(notes=[nonvolatile_note(vp, c.ESD_2010)])
    out = VolatileOutcome(warnings=[_SCREENING.format(
        vp=num(vp), gate=given(c.NONVOLATILE_VP_TORR),
        what="Vapour releases (Releases 6 and 7) and inhalation exposures (A and C) were added with the standard "
             f"EPA/OPPT models of {APPENDIX_B}: screening estimates outside the ESD's own method.")])
    unloading, rates, exposure_hours = _container_vapour(calc, inputs, fac, container_days)
    cleaning, G_clean = _cleaning_vapour(calc, inputs, fac, cleaning_days)
    out.releases += [unloading, cleaning]
    clean_hours = inhalation.EQUIPMENT_CLEANING_EXPOSURE_HOURS[c.EQUIPMENT_CLEANING_ACTIVITY]
    out.exposures += [_inhalation(calc, dermal["A"], rates, exposure_hours, mw, vp),
                      _inhalation(calc, dermal["C"], {CT: G_clean, HE: G_clean}, clean_hours, mw, vp)]
    return out


def _container_vapour(calc: Calc, inputs: Mapping[str, Any], fac: Facility,
                      container_days: float) -> tuple[Release, dict[str, float], float]:
    """Release 6 (AP-42 Loading Model), its typical and worst generation rates and the exposure hours."""
    vp, mw = inputs["VPchem"], inputs["MWchem"]
    gallons = residue.gallons_from_litres(inputs["Vcont"])
    defaults = vapour.CONTAINER_VAPOUR_DEFAULTS[residue.container_type(gallons).key]
    per_day = fac.Ncont_site_yr / container_days
    hours = vapour.container_activity_hours(per_day, defaults.fill_rate_per_h)
    saturation = {CT: defaults.saturation_typical, HE: defaults.saturation_worst}
    rates = {label: calc(loading_generation_rate, MWchem=mw, VPchem=vp, Vcont_empty=gallons,
                         RATEfill=defaults.fill_rate_per_h, Fsaturation_factor=f, note=f"container unloading, {label}")
             for label, f in saturation.items()}
    estimates = []
    for label, G in rates.items():
        kg = calc(air_release, Qvapor_generation=G, TIMEactivity_hours=hours, note=f"container unloading, {label}")
        basis = (f"{vapour.AP42_LOADING_MODEL}, {label}: {num(per_day)} containers of {num(gallons)} gal a day at "
                 f"{num(defaults.fill_rate_per_h)} containers/h ({num(hours)} h), saturation factor "
                 f"{given(saturation[label])}, VPchem {num(vp)} torr, MWchem {num(mw)} g/mol: {num(kg)} kg/site-day "
                 f"over {num(container_days)} days/yr from {fac.Nsites} site(s), to air (Table B-1 defaults; not an "
                 "ESD release).")
        estimates.append(release_estimate(label, kg, container_days, fac.Nsites, basis))
    release = Release(6, "Vapour displaced while unloading photoresist containers (volatile chemical)",
                      vapour.AP42_LOADING_MODEL, f"{APPENDIX_B} Eq B-5, B-6", [Medium("air")], estimates)
    return release, rates, inhalation.container_exposure_hours(per_day, defaults.fill_rate_per_h)


def _cleaning_vapour(calc: Calc, inputs: Mapping[str, Any], fac: Facility, cleaning_days: float) -> tuple[Release, float]:
    """Release 7 (Penetration Model, equipment cleaning) and its generation rate."""
    vp = inputs["VPchem"]
    G = calc(evaporation_rate, MWchem=inputs["MWchem"], VPchem=vp, Dopening=vapour.D_OPENING_EQUIPMENT_CLEANING_CM,
             note="equipment cleaning")
    hours = vapour.EQUIPMENT_CLEANING_HOURS[c.EQUIPMENT_CLEANING_ACTIVITY]
    kg = calc(air_release, Qvapor_generation=G, TIMEactivity_hours=hours, note="equipment cleaning")
    basis = (f"{vapour.PENETRATION_MODEL} (indoors, 100 ft/min): a {num(vapour.D_OPENING_EQUIPMENT_CLEANING_CM)}-cm "
             f"opening for {num(hours)} h a cleaning (Table B-1, single large vessel), VPchem {num(vp)} torr: "
             f"{num(kg)} kg/site-day over {num(cleaning_days)} days/yr from {fac.Nsites} site(s), to air "
             "(not an ESD release).")
    release = Release(7, "Vapour from cleaning the application equipment (volatile chemical)",
                      vapour.PENETRATION_MODEL, f"{APPENDIX_B} Eq B-1, B-2", [Medium("air")],
                      [release_estimate(OUTPUT, kg, cleaning_days, fac.Nsites, basis)])
    return release, G


def _inhalation(calc: Calc, skin: Exposure, rates: Mapping[str, float], hours: float, mw: float, vp: float) -> Exposure:
    cases = ((CT, inhalation.Q_INDOOR_TYPICAL_FT3_MIN, inhalation.K_MIXING_TYPICAL),
             (HE, inhalation.Q_INDOOR_WORST_FT3_MIN, inhalation.K_MIXING_WORST))
    estimates = []
    for label, Q, k in cases:
        mg = calc(vapour_inhalation, Qvapor_generation=rates[label], MWchem=mw, VPchem=vp, RATEventilation=Q,
                  Fmixing_factor=k, TIMEexposure=hours, note=f"Exposure {skin.letter} inhalation, {label}")
        basis = (f"{inhalation.MASS_BALANCE_MODEL}, {label}: vapour generation {num(rates[label])} g/s, ventilation "
                 f"{num(Q)} ft³/min, mixing factor {given(k)} (Table B-2, indoors; the lesser of Eq B-7 and the saturation "
                 f"concentration, Eq B-8), {num(hours)} h/day at 1.25 m³/h: {num(mg)} mg/day.")
        estimates.append(ExposureEstimate(label, mg, basis))
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
