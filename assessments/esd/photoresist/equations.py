"""The 2010 ESD's equations, one pure function each (also used by the 2018 update).

Symbols keep the document's spelling so the code reads beside it; ``Napp_ratio`` stands
for the ESD's Napp_chem / Napp_photo. Doctests re-run ESD 2010 Section 6. The extracted
text of the 2010 ESD has no page numbers, so each Notes line cites the section and
equation. The EPA 2018 update keeps these equation numbers (its Section 4 is numbered
to match; container residue is its §4.3, equipment §4.4, spin-off §4.5, developer §4.6,
etching and stripping §4.7).
"""

from __future__ import annotations

from ..calc import equation
from ..counts import round_up_count
from ..models import dermal, residue
from .constants import ESD_2010, ML_PER_L

# --- General facility estimates (Section 3) --------------------------------------------


@equation(
    "Qphoto_day", "kg photoresist/site-day",
    "Napply × TIMEapply_hours × Qapply / 1,000 mL/L × RHOphoto",
    f"{ESD_2010} Eqn 3-1, §3.2 (as Table A-1 and §6.1.1 print it)",
    label="Daily dispense (use) rate of the photoresist per site",
)
def photoresist_daily_use(Napply: float, TIMEapply_hours: float, Qapply: float, RHOphoto: float) -> float:
    """Daily dispense (use) rate of the photoresist per site [kg photoresist/site-day].

    Qphoto_day = Napply × TIMEapply_hours × Qapply / 1,000 × RHOphoto

    Parameters
    ----------
    Napply : applications per site-hour [applications/site-hr]
    TIMEapply_hours : hours of application per day [h/day]
    Qapply : photoresist dispensed per application [mL/application]
    RHOphoto : photoresist density [kg/L]

    Notes
    -----
    ESD 2010, Eqn 3-1, Section 3.2 (the display is missing from the extracted text; it is
    printed in Table A-1 and Section 6.1.1). ESD 2004 Eqn 3-1, p. 11, is the same.

    >>> photoresist_daily_use(1_000, 24, 1.5, 1.0)  # ESD 2010 §6.1.1: 36
    36.0
    """
    return Napply * TIMEapply_hours * Qapply / ML_PER_L * RHOphoto


@equation(
    "Qchem_day", "kg chemical/site-day", "Qphoto_day × Fchem × (Napp_chem / Napp_photo)",
    f"{ESD_2010} Eqn 3-2, §3.4",
    label="Daily dispense rate of the chemical of interest, before Nsites",
)
def chemical_daily_use(Qphoto_day: float, Fchem: float, Napp_ratio: float) -> float:
    """Daily dispense rate of the chemical of interest, before Nsites [kg/site-day].

    Qchem_day = Qphoto_day × Fchem × (Napp_chem / Napp_photo)

    Parameters
    ----------
    Qphoto_day : daily photoresist use per site [kg photoresist/site-day]
    Fchem : mass fraction of the chemical in the photoresist [kg/kg]
    Napp_ratio : Napp_chem / Napp_photo, fraction of applications using it [-]

    Notes
    -----
    ESD 2010, Eqn 3-2, Section 3.4; ESD 2004 Eqn 3-2, p. 12.

    >>> round(chemical_daily_use(36, 0.15, 1), 6)  # ESD 2010 §6.1.3: 5.4
    5.4
    """
    return Qphoto_day * Fchem * Napp_ratio


@equation(
    "Nsites", "sites", "(1 − Fcontainer_disp) × Qchem_yr / (Qchem_day × TIMEapply_days)",
    f"{ESD_2010} Eqn 3-3, §3.5",
    label="Number of sites using the photoresist, before rounding",
)
def number_of_sites(Fcontainer_disp: float, Qchem_yr: float, Qchem_day: float, TIMEapply_days: float) -> float:
    """Number of sites using the photoresist, before rounding [sites].

    Nsites = (1 − Fcontainer_disp) × Qchem_yr / (Qchem_day × TIMEapply_days)

    Parameters
    ----------
    Fcontainer_disp : fraction of the shipped photoresist left in the containers [-]
    Qchem_yr : production volume of the chemical [kg/yr]
    Qchem_day : daily dispense rate of the chemical per site [kg/site-day]
    TIMEapply_days : days of application per year [days/yr]

    Notes
    -----
    ESD 2010, Eqn 3-3, Section 3.5; ESD 2004 Eqn 3-3, p. 12.

    >>> round(number_of_sites(0.006, 5_000, 5.4, 360), 1)  # ESD 2010 §6.1.4: 2.6
    2.6
    """
    return (1 - Fcontainer_disp) * Qchem_yr / (Qchem_day * TIMEapply_days)


