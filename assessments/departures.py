"""Defaults against the case (issue 43): for each computed use, every input where the case
departs from the document's default, and what that departure alone does to the use's figures.

A **departure** is an input of the use's computed inputs (``Scenario.computed_inputs``: what
the stored result reflects) that

- has a default (``Param.default`` is not None): a required input with no default (the
  production volume) or one that may be left empty (a known number of sites) is case data,
  never a departure, and stays as it is in every run below;
- is not at it (:func:`assessments.impact.at_default`: given, and not equal to the default
  as the input reads it);
- applies to these inputs (``ParamSet.applicable``): a value kept for an input that does not
  apply is ignored by the engine (it computes with the default), so it departs from nothing.

Each departure says where it comes from (:func:`source_of`): :data:`SUBMITTER_DATA` when the
input is linked to the case (:func:`assessments.case_links.is_linked`: it holds what the
case field gives it, with no reason of the reviewer's own), else :data:`REVIEWER`; and the
reason given for it (the case's own words, :func:`assessments.case_links.case_reason`, for a
linked input stored without one).

The runs, each ``compute(key, inputs)`` of the engine (the installed one by default: exactly
what ``manage.py esd compute`` prints for those inputs, docs/interface.md):

- **defaults alone**: the computed inputs with every departure left out (so at its default);
- **all departures**: the computed inputs as stored; the stored result itself when the
  installed engine computed it (``Result.engine_version``), else computed again, so every
  column of the table is one engine's;
- **each departure alone**: defaults alone and that one departure.

Identical runs are computed once (a use with one departure is one run: its departure alone
is its stored inputs). An effect is an output (``impact.figures``: each release estimate's
``kg_yr`` and ``kg_site_day``, each exposure estimate's ``mg_day``, ``mg_m3`` and doses, named
as ``esd sensitivity`` names them) that the departure alone moves from the defaults alone,
beyond :data:`~assessments.engine_results.RESULT_REL_TOL`; it is flagged where it crosses a
review threshold, as ``esd impact`` flags a move (:func:`assessments.impact.compare`, old the
defaults alone, new the departure alone): a release or exposure estimate changes rank within
the use (:data:`~assessments.impact.RANK_CHANGED`), or an inhalation estimate comes to exceed,
or no longer exceeds, the case's TLV/PEL (``exposure_limits.case_limit``). A departure that
sends a release elsewhere without changing its amounts (the stripping process of EPA's 2018
update to the photoresist ESD, §4.7: a share to water instead of incineration) moves no figure;
its media changes are listed beside its effects (:class:`MediaChange`).

Read only: nothing is written, and the engine refusing a run is said in its words, never
raised (:attr:`UseDepartures.refused`, :attr:`Departure.refused`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .case_links import case_reason, is_linked
from .engine_refresh import QUANTITY_WORDS, output_names, output_words, refused_text
from .esd.parameters import ALL, EngineValidationError, Param, ParamSet
from .esd.results import ENGINE_VERSION
from .esd.sensitivity import UNITS, Key
from .exposure_limits import case_limit
from .impact import THRESHOLDS_JOINED, Figure, Move, at_default, compare, figures
from .impact_engines import Engine, InstalledEngine
from .models import Assessment, Scenario, Submission
from .numbers import NOTHING, signed_percent, significant
from .presentation import release_media_text
from .stored_text import declared_params, input_label, input_text

#: Where a departure comes from, as the page, the API and the IRER's appendix name it.
SUBMITTER_DATA = "submitter data"
REVIEWER = "reviewer override"

#: A use not computed: it has no result to measure departures against.
NOT_COMPUTED = "not computed: compute the use to see where it departs from the defaults"
#: A method this installation's engine does not know (an imported case).
UNKNOWN_METHOD = "this installation's engine does not know the method {key!r}"
#: The folded summary's line (:func:`summary_text`).
SUMMARY = "Defaults against the case: {departures}, {crossing}"
NO_DEPARTURE = "Defaults against the case: no departure (every input with a default is at it)"
CROSSING_NONE = "none crosses a review threshold"
CROSSING_ONE = "1 crosses a review threshold"
CROSSING_SOME = "{count} cross a review threshold"
#: The engine's refusal, on the page.
DEFAULTS_REFUSED = "The engine refuses these inputs with every departure at its default: {errors}"
ALONE_REFUSED = "The engine refuses this departure with the other inputs at their defaults: {errors}"
#: A departure that alone moves no output and changes no release's media, on the page.
MOVES_NOTHING = "Alone, it moves no release or exposure figure and sends no release elsewhere."

#: The most significant figures two figures are shown with, to tell them apart.
MOST_DIGITS = 6

Result = dict[str, Any]
Errors = dict[str, str]


# --- the facts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One output of the use that a departure alone moves."""

    id: str  # "release-1", "exposure-A" (impact.figures' ids)
    estimate: str  # the estimate's label with the defaults alone ("central tendency", "high end", ...)
    quantity: str  # the output's quantity key, as esd sensitivity names it ("kg_yr", "mg_m3")
    route: str | None
    default: float | None  # with the defaults alone
    departed: float | None  # with this departure alone
    threshold: str | None  # the crossing words ("rank changed", "now above ..."), or None
    departed_estimate: str | None = None  # the label with the departure alone, where it differs

    @property
    def relative(self) -> float | None:
        """``(departed - default) / default``; None without both figures or from zero."""
        if self.default is None or self.departed is None or self.default == 0:
            return None
        return (self.departed - self.default) / self.default

    @property
    def units(self) -> str:
        return UNITS.get(self.quantity, "")

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "estimate": self.estimate, "departed_estimate": self.departed_estimate,
                "quantity": self.quantity, "units": self.units, "route": self.route, "default": self.default,
                "departed": self.departed, "relative": self.relative, "threshold": self.threshold}


