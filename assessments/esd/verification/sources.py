"""How a printed figure is declared, and how the engine computes it.

A :class:`Figure` is one number a document printed in a worked example: which document,
where (section, page), what quantity, the text as printed, and the engine's way to the
same number (a :class:`Source`):

- a whole scenario run as a user runs it (:class:`Run`: the scenario, its inputs, an
  optional preset of the engine), and the field of its result that holds the number
  (:meth:`Run.facility`, :meth:`Run.release`, :meth:`Run.exposure`, :meth:`Run.input`,
  :meth:`Run.facts`);
- one equation function of the engine, where the document's example is of one equation
  (:class:`Equation`; its arguments may be other sources, so an example that chains
  equations chains the engine's own values);
- :data:`NOT_COMPUTED`, for a printed figure the engine cannot compute at all (the note
  says why).

Whether the figure matches is never declared: :mod:`.evaluation` computes it with
:func:`.compare.matches`. A figure that does not match carries a ``note`` citing the
document's reason; ``remark`` says anything else a reader checking the row needs (how a
garbled extraction was read, which of a range's ends the document printed).

Runs call the scenario objects the engine modules declare (what the registry discovers),
not the registry itself, so that a test that substitutes the registry cannot change the
table.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..calc import equation_info
from ..figures import EXPOSURE_AMOUNTS, EXPOSURE_COUNTS, FACTS, RELEASE_AMOUNTS
from ..registry import Scenario
from ..results import Exposure, Release, Result
from ..text import in_words, internal_name

#: Results of the runs made while one table is built, by :meth:`Run.cache_key`.
Results = dict[tuple[Any, ...], Result]


@dataclass(frozen=True)
class Document:
    """One of the documents the engine implements. ``name`` is the table's short name."""

    key: str
    name: str
    title: str


class Source(Protocol):
    @property
    def how(self) -> str: ...

    def value(self, results: Results) -> Any: ...


@dataclass(frozen=True)
class Figure:
    document: Document
    section: str
    quantity: str
    printed: str
    source: Source
    note: str = ""
    remark: str = ""
    count: bool = False


def _value_text(value: Any) -> str:
    """A number as the method text shows it: ``5000``, ``0.15``, ``'unknown'``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return repr(value)
    return str(value)


@dataclass(frozen=True)
class Run:
    """A scenario computed with ``inputs`` (after the engine preset ``preset``, if any)."""

    scenario: Scenario
    inputs: Mapping[str, Any]
    preset: str = ""

    def effective_inputs(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        if self.preset:
            (found,) = [p for p in self.scenario.presets if p.key == self.preset]
            values.update(found.values)
        values.update(self.inputs)
        return values

    def cache_key(self) -> tuple[Any, ...]:
        return (self.scenario.key, json.dumps(self.effective_inputs(), sort_keys=True))

    def result(self, results: Results) -> Result:
        key = self.cache_key()
        if key not in results:
            # as the registry offers it: with the options every scenario has (options.py)
            results[key] = self.scenario.offered().compute(self.effective_inputs())
        return results[key]

    @property
    def how(self) -> str:
        """The run in a reader's words: the scenario's key, the preset by its label, each input
        by its document symbol (or, for an engine key, its label) and a choice by its label.

        >>> from assessments.esd.photoresist import PHOTORESIST_2018
        >>> Run(PHOTORESIST_2018, {"Qchem_yr": 5000, "stripping_process": "organic_solvent"}).how
        'photoresist-2018 (Qchem_yr = 5000, Stripping process = Organic solvent stripping: 25 % to water, 75 % to incineration)'
        """
        given = ", ".join(f"{self.name(k)} = {self._value(k, v)}" for k, v in self.inputs.items())
        labels = {p.key: p.label for p in self.scenario.presets}
        preset = f"preset “{labels.get(self.preset, self.preset)}”" if self.preset else ""
        return f"{self.scenario.key} ({'; '.join(part for part in (preset, given) if part)})"

    def name(self, symbol: str) -> str:
        """An input as the run's text names it: its symbol, or the label of an engine key."""
        params = self.scenario.offered().params
        if internal_name(symbol) and symbol in params:
            return params[symbol].label
        return in_words(symbol)

    def _value(self, symbol: str, value: Any) -> str:
        params = self.scenario.offered().params
        if symbol in params and params[symbol].choices and isinstance(value, str):
            return params[symbol].choice_label(value)
        return _value_text(value)

    def _facility_name(self, name: str) -> str:
        declared = self.scenario.facility_labels.get(name.replace(".", "/"))
        return declared.label if internal_name(name.split(".")[-1]) and declared is not None else name

    # --- the fields of a result -------------------------------------------------------

    def facility(self, name: str) -> Pick:
        """``result.facility[name]``; a dotted name reaches into a nested estimate."""

        def get(result: Result) -> Any:
            value: Any = result.facility
            for part in name.split("."):
                value = value[part]
            return value

        return Pick(self, f"facility {self._facility_name(name)}", get, kind="facility", name=name)

    def release(self, number: int, field_name: str = "kg_site_day", label: str | None = None) -> Pick:
        """A field of release ``number``'s estimate (the one labelled ``label`` when it has several)."""

        def release(result: Result) -> Release:
            (found,) = [r for r in result.releases if r.number == number]
            return found

        def get(result: Result) -> Any:
            (estimate,) = [e for e in release(result).estimates if label is None or e.label == label]
            return getattr(estimate, field_name)

        which = f" ({label})" if label else ""
        return Pick(self, f"release {number}{which}: {RELEASE_AMOUNTS[field_name][0].lower()}", get,
                    kind="release", name=str(number), model_of=lambda result: release(result).model)

    def exposure(self, letter: str, field_name: str = "mg_day", label: str | None = None,
                 route: str = "dermal") -> Pick:
        """``mg_day`` of exposure ``letter``'s estimate labelled ``label``, or a field of the
        exposure itself (``days_per_year``, ``workers_per_site``)."""

        def exposure(result: Result) -> Exposure:
            (found,) = [x for x in result.exposures if x.letter == letter and x.route == route]
            return found

        def get(result: Result) -> Any:
            if field_name != "mg_day":
                return getattr(exposure(result), field_name)
            (estimate,) = [e for e in exposure(result).estimates if label is None or e.label == label]
            return estimate.mg_day

        which = f" ({label})" if label else ""
        what = (EXPOSURE_AMOUNTS.get(field_name) or EXPOSURE_COUNTS[field_name])[0].lower()
        return Pick(self, f"exposure {letter}, {route}{which}: {what}", get,
                    kind="exposure", name=letter, model_of=lambda result: exposure(result).model)

    def input(self, symbol: str) -> Pick:
        """The effective input ``symbol`` (the engine's default when not given)."""
        return Pick(self, f"input {self.name(symbol)} (effective)", lambda result: result.inputs[symbol],
                    kind="input", name=symbol)

    def facts(self, name: str) -> Pick:
        """A field of the result's facility facts (sites, operating days, workers)."""
        return Pick(self, f"facts: {FACTS[name][0].lower()}", lambda result: getattr(result.facts, name),
                    kind="facts", name=name)


