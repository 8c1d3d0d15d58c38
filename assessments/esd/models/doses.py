"""Dose averages of a daily worker exposure (for the risk assessor; optional in the IRER).

APDR (acute potential dose rate), ADD (average daily dose, chronic non-cancer) and LADD
(lifetime average daily dose, cancer) from a daily exposure I [mg/day], in
mg/kg-day. The forms and defaults are the ones ChemSTEER's IRER prints, as the project's
catalogue (``spec/epa-standard-models.md``, "Dose averages") gives them; the ESDs
themselves stop at the daily exposure and its days per year.
"""

from __future__ import annotations

from ._validate import check_range, non_negative, positive

#: Body weight [kg]: EPA's older default for an adult worker (ChemSTEER). Recent TSCA
#: risk evaluations use 80 kg (Exposure Factors Handbook 2011 mean adult body weight).
BW_DEFAULT_KG = 70.0
#: Body weight used in recent TSCA risk evaluations [kg] (for an assessor who wants it).
BW_TSCA_KG = 80.0
#: Exposure years over a working life [yr].
EY_DEFAULT_YR = 40.0
#: Averaging time for non-cancer effects [yr] (= the working years).
AT_DEFAULT_YR = 40.0
#: Averaging time for cancer: a lifetime [yr].
ATC_DEFAULT_YR = 70.0
#: Days per year in the averaging time [days/yr].
DAYS_PER_YEAR = 365.0
#: Most exposure days a worker has a year [days/yr]: "EPA recommends a maximum of 250
#: days per year for each employee ... full-time employment ... a 40-hour work week over
#: 50 weeks per year" (OECD ESD Photoresist 2010, Section 5.3 and each of 5.4 to 5.7).
MAX_EXPOSURE_DAYS = 250.0


def exposure_days(operating_days: float, cap: float = MAX_EXPOSURE_DAYS) -> float:
    """Exposure days per worker-year [days/yr]: the operating days, at most 250.

    The catalogue's rule for an activity whose document gives no per-worker days. The
    doses of a result do not apply it a second time: ADD and LADD use the days the
    exposure itself prints (ChemSTEER's ED), or the reviewer's ED (spec/INTERFACE.md,
    "Additions, version 3"; :mod:`assessments.esd.options`).

    ED = min(operating days, 250)

    Parameters
    ----------
    operating_days : days a year the activity takes place [days/yr], 0 to 366
    cap : most days a year one worker is exposed [days/yr], 0 to 366 (default 250)

    Notes
    -----
    OECD ESD Photoresist (2010), Section 5.3 to 5.7 and Section 6.3 ("...over 250
    days/year" for 360 operating days). The cap is the ESD's rule, not a clamp.

    >>> exposure_days(360), exposure_days(12)
    (250.0, 12.0)
    """
    d = check_range("operating_days", operating_days, lower=0, upper=366, units="days/yr")
    c = check_range("cap", cap, lower=0, upper=366, units="days/yr")
    return min(d, c)


def apdr(I_mg_day: float, BW: float = BW_DEFAULT_KG) -> float:
    """Acute potential dose rate [mg/kg-day].

    APDR = I / BW

    Parameters
    ----------
    I_mg_day : daily exposure [mg/day]
    BW : body weight [kg] (default 70)

    Notes
    -----
    ChemSTEER dose averages, as in the project's catalogue (not printed in the ESDs).

    >>> round(apdr(132.3), 3)
    1.89
    """
    return non_negative("I_mg_day", I_mg_day, "mg/day") / positive("BW", BW, "kg")


def _averaged(I: float, ED: float, EY: float, BW: float, averaging_years: float, at_name: str) -> float:
    i = non_negative("I", I, "mg/day")
    ed = check_range("ED", ED, lower=0, upper=366, units="days/yr")
    bw = positive("BW", BW, "kg")
    at = positive(at_name, averaging_years, "yr")
    ey = check_range("EY", EY, lower=0, upper=at, units=f"yr (EY cannot exceed {at_name} = {at:g})")
    return i * ed * ey / (bw * at * DAYS_PER_YEAR)


def add(
    I: float, ED: float, EY: float = EY_DEFAULT_YR, BW: float = BW_DEFAULT_KG, AT: float = AT_DEFAULT_YR
) -> float:
    """Average daily dose over the non-cancer averaging time [mg/kg-day].

    ADD = I × ED × EY / (BW × AT × 365)

    Parameters
    ----------
    I : daily exposure [mg/day]
    ED : exposure days [days/yr] (see :func:`exposure_days`)
    EY : exposure years [yr], at most AT (default 40)
    BW : body weight [kg] (default 70)
    AT : averaging time [yr] (default 40)

    Notes
    -----
    ChemSTEER dose averages, as in the project's catalogue (not printed in the ESDs).

    >>> round(add(132.3, 250), 4)
    1.2945
    """
    return _averaged(I, ED, EY, BW, AT, "AT")


def ladd(
    I: float, ED: float, EY: float = EY_DEFAULT_YR, BW: float = BW_DEFAULT_KG, ATc: float = ATC_DEFAULT_YR
) -> float:
    """Lifetime average daily dose [mg/kg-day].

    LADD = I × ED × EY / (BW × ATc × 365)

    Parameters
    ----------
    I : daily exposure [mg/day]
    ED : exposure days [days/yr]
    EY : exposure years [yr], at most ATc (default 40)
    BW : body weight [kg] (default 70)
    ATc : averaging time for cancer, a lifetime [yr] (default 70)

    Notes
    -----
    ChemSTEER dose averages, as in the project's catalogue (not printed in the ESDs).

    >>> round(ladd(132.3, 250), 4)
    0.7397
    """
    return _averaged(I, ED, EY, BW, ATc, "ATc")
