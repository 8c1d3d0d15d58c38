"""The EIIP methods: their inputs, their hourly emission rate, their standing and quality.

Each method declares its inputs once, as a :class:`~assessments.esd.parameters.ParamSet`
(``METHODS[key].params``), which validates an entry's inputs as a scenario's own are
validated, and its hourly emission rate E_x [lb/hr] as the equations it evaluates
through :class:`~assessments.esd.calc.Calc`. Beside them: EIIP Table 6.3-1 (whether a
method is preferred for a pollutant class), the DARS composite scores (Tables 6.6-1 to
6.6-4) and the QA/QC point of each method (§6.1 to §6.4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..calc import Calc
from ..parameters import CHOICE, INT, PERCENT, CrossCheck, Param, ParamSet, Step
from ..text import given
from . import constants as c
from . import equations as eq
from .constants import (
    DAYS_PER_YEAR_MAX,
    DILUTION_RATIO_NONE,
    DOC,
    HOURS_PER_DAY,
    HOURS_PER_YEAR_MAX,
    M_STANDARD,
    P_TOTAL_ATM,
    R_PSIA_FT3,
)

# --- Pollutant classes and method families: EIIP Table 6.3-1 ---------------------------

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


# --- Inputs ------------------------------------------------------------------------------

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
              "Facility data", STEP, lower=0, upper=DAYS_PER_YEAR_MAX, lower_open=True,
              if_empty="the days of the release it replaces (required for a release added beside the others)"),
        Param("Nsites", "Sites the data stand for", "sites", None,
              "Reviewer", STEP, lower=1, upper=c.NSITES_MAX, kind=INT,
              if_empty="the sites of the release it replaces, else one site"),
    )


def _common_check(v: Mapping[str, Any]) -> dict[str, str]:
    if v["days_per_year"] is not None and v["OH"] > HOURS_PER_DAY * v["days_per_year"]:
        return {"OH": f"must be at most 24 hr a day × “Days of release” "
                      f"({given(HOURS_PER_DAY * v['days_per_year'])} hr/yr)"}
    return {}


def _out_not_above_in(v: Mapping[str, Any]) -> dict[str, str]:
    if v["Q_out"] > v["Q_in"]:
        return {"Q_out": f"must not exceed “Material entering the process” ({given(v['Q_in'])} gal/hr): "
                         "the material balance would be negative"}
    return {}


def _saturation_check(v: Mapping[str, Any]) -> dict[str, str]:
    errors = {}
    if v["P_sat_x"] > v["P_t"]:
        errors["P_sat_x"] = f"must not exceed “Total pressure” ({given(v['P_t'])} atm)"
    if (v["d_x"] is None) == (v["MW_x"] is None):
        errors["d_x"] = ("give either “Density of the pollutant's vapour” (lb/ft³) or “Molecular weight of "
                         "the pollutant” (the density is then the molecular weight ÷ the molar volume)")
    return errors


def _param_set(*params: Param, checks: tuple[CrossCheck, ...] = ()) -> ParamSet:
    return ParamSet(params=_common_params() + params, steps=_STEPS,
                    cross_checks=(_common_check,) + checks)


def _q_in_out() -> tuple[Param, Param]:
    return (
        Param("Q_in", "Material entering the process", "gal/hr", None, "Facility data",
              STEP, lower=0, upper=c.MATERIAL_FLOW_MAX_GAL_HR, required=True),
        Param("Q_out", "Material leaving as waste, recovered or in product", "gal/hr", None,
              "Facility data", STEP, lower=0, upper=c.MATERIAL_FLOW_MAX_GAL_HR, required=True),
    )


def _mw(required: bool = True) -> Param:
    return Param("MW_x", "Molecular weight of the pollutant", "lb/lb-mole", None,
                 "Chemical-specific", STEP, lower=0, lower_open=True, required=required,
                 if_empty="" if required else "give the vapour density instead")


def _flow() -> Param:
    return Param("V", "Stack gas volumetric flow rate", "dscf/hr", None,
                 "Facility data (flow meter, EPA Method 2)", STEP, lower=0, upper=c.STACK_FLOW_MAX_DSCF_HR,
                 lower_open=True, required=True)


def _molar_volume() -> Param:
    return Param("M", "Molar volume at 68 °F and 1 atm", "ft³/lb-mole", M_STANDARD,
                 "EIIP Eqn 6.4-3 where-list", STEP, lower=0, lower_open=True)


def _control_efficiency() -> Param:
    return Param("CE", "Control efficiency of the device (0: uncontrolled)", "%", 0.0,
                 "Facility data: the device's control efficiency for the pollutant (EIIP Forms C1 to C4; "
                 "§2.3.2 add-on control devices); 0 when the emission leaves uncontrolled", STEP,
                 lower=0, upper=100, share=PERCENT)


# --- Hourly emission rate E_x [lb/hr], each step evaluated and traced by one Calc call ---


def _hourly_material_balance(v: Mapping[str, Any], calc: Calc) -> float:
    return calc(eq.material_balance_emissions, Q_in=v["Q_in"], Q_out=v["Q_out"], C_x=v["C_x"])


def _hourly_speciated(v: Mapping[str, Any], calc: Calc) -> float:
    return calc(eq.speciated_material_balance_emissions,
                Q_in=v["Q_in"], Q_out=v["Q_out"], d=v["d"], wt_pct_x=v["wt_pct_x"])


def _hourly_source_test(v: Mapping[str, Any], calc: Calc) -> float:
    number = "6.4-3" if v["pollutant_class"] == INORGANIC else "6.5-1"
    return calc(eq.source_test_emissions, citation=f"{DOC} Eqn {number}",
                C_x=v["C_x"], MW_x=v["MW_x"], V=v["V"], M=v["M"])


def _hourly_emission_factor(v: Mapping[str, Any], calc: Calc) -> float:
    return calc(eq.emission_factor_emissions, EF_x=v["EF_x"], AF=v["AF"])


def _hourly_saturation(v: Mapping[str, Any], calc: Calc) -> float:
    d_x = v["d_x"]
    if d_x is None:
        d_x = calc(eq.vapour_density, MW_x=v["MW_x"], M=v["M"])
    e_sat = calc(eq.saturation_emissions, P_sat_x=v["P_sat_x"], P_t=v["P_t"], V=v["V"], d_x=d_x)
    return calc(eq.diluted_emissions, E_x_sat=e_sat, dilution_ratio=v["dilution_ratio"])


def _hourly_evaporation(v: Mapping[str, Any], calc: Calc) -> float:
    k = calc(eq.mass_transfer_coefficient, U=v["U"], MW_x=v["MW_x"])
    w = calc(eq.evaporation_rate,
             MW_x=v["MW_x"], K=k, A=v["A"], P_vap_x=v["P_vap_x"], R=v["R"], T=v["T"])
    return calc(eq.evaporation_hourly, W_x=w)


# --- The methods ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SiteMethod:
    """One EIIP method: its inputs, its hourly emission rate, its standing and quality."""

    key: str
    title: str
    family: str
    label: str
    equations: Mapping[str, str]  # pollutant class (or "*") -> equation citation
    params: ParamSet
    hourly: Callable[[Mapping[str, Any], Calc], float]  # effective inputs -> E_x [lb/hr]

    def equation(self, pollutant_class: str) -> str:
        return self.equations.get(pollutant_class, self.equations.get("*", ""))

    @property
    def controlled(self) -> bool:
        """True when the method estimates the emission before a control device, so the
        device's efficiency ``CE`` applies (a source test measures after it)."""
        return "CE" in self.params

    def emission(self, v: Mapping[str, Any], calc: Calc) -> float:
        """E_x [lb/hr] leaving the site: the hourly rate, after the control device if any."""
        e_x = self.hourly(v, calc)
        if self.controlled and v["CE"] > 0:
            e_x = calc(eq.controlled_emissions, E_x_uncontrolled=e_x, CE=v["CE"])
        return e_x


