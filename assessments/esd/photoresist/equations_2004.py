"""The 2004 edition's equations where they differ from 2010's.

The 2004 edition applies the container residue to the daily use rate (Eqn 3-4) and keeps
a (1 − F_container_disp) factor in Eqns 3-5 to 3-8, which the 2010 revision dropped when
it defined Qchem_day as the amount dispensed. Eqns 3-1 to 3-3 and 3-9 have the 2010 form
(see :mod:`.equations`; the scenario cites the 2004 numbers for them). Doctests re-run
ESD 2004 Section 4 (¶64, pp. 18-20); pages are the edition's printed page numbers.
"""

from __future__ import annotations

from ..calc import equation
from ..models import residue
from .constants import ESD_2004


@equation(
    "Elocalcontainer_residue_disp", "kg/site-day", "Qchem_day × Fcontainer_disp",
    f"{ESD_2004} Eqn 3-4, §3.2.1, p. 13",
    label="Daily container-residue release, applied to the daily use rate",
)
def container_residue_release_2004(Qchem_day: float, Fcontainer_disp: float) -> float:
    """Daily container-residue release, applied to the daily use rate [kg/site-day].

    Elocal_container_residue_disp = Qchem_day × Fcontainer_disp

    Parameters
    ----------
    Qchem_day : daily use rate of the chemical [kg/site-day]
    Fcontainer_disp : fraction of photoresist left in the containers [-]

    Notes
    -----
    ESD 2004, Eqn 3-4, §3.2.1, p. 13 (subscript printed "residure"). ¶49: several bottles
    are used a day, so the release is daily. The variable list sends it "to incineration or
    landfill"; ¶48, Table B-1 and the example say water, land or incineration, which the
    scenario follows.

    >>> round(container_residue_release_2004(5.4, 0.006), 3)  # ESD 2004 §4, p. 18: 0.032
    0.032
    """
    return residue.loss_fraction_release(Qchem_day, Fcontainer_disp)


@equation(
    "Elocalequip_disp", "kg/site-day", "Qchem_day × (1 − Fcontainer_disp) × Fequip_disp",
    f"{ESD_2004} Eqn 3-5, §3.2.2, p. 14",
    label="Daily equipment-cleaning release, 1 % of the use less the container residue",
)
def equipment_cleaning_release_2004(Qchem_day: float, Fcontainer_disp: float, Fequip_disp: float) -> float:
    """Daily equipment-cleaning release, 1 % of the use less the container residue [kg/site-day].

    Elocal_equip_disp = Qchem_day × (1 − Fcontainer_disp) × Fequip_disp

    Parameters
    ----------
    Qchem_day : daily use rate [kg/site-day]
    Fcontainer_disp : fraction left in the containers [-]
    Fequip_disp : fraction left in the equipment [-]

    Notes
    -----
    ESD 2004, Eqn 3-5, §3.2.2, p. 14.

    >>> round(equipment_cleaning_release_2004(5.4, 0.006, 0.01), 3)  # p. 19: 0.054
    0.054
    """
    return Qchem_day * (1 - Fcontainer_disp) * Fequip_disp


@equation(
    "Elocalexcess_disp", "kg/site-day",
    "Qchem_day × (1 − Fcontainer_disp) × (1 − Fequip_disp) × (1 − Fphoto_wafer)",
    f"{ESD_2004} Eqn 3-6, §3.2.3, p. 14",
    label="Daily application-excess (spin-off) release",
)
def spin_off_release_2004(Qchem_day: float, Fcontainer_disp: float, Fequip_disp: float, Fphoto_wafer: float) -> float:
    """Daily application-excess (spin-off) release [kg/site-day].

    Elocal_excess_disp = Qchem_day × (1 − Fcontainer_disp) × (1 − Fequip_disp) × (1 − Fphoto_wafer)

    Parameters
    ----------
    Qchem_day : daily use rate [kg/site-day]
    Fcontainer_disp : fraction left in the containers [-]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction of the dispensed photoresist adhering to the wafer [-]

    Notes
    -----
    ESD 2004, Eqn 3-6, §3.2.3, p. 14.

    >>> round(spin_off_release_2004(5.4, 0.006, 0.01, 0.07), 1), round(spin_off_release_2004(5.4, 0.006, 0.01, 0.01), 1)
    (4.9, 5.3)
    """
    return Qchem_day * (1 - Fcontainer_disp) * (1 - Fequip_disp) * (1 - Fphoto_wafer)


