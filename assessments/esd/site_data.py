"""Site-specific air emissions from a submitter's facility data: EIIP Volume II, Chapter 6.

EIIP, *Preferred and Alternative Methods for Estimating Air Emissions from Semiconductor
Manufacturing*, Volume II, Chapter 6 (Eastern Research Group for the EIIP Point Sources
Committee, February 1999), cited below as "EIIP". The ESDs' defaults are screening values;
both ESDs say site-specific data, when a submitter gives them, replace the defaults (ESD
2015 Explanatory Notes, ¶31, ¶76), and EIIP §3.1: site-specific data "are preferred over
... industry-averaged data". This module computes such an air release by one of EIIP's
methods:

- ``material_balance``: Eqn 6.4-1 (on the pollutant's content), label "output";
- ``material_balance_speciated``: Eqn 6.4-2 (weight percent), label "output";
- ``source_test``: Eqn 6.4-3 (inorganic) or 6.5-1 (organic), with 6.4-4, label "output";
- ``emission_factor``: Eqn 6.5-3, label "output";
- ``saturation``: Eqn 6.5-4, the saturation upper limit (optionally diluted), "what-if";
- ``evaporation``: Eqn 6.5-5, mass-transfer evaporation, label "what-if".

Measured-data methods are labelled "output" (a number derived from the facility's own
measurements); the engineering calculations, which EIIP calls "the least preferred" and
"theoretical" (§3.2.4, §6.4), are labelled "what-if".

Preferred or alternative: the standing of a method depends on the pollutant (EIIP
Table 6.3-1): for VOCs and speciated organics the material balance is preferred, and
source testing, engineering calculations and emission factors are alternatives; for
inorganic HAPs (acids, bases) source testing is preferred, engineering calculations and
emission factors are alternatives, and a material balance is not listed (§3.2.1: not
appropriate where reactions make the fate uncertain). §4's opening sentence also calls
engineering calculations "preferred" for inorganic HAPs; Table 6.3-1 and §3.2.4 ("least
preferred") are followed here. Each release's basis states the standing, the DARS composite
score of the method (Tables 6.6-1 to 6.6-4) and the QA/QC point of §6.1 to §6.4.

Design: additive to the contract
--------------------------------
Any scenario's inputs may carry one extra top-level key, ``"site_specific"``: a list of
entries, each a JSON object::

    {"method": "source_test",                 # a key of METHODS
     "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0,
                "V": 109020, "OH": 1760, "days_per_year": 220},
     "replaces": 1,                           # a release number, or null to add beside
     "source": "PMN attachment 3: 2023 stack test, tool exhaust",   # required
     "activity": "CVD tool exhaust stack"}     # optional: what emits

:meth:`registry.Scenario.compute` hands the key to :func:`compute_with_site_data`, so every
scenario (CVD, photoresist ...) gets it without declaring it. Each method declares its own
:class:`~.parameters.ParamSet` (``METHODS[key].params``), from which the wizard and the
command line build their forms exactly as for a scenario. Errors are keyed
``"site_specific[i].SYMBOL"`` (``"site_specific[i].method"``, ``.replaces``, ``.source``
for the entry itself), and are reported together with the scenario's own errors.

The entry's release is an air release (EIIP estimates air emissions only) with
``site_specific = True``. With ``"replaces": n`` it takes release n's place and number (the
ESD's estimate is kept in ``notes``); with ``null`` it is appended with the next free number.
Days of release and sites: ``days_per_year`` and ``Nsites`` when given, else those of the
replaced release; an entry that replaces nothing must give ``days_per_year`` and stands for
one site (the facility whose data it is) unless ``Nsites`` is given. The effective entries
are recorded in the result's ``inputs["site_specific"]``, so the result can be reproduced.

Units stay EIIP's (lb/hr, gal, dscf, ft³, psia, °R) up to the annual emission; the release
is then converted once: kg/site-yr = E_x [lb/hr] × OH [hr/yr] × 0.45359237 kg/lb, and
kg/site-day = kg/site-yr / days_per_year.

Nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .parameters import CHOICE, INT, EngineValidationError, Param, ParamSet, Step
from .results import Medium, Release, Result, Trace, release_estimate

DOC = "EIIP Vol. II Ch. 6"
DOCUMENT = (
    "EIIP Volume II, Chapter 6, Preferred and Alternative Methods for Estimating Air "
    "Emissions from Semiconductor Manufacturing (1999)"
)

SITE_SPECIFIC = "site_specific"

# ---------------------------------------------------------------------------------------
# Sourced constants
# ---------------------------------------------------------------------------------------

#: Molar volume of an ideal gas at 68 °F and 1 atm [ft³/lb-mole]: EIIP Eqn 6.4-3 and
#: 6.5-1 where-lists, Examples 6.4-3 and 6.5-1.
M_STANDARD = 385.5
#: Pounds per short ton: EIIP Eqn 6.4-4 and 6.5-2.
LB_PER_TON = 2000.0
#: Kilograms per pound (international avoirdupois pound, exact by definition; NIST SP 811).
KG_PER_LB = 0.45359237
#: Ideal gas constant [psia·ft³/(°R·lb-mole)]: EIIP Eqn 6.5-5 where-list.
R_PSIA_FT3 = 10.73
#: Total pressure [atm] of EIIP Example 6.5-3.
P_TOTAL_ATM = 1.0
#: The mass-transfer coefficient's constant [ft/s per (mile/hr)^0.78] and the molecular
#: weight of water it is referred to [lb/lb-mole]: EIIP Eqn 6.5-5 (EPA 1987).
K_CONSTANT = 0.00438
MW_WATER = 18.0
#: The typical air dilution to saturation ratio "may be assumed to be as high as 800 to 1":
#: EIIP §3.1.4; a ratio from testing "may be applied" to Eqn 6.5-4 (§5.3).
DILUTION_RATIO_TYPICAL_MAX = 800.0
#: Hours in a leap year: the upper bound of operating hours a year.
HOURS_PER_YEAR_MAX = 8784.0

VOC = "voc"
ORGANIC = "organic"
INORGANIC = "inorganic"
POLLUTANT_CLASSES = (
    (VOC, "VOC (total)"),
    (ORGANIC, "Speciated organics (HAPs, toluene, xylenes, CFCs, PFCs ...)"),
    (INORGANIC, "Inorganic HAPs (acids, bases) and reactive inorganic gases"),
)

MATERIAL_BALANCE = "material balance"
SOURCE_TEST = "source test"
EMISSION_FACTOR = "emission factor"
ENGINEERING = "engineering calculation"

#: EIIP Table 6.3-1 (p.6.3-3): preferred and alternative methods by pollutant.
TABLE_6_3_1: dict[str, dict[str, tuple[str, ...]]] = {
    VOC: {"preferred": (MATERIAL_BALANCE,),
          "alternative": (SOURCE_TEST, ENGINEERING, EMISSION_FACTOR)},
    ORGANIC: {"preferred": (MATERIAL_BALANCE,),
              "alternative": (SOURCE_TEST, ENGINEERING, EMISSION_FACTOR)},
    INORGANIC: {"preferred": (SOURCE_TEST,), "alternative": (ENGINEERING, EMISSION_FACTOR)},
}

#: DARS composite emissions scores, EIIP Tables 6.6-1 to 6.6-4 (§6.5).
DARS_COMPOSITE = {
    MATERIAL_BALANCE: "0.98 (Table 6.6-1)",
    SOURCE_TEST: "0.78 to 0.93 (Table 6.6-2)",
    EMISSION_FACTOR: "0.83 to 0.90 (Table 6.6-3, a factor from an identical or similar facility)",
    ENGINEERING: "0.68 to 0.86 (Table 6.6-4)",
}

#: The QA/QC point of each method, EIIP §6.1 to §6.4.
QA_QC = {
    MATERIAL_BALANCE: "every fate of the material (product, wastewater, waste, recovery) "
                      "must be identified and quantified; direct measurement is better than "
                      "allocation (§6.1)",
    SOURCE_TEST: "check that the method measures the pollutant itself, not a surrogate, that "
                 "sampling represents the operating conditions, and the calibration; scale "
                 "short tests to a year with care (§6.3, §3.2)",
    EMISSION_FACTOR: "check that the factor applies to and represents this process and its "
                     "range of conditions, e.g. wafers per hour (§6.2)",
    ENGINEERING: "theoretical equations developed independently of the source, usually less "
                 "accurate than measured data (§6.4)",
}


def standing(family: str, pollutant_class: str) -> str:
    """Whether EIIP prefers a method for a pollutant class: preferred, alternative or not listed.

    Parameters
    ----------
    family : method family, e.g. ``"source test"``
    pollutant_class : ``"voc"``, ``"organic"`` or ``"inorganic"``

    Notes
    -----
    EIIP Table 6.3-1 (p.6.3-3); §3.2.1 (a material balance is not listed for inorganic HAPs).

    >>> standing(SOURCE_TEST, INORGANIC), standing(SOURCE_TEST, VOC)
    ('preferred', 'alternative')
    >>> standing(MATERIAL_BALANCE, INORGANIC)
    'not listed'
    """
    row = TABLE_6_3_1[pollutant_class]
    if family in row["preferred"]:
        return "preferred"
    if family in row["alternative"]:
        return "alternative"
    return "not listed"


# ---------------------------------------------------------------------------------------
# Equations
# ---------------------------------------------------------------------------------------


def material_balance_emissions(Q_in: float, Q_out: float, C_x: float) -> float:
    """Emissions of a pollutant by material balance on its content [lb/hr].

    E_x = (Q_in − Q_out) × C_x

    Parameters
    ----------
    Q_in : material entering the process [gal/hr]
    Q_out : material leaving as waste, recovered or in product [gal/hr]
    C_x : concentration (content) of pollutant x in the material [lb/gal]

    Notes
    -----
    EIIP, Eqn 6.4-1, §4.1 (p.6.4-2); Example 6.4-1 prints 3.75 lb VOC/hr.

    >>> material_balance_emissions(2, 1.5, 7.5)
    3.75
    """
    return (Q_in - Q_out) * C_x


def speciated_material_balance_emissions(Q_in: float, Q_out: float, d: float, wt_pct_x: float) -> float:
    """Emissions of one pollutant by material balance on the material's composition [lb/hr].

    E_x = (Q_in − Q_out) × d × wt%_x / 100

    Parameters
    ----------
    Q_in : material entering the process [gal/hr]
    Q_out : material leaving as waste, recovered or in product [gal/hr]
    d : density of the material [lb/gal]
    wt_pct_x : percentage by weight of pollutant x in the material [%]

    Notes
    -----
    EIIP, Eqn 6.4-2, §4.1 (p.6.4-3); Example 6.4-2 prints 0.94 lb toluene/hr.

    >>> round(speciated_material_balance_emissions(2, 1.5, 7.5, 25), 2)
    0.94
    """
    return (Q_in - Q_out) * d * wt_pct_x / 100.0


def source_test_emissions(C_x: float, MW_x: float, V: float, M: float = M_STANDARD) -> float:
    """Emission rate from a measured stack concentration and gas flow [lb/hr].

    E_x = C_x × MW_x × V / (M × 10^6)

    Parameters
    ----------
    C_x : concentration of pollutant x [ppmvd]
    MW_x : molecular weight of pollutant x [lb/lb-mole]
    V : stack gas volumetric flow rate [dscf/hr]
    M : molar volume [ft³/lb-mole] (385.5 at 68 °F and 1 atm)

    Notes
    -----
    EIIP, Eqn 6.4-3, §4.2 (p.6.4-4; inorganic HAPs, preferred) and Eqn 6.5-1, §5.1
    (p.6.5-2; organics, alternative); Example 6.4-3 prints 0.09 lb HF/hr, Example 6.5-1
    0.40 lb toluene/hr.

    >>> round(source_test_emissions(15.4, 20.0, 109020), 2), round(source_test_emissions(15.4, 92.0, 109020), 2)
    (0.09, 0.4)
    """
    return C_x * MW_x * V / (M * 1.0e6)


def annual_emissions(E_x: float, OH: float) -> float:
    """Annual emissions from an hourly rate [ton/yr].

    E_a = E_x × OH × 1 ton / 2,000 lb

    Parameters
    ----------
    E_x : hourly emissions of pollutant x [lb/hr]
    OH : operating hours [hr/yr]

    Notes
    -----
    EIIP, Eqn 6.4-4 (p.6.4-5) and Eqn 6.5-2 (p.6.5-3); Example 6.4-3 prints 0.08 ton HF/yr
    from 0.09 lb/hr, Example 6.5-1 0.35 ton toluene/yr from 0.40 lb/hr over 1,760 hr/yr.

    >>> round(annual_emissions(0.09, 1760), 2), round(annual_emissions(0.40, 1760), 2)
    (0.08, 0.35)
    """
    return E_x * OH / LB_PER_TON


def emission_factor_emissions(EF_x: float, AF: float) -> float:
    """Emissions from an emission factor and an activity rate [lb/hr].

    E_x = EF_x × AF

    Parameters
    ----------
    EF_x : emission factor for pollutant x [lb/unit] (e.g. lb/wafer)
    AF : activity factor [units/hr] (e.g. wafers/hr)

    Notes
    -----
    EIIP, Eqn 6.5-3, §5.2 (p.6.5-4; the example's text cites "Equation 6.5-4");
    Example 6.5-2 prints 1.8E-4 lb HF/hr.

    >>> f"{emission_factor_emissions(6.0e-6, 30):.2g}"
    '0.00018'
    """
    return EF_x * AF


def vapour_density(MW_x: float, M: float = M_STANDARD) -> float:
    """Density of the pure vapour at standard conditions [lb/ft³].

    d_x = MW_x / M

    Parameters
    ----------
    MW_x : molecular weight [lb/lb-mole]
    M : molar volume [ft³/lb-mole] (385.5)

    Notes
    -----
    Interpretation of d_x in EIIP Eqn 6.5-4, whose where-list prints no unit: Example 6.5-3's
    0.083 lb/ft³ for methanol is 32/385.5 (not the liquid density).

    >>> round(vapour_density(32), 3)
    0.083
    """
    return MW_x / M


def saturation_emissions(P_sat_x: float, P_t: float, V: float, d_x: float) -> float:
    """Upper limit of emissions, the exhaust assumed saturated with the vapour [lb/hr].

    E_x = (P_sat,x / P_t) × V × d_x

    Parameters
    ----------
    P_sat_x : saturation vapour pressure of pollutant x [atm]
    P_t : total pressure [atm]
    V : exhaust (stack gas) flow rate [dscf/hr]
    d_x : density of the pollutant's vapour [lb/ft³]

    Notes
    -----
    EIIP, Eqn 6.5-4, §5.3 (p.6.5-5; the example's text cites "Equation 6.5-5"), "extremely
    conservative"; Example 6.5-3 prints 64.7 lb methanol/hr.

    >>> round(saturation_emissions(0.13, 1, 6000, 0.083), 1)
    64.7
    """
    return (P_sat_x / P_t) * V * d_x


def diluted_emissions(E_sat: float, dilution_ratio: float) -> float:
    """Saturation-limit emissions divided by a dilution to saturation ratio [lb/hr].

    E_x = E_x,sat / dilution ratio

    Parameters
    ----------
    E_sat : saturation upper limit, Eqn 6.5-4 [lb/hr]
    dilution_ratio : air dilution to saturation ratio [-] (1: none; "as high as 800 to 1")

    Notes
    -----
    EIIP §3.1.4 and §5.3 (p.6.5-6: "a dilution to saturation ratio (based on testing) may be
    applied to this equation"); the division is this engine's reading, EIIP prints no formula.

    >>> round(diluted_emissions(64.74, 800), 4)
    0.0809
    """
    return E_sat / dilution_ratio


def mass_transfer_coefficient(U: float, MW_x: float) -> float:
    """Gas-phase mass transfer coefficient of an evaporating pollutant [ft/s].

    K = 0.00438 × U^0.78 × (18 / MW_x)^(1/3)

    Parameters
    ----------
    U : wind speed [miles/hr]
    MW_x : molecular weight [lb/lb-mole]

    Notes
    -----
    EIIP, Eqn 6.5-5 where-list (EPA 1987), p.6.5-6; Example 6.5-4 prints 0.00547 ft/s.

    >>> round(mass_transfer_coefficient(1.7, 32), 5)
    0.00547
    """
    return K_CONSTANT * U ** 0.78 * (MW_WATER / MW_x) ** (1.0 / 3.0)


def evaporation_rate(MW_x: float, K: float, A: float, P_vap_x: float, T: float,
                     R: float = R_PSIA_FT3) -> float:
    """Evaporation rate of a pollutant from an open liquid surface [lb/s].

    W_x = MW_x × K × A × P_vap,x / (R × T)

    Parameters
    ----------
    MW_x : molecular weight [lb/lb-mole]
    K : gas-phase mass transfer coefficient [ft/s]
    A : surface area [ft²]
    P_vap_x : vapour pressure [psia]
    T : temperature [°R]
    R : ideal gas constant [psia·ft³/(°R·lb-mole)] (10.73)

    Notes
    -----
    EIIP, Eqn 6.5-5, §5.3 (p.6.5-6; the example's text cites "Equation 6.5-6"); Example
    6.5-4 prints 5.84E-5 lb/s (5.845E-5 from the unrounded K, 5.846E-5 from the printed
    0.00547: the document truncates).

    >>> f"{evaporation_rate(32, mass_transfer_coefficient(1.7, 32), 1, 1.91, 533):.4g}"
    '5.845e-05'
    """
    return MW_x * K * A * P_vap_x / (R * T)


def kg_per_site_year(E_x: float, OH: float) -> float:
    """Annual release at one site from an hourly emission rate [kg/site-yr].

    kg/site-yr = E_x × OH × 0.45359237 kg/lb  (= E_a × 2,000 × 0.45359237)

    Parameters
    ----------
    E_x : hourly emissions [lb/hr]
    OH : operating hours [hr/yr]

    Notes
    -----
    EIIP Eqn 6.4-4 / 6.5-2 expressed in kilograms (NIST: 1 lb = 0.45359237 kg).

    >>> round(kg_per_site_year(0.0871, 1760), 1)
    69.5
    """
    return E_x * OH * KG_PER_LB


# ---------------------------------------------------------------------------------------
# Methods: their inputs and their hourly emission rate
# ---------------------------------------------------------------------------------------

STEP = "site_specific"
_STEPS = (Step(STEP, "Site-specific air emission (EIIP Vol. II Ch. 6)",
               "Facility data given by the submitter"),)


def _common_params() -> tuple[Param, ...]:
    return (
        Param("pollutant_class", "Pollutant class (for the method's standing)", "", None,
              "EIIP Table 6.3-1", STEP, kind=CHOICE, choices=POLLUTANT_CLASSES, required=True),
        Param("OH", "Operating hours of the emitting process", "hr/yr", None,
              "Facility data; EIIP Eqn 6.4-4, 6.5-2", STEP, lower=0, upper=HOURS_PER_YEAR_MAX,
              lower_open=True, required=True),
        Param("days_per_year", "Days of release", "days/yr", None,
              "Facility data (default: the replaced release's days)", STEP, lower=0, upper=366,
              lower_open=True),
        Param("Nsites", "Sites the data stand for", "sites", None,
              "Reviewer (default: the replaced release's sites, else 1)", STEP, lower=1, kind=INT),
    )


def _common_check(v: Mapping[str, Any]) -> dict[str, str]:
    if v["days_per_year"] is not None and v["OH"] > 24.0 * v["days_per_year"]:
        return {"OH": f"must be at most 24 hr a day × days_per_year ({24 * v['days_per_year']:g} hr/yr)"}
    return {}


def _out_not_above_in(v: Mapping[str, Any]) -> dict[str, str]:
    if v["Q_out"] > v["Q_in"]:
        return {"Q_out": f"must not exceed Q_in ({v['Q_in']:g} gal/hr): the material balance "
                         "would be negative"}
    return {}


def _saturation_check(v: Mapping[str, Any]) -> dict[str, str]:
    errors = {}
    if v["P_sat_x"] > v["P_t"]:
        errors["P_sat_x"] = f"must not exceed the total pressure P_t ({v['P_t']:g} atm)"
    if (v["d_x"] is None) == (v["MW_x"] is None):
        errors["d_x"] = "give either d_x (vapour density, lb/ft³) or MW_x (then d_x = MW_x / M)"
    return errors


def _param_set(*params: Param, checks: tuple = ()) -> ParamSet:
    return ParamSet(params=_common_params() + params, steps=_STEPS,
                    cross_checks=(_common_check,) + checks)


def _q_in_out() -> tuple[Param, Param]:
    return (
        Param("Q_in", "Material entering the process", "gal/hr", None, "Facility data",
              STEP, lower=0, required=True),
        Param("Q_out", "Material leaving as waste, recovered or in product", "gal/hr", None,
              "Facility data", STEP, lower=0, required=True),
    )


def _mw(required: bool = True) -> Param:
    return Param("MW_x", "Molecular weight of the pollutant", "lb/lb-mole", None,
                 "Chemical-specific", STEP, lower=0, lower_open=True, required=required)


def _flow() -> Param:
    return Param("V", "Stack gas volumetric flow rate", "dscf/hr", None,
                 "Facility data (flow meter, EPA Method 2)", STEP, lower=0, lower_open=True,
                 required=True)


def _molar_volume() -> Param:
    return Param("M", "Molar volume at 68 °F and 1 atm", "ft³/lb-mole", M_STANDARD,
                 "EIIP Eqn 6.4-3 where-list", STEP, lower=0, lower_open=True)


def _hourly_material_balance(v: Mapping[str, Any], t: Trace) -> float:
    return t.record("E_x", material_balance_emissions(v["Q_in"], v["Q_out"], v["C_x"]), "lb/hr",
                    "(Q_in − Q_out) × C_x", f"{DOC} Eqn 6.4-1",
                    Q_in=v["Q_in"], Q_out=v["Q_out"], C_x=v["C_x"])


def _hourly_speciated(v: Mapping[str, Any], t: Trace) -> float:
    return t.record(
        "E_x", speciated_material_balance_emissions(v["Q_in"], v["Q_out"], v["d"], v["wt_pct_x"]),
        "lb/hr", "(Q_in − Q_out) × d × wt%_x / 100", f"{DOC} Eqn 6.4-2",
        Q_in=v["Q_in"], Q_out=v["Q_out"], d=v["d"], wt_pct_x=v["wt_pct_x"])


def _hourly_source_test(v: Mapping[str, Any], t: Trace) -> float:
    eq = "6.4-3" if v["pollutant_class"] == INORGANIC else "6.5-1"
    return t.record("E_x", source_test_emissions(v["C_x"], v["MW_x"], v["V"], v["M"]), "lb/hr",
                    "C_x × MW_x × V / (M × 10^6)", f"{DOC} Eqn {eq}",
                    C_x=v["C_x"], MW_x=v["MW_x"], V=v["V"], M=v["M"])


def _hourly_emission_factor(v: Mapping[str, Any], t: Trace) -> float:
    return t.record("E_x", emission_factor_emissions(v["EF_x"], v["AF"]), "lb/hr", "EF_x × AF",
                    f"{DOC} Eqn 6.5-3", EF_x=v["EF_x"], AF=v["AF"])


def _hourly_saturation(v: Mapping[str, Any], t: Trace) -> float:
    d_x = v["d_x"]
    if d_x is None:
        d_x = t.record("d_x", vapour_density(v["MW_x"], v["M"]), "lb/ft³", "MW_x / M",
                       f"{DOC} Eqn 6.5-4 (d_x read as vapour density, Example 6.5-3)",
                       MW_x=v["MW_x"], M=v["M"])
    e_sat = t.record("E_x_sat", saturation_emissions(v["P_sat_x"], v["P_t"], v["V"], d_x), "lb/hr",
                     "(P_sat,x / P_t) × V × d_x", f"{DOC} Eqn 6.5-4",
                     P_sat_x=v["P_sat_x"], P_t=v["P_t"], V=v["V"], d_x=d_x)
    return t.record("E_x", diluted_emissions(e_sat, v["dilution_ratio"]), "lb/hr",
                    "E_x_sat / dilution_ratio", f"{DOC} §3.1.4, §5.3 (dilution to saturation)",
                    E_x_sat=e_sat, dilution_ratio=v["dilution_ratio"])


def _hourly_evaporation(v: Mapping[str, Any], t: Trace) -> float:
    k = t.record("K", mass_transfer_coefficient(v["U"], v["MW_x"]), "ft/s",
                 "0.00438 × U^0.78 × (18 / MW_x)^(1/3)", f"{DOC} Eqn 6.5-5", U=v["U"], MW_x=v["MW_x"])
    w = t.record("W_x", evaporation_rate(v["MW_x"], k, v["A"], v["P_vap_x"], v["T"], v["R"]), "lb/s",
                 "MW_x × K × A × P_vap,x / (R × T)", f"{DOC} Eqn 6.5-5",
                 MW_x=v["MW_x"], K=k, A=v["A"], P_vap_x=v["P_vap_x"], R=v["R"], T=v["T"])
    return t.record("E_x", w * 3600.0, "lb/hr", "W_x × 3600 s/hr", f"{DOC} Eqn 6.5-5", W_x=w)


@dataclass(frozen=True)
class SiteMethod:
    """One EIIP method: its inputs, its hourly emission rate, its standing and quality."""

    key: str
    title: str
    family: str
    label: str
    equations: Mapping[str, str]  # pollutant class (or "*") -> equation citation
    params: ParamSet
    hourly: Callable[[Mapping[str, Any], Trace], float]

    def equation(self, pollutant_class: str) -> str:
        return self.equations.get(pollutant_class, self.equations.get("*", ""))

    def as_dict(self) -> dict[str, Any]:
        """The method as a form generator or ``esd`` listing needs it."""
        return {
            "method": self.key,
            "title": self.title,
            "family": self.family,
            "label": self.label,
            "equation": dict(self.equations),
            "dars_composite": DARS_COMPOSITE[self.family],
            "inputs": [p.as_dict() for p in self.params.params],
        }


_METHOD_LIST = (
    SiteMethod(
        "material_balance", "Material balance (pollutant content)", MATERIAL_BALANCE, "output",
        {"*": f"{DOC} Eqn 6.4-1, 6.4-4"},
        _param_set(*_q_in_out(),
                   Param("C_x", "Content of the pollutant in the material", "lb/gal", None,
                         "Facility data (MSDS, EIIP Form E)", STEP, lower=0, required=True),
                   checks=(_out_not_above_in,)),
        _hourly_material_balance,
    ),
    SiteMethod(
        "material_balance_speciated", "Material balance (weight percent)", MATERIAL_BALANCE,
        "output", {"*": f"{DOC} Eqn 6.4-2, 6.4-4"},
        _param_set(*_q_in_out(),
                   Param("d", "Density of the material", "lb/gal", None, "Facility data (MSDS)",
                         STEP, lower=0, lower_open=True, required=True),
                   Param("wt_pct_x", "Weight percent of the pollutant in the material", "%",
                         None, "Facility data (MSDS)", STEP, lower=0, upper=100, required=True),
                   checks=(_out_not_above_in,)),
        _hourly_speciated,
    ),
    SiteMethod(
        "source_test", "Source test (stack concentration and flow)", SOURCE_TEST, "output",
        {INORGANIC: f"{DOC} Eqn 6.4-3, 6.4-4", "*": f"{DOC} Eqn 6.5-1, 6.5-2"},
        _param_set(Param("C_x", "Measured concentration of the pollutant", "ppmvd", None,
                         "Facility source test (e.g. EPA Method 18, OSW 9057, FTIR)", STEP,
                         lower=0, required=True),
                   _mw(), _flow(), _molar_volume()),
        _hourly_source_test,
    ),
    SiteMethod(
        "emission_factor", "Emission factor × activity", EMISSION_FACTOR, "output",
        {"*": f"{DOC} Eqn 6.5-3, 6.5-2"},
        _param_set(Param("EF_x", "Emission factor", "lb/unit", None,
                         "Facility data (site-specific testing preferred, Table 6.3-1 note a)",
                         STEP, lower=0, required=True),
                   Param("AF", "Activity factor", "units/hr", None, "Facility data", STEP,
                         lower=0, required=True)),
        _hourly_emission_factor,
    ),
    SiteMethod(
        "saturation", "Engineering calculation: saturation upper limit", ENGINEERING, "what-if",
        {"*": f"{DOC} Eqn 6.5-4, 6.5-2"},
        _param_set(Param("P_sat_x", "Saturation vapour pressure of the pollutant", "atm", None,
                         "Chemical-specific", STEP, lower=0, lower_open=True, required=True),
                   Param("P_t", "Total pressure", "atm", P_TOTAL_ATM, "EIIP Example 6.5-3",
                         STEP, lower=0, lower_open=True),
                   _flow(),
                   Param("d_x", "Density of the pollutant's vapour", "lb/ft³", None,
                         "Chemical-specific (or from MW_x)", STEP, lower=0, lower_open=True),
                   _mw(required=False), _molar_volume(),
                   Param("dilution_ratio", "Air dilution to saturation ratio (1: none)", "", 1.0,
                         "EIIP §3.1.4 (up to 800 to 1), §5.3 (from testing)", STEP, lower=1),
                   checks=(_saturation_check,)),
        _hourly_saturation,
    ),
    SiteMethod(
        "evaporation", "Engineering calculation: evaporation (mass transfer)", ENGINEERING,
        "what-if", {"*": f"{DOC} Eqn 6.5-5, 6.5-2"},
        _param_set(_mw(),
                   Param("U", "Wind speed over the surface", "miles/hr", None, "Facility data",
                         STEP, lower=0, lower_open=True, required=True),
                   Param("A", "Liquid surface area", "ft²", None, "Facility data", STEP,
                         lower=0, lower_open=True, required=True),
                   Param("P_vap_x", "Vapour pressure of the pollutant", "psia", None,
                         "Chemical-specific", STEP, lower=0, lower_open=True, required=True),
                   Param("T", "Temperature", "°R", None, "Facility data", STEP, lower=0,
                         lower_open=True, required=True),
                   Param("R", "Ideal gas constant", "psia·ft³/(°R·lb-mole)", R_PSIA_FT3,
                         "EIIP Eqn 6.5-5 where-list", STEP, lower=0, lower_open=True)),
        _hourly_evaporation,
    ),
)

#: The EIIP methods, by key.
METHODS: dict[str, SiteMethod] = {m.key: m for m in _METHOD_LIST}


def methods_as_dict() -> list[dict[str, Any]]:
    """Every method with its inputs, as ``esd`` or a form generator prints them."""
    return [m.as_dict() for m in _METHOD_LIST]


# ---------------------------------------------------------------------------------------
# Entries: validation and application to a scenario's result
# ---------------------------------------------------------------------------------------

_ENTRY_KEYS = ("method", "inputs", "replaces", "source", "activity")


@dataclass(frozen=True)
class SiteEntry:
    """One validated ``site_specific`` entry with its effective inputs."""

    index: int
    method: SiteMethod
    inputs: dict[str, Any]
    replaces: int | None
    source: str
    activity: str | None = None

    @property
    def prefix(self) -> str:
        return f"{SITE_SPECIFIC}[{self.index}]"

    def as_dict(self) -> dict[str, Any]:
        return {"method": self.method.key, "inputs": dict(self.inputs), "replaces": self.replaces,
                "source": self.source, "activity": self.activity}


def parse_entries(raw: Any) -> list[SiteEntry]:
    """Validate the ``site_specific`` list; raise one error per bad field, keyed by position.

    >>> parse_entries([{"method": "emission_factor", "source": "test",
    ...                 "inputs": {"pollutant_class": "inorganic", "EF_x": -1, "AF": 30,
    ...                            "OH": 1760, "days_per_year": 220}}])
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.EngineValidationError: site_specific[0].EF_x: must be at least 0 lb/unit
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise EngineValidationError({SITE_SPECIFIC: "must be a list of site-specific entries"})
    errors: dict[str, str] = {}
    entries: list[SiteEntry] = []
    for i, item in enumerate(raw):
        prefix = f"{SITE_SPECIFIC}[{i}]"
        if not isinstance(item, Mapping):
            errors[prefix] = ('must be an object {"method", "inputs", "replaces", "source"}')
            continue
        bad = False
        for key in item:
            if key not in _ENTRY_KEYS:
                errors[f"{prefix}.{key}"] = "unknown key (allowed: " + ", ".join(_ENTRY_KEYS) + ")"
                bad = True
        method = METHODS.get(item.get("method")) if isinstance(item.get("method"), str) else None
        if method is None:
            errors[f"{prefix}.method"] = "must be one of " + ", ".join(METHODS)
            bad = True
        source = item.get("source")
        if not isinstance(source, str) or not source.strip():
            errors[f"{prefix}.source"] = "is required: where the facility data come from"
            bad = True
        activity = item.get("activity")
        if activity is not None and not isinstance(activity, str):
            errors[f"{prefix}.activity"] = "must be text"
            bad = True
        replaces = item.get("replaces")
        if replaces is not None and (isinstance(replaces, bool) or not isinstance(replaces, int)
                                     or replaces < 1):
            errors[f"{prefix}.replaces"] = "must be a release number (a whole number, at least 1) or null"
            bad = True
        inputs = item.get("inputs", {})
        if not isinstance(inputs, Mapping):
            errors[f"{prefix}.inputs"] = "must be an object {SYMBOL: value}"
            continue
        if method is None:
            continue
        try:
            effective = method.params.validate(inputs)
        except EngineValidationError as exc:
            for symbol, message in exc.errors.items():
                if message == "unknown input symbol for this scenario":
                    message = f"unknown input symbol for method {method.key}"
                errors[f"{prefix}.{symbol}"] = message
            continue
        if replaces is None and effective["days_per_year"] is None:
            errors[f"{prefix}.days_per_year"] = "is required when the entry replaces no release"
            bad = True
        if not bad:
            entries.append(SiteEntry(i, method, effective, replaces, source.strip(), activity))
    taken: dict[int, int] = {}
    for e in entries:
        if e.replaces is not None:
            if e.replaces in taken:
                errors[f"{e.prefix}.replaces"] = (
                    f"release {e.replaces} is already replaced by {SITE_SPECIFIC}[{taken[e.replaces]}]")
            taken[e.replaces] = e.index
    if errors:
        raise EngineValidationError(errors)
    return entries


def _num(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def site_specific_release(entry: SiteEntry, number: int, days: float, sites: int,
                          replaced: Release | None, t: Trace) -> tuple[Release, list[str]]:
    """The air release an entry computes, with the warnings it raises."""
    v, method = entry.inputs, entry.method
    pollutant = v["pollutant_class"]
    where = standing(method.family, pollutant)
    warnings: list[str] = []
    e_x = method.hourly(v, t)
    tons = t.record("E_a", annual_emissions(e_x, v["OH"]), "ton/yr", "E_x × OH / 2,000",
                    f"{DOC} Eqn 6.4-4, 6.5-2", E_x=e_x, OH=v["OH"])
    per_year = t.record("kg_site_yr", kg_per_site_year(e_x, v["OH"]), "kg/site-yr",
                        "E_x × OH × 0.45359237", "lb to kg (NIST)", E_x=e_x, OH=v["OH"])
    per_day = t.record("kg_site_day", per_year / days, "kg/site-day", "kg_site_yr / days",
                       "days of release", kg_site_yr=per_year, days=days)
    class_name = dict(POLLUTANT_CLASSES)[pollutant]
    if where == "not listed":
        standing_text = (f"not listed for {class_name.lower()} in Table 6.3-1 (§3.2.1: a "
                         "material balance may not be appropriate where reactions are uncertain)")
        warnings.append(f"Release {number}: {standing_text}")
    else:
        standing_text = f"the {where} method for {class_name.lower()} (Table 6.3-1)"
    basis = (
        f"Site-specific: facility data ({entry.source}), EIIP Volume II Chapter 6 {method.family} "
        f"({method.equation(pollutant)}), {standing_text}. E_x = {_num(e_x)} lb/hr × "
        f"{_num(v['OH'])} hr/yr = {_num(tons)} ton/yr = {_num(per_year)} kg/site-yr over "
        f"{_num(days)} days. Data quality: DARS composite {DARS_COMPOSITE[method.family]}; "
        f"QA/QC: {QA_QC[method.family]}."
    )
    if method.key == "saturation":
        if v["dilution_ratio"] == 1:
            basis += " Upper limit: the exhaust is assumed saturated, 'extremely conservative' (§5.3)."
        else:
            basis += f" Saturation limit divided by a dilution ratio of {v['dilution_ratio']:g} (§3.1.4)."
    if replaced is not None:
        basis += f" Replaces the ESD's estimate of release {number}."
    activity = entry.activity or (replaced.source if replaced is not None else "Air emission")
    release = Release(
        number=number,
        source=f"{activity} (site-specific data)",
        model=f"{DOC} {method.title} ({where})",
        equation=method.equation(pollutant),
        media=[Medium("air", 1.0)],
        estimates=[release_estimate(method.label, per_day, days, sites, basis)],
        site_specific=True,
    )
    return release, warnings


def apply_site_specific(result: Result, entries: list[SiteEntry]) -> Result:
    """The scenario's result with the entries' releases put in place or appended; pure."""
    if not entries:
        return result
    by_number = {r.number: r for r in result.releases}
    errors = {
        f"{e.prefix}.replaces": (f"no release {e.replaces} in this scenario's result (releases: "
                                 + ", ".join(str(n) for n in by_number) + ")")
        for e in entries if e.replaces is not None and e.replaces not in by_number
    }
    if errors:
        raise EngineValidationError(errors)
    t = Trace()
    warnings = list(result.warnings)
    notes = list(result.notes)
    releases = list(result.releases)
    next_number = max(by_number, default=0) + 1
    for e in entries:
        replaced = by_number.get(e.replaces) if e.replaces is not None else None
        days = e.inputs["days_per_year"]
        sites = e.inputs["Nsites"]
        if replaced is not None:
            first = replaced.estimates[0] if replaced.estimates else None
            days = days if days is not None else (first.days_per_year if first else None)
            sites = sites if sites is not None else (first.sites if first else 1)
            number = replaced.number
        else:
            sites = sites if sites is not None else 1
            number = next_number
            next_number += 1
        if days is None:
            raise EngineValidationError(
                {f"{e.prefix}.days_per_year": f"is required: release {number} gives no days"})
        release, more = site_specific_release(e, number, days, sites, replaced, t)
        warnings.extend(more)
        if replaced is not None:
            releases[releases.index(replaced)] = release
            printed = "; ".join(f"{x.label} {x.kg_site_day:.3g} kg/site-day" for x in replaced.estimates)
            notes.append(
                f"Release {number} ({replaced.source}): the ESD's estimate ({printed}; "
                f"{replaced.equation}) is replaced by site-specific data ({e.source}, "
                f"{e.method.equation(e.inputs['pollutant_class'])})."
            )
        else:
            releases.append(release)
            notes.append(f"Release {number}: site-specific air emission added beside the ESD's "
                         f"estimates ({e.source}).")
    inputs = dict(result.inputs)
    inputs[SITE_SPECIFIC] = [e.as_dict() for e in entries]
    return dataclasses.replace(result, inputs=inputs, releases=releases, warnings=warnings,
                               notes=notes, trace=list(result.trace) + t.steps)


def compute_with_site_data(
    params: ParamSet, run: Callable[[dict[str, Any]], Result], inputs: Any
) -> Result:
    """Validate a scenario's inputs and its ``site_specific`` entries together, run, apply.

    Every error, the scenario's and the entries', is reported at once; nothing is computed
    until all inputs are valid. Without a ``site_specific`` key this is exactly
    ``run(params.validate(inputs))``.
    """
    raw = None
    if isinstance(inputs, Mapping) and SITE_SPECIFIC in inputs:
        raw = inputs[SITE_SPECIFIC]
        inputs = {k: value for k, value in inputs.items() if k != SITE_SPECIFIC}
    errors: dict[str, str] = {}
    effective: dict[str, Any] = {}
    entries: list[SiteEntry] = []
    try:
        effective = params.validate(inputs)
    except EngineValidationError as exc:
        errors.update(exc.errors)
    try:
        entries = parse_entries(raw)
    except EngineValidationError as exc:
        errors.update(exc.errors)
    if errors:
        raise EngineValidationError(errors)
    return apply_site_specific(run(effective), entries)
