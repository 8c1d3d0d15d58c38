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
- What the rest of the product reads: the process description, the facility facts, what
  deposition consumes and abatement destroys, and the allowance the document's conventions
  make over the use (see :mod:`.scenario`).

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
8. Eqn D-1's exposure time: the where-list states "Default: 8 hr/day", the sample uses
   0.016 hr/day, the C-5 activity time of its one container a day at 60 containers/hr (1/60
   hr, truncated). The engine follows the sample: ``TIME_exposure`` left empty is the
   containers handled a day ÷ ``RATE_fill``, at most 8 hr/day, the container rule of the
   EPA/OPPT Mass Balance Model's exposure time (ESD No. 9 (2010), App. B Table B-2: "Lesser
   of: (number of containers handled per site-day) / RATEfill or 8"); 8 hr/day is the bound.
   A value entered is used as entered.
9. Table B-1's MW for NH3 (32, really 17.03) and PH3 (33.4, really 34.0) are not shipped as
   data; Figure B-1 is an image, so z is the reviewer's chart reading.
10. Table 4-2: "> x %" is taken as x % (the bound, conservative); a range such as
    "55 – 99 %" as its lower end; the phosphine "0 – 96 %*" as 0 (the footnote: "minimal
    removal efficiency would be expected"). Only the precursors and fed reactant gases are
    offered, not by-products (HF, SiF4), chamber-cleaning gases (ClF3) or carrier gases.
11. The supplier's air release while cleaning containers (Eqn C-2 to C-5) and the container
    residue (Eqn C-1a/C-1b) are assessed side by side, on the same days, and App. C counts the
    residue whole ("conservatively assumes all of the container residues are disposed"); the
    document is silent on their overlap. By conservation of mass the vapour comes out of the
    residue: the air release (Release 3) is at most the residue, and Release 2 is the residue
    less what evaporates. In the App. C sample this moves 6.06 to 6.0598 kg/site-day, still
    "6.06" as printed.

Modules
-------
:mod:`.constants` (every sourced default), :mod:`.equations` (§3, §4, App. B) and
:mod:`.equations_supplier` (App. C, D), one pure function per equation with doctests
re-running the samples; :mod:`.table_4_2` (Table 4-2); :mod:`.params` (inputs, wizard steps,
cross-checks, presets); :mod:`.facility`, :mod:`.release` (Release 1) and :mod:`.supplier`
(Releases 2 and 3, Exposure A); :mod:`.scenario` (``run``, the process, facts and mass
balance declarations, :data:`SCENARIOS`). Steps are traced by the shared
:class:`~assessments.esd.calc.Calc`; sentences format numbers with
:func:`assessments.esd.text.figure`.

Nothing here imports Django.
"""

from __future__ import annotations

from ..counts import round_up_count
from .constants import (
    CV_K_PPM,
    DOC,
    DOCUMENT,
    EF_POU,
    F_CHEM,
    F_CONTAINER_DISP,
    F_CONTAINER_DISP_SECTION_6,
    FSA_FT2,
    HCFC22_CONCENTRATIONS_PPM,
    MW_HCFC22,
    N_SITES_SUPPLIER,
    N_US_FABS,
    N_WORKERS_FAB,
    N_WORKERS_SUPPLIER,
    P_CONTAINER_BAR,
    Q_CHEM_SITE_YR,
    Q_CHEM_SITE_YR_LOW,
    Q_FF_FT3_MIN,
    R_GAS,
    RATE_BREATHING,
    RATE_FILL,
    RHO_GAS,
    RHO_LIQUID,
    T_CONTAINER_K,
    TIME_EXPOSURE,
    TIME_OPERATING_DAYS,
    TIME_OPERATING_DAYS_SUPPLIER,
    TMS_CYLINDER_VOLUME_L,
    TMS_FILL_MASS_KG,
    U_PROCESS_HIGH,
    U_PROCESS_LOW,
    V_CONTAINER,
    V_MOLAR,
    V_NF_CM_S,
    VP_HIGHLY_VOLATILE_TORR,
    VP_K_TORR,
    VP_NEGLIGIBLE_TORR,
    X_CHEM,
    X_K,
)
from .equations import (
    containers_unloaded_per_site_year,
    daily_use_rate,
    daily_use_rate_for_sites,
    density_from_compressibility,
    density_from_fill_mass,
    density_from_molar_volume,
    destroyed_in_abatement,
    molar_volume,
    number_of_sites,
    precursor_consumed,
    reduced_pressure,
    reduced_temperature,
    release_after_pou_control,
    release_to_pou_control,
)
from .equations_supplier import (
    activity_hours,
    air_release_from_residue,
    analogue_airborne_concentration,
    container_cleaning_air_release,
    container_residue_release_daily,
    container_residue_release_per_container,
    exposure_duration,
    generation_rate,
    inhalation_exposure,
    near_field_ventilation_rate,
    percentile,
    residue_left_after_evaporation,
)
from .params import (
    COMPRESSIBILITY,
    EQN_3_1,
    FILL_MASS,
    PARAM_SET,
    PARAMS,
    PRESETS,
    RECALCULATED,
    STATE_DEFAULT,
    STEPS,
    YES_NO,
)
from .scenario import CVD_2015, SCENARIO_KEY, SCENARIOS, run
from .table_4_2 import TABLE_4_2, AbatementEfficiency, efficiency_from_printed

__all__ = [
    "CV_K_PPM",
    "DOC",
    "DOCUMENT",
    "EF_POU",
    "F_CHEM",
    "F_CONTAINER_DISP",
    "F_CONTAINER_DISP_SECTION_6",
    "FSA_FT2",
    "HCFC22_CONCENTRATIONS_PPM",
    "MW_HCFC22",
    "N_SITES_SUPPLIER",
    "N_US_FABS",
    "N_WORKERS_FAB",
    "N_WORKERS_SUPPLIER",
    "P_CONTAINER_BAR",
    "Q_CHEM_SITE_YR",
    "Q_CHEM_SITE_YR_LOW",
    "Q_FF_FT3_MIN",
    "R_GAS",
    "RATE_BREATHING",
    "RATE_FILL",
    "RHO_GAS",
    "RHO_LIQUID",
    "T_CONTAINER_K",
    "TIME_EXPOSURE",
    "TIME_OPERATING_DAYS",
    "TIME_OPERATING_DAYS_SUPPLIER",
    "TMS_CYLINDER_VOLUME_L",
    "TMS_FILL_MASS_KG",
    "U_PROCESS_HIGH",
    "U_PROCESS_LOW",
    "V_CONTAINER",
    "V_MOLAR",
    "V_NF_CM_S",
    "VP_HIGHLY_VOLATILE_TORR",
    "VP_K_TORR",
    "VP_NEGLIGIBLE_TORR",
    "X_CHEM",
    "X_K",
    "containers_unloaded_per_site_year",
    "daily_use_rate",
    "daily_use_rate_for_sites",
    "density_from_compressibility",
    "density_from_fill_mass",
    "density_from_molar_volume",
    "destroyed_in_abatement",
    "molar_volume",
    "number_of_sites",
    "precursor_consumed",
    "reduced_pressure",
    "reduced_temperature",
    "release_after_pou_control",
    "release_to_pou_control",
    "round_up_count",
    "activity_hours",
    "air_release_from_residue",
    "analogue_airborne_concentration",
    "container_cleaning_air_release",
    "container_residue_release_daily",
    "container_residue_release_per_container",
    "exposure_duration",
    "generation_rate",
    "inhalation_exposure",
    "near_field_ventilation_rate",
    "percentile",
    "residue_left_after_evaporation",
    "COMPRESSIBILITY",
    "EQN_3_1",
    "FILL_MASS",
    "PARAM_SET",
    "PARAMS",
    "PRESETS",
    "RECALCULATED",
    "STATE_DEFAULT",
    "STEPS",
    "YES_NO",
    "CVD_2015",
    "SCENARIO_KEY",
    "SCENARIOS",
    "run",
    "TABLE_4_2",
    "AbatementEfficiency",
    "efficiency_from_printed",
]