@dataclass(frozen=True)
class MediaChange:
    """A release whose media a departure alone changes, its amounts aside (a stripping
    process that sends a release to water instead of incineration): the media in words,
    as the results page prints them (``presentation.release_media_text``)."""

    id: str  # "release-5"
    default: str  # with the defaults alone
    departed: str  # with this departure alone

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "default": self.default, "departed": self.departed}


@dataclass(frozen=True)
class Departure:
    """One input where the case departs from the document's default."""

    symbol: str
    label: str
    default: Any  # as the engine reads it
    value: Any
    default_text: str  # as the pages print them, with the units
    value_text: str
    source: str  # SUBMITTER_DATA or REVIEWER
    reason: str
    effects: list[Effect]  # the outputs this departure alone moves, in result order
    thresholds: list[str]  # the distinct crossing words
    refused: Errors | None = None  # the engine's errors when it refuses this departure alone
    media: list[MediaChange] = field(default_factory=list)  # the releases whose media it alone changes

    @property
    def largest_relative(self) -> float | None:
        """The largest ``|relative|`` among the effects (None when none is finite)."""
        found = [abs(e.relative) for e in self.effects if e.relative is not None and math.isfinite(e.relative)]
        return max(found) if found else None

    def as_dict(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "label": self.label, "default": self.default, "value": self.value,
                "default_text": self.default_text, "value_text": self.value_text, "source": self.source,
                "reason": self.reason, "effects": [e.as_dict() for e in self.effects],
                "thresholds": self.thresholds, "largest_relative": self.largest_relative,
                "media": [m.as_dict() for m in self.media], "refused": self.refused}


@dataclass(frozen=True)
class Row:
    """One output of the use in every run: the defaults alone, all departures, each alone
    (in the order of :attr:`UseDepartures.departures`); None where a run does not give it."""

    id: str
    estimate: str
    quantity: str
    route: str | None
    defaults: float | None
    all_departures: float | None
    each: tuple[float | None, ...]

    @property
    def units(self) -> str:
        return UNITS.get(self.quantity, "")

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "estimate": self.estimate, "quantity": self.quantity, "units": self.units,
                "route": self.route, "defaults": self.defaults, "all_departures": self.all_departures,
                "each": list(self.each)}