@equation(
    "Elocaldeveloper", "kg/site-day",
    "Qchem_day × (1 − Fcontainer_disp) × (1 − Fequip_disp) × Fphoto_wafer × Fphoto_develop",
    f"{ESD_2004} Eqn 3-7, §3.2.4, p. 15",
    label="Daily release in waste developer",
)
def developer_release_2004(
    Qchem_day: float, Fcontainer_disp: float, Fequip_disp: float, Fphoto_wafer: float, Fphoto_develop: float
) -> float:
    """Daily release in waste developer [kg/site-day].

    Elocal_developer = Qchem_day × (1 − Fcontainer_disp) × (1 − Fequip_disp) × Fphoto_wafer × Fphoto_develop

    Parameters
    ----------
    Qchem_day : daily use rate [kg/site-day]
    Fcontainer_disp : fraction left in the containers [-]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction adhering to the wafer [-]
    Fphoto_develop : fraction removed in development [-]

    Notes
    -----
    ESD 2004, Eqn 3-7, §3.2.4, p. 15.

    >>> round(developer_release_2004(5.4, 0.006, 0.01, 0.01, 0.5), 3)  # p. 19: 0.027
    0.027
    """
    return Qchem_day * (1 - Fcontainer_disp) * (1 - Fequip_disp) * Fphoto_wafer * Fphoto_develop


@equation(
    "Elocaletch_strip_disp", "kg/site-day",
    "Qchem_day × Fphoto_wafer × (1 − Fcontainer_disp) × (1 − Fequip_disp) × (1 − Fphoto_develop)",
    f"{ESD_2004} Eqn 3-8, §3.2.5, p. 15",
    label="Daily release in waste etching and stripping solutions",
)
def etch_strip_release_2004(
    Qchem_day: float, Fcontainer_disp: float, Fequip_disp: float, Fphoto_wafer: float, Fphoto_develop: float
) -> float:
    """Daily release in waste etching and stripping solutions [kg/site-day].

    Elocal_etch_strip_disp = Qchem_day × Fphoto_wafer × (1 − Fcontainer_disp) × (1 − Fequip_disp) × (1 − Fphoto_develop)

    Parameters
    ----------
    Qchem_day : daily use rate [kg/site-day]
    Fcontainer_disp : fraction left in the containers [-]
    Fequip_disp : fraction left in the equipment [-]
    Fphoto_wafer : fraction adhering to the wafer [-]
    Fphoto_develop : fraction removed in development [-]

    Notes
    -----
    ESD 2004, Eqn 3-8, §3.2.5, p. 15.

    >>> round(etch_strip_release_2004(5.4, 0.006, 0.01, 0.01, 0.5), 3)  # p. 19: 0.027
    0.027
    """
    return Qchem_day * Fphoto_wafer * (1 - Fcontainer_disp) * (1 - Fequip_disp) * (1 - Fphoto_develop)


@equation(
    "TIMEapply_days", "days/yr", "(1 − Fcontainer_disp) × Qchem_yr / (Qchem_day × Nsites)",
    f"{ESD_2004} Eqn 3-3 footnote 5, p. 12",
    label="Days of application when Eqn 3-3 gives less than one site",
)
def application_days_for_one_site(Fcontainer_disp: float, Qchem_yr: float, Qchem_day: float, Nsites: int) -> float:
    """Days of application when Eqn 3-3 gives less than one site [days/yr].

    TIMEapply_days = (1 − Fcontainer_disp) × Qchem_yr / (Qchem_day × Nsites)

    Parameters
    ----------
    Fcontainer_disp : fraction left in the containers [-]
    Qchem_yr : production volume [kg/yr]
    Qchem_day : daily use rate [kg/site-day]
    Nsites : number of sites, set to 1 [sites]

    Notes
    -----
    ESD 2004, footnote 5 to Eqn 3-3, p. 12: "If Nsites is calculated to be less than one
    ... Nsites should be assumed to be one and TIMEapply_days should be recalculated".

    >>> round(application_days_for_one_site(0.006, 500, 5.4, 1), 1)
    92.0
    """
    return (1 - Fcontainer_disp) * Qchem_yr / (Qchem_day * Nsites)
