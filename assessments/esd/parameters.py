"""Input declarations for the engine's scenarios.

A scenario declares each input once, as a :class:`Param`. The wizard forms, the
defaults table (``esd defaults``), the command-line validation and the report's
"inputs used" table are all generated from these declarations: no parameter, default,
bound or source is typed anywhere else.

:func:`validate` turns a mapping of raw inputs (JSON values or form values) into the
effective inputs of a scenario, or raises :class:`EngineValidationError` naming every
bad symbol with the allowed range. Nothing is clamped.

A share of a whole declares its scale (:attr:`Param.share`): a fraction, 0 to 1 (the
ESDs' loss fractions and efficiencies), or a percentage, 0 to 100 (EIIP's control
efficiency and weight percent, as the document's forms ask for them). A value that could
be read on either scale is never read silently: text with a per-cent sign (``90%``) says
which it is; a bare number 0 < x <= 1 for a percentage is refused with the question
(0.9 % or 90 %?); a number above 1 for a fraction is refused by its bound, saying how to
type it (:mod:`.shares`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import shares
from .documented_range import DocumentedRange as DocumentedRange
from .documented_range import check_documented_range
from .number_text import ASCII_DIGITS as ASCII_DIGITS
from .number_text import COMMA_GROUPS as COMMA_GROUPS
from .number_text import DECIMAL_COMMA as DECIMAL_COMMA
from .number_text import NumberTextError as NumberTextError
from .number_text import parse_number as parse_number
from .number_text import read_number
from .shares import FRACTION as FRACTION
from .shares import PERCENT as PERCENT
from .shares import PERCENT_SIGN, SHARE_HINTS, SHARES, error_words
from .shares import Message as Message
from .text import allowed_range, internal_name, unit_for

FLOAT = "float"
INT = "int"
CHOICE = "choice"

ALL = "__all__"


class EngineValidationError(ValueError):
    """Bad input: ``errors`` maps each offending symbol (or ``__all__``) to a message."""

    def __init__(self, errors: Mapping[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))


@dataclass(frozen=True)
class Step:
    """A wizard step: a group of inputs a reviewer fills in together."""

    key: str
    title: str
    help: str = ""


#: A choice input left empty, as a condition of :class:`When` names it.
EMPTY = None


@dataclass(frozen=True)
class When:
    """When an input applies: a condition on the values of the scenario's choice inputs.

    ``when(physical_state="gas", density_method="compressibility")`` holds when every
    named choice input has the value named (or one of several, given as a tuple; ``None``
    for a choice left empty); ``a | b`` holds when either does. A condition on an input
    that does not apply itself does not hold. It is plain data, so the browser evaluates
    the same condition as the engine (:meth:`as_data`).

    >>> cond = when(state="gas", method=("a", "b")) | when(site="yes")
    >>> cond.holds({"state": "gas", "method": "b", "site": "no"}), cond.holds({"state": "liquid", "site": "no"})
    (True, False)
    >>> cond.as_data()
    [{'state': ['gas'], 'method': ['a', 'b']}, {'site': ['yes']}]
    """

    #: Alternatives (any one holds), each a tuple of (symbol, allowed values), all of which hold.
    alternatives: tuple[tuple[tuple[str, tuple[str | None, ...]], ...], ...]

    def __or__(self, other: When) -> When:
        return When(self.alternatives + other.alternatives)

    @property
    def symbols(self) -> tuple[str, ...]:
        """The inputs the condition reads, in the order named."""
        seen: dict[str, None] = {}
        for alternative in self.alternatives:
            for symbol, _ in alternative:
                seen[symbol] = None
        return tuple(seen)

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether the condition holds for ``values`` (a symbol missing from them holds no value)."""
        return any(all(symbol in values and values[symbol] in allowed for symbol, allowed in alternative)
                   for alternative in self.alternatives)

    def as_data(self) -> list[dict[str, list[str | None]]]:
        """The condition as JSON: a list of alternatives, each ``{symbol: [allowed values]}``."""
        return [{symbol: list(allowed) for symbol, allowed in alternative} for alternative in self.alternatives]

    def in_words(self, params: ParamSet) -> str:
        """The condition as a reviewer reads it, with the inputs' labels and the choices' labels:
        ``“Physical state” is “Gas” and “How the density is found” is “Compressibility factor”``."""
        def value_words(param: Param, allowed: tuple[str | None, ...]) -> str:
            names = dict(param.choices)
            words = [f"“{names[v]}”" if v is not None else "left empty" for v in allowed]
            return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

        return " or ".join(
            " and ".join(f"“{params[symbol].label}” is {value_words(params[symbol], allowed)}"
                         for symbol, allowed in alternative)
            for alternative in self.alternatives
        )


