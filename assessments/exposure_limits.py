"""The case's occupational exposure limit (TLV/PEL) and the airborne concentrations the
engine estimates: the one comparison the results page, the assessment's exposure summary
and the IRER print.

A case gives its limit as a number, a unit and a kind (``Submission.tlv_pel_value``,
``tlv_pel_unit``: mg/m³ or ppm; ``tlv_pel_kind``: an 8-hour TWA, a 15-minute STEL or a
ceiling), with a free-text note (``tlv_pel``: whose limit, which year). An inhalation
estimate computed from an airborne concentration carries that concentration (``mg_m3``, an
8-hour TWA; ``ppm`` for a vapour with a molecular weight: spec/INTERFACE.md, "Additions,
version 2") and the concentration during its task (``task_mg_m3``, ``task_ppm``, over
``task_minutes`` a day: "Additions, version 3"). :func:`check_estimate` compares the limit
with the matching concentration ("Additions, version 3"):

- an 8-hour TWA with the estimate's 8-hour TWA (as before the kind existed);
- a 15-minute STEL with the highest 15-minute average of the task, C × min(t, 15) / 15 for
  t minutes at C (:func:`~assessments.esd.models.inhalation.fifteen_minute_average`): ACGIH
  defines the TLV-STEL as "a 15-minute TWA exposure that should not be exceeded at any time
  during a workday" (TLVs and BEIs, Introduction), as OSHA's STELs are (e.g. 29 CFR
  1910.1028(b)); outside the task the model's worker is unexposed, the 8-hour TWA's own
  assumption (ESD 2010 Eq B-10), and the whole task in one window is the worst case;
- a ceiling with the concentration during the task: a ceiling "shall at no time" be
  exceeded (29 CFR 1910.1000(a)(1); ACGIH's TLV-C, "not be exceeded during any part of the
  working exposure"). The models give a steady concentration over the task, not its
  peaks, so "not above" says the model's concentration is not above it.

A short-term limit is never compared with the 8-hour TWA (a one-minute task at 480 times
its TWA would read "not above"): where an estimate has no concentration during its task,
the check says it cannot be made and why. Each comparison is in the limit's unit:

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

from .esd.models.inhalation import (  # 24.45 L/mol at 25 °C, 1 atm; a task's minutes, at most 8 h
    MAX_EXPOSURE_HOURS,
    MINUTES_PER_HOUR,
    MOLAR_VOLUME_L_MOL,
    fifteen_minute_average,
)
from .models import ExposureLimitKind, ExposureLimitUnit, Submission
from .numbers import significant

ABOVE, NOT_ABOVE, CANNOT_COMPARE, RECOMPUTE = "above", "not above", "cannot compare", "recompute"

#: What each kind of limit is called in the words of a comparison ("above the ceiling of 5 mg/m³"),
#: after the value in the limit's own text ("5 mg/m³ ceiling"; an 8-hour TWA, the limit a
#: TLV/PEL has always meant here, is printed as before: "5 mg/m³", "the TLV/PEL of 5 mg/m³").
LIMIT_NAMES = {
    ExposureLimitKind.TWA_8H: "TLV/PEL",
    ExposureLimitKind.STEL_15MIN: "15-minute STEL",
    ExposureLimitKind.CEILING: "ceiling",
}
#: What each kind of limit is compared with, as the pages say it once beside the limit.
COMPARED_WITH = {
    ExposureLimitKind.TWA_8H: "compared with each inhalation estimate's 8-hour TWA",
    ExposureLimitKind.STEL_15MIN: (
        "compared with each inhalation estimate's highest 15-minute average: its concentration during the task × "
        "the task's minutes (at most 15) ÷ 15, no exposure outside the task"
    ),
    ExposureLimitKind.CEILING: "compared with each inhalation estimate's concentration during its task",
}

ABOVE_TEXT = "above the {name} of {limit}"
NOT_ABOVE_TEXT = "not above the {name} of {limit}"
#: After a short-term comparison's words: the figure compared (not printed elsewhere).
DURING_TASK = ": {task} during the task ({minutes} min a day)"
FIFTEEN_MINUTES = ": 15-minute average {average} ({task} during the task, {minutes} min a day)"
NO_CONCENTRATION = (
    "cannot be compared with the {name} of {limit}: this estimate is not computed from an airborne concentration"
)
NO_PPM = (
    "cannot be compared with the {name} of {limit}: the estimate has no concentration in ppm and the case "
    "gives no molecular weight to convert its mg/m³"
)
NO_MG_M3 = (
    "cannot be compared with the {name} of {limit}: the estimate has no concentration in mg/m³ and the case "
    "gives no molecular weight to convert its ppm"
)
NO_TASK = (
    "cannot be compared with the {name} of {limit}: the model gives this estimate's 8-hour TWA only, not its "
    "concentration during the task, and a short-term limit is not compared with a full-shift average"
)
NOT_COMPUTED = "not computed: recompute the use to compare it with the {name} of {limit}"
NOT_COMPUTED_TASK = (
    "not computed: recompute the use to compare it with the {name} of {limit} (the stored result has no "
    "concentration during the task)"
)
#: The keys of an estimate's concentration: its 8-hour TWA, and during its task.
TWA_KEYS, TASK_KEYS = ("mg_m3", "ppm"), ("task_mg_m3", "task_ppm")


@dataclass(frozen=True)
class ExposureLimit:
    """A TLV/PEL: ``value`` in ``unit`` (an :class:`~assessments.models.ExposureLimitUnit`
    value), of ``kind`` (an :class:`~assessments.models.ExposureLimitKind` value)."""

    value: float
    unit: str
    kind: str = ExposureLimitKind.TWA_8H

    @property
    def amount(self) -> str:
        """The value and its unit: ``5 mg/m³``, ``0.5 ppm``."""
        return f"{significant(self.value, 3)} {ExposureLimitUnit(self.unit).label}"

    @property
    def text(self) -> str:
        """As printed, with its kind: ``5 mg/m³`` (an 8-hour TWA), ``5 mg/m³ ceiling``,
        ``0.5 ppm 15-minute STEL``."""
        return self.amount if self.kind == ExposureLimitKind.TWA_8H else f"{self.amount} {self.name}"

    @property
    def name(self) -> str:
        """The limit as a comparison names it: ``TLV/PEL``, ``15-minute STEL``, ``ceiling``."""
        return LIMIT_NAMES[ExposureLimitKind(self.kind)]

    @property
    def compared_with(self) -> str:
        """What each inhalation estimate's flag compares with the limit, in words."""
        return COMPARED_WITH[ExposureLimitKind(self.kind)]

    def words(self, template: str) -> str:
        return template.format(name=self.name, limit=self.amount)


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
    return ExposureLimit(submission.tlv_pel_value, submission.tlv_pel_unit,
                         submission.tlv_pel_kind or ExposureLimitKind.TWA_8H)


