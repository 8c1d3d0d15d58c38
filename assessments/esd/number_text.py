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
#: ... when it has other characters outside plain ASCII: a look-alike sign, point or space
#: (U+2212 minus, a full-width point, a thin space) or an invisible one (a zero-width space).
PLAIN_CHARACTERS = "type it with plain characters: the digits 0-9, a point, a sign and E (no look-alike or invisible characters)"
#: The smallest number other than 0 a double holds: 4.9E-324 (a number typed closer to 0
#: is read as 0).
SMALLEST_NUMBER = math.ulp(0.0)
#: ... when it is not 0 but a double holds it as 0 (``1e-400``).
TOO_SMALL = ("too close to 0 to be held (it would be read as 0): "
             "a number other than 0 must be at least 4.9E-324 in size; type 0 for none")

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
    number beyond the largest double (``inf``, ``1e309``); ``tiny`` for a number other
    than 0 that a double holds as 0 (``1e-400``: :data:`TOO_SMALL`)."""

    def __init__(self, text: str, *, hint: str = "", infinite: bool = False, tiny: bool = False):
        self.hint = hint
        self.infinite = infinite
        self.tiny = tiny
        shown = text if len(text) <= 40 else text[:37] + "..."
        if tiny:
            super().__init__(f"{shown!r} is {hint}")
        else:
            super().__init__(f"{shown!r} is not a {'finite ' if infinite else ''}number" + (f": {hint}" if hint else ""))


def is_plain(text: str) -> bool:
    """Whether ``text`` is plain ASCII: the one rule for the characters of every typed
    number, whole number and date (the engine's inputs, the case's numbers, the calendar's
    and the assignment's fields).

    Look-alikes are refused, not read (no NFKC folding of ``１２`` into ``12``): a number
    is what the reviewer sees, and a full-width, Arabic-Indic or super-script digit, a
    U+2212 minus or a zero-width space inside it says the text came from somewhere that
    may also write the decimal point or the digit groups differently (``１，５`` is 1.5 in
    some locales and 15 in others). Refusing asks the person to retype what they meant;
    folding would store a guess. Every form, the command line and the import read numbers
    this way; the case number, an identifier and not a quantity, is folded instead
    (``models.normalise_case_number``), since its look-alikes can only mean one number.

    >>> is_plain("5,000.5"), is_plain("2026-03-02"), is_plain("１２"), is_plain("1\u200b0"), is_plain("\u22125")
    (True, True, False, False, False)
    """
    return text.isascii()


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
    ``１２３``), which ``float()`` reads, and any other character outside plain ASCII
    (:func:`is_plain`); ``nan``, ``inf``, ``infinity`` and a number beyond the largest
    double (``1e309``), which ``float()`` reads as no finite number; a number other than 0
    closer to 0 than :data:`SMALLEST_NUMBER` (``1e-400``), which ``float()`` reads as 0;
    hex (``0x10``) and blank text. The error's ``hint``
    says how to type the number instead, for the caller's message (which names the
    allowed range).

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
    >>> parse_number("1e-400")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '1e-400' is too close to 0 to be held (it would be read as 0): a number other than 0 must be at least 4.9E-324 in size; type 0 for none
    >>> parse_number("0e-400"), parse_number("5e-324") > 0
    (0.0, True)
    >>> parse_number("\u22125")
    Traceback (most recent call last):
    ...
    assessments.esd.number_text.NumberTextError: '−5' is not a number: type it with plain characters: the digits 0-9, a point, a sign and E (no look-alike or invisible characters)
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
        if value == 0 and re.search(r"[1-9]", re.split("[eE]", stripped)[0]):
            raise NumberTextError(text, hint=TOO_SMALL, tiny=True)
        return value + 0.0  # -0.0 + 0.0 is 0.0: "-0" is no different from 0
    if _DECIMAL_COMMA.fullmatch(stripped):
        raise NumberTextError(text, hint=DECIMAL_COMMA)
    if _COMMA_NUMBER.fullmatch(stripped):
        raise NumberTextError(text, hint=COMMA_GROUPS)
    if _INFINITY.fullmatch(stripped):
        raise NumberTextError(text, infinite=True)
    if any(c.isdigit() and not "0" <= c <= "9" for c in stripped):
        raise NumberTextError(text, hint=ASCII_DIGITS)
    if not is_plain(stripped):
        raise NumberTextError(text, hint=PLAIN_CHARACTERS)
    raise NumberTextError(text)


def json_number(text: str) -> float | str:
    """A JSON number as the engine's inputs take it (``json.loads(..., parse_float=json_number)``):
    the float, or the text itself where the float would not be the number written
    (``1e-400``, read as 0; ``1e999``, read as infinity), so that the input's reader
    (``parameters.Param.coerce``, which reads text by :func:`parse_number`) refuses it,
    naming the input and its range, instead of taking a silent 0.

    >>> json_number("0.15"), json_number("1e-400"), json_number("1e999"), json_number("0.0")
    (0.15, '1e-400', '1e999', 0.0)
    """
    try:
        return parse_number(text)
    except NumberTextError:
        return text


def read_number(text: str, allowed: str, *, where: str = "") -> float:
    """:func:`parse_number` for an input's reader: a refusal as the ``ValueError`` the
    forms, the command line and the imports print, naming the allowed range (``allowed``)
    and how to type the number instead; ``where`` places the number (" before the % sign")."""
    try:
        return parse_number(text)
    except NumberTextError as exc:
        raise ValueError(number_error(exc, allowed, where=where, text=text)) from None


def number_error(exc: NumberTextError, allowed: str, *, where: str = "", text: str = "") -> str:
    """The words of a refusal by :func:`parse_number`, after the input's name: what it
    must be, the allowed range (``allowed``) and how to type the number instead.

    >>> number_error(NumberTextError("1e-400", hint=TOO_SMALL, tiny=True), "greater than 0", text="1e-400")
    'must be a number (greater than 0): 1e-400 is too close to 0 to be held (it would be read as 0): a number other than 0 must be at least 4.9E-324 in size; type 0 for none'
    """
    hint = f": {exc.hint}" if exc.hint else ""
    if exc.tiny:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
        return f"must be a number{where} ({allowed}): {shown} is {exc.hint}"
    what = "a finite number" if exc.infinite else "a number"
    return f"must be {what}{where} ({allowed}){hint}"
