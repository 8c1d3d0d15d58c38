"""Input declarations for the engine's scenarios.

A scenario declares each input once, as a :class:`Param`. The wizard forms, the
defaults table (``esd defaults``), the command-line validation and the report's
"inputs used" table are all generated from these declarations: no parameter, default,
bound or source is typed anywhere else.

:func:`validate` turns a mapping of raw inputs (JSON values or form values) into the
effective inputs of a scenario, or raises :class:`EngineValidationError` naming every
bad symbol with the allowed range. Nothing is clamped.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

FLOAT = "float"
INT = "int"
CHOICE = "choice"

ALL = "__all__"


class EngineValidationError(ValueError):
    """Bad input: ``errors`` maps each offending symbol (or ``__all__``) to a message."""

    def __init__(self, errors: Mapping[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))


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
    assessments.esd.parameters.NumberTextError: '1,5' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("0,15")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '0,15' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("1,23")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '1,23' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("12,3456")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '12,3456' is not a number: use a decimal point, not a comma (1.5, not 1,5)
    >>> parse_number("12,34,567")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '12,34,567' is not a number: a comma may only separate thousands, in groups of three digits (5,000 or 1,234,567.5)
    >>> parse_number("1_000")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '1_000' is not a number
    >>> parse_number("١٢٣")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '١٢٣' is not a number: type the digits 0-9
    >>> parse_number("１２３")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '１２３' is not a number: type the digits 0-9
    >>> parse_number("nan")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: 'nan' is not a number
    >>> parse_number("inf")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: 'inf' is not a finite number
    >>> parse_number("-Infinity")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '-Infinity' is not a finite number
    >>> parse_number("1e309")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '1e309' is not a finite number
    >>> parse_number("0x10")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: '0x10' is not a number
    >>> parse_number(" ")
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.NumberTextError: ' ' is not a number
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


@dataclass(frozen=True)
class Step:
    """A wizard step: a group of inputs a reviewer fills in together."""

    key: str
    title: str
    help: str = ""


@dataclass(frozen=True)
class Param:
    """One input of a scenario, as the document defines it.

    ``default`` is ``None`` for an input with no default: ``required=True`` makes it
    mandatory (e.g. ``Qchem_yr``); otherwise leaving it out means "not given" (e.g. a
    known ``Nsites``) and the scenario computes the quantity instead.

    ``lower``/``upper`` bound the value; ``lower_open``/``upper_open`` make a bound
    strict (a fraction that must be below 1, a count that must be above 0).

    ``from_case`` names the case (submission) field whose value this input carries, e.g.
    ``"molecular_weight"``: a new use is prefilled from that field, and the sanitised
    report redacts this input wherever it prints when the submitter claims that field as
    CBI. It is the only place that link is declared.
    """

    symbol: str
    label: str
    units: str
    default: float | int | str | None
    source: str
    step: str
    lower: float | None = None
    upper: float | None = None
    lower_open: bool = False
    upper_open: bool = False
    kind: str = FLOAT
    choices: tuple[tuple[str, str], ...] = ()
    required: bool = False
    help: str = ""
    from_case: str | None = None

    def __post_init__(self) -> None:
        if self.kind == CHOICE and not self.choices:
            raise ValueError(f"{self.symbol}: a choice parameter needs choices")
        if self.default is not None:
            error = self.check(self.default)
            if error:
                raise ValueError(f"{self.symbol}: default {self.default!r} is invalid: {error}")

    @property
    def optional(self) -> bool:
        """True when the input may be left out without a default (computed instead)."""
        return self.default is None and not self.required

    def range_text(self) -> str:
        """The allowed range in words, e.g. ``between 0 and 1`` or ``greater than 0``."""
        if self.kind == CHOICE:
            return "one of " + ", ".join(value for value, _ in self.choices)
        lo, hi = self.lower, self.upper
        fmt = _format_bound
        if lo is not None and hi is not None:
            if not self.lower_open and not self.upper_open:
                text = f"between {fmt(lo)} and {fmt(hi)}"
            else:
                left = "greater than" if self.lower_open else "at least"
                right = "less than" if self.upper_open else "at most"
                text = f"{left} {fmt(lo)} and {right} {fmt(hi)}"
        elif lo is not None:
            text = f"{'greater than' if self.lower_open else 'at least'} {fmt(lo)}"
        elif hi is not None:
            text = f"{'less than' if self.upper_open else 'at most'} {fmt(hi)}"
        else:
            text = "any number"
        if self.kind == INT:
            text = "a whole number " + text
        return text

    def coerce(self, raw: Any) -> float | int | str:
        """Convert a raw JSON or form value; raise ``ValueError`` with a message.

        Text is read by :func:`parse_number` (``1.5``, ``5,000``, ``1e-6``; never
        ``1,5``); JSON numbers are taken as they are.
        """
        if self.kind == CHOICE:
            if not isinstance(raw, str) or raw not in {v for v, _ in self.choices}:
                raise ValueError(f"must be {self.range_text()}")
            return raw
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise ValueError(f"must be a number ({self.range_text()})")
        if isinstance(raw, str):
            try:
                value = parse_number(raw)
            except NumberTextError as exc:
                what = "a finite number" if exc.infinite else "a number"
                hint = f": {exc.hint}" if exc.hint else ""
                raise ValueError(f"must be {what} ({self.range_text()}){hint}") from None
        else:
            try:
                value = float(raw)
            except OverflowError:  # an int beyond a double (JSON can carry 1 and 400 zeros)
                raise ValueError(f"must be a finite number ({self.range_text()})") from None
        if not math.isfinite(value):
            raise ValueError(f"must be a finite number ({self.range_text()})")
        if self.kind == INT:
            if value != int(value):
                raise ValueError(f"must be {self.range_text()}")
            return int(value)
        return value

    def check(self, value: Any) -> str:
        """Return an error message for an out-of-range value, or ``""``."""
        if self.kind == CHOICE:
            return "" if value in {v for v, _ in self.choices} else f"must be {self.range_text()}"
        too_low = self.lower is not None and (
            value <= self.lower if self.lower_open else value < self.lower
        )
        too_high = self.upper is not None and (
            value >= self.upper if self.upper_open else value > self.upper
        )
        if too_low or too_high:
            return f"must be {self.range_text()} {self.units}".rstrip()
        return ""

    def as_dict(self) -> dict[str, Any]:
        """The declaration as ``esd defaults`` prints it."""
        out: dict[str, Any] = {
            "symbol": self.symbol,
            "label": self.label,
            "units": self.units,
            "default": self.default,
            "required": self.required,
            "source": self.source,
            "step": self.step,
            "allowed": self.range_text(),
        }
        if self.from_case:
            out["from_case"] = self.from_case
        if self.kind == CHOICE:
            out["choices"] = [value for value, _ in self.choices]
        else:
            out["lower"] = self.lower
            out["upper"] = self.upper
        return out


def _format_bound(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:,.0f}"


CrossCheck = Callable[[Mapping[str, Any]], Mapping[str, str]]


@dataclass(frozen=True)
class ParamSet:
    """A scenario's inputs in wizard order, with the checks that span several inputs."""

    params: tuple[Param, ...]
    steps: tuple[Step, ...]
    cross_checks: tuple[CrossCheck, ...] = field(default=())

    def __post_init__(self) -> None:
        symbols = [p.symbol for p in self.params]
        if len(symbols) != len(set(symbols)):
            raise ValueError("duplicate parameter symbols")
        step_keys = {s.key for s in self.steps}
        for p in self.params:
            if p.step not in step_keys:
                raise ValueError(f"{p.symbol}: unknown step {p.step!r}")

    def __getitem__(self, symbol: str) -> Param:
        for p in self.params:
            if p.symbol == symbol:
                return p
        raise KeyError(symbol)

    def __contains__(self, symbol: object) -> bool:
        return any(p.symbol == symbol for p in self.params)

    def for_step(self, step: str) -> list[Param]:
        return [p for p in self.params if p.step == step]

    def defaults(self) -> dict[str, Any]:
        return {p.symbol: p.default for p in self.params}

    def validate(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Effective inputs: every symbol, given or defaulted; or raise with every error."""
        return validate(self, inputs)


def each_input(param_set: ParamSet, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each input on its own: ``(effective, errors)``, the effective inputs (given or
    defaulted) and one message per unknown symbol, bad value or missing required input.
    The checks spanning several inputs are :func:`validate`'s."""
    errors: dict[str, str] = {}
    effective: dict[str, Any] = {}
    for symbol in inputs:
        if symbol not in param_set:
            errors[str(symbol)] = "unknown input symbol for this scenario"
    for p in param_set.params:
        raw = inputs.get(p.symbol)
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
            if p.required:
                errors[p.symbol] = f"is required ({p.label}, {p.range_text()} {p.units})".rstrip()
            effective[p.symbol] = p.default
            continue
        try:
            value = p.coerce(raw)
        except ValueError as exc:
            errors[p.symbol] = str(exc)
            continue
        message = p.check(value)
        if message:
            errors[p.symbol] = message
            continue
        effective[p.symbol] = value
    return effective, errors


def validate(param_set: ParamSet, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``inputs`` against ``param_set`` and fill in the defaults.

    Raises :class:`EngineValidationError` with one message per bad symbol: unknown
    symbols, values of the wrong type, values out of range, missing required inputs,
    then the scenario's cross-checks (run only when every single input is valid).

    >>> ps = ParamSet(
    ...     params=(Param("F", "Fraction", "kg/kg", 0.5, "test", "s", lower=0, upper=1),),
    ...     steps=(Step("s", "Step"),))
    >>> validate(ps, {})
    {'F': 0.5}
    >>> validate(ps, {"F": 2})
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.EngineValidationError: F: must be between 0 and 1 kg/kg
    """
    if not isinstance(inputs, Mapping):
        raise EngineValidationError({ALL: "inputs must be a JSON object of {symbol: value}"})
    effective, errors = each_input(param_set, inputs)
    if not errors:
        for cross_check in param_set.cross_checks:
            errors.update(cross_check(effective))
    if errors:
        raise EngineValidationError(errors)
    return effective