@equation("Nsites", "sites", "Nsites rounded up to a whole number", f"{ESD_2010} Eqn 3-3 footnote, §3.5",
          label="The number of sites rounded up to the next integer")
def whole_sites(Nsites: float) -> int:
    """The number of sites rounded up to the next integer [sites].

    Parameters
    ----------
    Nsites : number of sites from Eqn 3-3 [sites]

    Notes
    -----
    ESD 2010, Section 3.5, footnote to Eqn 3-3: "should be rounded up to the nearest
    integer value"; Section 6.1.4 "Round Nsites up to the next integer".

    >>> whole_sites(2.5566)  # ESD 2010 §6.1.4: 3 manufacturing sites
    3
    """
    return round_up_count(Nsites)


@equation(
    "Qchem_day", "kg chemical dispensed/site-day",
    "(1 − Fcontainer_disp) × Qchem_yr / (Nsites × TIMEapply_days)",
    f"{ESD_2010} Eqn 3-3 footnote, §3.5, and §3.6 box",
    label="Daily dispense rate recalculated for a whole (or known) number of sites",
)
def chemical_daily_use_for_sites(
    Fcontainer_disp: float, Qchem_yr: float, Nsites: float, TIMEapply_days: float
) -> float:
    """Daily dispense rate recalculated for a whole (or known) number of sites [kg/site-day].

    Qchem_day = (1 − Fcontainer_disp) × Qchem_yr / (Nsites × TIMEapply_days)

    Parameters
    ----------
    Fcontainer_disp : fraction left in the containers [-]
    Qchem_yr : production volume of the chemical [kg/yr]
    Nsites : whole (rounded-up or known) number of sites [sites]
    TIMEapply_days : days of application per year [days/yr]

    Notes
    -----
    ESD 2010, Section 3.5, footnote to Eqn 3-3 ("Qchem_day should then be adjusted for
    the Nsites integer value"), and the Section 3.6 box for a known number of sites.
    This is the ``dispensed`` daily-use basis (the ESD's rule).

    >>> round(chemical_daily_use_for_sites(0.006, 5_000, 3, 360), 2)  # ESD 2010 §6.1.4: 4.60
    4.6
    """
    return (1 - Fcontainer_disp) * Qchem_yr / (Nsites * TIMEapply_days)


@equation(
    "Qchem_day", "kg chemical/site-day", "Qchem_yr / (Nsites × TIMEapply_days)",
    "ChemSTEER's recalculation after rounding Nsites up (EPA 2018 update, Section 7 sample IRER)",
    label="Daily use rate as ChemSTEER recalculates it after rounding Nsites",
)
def chemical_daily_use_chemsteer(Qchem_yr: float, Nsites: float, TIMEapply_days: float) -> float:
    """Daily use rate as ChemSTEER recalculates it after rounding Nsites [kg/site-day].

    Qchem_day = Qchem_yr / (Nsites × TIMEapply_days)

    Parameters
    ----------
    Qchem_yr : production volume of the chemical [kg/yr]
    Nsites : whole number of sites [sites]
    TIMEapply_days : days of application per year [days/yr]

    Notes
    -----
    Not an ESD equation: the ``chemsteer`` daily-use basis. ChemSTEER divides the whole
    production volume, container residue included, which reproduces the sample IRER's
    spin-off figure (EPA 2018 update, Section 7: 4.3E+0 kg/site-day) but makes the five
    releases add up to Qchem_yr / (1 − Fcontainer_disp) instead of Qchem_yr.

    >>> round(chemical_daily_use_chemsteer(5_000, 3, 360), 2)  # 4.63 kg/site-day
    4.63
    """
    return Qchem_yr / (Nsites * TIMEapply_days)


@equation("Qcont", "kg photoresist/container", "Vcont × RHOphoto", f"{ESD_2010} §3.6 footnote to Eqn 3-4",
          label="Mass of photoresist in one container")