def tlv_pel_text(submission: Submission, *, note: str | None = None) -> str:
    """The case's TLV/PEL as the IRER header and the case page print it: ``5 mg/m³ (ACGIH
    TLV 2024)``, ``5 mg/m³``, ``5 mg/m³ ceiling (OSHA PEL)``, the note alone, or ``""``.
    ``note`` replaces the stored note (the report passes it through its CBI filter)."""
    limit = case_limit(submission)
    note = (submission.tlv_pel if note is None else note).strip()
    if limit is None:
        return note
    return f"{limit.text} ({note})" if note else limit.text


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def concentration_in(estimate: dict[str, Any], unit: str, molecular_weight: float | None,
                     keys: tuple[str, str] = TWA_KEYS) -> float | None:
    """The estimate's airborne concentration in ``unit``: its own figure, or the other one
    converted with ``molecular_weight`` (ppm = mg/m³ × 24.45 / MW); None when neither is
    possible. ``keys``: the estimate's mg/m³ and ppm keys (:data:`TWA_KEYS`, the 8-hour
    TWA; :data:`TASK_KEYS`, during the task).

    >>> round(concentration_in({"mg_m3": 8.18, "ppm": None}, "ppm", 200.0), 6)  # 8.18 × 24.45 / 200
    1.000005
    >>> concentration_in({"mg_m3": 8.18}, "ppm", None) is None
    True
    >>> concentration_in({"mg_m3": 0.1, "task_mg_m3": 48.0}, "mg/m3", None, TASK_KEYS)
    48.0
    """
    mg_m3, ppm = _number(estimate.get(keys[0])), _number(estimate.get(keys[1]))
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
    estimate: dict[str, Any], *, route: str, limit: ExposureLimit | None, molecular_weight: float | None,
    result: dict[str, Any],
) -> LimitCheck | None:
    """``estimate`` (an exposure estimate of ``result``, on ``route``) against ``limit``, with
    the concentration its kind limits; None when there is nothing to compare (no limit, or
    not an inhalation estimate).

    >>> limit = ExposureLimit(5.0, "mg/m3")
    >>> v2 = {"dose_basis": {"body_weight_kg": 80}}
    >>> check_estimate({"mg_day": 75.0, "mg_m3": 7.5}, route="inhalation", limit=limit, molecular_weight=None, result=v2).text
    'above the TLV/PEL of 5 mg/m³'
    >>> check_estimate({"mg_day": 1.0, "mg_m3": 0.1}, route="inhalation", limit=limit, molecular_weight=None, result=v2).text
    'not above the TLV/PEL of 5 mg/m³'
    >>> check_estimate({"mg_day": 1.0}, route="dermal", limit=limit, molecular_weight=None, result=v2) is None
    True

    A one-minute task at 48 mg/m³ is 0.1 mg/m³ over 8 hours (48 × 1 / 480):

    >>> task = {"mg_day": 1.0, "mg_m3": 0.1, "task_mg_m3": 48.0, "task_ppm": None, "task_minutes": 1.0}
    >>> check_estimate(task, route="inhalation", limit=ExposureLimit(5.0, "mg/m3", "ceiling"),
    ...                molecular_weight=None, result=v2).text
    'above the ceiling of 5 mg/m³: 48 mg/m³ during the task (1 min a day)'
    >>> check_estimate(task, route="inhalation", limit=ExposureLimit(5.0, "mg/m3", "stel_15min"),
    ...                molecular_weight=None, result=v2).text  # 48 × 1 / 15 = 3.2
    'not above the 15-minute STEL of 5 mg/m³: 15-minute average 3.2 mg/m³ (48 mg/m³ during the task, 1 min a day)'
    """
    if limit is None or route != "inhalation":
        return None
    if limit.kind == ExposureLimitKind.TWA_8H:
        return _check_twa(estimate, limit, molecular_weight, result)
    return _check_short_term(estimate, limit, molecular_weight, result)


