"""One comparison: is an engine number the figure a document printed, at the document's precision?

A document prints a figure rounded: "4.60" to two decimals, "2,924" to the unit, "1,800"
to two significant figures (Table B-8 of the 2010 ESD rounds 1,764 so), "4.3E+0" to two
significant figures (the sample IRER's E-notation), "5.84 × 10⁻⁵" to three, "7%" to the
percent. :func:`parse_printed` reads the value and the place of its last printed digit
(the *quantum*); :func:`matches` rounds the engine's full-precision number half-up to that
place and compares. So the engine matches "4.60" with 4.6018519 and not with 4.6052, and
"5.84 × 10⁻⁵" not with 5.8450495E-5 (5.85 × 10⁻⁵ at the printed precision).

Reading rules, each a convention of the documents:

- thousands are separated by commas in groups of three ("109,020");
- a whole number printed with trailing zeros is read to its significant figures ("290" to
  the tens, "8,650" to the tens, "1,800" to the hundreds), as the documents round tables
  of products so; a count (sites, days, containers, workers) is compared exactly instead
  (``count=True``: the engine rounds counts itself, spec INTERFACE.md "Results");
- E-notation ("1.88E-4", "5E+1") and the typeset "× 10⁻⁴" (or "* 10^-4") give their
  significant figures in the mantissa;
- a percent sign divides the value and its quantum by 100 ("0.6%" = 0.006 to 0.001); a
  whole percentage is read to the percent ("50%" = 0.50 to 0.01), as the documents give
  fractions in whole percents;
- a leading "~" or "≈" (the CVD ESD's "~19 containers") marks the document's own
  approximation: the figure is read without it.

A printed string that follows none of these rules (an illegible extraction such as
"blsites") is not a figure: :func:`parse_printed` raises ``ValueError`` and
:func:`matches` answers False.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")

_PRINTED = re.compile(
    r"""^[~≈]?\s*
    (?P<sign>[-−])?
    (?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?:
        [eE](?P<exponent>[-+]?\d+)
      | \s*[×x*]\s*10(?:\^(?P<caret>[-+−]?\d+)|(?P<superscript>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))
    )?
    \s*(?P<percent>%)?$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Printed:
    """A printed figure: its value and the place of its last printed digit."""

    value: Decimal
    quantum: Decimal


def parse_printed(text: str) -> Printed:
    """The value and precision of a figure as a document printed it.

    >>> parse_printed("2,924")
    Printed(value=Decimal('2924'), quantum=Decimal('1'))
    >>> parse_printed("4.60")
    Printed(value=Decimal('4.60'), quantum=Decimal('0.01'))
    >>> parse_printed("1,800")
    Printed(value=Decimal('1800'), quantum=Decimal('1E+2'))
    >>> parse_printed("4.3E+0"), parse_printed("5E+1").quantum
    (Printed(value=Decimal('4.3'), quantum=Decimal('0.1')), Decimal('1E+1'))
    >>> parse_printed("5.84 × 10⁻⁵")
    Printed(value=Decimal('0.0000584'), quantum=Decimal('1E-7'))
    >>> parse_printed("0.6%"), parse_printed("50%").quantum
    (Printed(value=Decimal('0.006'), quantum=Decimal('0.001')), Decimal('0.01'))
    >>> parse_printed("~19").value
    Decimal('19')
    >>> parse_printed("blsites")
    Traceback (most recent call last):
    ...
    ValueError: not a printed figure: 'blsites'
    """
    found = _PRINTED.match(text.strip())
    if not found:
        raise ValueError(f"not a printed figure: {text!r}")
    number = found["number"].replace(",", "")
    mantissa = Decimal(number)
    decimals = len(number.split(".")[1]) if "." in number else 0
    exponent_text = found["exponent"] or found["caret"] or found["superscript"]
    if exponent_text is not None:
        exponent = int(exponent_text.translate(_SUPERSCRIPT).replace("−", "-"))
        value = mantissa.scaleb(exponent)
        quantum = Decimal(1).scaleb(exponent - decimals)
    else:
        value = mantissa
        whole_with_zeros = decimals == 0 and mantissa != 0 and not found["percent"]
        trailing = len(number) - len(number.rstrip("0")) if whole_with_zeros else 0
        quantum = Decimal(1).scaleb(trailing - decimals)
    if found["sign"]:
        value = -value
    if found["percent"]:
        value, quantum = value.scaleb(-2), quantum.scaleb(-2)
    return Printed(value=value, quantum=quantum)


def at_precision(value: float, quantum: Decimal) -> Decimal:
    """``value`` rounded half-up to a multiple of ``quantum`` (a power of ten).

    >>> at_precision(4.6018519, Decimal("0.01")), at_precision(1764.0, Decimal("1E+2"))
    (Decimal('4.60'), Decimal('1.8E+3'))
    >>> at_precision(0.0345, Decimal("0.001"))  # half-up, not to even
    Decimal('0.035')
    """
    exact = Decimal(repr(float(value)))
    return (exact / quantum).quantize(Decimal(1), rounding=ROUND_HALF_UP) * quantum


def matches(printed: str, computed: float | int | None, *, count: bool = False) -> bool:
    """True when ``computed`` reads as ``printed`` at the printed precision.

    ``count``: a whole number (sites, days, containers, workers) compared exactly.

    >>> matches("4.60", 4.6018519), matches("4.60", 4.6052), matches("4.61", 4.6018519)
    (True, False, False)
    >>> matches("4.3E+0", 4.2625), matches("5E+1", 50.0), matches("1.0E+1", 10.06)
    (True, True, True)
    >>> matches("5.84 × 10⁻⁵", 5.8450495e-05), matches("1.8 × 10⁻⁴", 1.8e-4)
    (False, True)
    >>> matches("7%", 0.07), matches("2,391", 2391.12), matches("290", 294.0)
    (True, True, True)
    >>> matches("3", 3, count=True), matches("360", 359, count=True), matches("360", 359)
    (True, False, True)
    >>> matches("blsites", 3), matches("36", None)
    (False, False)
    """
    if isinstance(computed, bool) or not isinstance(computed, (int, float)) or not math.isfinite(computed):
        return False
    try:
        figure = parse_printed(printed)
    except ValueError:
        return False
    if count:
        return float(computed).is_integer() and Decimal(int(computed)) == figure.value
    return at_precision(computed, figure.quantum) == figure.value
