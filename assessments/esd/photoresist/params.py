"""The photoresist scenarios' inputs: symbols, labels, units, defaults, bounds, sources.

Declared once here; the wizard, ``esd defaults``, validation and the report's inputs table
all read these. The symbols are INTERFACE.md's; ``VPchem``/``MWchem`` (volatility),
``cleaning_interval_days``, and the 2004 edition's ranges (``Fphoto_wafer_low/_high``,
``Nworkers_low/_high``) are additions.

Bounds: fractions are 0..1, open at an end where the equations divide by the value or by
one minus it; counts are whole numbers of at least 1; days 1..365; hours 0..24; hand
areas and skin loadings have generous physical ceilings that catch unit mistakes (mm² for
cm², g for mg). The size-like inputs (container volume, containers a day, applications
per hour, volume per application, known sites, lines, workers, incidents) have ceilings
from the documents' tables where they give them (the standard models' rail car, ESD 2010
Appendix B Tables B-1 and B-3) and generous physical ones, stated as such, where they do
not (:mod:`.constants`). The production volume only has to be positive: it is the
submission's own figure, and the mass balance compares the releases with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..models import dermal, residue
from ..parameters import (
    CHOICE,
    FRACTION,
    INT,
    CrossCheck,
    DocumentedRange,
    EngineValidationError,
    Param,
    ParamSet,
    Step,
    validate,
    when,
)
from ..registry import Preset
from ..text import given
from . import constants as c

# --- Wizard steps ----------------------------------------------------------------------

PRODUCTION = "production"
FACILITY = "facility"
CONTAINERS = "containers"
PROCESS = "process"
WORKERS = "workers"

_STEP_PRODUCTION = Step(
    PRODUCTION, "Production volume and concentration",
    "The chemical's production volume, its fraction in the photoresist and, if known, its volatility.",
)
_STEP_FACILITY = Step(
    FACILITY, "Facility: a Table 3-2 row, the submitter's numbers, or known sites",
    "Pick a row of Table 3-2 (large scale, high end is the default), or enter the submitter's "
    "figures for the daily photoresist use (Eqn 3-1), or give the number of sites if it is known.",
)
_STEP_CONTAINERS = Step(CONTAINERS, "Containers", "The photoresist containers and their residue.")
_STEP_WORKERS = Step(WORKERS, "Workers and exposure", "Workers per site and the dermal model inputs.")


def _process_step(title: str) -> Step:
    return Step(PROCESS, title, "Equipment residue, cleaning frequency and the fate of the applied photoresist.")


# --- Choices ---------------------------------------------------------------------------

DISPENSED = "dispensed"
CHEMSTEER = "chemsteer"
DAILY_USE_BASES = (
    (DISPENSED, "The ESD's rule: the chemical dispensed (container residue left out)"),
    (CHEMSTEER, "ChemSTEER's rule: the whole production volume, as its IRERs print it"),
)
DAILY_USE_HELP = (
    (DISPENSED, "Qchem_day = (1 − Fcontainer_disp) × Qchem_yr ÷ (Nsites × TIMEapply_days) (ESD 2010 Eqn 3-3 "
                "footnote): the residue left in the containers is not used at the sites."),
    (CHEMSTEER, "Qchem_day = Qchem_yr ÷ (Nsites × TIMEapply_days), container residue included (EPA 2018 update, "
                "Section 7 sample IRER): reproduces an IRER made with ChemSTEER."),
)
ONE_VALUE = "one"
BOTH_ENDS = "both"
WAFER_RANGES = (
    (ONE_VALUE, "One value"),
    (BOTH_ENDS, "Both ends of the 1 to 7 % range"),
)
WAFER_RANGE_HELP = (
    (ONE_VALUE, "The fraction adhering to the wafer entered above (0.07 by default, conservative for water "
                "releases)."),
    (BOTH_ENDS, "The low end entered below (0.01 by default: most of the chemical to incineration) and the "
                "fraction entered above as the high end (0.07: most to water), as the 2004 edition estimates them."),
)
PLASMA = "plasma"
AQUEOUS = "aqueous"
ORGANIC_SOLVENT = "organic_solvent"
UNKNOWN = "unknown"
STRIPPING_PROCESSES = (
    (PLASMA, "Plasma stripping/ashing: the chemical is destroyed"),
    (AQUEOUS, "Aqueous wet stripping: 100 % to water"),
    (ORGANIC_SOLVENT, "Organic solvent stripping: 25 % to water, 75 % to incineration"),
    (UNKNOWN, "Unknown: water or incineration"),
)

#: A liquid's vapour pressure at ambient temperature cannot exceed one atmosphere [torr].
VP_MAX_TORR = 760.0
#: Ceiling of the photoresist density [kg/L]: printed examples are 0.92 to 1.19 kg/L.
RHOPHOTO_MAX = 5.0
#: Ceiling of the liquid left on skin [mg/cm²]: twice the 2-hand immersion high end (10.3).
QLIQUID_SKIN_MAX = 20.0
#: Ceilings of the hand areas [cm²]: about twice EPA's 2013 means (535 and 1,070).
AREA_1HAND_MAX = 1_000.0
AREA_2HAND_MAX = 2_000.0


# --- Documented ranges (the sensitivity analysis's ends; none where the documents give none)
#
# Only the ranges and alternatives the documents print. With none: RHOphoto and Napp_ratio
# (one EPA assumption each), Ncont_site_day, Nexp_incident, Fphoto_develop and Fphoto_waste
# (one value), Noperators_line_shift (Spinillo's 2 a line-shift; SIA's 25 to 150 count a
# site's operators over all shifts), Nshifts_day, max_exposure_days (a cap), the 2004
# edition's container and equipment residue ("up to 0.6 %", 0.01: no other end).

_ROW_NAMES = {c.NICHE.key: "niche", c.LARGE_SCALE_LOW.key: "large scale, low end",
              c.LARGE_SCALE_HIGH.key: "large scale, high end"}
_NOT_COMBINED = "the rows are consistent sets: their high ends are not to be combined"


def _table_rows(symbol: str, table: str, note: str = "") -> DocumentedRange:
    """The span of one Eqn 3-1 input over the rows of Table 3-2 (2010) or Table 3-1 (2004)."""
    values = [(getattr(s, symbol), _ROW_NAMES[s.key]) for s in c.FACILITY_SCALES]
    listed = ", ".join(f"{given(v)} ({name})" for v, name in values)
    return DocumentedRange(min(v for v, _ in values), max(v for v, _ in values),
                           f"{table}: {listed}; {_NOT_COMBINED}{note}")


_TABLE_3_2 = f"{c.ESD_2010} Table 3-2 (SIA, 2003)"
_TABLE_3_1_2004 = f"{c.ESD_2004} Table 3-1, p. 11 (ref 26)"
_QAPPLY_TEXT = " (the text's 0.5 to 5 mL an application is wider)"
FCHEM_RANGE = DocumentedRange(0.2, c.FCHEM_DEFAULT, f"{c.ESD_2010} §3.4 and Table A-4: 0.4, the high end "
                              "(Courtney, 1994); 0.2 (SIA, 2003; UBA Germany, 2003)")
FCHEM_RANGE_2004 = DocumentedRange(0.2, c.FCHEM_DEFAULT, f"{c.ESD_2004} Eqn 3-2, p. 12, and Table B-2: 0.4, "
                                   "conservative (ref 5); 0.2 (refs 23, 24)")
FCONTAINER_DISP_RANGE = DocumentedRange(
    residue.SMALL_CONTAINER_CT, residue.SMALL_CONTAINER_HE,
    f"{c.ESD_2010} Appendix B Table B-3, {residue.SMALL_CONTAINER_MODEL} (bottles and small containers, "
    "CEB, 1992): central tendency 0.003, high end 0.006 (the default)")
FEQUIP_DISP_RANGE = DocumentedRange(
    residue.SINGLE_VESSEL_GRAVITY_CT, residue.SINGLE_VESSEL_CONSERVATIVE,
    f"{c.ESD_2010} Appendix B Table B-5, {residue.SINGLE_VESSEL_MODEL} (CEB, 1992): 0.0007 (gravity drain, "
    "central tendency), 0.002 (gravity drain, high end to bounding), 0.01 (pumping, conservative: the default)")
VCONT_RANGE = DocumentedRange(1.0, 19.0, f"{c.ESD_2010} §4.2: one-liter or one-gallon (3.8-liter) bottles and "
                              "one- to five-gallon (3.8 to 19-liter) NOW Pack bottles (CEB, 1994a, 2001b; SIA, 2003)")
CLEANINGS_RANGE = DocumentedRange(12, 52, f"{c.ESD_2010} §4.3 note and §2.4 (Spinillo, 2005): cleaning monthly "
                                  "(12 a year), every two weeks (26) or weekly (52); left empty, every "
                                  "application day, the conservative default")
_WAFER = (f"{c.ESD_2010} §4.4 and Table A-4: 1 to 7 % adheres (SIA, 2003; ISESH, 2002); 0.07 is conservative "
          "for water releases, 0.01 maximises incineration")
FPHOTO_WAFER_RANGE = DocumentedRange(c.FPHOTO_WAFER_LOW_2004, c.FPHOTO_WAFER_HIGH_2004, _WAFER)
FPHOTO_WAFER_RANGE_2018 = DocumentedRange(
    c.FPHOTO_WAFER_LOW_2004, c.FPHOTO_WAFER_HIGH_2004,
    f"{_WAFER}; {c.EPA_2018} §4.5 and Table 1-1: the Consortium's 5.5 % falls within the 1-7 % range")
FPHOTO_WAFER_RANGE_2004 = DocumentedRange(c.FPHOTO_WAFER_LOW_2004, c.FPHOTO_WAFER_HIGH_2004,
                                          c.FPHOTO_WAFER_SOURCE_2004)
NLINES_SITE_RANGE = DocumentedRange(2, c.NLINES_SITE_DEFAULT, f"{c.ESD_2010} §5.2.1: between two and eight "
                                    "spin-coating lines per site (SIA, 2006); 8, the high end, is the default")
NTECHS_SHIFT_RANGE = DocumentedRange(4, 12, f"{c.ESD_2010} §5.2.2: about four technicians per shift at a smaller "
                                     "site, 5 to 12 at a larger one (Spinillo, 2005); SIA's 10 to 30 per site "
                                     "(SIA, 2006) is 3 to 10 per shift")
QLIQUID_SKIN_RANGE = DocumentedRange(c.QLIQUID_SKIN_LOW_DEFAULT, c.QLIQUID_SKIN_HIGH_DEFAULT, c.QLIQUID_SKIN_SOURCE)
QLIQUID_SKIN_RANGE_2004 = DocumentedRange(c.QLIQUID_SKIN_LOW_DEFAULT, c.QLIQUID_SKIN_HIGH_DEFAULT,
                                          c.QLIQUID_SKIN_SOURCE_2004)
NWORKERS_RANGE_2004 = DocumentedRange(c.NWORKERS_LOW_2004, c.NWORKERS_HIGH_2004, c.NWORKERS_SOURCE_2004)


def hand_area_ranges(area_set: str) -> tuple[DocumentedRange, DocumentedRange] | None:
    """One and two hands' areas between the 2010 ESD's printed set and EPA's 2013 set, for
    the scenario that cites both (the 2018 update, :data:`.constants.HAND_AREAS_2018_REASON`);
    ``None`` for a scenario whose documents print one set."""
    if area_set != c.HAND_AREAS_2018:
        return None
    printed, current = dermal.HAND_AREA_SETS[c.HAND_AREAS_2010], dermal.HAND_AREA_SETS[c.HAND_AREAS_2018]
    source = (f"{c.ESD_2010} §5.3 to 5.7: {given(printed.one_hand)} and {given(printed.two_hands)} cm² "
              f"(CEB, 2000); {c.HAND_AREAS_2018_REASON}: {given(current.one_hand)} and {given(current.two_hands)} cm²")
    return (DocumentedRange(min(printed.one_hand, current.one_hand), max(printed.one_hand, current.one_hand), source),
            DocumentedRange(min(printed.two_hands, current.two_hands), max(printed.two_hands, current.two_hands),
                            source))


# --- Declarations shared by the three editions -----------------------------------------


def _production(fchem_source: str, fchem_range: DocumentedRange) -> list[Param]:
    return [
        Param("Qchem_yr", "Production volume of the chemical", "kg/yr", None,
              "The submission", PRODUCTION, lower=0, lower_open=True, required=True,
              from_case="production_volume_kg_yr"),
        Param("Fchem", "Mass fraction of the chemical in the photoresist", "kg/kg", c.FCHEM_DEFAULT,
              fchem_source, PRODUCTION, lower=0, upper=1, lower_open=True, from_case="use_concentration",
              share=FRACTION, documented_range=fchem_range),
        Param("VPchem", "Vapour pressure of the chemical", "torr", None,
              "The submission; at 0.001 torr or more the chemical is not the nonvolatile one the ESD "
              f"assumes ({c.NONVOLATILE_VP_SOURCE})", PRODUCTION, lower=0, upper=VP_MAX_TORR,
              if_empty="the chemical is taken as nonvolatile (below 0.001 torr), as the ESD assumes",
              from_case="vapour_pressure_torr"),
        Param("MWchem", "Molecular weight of the chemical", "g/mol", None,
              "The submission; the vapour models need it when the vapour pressure is 0.001 torr or more",
              PRODUCTION, lower=0, lower_open=True,
              if_empty="not needed unless the vapour pressure is 0.001 torr or more",
              from_case="molecular_weight"),
    ]


def _eqn_3_1(scale_source: str, rho_source: str, napp_source: str, table: str) -> list[Param]:
    s = c.DEFAULT_SCALE
    return [
        Param("Napply", "Applications per site-hour", "applications/site-hr", s.Napply,
              f"{scale_source}; {c.NAPPLY_MAX_SOURCE}", FACILITY, lower=0, upper=c.NAPPLY_MAX, lower_open=True,
              documented_range=_table_rows("Napply", table)),
        Param("TIMEapply_hours", "Hours of application per day", "h/day", s.TIMEapply_hours, scale_source,
              FACILITY, lower=0, upper=c.HOURS_PER_DAY, lower_open=True,
              documented_range=_table_rows("TIMEapply_hours", table)),
        Param("Qapply", "Photoresist dispensed per application", "mL/application", s.Qapply,
              f"{scale_source}; {c.QAPPLY_MAX_SOURCE}", FACILITY, lower=0, upper=c.QAPPLY_MAX_ML, lower_open=True,
              documented_range=_table_rows("Qapply", table, _QAPPLY_TEXT)),
        Param("RHOphoto", "Photoresist density", "kg/L", c.RHOPHOTO_DEFAULT, rho_source, FACILITY,
              lower=0, upper=RHOPHOTO_MAX, lower_open=True),
        Param("TIMEapply_days", "Days of application per year", "days/yr", s.TIMEapply_days, scale_source,
              FACILITY, lower=1, upper=c.DAYS_PER_YEAR, kind=INT,
              documented_range=_table_rows("TIMEapply_days", table)),
        Param("Napp_ratio", "Fraction of the applications that use a photoresist with the chemical", "-",
              c.NAPP_RATIO_DEFAULT, napp_source, FACILITY, lower=0, upper=1, lower_open=True, share=FRACTION,
              help="The ESD's Napp_chem ÷ Napp_photo."),
        Param("Nsites", "Number of sites, when known", "sites", None,
              f"The submission; {c.NSITES_MAX_SOURCE}", FACILITY, lower=1, upper=c.NSITES_MAX, kind=INT,
              if_empty="computed by Eqn 3-3 and rounded up to whole sites"),
    ]


def _dermal(area_set: str, q_source: str, nexp_source: str, max_days_source: str, *, two_hands: bool,
            q_range: DocumentedRange) -> list[Param]:
    areas = dermal.HAND_AREA_SETS[area_set]
    one_hand_range, two_hands_range = hand_area_ranges(area_set) or (None, None)
    params = [
        Param("Qliquid_skin_low", "Liquid photoresist left on skin, low end", "mg/cm²-incident",
              c.QLIQUID_SKIN_LOW_DEFAULT, q_source, WORKERS, lower=0, upper=QLIQUID_SKIN_MAX, lower_open=True,
              documented_range=q_range),
        Param("Qliquid_skin_high", "Liquid photoresist left on skin, high end", "mg/cm²-incident",
              c.QLIQUID_SKIN_HIGH_DEFAULT, q_source, WORKERS, lower=0, upper=QLIQUID_SKIN_MAX, lower_open=True,
              documented_range=q_range),
        Param("AREAsurface_1hand", "Skin area contacted, one hand", "cm²", areas.one_hand,
              areas.source, WORKERS, lower=0, upper=AREA_1HAND_MAX, lower_open=True,
              documented_range=one_hand_range),
    ]
    if two_hands:
        params.append(
            Param("AREAsurface_2hand", "Skin area contacted, two hands", "cm²", areas.two_hands,
                  areas.source, WORKERS, lower=0, upper=AREA_2HAND_MAX, lower_open=True,
                  documented_range=two_hands_range))
    params += [
        Param("Nexp_incident", "Exposure incidents per day", "incidents/day", c.NEXP_INCIDENT_DEFAULT,
              f"{nexp_source}; {c.NEXP_INCIDENT_MAX_SOURCE}", WORKERS, lower=1, upper=c.NEXP_INCIDENT_MAX,
              kind=INT),
        Param("max_exposure_days", "Most days a year one worker is exposed", "days/yr",
              c.MAX_EXPOSURE_DAYS_DEFAULT, max_days_source, WORKERS, lower=1, upper=c.DAYS_PER_YEAR, kind=INT),
    ]
    return params


# --- 2010 and 2018 ---------------------------------------------------------------------


def revised_params(area_set: str, *, stripping: bool) -> list[Param]:
    """The inputs of the 2010 ESD (and, with ``stripping``, of the 2018 update)."""
    params = _production(c.FCHEM_SOURCE, FCHEM_RANGE)
    params += _eqn_3_1(c.TABLE_3_2_SOURCE, c.RHOPHOTO_SOURCE, c.NAPP_RATIO_SOURCE, _TABLE_3_2)
    params.append(
        Param("daily_use_basis", "Daily use after rounding the number of sites up", "", DISPENSED,
              f"{c.ESD_2010} Eqn 3-3 footnote (the ESD's rule); {c.EPA_2018} Section 7 sample IRER (ChemSTEER's)",
              FACILITY, kind=CHOICE, choices=DAILY_USE_BASES, choice_help=DAILY_USE_HELP))
    params += [
        Param("Fcontainer_disp", "Fraction of the photoresist left in emptied containers", "kg/kg",
              c.FCONTAINER_DISP_DEFAULT, c.FCONTAINER_DISP_SOURCE, CONTAINERS, lower=0, upper=1, upper_open=True,
              share=FRACTION, documented_range=FCONTAINER_DISP_RANGE),
        Param("Vcont", "Volume of photoresist per container", "L/container", c.VCONT_DEFAULT_L,
              f"{c.VCONT_SOURCE}; {c.VCONT_MAX_SOURCE}", CONTAINERS, lower=0, upper=c.VCONT_MAX_L, lower_open=True,
              documented_range=VCONT_RANGE),
        Param("Ncont_site_day", "Containers emptied per site-day, when fewer containers than days",
              "containers/site-day", c.NCONT_SITE_DAY_DEFAULT, f"{c.NCONT_SITE_DAY_SOURCE}; {c.NCONT_SITE_DAY_MAX_SOURCE}",
              CONTAINERS, lower=1, upper=c.NCONT_SITE_DAY_MAX, kind=INT),
        Param("Fequip_disp", "Fraction of the chemical left in the equipment as residue", "kg/kg",
              c.FEQUIP_DISP_DEFAULT, c.FEQUIP_DISP_SOURCE, PROCESS, lower=0, upper=1, upper_open=True,
              share=FRACTION, documented_range=FEQUIP_DISP_RANGE),
        Param("cleanings_per_year", "Equipment cleanings per year", "cleanings/yr", None,
              c.CLEANING_SOURCE, PROCESS, lower=1, upper=c.DAYS_PER_YEAR, kind=INT,
              if_empty="the equipment is cleaned every application day, the ESD's conservative default",
              documented_range=CLEANINGS_RANGE),
        Param("cleaning_interval_days", "Days of residue collected per cleaning", "days", None,
              c.CLEANING_SOURCE, PROCESS, lower=0, upper=c.DAYS_PER_YEAR, lower_open=True,
              if_empty="the application days between cleanings (application days ÷ cleanings per year)",
              help="Give it only with the equipment cleanings per year."),
        Param("Fphoto_wafer", "Fraction of the applied chemical adhering to the wafer", "kg/kg",
              c.FPHOTO_WAFER_DEFAULT, c.FPHOTO_WAFER_SOURCE_2018 if stripping else c.FPHOTO_WAFER_SOURCE,
              PROCESS, lower=0, upper=1, share=FRACTION,
              documented_range=FPHOTO_WAFER_RANGE_2018 if stripping else FPHOTO_WAFER_RANGE),
        Param("Fphoto_wafer_range", "Fraction adhering to the wafer: one value or both ends of the range", "",
              ONE_VALUE, c.FPHOTO_WAFER_RANGE_SOURCE, PROCESS, kind=CHOICE, choices=WAFER_RANGES,
              choice_help=WAFER_RANGE_HELP),
        Param("Fphoto_wafer_low", "Fraction adhering to the wafer, low end of the range", "kg/kg",
              c.FPHOTO_WAFER_LOW_2004, c.FPHOTO_WAFER_RANGE_SOURCE, PROCESS, lower=0, upper=1, share=FRACTION,
              applies_when=when(Fphoto_wafer_range=BOTH_ENDS), documented_range=FPHOTO_WAFER_RANGE,
              help="The high end is the fraction adhering to the wafer entered above."),
        Param("Fphoto_develop", "Fraction of the adhered chemical removed in development", "kg/kg",
              c.FPHOTO_DEVELOP_DEFAULT, c.FPHOTO_DEVELOP_SOURCE, PROCESS, lower=0, upper=1, share=FRACTION),
    ]
    if stripping:
        params.append(
            Param("stripping_process", "Stripping process", "", UNKNOWN,
                  f"{c.EPA_2018} §4.7: plasma destroyed; aqueous 100 % water; organic solvent 25 % water, "
                  "75 % incineration; unknown: water or incineration", PROCESS, kind=CHOICE,
                  choices=STRIPPING_PROCESSES))
    params += [
        Param("Noperators_line_shift", "Operators per spin-coating line per shift", "workers/line-shift",
              c.NOPERATORS_LINE_SHIFT_DEFAULT, f"{c.NOPERATORS_LINE_SHIFT_SOURCE}; {c.NOPERATORS_LINE_SHIFT_MAX_SOURCE}",
              WORKERS, lower=1, upper=c.NOPERATORS_LINE_SHIFT_MAX, kind=INT),
        Param("Nlines_site", "Spin-coating lines per site", "lines/site", c.NLINES_SITE_DEFAULT,
              f"{c.NLINES_SITE_SOURCE}; {c.NLINES_SITE_MAX_SOURCE}", WORKERS, lower=1, upper=c.NLINES_SITE_MAX,
              kind=INT, documented_range=NLINES_SITE_RANGE),
        Param("Nshifts_day", "Working shifts per day", "shifts/day", c.NSHIFTS_DAY_DEFAULT, c.NSHIFTS_DAY_SOURCE,
              WORKERS, lower=1, upper=c.HOURS_PER_DAY, kind=INT),
        Param("Ntechs_shift", "Maintenance/waste-management technicians per shift", "workers/shift",
              c.NTECHS_SHIFT_DEFAULT, f"{c.NTECHS_SHIFT_SOURCE}; {c.NTECHS_SHIFT_MAX_SOURCE}", WORKERS, lower=1,
              upper=c.NTECHS_SHIFT_MAX, kind=INT, documented_range=NTECHS_SHIFT_RANGE),
        Param("Fphoto_waste", "Mass fraction of photoresist in the collected waste solvent", "mg/mg",
              c.FPHOTO_WASTE_DEFAULT, c.FPHOTO_WASTE_SOURCE, WORKERS, lower=0, upper=1, lower_open=True,
              share=FRACTION),
    ]
    params += _dermal(area_set, c.QLIQUID_SKIN_SOURCE, c.NEXP_INCIDENT_SOURCE, c.MAX_EXPOSURE_DAYS_SOURCE,
                      two_hands=True, q_range=QLIQUID_SKIN_RANGE)
    return params


def revised_steps(*, stripping: bool) -> tuple[Step, ...]:
    title = "Process fractions and stripping process" if stripping else "Process fractions and equipment cleaning"
    return (_STEP_PRODUCTION, _STEP_FACILITY, _STEP_CONTAINERS, _process_step(title), _STEP_WORKERS)


# --- 2004 ------------------------------------------------------------------------------


def params_2004() -> list[Param]:
    """The inputs of the 2004 edition."""
    params = _production(c.FCHEM_SOURCE_2004, FCHEM_RANGE_2004)
    params += _eqn_3_1(c.TABLE_3_1_2004_SOURCE, f"{c.ESD_2004} ¶39, p. 11 (density of water, 1 g/mL)",
                       c.NAPP_RATIO_SOURCE_2004, _TABLE_3_1_2004)
    params += [
        Param("Fcontainer_disp", "Fraction of the photoresist left in emptied containers", "kg/kg",
              c.FCONTAINER_DISP_DEFAULT, c.FCONTAINER_DISP_SOURCE_2004, CONTAINERS, lower=0, upper=1,
              upper_open=True, share=FRACTION),
        Param("Fequip_disp", "Fraction of the photoresist left in the equipment as residue", "kg/kg",
              c.FEQUIP_DISP_DEFAULT, c.FEQUIP_DISP_SOURCE_2004, PROCESS, lower=0, upper=1, upper_open=True,
              share=FRACTION),
        Param("Fphoto_wafer_low", "Fraction adhering to the wafer, low end of the range", "kg/kg",
              c.FPHOTO_WAFER_LOW_2004, c.FPHOTO_WAFER_SOURCE_2004, PROCESS, lower=0, upper=1, share=FRACTION,
              documented_range=FPHOTO_WAFER_RANGE_2004),
        Param("Fphoto_wafer_high", "Fraction adhering to the wafer, high end of the range", "kg/kg",
              c.FPHOTO_WAFER_HIGH_2004, c.FPHOTO_WAFER_SOURCE_2004, PROCESS, lower=0, upper=1, share=FRACTION,
              documented_range=FPHOTO_WAFER_RANGE_2004),
        Param("Fphoto_develop", "Fraction of the adhered photoresist removed in development", "kg/kg",
              c.FPHOTO_DEVELOP_DEFAULT, c.FPHOTO_DEVELOP_SOURCE_2004, PROCESS, lower=0, upper=1, share=FRACTION),
        Param("Nworkers_low", "Workers exposed per site, low end", "workers/site", c.NWORKERS_LOW_2004,
              f"{c.NWORKERS_SOURCE_2004}; {c.NWORKERS_MAX_SOURCE_2004}", WORKERS, lower=1,
              upper=c.NWORKERS_MAX_2004, kind=INT, documented_range=NWORKERS_RANGE_2004),
        Param("Nworkers_high", "Workers exposed per site, high end", "workers/site", c.NWORKERS_HIGH_2004,
              f"{c.NWORKERS_SOURCE_2004}; {c.NWORKERS_MAX_SOURCE_2004}", WORKERS, lower=1,
              upper=c.NWORKERS_MAX_2004, kind=INT, documented_range=NWORKERS_RANGE_2004),
    ]
    params += _dermal(c.HAND_AREAS_2004, c.QLIQUID_SKIN_SOURCE_2004, c.NEXP_INCIDENT_SOURCE_2004,
                      c.MAX_EXPOSURE_DAYS_SOURCE_2004, two_hands=False, q_range=QLIQUID_SKIN_RANGE_2004)
    return params


STEPS_2004 = (_STEP_PRODUCTION, _STEP_FACILITY, _STEP_CONTAINERS, _process_step("Process fractions"),
              _STEP_WORKERS)

_USE_2010 = "the 2010 revision and its 2018 update have it"
_WORKERS_2004 = "not used by the 2004 edition: it assumes 20 to 25 exposed workers per site (its low and high ends)"
_ONLY_2018 = "only in the 2010 ESD with EPA's 2018 update (its split of Release 5 by stripping process)"
#: INTERFACE.md's photoresist symbols that the 2004 method has no place for.
NOT_IN_2004 = {
    "Vcont": f"not used by the 2004 edition: it counts no containers (Eqn 3-4 applies the residue to the daily use); {_USE_2010}",
    "Ncont_site_day": f"not used by the 2004 edition: it counts no containers (Eqn 3-4 is daily); {_USE_2010}",
    "cleanings_per_year": f"not used by the 2004 edition: equipment is cleaned daily (Eqn 3-5); {_USE_2010}",
    "cleaning_interval_days": f"not used by the 2004 edition: equipment is cleaned daily (Eqn 3-5); {_USE_2010}",
    "daily_use_basis": f"not used by the 2004 edition: it does not recalculate the daily use after Eqn 3-3; {_USE_2010}",
    "Fphoto_wafer": "the 2004 edition carries the fraction adhering to the wafer as the range 0.01 to 0.07: give its "
                    "low and high ends (equal for a single value)",
    "Noperators_line_shift": f"{_WORKERS_2004}; {_USE_2010}",
    "Nlines_site": f"{_WORKERS_2004}; {_USE_2010}",
    "Nshifts_day": f"{_WORKERS_2004}; {_USE_2010}",
    "Ntechs_shift": f"{_WORKERS_2004}; {_USE_2010}",
    "AREAsurface_2hand": f"not used by the 2004 edition: its one dermal activity is one-handed (Eqn 3-9); {_USE_2010}",
    "Fphoto_waste": f"not used by the 2004 edition: it has no waste-solvent exposure; {_USE_2010}",
    "stripping_process": _ONLY_2018,
}
NOT_IN_2010 = {
    "stripping_process": _ONLY_2018,
    "Fphoto_wafer_high": "only in the 2004 edition; here the high end of the range is the fraction adhering to "
                         "the wafer (with both ends of the range chosen)",
    "Nworkers_low": "only in the 2004 edition; the 2010 ESD counts workers by Eqn 5-1 and 5-2",
    "Nworkers_high": "only in the 2004 edition; the 2010 ESD counts workers by Eqn 5-1 and 5-2",
}
NOT_IN_2018 = {k: v for k, v in NOT_IN_2010.items() if k != "stripping_process"}


# --- Cross-checks (run only when every single input is valid) --------------------------
#
# Each names the other input by its label, as the wizard shows it; the wizard runs a check
# at the step where all the inputs it reads are known, and shows its message on the field.

CrossErrors = dict[str, str]
Labels = Mapping[str, Param]


def _quoted(params: Labels, symbol: str) -> str:
    return f"“{params[symbol].label}”"


def _amount(value: float, units: str) -> str:
    return f"{given(value)} {units}".strip() if units not in ("-", "") else given(value)


def _low_not_above_high(params: Labels, low: str, high: str) -> CrossCheck:
    def check(inputs: Mapping[str, Any]) -> CrossErrors:
        if inputs[low] > inputs[high]:
            return {low: f"must not exceed {_quoted(params, high)} ({_amount(inputs[high], params[high].units)})"}
        return {}

    check.__name__ = f"check_{low}_not_above_{high}"
    return check


def _cleaning_within_application_days(params: Labels) -> CrossCheck:
    def check(inputs: Mapping[str, Any]) -> CrossErrors:
        n = inputs.get("cleanings_per_year")
        if n is not None and n > inputs["TIMEapply_days"]:
            return {"cleanings_per_year": f"must not exceed {_quoted(params, 'TIMEapply_days')} "
                                          f"({inputs['TIMEapply_days']}): the equipment is cleaned at most once an "
                                          "application day (ESD 2010 §4.3)"}
        return {}

    return check


def _interval_needs_cleanings(params: Labels) -> CrossCheck:
    def check(inputs: Mapping[str, Any]) -> CrossErrors:
        if inputs.get("cleaning_interval_days") is not None and inputs.get("cleanings_per_year") is None:
            return {"cleaning_interval_days": f"needs {_quoted(params, 'cleanings_per_year')} (with daily cleaning "
                                              "the interval is one day)"}
        return {}

    return check


def _mw_when_volatile(params: Labels) -> CrossCheck:
    def check(inputs: Mapping[str, Any]) -> CrossErrors:
        vp = inputs.get("VPchem")
        if vp is not None and vp >= c.NONVOLATILE_VP_TORR and inputs.get("MWchem") is None:
            return {"MWchem": f"is required when {_quoted(params, 'VPchem')} is {c.NONVOLATILE_VP_TORR:g} torr or "
                              "more (the vapour models use it)"}
        return {}

    return check


@dataclass(frozen=True)
class EditionParamSet(ParamSet):
    """A ParamSet that names, for a symbol another edition uses, why this one does not."""

    not_in_edition: Mapping[str, str] = field(default_factory=dict)

    def validate(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        if isinstance(inputs, Mapping):
            foreign = {str(s): self.not_in_edition[s] for s in inputs if s in self.not_in_edition}
            if foreign:
                rest = {k: v for k, v in inputs.items() if k not in foreign}
                try:
                    validate(self, rest)
                except EngineValidationError as exc:
                    foreign.update(exc.errors)
                raise EngineValidationError(foreign)
        return validate(self, inputs)


def _wafer_range(params: Labels) -> CrossCheck:
    def check(inputs: Mapping[str, Any]) -> CrossErrors:
        if inputs["Fphoto_wafer_range"] == BOTH_ENDS and inputs["Fphoto_wafer_low"] > inputs["Fphoto_wafer"]:
            return {"Fphoto_wafer_low": f"must not exceed {_quoted(params, 'Fphoto_wafer')} "
                                        f"({given(inputs['Fphoto_wafer'])}), the high end of the range"}
        return {}

    return check


def revised_param_set(area_set: str, *, stripping: bool) -> EditionParamSet:
    params = revised_params(area_set, stripping=stripping)
    by_symbol = {p.symbol: p for p in params}
    checks = (
        _wafer_range(by_symbol),
        _low_not_above_high(by_symbol, "Qliquid_skin_low", "Qliquid_skin_high"),
        _low_not_above_high(by_symbol, "AREAsurface_1hand", "AREAsurface_2hand"),
        _cleaning_within_application_days(by_symbol),
        _interval_needs_cleanings(by_symbol),
        _mw_when_volatile(by_symbol),
    )
    return EditionParamSet(
        params=tuple(params),
        steps=revised_steps(stripping=stripping),
        cross_checks=checks,
        not_in_edition=NOT_IN_2018 if stripping else NOT_IN_2010,
    )


def param_set_2004() -> EditionParamSet:
    params = params_2004()
    by_symbol = {p.symbol: p for p in params}
    checks = (
        _low_not_above_high(by_symbol, "Fphoto_wafer_low", "Fphoto_wafer_high"),
        _low_not_above_high(by_symbol, "Nworkers_low", "Nworkers_high"),
        _low_not_above_high(by_symbol, "Qliquid_skin_low", "Qliquid_skin_high"),
        _mw_when_volatile(by_symbol),
    )
    return EditionParamSet(params=tuple(params), steps=STEPS_2004, cross_checks=checks,
                           not_in_edition=NOT_IN_2004)


# --- Presets: Table 3-2 (2010) / Table 3-1 (2004); the Consortium's estimates (2018) ---

CONSORTIUM_TABLE_1_1 = (f"Semiconductor Onium PAG Consortium (2017), in {c.EPA_2018} Table 1-1, which keeps "
                        "the ESD's defaults")


def consortium_presets() -> tuple[Preset, ...]:
    """The Consortium's alternatives the EPA 2018 update reports and did not adopt (Table 1-1).

    The media symbols (``medium_2``, ``medium_3``) are the choices :mod:`..options` adds;
    their values are the alternatives declared in :mod:`.releases`.
    """
    adhesion = {"Fphoto_wafer": c.FPHOTO_WAFER_CONSORTIUM}
    split = {"Fphoto_develop": c.FPHOTO_DEVELOP_DEFAULT}
    fuel = {"medium_3": "fuel_blending"}
    equipment = {"medium_2": "incineration_landfill_50_50"}
    return (
        Preset("consortium-adhesion", "Consortium: 5.5 % adheres to the wafer (Releases 3 to 5)", adhesion,
               f"{CONSORTIUM_TABLE_1_1}: Release 3, 'an average of 5.5 percent' ({c.EPA_2018} §4.5)"),
        Preset("consortium-develop-strip", "Consortium: half removed in development, half in stripping", split,
               f"{CONSORTIUM_TABLE_1_1}: Releases 4 and 5, 50 % each (as the ESD's default, CSM 2002)"),
        Preset("consortium-fuel-blending", "Consortium: Release 3 to fuel blending", fuel,
               f"{CONSORTIUM_TABLE_1_1}: Release 3 'Incineration/Fuel Blending'"),
        Preset("consortium-equipment-split", "Consortium: Release 2 split 50 % incineration, 50 % landfill",
               equipment, f"{CONSORTIUM_TABLE_1_1}: Release 2 '50% to incineration, 50% to landfill'"),
        Preset("consortium-all", "Consortium: all of its estimates at once",
               {**adhesion, **split, **fuel, **equipment}, f"{CONSORTIUM_TABLE_1_1}"),
    )




def facility_presets(source: str) -> tuple[Preset, ...]:
    """One preset per Table 3-2 row: a consistent set of Eqn 3-1 inputs and days."""
    return tuple(
        Preset(s.key, s.label,
               {"Napply": s.Napply, "TIMEapply_hours": s.TIMEapply_hours, "Qapply": s.Qapply,
                "TIMEapply_days": s.TIMEapply_days},
               source)
        for s in c.FACILITY_SCALES
    )