@dataclass(frozen=True)
class UseDepartures:
    """One use's departures and its runs."""

    use: int  # the use's position in its assessment
    title: str
    scenario_key: str
    departures: list[Departure]
    defaults_result: Result | None  # with the defaults alone
    all_result: Result | None  # with all departures (the computed inputs)
    rows: list[Row]
    refused: Errors | None  # the engine refuses the defaults-alone inputs
    computed: bool = True  # False: the use has no result (NOT_COMPUTED), nothing listed
    all_refused: Errors | None = None  # the installed engine refuses the computed inputs now

    @property
    def crossing(self) -> list[Departure]:
        """The departures that alone cross a review threshold."""
        return [d for d in self.departures if d.thresholds]

    def as_dict(self) -> dict[str, Any]:
        return {"use": self.use, "title": self.title, "scenario_key": self.scenario_key,
                "computed": self.computed, "departures": [d.as_dict() for d in self.departures],
                "rows": [r.as_dict() for r in self.rows], "refused": self.refused, "all_refused": self.all_refused,
                "summary": summary_text(self)}


# --- the rules ------------------------------------------------------------------------------


def departing(params: ParamSet, inputs: Mapping[str, Any]) -> list[Param]:
    """The inputs of ``inputs`` that depart from their defaults (the module docstring's
    rule), in the order the scenario declares them."""
    applying = params.applicable(inputs)
    return [p for p in params.params
            if p.default is not None and p.symbol in applying and not at_default(p, inputs.get(p.symbol))]


def source_of(param: Param, *, inputs: Mapping[str, Any], reasons: Mapping[str, str],
              case: Submission) -> str:
    """:data:`SUBMITTER_DATA` for an input linked to the case, else :data:`REVIEWER`."""
    if param.from_case and is_linked(param, inputs=inputs, reasons=reasons,
                                     case_value=getattr(case, param.from_case, None)):
        return SUBMITTER_DATA
    return REVIEWER


def effective(param: Param, stored: Any) -> Any:
    """A stored value as the engine reads it (as stored when the input refuses it)."""
    try:
        return param.coerce(stored)
    except ValueError:
        return stored


def release_media(result: Any) -> dict[str, str]:
    """Each release of a result by ``impact.figures``' id, its media in words."""
    releases = result.get("releases") if isinstance(result, Mapping) else None
    return {f"release-{r.get('number')}": release_media_text(dict(r)) for r in releases or []
            if isinstance(r, Mapping)}


def media_changes(before: Any, after: Any) -> list[MediaChange]:
    """The releases in both results whose media read otherwise, in the order of ``after``."""
    was = release_media(before)
    return [MediaChange(ident, was[ident], text) for ident, text in release_media(after).items()
            if ident in was and was[ident] != text]


def _thresholds(effects: list[Effect]) -> list[str]:
    found: list[str] = []
    for effect in effects:
        for words in (effect.threshold or "").split(THRESHOLDS_JOINED):
            if words and words not in found:
                found.append(words)
    return found


def _effect(move: Move) -> Effect:
    departed = move.new_estimate if move.new_estimate not in (None, move.estimate) else None
    return Effect(id=move.id, estimate=move.estimate, quantity=move.quantity, route=move.route,
                  default=move.old, departed=move.new, threshold=move.threshold, departed_estimate=departed)


