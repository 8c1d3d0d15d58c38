"""ESD 2015's Appendices C and D (the supplier site, outside the ESD's scope), one pure
function per equation.

Container residue (Eqn C-1a, C-1b), the air release while cleaning containers (C-2 to C-5,
with HCFC-22 analogue data, Table C-3), the supplier workers' inhalation exposure (D-1)
and the two rules the appendices leave unstated: the exposure time of container handling
(decision 8) and the vapour's mass balance against the residue (decision 11). Doctests
re-run the appendices' sample calculations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..calc import equation
from ..counts import round_up_count
from ..models.inhalation import container_exposure_hours, inhalation_dose, ppm_to_mg_m3
from ..models.vapour import container_activity_hours
from .constants import CONTAINERS_PER_DAY_C_1A, DOC, ESD_2010_PHOTORESIST, S_PER_HR

#: The rule of decision 11, cited wherever it is applied.
MASS_BALANCE_RULE = (
    "conservation of mass: the vapour comes out of the container residue, which App. C counts whole "
    "('conservatively assumes all of the container residues are disposed') and is silent on how the two "
    "releases overlap"
)


@equation(
    "Ncontainer_supplier_site_yr", "containers/site-yr",
    "ceil(Ncontainer_unload_site_yr × Nsites / Nsites_supplier)", f"{DOC} App. C footnote 23",
    label="Containers cleaned a year at one supplier site, rounded up",
)
def supplier_containers_per_site_year(Ncontainer_unload_site_yr: int, Nsites: int, Nsites_supplier: int) -> int:
    """Containers cleaned a year at one supplier site, rounded up [containers/site-yr].

    N_container_supplier_site_yr = ceil(N_container_unload_site_yr × N_sites / N_sites_supplier)

    Parameters
    ----------
    Ncontainer_unload_site_yr : containers unloaded per fab a year (Eqn 3-3) [containers/site-yr]
    Nsites : fabs [sites]
    Nsites_supplier : supplier sites sharing the containers [sites] (default 1)

    Notes
    -----
    ESD 2015, App. C footnote 23: the containers unloaded at the supplier "equals the total
    number of containers unloaded at all end use sites" (package docstring, decision 7).
    Hand calculation for the App. C sample: 17 × 9 = 153.

    >>> supplier_containers_per_site_year(17, 9, 1)
    153
    """
    return round_up_count(Ncontainer_unload_site_yr * Nsites / Nsites_supplier)


@equation(
    "Elocal_container_residue_disp", "kg/site-day",
    "Vcontainer × RHOformulation × Fchem × Fcontainer_disp × 1 container/site-day", f"{DOC} App. C Eqn C-1a",
    label="Container residue disposed of at the supplier, one container a day",
)
def container_residue_release_per_container(
    Vcontainer: float, RHOformulation: float, Fchem: float, Fcontainer_disp: float
) -> float:
    """Container residue disposed of at the supplier, one container a day [kg/site-day].

    Elocal_container_residue_disp = V_container × ρ_formulation × F_chem × F_container_disp
                                    × 1 container/site-day

    Parameters
    ----------
    Vcontainer : container volume [L] (default 60.6)
    RHOformulation : density [kg/L] (1 liquid, 0.52 gas)
    Fchem : weight fraction of the precursor [kg/kg] (default 1)
    Fcontainer_disp : fraction left in the container [kg/kg] (default 0.1)

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-1a (App. C, p.64 ff.), when the containers a year are fewer than the
    supplier's operating days; the Appendix C sample prints 6.06 kg/site-day.

    >>> round(container_residue_release_per_container(60.6, 1, 1.0, 0.1), 2)
    6.06
    """
    return Vcontainer * RHOformulation * Fchem * Fcontainer_disp * CONTAINERS_PER_DAY_C_1A


@equation(
    "Qchem_site_day_supplier", "kg/site-day", "Qchem_yr / (Nsites_supplier × TIME_operating_days_supplier)",
    f"{DOC} App. C Eqn C-1b (supplier throughput; module decision 7)",
    label="Daily throughput of the precursor at one supplier site",
)
def supplier_daily_use_rate(Qchem_yr: float, Nsites_supplier: int, TIME_operating_days_supplier: float) -> float:
    """Daily throughput of the precursor at one supplier site [kg/site-day].

    Q_chem_site_day = Q_chem_yr / (N_sites_supplier × TIME_operating_days_supplier)

    Parameters
    ----------
    Qchem_yr : annual production volume [kg/yr]
    Nsites_supplier : supplier sites [sites] (default 1)
    TIME_operating_days_supplier : supplier operating days [days/yr] (default 250)

    Notes
    -----
    ESD 2015, App. C Eqn C-1b where-list ("daily use rate of chemical precursor"), which the
    document does not define at the supplier (package docstring, decision 7). Hand
    calculation: 100,000 / (1 × 250) = 400.

    >>> supplier_daily_use_rate(100000, 1, 250)
    400.0
    """
    return Qchem_yr / (Nsites_supplier * TIME_operating_days_supplier)


@equation("Elocal_container_residue_disp", "kg/site-day", "Qchem_site_day × Fcontainer_disp", f"{DOC} App. C Eqn C-1b",
          label="Container residue disposed of at the supplier, averaged per day")
def container_residue_release_daily(Qchem_site_day: float, Fcontainer_disp: float) -> float:
    """Container residue disposed of at the supplier, averaged per day [kg/site-day].

    Elocal_container_residue_disp = Q_chem_site_day × F_container_disp

    Parameters
    ----------
    Qchem_site_day : daily throughput of the precursor at the supplier [kg/site-day]
    Fcontainer_disp : fraction left in the container [kg/kg]

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-1b, when the containers a year outnumber the operating days.

    >>> round(container_residue_release_daily(2.8, 0.1), 2)
    0.28
    """
    return Qchem_site_day * Fcontainer_disp


@equation("Cv_chem", "ppm", "Cv_k × (VP_chem × X_chem) / (VP_k × X_k)", f"{DOC} App. C Eqn C-2",
          label="Airborne concentration of the precursor scaled from an analogue's data")
def analogue_airborne_concentration(
    Cv_k: float, VP_chem: float, X_chem: float, VP_k: float, X_k: float
) -> float:
    """Airborne concentration of the precursor scaled from an analogue's data [ppm].

    C_v,chem = C_v,k × (VP_chem × x_chem) / (VP_k × x_k)

    Parameters
    ----------
    Cv_k : airborne concentration of the known chemical [ppm] (HCFC-22, 4.8, Table C-3)
    VP_chem : vapour pressure of the precursor [torr]
    X_chem : mole fraction of the precursor [-] (default 1)
    VP_k : vapour pressure of the known chemical [torr] (HCFC-22, 7,846)
    X_k : mole fraction of the known chemical [-] (default 1)

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-2 (App. C, p.64 ff.); the Appendix C sample prints 1.22 ppm for 2,000 torr.

    >>> round(analogue_airborne_concentration(4.8, 2000, 1, 7846, 1), 2)
    1.22
    """
    return Cv_k * (VP_chem * X_chem) / (VP_k * X_k)


@equation("Q_NF", "ft³/min", "0.984 × FSA × v_NF", f"{DOC} App. C Eqn C-3", label="Near-field ventilation rate")
def near_field_ventilation_rate(FSA: float, v_NF: float) -> float:
    """Near-field ventilation rate [ft³/min].

    Q_NF = 0.984 × FSA × v_NF

    Parameters
    ----------
    FSA : free surface area of the near-field zone [ft²] (default 81)
    v_NF : near-field air speed [cm/s] (default 30)

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-3 (EPA 2011); the sample prints 2,391 ft³/min.
    (0.984 = ½ × 1.9685 (ft/min)/(cm/s): the two-zone model's Q_NF = ½ FSA v_NF.)

    >>> round(near_field_ventilation_rate(81, 30), 2)
    2391.12
    """
    return 0.984 * FSA * v_NF


@equation(
    "G_air", "kg/s", "1.93E-11 × (1 − Q_NF/(Q_NF + Q_FF)) × Cv_chem × Q_NF × MW_chem", f"{DOC} App. C Eqn C-4",
    label="Generation rate of precursor vapour while cleaning containers",
)
def generation_rate(Q_NF: float, Q_FF: float, Cv_chem: float, MW_chem: float) -> float:
    """Generation rate of precursor vapour while cleaning containers [kg/s].

    G_air = 1.93E-11 × (1 − Q_NF / (Q_NF + Q_FF)) × C_v,chem × Q_NF × MW_chem

    Parameters
    ----------
    Q_NF : near-field ventilation rate [ft³/min]
    Q_FF : far-field ventilation rate [ft³/min] (default 3,000)
    Cv_chem : near-field airborne concentration [ppm]
    MW_chem : molecular weight of the precursor [g/mol]

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-4 (EPA 2011); the sample prints 3.13E-6 kg/s for
    Q_NF 2,391, C 1.22 ppm and MW 100.

    >>> f"{generation_rate(2391, 3000, 1.22, 100):.3g}"
    '3.13e-06'
    """
    return 1.93e-11 * (1.0 - Q_NF / (Q_NF + Q_FF)) * Cv_chem * Q_NF * MW_chem


@equation(
    "TIME_activity_hours", "hr/site-day", "containers per site-day / RATE_fill",
    f"{DOC} App. C Eqn C-5 where-list (CEB 2002)",
    label="Hours a day spent cleaning containers",
)
def activity_hours(containers_per_day: float, RATE_fill: float) -> float:
    """Hours a day spent cleaning containers [hr/site-day].

    TIME_activity_hours = containers per site-day / unload-fill rate

    Parameters
    ----------
    containers_per_day : containers handled a day at the supplier [containers/site-day]
    RATE_fill : unload/fill rate [containers/hr] (default 60, small containers)

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-5 where-list (CEB 2002 approach; ChemSTEER 2005 rate): the
    standard model's container activity hours (:func:`..models.vapour.container_activity_hours`,
    ESD 2010 Appendix B, Table B-1), which refuses more than 24 hours a day.

    >>> round(activity_hours(1, 60), 4)
    0.0167
    >>> activity_hours(1500, 60)
    Traceback (most recent call last):
    ...
    ValueError: containers_per_day / fill_rate_per_h must be at most 24 h/site-day (got 1500 / 60 = 25 h)
    """
    return container_activity_hours(containers_per_day, RATE_fill)


@equation("Elocal_air_cleaning", "kg/site-day", "G_air × 3600 × TIME_activity_hours", f"{DOC} App. C Eqn C-5",
          label="Daily air release of precursor vapour while cleaning containers")
def container_cleaning_air_release(G_air: float, TIME_activity_hours: float) -> float:
    """Daily air release of precursor vapour while cleaning containers [kg/site-day].

    Elocal_air_cleaning = G_air × 3600 s/hr × TIME_activity_hours

    Parameters
    ----------
    G_air : generation rate [kg/s]
    TIME_activity_hours : hours of container cleaning a day [hr/site-day]

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-5 (App. C, p.64 ff.); the sample prints 1.88E-4 kg/site-day.

    >>> f"{container_cleaning_air_release(3.13e-6, 1 / 60):.3g}"
    '0.000188'
    """
    return G_air * S_PER_HR * TIME_activity_hours


@equation(
    "Elocal_air_evaporated", "kg/site-day", "min(Elocal_air_cleaning, Elocal_container_residue_disp)",
    f"Conservation of mass ({DOC} App. C is silent on the overlap of Eqn C-5 and C-1a/C-1b)",
    label="The air release while cleaning containers, at most the residue it evaporates from",
)
def air_release_from_residue(Elocal_air_cleaning: float, Elocal_container_residue_disp: float) -> float:
    """The air release while cleaning containers, at most the residue it evaporates from [kg/site-day].

    Elocal_air_evaporated = min(Elocal_air_cleaning, Elocal_container_residue_disp)

    Parameters
    ----------
    Elocal_air_cleaning : air release from Eqn C-5 [kg/site-day]
    Elocal_container_residue_disp : container residue from Eqn C-1a or C-1b [kg/site-day]

    Notes
    -----
    Package docstring, decision 11: the vapour comes out of the residue left in the
    containers (ESD 2015 App. C: Eqn C-5 and C-1a/C-1b fall on the same days), so it cannot
    exceed it. The App. C sample's 1.88E-4 kg/site-day is far below its 6.06 kg/site-day.

    >>> air_release_from_residue(1.88e-4, 6.06), air_release_from_residue(2.0, 0.5)
    (0.000188, 0.5)
    """
    return min(Elocal_air_cleaning, Elocal_container_residue_disp)


@equation(
    "Elocal_container_residue_net", "kg/site-day", "Elocal_container_residue_disp − Elocal_air_evaporated",
    f"Conservation of mass ({DOC} App. C is silent on the overlap of Eqn C-5 and C-1a/C-1b)",
    label="Container residue disposed of, less what evaporated while cleaning",
)
def residue_left_after_evaporation(Elocal_container_residue_disp: float, Elocal_air_evaporated: float) -> float:
    """Container residue disposed of, less what evaporated while cleaning [kg/site-day].

    Elocal_container_residue_net = Elocal_container_residue_disp − Elocal_air_evaporated

    Parameters
    ----------
    Elocal_container_residue_disp : container residue from Eqn C-1a or C-1b [kg/site-day]
    Elocal_air_evaporated : the part of it released to air (:func:`air_release_from_residue`) [kg/site-day]

    Notes
    -----
    Package docstring, decision 11. App. C sample (hand calculation): 6.06 − 0.000188 =
    6.0598 kg/site-day, still the printed "6.06".

    >>> round(residue_left_after_evaporation(6.06, 1.88e-4), 4)
    6.0598
    """
    return Elocal_container_residue_disp - Elocal_air_evaporated


@equation(
    "TIME_exposure", "hr/day", "min(containers per site-day / RATE_fill, 8)",
    f"{DOC} App. D Eqn D-1 with App. C Eqn C-5's activity time (the App. D sample's 0.016 hr/day); "
    f"{ESD_2010_PHOTORESIST} App. B Table B-2",
    label="Exposure time of a worker handling and cleaning containers",
)
def exposure_duration(containers_per_day: float, RATE_fill: float) -> float:
    """Exposure time of a worker handling and cleaning containers [hr/day].

    TIME_exposure = min(containers per site-day / RATE_fill, 8 hr/day)

    Parameters
    ----------
    containers_per_day : containers handled a day at the supplier [containers/site-day]
    RATE_fill : unload/fill rate [containers/hr] (default 60, small containers)

    Notes
    -----
    ESD 2015, App. D sample: Eqn D-1 with 0.016 hr/day, the C-5 activity time of one
    container at 60 containers/hr (1/60 hr, truncated); the where-list's "Default: 8 hr/day"
    is the bound. The rule is the container rows of the EPA/OPPT Mass Balance Model's
    TIME_exposure, ESD No. 9 (2010) App. B Table B-2: "Lesser of: (number of containers
    handled per site-day) / RATEfill or 8" (package docstring, decision 8).

    >>> round(exposure_duration(1, 60), 4), exposure_duration(600, 60)
    (0.0167, 8.0)
    """
    return container_exposure_hours(containers_per_day, RATE_fill)


@equation(
    "EXP_inhalation", "mg/day", "Cv_chem × MW_chem / V_molar × RATE_breathing × TIME_exposure",
    f"{DOC} App. D Eqn D-1",
    label="Potential inhalation exposure of a supplier worker cleaning containers",
)
def inhalation_exposure(
    Cv_chem: float, MW_chem: float, V_molar: float, RATE_breathing: float, TIME_exposure: float
) -> float:
    """Potential inhalation exposure of a supplier worker cleaning containers [mg/day].

    EXP_inhalation = C_v,chem × MW_chem / V_molar × RATE_breathing × TIME_exposure

    Parameters
    ----------
    Cv_chem : airborne concentration of the precursor [ppm]
    MW_chem : molecular weight [g/mol]
    V_molar : molar volume [L/mol] (default 24.45, 25 °C)
    RATE_breathing : inhalation rate [m³/hr] (default 1.25)
    TIME_exposure : exposure duration [hr/day] (at most 8; :func:`exposure_duration`)

    Notes
    -----
    ESD 2015, Appendix D, Eqn D-1 (App. D, p.74 ff.; C_v,chem from Eqn C-2, which the where-list calls
    "Equation D-2"); the sample prints 0.1 mg/day with 0.016 hr/day.

    The equation is the standard inhalation shell: ``ppm_to_mg_m3`` then ``inhalation_dose``
    of :mod:`assessments.esd.models.inhalation` (Cm = Cv × MW / Vmolar; I = Cm × b × h, h at most 8 hr).

    >>> round(inhalation_exposure(1.22, 100, 24.45, 1.25, 0.016), 3)
    0.1
    """
    return inhalation_dose(ppm_to_mg_m3(Cv_chem, MW_chem, V_molar), TIME_exposure, RATE_breathing)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile of the values by linear interpolation between ranks [units of values].

    rank = q/100 × (n − 1); x = x_(floor) + frac × (x_(floor+1) − x_(floor))

    Parameters
    ----------
    values : the data
    q : percentile [%], 0 to 100

    Notes
    -----
    Reproduces ESD 2015, Table C-3's "90th percentile (default)" of the HCFC-22 data,
    printed 4.8 ppm (Excel PERCENTILE.INC's rule).

    >>> from assessments.esd.cvd.constants import HCFC22_CONCENTRATIONS_PPM
    >>> round(percentile(HCFC22_CONCENTRATIONS_PPM, 90), 3)
    4.8
    """
    ordered = sorted(values)
    rank = q / 100.0 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])
