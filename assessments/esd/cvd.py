"""OECD ESD No. 35: Chemical Vapour Deposition in the Semiconductor Industry (2015).

OECD, *Emission Scenario Document on Chemical Vapour Deposition in the Semiconductor
Industry*, Series on Emission Scenario Documents No. 35, ENV/JM/MONO(2015)5,
3 April 2015 (cited below as "ESD 2015"; ¶ are the document's numbered paragraphs, page
numbers are from its table of contents).

Scenario ``cvd-2015``: the end-use (fab) site, with the supplier-site Appendices C and D as
an option (``supplier_site = "yes"``).

What is computed
----------------
- General facility estimates (§3): the daily use rate (Eqn 3-1), the number of sites
  (Eqn 3-2, rounded up) or a known number of sites, the daily use recalculated for the whole
  number of sites (footnote 9 / the §3.6 summary box), the containers unloaded a year
  (Eqn 3-3, rounded up).
- The precursor's density (§3.7, Appendix B): the ESD's defaults by physical state (liquid
  1 kg/L; gas 0.52 kg/L, Method 1), or the fill mass over the container volume (Eqn B-1), or
  the compressibility factor z read by the reviewer from Figure B-1 (Eqn B-2), with T_r and
  P_r (Eqn B-3) reported to help read the chart; or a density the reviewer enters.
- Release 1 (§4.3): the unreacted precursor sent to point-of-use (POU) abatement
  (Eqn 4-1) over the utilisation range, and what passes the abatement (Eqn 4-2), to air or
  water, as a low-end/high-end range. The efficiency is the ESD's 0.99, a Table 4-2 value
  chosen by process, technology and compound, or any value the reviewer enters; EF = 0 is
  the what-if "no abatement" case.
- Workers (§5.2): up to 19 per site; no exposure is quantified at the fab (§5, §6.3):
  ``exposures`` is empty and the finding is a note.
- Optional, Appendices C and D (outside the ESD's scope): container residue at the supplier
  (Eqn C-1a / C-1b), the air release while cleaning containers (Eqn C-2 to C-5, HCFC-22
  analogue data of Table C-3) and the inhalation exposure of the supplier's workers
  (Eqn D-1), behind the volatility gates of Appendices C and D.

Decisions on the document's contradictions (each is also cited where it applies)
--------------------------------------------------------------------------------
1. ``Fcontainer_disp``: the default is **0.1**, as §3.6 (Eqn 3-2 where-list), Table A-4 and
   Appendix C (Eqn C-1a and its own sample, 6.06 kg/site-day) all state. The §6.1.3 sample
   uses 0.006, which is the high-end fraction of the EPA/OPPT Small Container Residual Model
   (the standard CEB models of the May 2013 draft, whose Appendix B the 2015 revision
   removed); with 0.1 the sample would give 9 sites, not 10. The preset
   ``esd-2015-section-6`` enters 0.006 to reproduce §6.
2. The daily use recalculated after rounding the number of sites up: footnote 9 prints
   ``Qchem_yr / (Nsites × TIME)``, the §3.6 summary box ``(1 − Fcontainer_disp) × Qchem_yr /
   (Nsites × TIME)``. The engine uses the summary box: it is the inverse of Eqn 3-2, so the
   sites together use exactly what Eqn 3-2 divided among them (the residue returns to the
   supplier unused, ¶43). The §6 sample does not recalculate at all (it keeps 2.8); the
   input ``Qchem_site_day_basis = "eqn_3_1"`` reproduces that, with a warning when the sites
   then use more than is available.
3. Eqn 3-3's numerator: §3.7 prints ``Qchem_site_yr``, Table A-1 and §6.1.4
   ``Qchem_site_day × TIME_operating_days``. The engine uses the latter: after the
   recalculation (or with a known number of sites) it is the site's actual annual use.
4. Counts (sites, containers) are rounded up (footnote 9 for sites; §6.1.4 rounds 16.6 to
   17 and 18.5 to "~19" for containers), after rounding away floating-point noise below
   1e-9 (1000/360 × 360 must give 9 sites, not 10).
5. Release 1 media: "air or water" (Table 4-1, ¶62, §6.2.1, the 2015 change list) rather
   than Table A-2's "air, wastewater treatment, incineration"; Table A-2's list is offered
   as the choice ``Release1_media = "table_a_2"``.
6. Equation numbers: ¶60 and ¶61 call Eqn 4-1 and 4-2 "Equation 4-2" and "4-3"; §6.1.4.2
   labels Eqn B-3 and B-2 "C-3" and "C-2" (and Figure B-1 "Figure C-1"), and calls P and T
   "P_r" and "T_r". The engine cites the equations as they are labelled (4-1, 4-2, B-2, B-3).
7. Eqn C-1a/C-1b at the supplier (undefined in the document): the supplier handles every
   container emptied at the end-use sites (footnote 23), shared among ``Nsites_supplier``
   sites; C-1a applies when those containers a year are at most the supplier's operating
   days (the "equal" case is not specified; C-1a still gives one container a day), C-1b
   otherwise, with the supplier's daily throughput ``Qchem_yr / (Nsites_supplier ×
   TIME_operating_days_supplier)``.
8. Eqn D-1's sample uses TIME_exposure = 0.016 hr/day (about the 1/60 hr of the C-5 sample's
   activity time) although the stated default is 8 hr/day; the engine keeps the stated
   default 8 and reports the activity hours beside it; the preset ``esd-2015-appendix-c-d``
   enters 0.016 to reproduce the sample.
9. Table B-1's MW for NH3 (32, really 17.03) and PH3 (33.4, really 34.0) are not shipped as
   data; Figure B-1 is an image, so z is the reviewer's chart reading.
10. Table 4-2: "> x %" is taken as x % (the bound, conservative); a range such as
    "55 – 99 %" as its lower end; the phosphine "0 – 96 %*" as 0 (the footnote: "minimal
    removal efficiency would be expected"). Only the precursors and fed reactant gases are
    offered, not by-products (HF, SiF4), chamber-cleaning gases (ClF3) or carrier gases.

Nothing here imports Django.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .models.inhalation import MAX_EXPOSURE_HOURS, inhalation_dose, ppm_to_mg_m3
from .models.residue import SMALL_CONTAINER_HE
from .models.volatility import (
    CVD_HIGHLY_VOLATILE_VP_TORR,
    HIGHLY_VOLATILE,
    NONVOLATILE,
    NONVOLATILE_VP_TORR,
    SEMI_VOLATILE,
    cvd_volatility_class,
)
from .parameters import CHOICE, INT, Param, ParamSet, Step
from .registry import Preset, Scenario
from .results import (
    Exposure,
    ExposureEstimate,
    Medium,
    Release,
    Result,
    Trace,
    release_estimate,
)

SCENARIO_KEY = "cvd-2015"
DOC = "ESD 2015"
DOCUMENT = (
    "OECD ESD No. 35, Chemical Vapour Deposition in the Semiconductor Industry, "
    "ENV/JM/MONO(2015)5 (2015)"
)

# ---------------------------------------------------------------------------------------
# Sourced defaults (ESD 2015 unless stated)
# ---------------------------------------------------------------------------------------

#: Operating days at a fab [days/yr]: §3.2 ¶37 (SIA 2003), Table A-4.
TIME_OPERATING_DAYS = 360
#: Weight fraction of precursor as received [kg/kg]: §3.3 ¶39 (purity > 99.99 %), Table A-4.
F_CHEM = 1.0
#: Annual use of one precursor at one site [kg/site-yr]: §3.5 ¶41 (Industry 2009),
#: high end of the range 25 to 1,000, Table A-4.
Q_CHEM_SITE_YR = 1000.0
Q_CHEM_SITE_YR_LOW = 25.0
#: Fraction left in the emptied container [kg/kg]: §3.6 (Eqn 3-2 where-list), Table A-4
#: (CEB 2002), Appendix C (Eqn C-1a). See decision 1 in the module docstring.
F_CONTAINER_DISP = 0.1
#: The fraction the §6.1.3 sample enters instead (not a default; see decision 1): the
#: EPA/OPPT Small Container Residual Model's high-end loss fraction.
F_CONTAINER_DISP_SECTION_6 = SMALL_CONTAINER_HE
#: US semiconductor facilities, NAICS 334413, 2011 Economic Census: §3.6 ¶45, Table 3-2.
N_US_FABS = 922
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
#: Utilisation of the precursor in deposition [kg consumed/kg delivered]: §4.3 ¶59-60
#: (Industry 2009), Table A-4; the release is presented as a range over it.
U_PROCESS_LOW = 0.3
U_PROCESS_HIGH = 0.5
#: POU abatement efficiency [kg captured/kg vented]: §4.3 ¶61 (SEMATECH 1997), Table A-4.
EF_POU = 0.99
#: CVD workers per fab: §5.2 ¶69 (10 % of 187 production workers), Table A-3.
N_WORKERS_FAB = 19

# Appendix C and D (supplier site; outside the ESD's scope)
#: Supplier operating days [days/yr]: App. C (CEB 1991: 5-day week, 2-week shutdown).
TIME_OPERATING_DAYS_SUPPLIER = 250
#: Supplier sites: footnote 23 (every container emptied at the end-use sites returns to
#: the supplier); the PMN's own information should be used when given (App. C, D).
N_SITES_SUPPLIER = 1
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
#: Unload/fill rate, small containers [containers/hr]: Eqn C-5 (ChemSTEER 2005).
RATE_FILL = 60.0
#: Molar volume at 25 °C [L/mol], inhalation rate [m³/hr] (CEB 1991), exposure duration
#: [hr/day]: Eqn D-1 where-list.
V_MOLAR = 24.45
RATE_BREATHING = 1.25
TIME_EXPOSURE = 8.0
#: Supplier workers handling and cleaning containers: App. D (PMNs 2006-2010: 1 to 4).
N_WORKERS_SUPPLIER = 4
#: Volatility gates [torr]: Explanatory Notes (volatile at >= 0.001 torr), App. C and D
#: (negligible below 0.001; semi-volatile 0.001 to 35; highly volatile above 35), from the
#: standard models' :mod:`.models.volatility` (``cvd_volatility_class``).
VP_NEGLIGIBLE_TORR = NONVOLATILE_VP_TORR
VP_HIGHLY_VOLATILE_TORR = CVD_HIGHLY_VOLATILE_VP_TORR

_COUNT_TOLERANCE_DIGITS = 9


# ---------------------------------------------------------------------------------------
# Equations
# ---------------------------------------------------------------------------------------


def daily_use_rate(Qchem_site_yr: float, TIME_operating_days: float) -> float:
    """Daily use rate of the precursor at one site [kg/site-day].

    Q_chem_site_day = Q_chem_site_yr / TIME_operating_days

    Parameters
    ----------
    Qchem_site_yr : annual use of the precursor at one site [kg/site-yr] (default 1,000)
    TIME_operating_days : operating days of the fab [days/yr] (default 360)

    Notes
    -----
    ESD 2015, Eqn 3-1, §3.5 (p.27); sample §6.1.2 prints 2.8 kg/site-day.

    >>> round(daily_use_rate(1000, 360), 4)
    2.7778
    """
    return Qchem_site_yr / TIME_operating_days


def number_of_sites(
    Qchem_yr: float, Fcontainer_disp: float, Qchem_site_day: float, TIME_operating_days: float
) -> float:
    """Number of sites using the precursor, before rounding up [sites].

    N_sites = Q_chem_yr × (1 − F_container_disp) / (Q_chem_site_day × TIME_operating_days)

    Parameters
    ----------
    Qchem_yr : annual production volume of the precursor [kg/yr]
    Fcontainer_disp : fraction left in the emptied container [kg/kg] (default 0.1)
    Qchem_site_day : daily use rate [kg/site-day]
    TIME_operating_days : operating days [days/yr]

    Notes
    -----
    ESD 2015, Eqn 3-2, §3.6 (p.27); round the result up (footnote 9, :func:`round_up_count`).
    Sample §6.1.3 (with 0.006 and 2.8) prints 10 sites.

    >>> round(number_of_sites(10000, 0.006, 2.8, 360), 3)
    9.861
    """
    return Qchem_yr * (1.0 - Fcontainer_disp) / (Qchem_site_day * TIME_operating_days)


def round_up_count(value: float) -> int:
    """A count rounded up to a whole number, ignoring floating-point noise [-].

    ceil(x), after rounding x to 9 decimals, so 9.000000000001 gives 9; a positive x is
    at least 1 (4.5e-12 sites is one site, not none).

    Notes
    -----
    ESD 2015, §3.6 footnote 9 (N_sites "rounded up to the nearest integer"); §6.1.4 rounds
    the containers up too (16.6 to 17, 18.5 to "~19").

    >>> round_up_count(9.861), round_up_count(9.000000000001), round_up_count(16.5), round_up_count(4.5e-12)
    (10, 9, 17, 1)
    """
    whole = math.ceil(round(value, _COUNT_TOLERANCE_DIGITS))
    return 1 if whole < 1 and value > 0 else whole


def daily_use_rate_for_sites(
    Qchem_yr: float, Fcontainer_disp: float, Nsites: int, TIME_operating_days: float
) -> float:
    """Daily use rate for a whole (rounded or known) number of sites [kg/site-day].

    Q_chem_site_day = (1 − F_container_disp) × Q_chem_yr / (N_sites × TIME_operating_days)

    Parameters
    ----------
    Qchem_yr : annual production volume [kg/yr]
    Fcontainer_disp : fraction left in the emptied container [kg/kg]
    Nsites : number of sites, rounded up or known [sites]
    TIME_operating_days : operating days [days/yr]

    Notes
    -----
    ESD 2015, §3.6, "Summary of the Relationship of General Facility Parameters"
    (unnumbered, after Table 3-2; §3.6 starts p.27). Footnote 9 prints the same equation without (1 − F_container_disp);
    the summary box's form is used because it inverts Eqn 3-2 (module docstring, decision 2).

    >>> round(daily_use_rate_for_sites(10000, 0.1, 9, 360), 4)
    2.7778
    """
    return (1.0 - Fcontainer_disp) * Qchem_yr / (Nsites * TIME_operating_days)


def containers_unloaded_per_site_year(
    Qchem_site_day: float,
    TIME_operating_days: float,
    Fchem: float,
    Vcontainer: float,
    RHOformulation: float,
) -> float:
    """Transport containers unloaded per site a year, before rounding up [containers/site-yr].

    N_container_unload_site_yr = Q_chem_site_day × TIME_operating_days /
                                 (F_chem × V_container × ρ_formulation)

    Parameters
    ----------
    Qchem_site_day : daily use rate [kg/site-day]
    TIME_operating_days : operating days [days/yr]
    Fchem : weight fraction of precursor as received [kg/kg] (default 1)
    Vcontainer : container volume [L] (default 60.6)
    RHOformulation : density of the formulation in the container [kg/L]

    Notes
    -----
    ESD 2015, Eqn 3-3 as in Table A-1 and §6.1.4 (§3.7, p.29, prints Q_chem_site_yr in the
    numerator; module docstring, decision 3). Sample §6.1.4.1 prints 17 (liquid), §6.1.4.2
    "~19" (gas, 0.90 kg/L).

    >>> round(containers_unloaded_per_site_year(2.8, 360, 1.0, 60.6, 1.0), 2)
    16.63
    """
    return Qchem_site_day * TIME_operating_days / (Fchem * Vcontainer * RHOformulation)


def density_from_fill_mass(m: float, Vcontainer: float) -> float:
    """Density of the precursor in its container from the fill mass [kg/L].

    ρ_formulation = m / V_container

    Parameters
    ----------
    m : mass of the chemical inside the container [kg]
    Vcontainer : volume of the container [L]

    Notes
    -----
    ESD 2015, Appendix B, Method 1, Eqn B-1 (p.59): trimethylsilane, 26 kg in 49.8 L,
    printed 0.52 kg/L.

    >>> round(density_from_fill_mass(26, 49.8), 2)
    0.52
    """
    return m / Vcontainer


def molar_volume(z: float, T: float, P: float, R: float = R_GAS) -> float:
    """Molar volume of a compressed gas from the generalised equation of state [L/mol].

    Ṽ = z × R × T / P

    Parameters
    ----------
    z : compressibility factor, read from Figure B-1 at (T_r, P_r) [-]
    T : temperature [K] (default 293)
    P : pressure [bar] (default 103)
    R : universal gas constant [L·bar/(mol·K)] (0.08314)

    Notes
    -----
    ESD 2015, Appendix B, Method 2, Eqn B-2 (Seader and Henley 1998); Table B-1 prints
    0.035 L/mol for z = 0.15 at 293 K and 103 bar.

    >>> round(molar_volume(0.15, 293, 103), 3)
    0.035
    """
    return z * R * T / P


def density_from_compressibility(MW: float, z: float, T: float, P: float, R: float = R_GAS) -> float:
    """Density of a compressed gaseous precursor [kg/L].

    ρ_formulation = MW / Ṽ = MW × P / (z × R × T)

    Parameters
    ----------
    MW : molecular weight [kg/mol] (the ESD's unit in Eqn B-2)
    z : compressibility factor [-]
    T : temperature [K]
    P : pressure [bar]
    R : universal gas constant [L·bar/(mol·K)]

    Notes
    -----
    ESD 2015, Appendix B, Method 2, Eqn B-2 (App. B, p.59 ff.); sample §6.1.4.2 (labelled "C-2" there) prints
    0.90 kg/L for MW 0.032 kg/mol, z 0.15, 293 K, 103 bar.

    >>> round(density_from_compressibility(0.032, 0.15, 293, 103), 3)
    0.902
    """
    return density_from_molar_volume(MW, molar_volume(z, T, P, R))


def density_from_molar_volume(MW: float, Vmolar: float) -> float:
    """Density of a compressed gas from its molar volume [kg/L].

    ρ_formulation = MW / Ṽ

    Parameters
    ----------
    MW : molecular weight [kg/mol]
    Vmolar : molar volume Ṽ [L/mol]

    Notes
    -----
    ESD 2015, Appendix B, Eqn B-2 (second line); Table B-1, WF6: 0.2978 / 0.076 prints 3.92.

    >>> round(density_from_molar_volume(0.2978, 0.076), 2)
    3.92
    """
    return MW / Vmolar


def reduced_temperature(T: float, Tc: float) -> float:
    """Reduced temperature, to read z from the compressibility chart [-].

    T_r = T / T_c

    Parameters
    ----------
    T : temperature [K]
    Tc : critical temperature [K]

    Notes
    -----
    ESD 2015, Appendix B, Eqn B-3; sample §6.1.4.2 prints 0.72 for 293 K and 132 °C.

    >>> round(reduced_temperature(293, 132 + 273), 2)
    0.72
    """
    return T / Tc


def reduced_pressure(P: float, Pc: float) -> float:
    """Reduced pressure, to read z from the compressibility chart [-].

    P_r = P / P_c

    Parameters
    ----------
    P : pressure [bar]
    Pc : critical pressure [bar]

    Notes
    -----
    ESD 2015, Appendix B, Eqn B-3; sample §6.1.4.2 prints 0.91 for 103 and 112.8 bar.

    >>> round(reduced_pressure(103, 112.8), 2)
    0.91
    """
    return P / Pc


def release_to_pou_control(Qchem_site_day: float, U_process: float) -> float:
    """Unreacted precursor vented from the chamber to POU abatement [kg/site-day].

    Elocal_control = Q_chem_site_day × (1 − U_process)

    Parameters
    ----------
    Qchem_site_day : daily use rate [kg/site-day]
    U_process : utilisation, the fraction consumed in deposition [kg/kg] (0.3 to 0.5)

    Notes
    -----
    ESD 2015, Eqn 4-1, §4.3 ¶60 (p.39; the text calls it "Equation 4-2"); sample §6.2.1
    prints 1.4 to 2.0 kg/site-day for 2.8 kg/site-day and U 0.5 to 0.3.

    >>> round(release_to_pou_control(2.8, 0.5), 2), round(release_to_pou_control(2.8, 0.3), 2)
    (1.4, 1.96)
    """
    return Qchem_site_day * (1.0 - U_process)


def precursor_consumed(Qchem_site_day: float, U_process: float) -> float:
    """Precursor consumed (reacted) in deposition [kg/site-day].

    Q_consumed = Q_chem_site_day × U_process

    Parameters
    ----------
    Qchem_site_day : daily use rate [kg/site-day]
    U_process : utilisation [kg consumed/kg delivered]

    Notes
    -----
    ESD 2015, §4.3 ¶59: "Utilization is defined as the fraction of chemical consumed
    (reacted) during deposition"; the complement of Eqn 4-1.

    >>> round(precursor_consumed(2.8, 0.3), 2)
    0.84
    """
    return Qchem_site_day * U_process


def release_after_pou_control(Elocal_control: float, EF: float) -> float:
    """Precursor passing POU abatement to central house abatement [kg/site-day].

    Elocal_process_disp = Elocal_control × (1 − EF)

    Parameters
    ----------
    Elocal_control : release to POU control, Eqn 4-1 [kg/site-day]
    EF : efficiency of the POU control technology [kg captured/kg vented] (default 0.99)

    Notes
    -----
    ESD 2015, Eqn 4-2, §4.3 ¶61 (p.39; the text calls it "Equation 4-3"), the ESD's
    "what-if" release; sample §6.2.1 prints 0.014 to 0.02 kg/site-day.

    >>> round(release_after_pou_control(1.4, 0.99), 4)
    0.014
    """
    return Elocal_control * (1.0 - EF)


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
    return Vcontainer * RHOformulation * Fchem * Fcontainer_disp * 1.0


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


def activity_hours(containers_per_day: float, RATE_fill: float) -> float:
    """Hours a day spent cleaning containers [hr/site-day].

    TIME_activity_hours = containers per site-day / unload-fill rate

    Parameters
    ----------
    containers_per_day : containers handled a day at the supplier [containers/site-day]
    RATE_fill : unload/fill rate [containers/hr] (default 60, small containers)

    Notes
    -----
    ESD 2015, Appendix C, Eqn C-5 where-list (CEB 2002 approach; ChemSTEER 2005 rate).

    >>> round(activity_hours(1, 60), 4)
    0.0167
    """
    return containers_per_day / RATE_fill


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
    return G_air * 3600.0 * TIME_activity_hours


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
    TIME_exposure : exposure duration [hr/day] (default 8, at most 8)

    Notes
    -----
    ESD 2015, Appendix D, Eqn D-1 (App. D, p.74 ff.; C_v,chem from Eqn C-2, which the where-list calls
    "Equation D-2"); the sample prints 0.1 mg/day with 0.016 hr/day.

    The equation is the standard inhalation shell: ``ppm_to_mg_m3`` then ``inhalation_dose``
    of :mod:`.models.inhalation` (Cm = Cv × MW / Vmolar; I = Cm × b × h, h at most 8 hr).

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

    >>> round(percentile(HCFC22_CONCENTRATIONS_PPM, 90), 3)
    4.8
    """
    ordered = sorted(values)
    rank = q / 100.0 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])