def container_mass(Vcont: float, RHOphoto: float) -> float:
    """Mass of photoresist in one container [kg photoresist/container].

    Qcont = Vcont × RHOphoto

    Parameters
    ----------
    Vcont : volume of photoresist per container [L/container]
    RHOphoto : photoresist density [kg/L]

    Notes
    -----
    ESD 2010, Section 3.6, footnote to Eqn 3-4.

    >>> container_mass(3.8, 1.0)  # ESD 2010 §6.1.5: 3.8
    3.8
    """
    return Vcont * RHOphoto


@equation(
    "Ncont_site_yr", "containers/site-yr", "Qchem_yr / (Fchem × Qcont × Nsites)", f"{ESD_2010} Eqn 3-4, §3.6",
    label="Containers emptied per site-year, before rounding",
)
def containers_per_site_year(Qchem_yr: float, Fchem: float, Qcont: float, Nsites: float) -> float:
    """Containers emptied per site-year, before rounding [containers/site-yr].

    Ncont_site_yr = Qchem_yr / (Fchem × Qcont × Nsites)

    Parameters
    ----------
    Qchem_yr : production volume of the chemical (packaged and sold) [kg/yr]
    Fchem : mass fraction of the chemical in the photoresist [kg/kg]
    Qcont : photoresist per container [kg/container]
    Nsites : number of sites [sites]

    Notes
    -----
    ESD 2010, Eqn 3-4, Section 3.6. Uses the whole Qchem_yr (the amount shipped), where
    Eqn 3-3 uses the amount dispensed.

    >>> round(containers_per_site_year(5_000, 0.15, 3.8, 3), 2)  # §6.1.5 prints 2,924
    2923.98
    """
    return Qchem_yr / (Fchem * Qcont * Nsites)


@equation("Ncont_site_yr", "containers/site-yr", "Ncont_site_yr rounded up to whole containers",
          f"{ESD_2010} §6.1.5 (rounded up to whole containers, as the worked example does)",
          label="Containers per site-year rounded up to a whole container")
def whole_containers(Ncont_site_yr: float) -> int:
    """Containers per site-year rounded up to a whole container [containers/site-yr].

    Parameters
    ----------
    Ncont_site_yr : containers per site-year from Eqn 3-4 [containers/site-yr]

    Notes
    -----
    ESD 2010 states no rule; Section 6.1.5 prints 2,924 for 2,923.98, and a partly used
    container is still a container emptied (INTERFACE.md: counts are rounded up).

    >>> whole_containers(2923.977)
    2924
    """
    return round_up_count(Ncont_site_yr)


# --- Releases (Section 4) -------------------------------------------------------------


@equation(
    "Qchem_received_day", "kg chemical received/site-day", "Qchem_day / (1 − Fcontainer_disp)",
    f"{ESD_2010} §4.2 footnote to Eqn 4-1b",
    label="Daily amount of the chemical received at a site, before dispensing",
)
def chemical_received_daily(Qchem_day: float, Fcontainer_disp: float) -> float:
    """Daily amount of the chemical received at a site, before dispensing [kg/site-day].

    Qchem_received_day = Qchem_day / (1 − Fcontainer_disp)

    Parameters
    ----------
    Qchem_day : daily dispense rate [kg/site-day]
    Fcontainer_disp : fraction left in the containers [-], less than 1

    Notes
    -----
    ESD 2010, Section 4.2, footnote to Eqn 4-1b.

    >>> round(chemical_received_daily(4.60, 0.006), 2)  # ESD 2010 §6.2.1: 4.63
    4.63
    """
    return Qchem_day / (1 - Fcontainer_disp)


