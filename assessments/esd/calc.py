"""Evaluate an equation and record it in the calculation trace, in one call.

Each equation function carries, once, the symbol it returns, its units, its formula in
the document's symbols, its citation and its label, what it computes in a reviewer's
words (:func:`equation`). :class:`Calc` calls it with keyword arguments named as the
document names them and records a :class:`~assessments.esd.results.TraceStep` with those
inputs and that label, so the trace can never disagree with the arithmetic, and a page
names a figure by the engine's declaration, never by the function's docstring.

>>> from assessments.esd.results import Trace
>>> @equation("y", "kg/day", "a × b", "Doc Eqn 1", label="Product of a and b")
... def product(a: float, b: float) -> float:
...     return a * b
>>> calc = Calc(Trace())
>>> calc(product, a=2.0, b=3.0)
6.0
>>> step = calc.trace.steps[0]
>>> step.symbol, step.equation, step.citation, step.inputs, step.label
('y', 'a × b', 'Doc Eqn 1', {'a': 2.0, 'b': 3.0}, 'Product of a and b')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .results import Trace

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T", bound=float)  # an equation returns a number (int or float)


@dataclass(frozen=True)
class EquationInfo:
    symbol: str
    units: str
    formula: str
    citation: str
    # What the equation computes, in a reviewer's words ("Daily release of the chemical in
    # equipment-cleaning residue"): the trace step's label, and the label of a facility
    # figure it computes (assessments/esd/figures.py).
    label: str = ""


#: An equation declared without saying what it computes.
LABEL_REQUIRED = "@equation {symbol!r} ({formula}) needs a label: what it computes, in a reviewer's words"


def equation(symbol: str, units: str, formula: str, citation: str, *, label: str) -> Callable[[F], F]:
    """Attach the trace metadata to an equation function; the function is unchanged.

    ``label`` is required and may not be blank: every figure the engine returns is named
    by a declaration, never by a docstring or a symbol.

    >>> equation("y", "kg/day", "a × b", "Doc Eqn 1", label=" ")
    Traceback (most recent call last):
    ...
    ValueError: @equation 'y' (a × b) needs a label: what it computes, in a reviewer's words
    """
    if not label.strip():
        raise ValueError(LABEL_REQUIRED.format(symbol=symbol, formula=formula))

    def attach(fn: F) -> F:
        fn.info = EquationInfo(symbol, units, formula, citation, label)  # type: ignore[attr-defined]  # read by the trace
        return fn

    return attach


def equation_info(fn: Callable[..., Any]) -> EquationInfo:
    """The declaration :func:`equation` attached to ``fn`` (TypeError for a function that
    is not an equation)."""
    info = getattr(fn, "info", None)
    if not isinstance(info, EquationInfo):
        raise TypeError(f"{getattr(fn, '__name__', fn)!r} is not declared with @equation")
    return info


@dataclass
class Calc:
    """Evaluates equations into a trace.

    ``citations`` maps an equation function's name to the citation a scenario uses for
    it (e.g. the 2004 edition's equation number for a formula it shares with 2010).
    """

    trace: Trace
    citations: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, fn: Callable[..., T], *, symbol: str = "", note: str = "", citation: str = "",
                 qualifier: str = "", **inputs: Any) -> T:
        """``fn(**inputs)``, recorded; ``citation`` overrides the scenario's and the function's,
        ``symbol`` the equation's own (when a scenario evaluates one equation more than once,
        e.g. ``Elocal_control_low_end``, or keeps an intermediate beside the final value);
        ``qualifier`` what tells this value apart from another of the same symbol in the
        trace (``"Eqn 3-3, unrounded"``: :func:`~assessments.esd.names.printed_names`)."""
        info = equation_info(fn)
        value = fn(**inputs)
        citation = citation or self.citations.get(fn.__name__, info.citation)
        self.trace.record(symbol or info.symbol, value, info.units, info.formula, citation, note,
                          label=info.label, qualifier=qualifier, **inputs)
        return value

    def given(self, symbol: str, value: Any, units: str, formula: str, citation: str, note: str = "",
              *, label: str = "", qualifier: str = "") -> Any:
        """Record ``value`` as taken, not computed (an entered input or a document's default);
        ``label`` says what it is (the input's label)."""
        return self.trace.record(symbol, value, units, formula, citation, note, label=label, qualifier=qualifier)
