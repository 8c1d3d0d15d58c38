"""ESD 2015's equations for the fab (§3, §4) and the precursor's density (Appendix B),
one pure function each.

Symbols keep the document's spelling so the code reads beside it. Each function carries
its trace metadata (:func:`~assessments.esd.calc.equation`); the doctests re-run the
document's sample calculations (§6, Table B-1). Appendices C and D (the supplier site) are
in :mod:`.equations_supplier`.
"""

from __future__ import annotations

from ..calc import equation
from ..counts import round_up_count
from .constants import DOC, G_PER_KG, R_GAS

# --- General facility estimates (§3) -------------------------------------------------


@equation("Qchem_site_day", "kg/site-day", "Qchem_site_yr / TIME_operating_days", f"{DOC} Eqn 3-1, §3.5",
          label="Daily use rate of the precursor at one site")
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


@equation(
    "Nsites", "sites", "Qchem_yr × (1 − Fcontainer_disp) / (Qchem_site_day × TIME_operating_days)",
    f"{DOC} Eqn 3-2, §3.6",
    label="Number of sites using the precursor, before rounding up",
)
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


@equation("Nsites", "sites", "ceil(Nsites_unrounded)", f"{DOC} §3.6 footnote 9",
          label="The number of sites rounded up to a whole number")
def whole_sites(Nsites_unrounded: float) -> int:
    """The number of sites rounded up to a whole number [sites].

    N_sites = ceil(N_sites from Eqn 3-2)

    Parameters
    ----------
    Nsites_unrounded : number of sites from Eqn 3-2 [sites]

    Notes
    -----
    ESD 2015, §3.6 footnote 9: "rounded up to the nearest integer"; §6.1.3 prints 10 sites
    for 9.86.

    >>> whole_sites(9.861)
    10
    """
    return round_up_count(Nsites_unrounded)


@equation(
    "Qchem_site_day", "kg/site-day", "(1 − Fcontainer_disp) × Qchem_yr / (Nsites × TIME_operating_days)",
    f"{DOC} §3.6 summary box (footnote 9 omits (1 − Fcontainer_disp))",
    label="Daily use rate for a whole (rounded or known) number of sites",
)
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
    the summary box's form is used because it inverts Eqn 3-2 (package docstring, decision 2).

    >>> round(daily_use_rate_for_sites(10000, 0.1, 9, 360), 4)
    2.7778
    """
    return (1.0 - Fcontainer_disp) * Qchem_yr / (Nsites * TIME_operating_days)


@equation("Qchem_site_day", "kg/site-day", "Qchem_site_day_eqn_3_1", f"{DOC} §6.1 (the sample keeps the Eqn 3-1 value)",
          label="The daily use rate the §6 sample keeps after rounding the sites up")
def kept_daily_use_rate(Qchem_site_day_eqn_3_1: float) -> float:
    """The daily use rate the §6 sample keeps after rounding the sites up [kg/site-day].

    Q_chem_site_day = Q_chem_site_day from Eqn 3-1

    Parameters
    ----------
    Qchem_site_day_eqn_3_1 : daily use rate from Eqn 3-1 [kg/site-day]

    Notes
    -----
    ESD 2015, §6.1.3 and §6.1.4: the sample finds 10 sites and goes on with 2.8
    kg/site-day (``Qchem_site_day_basis = "eqn_3_1"``; package docstring, decision 2).

    >>> kept_daily_use_rate(2.8)
    2.8
    """
    return Qchem_site_day_eqn_3_1


@equation(
    "Ncontainer_unload_site_yr", "containers/site-yr",
    "Qchem_site_day × TIME_operating_days / (Fchem × Vcontainer × RHOformulation)",
    f"{DOC} Eqn 3-3 (Table A-1 form), §3.7",
    label="Transport containers unloaded per site a year, before rounding up",
)
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
    numerator; package docstring, decision 3). Sample §6.1.4.1 prints 17 (liquid), §6.1.4.2
    "~19" (gas, 0.90 kg/L).

    >>> round(containers_unloaded_per_site_year(2.8, 360, 1.0, 60.6, 1.0), 2)
    16.63
    """
    return Qchem_site_day * TIME_operating_days / (Fchem * Vcontainer * RHOformulation)


