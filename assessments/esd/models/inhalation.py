"""Worker inhalation models: vapour (mass balance) and particulates (solids handling).

- EPA/OPPT Mass Balance Model (Eq B-7 to B-10): steady-state vapour concentration in
  the breathing zone from a generation rate G (a vapour model of
  :mod:`assessments.esd.models.vapour`, or a known value), capped at saturation.
- EPA/OPPT Small Volume Solids Handling Inhalation Model (Eq B-13): up to and including
  54 kg of solids handled per worker-shift.
- OSHA Total PNOR PEL-Limiting Model (Eq B-14, B-15): more than 54 kg/worker-shift.

Document: OECD ESD No. 9, *Photoresist Use in Semiconductor Manufacturing* (2010),
Appendix B.2.2 and B.5, Table B-2. The CVD ESD (OECD No. 35, 2015) Eq D-1 is
:func:`ppm_to_mg_m3` followed by :func:`inhalation_dose`.
"""

from __future__ import annotations

from ..calc import equation
from ._validate import check_range, fraction, non_negative, positive
from .vapour import EQUIPMENT_CLEANING_HOURS, SAMPLING_HOURS

# --- Model names (2010 ESD, Appendix B.2.2 and B.5) ----------------------------------

MASS_BALANCE_MODEL = "EPA/OPPT Mass Balance Model"
SMALL_VOLUME_SOLIDS_MODEL = "EPA/OPPT Small Volume Solids Handling Inhalation Model"
PNOR_MODEL = "OSHA Total PNOR PEL-Limiting Model"

# --- Constants and defaults ----------------------------------------------------------

#: Unit-conversion factor of Eq B-7 (Fehrenbacher and Hummel, 1996); printed "1.7 × 10^5".
MASS_BALANCE_CONSTANT = 1.7e5
#: Ambient pressure of Eq B-8 [torr]: "default = 760 torr".
P_AMBIENT_TORR = 760.0
#: ppm per mole fraction (Eq B-8).
PPM_PER_MOLE_FRACTION = 1.0e6
#: Ambient temperature [K]: "EPA default = 298 K" (Eq B-7).
T_AMBIENT_K = 298.0
#: Molar volume [L/mol] at 25 °C and 1 atm (Eq B-9; CVD ESD Eq D-1).
MOLAR_VOLUME_L_MOL = 24.45
#: Worker breathing rate [m³/h] (Eq B-10, B-15: "EPA default = 1.25 m3/hr"; CVD ESD Eq D-1, CEB 1991).
BREATHING_RATE_M3_H = 1.25
#: Longest exposure time per worker-day [h], inclusive. Eq B-10 prints "< 8
#: hours/worker-day", but Table B-2 takes "the lesser of ... or 8" and the PNOR model
#: (Eq B-15) requires exactly 8, so 8 itself is allowed.
MAX_EXPOSURE_HOURS = 8.0

# Ventilation rates [ft³/min] (Table B-2, RATEventilation)
Q_INDOOR_TYPICAL_FT3_MIN = 3_000.0
Q_INDOOR_WORST_FT3_MIN = 500.0
Q_OUTDOOR_TYPICAL_FT3_MIN = 237_600.0
#: Outdoor worst case: 26,400 ft³/min per mile/h of wind, i.e. 26,400 × (60 × vz / 5,280).
Q_OUTDOOR_WORST_PER_MPH = 26_400.0
#: Air speed for the outdoor worst-case ventilation when G comes from the AP-42 model
#: outdoors [ft/min] (Table B-2, footnote a).
OUTDOOR_AIR_SPEED_FT_MIN = 440.0
#: Indoor air speed [ft/min] (Table B-2).
INDOOR_AIR_SPEED_FT_MIN = 100.0

# Mixing factors [-] (Table B-2, Fmixing_factor)
K_MIXING_TYPICAL = 0.5
K_MIXING_WORST = 0.1

