"""Argument checks shared by the standard models.

Every check raises :class:`ValueError` whose message names the argument, the allowed
range with its units, and the value received. Nothing is ever clamped: a value outside a
model's range is an error the caller has to resolve (pick another model, fix the input).
"""

from __future__ import annotations

import math
from numbers import Real

from ..text import allowed_range


def _with_units(text: str, units: str) -> str:
    return f"{text} {units}".rstrip()


def number(name: str, value: object, allowed: str = "") -> float:
    """Return ``value`` as a float, or raise if it is not a finite real number."""
    allowed = f" {allowed}" if allowed else ""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number{allowed} (got {value!r})")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{name} must be a finite number{allowed} (got {value!r})")
    return result


def check_range(
    name: str,
    value: object,
    *,
    lower: float | None = None,
    upper: float | None = None,
    lower_open: bool = False,
    upper_open: bool = False,
    units: str = "",
    hint: str = "",
) -> float:
    """Check ``lower <(=) value <(=) upper``; return the value as a float.

    ``hint`` is appended to the out-of-range message (e.g. which model to use instead).

    >>> check_range("X", 0.5, lower=0, upper=1)
    0.5
    >>> check_range("X", 2, lower=0, upper=1)
    Traceback (most recent call last):
    ...
    ValueError: X must be between 0 and 1 (got 2)
    >>> check_range("d_cm", 0, lower=0, lower_open=True, units="cm")
    Traceback (most recent call last):
    ...
    ValueError: d_cm must be greater than 0 cm (got 0)
    """
    # The models call this for every argument of every run (a provenance search computes a
    # scenario hundreds of times): a plain float or int within the bounds returns at once,
    # and the allowed range is put in words only for the message of a refusal.
    if type(value) is float or type(value) is int:
        x = float(value)
        if math.isfinite(x) and not _outside(x, lower, upper, lower_open, upper_open):
            return x
    allowed = allowed_range(lower, upper, lower_open=lower_open, upper_open=upper_open)
    allowed = _with_units(allowed, units) if allowed else ""
    x = number(name, value, allowed)
    if _outside(x, lower, upper, lower_open, upper_open):
        hint = f": {hint}" if hint else ""
        raise ValueError(f"{name} must be {allowed}{hint} (got {value!r})")
    return x


def _outside(x: float, lower: float | None, upper: float | None, lower_open: bool, upper_open: bool) -> bool:
    too_low = lower is not None and (x <= lower if lower_open else x < lower)
    return too_low or (upper is not None and (x >= upper if upper_open else x > upper))


def positive(name: str, value: object, units: str = "") -> float:
    """``value > 0``."""
    return check_range(name, value, lower=0, lower_open=True, units=units)


def non_negative(name: str, value: object, units: str = "") -> float:
    """``value >= 0``."""
    return check_range(name, value, lower=0, units=units)


def fraction(name: str, value: object, *, lower_open: bool = False) -> float:
    """``0 <= value <= 1`` (or ``0 < value <= 1`` with ``lower_open``)."""
    return check_range(name, value, lower=0, upper=1, lower_open=lower_open, units="[-]")


def whole_number(name: str, value: object, *, lower: int = 1, units: str = "") -> int:
    """A whole number (``3`` or ``3.0``) at least ``lower``."""
    x = check_range(name, value, lower=lower, units=units)
    if x != int(x):
        raise ValueError(
            f"{name} must be a whole number at least {lower} {units}".rstrip()
            + f" (got {value!r})"
        )
    return int(x)