@equation(
    "Elocalcontainer_residue_disp", "kg chemical/site-day",
    "Qcont × Fchem × Fcontainer_disp × Ncont_site_day", f"{ESD_2010} Eqn 4-1a, §4.2",
    label="Container residue on a day containers are emptied, fewer than one a day",
)
def container_residue_release_few(Qcont: float, Fchem: float, Fcontainer_disp: float, Ncont_site_day: float) -> float:
    """Container residue on a day containers are emptied, fewer than one a day [kg/site-day].

    Elocal_container_residue_disp = Qcont × Fchem × Fcontainer_disp × Ncont_site_day

    Parameters
    ----------
    Qcont : photoresist per container [kg/container]
    Fchem : mass fraction of the chemical [kg/kg]
    Fcontainer_disp : fraction left in the container [-]
    Ncont_site_day : containers emptied per site-day [containers/site-day]

    Notes
    -----
    ESD 2010, Eqn 4-1a, Section 4.2: used when Ncont_site_yr < TIMEapply_days; the
    release occurs over Ncont_site_yr days.

    >>> round(container_residue_release_few(3.8, 0.15, 0.006, 1), 5)
    0.00342
    """
    return Qcont * Fchem * Fcontainer_disp * Ncont_site_day


@equation(
    "Elocalcontainer_residue_disp", "kg chemical/site-day", "Qchem_received_day × Fcontainer_disp",
    f"{ESD_2010} Eqn 4-1b, §4.2",
    label="Container residue when one or more containers are emptied a day",
)
def container_residue_release_daily(Qchem_received_day: float, Fcontainer_disp: float) -> float:
    """Container residue when one or more containers are emptied a day [kg/site-day].

    Elocal_container_residue_disp = Qchem_received_day × Fcontainer_disp

    Parameters
    ----------
    Qchem_received_day : chemical received per site-day [kg/site-day]
    Fcontainer_disp : fraction left in the container [-]

    Notes
    -----
    ESD 2010, Eqn 4-1b, Section 4.2 (the EPA/OPPT Small Container Residual Model,
    Appendix B Eq B-11): used when Ncont_site_yr ≥ TIMEapply_days (Table B-4: "1 or
    more" containers a day); over TIMEapply_days.

    >>> round(container_residue_release_daily(4.63, 0.006), 4)  # ESD 2010 §6.2.1: 0.0278
    0.0278
    """
    return residue.loss_fraction_release(Qchem_received_day, Fcontainer_disp)


@equation(
    "TIMEdays_container_residue", "days/site-yr", "Ncont_site_yr / Ncont_site_day, rounded up",
    f"{ESD_2010} Eqn 4-1a, §4.2 ('over [Ncont_site_yr] days/year'), with Table B-4",
    label="Days a year on which containers are emptied, when fewer than one a day",
)
def container_release_days(Ncont_site_yr: int, Ncont_site_day: int) -> int:
    """Days a year on which containers are emptied, when fewer than one a day [days/yr].

    Parameters
    ----------
    Ncont_site_yr : containers emptied per site-year [containers/site-yr]
    Ncont_site_day : containers emptied on each such day [containers/site-day]

    Notes
    -----
    ESD 2010, Eqn 4-1a, Section 4.2 prints "over [Ncont_site_yr] days/year" for its
    default of one container a day. A reviewer who enters several containers a day
    empties them on fewer days; dividing keeps the annual residue equal to the residue
    of the containers actually emptied (Table B-4 counts days on which containers are
    emptied). Equal to Ncont_site_yr at the ESD's default.

    >>> container_release_days(120, 1), container_release_days(120, 2), container_release_days(7, 2)
    (120, 60, 4)
    """
    return round_up_count(Ncont_site_yr / Ncont_site_day)


@equation("Elocalequip_disp", "kg chemical/site-day", "Qchem_day × Fequip_disp", f"{ESD_2010} Eqn 4-2, §4.3",
          label="Daily release of the chemical in equipment-cleaning residue")
def equipment_cleaning_release(Qchem_day: float, Fequip_disp: float) -> float:
    """Daily release of the chemical in equipment-cleaning residue [kg/site-day].

    Elocal_equip_disp = Qchem_day × Fequip_disp

    Parameters
    ----------
    Qchem_day : daily dispense rate [kg/site-day]
    Fequip_disp : fraction left in the equipment as residue [-]
        (EPA/OPPT Single Process Vessel Residual Model, 0.01)

    Notes
    -----
    ESD 2010, Eqn 4-2, Section 4.3 (Appendix B Eq B-12).

    >>> round(equipment_cleaning_release(4.6018519, 0.01), 4)  # ESD 2010 §6.2.2: 0.046
    0.046
    """
    return residue.loss_fraction_release(Qchem_day, Fequip_disp)