# Activity exposure hours [h/day] (Table B-2, TIMEexposure): the activity hours of Table B-1
# (the vapour models' TIMEactivity_hours), printed again; declared there once.
EQUIPMENT_CLEANING_EXPOSURE_HOURS: dict[str, float] = EQUIPMENT_CLEANING_HOURS
SAMPLING_EXPOSURE_HOURS = SAMPLING_HOURS

# Solids (Appendix B.5)
#: Largest amount the Small Volume Solids model covers [kg/worker-shift] ("up to (and including) 54").
SMALL_VOLUME_SOLIDS_MAX_KG = 54.0
#: Exposure factor, typical [mg inhaled / kg handled] (Eq B-13).
EF_TYPICAL_MG_KG = 0.0477
#: Exposure factor, worst case [mg/kg] (Eq B-13).
EF_WORST_MG_KG = 0.161
#: Shifts per worker per day (Eq B-13: "EPA default = 1 shift/day").
NSHIFTS_DEFAULT = 1.0
#: OSHA PEL for total particulates not otherwise regulated, 8-h TWA [mg/m³] (Eq B-14).
PNOR_TOTAL_MG_M3 = 15.0
#: OSHA PEL for the respirable fraction of PNOR, 8-h TWA [mg/m³]. Not in the 2010 ESD;
#: OSHA 29 CFR 1910.1000 Table Z-1 ("Particulates not otherwise regulated ... Respirable
#: fraction 5 mg/m3"); listed in the project's catalogue.
PNOR_RESPIRABLE_MG_M3 = 5.0
#: Exposure time of the PNOR model [h/day]: the PEL is an 8-h TWA (Eq B-15 and footnote).
PNOR_EXPOSURE_HOURS = 8.0


# --- Mass balance (vapour) -------------------------------------------------------------


def outdoor_worst_ventilation_ft3_min(vz_ft_min: float = OUTDOOR_AIR_SPEED_FT_MIN) -> float:
    """Worst-case outdoor ventilation rate [ft³/min].

    RATEventilation = 26,400 × (60 × RATEair_speed / 5,280)

    Parameters
    ----------
    vz_ft_min : air speed [ft/min], greater than 0 (default 440)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-2 (outdoor rows; the extracted
    text prints ")" for "÷"); 60 × vz / 5,280 is the wind speed in mile/h.

    >>> outdoor_worst_ventilation_ft3_min()
    132000.0
    """
    vz = positive("vz_ft_min", vz_ft_min, "ft/min")
    return Q_OUTDOOR_WORST_PER_MPH * (60 * vz / 5_280)


def mass_balance_ppm(G_g_s: float, MW: float, Q_ft3_min: float, k: float, T_K: float = T_AMBIENT_K) -> float:
    """Volumetric vapour concentration from the mass balance, uncapped [ppm].

    Cv = 1.7e5 × T × G / (MW × Q × k)

    Parameters
    ----------
    G_g_s : vapour generation rate [g/s]
    MW : molecular weight [g/mol]
    Q_ft3_min : ventilation rate [ft³/min] (Table B-2)
    k : mixing factor [-], greater than 0 and at most 1 (0.5 typical, 0.1 worst case)
    T_K : ambient temperature [K] (default 298)

    Notes
    -----
    EPA/OPPT Mass Balance Model. OECD ESD Photoresist (2010), Appendix B.2.2.1, Eq B-7.
    Use :func:`mass_balance_concentration_ppm`, which applies the saturation cap.

    >>> round(mass_balance_ppm(0.01, 100, 3000, 0.5), 3)
    3.377
    """
    G = non_negative("G_g_s", G_g_s, "g/s")
    MW = positive("MW", MW, "g/mol")
    Q = positive("Q_ft3_min", Q_ft3_min, "ft3/min")
    k = fraction("k", k, lower_open=True)
    T = positive("T_K", T_K, "K")
    return MASS_BALANCE_CONSTANT * T * G / (MW * Q * k)


