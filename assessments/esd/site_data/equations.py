"""EIIP Volume II Chapter 6's equations, one pure function each.

Units stay EIIP's (lb/hr, gal, dscf, ft³, psia, °R) up to the annual emission; the last
two functions convert it once to the engine's kg/site-yr and kg/site-day. Each function
carries, through :func:`~assessments.esd.calc.equation`, the symbol the calculation trace
records it under: the document's own symbol, except ``E_x_sat`` (Eqn 6.5-4's E_x before
a dilution ratio is applied) and the engine's ``kg_site_yr`` and ``kg_site_day``.
Doctests re-run the document's worked examples (Examples 6.4-1 to 6.5-4).
"""

from __future__ import annotations

from ..calc import equation
from .constants import (
    DOC,
    K_CONSTANT,
    KG_PER_LB,
    LB_PER_TON,
    M_STANDARD,
    MW_WATER,
    R_PSIA_FT3,
    SECONDS_PER_HOUR,
)


@equation("E_x", "lb/hr", "(Q_in − Q_out) × C_x", f"{DOC} Eqn 6.4-1",
          label="Emissions of a pollutant by material balance on its content")
def material_balance_emissions(Q_in: float, Q_out: float, C_x: float) -> float:
    """Emissions of a pollutant by material balance on its content [lb/hr].

    E_x = (Q_in − Q_out) × C_x

    Parameters
    ----------
    Q_in : material entering the process [gal/hr]
    Q_out : material leaving as waste, recovered or in product [gal/hr]
    C_x : concentration (content) of pollutant x in the material [lb/gal]

    Notes
    -----
    EIIP, Eqn 6.4-1, §4.1 (p.6.4-2); Example 6.4-1 prints 3.75 lb VOC/hr.

    >>> material_balance_emissions(2, 1.5, 7.5)
    3.75
    """
    return (Q_in - Q_out) * C_x


@equation("E_x", "lb/hr", "(Q_in − Q_out) × d × wt%_x / 100", f"{DOC} Eqn 6.4-2",
          label="Emissions of one pollutant by material balance on the material's composition")
def speciated_material_balance_emissions(Q_in: float, Q_out: float, d: float, wt_pct_x: float) -> float:
    """Emissions of one pollutant by material balance on the material's composition [lb/hr].

    E_x = (Q_in − Q_out) × d × wt%_x / 100

    Parameters
    ----------
    Q_in : material entering the process [gal/hr]
    Q_out : material leaving as waste, recovered or in product [gal/hr]
    d : density of the material [lb/gal]
    wt_pct_x : percentage by weight of pollutant x in the material [%]

    Notes
    -----
    EIIP, Eqn 6.4-2, §4.1 (p.6.4-3); Example 6.4-2 prints 0.94 lb toluene/hr.

    >>> round(speciated_material_balance_emissions(2, 1.5, 7.5, 25), 2)
    0.94
    """
    return (Q_in - Q_out) * d * wt_pct_x / 100.0


@equation("E_x", "lb/hr", "C_x × MW_x × V / (M × 10^6)", f"{DOC} Eqn 6.4-3",
          label="Emission rate from a measured stack concentration and gas flow")
def source_test_emissions(C_x: float, MW_x: float, V: float, M: float = M_STANDARD) -> float:
    """Emission rate from a measured stack concentration and gas flow [lb/hr].

    E_x = C_x × MW_x × V / (M × 10^6)

    Parameters
    ----------
    C_x : concentration of pollutant x [ppmvd]
    MW_x : molecular weight of pollutant x [lb/lb-mole]
    V : stack gas volumetric flow rate [dscf/hr]
    M : molar volume [ft³/lb-mole] (385.5 at 68 °F and 1 atm)

    Notes
    -----
    EIIP, Eqn 6.4-3, §4.2 (p.6.4-4; inorganic HAPs, preferred) and Eqn 6.5-1, §5.1
    (p.6.5-2; organics, alternative); Example 6.4-3 prints 0.09 lb HF/hr, Example 6.5-1
    0.40 lb toluene/hr. The trace cites the equation of the pollutant class.

    >>> round(source_test_emissions(15.4, 20.0, 109020), 2), round(source_test_emissions(15.4, 92.0, 109020), 2)
    (0.09, 0.4)
    """
    return C_x * MW_x * V / (M * 1.0e6)