# ---------------------------------------------------------------------------------------
# Table 4-2: compound removal efficiencies of POU control technologies (SEMATECH 1997)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AbatementEfficiency:
    """One row of ESD 2015 Table 4-2, with the efficiency the engine takes from it."""

    key: str
    process: str
    technology: str
    compound: str
    printed: str

    @property
    def efficiency(self) -> float:
        return efficiency_from_printed(self.printed)

    @property
    def label(self) -> str:
        return f"{self.process}; {self.technology}; {self.compound}: {self.printed}"


def efficiency_from_printed(printed: str) -> float:
    """The removal efficiency a Table 4-2 entry stands for, as a fraction [kg/kg].

    ">x%" → x/100 (the bound); "a – b%" → a/100 (the lower end); "x%" → x/100

    Parameters
    ----------
    printed : the entry as printed, e.g. ">99.9%", "55 – 99%", "0 – 96%*"

    Notes
    -----
    ESD 2015, Table 4-2 (§4.1, p.32 ff.; SEMATECH 1997). The bound and the lower end give the
    larger release (conservative); the phosphine "0 – 96%*" footnote expects "minimal
    removal". Module docstring, decision 10.

    >>> efficiency_from_printed(">99.9%"), efficiency_from_printed("55 – 99%")
    (0.999, 0.55)
    """
    text = printed.replace("*", "").replace("%", "").replace(">", "").strip()
    low = text.replace("–", "-").split("-")[0].strip()
    return round(float(low) / 100.0, 6)