def when(**conditions: str | tuple[str | None, ...] | None) -> When:
    """A :class:`When` holding when each named choice input has the value (or one of the values) given."""
    if not conditions:
        raise ValueError("when() needs at least one condition")
    return When((tuple((symbol, allowed if isinstance(allowed, tuple) else (allowed,))
                       for symbol, allowed in conditions.items()),))


def in_sentence(label: str) -> str:
    """A label inside a sentence: its first letter lower-cased when it starts a plain word.

    >>> in_sentence("Utilisation of the precursor, high end"), in_sentence("POU abatement efficiency")
    ('utilisation of the precursor, high end', 'POU abatement efficiency')
    """
    first = label.split(" ", 1)[0]
    if first.isalpha() and first[:1].isupper() and first[1:].islower():
        return label[:1].lower() + label[1:]
    return label


@dataclass(frozen=True)
class Param:
    """One input of a scenario, as the document defines it.

    ``default`` is ``None`` for an input with no default: ``required=True`` makes it
    mandatory (e.g. ``Qchem_yr``); otherwise leaving it out means "not given" (e.g. a
    known ``Nsites``) and ``if_empty`` says, in a reviewer's words, what the scenario does
    instead (computes the quantity, assumes a nonvolatile chemical ...).

    ``applies_when`` (a :class:`When`) declares an input that applies only for some values
    of the scenario's choice inputs (the compressibility factor only for a gas whose
    density is found by compressibility). An input that does not apply is not required,
    not checked and not recorded; a value given for it is ignored.

    ``choice_help`` gives a choice a description (``(value, words)`` pairs), and
    ``choice_groups`` groups long lists of choices under headings (``(heading, ((value,
    option text), ...))``, covering every choice), as a document's table groups its rows.

    ``booleans`` (a choice input's ``(value for true, value for false)``) lets JSON's
    ``true`` and ``false`` stand for two of its choices (``include_exposures``: ``"yes"``
    and ``"no"``); the effective value is always the choice's own.

    ``lower``/``upper`` bound the value; ``lower_open``/``upper_open`` make a bound
    strict (a fraction that must be below 1, a count that must be above 0).

    ``documented_range`` (a :class:`~.documented_range.DocumentedRange`) is the range or
    the set of alternatives the document prints for the input, with its citation, for
    the sensitivity analysis; ``None`` where the documents give none.

    ``from_case`` names the case (submission) field whose value this input carries, e.g.
    ``"molecular_weight"``: a new use is prefilled from that field, and the sanitised
    report redacts this input wherever it prints when the submitter claims that field as
    CBI. It is the only place that link is declared.

    ``share`` declares a share of a whole and its scale, once: :data:`FRACTION` (bounds
    within 0 to 1: 0.9 is 90 %) or :data:`PERCENT` (units ``%``, bounds within 0 to 100:
    90 is 90 %). Text with a per-cent sign is read on either (``90%`` is 0.9 for a
    fraction, 90 for a percentage); a bare number that the other scale would read
    otherwise is refused with the question (:meth:`coerce`, :meth:`check`), and the
    wizard shows the convention beside the field (:attr:`share_text`).
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
    applies_when: When | None = None
    if_empty: str = ""
    choice_help: tuple[tuple[str, str], ...] = ()
    choice_groups: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    booleans: tuple[str, str] | None = None
    share: str | None = None
    documented_range: DocumentedRange | None = None

    def __post_init__(self) -> None:
        if self.kind == CHOICE and not self.choices:
            raise ValueError(f"{self.symbol}: a choice parameter needs choices")
        self._check_share()
        values = [v for v, _ in self.choices]
        if self.booleans is not None and (self.kind != CHOICE or not set(self.booleans) <= set(values)
                                          or self.booleans[0] == self.booleans[1]):
            raise ValueError(f"{self.symbol}: booleans must name two different choices of a choice input")
        if any(v not in values for v, _ in self.choice_help):
            raise ValueError(f"{self.symbol}: choice_help names a value that is not a choice")
        if self.choice_groups and sorted(v for _, group in self.choice_groups for v, _ in group) != sorted(values):
            raise ValueError(f"{self.symbol}: choice_groups must hold every choice once")
        if self.default is not None:
            error = self.check(self.default)
            if error:
                raise ValueError(f"{self.symbol}: default {self.default!r} is invalid: {error}")
        if self.documented_range is not None:
            check_documented_range(self, self.documented_range, numeric_kinds=(FLOAT, INT), whole_kind=INT)

    def _check_share(self) -> None:
        """A share is a number on its scale's bounds; an input in ``%`` is a percentage."""
        if self.share is None:
            if self.units == PERCENT_SIGN:
                raise ValueError(f"{self.symbol}: an input in % must declare share=PERCENT")
            return
        if self.share not in SHARES:
            raise ValueError(f"{self.symbol}: share must be FRACTION or PERCENT, not {self.share!r}")
        top = 1 if self.share == FRACTION else 100
        if self.kind != FLOAT or self.lower is None or self.upper is None or not 0 <= self.lower < self.upper <= top:
            raise ValueError(f"{self.symbol}: a {self.share} input is a number with bounds within 0 and {top}")
        if (self.share == PERCENT) != (self.units == PERCENT_SIGN):
            raise ValueError(f"{self.symbol}: a percent input, and only one, has the units %")

    @property
    def share_text(self) -> str:
        """The input's scale as the wizard shows it beside the field: ``fraction, 0 to 1
        (0.9 = 90 %)``, ``per cent, 0 to 100 (90 = 90 %)``; ``""`` for an input that is no share."""
        return SHARE_HINTS.get(self.share or "", "")

    def as_input(self, value: Any) -> Any:
        """An effective value as stored inputs hold it (:func:`shares.as_input`): read again,
        it is the same value.

        >>> ce = Param("CE", "Control efficiency", "%", 0.0, "doc", "s", lower=0, upper=100, share=PERCENT)
        >>> ce.as_input(0.9), ce.as_input(1.0), ce.as_input(90.0), ce.from_input("0.9%")
        ('0.9%', '1%', 90.0, 0.9)
        """
        return shares.as_input(self, value)

    def from_input(self, stored: Any) -> Any:
        """The number a stored input stands for, to show it (:func:`shares.from_input`)."""
        return shares.from_input(self, stored)

    @property
    def optional(self) -> bool:
        """True when the input may be left out without a default (computed instead)."""
        return self.default is None and not self.required

    def range_text(self) -> str:
        """The allowed range in words, e.g. ``between 0 and 1`` or ``greater than 0``; for a
        choice, ``one of the listed choices`` (the form lists them by their labels)."""
        if self.kind == CHOICE:
            return CHOICE_RANGE
        text = allowed_range(self.lower, self.upper, lower_open=self.lower_open,
                             upper_open=self.upper_open) or "any number"
        if self.kind == INT:
            text = "a whole number " + text
        return text

    def allowed_text(self) -> str:
        """:meth:`range_text` with the units, agreeing with the bound beside them (``a whole
        number at least 1 site``, ``between 1 and 365 days/yr``); for a choice, as
        :meth:`range_text`.

        >>> Param("N", "Sites", "sites", None, "doc", "s", kind=INT, lower=1).allowed_text()
        'a whole number at least 1 site'
        """
        if self.kind == CHOICE or not self.units:
            return self.range_text()
        bound = self.upper if self.upper is not None else self.lower
        return f"{self.range_text()} {unit_for(bound, self.units)}"

    @property
    def shown_symbol(self) -> str:
        """The symbol as a reviewer reads it beside the label: the document's symbol
        (``Qchem_yr``), or ``""`` for one of the engine's own keys (``stripping_process``:
        :func:`~assessments.esd.text.internal_name`), which the label says."""
        return "" if internal_name(self.symbol) else self.symbol

    def choice_error(self) -> str:
        """The message for a value that is not one of the choices: the choices by their
        labels when there are few, else their number.

        >>> Param("s", "State", "", "gas", "doc", "st", kind=CHOICE,
        ...       choices=(("gas", "Gas"), ("liquid", "Liquid"))).choice_error()
        'must be one of the listed choices: “Gas” or “Liquid”'
        """
        labels = [f"“{label}”" for _, label in self.choices]
        if len(labels) > MAX_CHOICES_NAMED:
            return f"must be one of the {len(labels)} listed choices"
        listed = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]
        return f"must be {CHOICE_RANGE}: {listed}"

    def json_values(self) -> list[Any]:
        """The JSON values a choice input accepts: ``true`` and ``false`` when it declares
        ``booleans``, then its choices' values.

        >>> Param("x", "X", "", "yes", "doc", "s", kind=CHOICE, choices=(("yes", "Yes"), ("no", "No")),
        ...       booleans=("yes", "no")).json_values()
        [True, False, 'yes', 'no']
        """
        return ([True, False] if self.booleans is not None else []) + [v for v, _ in self.choices]

    def json_choice_error(self) -> str:
        """The message for a value that is not a choice, for a reader of JSON (``esd
        compute``): the JSON values accepted, never the form's labels.

        >>> Param("x", "X", "", "yes", "doc", "s", kind=CHOICE, choices=(("yes", "Yes"), ("no", "No")),
        ...       booleans=("yes", "no")).json_choice_error()
        'must be one of the JSON values true, false, "yes", "no"'
        >>> Param("s", "State", "", "gas", "doc", "st", kind=CHOICE,
        ...       choices=(("gas", "Gas"), ("liquid", "Liquid"))).json_choice_error()
        'must be one of the JSON values "gas", "liquid"'
        """
        return "must be one of the JSON values " + ", ".join(json.dumps(v) for v in self.json_values())

    def choice_value(self, raw: Any) -> Any:
        """A raw value of a choice input as the choice it stands for: JSON ``true``/``false``
        as the choices ``booleans`` names; anything else unchanged (checked by :meth:`coerce`).

        >>> p = Param("x", "X", "", "yes", "doc", "s", kind=CHOICE, choices=(("yes", "Yes"), ("no", "No")),
        ...           booleans=("yes", "no"))
        >>> p.choice_value(True), p.choice_value(False), p.choice_value("no"), p.choice_value(1)
        ('yes', 'no', 'no', 1)
        """
        if self.booleans is not None and isinstance(raw, bool):
            return self.booleans[0] if raw else self.booleans[1]
        return raw

    def choice_label(self, value: Any) -> str:
        """The label of a choice value (the value itself when it is not a choice)."""
        return dict(self.choices).get(value, "" if value is None else str(value))

    def coerce(self, raw: Any) -> float | int | str:
        """Convert a raw JSON or form value; raise ``ValueError`` with a message.

        Text is read by :func:`parse_number` (``1.5``, ``5,000``, ``1e-6``; never
        ``1,5``, ``１２`` or ``1e-400``, which a double would hold as 0); JSON numbers are
        taken as they are (a JSON reader keeps the text of one it cannot hold:
        ``number_text.json_number``). A choice is one of its values, or
        JSON ``true``/``false`` where it declares ``booleans``.

        A share (:attr:`share`) is never read on the wrong scale: text ending in a per-cent
        sign (``90%``, ``0.9 %``) is that percentage, read as a fraction (0.9) for a
        :data:`FRACTION` input and as it is for a :data:`PERCENT` one (refused for an input
        that is no share); a bare number 0 < x <= 1 for a percentage is refused with the
        question (0.9 % or 90 %?). 0 is 0 on both scales.

        >>> ce = Param("CE", "Control efficiency", "%", 0.0, "doc", "s", lower=0, upper=100, share=PERCENT)
        >>> ce.coerce("90"), ce.coerce(90), ce.coerce("0.9%"), ce.coerce("90 %"), ce.coerce(0)
        (90.0, 90.0, 0.9, 90.0, 0.0)
        >>> ce.coerce("0.9")
        Traceback (most recent call last):
        ...
        ValueError: is in per cent (between 0 and 100 %): 0.9 would be read as 0.9 %, not 90 %; type 90 for 90 %, or 0.9% (with the sign) if you mean 0.9 %
        >>> ef = Param("EF", "Abatement efficiency", "kg/kg", 0.99, "doc", "s", lower=0, upper=1, share=FRACTION)
        >>> ef.coerce("90%"), ef.coerce("0.9"), ef.coerce(0.9)
        (0.9, 0.9, 0.9)
        >>> ef.coerce("1e-400")
        Traceback (most recent call last):
        ...
        ValueError: must be a number (between 0 and 1): 1e-400 is too close to 0 to be held (it would be read as 0): a number other than 0 must be at least 4.9E-324 in size; type 0 for none
        """
        if self.kind == CHOICE:
            value = self.choice_value(raw)
            if not isinstance(value, str) or value not in {v for v, _ in self.choices}:
                raise ValueError(self.choice_error())
            return value
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise ValueError(f"must be a number ({self.range_text()})")
        if shares.has_sign(raw):
            return shares.read_percentage(self, raw)
        if isinstance(raw, str):
            value = read_number(raw, self.range_text())
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
        if self.share == PERCENT and 0 < value <= 1:
            raise ValueError(shares.percent_question(self, raw, value))
        return value

    def check(self, value: Any) -> str:
        """Return an error message for an out-of-range value, or ``""``. A fraction above
        its bound says it is a fraction and how to type a percentage instead.

        >>> ef = Param("EF", "Abatement efficiency", "kg/kg", 0.99, "doc", "s", lower=0, upper=1, share=FRACTION)
        >>> ef.check(90.0)
        'must be between 0 and 1 kg/kg (a fraction: 90 % is 0.9, or type 90%)'
        """
        if self.kind == CHOICE:
            return "" if value in {v for v, _ in self.choices} else self.choice_error()
        too_low = self.lower is not None and (
            value <= self.lower if self.lower_open else value < self.lower
        )
        too_high = self.upper is not None and (
            value >= self.upper if self.upper_open else value > self.upper
        )
        if too_low or too_high:
            message = f"must be {self.allowed_text()}"
            return shares.fraction_too_high(value, message) if self.share == FRACTION and too_high else message
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
        if self.share:
            out["share"] = self.share
        if self.applies_when is not None:
            out["applies_when"] = self.applies_when.as_data()
        if self.optional:
            out["if_empty"] = self.if_empty
        if self.kind == CHOICE:
            out["choices"] = [value for value, _ in self.choices]
            out["choice_labels"] = [label for _, label in self.choices]
        else:
            out["lower"] = self.lower
            out["upper"] = self.upper
        return out


