"""Volatility gates: when vapour releases and inhalation of vapour are not assessed.

- VP < 0.001 torr: vapour release and inhalation of vapour negligible ("nonvolatile").
  CVD ESD (2015): "EPA defines a chemical as volatile if the vapour pressure is at or
  greater than 0.001 torr at room temperature" (Explanatory Notes), and Appendix C/D:
  air release and inhalation "negligible for chemicals with vapour pressures below 0.001
  torr". Photoresist ESD (2004, Explanatory Notes): "inhalation exposure is not likely for liquids with a
  vapor pressure less than 0.001 torr". The 2010 photoresist ESD says only "nonvolatile"
  and prints no number; ChemSTEER's IRER writes "negligible for nonvolatile chemicals
  (VP < 0.001 torr)" (project spec ``irer.md``), and the same 0.001 torr is used here.
- Photoresist ESD (2004): air releases from handling materials with VP < 0.01 torr are
  negligible.
- CVD ESD (2015), Appendix C/D: semi-volatile 0.001 to 35 torr, highly volatile above
  35 torr (both assessed with analogue data).
"""

from __future__ import annotations

from ._validate import non_negative

#: Below this vapour pressure [torr], vapour release and inhalation are negligible.
NONVOLATILE_VP_TORR = 0.001
#: Below this vapour pressure [torr], the 2004 photoresist ESD treats air releases as negligible.
PHOTORESIST_2004_AIR_NEGLIGIBLE_VP_TORR = 0.01
#: Above this vapour pressure [torr], the CVD ESD calls a liquid highly volatile.
CVD_HIGHLY_VOLATILE_VP_TORR = 35.0

NONVOLATILE = "nonvolatile"
SEMI_VOLATILE = "semi-volatile"
HIGHLY_VOLATILE = "highly volatile"

THRESHOLD_SOURCES: dict[str, str] = {
    "NONVOLATILE_VP_TORR": (
        "OECD ESD No. 35, CVD in the Semiconductor Industry (2015), Explanatory Notes "
        "('volatile if the vapour pressure is at or greater than 0.001 torr') and Appendices "
        "C and D ('negligible ... below 0.001 torr'); OECD ESD Photoresist (2004), "
        "Explanatory Notes ('inhalation exposure is not likely for liquids with a vapor pressure "
        "less than 0.001 torr'); the 2010 photoresist ESD's 'nonvolatile' (no number "
        "printed), as ChemSTEER's IRER states it"
    ),
    "PHOTORESIST_2004_AIR_NEGLIGIBLE_VP_TORR": (
        "OECD ESD Photoresist (2004), Explanatory Notes, 'How this document was developed': 'releases to air from the handling of "
        "materials with a vapor pressure less than 0.01 torr are negligible'"
    ),
    "CVD_HIGHLY_VOLATILE_VP_TORR": (
        "OECD ESD No. 35, CVD (2015), Appendix C ('Release to Air from Container Cleaning') "
        "and Appendix D: 'semi-volatile liquids (vapour pressures between 0.001 torr and 35 "
        "torr) and ... highly volatile liquids (vapour pressures above 35 torr)'"
    ),
}


def is_nonvolatile(VP_torr: float, threshold: float = NONVOLATILE_VP_TORR) -> bool:
    """True when the vapour pressure is below the threshold (vapour negligible).

    Parameters
    ----------
    VP_torr : vapour pressure [torr], at least 0
    threshold : vapour pressure below which vapour is negligible [torr] (default 0.001)

    Notes
    -----
    CVD ESD (2015), Explanatory Notes and Appendices C/D; photoresist ESD (2004).
    Strict: 0.001 torr itself is volatile ("at or greater than 0.001 torr").

    >>> is_nonvolatile(1.0e-6), is_nonvolatile(0.001)
    (True, False)
    """
    vp = non_negative("VP_torr", VP_torr, "torr")
    t = non_negative("threshold", threshold, "torr")
    return vp < t


def is_volatile(VP_torr: float, threshold: float = NONVOLATILE_VP_TORR) -> bool:
    """True when the vapour pressure is at or above the threshold (default 0.001 torr).

    >>> is_volatile(0.001)
    True
    """
    return not is_nonvolatile(VP_torr, threshold)


def air_release_negligible_2004(VP_torr: float) -> bool:
    """True when the 2004 photoresist ESD treats air releases as negligible (VP < 0.01 torr).

    Notes
    -----
    OECD ESD Photoresist (2004), Explanatory Notes, 'How this document was developed'.

    >>> air_release_negligible_2004(0.005), air_release_negligible_2004(0.01)
    (True, False)
    """
    return is_nonvolatile(VP_torr, PHOTORESIST_2004_AIR_NEGLIGIBLE_VP_TORR)


def cvd_volatility_class(VP_torr: float) -> str:
    """The CVD ESD's volatility class: nonvolatile, semi-volatile or highly volatile.

    nonvolatile: VP < 0.001 torr; semi-volatile: 0.001 <= VP <= 35 torr ("between 0.001
    torr and 35 torr"); highly volatile: VP > 35 torr ("above 35 torr").

    Parameters
    ----------
    VP_torr : vapour pressure at room temperature [torr], at least 0

    Notes
    -----
    OECD ESD No. 35, CVD (2015), Explanatory Notes and Appendices C and D.

    >>> cvd_volatility_class(1e-4), cvd_volatility_class(35), cvd_volatility_class(2000)
    ('nonvolatile', 'semi-volatile', 'highly volatile')
    """
    if is_nonvolatile(VP_torr):
        return NONVOLATILE
    return HIGHLY_VOLATILE if VP_torr > CVD_HIGHLY_VOLATILE_VP_TORR else SEMI_VOLATILE
