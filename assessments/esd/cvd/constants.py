"""Named, sourced defaults of ESD 2015 (CVD) and its Appendices C and D.

Every default an input takes, and every fixed number an equation uses, is a constant here
with the place the document prints it. ``ESD 2015`` is OECD ESD No. 35,
ENV/JM/MONO(2015)5 (seed ``004_0329b8505f36c53a``); ¶ are its numbered paragraphs, page
numbers are from its table of contents.
"""

from __future__ import annotations

from ..models.inhalation import MAX_EXPOSURE_HOURS
from ..models.residue import SMALL_CONTAINER_HE
from ..models.volatility import CVD_HIGHLY_VOLATILE_VP_TORR, NONVOLATILE_VP_TORR

DOC = "ESD 2015"
DOCUMENT = (
    "OECD ESD No. 35, Chemical Vapour Deposition in the Semiconductor Industry, "
    "ENV/JM/MONO(2015)5 (2015)"
)
#: The photoresist ESD whose Appendix B Table B-2 states the container-handling exposure
#: time rule that ESD 2015 applies in its Appendix C and D samples (decision 8).
ESD_2010_PHOTORESIST = "OECD ESD No. 9 (Photoresist, 2010)"

# --- General facility estimates (§3) -------------------------------------------------

#: Operating days at a fab [days/yr]: §3.2 ¶37 (SIA 2003), Table A-4.
TIME_OPERATING_DAYS = 360
#: Weight fraction of precursor as received [kg/kg]: §3.3 ¶39 (purity > 99.99 %), Table A-4.
F_CHEM = 1.0
#: Annual use of one precursor at one site [kg/site-yr]: §3.5 ¶41 (Industry 2009),
#: high end of the range 25 to 1,000, Table A-4.
Q_CHEM_SITE_YR = 1000.0
Q_CHEM_SITE_YR_LOW = 25.0
#: Fraction left in the emptied container [kg/kg]: §3.6 (Eqn 3-2 where-list), Table A-4
#: (CEB 2002), Appendix C (Eqn C-1a). See decision 1 in the package docstring.
F_CONTAINER_DISP = 0.1
#: The fraction the §6.1.3 sample enters instead (not a default; see decision 1): the
#: EPA/OPPT Small Container Residual Model's high-end loss fraction.
F_CONTAINER_DISP_SECTION_6 = SMALL_CONTAINER_HE
#: US semiconductor facilities, NAICS 334413, 2011 Economic Census: §3.6 ¶45, Table 3-2.
N_US_FABS = 922

# --- Containers and density (§3.7, Appendix B) ----------------------------------------

#: Transport container volume [L]: 16 gal (Shah 2010), §3.7, Table A-4.
V_CONTAINER = 60.6
#: Density of a liquid precursor [kg/L] (water): §3.7, Appendix B, Table A-4.
RHO_LIQUID = 1.0
#: Density of a gaseous precursor, pressurised as a liquid [kg/L]: §3.7 footnote 11,
#: Appendix B Method 1 (trimethylsilane, 26 kg in a 49.8 L X49S cylinder, Air Products 2006).
RHO_GAS = 0.52
TMS_FILL_MASS_KG = 26.0
TMS_CYLINDER_VOLUME_L = 49.8
#: Container pressure [bar]: silanes packaged at up to 1,500 psi, App. B footnote 20.
P_CONTAINER_BAR = 103.0
#: Container temperature [K]: Table B-1 (20 °C), §6.1.4.2.
T_CONTAINER_K = 293.0
#: Universal gas constant [L·bar/(mol·K)]: Eqn B-2 where-list.
R_GAS = 0.08314
#: Grams in a kilogram: Eqn B-2 takes MW in kg/mol.
G_PER_KG = 1000.0

# --- Release 1 (§4.3) and workers (§5.2) ------------------------------------------------

#: Utilisation of the precursor in deposition [kg consumed/kg delivered]: §4.3 ¶59-60
#: (Industry 2009), Table A-4; the release is presented as a range over it.
U_PROCESS_LOW = 0.3
U_PROCESS_HIGH = 0.5
#: POU abatement efficiency [kg captured/kg vented]: §4.3 ¶61 (SEMATECH 1997), Table A-4.
EF_POU = 0.99
#: CVD workers per fab: §5.2 ¶69 (10 % of 187 production workers), Table A-3.
N_WORKERS_FAB = 19

# --- Appendices C and D (supplier site; outside the ESD's scope) ------------------------

