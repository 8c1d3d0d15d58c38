"""Numbers as a person types them in a form or a file: the one reading of number text
(:func:`parse_number`), used by every input's declaration (``parameters.Param.coerce``),
the case forms and the import.

Nothing here imports Django.
"""

from __future__ import annotations

import math
import re

#: How to type a number instead, when the text was one with a decimal comma.
DECIMAL_COMMA = "use a decimal point, not a comma (1.5, not 1,5)"
#: ... when its commas are not thousands separators (nor a decimal comma).
COMMA_GROUPS = "a comma may only separate thousands, in groups of three digits (5,000 or 1,234,567.5)"
#: ... when it has digits other than 0-9 (Arabic-Indic, full-width, ...).
ASCII_DIGITS = "type the digits 0-9"

_NUMBER = re.compile(
    r"""[+-]?
    (?: (?: [0-9]{1,3} (?: ,[0-9]{3} )+     # 5,000  1,234,567: commas between groups of three
          | [0-9]+ )                          # 5000  0
        (?: \.[0-9]* )?                       # 12.5  12.
      | \.[0-9]+ )                            # .5
    (?: [eE][+-]?[0-9]+ )?                    # 1e-6  1.0E-6
    """,
    re.VERBOSE,
)
# A comma where a decimal point belongs: 1,5  0,15  12,3456  1.234,5 (a dot per thousand)
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*(?:\.[0-9]{3})*,[0-9]+(?:[eE][+-]?[0-9]+)?")
# Digits and commas that are neither: 1,2345,678  12,34,567  1,234,56
_COMMA_NUMBER = re.compile(r"[+-]?[0-9,]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?")
_INFINITY = re.compile(r"[+-]?(?:inf|infinity|∞)", re.IGNORECASE)


class NumberTextError(ValueError):
    """Text that :func:`parse_number` refuses. ``hint`` says how to type the number
    instead (``""`` when nothing more helps); ``infinite`` is True for an infinity or a
    number beyond the largest double (``inf``, ``1e309``)."""

    def __init__(self, text: str, *, hint: str = "", infinite: bool = False):
        self.hint = hint
        self.infinite = infinite
        shown = text if len(text) <= 40 else text[:37] + "..."
        super().__init__(f"{shown!r} is not a {'finite ' if infinite else ''}number" + (f": {hint}" if hint else ""))


def parse_number(text: str) -> float:
    """A number as a person types it in a form or a file: the one reading of number text.

    Accepted: the ASCII digits 0-9, an optional sign, an optional decimal point, an
    optional exponent (``1e-6``, ``1.0E-6``) and blanks around it; a comma only as a
    thousands separator, between groups of exactly three digits after a first group
    of one to three, before any decimal point (``5,000``, ``1,234,567.5``). ``-0``
    reads as 0.

    Refused, with :class:`NumberTextError`: a decimal comma (``1,5``, ``0,15``: with
    the commas dropped they read as 15, ten or a hundred times the number meant), commas
    in other places (``12,34,567``), ``1_000`` and digits other than 0-9 (``١٢٣``,
    ``１２３``), which ``float()`` reads; ``nan``, ``inf``, ``infinity`` and a number
    beyond the largest double (``1e309``), which ``float()`` reads as no finite number;
    hex (``0x10``) and blank text. The error's ``hint`` says how to type the number
    instead, for the caller's message (which names the allowed range).

    Parameters
    ----------
    text : the text as typed or as a JSON string holds it

    Returns
    -------
    float : the number, in the units of the input it was typed for

    >>> parse_number("5,000"), parse_number("1,234,567.5"), parse_number(" 0.15 ")
    (5000.0, 1234567.5, 0.15)
    >>> parse_number("1e-6"), parse_number("1.0E-6"), parse_number("-2.5"), parse_number("+.5")
    (1e-06, 1e-06, -2.5, 0.5)
    >>> parse_number("-0"), parse_number("5,000e3"), parse_number("12.")
    (0.0, 5000000.0, 12.0)
    >>> parse_number("1,5")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '1,5' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("0,15")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '0,15' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("1,23")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '1,23' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("12,3456")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '12,3456' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("12,34,567")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '12,34,567' is not a number: a comma may only separate thousands, in groups of three digits (5,000 or 1,234,567.5)
    >>> parse_number("1_000")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '1_000' is not a number
    >>> parse_number("١٢٣")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '١٢٣' is not a number: type the digits 0-9
    >>> parse_number("１２３")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '１２３' is not a number: type the digits 0-9
    >>> parse_number("nan")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: 'nan' is not a number
    >>> parse_number("inf")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: 'inf' is not a finite number
    >>> parse_number("-Infinity")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '-Infinity' is not a finite number
    >>> parse_number("1e309")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '1e309' is not a finite number
    >>> parse_number("0x10")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '0x10' is not a number
    >>> parse_number(" ")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: ' ' is not a number
    """
    stripped = text.strip()
    if _NUMBER.fullmatch(stripped):
        value = float(stripped.replace(",", ""))
        if not math.isfinite(value):
            raise NumberTextError(text, infinite=True)
        return value + 0.0  # -0.0 + 0.0 is 0.0: "-0" is no different from 0
    if _DECIMAL_COMMA.fullmatch(stripped):
        raise NumberTextError(text, hint=DECIMAL_COMMA)
    if _COMMA_NUMBER.fullmatch(stripped):
        raise NumberTextError(text, hint=COMMA_GROUPS)
    if _INFINITY.fullmatch(stripped):
        raise NumberTextError(text, infinite=True)
    if any(c.isdigit() and not "0" <= c <= "9" for c in stripped):
        raise NumberTextError(text, hint=ASCII_DIGITS)
    raise NumberTextError(text)


def read_number(text: str, allowed: str, *, where: str = "") -> float:
    """:func:`parse_number` for an input's reader: a refusal as the ``ValueError`` the
    forms, the command line and the imports print, naming the allowed range (``allowed``)
    and how to type the number instead; ``where`` places the number (" before the % sign")."""
    try:
        return parse_number(text)
    except NumberTextError as exc:
        what = "a finite number" if exc.infinite else "a number"
        hint = f": {exc.hint}" if exc.hint else ""
        raise ValueError(f"must be {what}{where} ({allowed}){hint}") from None