@equation(
    "Ncontainer_unload_site_yr", "containers/site-yr", "ceil(Ncontainer_unload_site_yr_unrounded)",
    f"{DOC} §6.1.4 (rounded up)",
    label="Containers unloaded per site a year, rounded up",
)
def whole_containers(Ncontainer_unload_site_yr_unrounded: float) -> int:
    """Containers unloaded per site a year, rounded up [containers/site-yr].

    N_container_unload_site_yr = ceil(N from Eqn 3-3)

    Parameters
    ----------
    Ncontainer_unload_site_yr_unrounded : containers from Eqn 3-3 [containers/site-yr]

    Notes
    -----
    ESD 2015, §6.1.4.1 prints 17 for 16.6, §6.1.4.2 "~19" for 18.5 (no rule is stated;
    package docstring, decision 4).

    >>> whole_containers(16.63), whole_containers(18.48)
    (17, 19)
    """
    return round_up_count(Ncontainer_unload_site_yr_unrounded)


# --- The precursor's density (§3.7, Appendix B) ---------------------------------------


@equation("RHOformulation", "kg/L", "m / Vcontainer", f"{DOC} App. B Method 1, Eqn B-1",
          label="Density of the precursor in its container from the fill mass")
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


@equation("MW", "kg/mol", "MW_chem / 1000", f"{DOC} Eqn B-2 (MW in kg/mol)",
          label="Molecular weight in the unit Eqn B-2 takes")
def molecular_weight_kg_mol(MW_chem: float) -> float:
    """Molecular weight in the unit Eqn B-2 takes [kg/mol].

    MW = MW_chem / 1,000 g/kg

    Parameters
    ----------
    MW_chem : molecular weight [g/mol]

    Notes
    -----
    ESD 2015, Appendix B, Eqn B-2 where-list (MW in kg/mol); §6.1.4.2 enters 0.032 kg/mol.

    >>> molecular_weight_kg_mol(32)
    0.032
    """
    return MW_chem / G_PER_KG


@equation("Vmolar", "L/mol", "z × R × T / P", f"{DOC} App. B Method 2, Eqn B-2",
          label="Molar volume of a compressed gas from the generalised equation of state")
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


@equation("RHOformulation", "kg/L", "MW × P / (z × R × T)", f"{DOC} App. B Method 2, Eqn B-2",
          label="Density of a compressed gaseous precursor")
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


@equation("RHOformulation", "kg/L", "MW / Vmolar", f"{DOC} App. B Eqn B-2",
          label="Density of a compressed gas from its molar volume")
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


@equation("T_r", "", "T / Tc", f"{DOC} Eqn B-3", label="Reduced temperature, to read z from the compressibility chart")
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


@equation("P_r", "", "P / Pc", f"{DOC} Eqn B-3", label="Reduced pressure, to read z from the compressibility chart")
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


# --- Release 1 (§4.3) ------------------------------------------------------------------


@equation("Elocal_control", "kg/site-day", "Qchem_site_day × (1 − U_process)", f"{DOC} Eqn 4-1, §4.3",
          label="Unreacted precursor vented from the chamber to POU abatement")
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


@equation("Qconsumed", "kg/site-day", "Qchem_site_day × U_process", f"{DOC} §4.3 ¶59 (definition of utilisation)",
          label="Precursor consumed (reacted) in deposition")
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


@equation("Elocal_process_disp", "kg/site-day", "Elocal_control × (1 − EF)", f"{DOC} Eqn 4-2, §4.3",
          label="Precursor passing POU abatement to central house abatement")
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


@equation("Qdestroyed", "kg/site-day", "Elocal_control × EF", f"{DOC} §4.3 ¶61 (the complement of Eqn 4-2)",
          label="Precursor captured or destroyed by POU abatement")
def destroyed_in_abatement(Elocal_control: float, EF: float) -> float:
    """Precursor captured or destroyed by POU abatement [kg/site-day].

    Q_destroyed = Elocal_control × EF

    Parameters
    ----------
    Elocal_control : release to POU control, Eqn 4-1 [kg/site-day]
    EF : efficiency of the POU control technology [kg captured/kg vented]

    Notes
    -----
    ESD 2015, §4.3 ¶61: EF is the fraction the abatement removes; what it removes does not
    reach Eqn 4-2's release. Sample §6.2.1: 1.4 × 0.99 = 1.386 kg/site-day (hand calculation).

    >>> round(destroyed_in_abatement(1.4, 0.99), 3)
    1.386
    """
    return Elocal_control * EF