@equation(
    "interval_days", "days/cleaning", "TIMEapply_days / cleanings_per_year",
    f"{ESD_2010} §4.3 note (the residue of the application days between two cleanings)",
    label="Application days between two cleanings of the application equipment",
)
def cleaning_interval(TIMEapply_days: float, cleanings_per_year: int) -> float:
    """Application days between two cleanings of the application equipment [days].

    interval = TIMEapply_days / cleanings_per_year

    Parameters
    ----------
    TIMEapply_days : days of application per year [days/yr]
    cleanings_per_year : cleanings a year [1/yr], at most TIMEapply_days

    Notes
    -----
    ESD 2010, Section 4.3 note: "the residues accumulate in the equipment each day that it
    is not cleaned", estimated by "multiplying the daily amount of residue ... by the
    number of days of the cleaning interval". Residue accumulates on the days the
    equipment is used, so the interval is the application days between cleanings, and
    cleanings × interval = TIMEapply_days: the annual residue is the daily residue times
    the application days, whatever the frequency.

    The note's examples, 30, 14 and 7 days for 12, 26 and 52 cleanings a year, are
    calendar intervals (a month, two weeks, a week; 365/12 = 30.4, 365/26 = 14.04,
    365/52 = 7.02). At the default 360 application days this rule gives 30, 13.8 and 6.9:
    the monthly example exactly, the other two within 1.1 % (26 × 14 and 52 × 7 would
    accumulate 364 days of residue in a 360-day year). Rounding to calendar days instead
    swings the annual residue by −32 % to +33 % (e.g. 250 days, monthly: 360 days of
    residue). A ``cleaning_interval_days`` entered by the reviewer replaces this interval.

    >>> [round(cleaning_interval(360, n), 2) for n in (12, 26, 52)]  # §4.3 prints 30, 14, 7 (calendar)
    [30.0, 13.85, 6.92]
    >>> cleaning_interval(250, 12) * 12
    250.0
    """
    return TIMEapply_days / cleanings_per_year


@equation(
    "Elocalequip_disp", "kg chemical/site-day of cleaning", "Elocalequip_disp (daily) × interval_days",
    f"{ESD_2010} §4.3 note to Eqn 4-2",
    label="Residue released on each cleaning day when cleaning is less than daily",
)
def accumulated_cleaning_release(Elocalequip_disp: float, interval_days: float) -> float:
    """Residue released on each cleaning day when cleaning is less than daily [kg/site-day].

    Elocal_equip_disp(per cleaning) = Elocal_equip_disp(daily) × interval_days

    Parameters
    ----------
    Elocalequip_disp : daily residue from Eqn 4-2 [kg/site-day]
    interval_days : days of the cleaning interval [days]

    Notes
    -----
    ESD 2010, Section 4.3 note: "multiplying the daily amount of residue ... by the
    number of days of the cleaning interval"; released on cleanings_per_year days.

    >>> round(accumulated_cleaning_release(0.046, 30), 2)
    1.38
    """
    return Elocalequip_disp * interval_days


@equation(
    "Elocalexcess_disp", "kg chemical/site-day", "Qchem_day × (1 − Fequip_disp) × (1 − Fphoto_wafer)",
    f"{ESD_2010} Eqn 4-3, §4.4",
    label="Daily release of excess (spun-off) photoresist chemical",
)
def spin_off_release(Qchem_day: float, Fequip_disp: float, Fphoto_wafer: float) -> float:
    """Daily release of excess (spun-off) photoresist chemical [kg/site-day].

    Elocal_excess_disp = Qchem_day × (1 − Fequip_disp) × (1 − Fphoto_wafer)

    Parameters
    ----------
    Qchem_day : daily dispense rate [kg/site-day]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction of the applied chemical adhering to the wafer [-]

    Notes
    -----
    ESD 2010, Eqn 4-3, Section 4.4.

    >>> round(spin_off_release(4.60, 0.01, 0.07), 1), round(spin_off_release(4.60, 0.01, 0.01), 1)
    (4.2, 4.5)
    """
    return Qchem_day * (1 - Fequip_disp) * (1 - Fphoto_wafer)


