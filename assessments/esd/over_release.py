"""When a use releases more than it uses: the warning, and the inputs it names (issue 26).

A use's releases over a year and all sites (one consistent set,
:meth:`~.results.Result.one_set_released_kg_yr`), with what the process consumes, exceed
the chemical it uses (``facts.used_kg_yr``) by no more than the documents' rounding
conventions explain: whole containers (at most one day's containers' residue per site, each
holding no more than the production volume), whole sites, ChemSTEER's daily use, the
calendar intervals of less frequent cleaning. Each scenario declares that limit
(``Result.rounding_limit_kg_yr``). When the releases exceed the use by more
(:meth:`~.results.Result.over_release_kg_yr`), :func:`checked` gives the result one
warning with the figures, carried by its mass balance (``over_release_warning``), and the
inputs the warning names (``over_release_inputs``):

1. the inputs the releases read: the calculation trace's steps that computed their
   figures, every step those read, back to the inputs (:func:`read_inputs`); an input only
   an exposure reads (a worker count, a hand area) is never named;
2. of those, and the submitter's site data, the ones the reviewer moved from the
   document's default (an optional input given included; the site data given), the
   :data:`MOST_TRIED` furthest from it first, whose default (no site data) alone
   brings the releases within the limit, or, if none does, that lowers the excess, most
   first: the engine computes again with each at its default (:func:`causes`). Which
   release over-releases cannot be told from the amounts (the largest release of a normal
   use, spin-off, is not the one a 75,708 L container inflates), so the releases' inputs
   are tried, not one release's;
3. else the production volume, when the releases read it and nothing the reviewer moved
   explains the excess: the use is smaller than the containers it comes in;
4. else the largest release (a site-specific release: the submitter's data, which the
   site data's own warning names too).

Figures print as the engine's sentences print them (:func:`~.text.figure`: three significant
figures, thousands separated, EPA's E-notation at the threshold the pages share with
:mod:`assessments.numbers`); an input as entered (:func:`~.text.given`), by its label and,
where it has one, the document's symbol. Nothing here imports Django.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from collections.abc import Callable, Collection, Mapping
from typing import Any

from .parameters import CHOICE, EngineValidationError, Param, ParamSet
from .results import Release, Result, TraceStep
from .site_data import SITE_SPECIFIC
from .text import figure, given, unit_for

#: The warning: one sentence with the figures (kg/yr, all sites) and the inputs to check.
OVER_RELEASE = (
    "Releases ({released}) exceed the chemical used ({used}) beyond what whole-container rounding and the "
    "documents' other conventions explain ({limit}); check {causes}."
)
#: ... when the process also consumes or destroys some of it (CVD: deposition, abatement).
OVER_RELEASE_CONSUMED = (
    "Releases ({released}) and what the process consumes ({consumed}) exceed the chemical used ({used}) beyond "
    "what whole-container rounding and the documents' other conventions explain ({limit}); check {causes}."
)
LIMIT = "at most {limit} here"
NO_LIMIT = "nothing here"
#: An input named: its label, symbol and value as entered, with its units; an input the
#: engine keys by a name of its own (``Param.shown_symbol`` empty) by its label alone.
CAUSE = "“{label}” ({symbol} = {value})"
CAUSE_UNSYMBOLED = "“{label}” ({value})"
SITE_DATA = "the site-specific data of Release {number}"
RELEASE_INPUTS = "the inputs of Release {number}, the largest"
#: The units of the use: an input in them that the releases read is the use itself.
USE_UNITS = "kg/yr"
EVERY_INPUT = "the inputs"
#: An excess at its default below this fraction of the excess as given is not lowered by it.
LOWERS = 1e-6
#: At most this many inputs are computed again at their defaults, the furthest from them
#: first (each computation takes a few milliseconds).
MOST_TRIED = 6

Recompute = Callable[[Mapping[str, Any]], Result]


def checked(result: Result, params: ParamSet, raw: Mapping[str, Any], recompute: Recompute) -> Result:
    """``result`` with the over-release warning and the inputs it names, when one consistent
    set releases more than the use and the rounding limit (unchanged otherwise).

    ``params``: the scenario's inputs; ``raw``: the inputs as given; ``recompute``: the
    scenario's computation without this check, for an input set back to its default.
    """
    excess = result.over_release_kg_yr()
    if excess <= 0:
        return result
    symbols = causes(result, params, raw, excess, recompute)
    text = warning(result, params, symbols)
    return dataclasses.replace(result, over_release_warning=text, over_release_inputs=symbols)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def read_inputs(result: Result, releases: list[Release], symbols: Collection[str]) -> set[str]:
    """The inputs (of ``symbols``) that ``releases`` read: the trace's steps whose values are
    their estimates' figures (daily amount, days, sites), each step an input of those read
    (the step of that symbol before it, else of that value), back to the inputs; a figure no
    step computed is an input's value itself (a known number of sites)."""
    trace = result.trace
    wanted = {float(x) for r in releases for e in r.estimates for x in (e.kg_site_day, e.days_per_year, e.sites)}
    stack = [i for i, step in enumerate(trace) if _number(step.value) and float(step.value) in wanted]
    computed = {float(trace[i].value) for i in stack}
    found = {s for s in symbols if _number(result.inputs.get(s)) and float(result.inputs[s]) in wanted - computed}
    source = _Sources(trace)
    seen: set[int] = set()
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        for name, value in trace[i].inputs.items():
            if name in symbols:
                found.add(name)
            j = source.of(i, name, value)
            if j is not None:
                stack.append(j)
            elif name not in symbols and _number(value):  # an input under its equation's name
                found |= {s for s in symbols if _number(result.inputs.get(s)) and result.inputs[s] == value}
    return found