def _compared(limit: ExposureLimit, concentration: float, tail: str = "") -> LimitCheck:
    state = ABOVE if concentration > limit.value else NOT_ABOVE
    return LimitCheck(state, limit.words(ABOVE_TEXT if state == ABOVE else NOT_ABOVE_TEXT) + tail)


def _check_twa(estimate: dict[str, Any], limit: ExposureLimit, molecular_weight: float | None,
               result: dict[str, Any]) -> LimitCheck:
    """An 8-hour TWA limit against the estimate's 8-hour TWA."""
    concentration = concentration_in(estimate, limit.unit, molecular_weight)
    if concentration is not None:
        return _compared(limit, concentration)
    if not reports_concentrations(result):
        return LimitCheck(RECOMPUTE, limit.words(NOT_COMPUTED))
    return _not_comparable(estimate, limit, TWA_KEYS)


def _check_short_term(estimate: dict[str, Any], limit: ExposureLimit, molecular_weight: float | None,
                      result: dict[str, Any]) -> LimitCheck:
    """A STEL or a ceiling against the concentration during the task (never the 8-hour TWA)."""
    task = concentration_in(estimate, limit.unit, molecular_weight, TASK_KEYS)
    minutes = _number(estimate.get("task_minutes"))
    if task is not None and minutes is not None and 0 <= minutes <= MAX_EXPOSURE_HOURS * MINUTES_PER_HOUR:
        unit = ExposureLimitUnit(limit.unit).label
        task_text, minutes_text = f"{significant(task, 3)} {unit}", significant(minutes, 3)
        if limit.kind == ExposureLimitKind.CEILING:
            # A task of no minutes exposes no one: nothing is above the ceiling.
            return _compared(limit, task if minutes > 0 else 0.0,
                             DURING_TASK.format(task=task_text, minutes=minutes_text))
        average = fifteen_minute_average(task, minutes)
        return _compared(limit, average, FIFTEEN_MINUTES.format(
            average=f"{significant(average, 3)} {unit}", task=task_text, minutes=minutes_text))
    if not reports_concentrations(result):
        return LimitCheck(RECOMPUTE, limit.words(NOT_COMPUTED))
    if all(_number(estimate.get(key)) is None for key in TWA_KEYS + TASK_KEYS):
        return LimitCheck(CANNOT_COMPARE, limit.words(NO_CONCENTRATION))
    if "task_minutes" not in estimate:  # stored before the engine reported the task (version 3)
        return LimitCheck(RECOMPUTE, limit.words(NOT_COMPUTED_TASK))
    if all(_number(estimate.get(key)) is None for key in TASK_KEYS) or minutes is None:
        return LimitCheck(CANNOT_COMPARE, limit.words(NO_TASK))
    return _not_comparable(estimate, limit, TASK_KEYS)


def _not_comparable(estimate: dict[str, Any], limit: ExposureLimit, keys: tuple[str, str]) -> LimitCheck:
    """Why the estimate's concentration (at ``keys``) cannot be had in the limit's unit."""
    if _number(estimate.get(keys[0])) is None and _number(estimate.get(keys[1])) is None:
        return LimitCheck(CANNOT_COMPARE, limit.words(NO_CONCENTRATION))
    missing = NO_PPM if limit.unit == ExposureLimitUnit.PPM else NO_MG_M3
    return LimitCheck(CANNOT_COMPARE, limit.words(missing))


def reports_concentrations(result: dict[str, Any] | None) -> bool:
    """True for a result from an engine that reports doses and airborne concentrations
    (it carries its ``dose_basis``); False for one stored before, whose estimates say
    nothing about their concentration."""
    return bool((result or {}).get("dose_basis"))