#: Supplier operating days [days/yr]: App. C (CEB 1991: 5-day week, 2-week shutdown).
TIME_OPERATING_DAYS_SUPPLIER = 250
#: Supplier sites: footnote 23 (every container emptied at the end-use sites returns to
#: the supplier); the PMN's own information should be used when given (App. C, D).
N_SITES_SUPPLIER = 1
#: Containers cleaned a day under Eqn C-1a [containers/site-day]: "× 1 container/site-day".
CONTAINERS_PER_DAY_C_1A = 1.0
#: HCFC-22 container-handling concentrations [ppm], Table C-3 (EPA 1990).
HCFC22_CONCENTRATIONS_PPM = (0.15, 0.11, 0.1, 0.05, 10.95, 0.7, 0.01)
#: Their 90th percentile as printed [ppm], Table C-3: the default C_v,k of Eqn C-2.
CV_K_PPM = 4.8
#: HCFC-22 vapour pressure [torr] and molecular weight [g/mol]: Table C-3 note.
VP_K_TORR = 7846.0
MW_HCFC22 = 86.5
#: Mole fractions of the precursor and the known chemical: Table A-4 (EPA assumption).
X_CHEM = 1.0
X_K = 1.0
#: Near-field free surface area [ft²] and air speed [cm/s]: Eqn C-3 (EPA 2011).
FSA_FT2 = 81.0
V_NF_CM_S = 30.0
#: Far-field ventilation rate [ft³/min]: Eqn C-4 (CEB 1991).
Q_FF_FT3_MIN = 3000.0
#: Seconds in an hour: Eqn C-5 ("3600 s/hr").
S_PER_HR = 3600.0
#: Unload/fill rate, small containers [containers/hr]: Eqn C-5 (ChemSTEER 2005).
RATE_FILL = 60.0
#: Molar volume at 25 °C [L/mol], inhalation rate [m³/hr] (CEB 1991): Eqn D-1 where-list.
V_MOLAR = 24.45
RATE_BREATHING = 1.25
#: Eqn D-1 where-list's "Default: 8 hr/day", the most a worker-day can be exposed
#: [hr/day]; the exposure time itself is the container-handling time (decision 8).
TIME_EXPOSURE = MAX_EXPOSURE_HOURS
#: Supplier workers handling and cleaning containers: App. D (PMNs 2006-2010: 1 to 4).
N_WORKERS_SUPPLIER = 4
#: Volatility gates [torr]: Explanatory Notes (volatile at >= 0.001 torr), App. C and D
#: (negligible below 0.001; semi-volatile 0.001 to 35; highly volatile above 35), from the
#: standard models' :mod:`..models.volatility` (``cvd_volatility_class``).
VP_NEGLIGIBLE_TORR = NONVOLATILE_VP_TORR
VP_HIGHLY_VOLATILE_TORR = CVD_HIGHLY_VOLATILE_VP_TORR

# --- Ceilings of the size-like inputs (issue 26) ---------------------------------------
#
# Where the ESD gives the largest size (Table C-1's containers), the ceiling is that size;
# where it gives only typical values, the ceiling is a generous physical bound, ten times
# the largest value it prints, and the source says so. A value above a ceiling is refused
# with the range (Param.check), never clamped.

