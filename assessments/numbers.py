"""How the application prints a number: one rule for the pages, History and Compare, and
EPA's E-notation for the report.

The engine keeps full precision; rounding happens only when a number becomes text, here.

The rule for a computed number (:func:`significant`):

- three significant figures (``digits``), without a float tail: 4.6018518 -> ``4.6``,
  0.0277778 -> ``0.0278``; a whole part is never rounded away: 2,923.98 -> ``2,924``;
- thousands separators: ``5,000``;
- E-notation as EPA prints it (``1.18E-8``, ``1.94E+13``: a capital E, the exponent
  without padding zeros) for a magnitude of a million or more, or below one thousandth:
  ``|x| >= 1E+6`` or ``0 < |x| < 1E-3`` (:data:`E_NOTATION_FROM`, :data:`E_NOTATION_BELOW`),
  decided on the number as rounded, the same threshold for every number on a page, so a
  row never holds 19,400,000,000,000 beside 4.85E+15. The engine's sentences (a release's
  basis, the notes) switch at the same threshold and spell it the same way
  (``assessments.esd.text``, where the threshold is declared), so a basis and the
  calculation trace print one number alike;
- nothing given (``None``) reads as an em dash.

An input prints as it was entered (:func:`entered`): every digit it holds, with the same
separators and E-notation. A number with its units reads ``2.3 kg/site-day``, one space
between, and a count agrees with its number: ``1 site``, ``2 sites``, ``1 day/yr``
(:func:`quantity`). A share reads ``15 %``, and a share that is not zero never reads
``0 %`` (:func:`percent`: ``< 0.1 %``).
"""

from __future__ import annotations

import math
from decimal import Decimal
from numbers import Real
from typing import SupportsFloat, TypeGuard

from .esd.text import E_NOTATION_BELOW, E_NOTATION_FROM, e_notation, in_e_notation, unit_for

__all__ = ["E_NOTATION_BELOW", "E_NOTATION_FROM", "entered", "epa", "percent", "quantity", "share", "significant",
           "unit_for"]

#: Significant figures of a computed number on the pages.
SIGNIFICANT = 3
#: What a missing number reads as in a table's cell.
NOTHING = "—"
#: What a missing value reads as in words: a header field, an input, a case value in a
#: sentence (issue 41: never an empty slot).
NOT_GIVEN = "not given"
#: The smallest share :func:`percent` prints as a number; a smaller one that is not zero reads "< 0.1 %".
SMALLEST_PERCENT = 0.1

def _is_number(value: object) -> TypeGuard[float]:
    """A real number (an int or a float, not a bool): what the rules below print as a number."""
    return isinstance(value, Real) and not isinstance(value, bool)


def _e_notation(value: float | Decimal, digits: int) -> str:
    return e_notation(value, digits, pad=False)


def _rounded(value: float, digits: int) -> tuple[float, int]:
    """``value`` to ``digits`` significant figures, never rounding away a whole unit, and the
    decimals kept."""
    if value == 0:
        return 0.0, 0
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    return round(value, decimals), decimals