_PROCESSES = {
    "epi-h2-vented": "Silicon EPI with dopants (hydrogen vented)",
    "epi-h2-abated": "Silicon EPI with dopants (hydrogen abated)",
    "poly": "Poly deposition, non-PFC clean",
    "doped-poly": "Doped poly deposition",
    "nitride-silane": "Nitride deposition with silane; PFC clean",
    "nitride-dcs": "Nitride deposition with dichlorosilane; PFC clean",
    "oxide": "Oxide deposition; PFC clean",
    "tungsten": "Tungsten deposition; PFC clean",
    "bpsg": "BPSG oxide deposition",
}
_TECHNOLOGIES = {
    "wet-scrub-no-chem": "Wet scrubbing (without chemical addition)",
    "oxid-h2-wet": "Oxidation with hydrogen present/wet scrubbing",
    "cold-bed": "Cold bed",
    "oxid-electric-wet": "Oxidation using electric/wet scrubbing",
    "oxid-fuel-cold-bed": "Oxidation using fuel (for dep. only); cold bed (for clean only)",
    "oxid-fuel": "Oxidation using fuel",
    "oxid-fuel-wet": "Oxidation using fuel/wet scrubbing",
    "pre-pump": "Pre-pump reactor",
    "wet-scrub-chem": "Wet scrubbing (with chemical addition)",
    "wet-scrub": "Wet scrubbing (with or without chemical addition)",
    "hot-bed": "Hot chemical bed",
    "hot-bed-nh3": "Hot chemical bed / ammonia control system",
}
_COMPOUNDS = {
    "silane": "Silane",
    "phosphine": "Phosphine",
    "diborane": "Diborane",
    "dichlorosilane": "Dichlorosilane",
    "ammonia": "Ammonia",
    "sicl4": "Silicon tetrachloride",
    "wf6": "Tungsten hexafluoride",
    "n2o": "Nitrous oxide",
}