@equation(
    "Elocaldeveloper", "kg chemical/site-day", "Qchem_day × (1 − Fequip_disp) × Fphoto_wafer × Fphoto_develop",
    f"{ESD_2010} Eqn 4-4, §4.5",
    label="Daily release of the chemical in waste developer solution",
)
def developer_release(Qchem_day: float, Fequip_disp: float, Fphoto_wafer: float, Fphoto_develop: float) -> float:
    """Daily release of the chemical in waste developer solution [kg/site-day].

    Elocal_developer = Qchem_day × (1 − Fequip_disp) × Fphoto_wafer × Fphoto_develop

    Parameters
    ----------
    Qchem_day : daily dispense rate [kg/site-day]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction adhering to the wafer [-]
    Fphoto_develop : fraction of the adhered chemical removed in development [-]

    Notes
    -----
    ESD 2010, Eqn 4-4, Section 4.5.

    >>> round(developer_release(4.60, 0.01, 0.01, 0.5), 3), round(developer_release(4.60, 0.01, 0.07, 0.5), 2)
    (0.023, 0.16)
    """
    return Qchem_day * (1 - Fequip_disp) * Fphoto_wafer * Fphoto_develop


@equation(
    "Elocaletch_strip_disp", "kg chemical/site-day",
    "Qchem_day × (1 − Fequip_disp) × Fphoto_wafer × (1 − Fphoto_develop)", f"{ESD_2010} Eqn 4-5, §4.6",
    label="Daily release of the chemical in waste etching and stripping solutions",
)
def etch_strip_release(Qchem_day: float, Fequip_disp: float, Fphoto_wafer: float, Fphoto_develop: float) -> float:
    """Daily release of the chemical in waste etching and stripping solutions [kg/site-day].

    Elocal_etch_strip_disp = Qchem_day × (1 − Fequip_disp) × Fphoto_wafer × (1 − Fphoto_develop)

    Parameters
    ----------
    Qchem_day : daily dispense rate [kg/site-day]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction adhering to the wafer [-]
    Fphoto_develop : fraction removed in development [-]

    Notes
    -----
    ESD 2010, Eqn 4-5, Section 4.6 (Section 6.2.5 labels the result "Elocaldeveloper", a
    typo; the "Where" list spells it Elocaletch_strip_disposal).

    >>> round(etch_strip_release(4.60, 0.01, 0.01, 0.5), 3), round(etch_strip_release(4.60, 0.01, 0.07, 0.5), 2)
    (0.023, 0.16)
    """
    return Qchem_day * (1 - Fequip_disp) * Fphoto_wafer * (1 - Fphoto_develop)


# --- Workers and dermal exposure (Section 5) -------------------------------------------


@equation(
    "Noperators_site_day", "workers/site-day", "Noperators_line_shift × Nlines_site × Nshifts_day",
    f"{ESD_2010} Eqn 5-1, §5.2.1",
    label="Equipment operators handling photoresist per site-day",
)
def operators_per_site(Noperators_line_shift: int, Nlines_site: int, Nshifts_day: int) -> int:
    """Equipment operators handling photoresist per site-day [workers/site-day].

    Noperators_site_day = Noperators_line_shift × Nlines_site × Nshifts_day

    Parameters
    ----------
    Noperators_line_shift : operators per spin-coating line and shift [workers/line-shift]
    Nlines_site : spin-coating lines per site [lines/site]
    Nshifts_day : shifts per day [shifts/day]

    Notes
    -----
    ESD 2010, Eqn 5-1, Section 5.2.1 (Table A-3 prints Nlines_site as Nlines_shift).

    >>> operators_per_site(2, 8, 3)  # ESD 2010 §6.3.1: 48
    48
    """
    return Noperators_line_shift * Nlines_site * Nshifts_day


@equation("Ntechs_site_day", "workers/site-day", "Ntechs_shift × Nshifts_day", f"{ESD_2010} Eqn 5-2, §5.2.2",
          label="Maintenance/waste-management technicians per site-day")
def technicians_per_site(Ntechs_shift: int, Nshifts_day: int) -> int:
    """Maintenance/waste-management technicians per site-day [workers/site-day].

    Ntechs_site_day = Ntechs_shift × Nshifts_day

    Parameters
    ----------
    Ntechs_shift : technicians per shift [workers/shift]
    Nshifts_day : shifts per day [shifts/day]

    Notes
    -----
    ESD 2010, Eqn 5-2, Section 5.2.2.

    >>> technicians_per_site(6, 3)  # ESD 2010 §6.3.2: 18
    18
    """
    return Ntechs_shift * Nshifts_day