class _Runs:
    """The engine's results for one call, each set of inputs computed once."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.done: dict[tuple[str, str], tuple[Result | None, Errors | None]] = {}

    @staticmethod
    def key(scenario_key: str, inputs: Mapping[str, Any]) -> tuple[str, str]:
        return scenario_key, json.dumps(inputs, sort_keys=True, default=str)

    def keep(self, scenario_key: str, inputs: Mapping[str, Any], result: Result) -> None:
        self.done.setdefault(self.key(scenario_key, inputs), (result, None))

    def run(self, scenario_key: str, inputs: Mapping[str, Any]) -> tuple[Result | None, Errors | None]:
        key = self.key(scenario_key, inputs)
        if key not in self.done:
            try:
                # As the JSON field stores a result (tuples as lists), so every run reads alike.
                result = json.loads(json.dumps(self.engine.compute(scenario_key, dict(inputs))))
                self.done[key] = (result, None)
            except EngineValidationError as exc:
                self.done[key] = (None, {str(k): str(v) for k, v in exc.errors.items()})
        return self.done[key]


def _stored_is_the_engines(use: Scenario, engine: Engine) -> bool:
    """Whether the stored result is what ``engine`` computes from the computed inputs: the
    installed engine, and the installed engine stored it."""
    return (engine.ref == "" and isinstance(use.result, dict)
            and use.result.get("engine_version") == ENGINE_VERSION)


def _value_at(found: Mapping[Key, Figure], key: Key) -> float | None:
    """The output at ``key``; where the run gives its release or exposure one estimate where
    ``key``'s has several (a range whose ends are equal there), that one, as
    ``impact.pairs`` pairs them."""
    if key in found:
        return found[key].value
    single = (key[0], key[1], 1, 0, key[4])
    return found[single].value if key[2] > 1 and single in found else None


def table_rows(defaults: Result | None, every: Result | None, alone: list[Result | None]) -> list[Row]:
    """Each output in any run, in the order of all departures' result (then the defaults
    alone's, then each departure's), with its figure in each run."""
    runs = [figures(result) for result in (every, defaults, *alone)]
    keys: dict[Key, Figure] = {}
    for found in runs:
        for key, figure in found.items():
            keys.setdefault(key, figure)
    every_found, defaults_found, *each_found = runs
    return [Row(id=key[0], estimate=figure.label, quantity=key[4], route=figure.route,
                defaults=_value_at(defaults_found, key), all_departures=_value_at(every_found, key),
                each=tuple(_value_at(found, key) for found in each_found))
            for key, figure in keys.items()]


# --- one use, one assessment ----------------------------------------------------------------


def use_departures(use: Scenario, *, case: Submission, engine: Engine | None = None) -> UseDepartures:
    """The departures of ``use`` against ``case`` (the case as the use's revision prints it,
    ``Assessment.case_data``: its TLV/PEL, its molecular weight and the fields the linked
    inputs carry), computed by ``engine`` (the installed one when None)."""
    return _use_departures(use, case=case, runs=_Runs(engine or InstalledEngine()))


def assessment_departures(assessment: Assessment) -> list[UseDepartures]:
    """The departures of each computed use in effect of ``assessment``, in the order of its
    uses, against the case as that revision prints it (an approved one: as approved)."""
    case = assessment.case_data
    runs = _Runs(InstalledEngine())
    return [_use_departures(use, case=case, runs=runs) for use in assessment.scenarios.all()
            if use.result is not None]


def _not_computed(use: Scenario) -> UseDepartures:
    return UseDepartures(use=use.position, title=use.title, scenario_key=use.scenario_key, departures=[],
                         defaults_result=None, all_result=None, rows=[], refused=None, computed=False)


def _use_departures(use: Scenario, *, case: Submission, runs: _Runs) -> UseDepartures:
    if use.result is None:
        return _not_computed(use)
    key = use.scenario_key
    inputs: dict[str, Any] = dict(use.computed_inputs) if isinstance(use.computed_inputs, dict) else {}
    reasons = use.reasons if isinstance(use.reasons, dict) else {}
    params = declared_params(key)
    if params is None:
        return UseDepartures(use=use.position, title=use.title, scenario_key=key, departures=[],
                             defaults_result=None, all_result=None, rows=[],
                             refused={ALL: UNKNOWN_METHOD.format(key=key)})
    found = departing(params, inputs)
    if _stored_is_the_engines(use, runs.engine):
        assert isinstance(use.result, dict)
        runs.keep(key, inputs, use.result)
    every, every_refused = runs.run(key, inputs)
    defaults_inputs = {symbol: value for symbol, value in inputs.items() if symbol not in {p.symbol for p in found}}
    defaults, refused = runs.run(key, defaults_inputs)
    limit, weight = case_limit(case), case.molecular_weight
    departures: list[Departure] = []
    alone: list[Result | None] = []
    for param in found:
        stored = inputs[param.symbol]
        result, errors = (None, None) if defaults is None else runs.run(key, {**defaults_inputs, param.symbol: stored})
        effects = ([_effect(m) for m in compare(defaults, result, use=use.position, limit=limit,
                                                molecular_weight=weight)]
                   if defaults is not None and result is not None else [])
        source = source_of(param, inputs=inputs, reasons=reasons, case=case)
        reason = reasons.get(param.symbol) or (case_reason(param) if source == SUBMITTER_DATA else "")
        departures.append(Departure(
            symbol=param.symbol, label=input_label(params, param.symbol), default=param.default,
            value=effective(param, stored), default_text=input_text(param.symbol, param.default, params),
            value_text=input_text(param.symbol, stored, params), source=source, reason=reason,
            effects=effects, thresholds=_thresholds(effects), refused=errors,
            media=media_changes(defaults, result) if defaults is not None and result is not None else []))
        alone.append(result)
    return UseDepartures(use=use.position, title=use.title, scenario_key=key, departures=departures,
                         defaults_result=defaults, all_result=every, rows=table_rows(defaults, every, alone),
                         refused=refused, all_refused=every_refused)


# --- the words ------------------------------------------------------------------------------


def summary_text(found: UseDepartures) -> str:
    """The folded summary's line: "Defaults against the case: 2 departures, 1 crosses a
    review threshold"."""
    if not found.computed:
        return f"Defaults against the case: {NOT_COMPUTED}"
    count = len(found.departures)
    if not count:
        return NO_DEPARTURE
    crossing = len(found.crossing)
    crossing_text = (CROSSING_NONE if crossing == 0 else CROSSING_ONE if crossing == 1
                     else CROSSING_SOME.format(count=crossing))
    return SUMMARY.format(departures=f"{count} departure{'' if count == 1 else 's'}", crossing=crossing_text)


