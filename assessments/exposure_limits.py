"""The case's occupational exposure limit (TLV/PEL) and the airborne concentrations the
engine estimates: the one comparison the results page, the assessment's exposure summary
and the IRER print.

A case gives its limit as a number and a unit (``Submission.tlv_pel_value``,
``tlv_pel_unit``: mg/m³ or ppm, an 8-hour TWA), with a free-text note (``tlv_pel``: whose
limit, which year). An inhalation estimate computed from an airborne concentration carries
that concentration (``mg_m3``, an 8-hour TWA; ``ppm`` for a vapour with a molecular
weight: spec/INTERFACE.md, "Additions, version 2"). :func:`check_estimate` compares the
two in the limit's unit:

- a mg/m³ limit with ``mg_m3``;
- a ppm limit with ``ppm``, or with ``mg_m3`` converted at 25 °C and 1 atm,
  ppm = mg/m³ × 24.45 / MW, with the case's molecular weight when the estimate has no ppm
  (and the other way round for a mg/m³ limit and an estimate with ppm only);
- otherwise it says why the comparison cannot be made. A result stored before the engine
  reported concentrations is not compared: it says to recompute the use.

Dermal estimates are not compared (a TLV/PEL limits air concentrations), nor is anything
when the case gives no limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .esd.models.inhalation import MOLAR_VOLUME_L_MOL  # 24.45 L/mol at 25 °C, 1 atm
from .models import ExposureLimitUnit, Submission
from .templatetags.figures import significant

ABOVE, NOT_ABOVE, CANNOT_COMPARE, RECOMPUTE = "above", "not above", "cannot compare", "recompute"

ABOVE_TEXT = "above the TLV/PEL of {limit}"
NOT_ABOVE_TEXT = "not above the TLV/PEL of {limit}"
NO_CONCENTRATION = (
    "cannot be compared with the TLV/PEL of {limit}: this estimate is not computed from an airborne concentration"
)
NO_PPM = (
    "cannot be compared with the TLV/PEL of {limit}: the estimate has no concentration in ppm and the case "
    "gives no molecular weight to convert its mg/m³"
)
NO_MG_M3 = (
    "cannot be compared with the TLV/PEL of {limit}: the estimate has no concentration in mg/m³ and the case "
    "gives no molecular weight to convert its ppm"
)
NOT_COMPUTED = "not computed: recompute the use to compare it with the TLV/PEL of {limit}"


@dataclass(frozen=True)
class ExposureLimit:
    """A TLV/PEL: ``value`` in ``unit`` (an :class:`~assessments.models.ExposureLimitUnit` value)."""

    value: float
    unit: str

    @property
    def text(self) -> str:
        """As printed: ``5 mg/m³``, ``0.5 ppm``."""
        return f"{significant(self.value, 3)} {ExposureLimitUnit(self.unit).label}"


@dataclass(frozen=True)
class LimitCheck:
    """One estimate against the limit: ``state`` (:data:`ABOVE`, :data:`NOT_ABOVE`,
    :data:`CANNOT_COMPARE`, :data:`RECOMPUTE`) and the words that say it."""

    state: str
    text: str

    @property
    def above(self) -> bool:
        return self.state == ABOVE


def case_limit(submission: Submission) -> ExposureLimit | None:
    """The case's TLV/PEL, or None when it gives no value (a note alone is not a limit)."""
    if submission.tlv_pel_value is None or not submission.tlv_pel_unit:
        return None
    return ExposureLimit(submission.tlv_pel_value, submission.tlv_pel_unit)


def tlv_pel_text(submission: Submission, *, note: str | None = None) -> str:
    """The case's TLV/PEL as the IRER header and the case page print it: ``5 mg/m³ (ACGIH
    TLV 2024)``, ``5 mg/m³``, the note alone, or ``""``. ``note`` replaces the stored note
    (the report passes it through its CBI filter)."""
    limit = case_limit(submission)
    note = (submission.tlv_pel if note is None else note).strip()
    if limit is None:
        return note
    return f"{limit.text} ({note})" if note else limit.text


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def concentration_in(estimate: dict, unit: str, molecular_weight: float | None) -> float | None:
    """The estimate's airborne concentration in ``unit``: its own figure, or the other one
    converted with ``molecular_weight`` (ppm = mg/m³ × 24.45 / MW); None when neither is possible.

    >>> round(concentration_in({"mg_m3": 8.18, "ppm": None}, "ppm", 200.0), 6)  # 8.18 × 24.45 / 200
    1.000005
    >>> concentration_in({"mg_m3": 8.18}, "ppm", None) is None
    True
    """
    mg_m3, ppm = _number(estimate.get("mg_m3")), _number(estimate.get("ppm"))
    mw = _number(molecular_weight)
    mw = mw if mw and mw > 0 else None
    if unit == ExposureLimitUnit.PPM:
        if ppm is not None:
            return ppm
        return mg_m3 * MOLAR_VOLUME_L_MOL / mw if mg_m3 is not None and mw else None
    if mg_m3 is not None:
        return mg_m3
    return ppm * mw / MOLAR_VOLUME_L_MOL if ppm is not None and mw else None


def check_estimate(
    estimate: dict, *, route: str, limit: ExposureLimit | None, molecular_weight: float | None, result: dict
) -> LimitCheck | None:
    """``estimate`` (an exposure estimate of ``result``, on ``route``) against ``limit``;
    None when there is nothing to compare (no limit, or not an inhalation estimate).

    >>> limit = ExposureLimit(5.0, "mg/m3")
    >>> v2 = {"dose_basis": {"body_weight_kg": 80}}
    >>> check_estimate({"mg_day": 75.0, "mg_m3": 7.5}, route="inhalation", limit=limit, molecular_weight=None, result=v2).text
    'above the TLV/PEL of 5 mg/m³'
    >>> check_estimate({"mg_day": 1.0, "mg_m3": 0.1}, route="inhalation", limit=limit, molecular_weight=None, result=v2).text
    'not above the TLV/PEL of 5 mg/m³'
    >>> check_estimate({"mg_day": 1.0}, route="dermal", limit=limit, molecular_weight=None, result=v2) is None
    True
    """
    if limit is None or route != "inhalation":
        return None
    concentration = concentration_in(estimate, limit.unit, molecular_weight)
    if concentration is not None:
        state = ABOVE if concentration > limit.value else NOT_ABOVE
        return LimitCheck(state, (ABOVE_TEXT if state == ABOVE else NOT_ABOVE_TEXT).format(limit=limit.text))
    if not reports_concentrations(result):
        return LimitCheck(RECOMPUTE, NOT_COMPUTED.format(limit=limit.text))
    if _number(estimate.get("mg_m3")) is None and _number(estimate.get("ppm")) is None:
        return LimitCheck(CANNOT_COMPARE, NO_CONCENTRATION.format(limit=limit.text))
    missing = NO_PPM if limit.unit == ExposureLimitUnit.PPM else NO_MG_M3
    return LimitCheck(CANNOT_COMPARE, missing.format(limit=limit.text))


def reports_concentrations(result: dict | None) -> bool:
    """True for a result from an engine that reports doses and airborne concentrations
    (it carries its ``dose_basis``); False for one stored before, whose estimates say
    nothing about their concentration."""
    return bool((result or {}).get("dose_basis"))
