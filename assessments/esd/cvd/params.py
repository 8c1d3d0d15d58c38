"""The ``cvd-2015`` scenario's inputs: wizard steps, declarations, cross-checks, presets.

Declared once here; the wizard, ``esd defaults``, validation and the report's inputs table
all read these. Sources cite ESD 2015 (OECD ESD No. 35) as :mod:`.constants` does.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..models.volatility import NONVOLATILE, cvd_volatility_class
from ..parameters import CHOICE, INT, Param, ParamSet, Step
from ..registry import Preset
from ..text import given
from .constants import (
    CV_K_PPM,
    DOC,
    EF_POU,
    F_CHEM,
    F_CONTAINER_DISP,
    F_CONTAINER_DISP_SECTION_6,
    FSA_FT2,
    N_SITES_SUPPLIER,
    N_WORKERS_FAB,
    N_WORKERS_SUPPLIER,
    P_CONTAINER_BAR,
    Q_CHEM_SITE_YR,
    Q_FF_FT3_MIN,
    RATE_BREATHING,
    RATE_FILL,
    T_CONTAINER_K,
    TIME_EXPOSURE,
    TIME_OPERATING_DAYS,
    TIME_OPERATING_DAYS_SUPPLIER,
    U_PROCESS_HIGH,
    U_PROCESS_LOW,
    V_CONTAINER,
    V_MOLAR,
    V_NF_CM_S,
    VP_K_TORR,
    X_CHEM,
    X_K,
)
from .table_4_2 import TABLE_4_2

YES_NO = (("no", "No"), ("yes", "Yes"))

STEPS = (
    Step("use", "Production volume, sites and daily use", "ESD 2015 §3.2 to §3.6"),
    Step("containers", "Containers and the precursor's density", "ESD 2015 §3.7, Appendix B"),
    Step("release", "Release 1: deposition and abatement", "ESD 2015 §4.3, Table 4-2"),
    Step("workers", "Workers at the fab", "ESD 2015 §5.2"),
    Step(
        "supplier",
        "Supplier site (Appendices C and D, optional)",
        "Outside the ESD's scope: container residue, air release and inhalation exposure "
        "while the supplier cleans returned containers.",
    ),
)

STATE_DEFAULT = "state_default"
FILL_MASS = "fill_mass"
COMPRESSIBILITY = "compressibility"
RECALCULATED = "recalculated"
EQN_3_1 = "eqn_3_1"

_P = Param
PARAMS = (
    # -- use ---------------------------------------------------------------------------
    _P("Qchem_yr", "Annual production volume of the precursor", "kg/yr", None,
       "PMN (chemical-specific); ESD 2015 §3.4 ¶40", "use", lower=0, lower_open=True,
       required=True, from_case="production_volume_kg_yr"),
    _P("Qchem_site_yr", "Annual use of the precursor at one site", "kg/site-yr",
       Q_CHEM_SITE_YR, "ESD 2015 §3.5 ¶41 (Industry 2009; range 25 to 1,000), Table A-4",
       "use", lower=0, lower_open=True),
    _P("TIME_operating_days", "Operating days of the fab", "days/yr", TIME_OPERATING_DAYS,
       "ESD 2015 §3.2 ¶37 (SIA 2003), Table A-4", "use", lower=0, upper=365,
       lower_open=True),
    _P("Fchem", "Weight fraction of precursor as received", "kg/kg", F_CHEM,
       "ESD 2015 §3.3 ¶39 (Industry 2009-2010), Table A-4", "use", lower=0, upper=1,
       lower_open=True, from_case="use_concentration"),
    _P("Fcontainer_disp", "Fraction left in the emptied container", "kg/kg",
       F_CONTAINER_DISP,
       "ESD 2015 §3.6 Eqn 3-2, Table A-4 (CEB 2002), App. C Eqn C-1a (the §6.1.3 sample's "
       "0.006 is not the default)", "use", lower=0, upper=1, upper_open=True),
    _P("Nsites", "Number of sites, when known", "sites", None,
       "PMN; ESD 2015 §3.6 summary (otherwise computed by Eqn 3-2)", "use", lower=1,
       kind=INT),
    _P("Qchem_site_day_basis", "Daily use rate after the number of sites", "", RECALCULATED,
       "ESD 2015 §3.6 footnote 9 and summary box (recalculated); §6.1 sample (Eqn 3-1 kept)",
       "use", kind=CHOICE,
       choices=((RECALCULATED, "Recalculated for the whole number of sites (§3.6)"),
                (EQN_3_1, "Eqn 3-1 kept, as the §6 sample does")),
       help="The ESD recalculates the daily use for the whole number of sites (footnote 9, "
            "the §3.6 summary box); its §6 sample keeps the Eqn 3-1 value."),
    # -- containers --------------------------------------------------------------------
    _P("Vcontainer", "Volume of the transport container", "L", V_CONTAINER,
       "ESD 2015 §3.7 (16 gal, Shah 2010), Table A-4", "containers", lower=0,
       lower_open=True),
    _P("physical_state", "Physical state of the precursor", "", "liquid",
       "ESD 2015 §3.3 ¶38 (gas or liquid; solids not assessed); §6 sample: liquid",
       "containers", kind=CHOICE, choices=(("liquid", "Liquid"), ("gas", "Gas")),
       from_case="physical_state"),
    _P("density_method", "How the density is found", "", STATE_DEFAULT,
       "ESD 2015 §3.7 footnote 11, Appendix B", "containers", kind=CHOICE,
       choices=((STATE_DEFAULT, "ESD default by state: liquid 1, gas 0.52 kg/L (Method 1)"),
                (FILL_MASS, "Fill mass / container volume (Eqn B-1)"),
                (COMPRESSIBILITY, "Compressibility factor z (Eqn B-2, B-3)"))),
    _P("RHOformulation", "Density of the formulation (overrides the state default)", "kg/L",
       None, "Chemical-specific (reviewer); ESD 2015 §3.7", "containers", lower=0,
       lower_open=True),
    _P("m_container", "Mass of precursor in a full container (Eqn B-1)", "kg", None,
       "Packaging information; ESD 2015 App. B Eqn B-1, footnote 18", "containers",
       lower=0, lower_open=True),
    _P("MW_chem", "Molecular weight of the precursor", "g/mol", None,
       "Chemical-specific (PMN); ESD 2015 Table A-4", "containers", lower=0,
       lower_open=True, from_case="molecular_weight"),
    _P("z", "Compressibility factor read from Figure B-1", "", None,
       "Reviewer's reading of ESD 2015 Figure B-1 at (T_r, P_r)", "containers", lower=0,
       lower_open=True),
    _P("P", "Pressure in the container", "bar", P_CONTAINER_BAR,
       "ESD 2015 App. B footnote 20 (silanes up to 1,500 psi, Air Products 2008)",
       "containers", lower=0, lower_open=True),
    _P("T", "Temperature in the container", "K", T_CONTAINER_K,
       "ESD 2015 Table B-1 (20 °C)", "containers", lower=0, lower_open=True),
    _P("Tc", "Critical temperature (to show T_r)", "K", None, "Chemical-specific",
       "containers", lower=0, lower_open=True),
    _P("Pc", "Critical pressure (to show P_r)", "bar", None, "Chemical-specific",
       "containers", lower=0, lower_open=True),
    # -- release -----------------------------------------------------------------------
    _P("U_process_low", "Utilisation, low end of the range", "kg/kg", U_PROCESS_LOW,
       "ESD 2015 §4.3 ¶59-60 (Industry 2009), Table A-4", "release", lower=0, upper=1),
    _P("U_process_high", "Utilisation, high end of the range", "kg/kg", U_PROCESS_HIGH,
       "ESD 2015 §4.3 ¶59-60 (Industry 2009), Table A-4", "release", lower=0, upper=1),
    _P("EF", "Efficiency of the POU abatement (0: assess without abatement)", "kg/kg",
       EF_POU, "ESD 2015 §4.3 ¶61 (SEMATECH 1997), Table A-4", "release", lower=0, upper=1),
    _P("EF_table_4_2", "Efficiency from Table 4-2 (process; technology; compound)", "",
       None, "ESD 2015 Table 4-2 (SEMATECH 1997)", "release", kind=CHOICE,
       choices=tuple((row.key, row.label) for row in TABLE_4_2.values())),
    _P("Release1_media", "Media of Release 1", "", "air_or_water",
       "ESD 2015 Table 4-1, §4.3 ¶62, §6.2.1 (air or water); Table A-2", "release",
       kind=CHOICE,
       choices=(("air_or_water", "Air or water (§4.3, the ESD's default)"),
                ("air", "Air (e.g. pyrophoric/flammable, thermal unit, ¶62)"),
                ("water", "Water"),
                ("table_a_2", "Air, wastewater treatment or incineration (Table A-2)"))),
    # -- workers -----------------------------------------------------------------------
    _P("Nworkers_site", "CVD workers per fab", "workers/site", N_WORKERS_FAB,
       "ESD 2015 §5.2 ¶69, Table A-3", "workers", lower=0, kind=INT),
    # -- supplier (Appendices C and D) -------------------------------------------------
    _P("supplier_site", "Assess the supplier site (Appendices C and D)", "", "no",
       "ESD 2015 Appendices C and D (outside the ESD's scope)", "supplier", kind=CHOICE,
       choices=YES_NO),
    _P("TIME_operating_days_supplier", "Operating days of the supplier", "days/yr",
       TIME_OPERATING_DAYS_SUPPLIER, "ESD 2015 App. C (CEB 1991)", "supplier", lower=0,
       upper=365, lower_open=True),
    _P("Nsites_supplier", "Supplier sites cleaning the containers", "sites",
       N_SITES_SUPPLIER, "ESD 2015 App. C footnote 23; PMN", "supplier", lower=1, kind=INT),
    _P("VP_chem", "Vapour pressure of the precursor at room temperature", "torr", None,
       "Chemical-specific (PMN); ESD 2015 Table A-4", "supplier", lower=0,
       from_case="vapour_pressure_torr"),
    _P("toxic_reactive_pyrophoric", "Toxic, reactive or pyrophoric (cleaned contained)", "",
       "no", "ESD 2015 App. C (air release) and App. D (inhalation): mitigated by "
       "engineering controls", "supplier", kind=CHOICE, choices=YES_NO),
    _P("X_chem", "Mole fraction of the precursor", "", X_CHEM,
       "ESD 2015 Table A-4 (EPA assumption)", "supplier", lower=0, upper=1, lower_open=True),
    _P("Cv_k", "Airborne concentration of the known chemical", "ppm", CV_K_PPM,
       "ESD 2015 Table C-3 (HCFC-22, 90th percentile; EPA 1990)", "supplier", lower=0),
    _P("VP_k", "Vapour pressure of the known chemical", "torr", VP_K_TORR,
       "ESD 2015 Table C-3 note (HCFC-22)", "supplier", lower=0, lower_open=True),
    _P("X_k", "Mole fraction of the known chemical", "", X_K,
       "ESD 2015 Table A-4 (EPA assumption)", "supplier", lower=0, upper=1, lower_open=True),
    _P("FSA", "Free surface area of the near field", "ft²", FSA_FT2,
       "ESD 2015 Eqn C-3 (EPA 2011)", "supplier", lower=0, lower_open=True),
    _P("v_NF", "Near-field air speed", "cm/s", V_NF_CM_S, "ESD 2015 Eqn C-3 (EPA 2011)",
       "supplier", lower=0, lower_open=True),
    _P("Q_FF", "Far-field ventilation rate", "ft³/min", Q_FF_FT3_MIN,
       "ESD 2015 Eqn C-4 (CEB 1991)", "supplier", lower=0, lower_open=True),
    _P("RATE_fill", "Unload/fill rate", "containers/hr", RATE_FILL,
       "ESD 2015 Eqn C-5 (ChemSTEER 2005, small containers)", "supplier", lower=0,
       lower_open=True),
    _P("V_molar", "Molar volume", "L/mol", V_MOLAR, "ESD 2015 Eqn D-1 (25 °C)", "supplier",
       lower=0, lower_open=True),
    _P("RATE_breathing", "Inhalation rate", "m³/hr", RATE_BREATHING,
       "ESD 2015 Eqn D-1 (CEB 1991)", "supplier", lower=0, lower_open=True),
    _P("TIME_exposure", "Exposure duration (computed when left empty)", "hr/day", None,
       "ESD 2015 App. D: when left empty, the containers handled a day / RATE_fill, at most "
       "8 hr/day (Eqn D-1 where-list 'Default: 8 hr/day' as the bound; the sample's 0.016 hr/day "
       "is the Eqn C-5 activity time; ESD No. 9 (2010) Table B-2's container rule)", "supplier",
       lower=0, upper=TIME_EXPOSURE, lower_open=True,
       help="Leave empty for the container-handling time (containers cleaned a day / RATE_fill, "
            "at most 8 hr/day); enter hours to use them instead."),
    _P("Nworkers_supplier", "Supplier workers cleaning containers", "workers/site",
       N_WORKERS_SUPPLIER, "ESD 2015 App. D (PMNs 2006-2010: 1 to 4)", "supplier", lower=0,
       kind=INT),
)

_DENSITY_INPUTS = {"m_container": FILL_MASS, "z": COMPRESSIBILITY}


def _cross_check(v: Mapping[str, Any]) -> dict[str, str]:
    """Checks spanning several inputs (run after every single input is valid)."""
    errors: dict[str, str] = {}
    if v["U_process_low"] > v["U_process_high"]:
        errors["U_process_low"] = (
            f"must not exceed U_process_high ({given(v['U_process_high'])}): the utilisation "
            "range runs from low to high (ESD 2015 §4.3)"
        )
    method = v["density_method"]
    if v["RHOformulation"] is not None and method != STATE_DEFAULT:
        errors["RHOformulation"] = (
            f"give either a density or density_method {method!r}, not both"
        )
    for symbol, needs in _DENSITY_INPUTS.items():
        if v[symbol] is not None and method != needs:
            errors[symbol] = f"is used only with density_method {needs!r}"
    if method == FILL_MASS and v["m_container"] is None:
        errors["m_container"] = "is required with density_method 'fill_mass' (Eqn B-1)"
    if method == COMPRESSIBILITY:
        if v["physical_state"] != "gas":
            errors["density_method"] = (
                "the compressibility method (Appendix B, Method 2) is for gaseous precursors"
            )
        if v["z"] is None:
            errors["z"] = "is required with density_method 'compressibility' (Eqn B-2)"
        if v["MW_chem"] is None:
            errors["MW_chem"] = "is required with density_method 'compressibility' (Eqn B-2)"
    if v["EF_table_4_2"] is not None and v["EF"] != EF_POU:
        errors["EF"] = "give either EF or EF_table_4_2 (a Table 4-2 efficiency), not both"
    if v["supplier_site"] == "yes":
        if v["VP_chem"] is None:
            errors["VP_chem"] = (
                "is required to assess the supplier site (the volatility gates of "
                "Appendices C and D)"
            )
        elif (
            cvd_volatility_class(v["VP_chem"]) != NONVOLATILE
            and v["toxic_reactive_pyrophoric"] == "no"
            and v["MW_chem"] is None
        ):
            errors["MW_chem"] = "is required for the supplier's air release and inhalation (Eqn C-4, D-1)"
    return errors


PARAM_SET = ParamSet(params=PARAMS, steps=STEPS, cross_checks=(_cross_check,))

PRESETS = (
    Preset(
        "esd-2015-section-6",
        "ESD 2015 §6 sample calculation (liquid, 10 sites, Fcontainer_disp 0.006)",
        {"Qchem_yr": 10000, "physical_state": "liquid", "Fchem": 1.0,
         "Fcontainer_disp": F_CONTAINER_DISP_SECTION_6, "Qchem_site_day_basis": EQN_3_1},
        f"{DOC} §6, ¶76 and §6.1.3",
    ),
    Preset(
        "esd-2015-section-6-gas",
        "ESD 2015 §6.1.4.2 gas sample (z 0.15, MW 32, Tc 405 K, Pc 112.8 bar)",
        {"Qchem_yr": 10000, "physical_state": "gas", "Fchem": 1.0,
         "Fcontainer_disp": F_CONTAINER_DISP_SECTION_6, "Qchem_site_day_basis": EQN_3_1,
         "density_method": COMPRESSIBILITY, "z": 0.15, "MW_chem": 32, "Tc": 405.0,
         "Pc": 112.8},
        f"{DOC} §6.1.4.2, ¶83-85",
    ),
    # The App. D sample's 0.016 hr/day is the container-handling time of one container a
    # day at 60 an hour, which TIME_exposure left empty computes (decision 8).
    Preset(
        "esd-2015-appendix-c-d",
        "ESD 2015 Appendix C and D samples (VP 2,000 torr, MW 100, one container a day)",
        {"supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100},
        f"{DOC} Appendix C and D sample calculations",
    ),
)