# (process, technology, compound, printed), in the order Table 4-2 prints them. P3/P4's
# slid labels (see the catalogue) do not change any of these precursor entries.
_TABLE_4_2_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("epi-h2-vented", "wet-scrub-no-chem", "diborane", ">98%"),
    ("epi-h2-vented", "wet-scrub-no-chem", "dichlorosilane", ">99.9%"),
    ("epi-h2-vented", "wet-scrub-no-chem", "phosphine", "0 – 96%*"),
    ("epi-h2-abated", "oxid-h2-wet", "diborane", ">99%"),
    ("epi-h2-abated", "oxid-h2-wet", "dichlorosilane", ">99.9%"),
    ("epi-h2-abated", "oxid-h2-wet", "phosphine", ">99%"),
    ("poly", "cold-bed", "silane", ">99%"),
    ("poly", "cold-bed", "sicl4", ">99%"),
    ("poly", "oxid-electric-wet", "silane", ">99.9%"),
    ("poly", "oxid-electric-wet", "sicl4", ">99%"),
    ("poly", "oxid-fuel-cold-bed", "silane", ">99%"),
    ("poly", "oxid-fuel-cold-bed", "sicl4", ">99%"),
    ("poly", "oxid-fuel-wet", "silane", ">99.9%"),
    ("poly", "oxid-fuel-wet", "sicl4", ">99%"),
    ("poly", "pre-pump", "silane", ">99%"),
    ("poly", "pre-pump", "sicl4", "0%"),
    ("poly", "wet-scrub-chem", "silane", ">80%"),
    ("poly", "wet-scrub-chem", "sicl4", ">99%"),
    ("doped-poly", "cold-bed", "phosphine", ">99%"),
    ("doped-poly", "cold-bed", "silane", ">99%"),
    ("doped-poly", "oxid-electric-wet", "phosphine", ">99%"),
    ("doped-poly", "oxid-electric-wet", "silane", ">99.9%"),
    ("doped-poly", "oxid-fuel", "phosphine", ">99%"),
    ("doped-poly", "oxid-fuel", "silane", ">99%"),
    ("doped-poly", "oxid-fuel-wet", "phosphine", ">99.9%"),
    ("doped-poly", "oxid-fuel-wet", "silane", ">99.9%"),
    ("doped-poly", "pre-pump", "phosphine", ">99%"),
    ("doped-poly", "pre-pump", "silane", ">99%"),
    ("doped-poly", "wet-scrub-chem", "phosphine", "0%"),
    ("doped-poly", "wet-scrub-chem", "silane", "80%"),
    ("nitride-silane", "cold-bed", "ammonia", ">99%"),
    ("nitride-silane", "cold-bed", "silane", ">99%"),
    ("nitride-silane", "oxid-electric-wet", "ammonia", ">99.9%"),
    ("nitride-silane", "oxid-electric-wet", "silane", ">99.9%"),
    ("nitride-silane", "oxid-fuel-wet", "ammonia", ">99%"),
    ("nitride-silane", "oxid-fuel-wet", "silane", ">98%"),
    ("nitride-silane", "pre-pump", "ammonia", "55 – 99%"),
    ("nitride-silane", "pre-pump", "silane", ">99%"),
    ("nitride-silane", "wet-scrub-chem", "ammonia", ">99%"),
    ("nitride-silane", "wet-scrub-chem", "silane", "80%"),
    ("nitride-dcs", "cold-bed", "ammonia", ">99%"),
    ("nitride-dcs", "cold-bed", "dichlorosilane", ">99%"),
    ("nitride-dcs", "hot-bed-nh3", "ammonia", ">99.9%"),
    ("nitride-dcs", "hot-bed-nh3", "dichlorosilane", ">99.9%"),
    ("nitride-dcs", "oxid-electric-wet", "ammonia", ">99.9%"),
    ("nitride-dcs", "oxid-electric-wet", "dichlorosilane", ">99%"),
    ("nitride-dcs", "pre-pump", "ammonia", "55 – 99%"),
    ("nitride-dcs", "pre-pump", "dichlorosilane", ">99%"),
    ("nitride-dcs", "wet-scrub-chem", "ammonia", ">99%"),
    ("nitride-dcs", "wet-scrub-chem", "dichlorosilane", ">99.9%"),
    ("oxide", "cold-bed", "silane", ">99%"),
    ("oxide", "hot-bed", "silane", ">99.9%"),
    ("oxide", "oxid-electric-wet", "n2o", ">50%"),
    ("oxide", "oxid-electric-wet", "silane", ">99.9%"),
    ("oxide", "oxid-fuel", "silane", ">98%"),
    ("oxide", "pre-pump", "n2o", "28%"),
    ("oxide", "pre-pump", "silane", ">99%"),
    ("oxide", "wet-scrub-chem", "n2o", "0%"),
    ("oxide", "wet-scrub-chem", "silane", "80%"),
    ("tungsten", "cold-bed", "silane", ">99%"),
    ("tungsten", "cold-bed", "wf6", ">99%"),
    ("tungsten", "hot-bed", "silane", ">99%"),
    ("tungsten", "hot-bed", "wf6", ">99.9%"),
    ("tungsten", "oxid-electric-wet", "silane", ">95%"),
    ("tungsten", "oxid-electric-wet", "wf6", ">99.9%"),
    ("tungsten", "oxid-fuel-wet", "silane", ">99%"),
    ("tungsten", "oxid-fuel-wet", "wf6", ">99%"),
    ("tungsten", "pre-pump", "silane", ">99%"),
    ("tungsten", "pre-pump", "wf6", "99%"),
    ("tungsten", "wet-scrub", "silane", "80%"),
    ("tungsten", "wet-scrub", "wf6", "99%"),
    ("bpsg", "cold-bed", "diborane", ">99%"),
    ("bpsg", "cold-bed", "phosphine", ">99%"),
    ("bpsg", "cold-bed", "silane", ">99%"),
    ("bpsg", "hot-bed", "diborane", ">99.9%"),
    ("bpsg", "hot-bed", "phosphine", ">99.9%"),
    ("bpsg", "hot-bed", "silane", ">99.9%"),
    ("bpsg", "oxid-electric-wet", "diborane", ">99%"),
    ("bpsg", "oxid-electric-wet", "n2o", ">41%"),
    ("bpsg", "oxid-electric-wet", "phosphine", ">99%"),
    ("bpsg", "oxid-electric-wet", "silane", ">99.9%"),
    ("bpsg", "oxid-fuel", "diborane", ">96%"),
    ("bpsg", "oxid-fuel", "phosphine", ">92%"),
    ("bpsg", "oxid-fuel", "silane", ">95%"),
    ("bpsg", "oxid-fuel-wet", "diborane", ">99%"),
    ("bpsg", "oxid-fuel-wet", "n2o", ">99%"),
    ("bpsg", "oxid-fuel-wet", "phosphine", ">99%"),
    ("bpsg", "oxid-fuel-wet", "silane", ">99.9%"),
    ("bpsg", "pre-pump", "diborane", ">99%"),
    ("bpsg", "pre-pump", "n2o", "28%"),
    ("bpsg", "pre-pump", "phosphine", ">99%"),
    ("bpsg", "pre-pump", "silane", ">99%"),
    ("bpsg", "wet-scrub", "diborane", "99%"),
    ("bpsg", "wet-scrub", "n2o", "0%"),
    ("bpsg", "wet-scrub", "phosphine", "0%"),
    ("bpsg", "wet-scrub", "silane", "80%"),
)