#: The allowed range of every choice input, in words.
CHOICE_RANGE = "one of the listed choices"
#: A message names the choices by their labels up to this many; beyond, their number.
MAX_CHOICES_NAMED = 6


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
        self._check_conditions()

    def _check_conditions(self) -> None:
        """Each ``applies_when`` names choice inputs of this set and values among their
        choices (``None`` only for a choice that may be left empty), with no circle."""
        by_symbol = {p.symbol: p for p in self.params}
        for p in self.params:
            if p.applies_when is None:
                continue
            for alternative in p.applies_when.alternatives:
                for symbol, allowed in alternative:
                    control = by_symbol.get(symbol)
                    if control is None or control.kind != CHOICE:
                        raise ValueError(f"{p.symbol}: applies_when names {symbol!r}, not a choice input of this scenario")
                    values = {v for v, _ in control.choices} | ({None} if control.optional else set())
                    if not set(allowed) <= values:
                        raise ValueError(f"{p.symbol}: applies_when gives {symbol!r} a value it cannot take")

        def visit(symbol: str, path: tuple[str, ...]) -> None:
            if symbol in path:
                raise ValueError(f"applies_when conditions run in a circle: {' -> '.join(path + (symbol,))}")
            condition = by_symbol[symbol].applies_when
            for control in condition.symbols if condition else ():
                visit(control, path + (symbol,))

        for p in self.params:
            visit(p.symbol, ())

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

    def applicable(self, inputs: Mapping[str, Any]) -> set[str]:
        """The symbols of the inputs that apply for ``inputs`` (raw or effective values; a
        choice left out or blank takes its default): every input without ``applies_when``,
        and each with one whose condition holds on inputs that apply themselves.

        >>> ps = ParamSet(params=(
        ...     Param("state", "State", "", "liquid", "doc", "s", kind=CHOICE,
        ...           choices=(("liquid", "Liquid"), ("gas", "Gas"))),
        ...     Param("z", "Compressibility", "", 1.0, "doc", "s", applies_when=when(state="gas"))),
        ...     steps=(Step("s", "Step"),))
        >>> sorted(ps.applicable({})), sorted(ps.applicable({"state": "gas"}))
        (['state'], ['state', 'z'])
        """
        values: dict[str, Any] = {}
        for p in self.params:
            raw = inputs.get(p.symbol) if isinstance(inputs, Mapping) else None
            raw = p.choice_value(raw) if p.kind == CHOICE else raw
            values[p.symbol] = p.default if raw is None or (isinstance(raw, str) and not raw.strip()) else raw
        by_symbol = {p.symbol: p for p in self.params}
        found: dict[str, bool] = {}

        def applies(p: Param) -> bool:
            if p.symbol not in found:
                condition = p.applies_when
                if condition is None:
                    found[p.symbol] = True
                else:
                    live = {s: values[s] for s in condition.symbols if applies(by_symbol[s])}
                    found[p.symbol] = condition.holds(live)
            return found[p.symbol]

        return {p.symbol for p in self.params if applies(p)}

    def conditional(self) -> list[Param]:
        """The inputs that apply only sometimes (those with ``applies_when``)."""
        return [p for p in self.params if p.applies_when is not None]

    def validate(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Effective inputs: every symbol, given or defaulted; or raise with every error."""
        return validate(self, inputs)


def each_input(param_set: ParamSet, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each input on its own: ``(effective, errors)``, the effective inputs (given or
    defaulted) and one message per unknown symbol, bad value or missing required input.
    The checks spanning several inputs are :func:`validate`'s.

    An input that does not apply (:meth:`ParamSet.applicable`) is neither required nor
    checked: a value given for it is ignored and it takes its default, so a scenario
    reading it sees what it would see had it been left out."""
    errors: dict[str, str] = {}
    effective: dict[str, Any] = {}
    for symbol in inputs:
        if symbol not in param_set:
            errors[str(symbol)] = "unknown input symbol for this scenario"
    applying = param_set.applicable(inputs)
    for p in param_set.params:
        if p.symbol not in applying:
            effective[p.symbol] = p.default
            continue
        raw = inputs.get(p.symbol)
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
            if p.required:
                errors[p.symbol] = f"is required ({p.label}, {p.allowed_text()})"
            effective[p.symbol] = p.default
            continue
        try:
            value = p.coerce(raw)
        except ValueError as exc:
            errors[p.symbol] = error_words(exc)
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
        errors.update(cross_errors(param_set, effective))
    if errors:
        raise EngineValidationError(errors)
    return effective


class _Reading(dict[str, Any]):
    """The effective inputs, noting which symbols a cross-check reads."""

    def __init__(self, data: Mapping[str, Any]):
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, symbol: str) -> Any:
        self.read.add(symbol)
        return super().__getitem__(symbol)

    def get(self, symbol: str, default: Any = None) -> Any:
        self.read.add(symbol)
        return super().get(symbol, default)


def cross_errors(param_set: ParamSet, effective: Mapping[str, Any],
                 within: Iterable[str] | None = None) -> dict[str, str]:
    """The errors of the scenario's cross-checks on ``effective`` (every input valid on its
    own). With ``within`` (symbols), only the errors of the checks that read no input
    outside it: a wizard step runs the checks whose inputs are all on it or on the steps
    before it.

    >>> ps = ParamSet(params=(Param("lo", "Low", "", 1.0, "doc", "s"), Param("hi", "High", "", 2.0, "doc", "t")),
    ...               steps=(Step("s", "S"), Step("t", "T")),
    ...               cross_checks=(lambda v: {"lo": "above hi"} if v["lo"] > v["hi"] else {},))
    >>> cross_errors(ps, {"lo": 3.0, "hi": 2.0}), cross_errors(ps, {"lo": 3.0, "hi": 2.0}, within={"lo"})
    ({'lo': 'above hi'}, {})
    """
    allowed = None if within is None else set(within)
    errors: dict[str, str] = {}
    for cross_check in param_set.cross_checks:
        reading = _Reading(effective)
        found = cross_check(reading)
        if allowed is None or reading.read <= allowed:
            errors.update(found)
    return errors
