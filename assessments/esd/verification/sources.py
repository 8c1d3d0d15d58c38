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

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..registry import Scenario
from ..results import Result

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
        given = ", ".join(f"{k} = {_value_text(v)}" for k, v in self.inputs.items())
        preset = f"preset {self.preset!r}" if self.preset else ""
        return f"{self.scenario.key} ({'; '.join(part for part in (preset, given) if part)})"

    # --- the fields of a result -------------------------------------------------------

    def facility(self, name: str) -> Pick:
        """``result.facility[name]``; a dotted name reaches into a nested estimate."""

        def get(result: Result) -> Any:
            value: Any = result.facility
            for part in name.split("."):
                value = value[part]
            return value

        return Pick(self, f"facility {name}", get)

    def release(self, number: int, field_name: str = "kg_site_day", label: str | None = None) -> Pick:
        """A field of release ``number``'s estimate (the one labelled ``label`` when it has several)."""

        def get(result: Result) -> Any:
            (release,) = [r for r in result.releases if r.number == number]
            (estimate,) = [e for e in release.estimates if label is None or e.label == label]
            return getattr(estimate, field_name)

        which = f" ({label})" if label else ""
        return Pick(self, f"release {number}{which} {field_name}", get)

    def exposure(self, letter: str, field_name: str = "mg_day", label: str | None = None,
                 route: str = "dermal") -> Pick:
        """``mg_day`` of exposure ``letter``'s estimate labelled ``label``, or a field of the
        exposure itself (``days_per_year``, ``workers_per_site``)."""

        def get(result: Result) -> Any:
            (exposure,) = [x for x in result.exposures if x.letter == letter and x.route == route]
            if field_name != "mg_day":
                return getattr(exposure, field_name)
            (estimate,) = [e for e in exposure.estimates if label is None or e.label == label]
            return estimate.mg_day

        which = f" ({label})" if label else ""
        return Pick(self, f"exposure {letter} {route}{which} {field_name}", get)

    def input(self, symbol: str) -> Pick:
        """The effective input ``symbol`` (the engine's default when not given)."""
        return Pick(self, f"input {symbol} (effective)", lambda result: result.inputs[symbol])

    def facts(self, name: str) -> Pick:
        """A field of the result's facility facts (sites, operating days, workers)."""
        return Pick(self, f"facts {name}", lambda result: getattr(result.facts, name))


@dataclass(frozen=True)
class Pick:
    """One field of one run's result."""

    run: Run
    path: str
    get: Callable[[Result], Any] = field(compare=False)

    @property
    def how(self) -> str:
        return f"{self.run.how} → {self.path}"

    def value(self, results: Results) -> Any:
        return self.get(self.run.result(results))


@dataclass(frozen=True)
class Equation:
    """One equation function of the engine applied to ``args`` (numbers or sources)."""

    function: Callable[..., Any]
    args: tuple[Any, ...]

    @property
    def how(self) -> str:
        module = self.function.__module__.removeprefix("assessments.esd.")
        shown = ", ".join(a.how if hasattr(a, "value") else _value_text(a) for a in self.args)
        return f"{module}.{self.function.__name__}({shown})"

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