#: ESD 2015 Table 4-2, precursor and reactant-gas entries, keyed "process/technology/compound".
TABLE_4_2: dict[str, AbatementEfficiency] = {
    f"{p}/{t}/{c}": AbatementEfficiency(
        f"{p}/{t}/{c}", _PROCESSES[p], _TECHNOLOGIES[t], _COMPOUNDS[c], printed
    )
    for p, t, c, printed in _TABLE_4_2_ROWS
}


# ---------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------

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
    _P("TIME_exposure", "Exposure duration", "hr/day", TIME_EXPOSURE,
       "ESD 2015 Eqn D-1 where-list (the App. D sample uses 0.016)", "supplier", lower=0,
       upper=MAX_EXPOSURE_HOURS, lower_open=True),
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
            f"must not exceed U_process_high ({v['U_process_high']:g}): the utilisation "
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


# ---------------------------------------------------------------------------------------
# The scenario
# ---------------------------------------------------------------------------------------


def _g(x: float) -> str:
    """A number for a sentence: three significant figures, thousands separated."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def _release_1_media(choice: str) -> list[Medium]:
    names = {
        "air_or_water": ("air", "water"),
        "air": ("air",),
        "water": ("water",),
        "table_a_2": ("air", "water", "incineration"),
    }[choice]
    if len(names) == 1:
        return [Medium(names[0], 1.0)]
    return [Medium(n) for n in names]


def _facility_estimates(v: Mapping[str, Any], t: Trace, warnings: list[str],
                        notes: list[str]) -> dict[str, Any]:
    days = v["TIME_operating_days"]
    q_eq31 = t.record(
        "Qchem_site_day_eqn_3_1", daily_use_rate(v["Qchem_site_yr"], days), "kg/site-day",
        "Qchem_site_yr / TIME_operating_days", f"{DOC} Eqn 3-1, §3.5",
        Qchem_site_yr=v["Qchem_site_yr"], TIME_operating_days=days,
    )
    if not Q_CHEM_SITE_YR_LOW <= v["Qchem_site_yr"] <= Q_CHEM_SITE_YR:
        warnings.append(
            f"Qchem_site_yr ({_g(v['Qchem_site_yr'])} kg/site-yr) is outside the ESD's range "
            f"of {Q_CHEM_SITE_YR_LOW:g} to {Q_CHEM_SITE_YR:,.0f} kg/site-yr (ESD 2015 §3.5 ¶41)"
        )
    facility: dict[str, Any] = {"TIME_operating_days": days, "Qchem_site_day_eqn_3_1": q_eq31}
    if v["Nsites"] is None:
        n_raw = t.record(
            "Nsites_unrounded",
            number_of_sites(v["Qchem_yr"], v["Fcontainer_disp"], q_eq31, days), "sites",
            "Qchem_yr × (1 − Fcontainer_disp) / (Qchem_site_day × TIME_operating_days)",
            f"{DOC} Eqn 3-2, §3.6", Qchem_yr=v["Qchem_yr"],
            Fcontainer_disp=v["Fcontainer_disp"], Qchem_site_day=q_eq31,
            TIME_operating_days=days,
        )
        n_sites = t.record(
            "Nsites", round_up_count(n_raw), "sites", "ceil(Nsites_unrounded)",
            f"{DOC} §3.6 footnote 9", Nsites_unrounded=n_raw,
        )
        facility.update(Nsites_unrounded=n_raw, Nsites_basis="Eqn 3-2, rounded up")
    else:
        n_sites = v["Nsites"]
        facility.update(Nsites_unrounded=None, Nsites_basis="known (entered)")
    if n_sites > N_US_FABS:
        warnings.append(
            f"Nsites ({n_sites}) exceeds the {N_US_FABS} US semiconductor facilities "
            "(ESD 2015 §3.6 ¶45, Table 3-2): enter a larger Qchem_site_yr or a known Nsites"
        )
    if v["Qchem_site_day_basis"] == RECALCULATED:
        q_day = t.record(
            "Qchem_site_day", daily_use_rate_for_sites(
                v["Qchem_yr"], v["Fcontainer_disp"], n_sites, days),
            "kg/site-day", "(1 − Fcontainer_disp) × Qchem_yr / (Nsites × TIME_operating_days)",
            f"{DOC} §3.6 summary box (footnote 9 omits (1 − Fcontainer_disp))",
            Fcontainer_disp=v["Fcontainer_disp"], Qchem_yr=v["Qchem_yr"], Nsites=n_sites,
            TIME_operating_days=days,
        )
        notes.append(
            "Daily use recalculated for the whole number of sites with the ESD's §3.6 "
            "summary-box equation, (1 − Fcontainer_disp) × Qchem_yr / (Nsites × days); "
            "footnote 9 prints it without (1 − Fcontainer_disp). Eqn 3-1 gave "
            f"{_g(q_eq31)} kg/site-day (EPA recommends comparing the two, §3.6)."
        )
    else:
        q_day = t.record("Qchem_site_day", q_eq31, "kg/site-day", "Qchem_site_day_eqn_3_1",
                         f"{DOC} §6.1 (the sample keeps the Eqn 3-1 value)",
                         Qchem_site_day_eqn_3_1=q_eq31)
        available = v["Qchem_yr"] * (1.0 - v["Fcontainer_disp"])
        used = q_day * n_sites * days
        if used > available * (1 + 1e-9):
            warnings.append(
                f"With the Eqn 3-1 daily use kept, {n_sites} sites use {_g(used)} kg/yr, more "
                f"than the {_g(available)} kg/yr available after container residue (Eqn 3-2); "
                "the ESD recalculates the daily use (§3.6 footnote 9)"
            )
    site_year = q_day * days
    if site_year > Q_CHEM_SITE_YR * (1 + 1e-9) and v["Nsites"] is not None:
        warnings.append(
            f"The known Nsites gives {_g(site_year)} kg/site-yr, above the ESD's range of up "
            f"to {Q_CHEM_SITE_YR:,.0f} kg/site-yr (ESD 2015 §3.5 ¶41-42)"
        )
    facility.update(Nsites=n_sites, Qchem_site_day=q_day, Qchem_site_yr_used=site_year)
    return facility


def _density(v: Mapping[str, Any], t: Trace, facility: dict[str, Any]) -> float:
    method = v["density_method"]
    state = v["physical_state"]
    if v["Tc"] is not None:
        facility["T_r"] = t.record(
            "T_r", reduced_temperature(v["T"], v["Tc"]), "", "T / Tc", f"{DOC} Eqn B-3",
            T=v["T"], Tc=v["Tc"], note="to read z from Figure B-1")
    if v["Pc"] is not None:
        facility["P_r"] = t.record(
            "P_r", reduced_pressure(v["P"], v["Pc"]), "", "P / Pc", f"{DOC} Eqn B-3",
            P=v["P"], Pc=v["Pc"], note="to read z from Figure B-1")
    if method == FILL_MASS:
        rho = t.record(
            "RHOformulation", density_from_fill_mass(v["m_container"], v["Vcontainer"]),
            "kg/L", "m / Vcontainer", f"{DOC} App. B Method 1, Eqn B-1",
            m=v["m_container"], Vcontainer=v["Vcontainer"])
        basis = "fill mass / container volume (Eqn B-1)"
    elif method == COMPRESSIBILITY:
        mw_kg = t.record("MW", v["MW_chem"] / 1000.0, "kg/mol", "MW_chem / 1000",
                         f"{DOC} Eqn B-2 (MW in kg/mol)", MW_chem=v["MW_chem"])
        facility["Vmolar"] = t.record(
            "Vmolar", molar_volume(v["z"], v["T"], v["P"]), "L/mol", "z × R × T / P",
            f"{DOC} App. B Method 2, Eqn B-2", z=v["z"], R=R_GAS, T=v["T"], P=v["P"])
        rho = t.record(
            "RHOformulation", density_from_compressibility(mw_kg, v["z"], v["T"], v["P"]),
            "kg/L", "MW × P / (z × R × T)", f"{DOC} App. B Method 2, Eqn B-2",
            MW=mw_kg, P=v["P"], z=v["z"], R=R_GAS, T=v["T"])
        basis = f"compressibility factor z = {v['z']:g} from Figure B-1 (Eqn B-2)"
    elif v["RHOformulation"] is not None:
        rho = t.record("RHOformulation", v["RHOformulation"], "kg/L", "entered",
                       "reviewer (chemical-specific)")
        basis = "entered (chemical-specific)"
    else:
        rho = RHO_GAS if state == "gas" else RHO_LIQUID
        source = (f"{DOC} §3.7 footnote 11, App. B Method 1 (trimethylsilane)" if state == "gas"
                  else f"{DOC} §3.7, App. B (water)")
        t.record("RHOformulation", rho, "kg/L", f"ESD default for a {state}", source)
        basis = f"ESD default for a {state}"
    facility.update(RHOformulation=rho, density_basis=basis)
    return rho


def _release_1(v: Mapping[str, Any], t: Trace, facility: dict[str, Any],
               warnings: list[str], notes: list[str]) -> Release:
    q_day, n_sites, days = facility["Qchem_site_day"], facility["Nsites"], v["TIME_operating_days"]
    if v["EF_table_4_2"] is not None:
        row = TABLE_4_2[v["EF_table_4_2"]]
        ef = row.efficiency
        ef_basis = f"Table 4-2 ({row.label})"
    else:
        ef = v["EF"]
        ef_basis = "ESD default (SEMATECH 1997)" if ef == EF_POU else "entered"
    t.record("EF", ef, "kg/kg", "POU abatement efficiency", f"{DOC} §4.3 ¶61, Table 4-2",
             note=ef_basis)
    no_abatement = ef == 0 and v["EF_table_4_2"] is None
    if ef == 0 and not no_abatement:
        warnings.append(
            f"The chosen Table 4-2 abatement removes none of this compound ({ef_basis}): "
            "Release 1 equals the unreacted precursor sent to POU control"
        )
    if no_abatement:
        warnings.append(
            "Release 1 is assessed without POU abatement (EF = 0), a what-if: the ESD assumes "
            "interlocked POU abatement is always present (ESD 2015 §4.1 ¶55, §4.3 ¶61)"
        )
    cases = [("low end", v["U_process_high"]), ("high end", v["U_process_low"])]
    if v["U_process_low"] == v["U_process_high"]:
        cases = [("output", v["U_process_low"])]
    estimates = []
    for label, u in cases:
        tag = label.replace(" ", "_")
        control = t.record(
            f"Elocal_control_{tag}", release_to_pou_control(q_day, u), "kg/site-day",
            "Qchem_site_day × (1 − U_process)", f"{DOC} Eqn 4-1, §4.3",
            Qchem_site_day=q_day, U_process=u)
        t.record(f"Qconsumed_{tag}", precursor_consumed(q_day, u), "kg/site-day",
                 "Qchem_site_day × U_process", f"{DOC} §4.3 ¶59 (definition of utilisation)",
                 Qchem_site_day=q_day, U_process=u)
        released = t.record(
            f"Elocal_process_disp_{tag}", release_after_pou_control(control, ef), "kg/site-day",
            "Elocal_control × (1 − EF)", f"{DOC} Eqn 4-2, §4.3", Elocal_control=control, EF=ef)
        facility[f"Elocal_control_{tag}"] = control
        facility[f"Qconsumed_{tag}"] = precursor_consumed(q_day, u)
        position = {
            "low end": "Low end of the range (the highest utilisation). ",
            "high end": "High end of the range (the lowest utilisation). ",
            "output": "One utilisation (chemical-specific, ¶60). ",
        }[label]
        basis = position + (
            f"Daily use {_g(q_day)} kg/site-day × (1 − {u:g} utilisation) = "
            f"{_g(control)} kg/site-day to POU abatement (Eqn 4-1), × (1 − {ef:g}) efficiency, "
            f"{ef_basis} (Eqn 4-2): the ESD's what-if release from central house abatement "
            "(¶61)."
        )
        if no_abatement:
            label = "what-if"
            basis += " Assessed without abatement (EF = 0)."
        estimates.append(release_estimate(label, released, days, n_sites, basis))
    facility.update(EF=ef, EF_basis=ef_basis)
    return Release(
        number=1,
        source="Deposition process: unreacted precursor passed through abatement",
        model="Loss rate based on industry-specific data (utilisation and POU efficiency)",
        equation=f"{DOC} Eqn 4-1, 4-2",
        media=_release_1_media(v["Release1_media"]),
        estimates=estimates,
    )


def _supplier(v: Mapping[str, Any], t: Trace, facility: dict[str, Any], rho: float,
              warnings: list[str], notes: list[str]) -> tuple[list[Release], list[Exposure]]:
    """Appendices C and D: the supplier site (outside the ESD's scope)."""
    sup: dict[str, Any] = {}
    n_sup = v["Nsites_supplier"]
    days_sup = v["TIME_operating_days_supplier"]
    total_containers = facility["Ncontainer_unload_site_yr"] * facility["Nsites"]
    per_site = t.record(
        "Ncontainer_supplier_site_yr", round_up_count(total_containers / n_sup),
        "containers/site-yr", "ceil(Ncontainer_unload_site_yr × Nsites / Nsites_supplier)",
        f"{DOC} App. C footnote 23", Ncontainer_unload_site_yr=facility["Ncontainer_unload_site_yr"],
        Nsites=facility["Nsites"], Nsites_supplier=n_sup)
    sup.update(Nsites_supplier=n_sup, TIME_operating_days_supplier=days_sup,
               Ncontainer_supplier_site_yr=per_site)
    residue_media = [Medium("water"), Medium("incineration"), Medium("landfill")]
    media_note = (
        "Media: wastewater treatment (POTW), incineration or landfill (App. C); Table C-2 adds "
        "deep-well injection for gases, counted here as land disposal (landfill)."
    )
    if per_site <= days_sup:
        residue = t.record(
            "Elocal_container_residue_disp",
            container_residue_release_per_container(
                v["Vcontainer"], rho, v["Fchem"], v["Fcontainer_disp"]),
            "kg/site-day", "Vcontainer × RHOformulation × Fchem × Fcontainer_disp × 1 container/site-day",
            f"{DOC} App. C Eqn C-1a", Vcontainer=v["Vcontainer"], RHOformulation=rho,
            Fchem=v["Fchem"], Fcontainer_disp=v["Fcontainer_disp"])
        residue_days = per_site
        containers_day = 1.0
        residue_eq = "C-1a"
        residue_basis = (
            f"One container a day: {v['Vcontainer']:g} L × {_g(rho)} kg/L × {v['Fchem']:g} × "
            f"{v['Fcontainer_disp']:g} residue (Eqn C-1a), over the {per_site} containers a year "
            "the supplier cleans (footnote 23). Conservatively assumes all residue is disposed "
            f"of (App. C). {media_note}"
        )
    else:
        q_sup = t.record(
            "Qchem_site_day_supplier", v["Qchem_yr"] / (n_sup * days_sup), "kg/site-day",
            "Qchem_yr / (Nsites_supplier × TIME_operating_days_supplier)",
            f"{DOC} App. C Eqn C-1b (supplier throughput; module decision 7)",
            Qchem_yr=v["Qchem_yr"], Nsites_supplier=n_sup, TIME_operating_days_supplier=days_sup)
        residue = t.record(
            "Elocal_container_residue_disp", container_residue_release_daily(q_sup, v["Fcontainer_disp"]),
            "kg/site-day", "Qchem_site_day × Fcontainer_disp", f"{DOC} App. C Eqn C-1b",
            Qchem_site_day=q_sup, Fcontainer_disp=v["Fcontainer_disp"])
        residue_days = days_sup
        containers_day = per_site / days_sup
        residue_eq = "C-1b"
        residue_basis = (
            f"{per_site} containers a year outnumber the supplier's {days_sup:g} operating days: "
            f"daily throughput {_g(q_sup)} kg/site-day × {v['Fcontainer_disp']:g} residue "
            f"(Eqn C-1b). Conservatively assumes all residue is disposed of (App. C). {media_note}"
        )
    sup.update(residue_equation=residue_eq, containers_per_day=containers_day)
    releases = [Release(
        number=2,
        source="Supplier site (App. C, outside the ESD's scope): container residue",
        model="ESD 2015 Appendix C container residue (Fcontainer_disp)",
        equation=f"{DOC} App. C Eqn {residue_eq}",
        media=residue_media,
        estimates=[release_estimate("conservative", residue, residue_days, n_sup, residue_basis)],
    )]
    exposures: list[Exposure] = []
    vp = v["VP_chem"]
    volatility = cvd_volatility_class(vp)
    sup["volatility"] = volatility
    sup["Nworkers_supplier"] = v["Nworkers_supplier"]
    hours = t.record("TIME_activity_hours", activity_hours(containers_day, v["RATE_fill"]),
                     "hr/site-day", "containers per site-day / RATE_fill",
                     f"{DOC} App. C Eqn C-5 where-list (CEB 2002)",
                     containers_per_day=containers_day, RATE_fill=v["RATE_fill"])
    sup["TIME_activity_hours"] = hours
    air_days = min(per_site, days_sup)
    if volatility == NONVOLATILE:
        notes.append(
            f"Supplier site: VP {vp:g} torr < {VP_NEGLIGIBLE_TORR:g} torr, so the air release "
            "while cleaning containers and the inhalation exposure are negligible "
            "(ESD 2015 App. C, App. D)."
        )
    elif v["toxic_reactive_pyrophoric"] == "yes":
        notes.append(
            "Supplier site: a toxic, reactive or pyrophoric precursor is cleaned in contained "
            "spaces; the air release and the inhalation exposure are mitigated by engineering "
            "controls and not quantified (ESD 2015 App. C, App. D)."
        )
    else:
        cv = t.record(
            "Cv_chem", analogue_airborne_concentration(v["Cv_k"], vp, v["X_chem"], v["VP_k"], v["X_k"]),
            "ppm", "Cv_k × (VP_chem × X_chem) / (VP_k × X_k)", f"{DOC} App. C Eqn C-2",
            Cv_k=v["Cv_k"], VP_chem=vp, X_chem=v["X_chem"], VP_k=v["VP_k"], X_k=v["X_k"])
        q_nf = t.record("Q_NF", near_field_ventilation_rate(v["FSA"], v["v_NF"]), "ft³/min",
                        "0.984 × FSA × v_NF", f"{DOC} App. C Eqn C-3", FSA=v["FSA"], v_NF=v["v_NF"])
        g_air = t.record(
            "G_air", generation_rate(q_nf, v["Q_FF"], cv, v["MW_chem"]), "kg/s",
            "1.93E-11 × (1 − Q_NF/(Q_NF + Q_FF)) × Cv_chem × Q_NF × MW_chem",
            f"{DOC} App. C Eqn C-4", Q_NF=q_nf, Q_FF=v["Q_FF"], Cv_chem=cv, MW_chem=v["MW_chem"])
        air = t.record("Elocal_air_cleaning", container_cleaning_air_release(g_air, hours),
                       "kg/site-day", "G_air × 3600 × TIME_activity_hours",
                       f"{DOC} App. C Eqn C-5", G_air=g_air, TIME_activity_hours=hours)
        sup.update(Cv_chem=cv, Q_NF=q_nf, G_air=g_air)
        analogue = (
            f"{volatility} precursor (VP {vp:g} torr): HCFC-22 analogue {v['Cv_k']:g} ppm scaled "
            f"to {_g(cv)} ppm (Eqn C-2)"
        )
        releases.append(Release(
            number=3,
            source="Supplier site (App. C, outside the ESD's scope): air release while cleaning containers",
            model="ESD 2015 Appendix C near-field model with analogue data (EPA 2011)",
            equation=f"{DOC} App. C Eqn C-2 to C-5",
            media=[Medium("air", 1.0)],
            estimates=[release_estimate(
                "high end", air, air_days, n_sup,
                f"{analogue}; near field {_g(q_nf)} ft³/min (Eqn C-3), generation "
                f"{_g(g_air)} kg/s (Eqn C-4) over {_g(hours)} hr/day of container cleaning "
                f"(Eqn C-5), on the lesser of {per_site} containers or {days_sup:g} days a year.")],
        ))
        dose = t.record(
            "EXP_inhalation",
            inhalation_exposure(cv, v["MW_chem"], v["V_molar"], v["RATE_breathing"], v["TIME_exposure"]),
            "mg/day", "Cv_chem × MW_chem / V_molar × RATE_breathing × TIME_exposure",
            f"{DOC} App. D Eqn D-1", Cv_chem=cv, MW_chem=v["MW_chem"], V_molar=v["V_molar"],
            RATE_breathing=v["RATE_breathing"], TIME_exposure=v["TIME_exposure"])
        exposures.append(Exposure(
            letter="A",
            activity="Container cleaning at the supplier site (App. D, outside the ESD's scope)",
            route="inhalation",
            model="ESD 2015 Appendix D inhalation with analogue data (HCFC-22, EPA 1990)",
            equation=f"{DOC} App. D Eqn D-1",
            workers_per_site=v["Nworkers_supplier"],
            days_per_year=air_days,
            estimates=[ExposureEstimate(
                "high end", dose,
                f"{analogue}, × {v['MW_chem']:g} g/mol / {v['V_molar']:g} L/mol × "
                f"{v['RATE_breathing']:g} m³/hr × {v['TIME_exposure']:g} hr/day (Eqn D-1; the "
                f"container cleaning itself takes {_g(hours)} hr/day). Dermal: qualitative only "
                "(App. D, CEB 1991).")],
        ))
    facility["supplier"] = sup
    return releases, exposures


def run(v: dict[str, Any]) -> Result:
    """Compute the ``cvd-2015`` scenario from validated, effective inputs; pure."""
    t = Trace()
    warnings: list[str] = []
    notes: list[str] = []
    facility = _facility_estimates(v, t, warnings, notes)
    rho = _density(v, t, facility)
    n_raw = t.record(
        "Ncontainer_unload_site_yr_unrounded",
        containers_unloaded_per_site_year(
            facility["Qchem_site_day"], v["TIME_operating_days"], v["Fchem"], v["Vcontainer"], rho),
        "containers/site-yr",
        "Qchem_site_day × TIME_operating_days / (Fchem × Vcontainer × RHOformulation)",
        f"{DOC} Eqn 3-3 (Table A-1 form), §3.7", Qchem_site_day=facility["Qchem_site_day"],
        TIME_operating_days=v["TIME_operating_days"], Fchem=v["Fchem"],
        Vcontainer=v["Vcontainer"], RHOformulation=rho)
    facility["Ncontainer_unload_site_yr_unrounded"] = n_raw
    facility["Ncontainer_unload_site_yr"] = t.record(
        "Ncontainer_unload_site_yr", round_up_count(n_raw), "containers/site-yr",
        "ceil(Ncontainer_unload_site_yr_unrounded)", f"{DOC} §6.1.4 (rounded up)",
        Ncontainer_unload_site_yr_unrounded=n_raw)
    releases = [_release_1(v, t, facility, warnings, notes)]
    facility["Nworkers_site"] = v["Nworkers_site"]
    facility["worker_exposure_fab"] = (
        "None: worker exposure to CVD precursors is expected to be negligible at the "
        "semiconductor site (ESD 2015 §5, §6.3 ¶89, Table A-3)"
    )
    notes.append(
        "Occupational exposure at the fab: none; worker exposure is expected to be negligible. "
        f"Up to {v['Nworkers_site']} production workers per site work on CVD, none exposed: "
        "closed, automated systems, gas cabinets, interlocks "
        "and purging; 24 monitoring results, all below detection (ESD 2015 §5.2 ¶69, ¶74, "
        "App. E)."
    )
    notes.append(
        "Container residue, chamber cleaning and volatilisation at the fab: no release (closed "
        "system; containers return to the supplier; no precursor present during chamber "
        "cleaning; ESD 2015 §4.2 ¶57, ¶51)."
    )
    exposures: list[Exposure] = []
    if v["supplier_site"] == "yes":
        more, exposures = _supplier(v, t, facility, rho, warnings, notes)
        releases.extend(more)
    return Result(
        scenario=SCENARIO_KEY,
        inputs=dict(v),
        facility=facility,
        releases=releases,
        exposures=exposures,
        warnings=warnings,
        trace=t.steps,
        notes=notes,
        default_set={"document": DOCUMENT, "defaults": "ESD 2015 as published (Table A-4)"},
    )


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
    Preset(
        "esd-2015-appendix-c-d",
        "ESD 2015 Appendix C and D samples (VP 2,000 torr, MW 100, 0.016 hr/day)",
        {"supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100, "TIME_exposure": 0.016},
        f"{DOC} Appendix C and D sample calculations",
    ),
)

SCENARIOS = (
    Scenario(
        key=SCENARIO_KEY,
        title="Chemical vapour deposition (CVD) precursor at semiconductor fabs (OECD ESD No. 35, 2015)",
        source=DOCUMENT,
        params=PARAM_SET,
        run=run,
        presets=PRESETS,
    ),
)