def saturation_concentration_ppm(VP_torr: float, X: float = 1.0, P_torr: float = P_AMBIENT_TORR) -> float:
    """Saturation concentration of the vapour in air [ppm].

    Cv = X × VP × 10⁶ / P

    Parameters
    ----------
    VP_torr : vapour pressure [torr]
    X : vapour-pressure correction factor (mole fraction) [-] (default 1)
    P_torr : ambient pressure [torr] (default 760)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.2.1, Eq B-8 (Raoult's law).

    >>> round(saturation_concentration_ppm(10), 1)
    13157.9
    """
    VP = non_negative("VP_torr", VP_torr, "torr")
    X = fraction("X", X)
    P = positive("P_torr", P_torr, "torr")
    return X * VP * PPM_PER_MOLE_FRACTION / P


def mass_balance_concentration_ppm(
    G_g_s: float,
    MW: float,
    Q_ft3_min: float,
    k: float,
    VP_torr: float,
    X: float = 1.0,
    T_K: float = T_AMBIENT_K,
    P_torr: float = P_AMBIENT_TORR,
) -> float:
    """Volumetric vapour concentration in the breathing zone [ppm]: the lesser of Eq B-7 and B-8.

    Cv = min(1.7e5 × T × G / (MW × Q × k), X × VP × 10⁶ / P)

    Parameters
    ----------
    G_g_s : vapour generation rate [g/s]
    MW : molecular weight [g/mol]
    Q_ft3_min : ventilation rate [ft³/min] (Table B-2)
    k : mixing factor [-] (0.5 typical, 0.1 worst case)
    VP_torr : vapour pressure [torr]
    X : vapour-pressure correction factor [-] (default 1)
    T_K : ambient temperature [K] (default 298)
    P_torr : ambient pressure [torr] (default 760)

    Notes
    -----
    EPA/OPPT Mass Balance Model. OECD ESD Photoresist (2010), Appendix B.2.2.1,
    Eq B-7 and B-8: "Use the lesser value".

    >>> round(mass_balance_concentration_ppm(0.01, 100, 3000, 0.5, 10), 3)
    3.377
    >>> round(mass_balance_concentration_ppm(10, 100, 500, 0.1, 0.1), 1)
    131.6
    """
    return min(
        mass_balance_ppm(G_g_s, MW, Q_ft3_min, k, T_K),
        saturation_concentration_ppm(VP_torr, X, P_torr),
    )


def ppm_to_mg_m3(Cv_ppm: float, MW: float, V_molar: float = MOLAR_VOLUME_L_MOL) -> float:
    """Mass concentration in air from a volumetric concentration [mg/m³].

    Cm = Cv × MW / Vmolar

    Parameters
    ----------
    Cv_ppm : volumetric concentration [ppm]
    MW : molecular weight [g/mol]
    V_molar : molar volume [L/mol] (default 24.45, 25 °C and 1 atm)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.2.1, Eq B-9; OECD ESD No. 35 CVD (2015),
    Appendix D, Eq D-1 (first factor).

    >>> round(ppm_to_mg_m3(1.22, 100), 3)
    4.99
    """
    Cv = non_negative("Cv_ppm", Cv_ppm, "ppm")
    MW = positive("MW", MW, "g/mol")
    Vm = positive("V_molar", V_molar, "L/mol")
    return Cv * MW / Vm


def inhalation_dose(Cm_mg_m3: float, hours: float, breathing_rate: float = BREATHING_RATE_M3_H) -> float:
    """Inhalation exposure per worker-day [mg/day].

    I = Cm × b × h

    Parameters
    ----------
    Cm_mg_m3 : mass concentration in air [mg/m³]
    hours : exposure time [h/worker-day], between 0 and 8
    breathing_rate : worker breathing rate [m³/h] (default 1.25)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.2.1, Eq B-10 and B.5.2, Eq B-15;
    OECD ESD No. 35 CVD (2015), Appendix D, Eq D-1.

    >>> round(inhalation_dose(ppm_to_mg_m3(1.22, 100), 0.016), 4)
    0.0998
    """
    Cm = non_negative("Cm_mg_m3", Cm_mg_m3, "mg/m3")
    h = check_range("hours", hours, lower=0, upper=MAX_EXPOSURE_HOURS, units="h/worker-day")
    b = positive("breathing_rate", breathing_rate, "m3/h")
    return Cm * b * h