def figure_pair(before: float | None, after: float | None) -> tuple[str, str]:
    """Two figures with as many significant figures (3 to :data:`MOST_DIGITS`) as tell them apart."""
    digits = 3
    while (digits < MOST_DIGITS and before is not None and after is not None
           and significant(before, digits) == significant(after, digits)):
        digits += 1
    return significant(before, digits), significant(after, digits)


def _output(names: Mapping[str, str], ident: str, route: str | None) -> str:
    return names.get(ident) or output_words(ident, route)


def page(found: UseDepartures) -> dict[str, Any]:
    """The results page's section: the summary line, a table per departure (its effects in
    words) and the table of every output in every run."""
    names = {**output_names(found.defaults_result), **output_names(found.all_result)}
    departures = []
    for departure in found.departures:
        effects = []
        for effect in departure.effects:
            before, after = figure_pair(effect.default, effect.departed)
            estimate = (f"{effect.estimate} → {effect.departed_estimate}" if effect.departed_estimate
                        else effect.estimate)
            effects.append({"output": _output(names, effect.id, effect.route), "estimate": estimate,
                            "quantity": QUANTITY_WORDS.get(effect.quantity, effect.quantity),
                            "default": before, "departed": after, "change": signed_percent(effect.relative),
                            "threshold": effect.threshold or ""})
        departures.append({
            "label": departure.label, "default": departure.default_text, "value": departure.value_text,
            "source": departure.source, "reason": departure.reason, "effects": effects,
            "thresholds": departure.thresholds,
            "media": [{"output": _output(names, m.id, None), "default": m.default, "departed": m.departed}
                      for m in departure.media],
            "refused": ALONE_REFUSED.format(errors=refused_text(departure.refused)) if departure.refused else "",
        })
    rows = [{"output": _output(names, row.id, row.route), "estimate": row.estimate,
             "quantity": QUANTITY_WORDS.get(row.quantity, row.quantity),
             "defaults": significant(row.defaults), "all": significant(row.all_departures),
             "each": [significant(value) for value in row.each]}
            for row in found.rows]
    return {
        "summary": summary_text(found),
        "computed": found.computed,
        "departures": departures,
        "count": len(found.departures),
        "crossing": len(found.crossing),
        "rows": rows,
        "columns": [d.label for d in found.departures],
        "refused": DEFAULTS_REFUSED.format(errors=refused_text(found.refused)) if found.refused else "",
        "moves_nothing": MOVES_NOTHING,
        "nothing": NOTHING,
    }


def use_page(*, scenario: Scenario) -> dict[str, Any]:
    """The results page's section for ``scenario``, against the case as its revision prints it."""
    return page(use_departures(scenario, case=scenario.assessment.case_data))
