"""Numbers in the sentences a reviewer reads (``basis``, notes, warnings).

The engine keeps full precision in every number field; only the prose rounds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from numbers import Real

#: E-notation, as EPA prints it (1.18E-8), for a magnitude of a million or more or below a
#: thousandth; the application's pages print numbers by the same rule (assessments.numbers).
E_NOTATION_FROM = 1e6
E_NOTATION_BELOW = 1e-3


def in_e_notation(value: float) -> bool:
    """Whether ``value`` prints in E-notation: ``|x| >= 1E+6`` or ``0 < |x| < 1E-3``.

    >>> in_e_notation(999_999), in_e_notation(1e6), in_e_notation(0.001), in_e_notation(9.99e-4), in_e_notation(0)
    (False, True, False, True, False)
    """
    return value != 0 and (abs(value) >= E_NOTATION_FROM or abs(value) < E_NOTATION_BELOW)


def e_notation(value: float | Decimal, sig: int, pad: bool = True) -> str:
    """``value`` in EPA's E-notation to ``sig`` figures: a capital E, no padding zeros in
    the exponent; the mantissa's trailing zeros kept (``pad``) or dropped.

    >>> e_notation(1.5e-7, 3), e_notation(1.5e-7, 3, pad=False), e_notation(1.94e13, 3)
    ('1.50E-7', '1.5E-7', '1.94E+13')

    A value beyond floating point (an overflow the engine then refuses) prints as Python
    does, so the refusal, not the formatting, is what the user sees:

    >>> e_notation(float("inf"), 3), e_notation(float("nan"), 3)
    ('inf', 'nan')
    """
    if not math.isfinite(value):
        return str(value)
    mantissa, exponent = f"{value:.{max(sig, 1) - 1}E}".split("E")
    if not pad and "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}E{int(exponent):+d}"


def num(x: float, sig: int = 3) -> str:
    """A number for prose: whole numbers with thousands separators, else ``sig`` figures;
    E-notation by :func:`in_e_notation`.

    >>> num(2924), num(360.0), num(4.6018519), num(0.0277778), num(5000.4), num(2.5566)
    ('2,924', '360', '4.60', '0.0278', '5,000', '2.56')
    >>> num(1.5e-7), num(0.0005), num(1.94e13)
    ('1.50E-7', '5.00E-4', '1.94E+13')
    """
    value = float(x)
    if in_e_notation(float(f"{value:.{sig}g}")):
        return e_notation(value, sig)
    if value.is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    if abs(value) >= 1_000:
        return f"{value:,.0f}"
    return f"{value:#.{sig}g}".rstrip(".")


def given(x: float) -> str:
    """An input as entered (no padding zeros).

    >>> given(0.07), given(1.0), given(0.006), given(1e-6)
    ('0.07', '1', '0.006', '1E-6')
    """
    value = float(x)
    if in_e_notation(value):
        return e_notation(value, 6, pad=False)
    return f"{value:g}"


#: The smallest percentage the prose prints as a number; a smaller one that is not zero
#: reads "< 0.1 %", as the pages print it (assessments.numbers.percent), never "0 %".
SMALLEST_PERCENT = 0.1


def _percent(value: float, sig: int, sign: str = "") -> str:
    """``value`` (already a percentage) to ``sig`` figures, thousands separated, never in
    E-notation: "0 %" only for zero; a smaller magnitude than :data:`SMALLEST_PERCENT`
    reads "< 0.1 %" (signed: "< +0.1 %", "> -0.1 %")."""
    if value == 0:
        return "0 %"
    if abs(value) < SMALLEST_PERCENT:
        return f"< {sign}{SMALLEST_PERCENT:g} %" if value > 0 else f"> -{SMALLEST_PERCENT:g} %"
    if abs(float(f"{value:.{sig}g}")) >= 10 ** sig:
        return f"{value:{sign},.0f} %"
    return f"{value:{sign}.{sig}g} %"


def share(part: float, whole: float) -> str:
    """``part`` as a percentage of ``whole``, to four significant figures; a share that is
    not zero never reads "0 %".

    >>> share(5030.18, 5000), share(5000, 5000), share(6176.3, 5000), share(0, 5000)
    ('100.6 %', '100 %', '123.5 %', '0 %')
    >>> share(0.002, 5000), share(5, 5000), share(1_234_567, 100)
    ('< 0.1 %', '0.1 %', '1,234,567 %')
    """
    return _percent(100 * part / whole, 4)


def change(x: float) -> str:
    """A relative difference for prose, signed; "0 %" only when there is none: a change
    that is not zero but under 0.1 % reads "< +0.1 %" (or "> -0.1 %").

    >>> change(0.0060362), change(-0.006), change(0), change(2e-9), change(-2.2e-16)
    ('+0.604 %', '-0.6 %', '0 %', '< +0.1 %', '> -0.1 %')
    >>> change(0.001), change(0.0009996), change(12.345), change(-0.99995)
    ('+0.1 %', '< +0.1 %', '+1,234 %', '-100 %')
    """
    return _percent(100 * x, 3, "+")


def count(n: float, noun: str, plural: str | None = None,
          shown: Callable[[float], str] | None = None) -> str:
    """``n`` and ``noun`` agreeing in number: the singular for exactly one, as printed.

    ``shown`` prints the number (:func:`num`, :func:`given`, :func:`figure`); a whole
    number prints with thousands separators by default. ``plural`` is for a noun that does
    not take an "s".

    >>> count(1, "site"), count(2, "site"), count(0, "worker"), count(1.0, "day", shown=num)
    ('1 site', '2 sites', '0 workers', '1 day')
    >>> count(0.5, "day", shown=given), count(2924, "container"), count(1, "batch", "batches")
    ('0.5 days', '2,924 containers', '1 batch')
    >>> count(3, "batch", "batches"), count(1.0004, "day", shown=figure)
    ('3 batches', '1 day')
    """
    if shown is None:
        shown = (lambda v: f"{int(v):,}") if float(n).is_integer() else num
    text = shown(n)
    return f"{text} {noun if text == '1' else plural or noun + 's'}"


def figure(x: float, sig: int = 3) -> str:
    """A number for a sentence: ``sig`` significant figures (three by default), thousands
    separated, no padding zeros (unlike :func:`num`); the CVD scenario's sentences print
    numbers so, and a loss fraction prints to four (``0.03465``, as the ESD prints it).

    >>> figure(2.8), figure(2.7777778), figure(1234.5), figure(0.52), figure(1.5e-7), figure(1.178e-8)
    ('2.8', '2.78', '1,234', '0.52', '1.5E-7', '1.18E-8')
    >>> figure(0.0346500001, 4), figure(0.9207, 4), figure(0.5, 4), figure(0.123456, 4)
    ('0.03465', '0.9207', '0.5', '0.1235')
    """
    if in_e_notation(float(f"{x:.{sig}g}")):
        return e_notation(x, sig, pad=False)
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.{sig}g}"


def irer_percent(fraction: float) -> str:
    """A fraction as ChemSTEER's IRER prints a percentage: no space before the sign, four
    significant figures at most, no padding zeros (the 2018 sample IRER's "15%", "0.6%
    residual", "7%").

    >>> irer_percent(0.15), irer_percent(0.006), irer_percent(1), irer_percent(0.5), irer_percent(0.123456)
    ('15%', '0.6%', '100%', '50%', '12.35%')
    """
    return f"{figure(100 * fraction, 4)}%"


def allowed_range(lower: float | None, upper: float | None, *, lower_open: bool = False,
                  upper_open: bool = False) -> str:
    """The allowed range in words, each bound as entered (:func:`given`); empty with no
    bound. The input forms and the models' argument checks say a range so.

    >>> allowed_range(0, 1), allowed_range(0, 365, lower_open=True), allowed_range(0, None, lower_open=True)
    ('between 0 and 1', 'greater than 0 and at most 365', 'greater than 0')
    >>> allowed_range(None, 8), allowed_range(None, 1, upper_open=True), allowed_range(1, None), allowed_range(None, None)
    ('at most 8', 'less than 1', 'at least 1', '')
    >>> allowed_range(0, 1, lower_open=True, upper_open=True), allowed_range(0.001, 5e6)
    ('greater than 0 and less than 1', 'between 0.001 and 5E+6')
    """
    left = f"{'greater than' if lower_open else 'at least'} {given(lower)}" if lower is not None else ""
    right = f"{'less than' if upper_open else 'at most'} {given(upper)}" if upper is not None else ""
    if lower is not None and upper is not None and not lower_open and not upper_open:
        return f"between {given(lower)} and {given(upper)}"
    return " and ".join(part for part in (left, right) if part)


# --- Units that agree with their number, and the engine's own names --------------------------

#: A count's units in the plural, as the engine declares them, and the singular for exactly one.
SINGULAR = {
    "sites": "site",
    "days": "day",
    "workers": "worker",
    "containers": "container",
    "hours": "hour",
    "years": "year",
    "cleanings": "cleaning",
    "batches": "batch",
    "wafers": "wafer",
    "lines": "line",
    "shifts": "shift",
    "applications": "application",
    "incidents": "incident",
    "units": "unit",
    "miles": "mile",
}


def unit_for(value: object, units: str) -> str:
    """``units`` as they agree with ``value``: the singular of a count for exactly one.

    >>> unit_for(1, "sites"), unit_for(2, "sites"), unit_for(1, "days/yr"), unit_for(1.0, "workers/site-day")
    ('site', 'sites', 'day/yr', 'worker/site-day')
    >>> unit_for(1, "kg/site-day"), unit_for(0, "sites"), unit_for(1, "containers/site-yr")
    ('kg/site-day', 'sites', 'container/site-yr')
    >>> unit_for(1, "lines/site"), unit_for(1, "shifts/day"), unit_for(1, "incidents/day"), unit_for(2, "lines/site")
    ('line/site', 'shift/day', 'incident/day', 'lines/site')
    """
    if not units or isinstance(value, bool) or not isinstance(value, Real) or value != 1:
        return units
    head, rest = re.match(r"([A-Za-z]*)(.*)", units).groups()  # type: ignore[union-attr]  # matches any text
    return SINGULAR.get(head, head) + rest


def internal_name(symbol: str) -> bool:
    """Whether ``symbol`` is one of the engine's own keys (``stripping_process``, ``medium_2``,
    ``kg_site_yr``: lower case, words joined by underscores) rather than a document's symbol
    (``Qchem_day``, ``TIMEapply_days``, ``d_x``: a capital, or one-letter parts). A reviewer
    reads such an input by its label, or a computed step by its words (:func:`in_words`), never
    by the key.

    >>> internal_name("stripping_process"), internal_name("medium_2"), internal_name("kg_site_yr")
    (True, True, True)
    >>> internal_name("Qchem_day"), internal_name("d_x"), internal_name("E_x_sat"), internal_name("days"), internal_name("OH")
    (False, False, False, False, False)
    """
    return bool(re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", symbol)) and bool(re.search(r"[a-z]{2}", symbol))


def in_words(symbol: str) -> str:
    """An engine key in words (``max_exposure_days`` -> ``max exposure days``); a document's
    symbol as it is.

    >>> in_words("max_exposure_days"), in_words("kg_site_yr"), in_words("Qchem_day")
    ('max exposure days', 'kg site yr', 'Qchem_day')
    """
    return symbol.replace("_", " ") if internal_name(symbol) else symbol
