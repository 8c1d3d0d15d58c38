"""Vapour generation rate and volatile air release models (G in g/s).

- EPA/OPPT Penetration Model: evaporation from an open liquid surface indoors
  (laminar air, air speed at most 100 ft/min), Eq B-1 and B-2.
- EPA/OPPT Mass Transfer Coefficient Model: the same outdoors (turbulent air, more
  than 100 ft/min), Eq B-3 and B-4.
- EPA/OAQPS AP-42 Loading Model: saturated vapour displaced from a container being
  filled (also the default for unloading), Eq B-5 and B-6.

Document: OECD ESD No. 9, *Photoresist Use in Semiconductor Manufacturing* (2010),
Appendix B.2.1 and Table B-1. The PDF-to-text extraction lost the bodies of Eq B-1, B-3
and B-5 (only the labels, the variable lists and the constants 8.24 × 10⁻⁸ and
1.93 × 10⁻⁷ survive); the bodies below are the standard forms in ChemSTEER's model
table, as the project's catalogue (``spec/epa-standard-models.md``) gives them; they use
exactly the printed variable lists and constants. Units are EPA's: MW [g/mol],
VP [torr], d [cm], air speed [ft/min], T [K], P [atm], container volume [gal].

A chemical with VP < 0.001 torr has negligible vapour release (see
:mod:`assessments.esd.models.volatility`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._validate import check_range, fraction, non_negative, positive

# --- Model names (2010 ESD, Appendix B.2.1) -------------------------------------------

PENETRATION_MODEL = "EPA/OPPT Penetration Model"
MASS_TRANSFER_MODEL = "EPA/OPPT Mass Transfer Coefficient Model"
AP42_LOADING_MODEL = "EPA/OAQPS AP-42 Loading Model"

# --- Constants and defaults -------------------------------------------------------------

#: Unit-conversion factor of Eq B-1 (Arnold and Engel, 1999); printed under Eq B-1.
PENETRATION_CONSTANT = 8.24e-8
#: Unit-conversion factor of Eq B-3 (Arnold and Engel, 1999); printed under Eq B-3.
MASS_TRANSFER_CONSTANT = 1.93e-7
#: Molecular weight of air in Eq B-1 and B-3 [g/mol] (the "1/29" term).
MW_AIR = 29.0
#: Ambient temperature [K]: "EPA default = 298 K" (Eq B-1, B-3, B-5 variable lists).
T_AMBIENT_K = 298.0
#: Ambient pressure [atm]: "EPA default = 1 atm" (Eq B-1 variable list).
P_AMBIENT_ATM = 1.0
#: Vapour-pressure correction factor [-]: "EPA default = 1"; or the mole fraction
#: (Raoult's law), approximated by the weight fraction (footnote to Eq B-1, B-3, B-5).
X_DEFAULT = 1.0
#: Indoor air speed [ft/min]: Penetration Model default 100 (Eq B-1; Table B-2).
INDOOR_AIR_SPEED_FT_MIN = 100.0
#: Outdoor air speed [ft/min]: Mass Transfer Coefficient Model default 440 (Eq B-3; Table B-2).
OUTDOOR_AIR_SPEED_FT_MIN = 440.0
#: Highest air speed the Penetration Model covers [ft/min]. Section B.2.1.1 says
#: "less than or equal to 100 feet per minute"; the Eq B-1 variable list says "must be
#: < 100" yet defaults to 100. The default is allowed, so 100 is inclusive.
PENETRATION_MAX_AIR_SPEED_FT_MIN = 100.0
#: Gas constant of Eq B-5 [atm·cm³/(mol·K)]: "82.05" (Eq B-5 variable list).
R_ATM_CM3_MOL_K = 82.05
#: cm³ per US gallon in Eq B-5 (ChemSTEER model table; catalogue).
CM3_PER_GALLON = 3785.4
#: torr per atm in Eq B-5.
TORR_PER_ATM = 760.0
#: Seconds per hour and grams per kilogram in Eq B-2, B-4, B-6 (printed).
SECONDS_PER_HOUR = 3600.0
GRAMS_PER_KG = 1000.0

# Opening diameters [cm] (Table B-1, Dopening column)
#: Containers below 5,000 gal (bottles, small containers, drums, totes).
D_OPENING_SMALL_CONTAINER_CM = 5.08
#: Containers of 5,000 gal and more (tank trucks, rail cars); printed "(>5,000 gals)".
D_OPENING_LARGE_CONTAINER_CM = 7.6
#: Volume at and above which a container takes the 7.6-cm opening [gal]. Table B-1
#: prints "<5,000" and ">5,000"; the tank-truck default (5,000 gal) takes 7.6 cm, so
#: 5,000 itself is "large".
LARGE_OPENING_MIN_GAL = 5_000.0
#: Equipment cleaning, any vessel(s).
D_OPENING_EQUIPMENT_CLEANING_CM = 92.0
#: Sampling liquids, typical (2002 policy decision, replacing 7 cm; Table B-1 footnote a).
D_OPENING_SAMPLING_TYPICAL_CM = 2.5
#: Sampling liquids, worst case.
D_OPENING_SAMPLING_WORST_CM = 10.0

# Saturation factors [-] (Table B-1, Fsaturation_factor column)
#: Bottles, small containers, drums, totes: typical.
SATURATION_FACTOR_TYPICAL = 0.5
#: Bottles, small containers, drums, totes: worst case.
SATURATION_FACTOR_WORST = 1.0
#: Tank trucks, rail cars and the non-container activities (a merged cell of the
#: extracted table, read as 1; see the photoresist catalogue's reconstruction log item 14).
SATURATION_FACTOR_BULK = 1.0

# Activity hours [h/site-day] (Table B-1, TIMEactivity_hours column)
EQUIPMENT_CLEANING_HOURS: dict[str, float] = {
    "multiple_vessels": 4.0,
    "single_large_vessel": 1.0,
    "single_small_vessel": 0.5,
}
SAMPLING_HOURS = 1.0
CONTINUOUS_HOURS = 24.0


@dataclass(frozen=True)
class ContainerVapourDefaults:
    """Table B-1 (and Table B-2 air speed) defaults for one container class."""

    volume_gal: float
    opening_cm: float
    fill_rate_per_h: float
    saturation_typical: float
    saturation_worst: float
    outdoors: bool
    air_speed_ft_min: float


#: Keyed like :data:`assessments.esd.models.residue.CONTAINER_TYPES`.
CONTAINER_VAPOUR_DEFAULTS: dict[str, ContainerVapourDefaults] = {
    "bottle": ContainerVapourDefaults(1, 5.08, 60, 0.5, 1.0, False, 100),
    "small_container": ContainerVapourDefaults(5, 5.08, 60, 0.5, 1.0, False, 100),
    "drum": ContainerVapourDefaults(55, 5.08, 20, 0.5, 1.0, False, 100),
    "tote": ContainerVapourDefaults(550, 5.08, 20, 0.5, 1.0, False, 100),
    "tank_truck": ContainerVapourDefaults(5_000, 7.6, 2, 1.0, 1.0, True, 440),
    "rail_car": ContainerVapourDefaults(20_000, 7.6, 1, 1.0, 1.0, True, 440),
}


# --- Equations ----------------------------------------------------------------------------


def opening_area_cm2(d_cm: float) -> float:
    """Surface area of the pool or opening [cm²].

    AREAopening = π × Dopening² / 4

    Parameters
    ----------
    d_cm : diameter of the pool or opening [cm], greater than 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.1.1, Eq B-1 and B-3 variable lists
    (printed "Β × Dopening2 / 4"; Β is a garbled π).

    >>> round(opening_area_cm2(5.08), 3)
    20.268
    """
    d = positive("d_cm", d_cm, "cm")
    return math.pi * d**2 / 4


def opening_diameter_cm(volume_gal: float) -> float:
    """Default opening diameter of a container [cm]: 5.08 below 5,000 gal, else 7.6.

    Parameters
    ----------
    volume_gal : container volume [gal], greater than 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-1 (Dopening column).

    >>> opening_diameter_cm(55), opening_diameter_cm(5000)
    (5.08, 7.6)
    """
    v = positive("volume_gal", volume_gal, "gal")
    return D_OPENING_LARGE_CONTAINER_CM if v >= LARGE_OPENING_MIN_GAL else D_OPENING_SMALL_CONTAINER_CM


def _common(MW: float, VP_torr: float, d_cm: float, T_K: float, X: float) -> tuple[float, float, float, float, float]:
    return (
        positive("MW", MW, "g/mol"),
        non_negative("VP_torr", VP_torr, "torr"),
        positive("d_cm", d_cm, "cm"),
        positive("T_K", T_K, "K"),
        fraction("X", X),
    )


def penetration_generation_rate(
    MW: float,
    VP_torr: float,
    d_cm: float,
    vz_ft_min: float = INDOOR_AIR_SPEED_FT_MIN,
    T_K: float = T_AMBIENT_K,
    X: float = X_DEFAULT,
    P_atm: float = P_AMBIENT_ATM,
) -> float:
    """Vapour generation rate from an open liquid surface indoors [g/s].

    G = 8.24e-8 × MW^0.835 × X × VP × (1/29 + 1/MW)^0.25 × vz^0.5 × A
        / (T^0.05 × d^0.5 × P^0.5),  A = π d²/4

    Parameters
    ----------
    MW : molecular weight of the chemical [g/mol]
    VP_torr : vapour pressure of the chemical [torr]
    d_cm : diameter of the pool or opening [cm] (Table B-1)
    vz_ft_min : air speed [ft/min], greater than 0 and at most 100 (default 100)
    T_K : ambient temperature [K] (default 298)
    X : vapour-pressure correction factor (mole fraction) [-] (default 1)
    P_atm : ambient pressure [atm] (default 1)

    Notes
    -----
    EPA/OPPT Penetration Model. OECD ESD Photoresist (2010), Appendix B.2.1.1, Eq B-1
    (body lost in the extracted text; the form is ChemSTEER's, with the printed
    constant 8.24 × 10⁻⁸ and variable list). Above 100 ft/min use
    :func:`mass_transfer_generation_rate`.

    >>> f"{penetration_generation_rate(100, 10, 5.08):.4e}"
    '1.1972e-03'
    """
    MW, VP, d, T, X = _common(MW, VP_torr, d_cm, T_K, X)
    vz = check_range(
        "vz_ft_min",
        vz_ft_min,
        lower=0,
        upper=PENETRATION_MAX_AIR_SPEED_FT_MIN,
        lower_open=True,
        units="ft/min",
        hint="the Penetration Model covers laminar (indoor) air only; above 100 ft/min "
        "use the Mass Transfer Coefficient Model",
    )
    P = positive("P_atm", P_atm, "atm")
    A = opening_area_cm2(d)
    # float(): a float raised to a float power is typed as Any (it could be complex).
    return float(
        PENETRATION_CONSTANT * MW**0.835 * X * VP * (1 / MW_AIR + 1 / MW) ** 0.25 * vz**0.5 * A
        / (T**0.05 * d**0.5 * P**0.5)
    )


def mass_transfer_generation_rate(
    MW: float,
    VP_torr: float,
    d_cm: float,
    vz_ft_min: float = OUTDOOR_AIR_SPEED_FT_MIN,
    T_K: float = T_AMBIENT_K,
    X: float = X_DEFAULT,
) -> float:
    """Vapour generation rate from an open liquid surface outdoors [g/s].

    G = 1.93e-7 × MW^0.78 × X × VP × (1/29 + 1/MW)^0.33 × vz^0.78 × A
        / (T^0.4 × d^0.11 × (T^0.5 − 5.87)^(2/3)),  A = π d²/4

    Parameters
    ----------
    MW : molecular weight of the chemical [g/mol]
    VP_torr : vapour pressure of the chemical [torr]
    d_cm : diameter of the pool or opening [cm] (Table B-1)
    vz_ft_min : air speed [ft/min], greater than 100 (default 440)
    T_K : ambient temperature [K], greater than 5.87² = 34.4569 (default 298)
    X : vapour-pressure correction factor (mole fraction) [-] (default 1)

    Notes
    -----
    EPA/OPPT Mass Transfer Coefficient Model. OECD ESD Photoresist (2010), Appendix
    B.2.1.2, Eq B-3 (body lost in the extracted text; the form is ChemSTEER's, with the
    printed constant 1.93 × 10⁻⁷ and variable list, which has no pressure term).

    >>> f"{mass_transfer_generation_rate(100, 10, 92):.4f}"
    '0.2365'
    """
    MW, VP, d, T, X = _common(MW, VP_torr, d_cm, T_K, X)
    vz = check_range(
        "vz_ft_min",
        vz_ft_min,
        lower=INDOOR_AIR_SPEED_FT_MIN,
        lower_open=True,
        units="ft/min",
        hint="the Mass Transfer Coefficient Model covers turbulent (outdoor) air only; at "
        "100 ft/min or less use the Penetration Model",
    )
    T = check_range("T_K", T_K, lower=5.87**2, lower_open=True, units="K")
    A = opening_area_cm2(d)
    # float(): a float raised to a float power is typed as Any (it could be complex).
    return float(
        MASS_TRANSFER_CONSTANT * MW**0.78 * X * VP * (1 / MW_AIR + 1 / MW) ** 0.33 * vz**0.78 * A
        / (T**0.4 * d**0.11 * (T**0.5 - 5.87) ** (2 / 3))
    )


def ap42_loading_generation_rate(
    MW: float,
    VP_torr: float,
    Vc_gal: float,
    fill_rate_per_h: float,
    f: float = SATURATION_FACTOR_WORST,
    T_K: float = T_AMBIENT_K,
    X: float = X_DEFAULT,
) -> float:
    """Vapour generation rate from air displaced while filling containers [g/s].

    G = f × MW × (Vc × 3,785.4) × (r / 3,600) × X × (VP / 760) / (R × T),
    R = 82.05 atm·cm³/(mol·K)

    Parameters
    ----------
    MW : molecular weight of the chemical [g/mol]
    VP_torr : vapour pressure of the chemical [torr]
    Vc_gal : volume of the container [gal] (Table B-1)
    fill_rate_per_h : fill rate [containers/h] (Table B-1)
    f : saturation factor [-], greater than 0 and at most 1 (Table B-1: 0.5 typical,
        1 worst case for bottles to totes; 1 for tank trucks and rail cars)
    T_K : ambient temperature [K] (default 298)
    X : vapour-pressure correction factor (mole fraction) [-] (default 1)

    Notes
    -----
    EPA/OAQPS AP-42 Loading Model. OECD ESD Photoresist (2010), Appendix B.2.1.3,
    Eq B-5 (body lost in the extracted text; the form is ChemSTEER's, with the printed
    variable list and R = 82.05). Used for loading and for unloading.

    >>> f"{ap42_loading_generation_rate(100, 10, 55, 20):.4e}"
    '6.2243e-02'
    """
    MW = positive("MW", MW, "g/mol")
    VP = non_negative("VP_torr", VP_torr, "torr")
    Vc = positive("Vc_gal", Vc_gal, "gal")
    r = positive("fill_rate_per_h", fill_rate_per_h, "containers/h")
    f = fraction("f", f, lower_open=True)
    T = positive("T_K", T_K, "K")
    X = fraction("X", X)
    return (
        f * MW * (Vc * CM3_PER_GALLON) * (r / SECONDS_PER_HOUR) * X * (VP / TORR_PER_ATM)
        / (R_ATM_CM3_MOL_K * T)
    )


def vapour_release_kg_day(G_g_s: float, hours: float) -> float:
    """Daily release of vapour to air from an activity [kg/site-day].

    Elocal_air = G × TIMEactivity_hours × 3,600 s/h / 1,000 g/kg

    Parameters
    ----------
    G_g_s : vapour generation rate [g/s] (Eq B-1, B-3 or B-5)
    hours : operating hours of the activity [h/site-day], between 0 and 24

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.1, Eq B-2, B-4 and B-6 (the same
    equation). The CVD ESD's Eq C-5 is the same shell with G in kg/s.

    >>> round(vapour_release_kg_day(3.13e-3, 1 / 60), 6)
    0.000188
    """
    G = non_negative("G_g_s", G_g_s, "g/s")
    h = check_range("hours", hours, lower=0, upper=24, units="h/site-day")
    return G * h * SECONDS_PER_HOUR / GRAMS_PER_KG


#: Where the rule that a vapour release is limited by the mass available comes from.
MASS_LIMIT_SOURCE = (
    "conservation of mass, as the material balance method states it (EIIP Volume II, Chapter 6, 1999, "
    "§3.1.1 and Eqn 6.4-1: the releases to air are the material used less the material leaving as waste, "
    "so what leaves as waste is what did not evaporate); the ESD's Appendix B gives the vapour models as "
    "rates with no limit on the mass (Eq B-1 to B-6) and its photoresist scenarios assume a nonvolatile "
    "chemical (ESD 2010 §4, §5), so it is silent"
)


def mass_limited_release_kg_day(model_kg_day: float, available_kg_day: float) -> float:
    """Vapour release of an activity, at most the mass that can evaporate [kg/site-day].

    Elocal_air = min(G × TIMEactivity_hours × 3,600 / 1,000, Elocal_available)

    Parameters
    ----------
    model_kg_day : the vapour model's release, G × hours (Eq B-2, B-4, B-6) [kg/site-day]
    available_kg_day : the chemical the activity's liquid holds on the same days, e.g.
        the residue the equipment is cleaned of [kg/site-day]

    Notes
    -----
    The generation-rate models (Eq B-1, B-3, B-5) assume a surface that never runs dry;
    over the activity's hours they can give more vapour than there is liquid. What
    evaporates is taken from that liquid, so it cannot exceed it (:data:`MASS_LIMIT_SOURCE`).

    >>> mass_limited_release_kg_day(0.166, 0.00276), mass_limited_release_kg_day(1.2e-4, 0.0278)
    (0.00276, 0.00012)
    """
    model = non_negative("model_kg_day", model_kg_day, "kg/site-day")
    available = non_negative("available_kg_day", available_kg_day, "kg/site-day")
    return min(model, available)


def generation_rate_for_release(kg_day: float, hours: float) -> float:
    """The average generation rate that releases ``kg_day`` over the activity [g/s].

    G = Elocal_air × 1,000 g/kg / (TIMEactivity_hours × 3,600 s/h)

    Parameters
    ----------
    kg_day : vapour released by the activity per site-day [kg/site-day]
    hours : operating hours of the activity [h/site-day], greater than 0 and at most 24

    Notes
    -----
    Eq B-2/B-4/B-6 solved for G. When the release is limited by the mass available
    (:func:`mass_limited_release_kg_day`), the generation rate an inhalation model uses
    (Eq B-7) should not imply more vapour than that: the lesser of the model's G and
    this rate.

    >>> round(generation_rate_for_release(0.00276, 1), 6)
    0.000767
    """
    kg = non_negative("kg_day", kg_day, "kg/site-day")
    h = check_range("hours", hours, lower=0, upper=24, lower_open=True, units="h/site-day")
    return kg * GRAMS_PER_KG / (h * SECONDS_PER_HOUR)


def container_activity_hours(containers_per_day: float, fill_rate_per_h: float) -> float:
    """Hours a day spent filling or emptying containers [h/site-day].

    TIMEactivity_hours = containers handled per site-day / RATEfill

    Parameters
    ----------
    containers_per_day : containers handled per site-day [containers/site-day], > 0
    fill_rate_per_h : fill rate [containers/h] (Table B-1), > 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-1 (TIMEactivity_hours, container
    rows). Raises when the result exceeds 24 h: the fill rate cannot handle that many
    containers in a day. For the exposure time (at most 8 h) see
    :func:`assessments.esd.models.inhalation.container_exposure_hours`.

    >>> round(container_activity_hours(8.12, 60), 4)
    0.1353
    """
    n = positive("containers_per_day", containers_per_day, "containers/site-day")
    r = positive("fill_rate_per_h", fill_rate_per_h, "containers/h")
    hours = n / r
    if hours > 24:
        raise ValueError(
            f"containers_per_day / fill_rate_per_h must be at most 24 h/site-day "
            f"(got {n:g} / {r:g} = {hours:g} h)"
        )
    return hours


def batch_activity_hours(hours_per_batch: float, batches_per_day: float) -> float:
    """Hours a day of a batch operation [h/site-day]: the lesser of h/batch × batches/day or 24.

    Parameters
    ----------
    hours_per_batch : duration of one batch [h/batch], > 0
    batches_per_day : batches run per site-day [batches/site-day], > 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-1 ("Batch Operation: Lesser of:
    (Hours/batch × Batches/site-day) or 24"). The 24-h limit is the model's rule.

    >>> batch_activity_hours(3, 4), batch_activity_hours(10, 3)
    (12.0, 24.0)
    """
    h = positive("hours_per_batch", hours_per_batch, "h/batch")
    n = positive("batches_per_day", batches_per_day, "batches/site-day")
    return min(h * n, CONTINUOUS_HOURS)
