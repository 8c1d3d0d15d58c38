"""Named, sourced constants of the EIIP methods.

``EIIP`` below is *Preferred and Alternative Methods for Estimating Air Emissions from
Semiconductor Manufacturing*, EIIP Volume II, Chapter 6 (Eastern Research Group for the
EIIP Point Sources Committee, February 1999; seed ``001_f3ae3e2708423a49``), cited with
its page numbers as printed (6.4-4 is page 4 of its Section 4).
"""

from __future__ import annotations

#: The short name every citation starts with.
DOC = "EIIP Vol. II Ch. 6"
DOCUMENT = (
    "EIIP Volume II, Chapter 6, Preferred and Alternative Methods for Estimating Air "
    "Emissions from Semiconductor Manufacturing (1999)"
)

#: Molar volume of an ideal gas at 68 °F and 1 atm [ft³/lb-mole]: EIIP Eqn 6.4-3 and
#: 6.5-1 where-lists, Examples 6.4-3 and 6.5-1.
M_STANDARD = 385.5
#: Pounds per short ton: EIIP Eqn 6.4-4 and 6.5-2.
LB_PER_TON = 2000.0
#: Kilograms per pound (international avoirdupois pound, exact by definition; NIST SP 811).
KG_PER_LB = 0.45359237
#: Seconds per hour: EIIP Eqn 6.5-5 gives W_x in lb/sec, the other methods E_x in lb/hr.
SECONDS_PER_HOUR = 3600.0
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
#: No dilution: Eqn 6.5-4 as printed, the exhaust assumed saturated (EIIP §5.3).
DILUTION_RATIO_NONE = 1.0
#: Hours in a day and in a leap year: the upper bounds of operating hours.
HOURS_PER_DAY = 24.0
HOURS_PER_YEAR_MAX = 8784.0
#: Days in a leap year: the upper bound of days of release a year.
DAYS_PER_YEAR_MAX = 366

# --- Ceilings of the size-like inputs (issue 26) ---------------------------------------
# EIIP prints examples, not ranges: each ceiling is a generous physical bound, stated as
# such, far above its examples, that refuses a unit slip of several orders of magnitude.

#: Material through a process [gal/hr]: a rail car an hour, 20,000 gal, the largest
#: container of the standard models (OECD ESD No. 9, 2010, Appendix B Table B-3);
#: EIIP Examples 6.4-1 and 6.4-2 enter 2 gal/hr.
MATERIAL_FLOW_MAX_GAL_HR = 20_000.0
#: Stack gas flow [dscf/hr]: about ten thousand times EIIP Example 6.4-3's 109,020 dscf/hr.
STACK_FLOW_MAX_DSCF_HR = 1e9
#: Liquid surface area [ft²]: ten thousand times EIIP Example 6.5-4's 1 ft² (a 100 ft by
#: 100 ft open surface).
SURFACE_AREA_MAX_FT2 = 10_000.0
#: Activity [units/hr]: about thirty thousand times EIIP Example 6.5-2's 30 wafers/hr.
ACTIVITY_MAX_PER_HR = 1e6
#: Sites a set of data stands for: about ten times the US semiconductor facilities the
#: ESDs count (955, OECD ESD No. 9 §1.4; 922, OECD ESD No. 35 ¶45).
NSITES_MAX = 10_000