#: Hours of the working day a time-weighted average spreads a daily exposure over.
TWA_HOURS = 8.0
TWA_CITATION = ("8-hour TWA: Eq B-10 (I = Cm × b × h) solved for Cm over an 8-hour day, as ChemSTEER reports "
                "an inhalation estimate; ppm by Eq B-9 at 25 °C, 1 atm (OECD ESD Photoresist 2010, App. B.2.2.1)")


@equation("Cm_8hr_TWA", "mg/m³", "EXPinhalation / (RATEbreathing × 8 h)", TWA_CITATION,
          label="The 8-hour time-weighted average airborne concentration of a daily inhalation")
def twa_mg_m3(EXPinhalation: float, RATEbreathing: float = BREATHING_RATE_M3_H) -> float:
    """The 8-hour time-weighted average airborne concentration of a daily inhalation [mg/m³].

    Cm_TWA = I / (b × 8) (= Cm × h / 8 for h hours at Cm)

    >>> round(twa_mg_m3(17.27), 3)
    1.727
    """
    I = non_negative("EXPinhalation", EXPinhalation, "mg/day")
    b = positive("RATEbreathing", RATEbreathing, "m3/h")
    return I / (b * TWA_HOURS)


@equation("Cv_8hr_TWA", "ppm", "Cm_8hr_TWA × Vmolar / MW", TWA_CITATION,
          label="The 8-hour TWA as a volumetric concentration of a vapour")
def twa_ppm(Cm_8hr_TWA: float, MW: float, Vmolar: float = MOLAR_VOLUME_L_MOL) -> float:
    """The 8-hour TWA as a volumetric concentration of a vapour [ppm] (Eq B-9 inverted).

    >>> round(twa_ppm(1.727, 100), 4)
    0.4223
    """
    Cm = non_negative("Cm_8hr_TWA", Cm_8hr_TWA, "mg/m3")
    return Cm * positive("Vmolar", Vmolar, "L/mol") / positive("MW", MW, "g/mol")


#: Minutes in an hour (a task's hours a day as minutes).
MINUTES_PER_HOUR = 60.0
TASK_CITATION = ("The concentration during the task: Cm of Eq B-9 and B-10 (I = Cm × b × h) over the task's h "
                 "hours, before the 8-hour TWA spreads it over the shift (OECD ESD Photoresist 2010, App. B.2.2.1; "
                 "OECD ESD No. 35 CVD 2015, App. D Eqn D-1)")


@equation("Cm_task", "mg/m³", "Cv × MW / Vmolar", TASK_CITATION,
          label="The airborne concentration during the task")
def task_mg_m3(Cv: float, MW: float, Vmolar: float = MOLAR_VOLUME_L_MOL) -> float:
    """The airborne concentration during the task [mg/m³]: the model's vapour
    concentration as a mass concentration (Eq B-9).

    Cm_task = Cv × MW / Vmolar

    Parameters
    ----------
    Cv : the model's vapour concentration during the task [ppm]
    MW : molecular weight [g/mol]
    Vmolar : molar volume [L/mol] (default 24.45, 25 °C and 1 atm)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.2.2.1, Eq B-9; OECD ESD No. 35 CVD (2015),
    Appendix D, Eq D-1 (its first factor). By hand: 3.377 ppm × 100 / 24.45 = 13.81 mg/m³,
    which over 1 h is 13.81 × 1 / 8 = 1.727 mg/m³ as an 8-hour TWA (:func:`twa_mg_m3`).

    >>> round(task_mg_m3(3.377, 100), 2)
    13.81
    """
    return ppm_to_mg_m3(Cv, MW, Vmolar)