@equation("E_a", "ton/yr", "E_x × OH / 2,000", f"{DOC} Eqn 6.4-4, 6.5-2", label="Annual emissions from an hourly rate")
def annual_emissions(E_x: float, OH: float) -> float:
    """Annual emissions from an hourly rate [ton/yr].

    E_a = E_x × OH × 1 ton / 2,000 lb

    Parameters
    ----------
    E_x : hourly emissions of pollutant x [lb/hr]
    OH : operating hours [hr/yr]

    Notes
    -----
    EIIP, Eqn 6.4-4 (p.6.4-5) and Eqn 6.5-2 (p.6.5-3); Example 6.4-3 prints 0.08 ton HF/yr
    from 0.09 lb/hr, Example 6.5-1 0.35 ton toluene/yr from 0.40 lb/hr over 1,760 hr/yr.

    >>> round(annual_emissions(0.09, 1760), 2), round(annual_emissions(0.40, 1760), 2)
    (0.08, 0.35)
    """
    return E_x * OH / LB_PER_TON


@equation("E_x", "lb/hr", "EF_x × AF", f"{DOC} Eqn 6.5-3",
          label="Emissions from an emission factor and an activity rate")
def emission_factor_emissions(EF_x: float, AF: float) -> float:
    """Emissions from an emission factor and an activity rate [lb/hr].

    E_x = EF_x × AF

    Parameters
    ----------
    EF_x : emission factor for pollutant x [lb/unit] (e.g. lb/wafer)
    AF : activity factor [units/hr] (e.g. wafers/hr)

    Notes
    -----
    EIIP, Eqn 6.5-3, §5.2 (p.6.5-4; the example's text cites "Equation 6.5-4");
    Example 6.5-2 prints 1.8E-4 lb HF/hr.

    >>> f"{emission_factor_emissions(6.0e-6, 30):.2g}"
    '0.00018'
    """
    return EF_x * AF


@equation("d_x", "lb/ft³", "MW_x / M", f"{DOC} Eqn 6.5-4 (d_x read as vapour density, Example 6.5-3)",
          label="Density of the pure vapour at standard conditions")
def vapour_density(MW_x: float, M: float = M_STANDARD) -> float:
    """Density of the pure vapour at standard conditions [lb/ft³].

    d_x = MW_x / M

    Parameters
    ----------
    MW_x : molecular weight [lb/lb-mole]
    M : molar volume [ft³/lb-mole] (385.5)

    Notes
    -----
    Interpretation of d_x in EIIP Eqn 6.5-4 (p.6.5-5), whose where-list prints no unit:
    Example 6.5-3's 0.083 lb/ft³ for methanol is 32/385.5 (not the liquid density).

    >>> round(vapour_density(32), 3)
    0.083
    """
    return MW_x / M


@equation("E_x_sat", "lb/hr", "(P_sat,x / P_t) × V × d_x", f"{DOC} Eqn 6.5-4",
          label="Upper limit of emissions, the exhaust assumed saturated with the vapour")
