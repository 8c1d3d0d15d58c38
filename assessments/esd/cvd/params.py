"""The ``cvd-2015`` scenario's inputs: wizard steps, declarations, cross-checks, presets.

Declared once here; the wizard, ``esd defaults``, validation and the report's inputs table
all read these. Sources cite ESD 2015 (OECD ESD No. 35) as :mod:`.constants` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..models.volatility import NONVOLATILE, cvd_volatility_class
from ..parameters import CHOICE, EMPTY, FRACTION, INT, DocumentedRange, Param, ParamSet, Step, when
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
    FSA_MAX_FT2,
    FSA_MAX_SOURCE,
    M_CONTAINER_MAX_KG,
    M_CONTAINER_MAX_SOURCE,
    N_SITES_SUPPLIER,
    N_WORKERS_FAB,
    N_WORKERS_FAB_MAX,
    N_WORKERS_FAB_MAX_SOURCE,
    N_WORKERS_SUPPLIER,
    N_WORKERS_SUPPLIER_MAX,
    N_WORKERS_SUPPLIER_MAX_SOURCE,
    NSITES_MAX,
    NSITES_MAX_SOURCE,
    P_CONTAINER_BAR,
    Q_CHEM_SITE_YR,
    Q_CHEM_SITE_YR_LOW,
    Q_CHEM_SITE_YR_MAX,
    Q_CHEM_SITE_YR_MAX_SOURCE,
    Q_FF_FT3_MIN,
    Q_FF_MAX_FT3_MIN,
    Q_FF_MAX_SOURCE,
    RATE_BREATHING,
    RATE_BREATHING_MAX,
    RATE_BREATHING_MAX_SOURCE,
    RATE_FILL,
    RATE_FILL_MAX,
    RATE_FILL_MAX_SOURCE,
    RHO_MAX,
    RHO_MAX_SOURCE,
    T_CONTAINER_K,
    TIME_EXPOSURE,
    TIME_OPERATING_DAYS,
    TIME_OPERATING_DAYS_SUPPLIER,
    U_PROCESS_HIGH,
    U_PROCESS_LOW,
    V_CONTAINER,
    V_CONTAINER_MAX_L,
    V_CONTAINER_MAX_SOURCE,
    V_MOLAR,
    V_NF_CM_S,
    VP_K_TORR,
    VP_NEGLIGIBLE_TORR,
    X_CHEM,
    X_K,
)
from .table_4_2 import TABLE_4_2

YES_NO = (("no", "No"), ("yes", "Yes"))

STEPS = (
    Step("use", "Production volume, sites and daily use",
         "The precursor's production volume, what one fab uses of it a year, and the number of sites "
         "if it is known (ESD 2015 §3.2 to §3.6)."),
    Step("containers", "Containers and the precursor's density",
         "The transport container, the precursor's physical state and how its density is found "
         "(ESD 2015 §3.7, Appendix B)."),
    Step("release", "Release 1: deposition and abatement",
         "The unreacted precursor that passes the point-of-use abatement, over the range of "
         "utilisation (ESD 2015 §4.3, Table 4-2)."),
    Step("workers", "Workers at the fab", "The fab's workers who handle the precursor (ESD 2015 §5.2)."),
    Step(
        "supplier",
        "Supplier site (Appendices C and D, optional)",
        "Outside the ESD's scope: container residue, air release and inhalation exposure "
        "while the supplier cleans returned containers. The supplier's inputs apply only when "
        "the supplier site is assessed.",
    ),
)

STATE_DEFAULT = "state_default"
FILL_MASS = "fill_mass"
COMPRESSIBILITY = "compressibility"
RECALCULATED = "recalculated"
EQN_3_1 = "eqn_3_1"

#: When an input applies (the wizard shows, and the report lists, only those).
GAS_BY_COMPRESSIBILITY = when(physical_state="gas", density_method=COMPRESSIBILITY)
SUPPLIER = when(supplier_site="yes")
#: The supplier's air release and inhalation exposure: not for a precursor cleaned under
#: engineering controls (App. C, D). A nonvolatile precursor (below 0.001 torr) has none
#: either; that gate is a number, so its inputs still show for it.
SUPPLIER_VAPOUR = when(supplier_site="yes", toxic_reactive_pyrophoric="no")


def _table_4_2_groups() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Table 4-2's rows under its processes, each as technology, compound and efficiency."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for row in TABLE_4_2.values():
        groups.setdefault(row.process, []).append((row.key, row.option_text))
    return tuple((process, tuple(rows)) for process, rows in groups.items())


# --- Documented ranges (the sensitivity analysis's ends; none where ESD 2015 gives none) --
#
# None for: Fchem (supplied pure, > 99.99 %, or in an inert solvent: no figures), the
# density (the state's default or the packaging's data), EF ("often 99 percent or higher",
# ¶61; Table 4-2's rows are technology- and compound-specific efficiencies, chosen as a
# row by EF_table_4_2, not a range of one quantity), Nworkers_site ("up to 19"), and the
# supplier site's other inputs (one value each).

Q_CHEM_SITE_YR_RANGE = DocumentedRange(
    Q_CHEM_SITE_YR_LOW, Q_CHEM_SITE_YR,
    "ESD 2015 §3.5 ¶41 (Industry 2009) and Table A-4: 25 to 1,000 kg/site-yr, 1,000 for large-scale, "
    "conservative cases (the default)")
TIME_OPERATING_DAYS_RANGE = DocumentedRange(
    250, TIME_OPERATING_DAYS,
    "ESD 2015 §3.2 ¶37 (SIA 2003): 250 days/yr for small or niche operations, 250 (low end) to 360 (high end, "
    "the default) for large operations")
F_CONTAINER_DISP_RANGE = DocumentedRange(
    F_CONTAINER_DISP_SECTION_6, F_CONTAINER_DISP,
    "ESD 2015 §3.6 Eqn 3-2 and Table A-4: 0.1 (CEB 2002, the default); the §6.1.3 sample calculation enters "
    "0.006 (the Small Container Residual Model's high end)")
V_CONTAINER_RANGE = DocumentedRange(
    1.0, 250.0,
    "ESD 2015 §3.7: ampoules 1 to 30 L, bubblers and canisters under 1 to 50 L, TEOS containers 19 to 250 L, "
    "the X49S cylinder 49.8 L; the default 16 gal (60.6 L, Shah 2010)")
U_PROCESS_RANGE = DocumentedRange(
    U_PROCESS_LOW, U_PROCESS_HIGH,
    "ESD 2015 §4.3 ¶59-60 (Industry 2009) and Table A-4: utilisation 0.3 to 0.5, reported as a range")
CV_K_RANGE = DocumentedRange(
    0.01, 10.95,
    "ESD 2015 App. C Table C-3 (HCFC-22, EPA 1990): 0.01 to 10.95 ppm; the default is its 90th percentile, 4.8 ppm")
N_WORKERS_SUPPLIER_RANGE = DocumentedRange(
    1, N_WORKERS_SUPPLIER, "ESD 2015 App. D: up to 4 workers per supplier site (PMNs 2006-2010: 1 to 4)")

_P = Param
PARAMS = (
    # -- use ---------------------------------------------------------------------------
    _P("Qchem_yr", "Annual production volume of the precursor", "kg/yr", None,
       "The submission; ESD 2015 §3.4 ¶40", "use", lower=0, lower_open=True,
       required=True, from_case="production_volume_kg_yr"),
    _P("Qchem_site_yr", "Annual use of the precursor at one site", "kg/site-yr",
       Q_CHEM_SITE_YR, f"ESD 2015 §3.5 ¶41 (Industry 2009; range 25 to 1,000), Table A-4; {Q_CHEM_SITE_YR_MAX_SOURCE}",
       "use", lower=0, upper=Q_CHEM_SITE_YR_MAX, lower_open=True, documented_range=Q_CHEM_SITE_YR_RANGE),
    _P("TIME_operating_days", "Operating days of the fab", "days/yr", TIME_OPERATING_DAYS,
       "ESD 2015 §3.2 ¶37 (SIA 2003), Table A-4", "use", lower=0, upper=365,
       lower_open=True, documented_range=TIME_OPERATING_DAYS_RANGE),
    # Not taken from the case (issue 26): ¶39's Fchem is the precursor's purity as received
    # (most precursors are supplied pure, > 99.99 %; some dissolved in an inert solvent),
    # not the case's use concentration, the chemical's share of a use formulation such as
    # a photoresist (0.05 there would cut every CVD release twentyfold).
    _P("Fchem", "Weight fraction of the precursor as received", "kg/kg", F_CHEM,
       "ESD 2015 §3.3 ¶39 (Industry 2009-2010), Table A-4", "use", lower=0, upper=1,
       lower_open=True, share=FRACTION),
    _P("Fcontainer_disp", "Fraction left in the emptied container", "kg/kg",
       F_CONTAINER_DISP,
       "ESD 2015 §3.6 Eqn 3-2, Table A-4 (CEB 2002), App. C Eqn C-1a (the §6.1.3 sample "
       "calculation uses 0.006 instead)", "use", lower=0, upper=1, upper_open=True, share=FRACTION,
       documented_range=F_CONTAINER_DISP_RANGE),
    _P("Nsites", "Number of sites, when known", "sites", None,
       f"The submission; ESD 2015 §3.6 summary; {NSITES_MAX_SOURCE}", "use", lower=1, upper=NSITES_MAX, kind=INT,
       if_empty="computed by Eqn 3-2 and rounded up to whole sites"),
    _P("Qchem_site_day_basis", "Daily use after rounding the number of sites up", "", RECALCULATED,
       "ESD 2015 §3.6 footnote 9 and summary box (recalculated); §6.1 sample (Eqn 3-1 kept)",
       "use", kind=CHOICE,
       choices=((RECALCULATED, "Recalculated for the whole number of sites (§3.6)"),
                (EQN_3_1, "Eqn 3-1 kept, as the §6 sample does")),
       choice_help=((RECALCULATED, "(1 − Fcontainer_disp) × Qchem_yr ÷ (Nsites × operating days), the §3.6 "
                                   "summary box: the sites together use what Eqn 3-2 divided among them."),
                    (EQN_3_1, "The annual use at one site ÷ operating days, as the §6 sample calculation "
                              "keeps it; a warning says when the sites then use more than is available.")),
       help="The ESD recalculates the daily use for the whole number of sites (footnote 9, "
            "the §3.6 summary box); its §6 sample keeps the Eqn 3-1 value."),
    # -- containers --------------------------------------------------------------------
    _P("Vcontainer", "Volume of the transport container", "L", V_CONTAINER,
       f"ESD 2015 §3.7 (16 gal, Shah 2010), Table A-4; {V_CONTAINER_MAX_SOURCE}", "containers", lower=0,
       upper=V_CONTAINER_MAX_L, lower_open=True, documented_range=V_CONTAINER_RANGE),
    _P("physical_state", "Physical state of the precursor", "", "liquid",
       "ESD 2015 §3.3 ¶38 (gas or liquid; solids not assessed); §6 sample: liquid",
       "containers", kind=CHOICE, choices=(("liquid", "Liquid"), ("gas", "Gas")),
       from_case="physical_state"),
    _P("density_method", "How the density is found", "", STATE_DEFAULT,
       "ESD 2015 §3.7 footnote 11, Appendix B", "containers", kind=CHOICE,
       choices=((STATE_DEFAULT, "The ESD's default for the physical state (Method 1)"),
                (FILL_MASS, "Fill mass ÷ container volume (Eqn B-1)"),
                (COMPRESSIBILITY, "Compressibility factor, for a gas (Eqn B-2, B-3)")),
       choice_help=((STATE_DEFAULT, "Liquid 1 kg/L; gas 0.52 kg/L (trimethylsilane pressurised as a liquid); "
                                    "or the density you enter."),
                    (FILL_MASS, "The mass of precursor in a full container, which you enter, over the "
                                "container's volume."),
                    (COMPRESSIBILITY, "Eqn B-2 with the compressibility factor z you read from Figure B-1 "
                                      "at the reduced temperature and pressure; for a gaseous precursor."))),
    _P("RHOformulation", "Density of the precursor as received", "kg/L",
       None, f"Chemical-specific; ESD 2015 §3.7; {RHO_MAX_SOURCE}", "containers", lower=0, upper=RHO_MAX,
       lower_open=True,
       applies_when=when(density_method=STATE_DEFAULT),
       if_empty="the ESD's default for the physical state: liquid 1 kg/L, gas 0.52 kg/L"),
    _P("m_container", "Mass of precursor in a full container", "kg", None,
       f"Packaging information; ESD 2015 App. B Eqn B-1, footnote 18; {M_CONTAINER_MAX_SOURCE}", "containers",
       lower=0, upper=M_CONTAINER_MAX_KG, lower_open=True, required=True, applies_when=when(density_method=FILL_MASS)),
    _P("MW_chem", "Molecular weight of the precursor", "g/mol", None,
       "The submission; ESD 2015 Table A-4", "containers", lower=0,
       lower_open=True, from_case="molecular_weight",
       applies_when=when(density_method=COMPRESSIBILITY) | SUPPLIER_VAPOUR,
       if_empty="needed only for the compressibility factor and for a volatile precursor's supplier site"),
    _P("z", "Compressibility factor z read from Figure B-1", "", None,
       "Your reading of ESD 2015 Figure B-1 at the reduced temperature and pressure", "containers",
       lower=0, lower_open=True, required=True, applies_when=GAS_BY_COMPRESSIBILITY),
    _P("P", "Pressure in the container", "bar", P_CONTAINER_BAR,
       "ESD 2015 App. B footnote 20 (silanes up to 1,500 psi, Air Products 2008)",
       "containers", lower=0, lower_open=True, applies_when=GAS_BY_COMPRESSIBILITY),
    _P("T", "Temperature in the container", "K", T_CONTAINER_K,
       "ESD 2015 Table B-1 (20 °C)", "containers", lower=0, lower_open=True,
       applies_when=GAS_BY_COMPRESSIBILITY),
    _P("Tc", "Critical temperature of the precursor", "K", None, "Chemical-specific",
       "containers", lower=0, lower_open=True, applies_when=GAS_BY_COMPRESSIBILITY,
       if_empty="the reduced temperature is not shown",
       help="Shows the reduced temperature T ÷ Tc, to read z from Figure B-1."),
    _P("Pc", "Critical pressure of the precursor", "bar", None, "Chemical-specific",
       "containers", lower=0, lower_open=True, applies_when=GAS_BY_COMPRESSIBILITY,
       if_empty="the reduced pressure is not shown",
       help="Shows the reduced pressure P ÷ Pc, to read z from Figure B-1."),
    # -- release -----------------------------------------------------------------------
    _P("U_process_low", "Utilisation of the precursor, low end", "kg/kg", U_PROCESS_LOW,
       "ESD 2015 §4.3 ¶59-60 (Industry 2009), Table A-4", "release", lower=0, upper=1, share=FRACTION,
       documented_range=U_PROCESS_RANGE,
       help="The fraction of the precursor delivered to the tool that deposition consumes; the "
            "release is computed at both ends of the range."),
    _P("U_process_high", "Utilisation of the precursor, high end", "kg/kg", U_PROCESS_HIGH,
       "ESD 2015 §4.3 ¶59-60 (Industry 2009), Table A-4", "release", lower=0, upper=1, share=FRACTION,
       documented_range=U_PROCESS_RANGE),
    _P("EF", "Efficiency of the point-of-use (POU) abatement", "kg/kg",
       EF_POU, "ESD 2015 §4.3 ¶61 (SEMATECH 1997), Table A-4", "release", lower=0, upper=1,
       share=FRACTION, applies_when=when(EF_table_4_2=EMPTY),
       help="0 assesses the release without abatement (a what-if)."),
    _P("EF_table_4_2", "Efficiency from a row of Table 4-2", "",
       None, "ESD 2015 Table 4-2 (SEMATECH 1997)", "release", kind=CHOICE,
       choices=tuple((row.key, row.label) for row in TABLE_4_2.values()),
       choice_groups=_table_4_2_groups(),
       if_empty="the efficiency of the POU abatement entered above is used",
       help="Rows by deposition process, then abatement technology and compound; a printed "
            "“>99%” is taken as 99 % and a range as its lower end (the larger release)."),
    _P("Release1_media", "Media of Release 1", "", "air_or_water",
       "ESD 2015 Table 4-1, §4.3 ¶62, §6.2.1 (air or water); Table A-2", "release",
       kind=CHOICE,
       choices=(("air_or_water", "Air or water (§4.3, the ESD's default)"),
                ("air", "Air (e.g. a pyrophoric or flammable precursor treated in a thermal unit, ¶62)"),
                ("water", "Water"),
                ("table_a_2", "Air, wastewater treatment or incineration (Table A-2)"))),
    # -- workers -----------------------------------------------------------------------
    _P("Nworkers_site", "CVD workers per fab", "workers/site", N_WORKERS_FAB,
       f"ESD 2015 §5.2 ¶69, Table A-3; {N_WORKERS_FAB_MAX_SOURCE}", "workers", lower=0, upper=N_WORKERS_FAB_MAX,
       kind=INT),
    # -- supplier (Appendices C and D) -------------------------------------------------
    _P("supplier_site", "Assess the supplier site (Appendices C and D)", "", "no",
       "ESD 2015 Appendices C and D (outside the ESD's scope)", "supplier", kind=CHOICE,
       choices=YES_NO),
    _P("TIME_operating_days_supplier", "Operating days of the supplier site", "days/yr",
       TIME_OPERATING_DAYS_SUPPLIER, "ESD 2015 App. C (CEB 1991)", "supplier", lower=0,
       upper=365, lower_open=True, applies_when=SUPPLIER),
    _P("Nsites_supplier", "Supplier sites cleaning the containers", "sites",
       N_SITES_SUPPLIER, f"ESD 2015 App. C footnote 23; the submission; {NSITES_MAX_SOURCE}", "supplier", lower=1,
       upper=NSITES_MAX, kind=INT,
       applies_when=SUPPLIER),
    _P("VP_chem", "Vapour pressure of the precursor at room temperature", "torr", None,
       "The submission; ESD 2015 Table A-4", "supplier", lower=0, required=True,
       from_case="vapour_pressure_torr", applies_when=SUPPLIER,
       help="Decides, by the volatility limits of Appendices C and D, whether the air release and "
            "the inhalation exposure are assessed."),
    _P("toxic_reactive_pyrophoric", "Toxic, reactive or pyrophoric precursor", "",
       "no", "ESD 2015 App. C (air release) and App. D (inhalation): mitigated by "
       "engineering controls", "supplier", kind=CHOICE, choices=YES_NO,
       choice_help=(("yes", "Its containers are cleaned in contained spaces: the air release and the inhalation "
                            "exposure are mitigated by engineering controls and not quantified."),),
       applies_when=SUPPLIER),
    _P("X_chem", "Mole fraction of the precursor", "", X_CHEM,
       "ESD 2015 Table A-4 (EPA assumption)", "supplier", lower=0, upper=1, lower_open=True,
       share=FRACTION, applies_when=SUPPLIER_VAPOUR),
    _P("Cv_k", "Airborne concentration of the known chemical (HCFC-22)", "ppm", CV_K_PPM,
       "ESD 2015 Table C-3 (HCFC-22, 90th percentile; EPA 1990)", "supplier", lower=0,
       applies_when=SUPPLIER_VAPOUR, documented_range=CV_K_RANGE),
    _P("VP_k", "Vapour pressure of the known chemical (HCFC-22)", "torr", VP_K_TORR,
       "ESD 2015 Table C-3 note (HCFC-22)", "supplier", lower=0, lower_open=True,
       applies_when=SUPPLIER_VAPOUR),
    _P("X_k", "Mole fraction of the known chemical", "", X_K,
       "ESD 2015 Table A-4 (EPA assumption)", "supplier", lower=0, upper=1, lower_open=True,
       share=FRACTION, applies_when=SUPPLIER_VAPOUR),
    _P("FSA", "Free surface area of the near field", "ft²", FSA_FT2,
       f"ESD 2015 Eqn C-3 (EPA 2011); {FSA_MAX_SOURCE}", "supplier", lower=0, upper=FSA_MAX_FT2, lower_open=True,
       applies_when=SUPPLIER_VAPOUR),
    _P("v_NF", "Air speed in the near field", "cm/s", V_NF_CM_S, "ESD 2015 Eqn C-3 (EPA 2011)",
       "supplier", lower=0, lower_open=True, applies_when=SUPPLIER_VAPOUR),
    _P("Q_FF", "Ventilation rate of the far field", "ft³/min", Q_FF_FT3_MIN,
       f"ESD 2015 Eqn C-4 (CEB 1991); {Q_FF_MAX_SOURCE}", "supplier", lower=0, upper=Q_FF_MAX_FT3_MIN,
       lower_open=True, applies_when=SUPPLIER_VAPOUR),
    _P("RATE_fill", "Containers unloaded or filled an hour", "containers/hr", RATE_FILL,
       f"ESD 2015 Eqn C-5 (ChemSTEER 2005, small containers); {RATE_FILL_MAX_SOURCE}", "supplier", lower=0,
       upper=RATE_FILL_MAX, lower_open=True, applies_when=SUPPLIER),
    _P("V_molar", "Molar volume of a gas at 25 °C", "L/mol", V_MOLAR, "ESD 2015 Eqn D-1", "supplier",
       lower=0, lower_open=True, applies_when=SUPPLIER_VAPOUR),
    _P("RATE_breathing", "Inhalation rate of a worker", "m³/hr", RATE_BREATHING,
       f"ESD 2015 Eqn D-1 (CEB 1991); {RATE_BREATHING_MAX_SOURCE}", "supplier", lower=0, upper=RATE_BREATHING_MAX,
       lower_open=True, applies_when=SUPPLIER_VAPOUR),
    # Left empty, the exposure time is the container-handling time, as the App. D sample
    # computes its 0.016 hr/day (the C-5 activity time of one container a day at 60 an hour);
    # Eqn D-1's "Default: 8 hr/day" is the bound (package docstring, decision 8).
    _P("TIME_exposure", "Exposure time a day", "hr/day", None,
       "ESD 2015 App. D, Eqn D-1 (at most 8 hr/day); the container-handling time of ESD No. 9 "
       "(2010) Table B-2", "supplier", lower=0, upper=TIME_EXPOSURE, lower_open=True,
       applies_when=SUPPLIER_VAPOUR,
       if_empty="the time to handle the day's containers (containers cleaned a day ÷ containers "
                "handled an hour), at most 8 hr/day, as the Appendix D sample calculation"),
    _P("Nworkers_supplier", "Supplier workers cleaning containers", "workers/site",
       N_WORKERS_SUPPLIER, f"ESD 2015 App. D (PMNs 2006-2010: 1 to 4); {N_WORKERS_SUPPLIER_MAX_SOURCE}", "supplier",
       lower=0, upper=N_WORKERS_SUPPLIER_MAX, kind=INT, applies_when=SUPPLIER,
       documented_range=N_WORKERS_SUPPLIER_RANGE),
)


def _label(symbol: str) -> str:
    return f"“{next(p.label for p in PARAMS if p.symbol == symbol)}”"


# --- Cross-checks (run after every single input is valid); each reads only the inputs it
# names, so the wizard runs it at the step where they all are and shows it on the field.


def _utilisation_range(v: Mapping[str, Any]) -> dict[str, str]:
    if v["U_process_low"] > v["U_process_high"]:
        return {"U_process_low": (
            f"must not exceed {_label('U_process_high')} ({given(v['U_process_high'])}): the utilisation "
            "range runs from low to high (ESD 2015 §4.3)")}
    return {}


def _compressibility_for_a_gas(v: Mapping[str, Any]) -> dict[str, str]:
    if v["density_method"] == COMPRESSIBILITY and v["physical_state"] != "gas":
        return {"density_method": (
            f"the compressibility factor (Appendix B, Method 2) is for a gaseous precursor: set "
            f"{_label('physical_state')} to “Gas”, or find the density another way")}
    return {}


def _molecular_weight_for_compressibility(v: Mapping[str, Any]) -> dict[str, str]:
    if v["density_method"] == COMPRESSIBILITY and v["MW_chem"] is None:
        return {"MW_chem": "is required when the density is found by the compressibility factor (Eqn B-2)"}
    return {}


def _molecular_weight_for_supplier(v: Mapping[str, Any]) -> dict[str, str]:
    if (
        v["supplier_site"] == "yes"
        and v["toxic_reactive_pyrophoric"] == "no"
        and v["VP_chem"] is not None
        and cvd_volatility_class(v["VP_chem"]) != NONVOLATILE
        and v["MW_chem"] is None
    ):
        return {"MW_chem": (
            f"is required for the supplier site's air release and inhalation exposure when the "
            f"{_label('VP_chem')} is {given(VP_NEGLIGIBLE_TORR)} torr or more (Eqn C-4, D-1)")}
    return {}


PARAM_SET = ParamSet(params=PARAMS, steps=STEPS, cross_checks=(
    _utilisation_range, _compressibility_for_a_gas, _molecular_weight_for_compressibility,
    _molecular_weight_for_supplier,
))

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
    # day at 60 an hour, which the exposure time left empty computes (decision 8).
    Preset(
        "esd-2015-appendix-c-d",
        "ESD 2015 Appendix C and D samples (VP 2,000 torr, MW 100, one container a day)",
        {"supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100},
        f"{DOC} Appendix C and D sample calculations",
    ),
)
