"""Evaluate an equation and record it in the calculation trace, in one call.

Each equation function carries, once, the symbol it returns, its units, its formula in
the document's symbols and its citation (:func:`equation`). :class:`Calc` calls it with
keyword arguments named as the document names them and records a
:class:`~assessments.esd.results.TraceStep` with those inputs, so the trace can never
disagree with the arithmetic.

>>> from assessments.esd.results import Trace
>>> @equation("y", "kg/day", "a × b", "Doc Eqn 1")
... def product(a: float, b: float) -> float:
...     return a * b
>>> calc = Calc(Trace())
>>> calc(product, a=2.0, b=3.0)
6.0
>>> step = calc.trace.steps[0]
>>> step.symbol, step.equation, step.citation, step.inputs
('y', 'a × b', 'Doc Eqn 1', {'a': 2.0, 'b': 3.0})
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


def equation(symbol: str, units: str, formula: str, citation: str) -> Callable[[F], F]:
    """Attach the trace metadata to an equation function; the function is unchanged."""

    def attach(fn: F) -> F:
        fn.info = EquationInfo(symbol, units, formula, citation)  # type: ignore[attr-defined]
        return fn

    return attach


@dataclass
class Calc:
    """Evaluates equations into a trace.

    ``citations`` maps an equation function's name to the citation a scenario uses for
    it (e.g. the 2004 edition's equation number for a formula it shares with 2010).
    """

    trace: Trace
    citations: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, fn: Callable[..., T], *, symbol: str = "", note: str = "", citation: str = "",
                 **inputs: Any) -> T:
        """``fn(**inputs)``, recorded; ``citation`` overrides the scenario's and the function's,
        ``symbol`` the equation's own (when a scenario evaluates one equation more than once,
        e.g. ``Elocal_control_low_end``, or keeps an intermediate beside the final value)."""
        info: EquationInfo = fn.info  # type: ignore[attr-defined]
        value = fn(**inputs)
        citation = citation or self.citations.get(fn.__name__, info.citation)
        self.trace.record(symbol or info.symbol, value, info.units, info.formula, citation, note, **inputs)
        return value

    def given(self, symbol: str, value: Any, units: str, formula: str, citation: str, note: str = "") -> Any:
        """Record ``value`` as taken, not computed (an entered input or a document's default)."""
        return self.trace.record(symbol, value, units, formula, citation, note)