@equation("TIMEtask_minutes", "min/day", "TIMEexposure × 60", TASK_CITATION,
          label="Minutes a day of the task the inhalation estimate covers")
def task_minutes(TIMEexposure: float) -> float:
    """Minutes a day of the task the inhalation estimate covers [min/day].

    TIMEtask_minutes = TIMEexposure × 60

    Parameters
    ----------
    TIMEexposure : exposure hours a worker-day [h/day], between 0 and 8

    Notes
    -----
    The h of Eq B-10 (OECD ESD Photoresist 2010, App. B.2.2.1) and of Eqn D-1 (ESD 2015
    CVD, App. D: its sample's 0.016 hr/day is about one minute) in minutes.

    >>> task_minutes(0.016), task_minutes(8)
    (0.96, 480.0)
    """
    h = check_range("TIMEexposure", TIMEexposure, lower=0, upper=MAX_EXPOSURE_HOURS, units="h/worker-day")
    return h * MINUTES_PER_HOUR


#: The averaging time of a short-term exposure limit (STEL) [min].
STEL_MINUTES = 15.0
STEL_CITATION = (
    "ACGIH TLVs and BEIs, Introduction: a TLV-STEL is a 15-minute TWA exposure that should not be exceeded at any "
    "time during a workday; OSHA's STELs likewise (e.g. 29 CFR 1910.1028(b), 1910.1048(b)). Outside the task the "
    "model's worker is unexposed, as its 8-hour TWA assumes (Eq B-10)"
)


def fifteen_minute_average(C_task: float, task_minutes_day: float) -> float:
    """The highest 15-minute average of a task's airborne concentration [units of C_task].

    C_15min = C_task × min(t, 15) / 15

    Parameters
    ----------
    C_task : the concentration during the task [mg/m³ or ppm]
    task_minutes_day : minutes a day of the task, t [min/day], 0 to 480

    Notes
    -----
    A task of t minutes at C_task, with no exposure outside it (the 8-hour TWA's own
    assumption, Eq B-10), averages C_task × t / 15 over the 15 minutes holding it when
    shorter than 15 minutes (the whole of it in one window: the worst case, however the
    minutes fall in the day), and C_task over any 15 minutes within it when longer.
    :data:`STEL_CITATION`.

    >>> fifteen_minute_average(480.0, 1.0), fifteen_minute_average(480.0, 30.0)
    (32.0, 480.0)
    """
    c = non_negative("C_task", C_task)
    t = check_range("task_minutes_day", task_minutes_day, lower=0, upper=MAX_EXPOSURE_HOURS * MINUTES_PER_HOUR,
                    units="min/day")
    return c * min(t, STEL_MINUTES) / STEL_MINUTES


def container_exposure_hours(containers_per_day: float, fill_rate_per_h: float) -> float:
    """Exposure time for container handling [h/day]: containers/RATEfill or 8, whichever is less.

    Parameters
    ----------
    containers_per_day : containers handled per site-day [containers/site-day], > 0
    fill_rate_per_h : fill rate [containers/h] (Table B-1), > 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-2 (TIMEexposure, container rows).
    The 8-h limit is the model's rule, not a clamp of the input.

    >>> container_exposure_hours(30, 60), container_exposure_hours(200, 20)
    (0.5, 8.0)
    """
    n = positive("containers_per_day", containers_per_day, "containers/site-day")
    r = positive("fill_rate_per_h", fill_rate_per_h, "containers/h")
    return min(n / r, MAX_EXPOSURE_HOURS)


# --- Solids ----------------------------------------------------------------------------