@dataclass(frozen=True)
class Pick:
    """One field of one run's result: ``kind`` names the part of the result (``facility``,
    ``release``, ``exposure``, ``input``, ``facts``) and ``name`` the field in it (the facility
    figure, release number, exposure letter, input symbol or fact); ``model_of`` reads the
    model of the release or exposure picked (:meth:`model`)."""

    run: Run
    path: str
    get: Callable[[Result], Any] = field(compare=False)
    kind: str = ""
    name: str = ""
    model_of: Callable[[Result], str] | None = field(default=None, compare=False)

    @property
    def how(self) -> str:
        return f"{self.run.how} → {self.path}"

    def value(self, results: Results) -> Any:
        return self.get(self.run.result(results))

    def model(self, results: Results) -> str:
        """The model of the release or exposure picked, as the result names it; "" for any
        other field (a facility figure, an input, a fact)."""
        return self.model_of(self.run.result(results)) if self.model_of is not None else ""


@dataclass(frozen=True)
class Equation:
    """One equation function of the engine applied to ``args`` (numbers or sources)."""

    function: Callable[..., Any]
    args: tuple[Any, ...]

    @property
    def how(self) -> str:
        """The equation as the document writes it (its declaration: symbol, formula and
        citation; else the function's summary) and each argument by its name.

        >>> from assessments.esd.site_data.equations import material_balance_emissions
        >>> Equation(material_balance_emissions, (2, 1.5, 7.5)).how
        'E_x = (Q_in − Q_out) × C_x (EIIP Vol. II Ch. 6 Eqn 6.4-1) with Q_in = 2, Q_out = 1.5, C_x = 7.5'
        """
        names = list(inspect.signature(self.function).parameters)
        shown = ", ".join(
            f"{in_words(name)} = " + (f"({a.how})" if hasattr(a, "value") else _value_text(a))
            for name, a in zip(names, self.args))
        try:
            info = equation_info(self.function)
            what = f"{info.symbol} = {info.formula} ({info.citation})"
        except TypeError:  # a helper the documents print no equation for: its summary
            what = (inspect.getdoc(self.function) or self.function.__name__).split("\n")[0].rstrip(".")
        return f"{what} with {shown}"

    def value(self, results: Results) -> Any:
        return self.function(*(a.value(results) if hasattr(a, "value") else a for a in self.args))


@dataclass(frozen=True)
class NotComputed:
    """A printed figure the engine does not compute; the figure's note says why."""

    @property
    def how(self) -> str:
        return "not computed by the engine"

    def value(self, results: Results) -> None:
        return None


NOT_COMPUTED = NotComputed()