class _Sources:
    """Where a step's input comes from: the last earlier step of that symbol, else of that
    value (a step's input named by its parameter, not its symbol); the steps indexed once."""

    def __init__(self, trace: list[TraceStep]) -> None:
        self.by_symbol: dict[str, list[int]] = {}
        self.by_value: dict[float, list[int]] = {}
        for j, step in enumerate(trace):
            self.by_symbol.setdefault(step.symbol, []).append(j)
            if _number(step.value):
                self.by_value.setdefault(float(step.value), []).append(j)

    @staticmethod
    def _last_before(indices: list[int] | None, before: int) -> int | None:
        if not indices:
            return None
        k = bisect.bisect_left(indices, before)
        return indices[k - 1] if k else None

    def of(self, before: int, name: str, value: Any) -> int | None:
        j = self._last_before(self.by_symbol.get(name), before)
        if j is None and _number(value):
            j = self._last_before(self.by_value.get(float(value)), before)
        return j


def _overridden(param: Param, result: Result, raw: Mapping[str, Any]) -> bool:
    """Whether the reviewer moved ``param`` from the document's default (a number input
    given away from its default, or an optional input given)."""
    if param.kind == CHOICE or param.required or param.symbol not in raw:
        return False
    given = raw[param.symbol]
    if given is None or (isinstance(given, str) and not given.strip()):
        return False
    return bool(result.inputs.get(param.symbol) != param.default)


def _distance(param: Param, value: Any) -> float:
    """How far an input is from its default: decades for two positive numbers, else the
    difference; an optional input given (no default) is the furthest."""
    default = param.default
    if not isinstance(default, (int, float)) or isinstance(default, bool) or not _number(value):
        return math.inf
    if value > 0 and default > 0:
        return abs(math.log10(value) - math.log10(default))  # a ratio of subnormals underflows
    return abs(float(value) - default)


def causes(result: Result, params: ParamSet, raw: Mapping[str, Any], excess: float,
           recompute: Recompute) -> list[str]:
    """The symbols the warning names (the module's steps 1 to 3)."""
    symbols = [p.symbol for p in params.params]
    read = read_inputs(result, result.releases, symbols)
    moved = [p for p in params.params if p.symbol in read and _overridden(p, result, raw)]
    candidates = [p.symbol for p in sorted(moved, key=lambda p: -_distance(p, result.inputs.get(p.symbol)))]
    if raw.get(SITE_SPECIFIC):
        candidates.insert(0, SITE_SPECIFIC)
    removes: list[str] = []
    lowers: list[tuple[float, str]] = []
    for symbol in candidates[:MOST_TRIED]:
        try:
            other = recompute({k: v for k, v in raw.items() if k != symbol})
        except EngineValidationError:  # its default conflicts with another input: no answer
            continue
        left = other.over_release_kg_yr()
        if left <= 0:
            removes.append(symbol)
        elif left < excess * (1 - LOWERS):
            lowers.append((left, symbol))
    named = [s for s in [SITE_SPECIFIC, *symbols] if s in removes] or [symbol for _, symbol in sorted(lowers)]
    if named:
        return named
    return [p.symbol for p in params.params if p.required and p.units == USE_UNITS and p.symbol in read]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def cause_text(param: Param, value: Any) -> str:
    """An input as the warning names it: ``“Volume of photoresist per container” (Vcont = 1E+9 L/container)``.

    >>> cause_text(Param("Vcont", "Volume per container", "L/container", 3.8, "doc", "s"), 1e9)
    '“Volume per container” (Vcont = 1E+9 L/container)'
    >>> cause_text(Param("cleaning_interval_days", "Days per cleaning", "days", None, "doc", "s"), 365.0)
    '“Days per cleaning” (365 days)'
    """
    units = "" if param.units in ("", "-") else unit_for(value, param.units)
    shown = f"{given(value)} {units}".strip() if isinstance(value, (int, float)) else str(value)
    if not param.shown_symbol:
        return CAUSE_UNSYMBOLED.format(label=param.label, value=shown)
    return CAUSE.format(label=param.label, symbol=param.symbol, value=shown)


def largest_release(result: Result) -> Release | None:
    """The release with the most kg/yr in the totals' consistent set (the first on a tie)."""
    amounts = [(release, amount) for release, amount in result.release_amounts() if release.estimates]
    return max(amounts, key=lambda pair: pair[1])[0] if amounts else None


def warning(result: Result, params: ParamSet, symbols: list[str]) -> str:
    """The sentence: the releases, the use and the limit (kg/yr, all sites), and what to check."""
    site_data = [SITE_DATA.format(number=r.number) for r in result.releases if r.site_specific]
    named = [cause_text(params[s], result.inputs.get(s)) if s != SITE_SPECIFIC else _and(site_data or [EVERY_INPUT])
             for s in symbols]
    largest = largest_release(result)
    if not named and largest is not None:
        named = [(SITE_DATA if largest.site_specific else RELEASE_INPUTS).format(number=largest.number)]
    named = named or [EVERY_INPUT]
    used = result.facts.used_kg_yr if result.facts is not None else 0.0
    limit = result.rounding_limit_kg_yr
    figures = {
        "released": f"{figure(result.one_set_released_kg_yr())} kg/yr",
        "consumed": f"{figure(result.consumed_kg_yr)} kg/yr",
        "used": f"{figure(used)} kg/yr",
        "limit": LIMIT.format(limit=f"{figure(limit)} kg/yr") if limit > 0 else NO_LIMIT,
        "causes": _and(named),
    }
    return (OVER_RELEASE_CONSUMED if result.consumed_kg_yr > 0 else OVER_RELEASE).format(**figures)