def solids_inhalation_model(Q_shift_kg: float) -> str:
    """The particulate inhalation model for an amount handled per worker-shift.

    Up to and including 54 kg/worker-shift: EPA/OPPT Small Volume Solids Handling
    Inhalation Model; above: OSHA Total PNOR PEL-Limiting Model.

    Parameters
    ----------
    Q_shift_kg : solids handled per worker-shift [kg/worker-shift]

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.5 (introduction). Solids sampling always
    uses the Small Volume Solids model (B.5).

    >>> solids_inhalation_model(54)
    'EPA/OPPT Small Volume Solids Handling Inhalation Model'
    >>> solids_inhalation_model(54.1)
    'OSHA Total PNOR PEL-Limiting Model'
    """
    q = non_negative("Q_shift_kg", Q_shift_kg, "kg/worker-shift")
    return SMALL_VOLUME_SOLIDS_MODEL if q <= SMALL_VOLUME_SOLIDS_MAX_KG else PNOR_MODEL


def small_volume_solids_dose(Q_shift_kg: float, Ychem: float, EF: float, Nshifts: float = NSHIFTS_DEFAULT) -> float:
    """Inhalation exposure to particulate while handling small amounts of solids [mg/day].

    EXPinhalation = (Qshift_handled × Nshifts) × Fchem × Fexposure

    Parameters
    ----------
    Q_shift_kg : solids handled per worker-shift [kg/worker-shift], 0 to 54
    Ychem : weight fraction of the chemical in the solids [-]
    EF : exposure factor [mg/kg] (0.0477 typical, 0.161 worst case)
    Nshifts : shifts worked per worker per day [shifts/day], greater than 0 and at
        most 3 (default 1)

    Notes
    -----
    EPA/OPPT Small Volume Solids Handling Inhalation Model. OECD ESD Photoresist
    (2010), Appendix B.5.1, Eq B-13. Above 54 kg/worker-shift use :func:`pnor_dose`.

    >>> round(small_volume_solids_dose(54, 1.0, EF_WORST_MG_KG), 3)
    8.694
    """
    q = check_range("Q_shift_kg", Q_shift_kg, lower=0, upper=SMALL_VOLUME_SOLIDS_MAX_KG, units="kg/worker-shift")
    y = fraction("Ychem", Ychem)
    ef = non_negative("EF", EF, "mg/kg")
    n = check_range("Nshifts", Nshifts, lower=0, upper=3, lower_open=True, units="shifts/day")
    return q * n * y * ef


def pnor_concentration_mg_m3(Ychem: float, C_total: float = PNOR_TOTAL_MG_M3) -> float:
    """Concentration of the chemical in airborne particulate at the PNOR PEL [mg/m³].

    Cchem_mass = Ctotal_mass × Fchem

    Parameters
    ----------
    Ychem : weight fraction of the chemical in the particulate [-]
    C_total : total particulate concentration [mg/m³] (default 15, the OSHA Total
        PNOR PEL; 5 for the respirable fraction)

    Notes
    -----
    OSHA Total PNOR PEL-Limiting Model. OECD ESD Photoresist (2010), Appendix B.5.2, Eq B-14.

    >>> pnor_concentration_mg_m3(0.2)
    3.0
    """
    y = fraction("Ychem", Ychem)
    c = positive("C_total", C_total, "mg/m3")
    return c * y


def pnor_dose(Ychem: float, C_total: float = PNOR_TOTAL_MG_M3, hours: float = PNOR_EXPOSURE_HOURS) -> float:
    """Inhalation exposure to particulate at the PNOR PEL [mg/day].

    EXPinhalation = Ctotal_mass × Fchem × 1.25 m³/h × TIMEexposure

    Parameters
    ----------
    Ychem : weight fraction of the chemical in the particulate [-]
    C_total : total particulate concentration [mg/m³] (default 15)
    hours : exposure time [h/day], between 0 and 8 (default 8: the PEL is an 8-h
        TWA, and the ESD says the model's defaults apply only with 8 h)

    Notes
    -----
    OSHA Total PNOR PEL-Limiting Model. OECD ESD Photoresist (2010), Appendix B.5.2,
    Eq B-14 and B-15.

    >>> pnor_dose(1.0)
    150.0
    """
    return inhalation_dose(pnor_concentration_mg_m3(Ychem, C_total), hours)