#: The largest precursor container of Table C-1: a bulk tube trailer or ISO module of
#: 100 to 4,500 kg (gases and liquefied gases); liquids come in 1 to 200 kg canisters.
M_CONTAINER_MAX_KG = 4_500.0
M_CONTAINER_MAX_SOURCE = (
    f"at most {M_CONTAINER_MAX_KG:,.0f} kg, the largest container of {DOC} Table C-1 (bulk tube trailer or ISO "
    "module, 100 to 4,500 kg)"
)
#: The volume that holds Table C-1's largest fill at the ESD's density of a gaseous
#: precursor (4,500 kg ÷ 0.52 kg/L = 8,654 L), rounded up: the ceiling of Vcontainer [L].
V_CONTAINER_MAX_L = 10_000.0
V_CONTAINER_MAX_SOURCE = (
    f"at most {V_CONTAINER_MAX_L:,.0f} L: the largest container of {DOC} Table C-1 ({M_CONTAINER_MAX_KG:,.0f} kg) "
    f"holds about {M_CONTAINER_MAX_KG / RHO_GAS:,.0f} L at the ESD's density of a gaseous precursor "
    f"({RHO_GAS} kg/L, §3.7 footnote 11), rounded up"
)
#: Density of the precursor as received [kg/L]: a generous physical ceiling, five times
#: the ESD's liquid default (water, 1 kg/L).
RHO_MAX = 5.0
RHO_MAX_SOURCE = (
    f"at most {RHO_MAX:g} kg/L, a generous physical ceiling: five times the ESD's default for a liquid "
    f"({RHO_LIQUID:g} kg/L, {DOC} §3.7)"
)
#: Annual use at one site [kg/site-yr]: a hundred times the high end of §3.5 ¶41 (the
#: ESD warns outside 25 to 1,000; ¶42 footnote 8 found one PMN above 1,000).
Q_CHEM_SITE_YR_MAX = 100 * Q_CHEM_SITE_YR
Q_CHEM_SITE_YR_MAX_SOURCE = (
    f"at most {Q_CHEM_SITE_YR_MAX:,.0f} kg/site-yr, a generous physical ceiling: a hundred times the high end of "
    f"{DOC} §3.5 ¶41 ({Q_CHEM_SITE_YR:,.0f}; ¶42 footnote 8 found one PMN above it)"
)
#: A known number of fabs or supplier sites: about ten times the 922 US semiconductor
#: facilities of the 2011 Economic Census (§3.6 ¶45, Table 3-2).
NSITES_MAX = 10_000
NSITES_MAX_SOURCE = (
    f"at most {NSITES_MAX:,}, a generous physical ceiling: about ten times the {N_US_FABS} US semiconductor "
    f"facilities of {DOC} §3.6 ¶45 and Table 3-2 (2011 Economic Census)"
)
#: CVD workers at a fab: ten times the average fab's 187 production workers (§5.2 ¶68),
#: of whom the ESD counts 10 % (¶69).
N_WORKERS_FAB_MAX = 1_870
N_WORKERS_FAB_MAX_SOURCE = (
    f"at most {N_WORKERS_FAB_MAX:,}, a generous physical ceiling: ten times the 187 production workers of an "
    f"average fab ({DOC} §5.2 ¶68; ¶69 counts 10 % of them)"
)
#: Supplier workers cleaning containers: ten times the 4 of App. D (PMNs 2006-2010: 1 to 4).
N_WORKERS_SUPPLIER_MAX = 40
N_WORKERS_SUPPLIER_MAX_SOURCE = (
    f"at most {N_WORKERS_SUPPLIER_MAX}, a generous physical ceiling: ten times the {N_WORKERS_SUPPLIER} workers of "
    f"{DOC} App. D (PMNs 2006-2010: 1 to 4)"
)
#: Containers unloaded or filled an hour: ten times the 60 of Eqn C-5 (ChemSTEER 2005,
#: small containers), the fastest rate the standard models list (ESD 2010 Table B-1).
RATE_FILL_MAX = 10 * RATE_FILL
RATE_FILL_MAX_SOURCE = (
    f"at most {RATE_FILL_MAX:,.0f}, a generous physical ceiling: ten times the {RATE_FILL:g} an hour of {DOC} "
    "Eqn C-5 (small containers, the fastest rate of the standard models)"
)
#: Near-field free surface area [ft²]: ten times the 81 ft² of Eqn C-3.
FSA_MAX_FT2 = 10 * FSA_FT2
FSA_MAX_SOURCE = (
    f"at most {FSA_MAX_FT2:,.0f} ft², a generous physical ceiling: ten times the {FSA_FT2:g} ft² of {DOC} Eqn C-3"
)
#: Far-field ventilation [ft³/min]: the largest ventilation rate the standard models print,
#: outdoors, average 237,600 ft³/min (ESD 2010 Appendix B Table B-2; EPA/OPPT Mass Balance
#: Model); Eqn C-4's default is 3,000 indoors.
Q_FF_MAX_FT3_MIN = 237_600.0
Q_FF_MAX_SOURCE = (
    f"at most {Q_FF_MAX_FT3_MIN:,.0f} ft³/min, the largest ventilation rate of the standard models (outdoors, "
    f"average: {ESD_2010_PHOTORESIST} Appendix B Table B-2)"
)
#: Inhalation rate [m³/hr]: a generous physical ceiling, ten times Eqn D-1's 1.25 (CEB 1991).
RATE_BREATHING_MAX = 10 * RATE_BREATHING
RATE_BREATHING_MAX_SOURCE = (
    f"at most {RATE_BREATHING_MAX:g} m³/hr, a generous physical ceiling: ten times the {RATE_BREATHING:g} m³/hr of "
    f"{DOC} Eqn D-1 (CEB 1991)"
)
