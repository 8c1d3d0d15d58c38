"""Named, sourced defaults of the three photoresist documents.

Every default an input takes, and every fixed number an equation uses, is a constant
here with the place it was printed. The standard-model values (container and equipment
residue fractions, dermal hand areas and skin loadings) are imported from
:mod:`assessments.esd.models`, which cites them to the 2010 ESD's Appendix B.

Documents, and the short names the citations use:

``ESD 2010``
    OECD ESD No. 9, *Emission Scenario Document on Photoresist Use in Semiconductor
    Manufacturing*, ENV/JM/MONO(2004)14/REV1, revised 2010 (seed ``000_d29d57f7318cbf60``).
    The extracted text has no page numbers (they fell out with the page furniture), so
    citations give the section, table and equation numbers.
``EPA 2018 update``
    US EPA, *Updates to the 2010 ESD on Photoresist Use in Semiconductor Manufacturing*
    (2018), with the Semiconductor Onium PAG Consortium data (2017); Section 4 numbered
    to match the 2010 ESD, Section 6 worked example, Section 7 sample IRER
    (seed ``002_cb894bf81e617eac``).
``ESD 2004``
    OECD, *Emission Scenario Document on Photoresist Use in Semiconductor Manufacturing*,
    ENV/JM/MONO(2004)14 (seed ``003_f5cab2c3bf65f497``); pages as printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import dermal, residue, volatility

ESD_2010 = "ESD 2010"
EPA_2018 = "EPA 2018 update"
ESD_2004 = "ESD 2004"

ESD_2010_TITLE = (
    "OECD ESD No. 9, Photoresist Use in Semiconductor Manufacturing, "
    "ENV/JM/MONO(2004)14/REV1 (2010 revision)"
)
EPA_2018_TITLE = (
    "US EPA (2018), Updates to the 2010 ESD on Photoresist Use in Semiconductor "
    "Manufacturing (Semiconductor Onium PAG Consortium data, 2017)"
)
ESD_2004_TITLE = (
    "OECD ESD on Photoresist Use in Semiconductor Manufacturing, ENV/JM/MONO(2004)14 "
    "(2004 edition)"
)


# --- General facility estimates: Table 3-2 (2010) / Table 3-1 (2004) ------------------


@dataclass(frozen=True)
class FacilityScale:
    """One row of ESD 2010 Table 3-2: a consistent set of Eqn 3-1 inputs.

    ``Qphoto_day`` is the printed result of Eqn 3-1 for the row (a check, not an input).
    """

    key: str
    label: str
    Napply: float
    TIMEapply_hours: float
    Qapply: float
    TIMEapply_days: int
    Qphoto_day: float


NICHE = FacilityScale("niche", "Niche", 100, 20, 5, 250, 10)
LARGE_SCALE_LOW = FacilityScale("large-low", "Large scale, low end", 500, 22, 3, 300, 33)
LARGE_SCALE_HIGH = FacilityScale("large-high", "Large scale, high end (default)", 1_000, 24, 1.5, 360, 36)
FACILITY_SCALES = (NICHE, LARGE_SCALE_LOW, LARGE_SCALE_HIGH)
TABLE_3_2_SOURCE = (
    f"{ESD_2010} Table 3-2 (SIA, 2003): niche 100 applications/site-hr, 20 h/day, 5 mL, "
    "250 days/yr; large scale low end 500, 22, 3, 300; large scale high end 1,000, 24, 1.5, "
    "360 (the defaults, Table A-4). §3.2: do not combine the high ends of different rows."
)
TABLE_3_1_2004_SOURCE = (
    f"{ESD_2004} Table 3-1, p. 11 (ref 26): the same three rows as ESD 2010 Table 3-2; the "
    "high-end row dispenses 1.5 mL an application (1,000 × 24 × 1.5 / 1,000 = 36 kg/site-day, "
    "the conservative average of ¶38). Table B-2 prints 350 days/yr, against 360 in Table 3-1, "
    "¶49-57 and the worked example (p. 18): 360 is used."
)
# Table 3-1's high-end volume reads "15" in the text the engine was built from; the row's own
# product (36 kg/site-day, ¶38) confirms 1.5 mL.

#: Default scale: "the conservative average photoresist use rate of 36 kg/site-day"
#: (ESD 2004 ¶38) / the Table A-4 defaults (ESD 2010).
DEFAULT_SCALE = LARGE_SCALE_HIGH

#: mL per litre in Eqn 3-1 (printed "1,000 mL/L").
ML_PER_L = 1_000.0

#: Photoresist density [kg/L]: "The density of water (1 kg/L) may be used as a default"
RHOPHOTO_DEFAULT = 1.0
RHOPHOTO_SOURCE = f"{ESD_2010} §3.2 and Table A-4 (EPA assumption: the density of water)"

#: Mass fraction of the chemical in the photoresist: 0.4 (high end) if unknown.
FCHEM_DEFAULT = 0.4
FCHEM_SOURCE = (
    f"{ESD_2010} §3.4 and Table A-4: 0.4 (high end; Courtney, 1994); alternative 0.2 "
    "(SIA, 2003; UBA Germany, 2003)"
)
FCHEM_SOURCE_2004 = f"{ESD_2004} Eqn 3-2, p. 12, and Table B-2: 0.4 (conservative; ref 5); 0.2 (refs 23, 24)"

#: Napp_chem / Napp_photo: "a correction factor ... of 1 may be assumed".
NAPP_RATIO_DEFAULT = 1.0
NAPP_RATIO_SOURCE = f"{ESD_2010} §3.4 and Table A-4 (EPA assumption)"
NAPP_RATIO_SOURCE_2004 = f"{ESD_2004} ¶42, p. 11-12 (conservative default 1)"

#: Days a calendar year holds (upper bound of every days-per-year input).
DAYS_PER_YEAR = 365
#: Hours a day holds (upper bound of TIMEapply_hours).
HOURS_PER_DAY = 24

#: "If Nsites is known and TIMEapply_days is unknown, EPA recommends ... 360 days per
#: year" (ESD 2010 §3.6 box). The same number as the Table 3-2 default.
KNOWN_SITES_DAYS = 360

# --- Number of US fabs: the ceiling on Nsites ------------------------------------------

#: US semiconductor facilities with 50 or more employees in 2004 (CBP 2004).
US_FABS_50_PLUS_2010 = 268
#: US semiconductor facilities (NAICS 334413), all sizes, 2004 (CBP 2004).
US_FABS_ALL_2010 = 955
US_FABS_SOURCE_2010 = f"{ESD_2010}, Section 1.4 and Table 1-1 (USCB County Business Patterns, 2004)"
#: The 2004 edition's counts (CBP 2001): 389 establishments with 50 or more employees.
US_FABS_50_PLUS_2004 = 389
US_FABS_ALL_2004 = 1_177
US_FABS_SOURCE_2004 = f"{ESD_2004}, Section 1 ¶8 and Table 1-1 (USCB County Business Patterns, 2001)"

# --- Containers ------------------------------------------------------------------------

#: Litres in the default container: "1-gallon bottle ... 3.8 L photoresist/container".
VCONT_DEFAULT_L = 3.8
VCONT_SOURCE = f"{ESD_2010} §3.6 footnote and Table A-4: 3.8 L (1-gallon bottle; SIA, 2006)"

#: The 2004 edition's bottles: "1-gallon (4-liter) bottles and 2.5-gallon (10-liter) NOW
#: Pack bottles" (¶48); it counts no containers, so the size only picks the residue model.
VCONT_2004_L = 4.0

#: Containers emptied per site-day when fewer containers than days (Eqn 4-1a).
NCONT_SITE_DAY_DEFAULT = 1
NCONT_SITE_DAY_SOURCE = (
    f"{ESD_2010} Eqn 4-1a and Table A-4: 1 container/site-day (EPA assumption; used only when a "
    "site empties fewer containers a year than it has application days)"
)

# --- Ceilings of the size-like inputs (issue 26) ---------------------------------------
#
# Where a document gives the largest size (a table of containers, a count of fabs), the
# ceiling is that size; where it gives only typical values, the ceiling is a generous
# physical bound, ten times the largest value it prints, and the source says so. A value
# above a ceiling is refused with the range (Param.check), never clamped.

#: The largest container the standard models list: a rail car, 20,000 gal ("10,000 and up"),
#: ESD 2010 Appendix B Tables B-1 and B-3, in litres (75,708 L): the ceiling of Vcont.
RAIL_CAR = residue.CONTAINER_TYPES[-1]
VCONT_MAX_L = RAIL_CAR.default_volume_gal * residue.LITRES_PER_GALLON
VCONT_MAX_SOURCE = (
    f"at most {RAIL_CAR.default_volume_gal:,.0f} gal ({VCONT_MAX_L:,.0f} L), the largest container the standard "
    f"models list (a rail car: {ESD_2010} Appendix B, Tables B-1 and B-3)"
)
#: Bottles and small containers are filled or unloaded 60 an hour (ESD 2010 Table B-1,
#: RATEfill, the fastest rate it lists): 24 hours of it is the most containers per site-day.
FILL_RATE_BOTTLES_PER_HR = 60
NCONT_SITE_DAY_MAX = FILL_RATE_BOTTLES_PER_HR * HOURS_PER_DAY
NCONT_SITE_DAY_MAX_SOURCE = (
    f"at most {NCONT_SITE_DAY_MAX:,}: bottles unloaded at {FILL_RATE_BOTTLES_PER_HR} an hour, the fastest rate of "
    f"{ESD_2010} Appendix B Table B-1, for {HOURS_PER_DAY} hours"
)
#: A known number of sites: a generous physical bound, about ten times the US semiconductor
#: facilities of all sizes (955 in ESD 2010 §1.4, 1,177 in ESD 2004 ¶8); the scenarios
#: warn above the counts themselves.
NSITES_MAX = 10_000
NSITES_MAX_SOURCE = (
    f"at most {NSITES_MAX:,}, a generous physical ceiling: about ten times the US semiconductor facilities of all "
    f"sizes ({US_FABS_ALL_2010}: {US_FABS_SOURCE_2010}; {US_FABS_ALL_2004:,}: {US_FABS_SOURCE_2004})"
)
#: Eqn 3-1: ten times the largest of Table 3-2 (1,000 applications/site-hr; 5 mL an application).
NAPPLY_MAX = 10 * max(s.Napply for s in FACILITY_SCALES)
QAPPLY_MAX_ML = 10 * max(s.Qapply for s in FACILITY_SCALES)
NAPPLY_MAX_SOURCE = (
    f"at most {NAPPLY_MAX:,.0f}, a generous physical ceiling: ten times the largest of {ESD_2010} Table 3-2 "
    f"({max(s.Napply for s in FACILITY_SCALES):,.0f})"
)
QAPPLY_MAX_SOURCE = (
    f"at most {QAPPLY_MAX_ML:g} mL, a generous physical ceiling: ten times the largest of {ESD_2010} Table 3-2 "
    f"({max(s.Qapply for s in FACILITY_SCALES):g} mL)"
)
#: Workers (ESD 2010 §5.2): SIA counts 25 to 150 operators per site over all shifts, so no
#: more than 150 work one line-shift; large plants run 8 to 12 lines (Spinillo, 2005) and a
#: larger site 5 to 12 technicians per shift: ten times 12 for those two.
NOPERATORS_LINE_SHIFT_MAX = 150
NOPERATORS_LINE_SHIFT_MAX_SOURCE = (
    f"at most {NOPERATORS_LINE_SHIFT_MAX}, the most operators per site over all shifts (SIA, 2006; "
    f"{ESD_2010} §5.2.1)"
)
NLINES_SITE_MAX = 120
NLINES_SITE_MAX_SOURCE = (
    f"at most {NLINES_SITE_MAX}, a generous physical ceiling: ten times the 12 production lines of the largest "
    f"plants (Spinillo, 2005; {ESD_2010} §5.2.1)"
)
NTECHS_SHIFT_MAX = 120
NTECHS_SHIFT_MAX_SOURCE = (
    f"at most {NTECHS_SHIFT_MAX}, a generous physical ceiling: ten times the 12 technicians per shift of a larger "
    f"site (Spinillo, 2005; {ESD_2010} §5.2.2)"
)
#: The 2004 edition's 20 to 25 workers per site (¶60): ten times its high end.
NWORKERS_MAX_2004 = 250
NWORKERS_MAX_SOURCE_2004 = (
    f"at most {NWORKERS_MAX_2004}, a generous physical ceiling: ten times the 2004 edition's 25 workers per site "
    f"({ESD_2004} ¶60)"
)
#: Exposure incidents a day: the documents assume one, since more contacts add little to
#: the liquid left on the skin (ESD 2010 §5.3 footnote); ten times that.
NEXP_INCIDENT_MAX = 10
NEXP_INCIDENT_MAX_SOURCE = (
    f"at most {NEXP_INCIDENT_MAX}, a generous ceiling: ten times the one incident a day the documents assume "
    f"({ESD_2010} §5.3 footnote: more contacts add little to the liquid left on the skin)"
)

FCONTAINER_DISP_DEFAULT = residue.SMALL_CONTAINER_HE
FCONTAINER_DISP_SOURCE = (
    f"{ESD_2010} §4.2 and Table A-4: 0.006 for bottles, {residue.SMALL_CONTAINER_MODEL}, "
    "high end (CEB, 1992); other containers: Table B-3"
)
FCONTAINER_DISP_SOURCE_2004 = f"{ESD_2004} §3.2.1 ¶48, p. 13, and Table B-2: 0.006 ('smaller containers'; ref 19)"

# --- Process fractions -----------------------------------------------------------------

FEQUIP_DISP_DEFAULT = residue.SINGLE_VESSEL_CONSERVATIVE
FEQUIP_DISP_SOURCE = (
    f"{ESD_2010} §4.3 and Table A-4: 0.01, {residue.SINGLE_VESSEL_MODEL}, conservative (CEB, 1992)"
)
FEQUIP_DISP_SOURCE_2004 = f"{ESD_2004} §3.2.2 ¶50, p. 13-14, and Table B-2: 0.01 (refs 17, 19, 23)"

#: Fraction of the applied photoresist that stays on the wafer: 0.07, "conservative for
#: water releases"; 0.01 "maximizes incineration" (ESD 2010 §4.4).
FPHOTO_WAFER_DEFAULT = 0.07
FPHOTO_WAFER_SOURCE = (
    f"{ESD_2010} §4.4 and Table A-4: 0.07 (SIA, 2003; ISESH, 2002), conservative for water "
    "releases; use 0.01 to maximise incineration (Release 3)"
)
FPHOTO_WAFER_SOURCE_2018 = (
    f"{FPHOTO_WAFER_SOURCE}. {EPA_2018} §4.5 and Table 1-1: the Consortium's 5.5 % falls within "
    "the 1-7 % range and the default was not changed"
)
#: The Consortium's average adhesion, which the EPA 2018 update reports and did not adopt
#: (Table 1-1 and §4.5: "an average of 5.5 percent ... falls within the 1-7% range").
FPHOTO_WAFER_CONSORTIUM = 0.055
#: The 2004 edition carries the range 0.01 to 0.07 through its equations.
FPHOTO_WAFER_LOW_2004 = 0.01
FPHOTO_WAFER_HIGH_2004 = 0.07
FPHOTO_WAFER_RANGE_SOURCE = (
    f"{ESD_2010} §4.4 and Table A-4: 1 to 7 % adheres (SIA, 2003; ISESH, 2002); 0.07 is conservative for "
    "water releases, 0.01 maximises incineration (Release 3); the 2004 edition estimates both ends (¶52)"
)
FPHOTO_WAFER_SOURCE_2004 = f"{ESD_2004} §3.2.3 ¶52, p. 14, and Table B-2: 'default = 0.01 to 0.07' (refs 17, 23)"

FPHOTO_DEVELOP_DEFAULT = 0.5
FPHOTO_DEVELOP_SOURCE = f"{ESD_2010} §4.5 and Table A-4: 0.5 (CSM, 2002)"
FPHOTO_DEVELOP_SOURCE_2004 = f"{ESD_2004} §3.2.4 ¶54, p. 14, and Table B-2: 0.5 (refs 17, 20)"

#: Mass fraction of photoresist in the collected waste solvent ("diluted 100 times").
FPHOTO_WASTE_DEFAULT = 0.01
FPHOTO_WASTE_SOURCE = f"{ESD_2010} §5.7 and Table A-4: 0.01 (EPA engineering judgment)"

# --- Equipment cleaning less often than daily (ESD 2010 §4.3 note) ---------------------

#: The §4.3 note's examples: cleanings a year -> days of the cleaning interval (calendar
#: intervals; the engine uses TIMEapply_days / cleanings, 30, 13.8, 6.9 at 360 days).
PRINTED_CLEANING_INTERVALS = {12: 30, 26: 14, 52: 7}
CLEANING_SOURCE = (
    f"{ESD_2010} §4.3 note: 12 cleaning days a year (monthly), 26 (every two weeks) or 52 (weekly) "
    "instead of every application day, with the residue collected over the interval: 30, 14 or 7 days"
)

# --- The process, as the IRER describes it ---------------------------------------------

#: The IRER's process description after the unloading step, one step an item: EPA 2018
#: update, Section 7 sample IRER ("NCS is unloaded from 1-gallon (3.8-liter) bottles
#: (liquid, 15%) --> charged to application equipment --> Application (spin-coat) -->
#: ... --> PMN fully released or destroyed"), with "chemical" for the sample's "PMN".
#: The same process as ESD 2010 §2.1-2.2 (Figures 2-2a, 2-2b) and ESD 2004 §2.
PROCESS_STEPS = (
    "charged to application equipment",
    "Application (spin-coat)",
    "Soft Bake",
    "Image application via radiation",
    "Hard Bake",
    "Developing",
    "Intermediate processing (e.g., baking)",
    "Etching",
    "Stripping",
    "chemical fully released or destroyed",
)
#: The 2004 edition counts no containers (no Vcont): its ¶48 names the bottles, p. 13.
CONTAINERS_2004 = "1-gallon (4-liter) or 2.5-gallon (10-liter) bottles"

# --- Workers (ESD 2010 §5.2) -----------------------------------------------------------

NOPERATORS_LINE_SHIFT_DEFAULT = 2
NOPERATORS_LINE_SHIFT_SOURCE = f"{ESD_2010} Eqn 5-1 and Table A-4: 2 workers/line-shift (Spinillo, 2005)"
NLINES_SITE_DEFAULT = 8
NLINES_SITE_SOURCE = (
    f"{ESD_2010} Eqn 5-1 and Table A-4: 8 spin-coating lines/site, high end (SIA, 2006; "
    "Spinillo, 2005); Table A-3 prints this symbol as Nlines_shift"
)
NSHIFTS_DAY_DEFAULT = 3
NSHIFTS_DAY_SOURCE = f"{ESD_2010} Eqn 5-1, 5-2 and Table A-4: 3 shifts/day (24-hour day; SIA, 2006)"
NTECHS_SHIFT_DEFAULT = 6
NTECHS_SHIFT_SOURCE = f"{ESD_2010} Eqn 5-2 and Table A-4: 6 workers/shift (SIA average, 2006)"

#: The 2004 edition: "20 to 25 workers per facility may be assumed as a default".
NWORKERS_LOW_2004 = 20
NWORKERS_HIGH_2004 = 25
NWORKERS_SOURCE_2004 = f"{ESD_2004} §3.3.1 ¶60, p. 16, and Table B-2: 20 to 25 workers/site (site visit)"

# --- Dermal (ESD 2010 §5.3 to 5.7; Appendix B.6) ---------------------------------------

QLIQUID_SKIN_LOW_DEFAULT = dermal.QU_CONTACT_LOW
QLIQUID_SKIN_HIGH_DEFAULT = dermal.QU_CONTACT_HIGH
QLIQUID_SKIN_SOURCE = (
    f"{ESD_2010} §5.3 to 5.7 and Table A-4: 0.7 (low end) and 2.1 (high end) mg/cm²-incident "
    "for routine or incidental contact (CEB, 2000)"
)
QLIQUID_SKIN_SOURCE_2004 = (
    f"{ESD_2004} Eqn 3-9, p. 17: 0.7 (low end) and 2.1 (high end) mg/cm²-incident (ref 21); "
    "Table B-2 labels 0.7 'what-if'"
)

NEXP_INCIDENT_DEFAULT = 1
NEXP_INCIDENT_SOURCE = f"{ESD_2010} §5.3 footnote and Table A-4: 1 incident/day (CEB, 2000)"
NEXP_INCIDENT_SOURCE_2004 = f"{ESD_2004} ¶62-63, p. 16-17: 1 incident/day"

#: "EPA recommends a maximum of 250 days per year for each employee" (40-hour week
#: over 50 weeks).
MAX_EXPOSURE_DAYS_DEFAULT = 250
MAX_EXPOSURE_DAYS_SOURCE = f"{ESD_2010} §5.3: at most 250 days/yr per worker (40-hour week, 50 weeks/yr)"
MAX_EXPOSURE_DAYS_SOURCE_2004 = f"{ESD_2004} ¶63, p. 17: up to 250 days/yr, or the days of application a year if fewer"

#: The hand-area default set each scenario uses (keys of dermal.HAND_AREA_SETS).
#: 2010 as published: the printed 420/840 cm² (§5.3 to 5.7, Table A-4, Section 6.3).
HAND_AREAS_2010 = "esd-2010"
#: 2018: the update's worked example (Section 6) and sample IRER (Section 7) assess no
#: exposures ("outside of the scope of the ESD update"); the IRER was "Generated by the
#: 09/30/2013 version of ChemSTEER", whose defaults carry EPA's September 2013 hand areas,
#: and Section 4 repeats "EPA recommends using the most current version of the models".
HAND_AREAS_2018 = "epa-2013"
HAND_AREAS_2018_REASON = (
    f"{EPA_2018} Section 7 ('Generated by the 09/30/2013 version of ChemSTEER'; occupational "
    "exposures outside the update's scope) and Section 4 ('EPA recommends using the most "
    "current version of the models'): EPA's 2013 hand areas"
)
#: 2004: one hand, 420 cm² (ref 21), the same CEB (2000) value as the 2010 set.
HAND_AREAS_2004 = "esd-2010"

# --- Volatility gates ------------------------------------------------------------------

#: Below this vapour pressure inhalation (and vapour release) is negligible [torr].
NONVOLATILE_VP_TORR = volatility.NONVOLATILE_VP_TORR
NONVOLATILE_VP_SOURCE = (
    f"{ESD_2004} Explanatory notes and Section 4, p. 19 ('Negligible (VP < 0.001 torr)'); "
    f"{EPA_2018} Section 7 sample IRER (VP 1.0E-6 torr); the ESDs cover nonvolatile chemicals only"
)
#: The 2004 edition's air-release gate [torr]: "releases to air from the handling of
#: materials with a vapor pressure less than 0.01 torr are negligible".
AIR_RELEASE_VP_TORR_2004 = volatility.PHOTORESIST_2004_AIR_NEGLIGIBLE_VP_TORR

#: Penetration-model activity for the equipment cleaning vapour estimate: the sample
#: IRER's "Equipment Cleaning Losses of Liquids from a Single, Large Vessel".
EQUIPMENT_CLEANING_ACTIVITY = "single_large_vessel"