def significant(value: object, digits: int = SIGNIFICANT) -> str:
    """A computed number to ``digits`` significant figures, as every page prints it.

    >>> significant(4.6018518), significant(2923.98), significant(0.0277778), significant(5000.0)
    ('4.6', '2,924', '0.0278', '5,000')
    >>> significant(1.178e-8), significant(1.94e13), significant(4.85e15), significant(999_999.6)
    ('1.18E-8', '1.94E+13', '4.85E+15', '1E+6')
    >>> significant(0.000999), significant(0.0009996), significant(0.001), significant(-0.5)
    ('9.99E-4', '0.001', '0.001', '-0.5')
    >>> significant(1.0e-6), significant(0), significant(None), significant(3), significant("high end")
    ('1E-6', '0', '—', '3', 'high end')
    >>> significant(1.178e-8, 4), significant(24.45, 6), significant(0.3834876543), significant(82.26027775)
    ('1.178E-8', '24.45', '0.383', '82.3')
    """
    if value is None or value == "":
        return NOTHING
    if not _is_number(value):
        return str(value)
    value = float(value)
    if not math.isfinite(value):
        return "not a number" if math.isnan(value) else ("infinite" if value > 0 else "minus infinite")
    rounded, decimals = _rounded(value, digits)
    if rounded == 0:
        return "0"
    if in_e_notation(rounded):
        return _e_notation(value, digits)
    text = f"{rounded:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def entered(value: object) -> str:
    """An input as it was entered: every digit it holds (the shortest text that reads back
    as the stored number), with the separators and the E-notation of :func:`significant`.

    >>> entered(24.45), entered(5000), entered(5000.0), entered(0.15), entered(123.45678901234)
    ('24.45', '5,000', '5,000', '0.15', '123.45678901234')
    >>> entered(1e-06), entered(1.5e-7), entered(2_500_000), entered(0.0015), entered(-0.0005), entered(None)
    ('1E-6', '1.5E-7', '2.5E+6', '0.0015', '-5E-4', '—')
    >>> entered(2 ** -24), float(entered(2 ** -24)) == 2 ** -24
    ('5.960464477539063E-8', True)
    """
    if value is None or value == "":
        return NOTHING
    if not _is_number(value):
        return str(value)
    if isinstance(value, int):
        if abs(value) < E_NOTATION_FROM:
            return f"{value:,}"
        return _e_notation(float(value), len(str(abs(value)).rstrip("0")))
    value = float(value)
    if not math.isfinite(value):
        return significant(value)
    if value == 0:
        return "0"
    mantissa = repr(abs(value)).lower().split("e")[0]
    digits = len(mantissa.replace(".", "").lstrip("0").rstrip("0")) or 1
    # The digits as repr gives them (the shortest text that reads back as the number): a
    # float rounded again to as many digits may read back as its neighbour (2**-24).
    exact = Decimal(repr(value))
    if in_e_notation(value):
        return _e_notation(exact, digits)
    if value.is_integer():
        return f"{int(value):,}"
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    return f"{exact:,.{decimals}f}"


def quantity(value: object, units: str = "", digits: int = SIGNIFICANT) -> str:
    """A computed number with its units, one space between, the units agreeing with it.

    >>> quantity(1, "sites"), quantity(3, "sites"), quantity(250, "days/yr"), quantity(2.2987, "kg/site-day")
    ('1 site', '3 sites', '250 days/yr', '2.3 kg/site-day')
    >>> quantity(1.178e-8, "kg/s"), quantity(None, "kg/yr"), quantity(0.15, "")
    ('1.18E-8 kg/s', '—', '0.15')
    """
    text = significant(value, digits)
    if text == NOTHING or not units:
        return text
    return f"{text} {unit_for(value, units)}"


def percent(fraction: object, digits: int = SIGNIFICANT) -> str:
    """A fraction as a percentage; a share that is not zero never reads ``0 %``.

    >>> percent(0.15), percent(1), percent(0.0004), percent(0), percent(-0.0004), percent(0.012345)
    ('15 %', '100 %', '< 0.1 %', '0 %', '> -0.1 %', '1.23 %')
    >>> percent(None)
    '—'
    """
    if not _is_number(fraction):
        return significant(fraction)
    share = 100 * float(fraction)
    if share == 0:
        return "0 %"
    if abs(share) < SMALLEST_PERCENT:
        return f"< {significant(SMALLEST_PERCENT)} %" if share > 0 else f"> -{significant(SMALLEST_PERCENT)} %"
    return f"{significant(share, digits)} %"


def signed_percent(fraction: object, digits: int = SIGNIFICANT) -> str:
    """A relative change as a signed percentage (:func:`percent`, ``+`` before a rise), as
    ``esd impact``, the engine-change page, Recompute and the v3.2 column print it.

    >>> signed_percent(0.673), signed_percent(-0.5), signed_percent(0), signed_percent(None)
    ('+67.3 %', '-50 %', '0 %', '—')
    """
    if not _is_number(fraction):
        return NOTHING
    return ("+" if float(fraction) > 0 else "") + percent(fraction, digits)


def share(part: object, whole: object, digits: int = SIGNIFICANT) -> str:
    """``part`` as a percentage of ``whole`` (:func:`percent`).

    >>> share(346.5, 5000), share(0.001, 5000), share(1, 0)
    ('6.93 %', '< 0.1 %', '—')
    """
    if not (_is_number(part) and _is_number(whole)) or whole == 0:
        return NOTHING
    return percent(part / whole, digits)


def epa(value: SupportsFloat | None, digits: int = 2) -> str:
    """E-notation with ``digits`` significant figures, as EPA's IRER prints numbers (the
    mantissa keeps its zeros: ``5.0E+3``).

    >>> epa(0.1605), epa(57.78), epa(4.63), epa(5000), epa(0.0277778), epa(0)
    ('1.6E-1', '5.8E+1', '4.6E+0', '5.0E+3', '2.8E-2', '0.0E+0')
    """
    if value is None:
        return NOTHING
    return e_notation(float(value), digits)