def saturation_emissions(P_sat_x: float, P_t: float, V: float, d_x: float) -> float:
    """Upper limit of emissions, the exhaust assumed saturated with the vapour [lb/hr].

    E_x = (P_sat,x / P_t) × V × d_x   (traced as E_x_sat: a dilution ratio may follow)

    Parameters
    ----------
    P_sat_x : saturation vapour pressure of pollutant x [atm]
    P_t : total pressure [atm]
    V : exhaust (stack gas) flow rate [dscf/hr]
    d_x : density of the pollutant's vapour [lb/ft³]

    Notes
    -----
    EIIP, Eqn 6.5-4, §5.3 (p.6.5-5; the example's text cites "Equation 6.5-5"), "extremely
    conservative"; Example 6.5-3 prints 64.7 lb methanol/hr.

    >>> round(saturation_emissions(0.13, 1, 6000, 0.083), 1)
    64.7
    """
    return (P_sat_x / P_t) * V * d_x


@equation("E_x", "lb/hr", "E_x_sat / dilution_ratio", f"{DOC} §3.1.4, §5.3 (dilution to saturation)",
          label="Saturation-limit emissions divided by a dilution to saturation ratio")
def diluted_emissions(E_x_sat: float, dilution_ratio: float) -> float:
    """Saturation-limit emissions divided by a dilution to saturation ratio [lb/hr].

    E_x = E_x_sat / dilution ratio

    Parameters
    ----------
    E_x_sat : saturation upper limit, Eqn 6.5-4 [lb/hr]
    dilution_ratio : air dilution to saturation ratio [-] (1: none; "as high as 800 to 1")

    Notes
    -----
    EIIP §3.1.4 (p.6.3-2) and §5.3 (p.6.5-6: "a dilution to saturation ratio (based on
    testing) may be applied to this equation"); the division is this engine's reading,
    EIIP prints no formula. Example 6.5-3's 64.7 lb/hr at the typical 800 to 1:

    >>> round(diluted_emissions(64.74, 800), 4)
    0.0809
    """
    return E_x_sat / dilution_ratio


@equation("K", "ft/s", "0.00438 × U^0.78 × (18 / MW_x)^(1/3)", f"{DOC} Eqn 6.5-5",
          label="Gas-phase mass transfer coefficient of an evaporating pollutant")
def mass_transfer_coefficient(U: float, MW_x: float) -> float:
    """Gas-phase mass transfer coefficient of an evaporating pollutant [ft/s].

    K = 0.00438 × U^0.78 × (18 / MW_x)^(1/3)

    Parameters
    ----------
    U : wind speed [miles/hr]
    MW_x : molecular weight [lb/lb-mole]

    Notes
    -----
    EIIP, Eqn 6.5-5 where-list (EPA 1987), p.6.5-6; Example 6.5-4 prints 0.00547 ft/s.

    >>> round(mass_transfer_coefficient(1.7, 32), 5)
    0.00547
    """
    return float(K_CONSTANT * U ** 0.78 * (MW_WATER / MW_x) ** (1.0 / 3.0))


@equation("W_x", "lb/s", "MW_x × K × A × P_vap,x / (R × T)", f"{DOC} Eqn 6.5-5",
          label="Evaporation rate of a pollutant from an open liquid surface")
def evaporation_rate(MW_x: float, K: float, A: float, P_vap_x: float, T: float,
                     R: float = R_PSIA_FT3) -> float:
    """Evaporation rate of a pollutant from an open liquid surface [lb/s].

    W_x = MW_x × K × A × P_vap,x / (R × T)

    Parameters
    ----------
    MW_x : molecular weight [lb/lb-mole]
    K : gas-phase mass transfer coefficient [ft/s]
    A : surface area [ft²]
    P_vap_x : vapour pressure [psia]
    T : temperature [°R]
    R : ideal gas constant [psia·ft³/(°R·lb-mole)] (10.73)

    Notes
    -----
    EIIP, Eqn 6.5-5, §5.3 (p.6.5-6; the example's text cites "Equation 6.5-6"); Example
    6.5-4 prints 5.84E-5 lb/s (5.845E-5 from the unrounded K, 5.846E-5 from the printed
    0.00547: the document truncates).

    >>> f"{evaporation_rate(32, mass_transfer_coefficient(1.7, 32), 1, 1.91, 533):.4g}"
    '5.845e-05'
    """
    return MW_x * K * A * P_vap_x / (R * T)