_METHOD_LIST = (
    SiteMethod(
        "material_balance", "Material balance (pollutant content)", MATERIAL_BALANCE, "output",
        {"*": f"{DOC} Eqn 6.4-1, 6.4-4"},
        _param_set(*_q_in_out(),
                   Param("C_x", "Content of the pollutant in the material", "lb/gal", None,
                         "Facility data (MSDS, EIIP Form E)", STEP, lower=0, required=True),
                   _control_efficiency(),
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
                         None, "Facility data (MSDS)", STEP, lower=0, upper=100, required=True,
                         share=PERCENT),
                   _control_efficiency(),
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
                         lower=0, upper=c.ACTIVITY_MAX_PER_HR, required=True),
                   _control_efficiency()),
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
                         "Chemical-specific", STEP, lower=0, lower_open=True,
                         if_empty="computed from the molecular weight of the pollutant"),
                   _mw(required=False), _molar_volume(),
                   Param("dilution_ratio", "Air dilution to saturation ratio (1: none)", "",
                         DILUTION_RATIO_NONE,
                         "EIIP §3.1.4 (up to 800 to 1), §5.3 (from testing)", STEP, lower=1),
                   _control_efficiency(),
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
                         lower=0, upper=c.SURFACE_AREA_MAX_FT2, lower_open=True, required=True),
                   Param("P_vap_x", "Vapour pressure of the pollutant", "psia", None,
                         "Chemical-specific", STEP, lower=0, lower_open=True, required=True),
                   Param("T", "Temperature", "°R", None, "Facility data", STEP, lower=0,
                         lower_open=True, required=True),
                   Param("R", "Ideal gas constant", "psia·ft³/(°R·lb-mole)", R_PSIA_FT3,
                         "EIIP Eqn 6.5-5 where-list", STEP, lower=0, lower_open=True),
                   _control_efficiency()),
        _hourly_evaporation,
    ),
)

#: The EIIP methods, by key.
METHODS: dict[str, SiteMethod] = {m.key: m for m in _METHOD_LIST}
