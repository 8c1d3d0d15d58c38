"""Shares of a whole: one convention for fractions and percentages across every input.

An input that is a share of a whole declares its scale once (``parameters.Param.share``):
:data:`FRACTION`, 0 to 1 (the ESDs' loss fractions and efficiencies: the POU abatement
efficiency 0.99, ESD 2015 Table A-4), or :data:`PERCENT`, 0 to 100 (EIIP's control
efficiency, Forms C1 to C4, and weight percent, Eqn 6.4-2's wt%/100). A value that could be
read on either scale is never read silently (``Param.coerce``, ``Param.check``):

- text with a per-cent sign is explicit on both scales (:func:`read_percentage`): ``90%`` is
  0.9 for a fraction, 90 for a percentage; refused for an input that is no share;
- a bare number 0 < x <= 1 for a percentage is refused with the question 0.9 % or 90 %?
  (:func:`percent_question`);
- a number above 1 for a fraction is refused by its bound, saying it is a fraction and how
  to type a percentage (:func:`fraction_too_high`); 0 is 0 on both scales.

A percentage between 0 and 1 % is stored as the text confirmed, ``"0.9%"`` (:func:`as_input`),
so that validating the stored inputs again reads it the same. The messages are
:class:`Message`\\ s: the form's words, with the words of a reader of JSON beside them.

Nothing here imports Django.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeGuard

from .number_text import read_number
from .text import allowed_range

if TYPE_CHECKING:
    from .parameters import Param

#: The scale of an input that is a share of a whole: a fraction (0 to 1) or a percentage (0 to 100).
FRACTION = "fraction"
PERCENT = "percent"
SHARES = (FRACTION, PERCENT)
#: The sign that makes a typed share explicit: ``90%`` is 90 % on either scale.
PERCENT_SIGN = "%"
#: The convention shown beside each such input (the wizard's help beside the field).
SHARE_HINTS = {FRACTION: "fraction, 0 to 1 (0.9 = 90 %)", PERCENT: "per cent, 0 to 100 (90 = 90 %)"}


class Message(str):
    """A message with other words for a reader of JSON. The form's reader types text
    (``type 90 for 90 %``); the reader of ``esd compute`` gives JSON values (``give 90``,
    ``the JSON string "0.9%"``). Read as text it is the form's words; the command line
    takes :attr:`json_words` (``esd.json_words``).

    >>> m = Message("type 90", json_words="give 90")
    >>> (m, m.json_words, f"{m}.")
    ('type 90', 'give 90', 'type 90.')
    """

    json_words: str

    def __new__(cls, text: str, json_words: str = "") -> Message:
        message = super().__new__(cls, text)
        message.json_words = json_words or text
        return message


def error_words(exc: ValueError) -> str:
    """The message of a refusal by ``Param.coerce``, with its :class:`Message` kept."""
    first = exc.args[0] if exc.args else ""
    return first if isinstance(first, Message) else str(exc)


def spelled(value: float | Decimal) -> str:
    """A number as the shortest text that reads back as it, without padding or exponent
    for an everyday magnitude.

    >>> spelled(0.9), spelled(90.0), spelled(Decimal("0.9") * 100), spelled(1e-05), spelled(1.5e-300)
    ('0.9', '90', '90', '0.00001', '1.5E-300')
    """
    number = (value if isinstance(value, Decimal) else Decimal(repr(float(value)))).normalize()
    if -12 <= number.adjusted() < 15:
        return format(number, "f")
    return format(number, "E")


def has_sign(raw: Any) -> TypeGuard[str]:
    """Whether ``raw`` is text ending in a per-cent sign (``90%``, ``0.9 %``)."""
    return isinstance(raw, str) and raw.strip().endswith(PERCENT_SIGN)


def read_percentage(param: Param, raw: str) -> float:
    """Text ending in a per-cent sign, on ``param``'s scale: the percentage itself for a
    percentage, its hundredth (exactly: ``5.5%`` is 0.055) for a fraction; refused, with a
    message, for an input that is no share or for a fraction beyond its range."""
    number_text = raw.strip().removesuffix(PERCENT_SIGN)
    if param.share is None:
        raise ValueError(Message(
            f"is not a percentage: type the number without the % sign ({param.allowed_text()})",
            json_words=f"is not a percentage: give a JSON number, without a % sign ({param.allowed_text()})"))
    number = read_number(number_text, f"{param.range_text()} %", where=" before the % sign")
    if param.share == PERCENT:
        return number
    value = float(Decimal(number_text.strip().replace(",", "")) / 100) + 0.0  # -0% is 0
    if param.check(value):
        in_percent = allowed_range(param.lower * 100 if param.lower is not None else None,
                                   param.upper * 100 if param.upper is not None else None,
                                   lower_open=param.lower_open, upper_open=param.upper_open)
        raise ValueError(f"must be {param.allowed_text()} (a fraction; with the % sign, {in_percent} %)")
    return value


def percent_question(param: Param, raw: Any, value: float) -> Message:
    """The refusal of a bare number 0 < x <= 1 for a percentage: 0.9 % or 90 %? In the
    words of the form's reader, and of the JSON reader, who gave ``raw``."""
    shown, hundredfold = spelled(value), spelled(Decimal(repr(value)) * 100)
    start = f"is in per cent ({param.allowed_text()}): "
    end = f" would be read as {shown} %, not {hundredfold} %; "
    return Message(
        f"{start}{shown}{end}type {hundredfold} for {hundredfold} %, or {shown}% (with the sign) "
        f"if you mean {shown} %",
        json_words=f"{start}the JSON value {json.dumps(raw)}{end}give {hundredfold} for {hundredfold} %, "
                   f"or the JSON string {json.dumps(shown + PERCENT_SIGN)} if you mean {shown} %")


def fraction_too_high(value: float, message: str) -> Message:
    """``message`` (the range refused) for a fraction given ``value`` above its bound: it is a
    fraction, and a percentage is typed with its sign (the value itself up to 100, else 90)."""
    typed = spelled(value if value <= 100 else 90.0)
    fraction = spelled(Decimal(typed) / 100)
    return Message(f"{message} (a fraction: {typed} % is {fraction}, or type {typed}%)",
                   json_words=f"{message} (a fraction: {typed} % is {fraction}, "
                              f"or the JSON string {json.dumps(typed + PERCENT_SIGN)})")


def as_input(param: Param, value: Any) -> Any:
    """An effective value as stored inputs hold it, so that validating them again (every
    computation does) reads the same: a percentage between 0 and 1 % as the text confirmed
    (``"0.9%"``: a bare 0.9 would be asked about), any other value as it is."""
    if (param.share == PERCENT and isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 < value <= 1):
        return f"{spelled(value)}{PERCENT_SIGN}"
    return value


def from_input(param: Param, stored: Any) -> Any:
    """The number a stored share stands for (``"0.9%"`` is 0.9), to show it with its units;
    any other value, or text that reads as no number, as it is."""
    if param.share and has_sign(stored):
        try:
            return param.coerce(stored)
        except ValueError:
            return stored
    return stored