@equation("E_x", "lb/hr", "W_x × 3600 s/hr", f"{DOC} Eqn 6.5-5",
          label="An evaporation rate as the hourly emissions the other methods give")
def evaporation_hourly(W_x: float) -> float:
    """An evaporation rate as the hourly emissions the other methods give [lb/hr].

    E_x = W_x × 3,600 s/hr

    Parameters
    ----------
    W_x : evaporation rate, Eqn 6.5-5 [lb/s]

    Notes
    -----
    EIIP Eqn 6.5-5 (p.6.5-6) gives W_x in lb/sec; Eqn 6.5-2 needs E_x in lb/hr. Example
    6.5-4's printed 5.84E-5 lb/s is 0.21 lb/hr (a hand conversion, not printed by EIIP):

    >>> round(evaporation_hourly(5.84e-5), 2)
    0.21
    """
    return W_x * SECONDS_PER_HOUR


@equation("E_x", "lb/hr", "E_x_uncontrolled × (1 − CE / 100)",
          f"{DOC} §2.3.2 (add-on control devices) and Forms C1 to C4 (the device's control efficiency)",
          label="Emissions of pollutant x after a control device")
def controlled_emissions(E_x_uncontrolled: float, CE: float) -> float:
    """Emissions of pollutant x after a control device [lb/hr].

    E_x = E_x,uncontrolled × (1 − CE / 100)

    Parameters
    ----------
    E_x_uncontrolled : emissions before the control device [lb/hr]
    CE : control efficiency of the device for pollutant x [%], 0 to 100

    Notes
    -----
    EIIP Volume II Chapter 6, §2.3.2: add-on control devices "control emissions once they
    are generated"; the data-collection Forms C1 to C4 record each device's "Control
    Efficiency" for the pollutant controlled. A source test measures the stack after the
    device, so it takes none.

    >>> round(controlled_emissions(0.0375, 99), 6)
    0.000375
    """
    return E_x_uncontrolled * (1 - CE / 100)


@equation("kg_site_yr", "kg/site-yr", "E_x × OH × 0.45359237", "lb to kg (NIST)",
          label="Annual release at one site from an hourly emission rate")
def kg_per_site_year(E_x: float, OH: float) -> float:
    """Annual release at one site from an hourly emission rate [kg/site-yr].

    kg/site-yr = E_x × OH × 0.45359237 kg/lb  (= E_a × 2,000 × 0.45359237)

    Parameters
    ----------
    E_x : hourly emissions [lb/hr]
    OH : operating hours [hr/yr]

    Notes
    -----
    EIIP Eqn 6.4-4 / 6.5-2 (p.6.4-5, p.6.5-3) expressed in kilograms (NIST SP 811:
    1 lb = 0.45359237 kg). Example 6.4-3's 15.4 ppmvd HF (0.0871 lb/hr unrounded) over
    1,760 hr/yr:

    >>> round(kg_per_site_year(0.0871, 1760), 1)
    69.5
    """
    return E_x * OH * KG_PER_LB


@equation("kg_site_day", "kg/site-day", "kg_site_yr / days", "days of release",
          label="Daily release at one site over the days of release")
def kg_per_site_day(kg_site_yr: float, days: float) -> float:
    """Daily release at one site over the days of release [kg/site-day].

    kg/site-day = kg/site-yr / days

    Parameters
    ----------
    kg_site_yr : annual release at one site [kg/site-yr]
    days : days of release a year [days/yr]

    Notes
    -----
    The engine's daily figure (ESDs' kg/site-day); EIIP estimates annual emissions only.
    Example 6.4-3's 69.5 kg/site-yr over 220 days (hand calculation):

    >>> round(kg_per_site_day(69.536, 220), 4)
    0.3161
    """
    return kg_site_yr / days