@equation(
    "EXPdermal", "mg chemical/day", "Qliquid_skin × AREAsurface × Nexp_incident × Fchem",
    f"{ESD_2010} Eqn 5-3 to 5-6, §5.3 to 5.6",
    label="Potential dermal exposure to the chemical in liquid photoresist",
)
def dermal_exposure(Qliquid_skin: float, AREAsurface: float, Nexp_incident: float, Fchem: float) -> float:
    """Potential dermal exposure to the chemical in liquid photoresist [mg/day].

    EXPdermal = Qliquid_skin × AREAsurface × Nexp_incident × Fchem

    Parameters
    ----------
    Qliquid_skin : photoresist remaining on the skin [mg/cm²-incident]
    AREAsurface : skin area contacted [cm²] (one hand or two hands)
    Nexp_incident : exposure incidents per day [incidents/day]
    Fchem : mass fraction of the chemical in the photoresist [mg/mg]

    Notes
    -----
    ESD 2010, Eqn 5-3 (Exposure A, one hand) to 5-6 (Exposures B to D, two hands),
    Sections 5.3 to 5.6; the EPA/OPPT Dermal Contact with Liquid models (Appendix B,
    Eq B-16). ESD 2004 Eqn 3-9, p. 17, is the same.

    >>> round(dermal_exposure(0.7, 420, 1, 0.15), 1), round(dermal_exposure(2.1, 420, 1, 0.15), 1)
    (44.1, 132.3)
    """
    return dermal.dermal_dose(AREAsurface, Qliquid_skin, Fchem, Nexp_incident)


@equation(
    "EXPdermal", "mg chemical/day", "Qliquid_skin × AREAsurface × Nexp_incident × Fchem × Fphoto_waste",
    f"{ESD_2010} Eqn 5-7, §5.7",
    label="Dermal exposure to the chemical in collected waste solvent (Exposure E)",
)
def waste_solvent_dermal_exposure(
    Qliquid_skin: float, AREAsurface: float, Nexp_incident: float, Fchem: float, Fphoto_waste: float
) -> float:
    """Dermal exposure to the chemical in collected waste solvent (Exposure E) [mg/day].

    EXPdermal = Qliquid_skin × AREAsurface × Nexp_incident × Fchem × Fphoto_waste

    Parameters
    ----------
    Qliquid_skin : liquid remaining on the skin [mg/cm²-incident]
    AREAsurface : skin area contacted [cm²] (two hands)
    Nexp_incident : exposure incidents per day [incidents/day]
    Fchem : mass fraction of the chemical in the photoresist [mg/mg]
    Fphoto_waste : mass fraction of photoresist in the waste solvent [mg/mg]

    Notes
    -----
    ESD 2010, Eqn 5-7, Section 5.7.

    >>> round(waste_solvent_dermal_exposure(0.7, 840, 1, 0.15, 0.01), 3)  # §6.3.7: 0.88
    0.882
    """
    return dermal.dermal_dose(AREAsurface, Qliquid_skin, Fchem * Fphoto_waste, Nexp_incident)


@equation(
    "days_exposure", "days/yr", "the lesser of the activity's days and max_exposure_days",
    f"{ESD_2010} §5.3 to 5.7 ('up to 250' days/yr per worker)",
    label="Days a year a worker is exposed in an activity",
)
def exposure_days(activity_days: float, max_exposure_days: float) -> float:
    """Days a year a worker is exposed in an activity [days/yr].

    days = min(activity days, max_exposure_days)

    Parameters
    ----------
    activity_days : days a year the activity happens [days/yr] (e.g. the lesser of
        Ncont_site_yr and TIMEapply_days, or the cleanings a year)
    max_exposure_days : days a year one worker works [days/yr] (250)

    Notes
    -----
    ESD 2010, Sections 5.3 to 5.7 and Table A-3; ESD 2004 ¶63, p. 17.

    >>> exposure_days(min(2924, 360), 250), exposure_days(52, 250)
    (250, 52)
    """
    return min(activity_days, max_exposure_days)
