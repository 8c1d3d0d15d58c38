"""The IRER's optional "Defaults against the case" appendix (issue 43; ``Assessment.irer_departures``).

For each computed use, the inputs where the case departs from the document's default
(:func:`assessments.departures.use_departures`): a table of them (the input with its symbol,
the document's default, this case's value, where it comes from and the reason given), then,
for each, what it alone does to the use's releases and exposures: each figure it moves with
every departing input at its default (the defaults alone) and with this departure alone,
the signed change, and the review threshold it crosses; and the releases it sends to other
media. The runs are the installed engine's (the intro names its version), so the figures
are those ``manage.py esd compute`` prints for the same inputs; a sealed copy keeps the
figures it was approved with, as it is never drawn again. An approved revision is measured
against the case as approved (the report's case, ``models.as_printed``): whether an input is
the submitter's reads that case.

CBI, as the rest of the report: nothing printed here moves with a claimed value in the
sanitised copy, so two cases that differ only in their claimed values print the same
appendix.

- **An input that carries a claimed case field** (:attr:`.derivation.UseDerivation.carried`:
  the concentration of a case that claims it) departs or not with the claimed value itself.
  Such inputs with a default are listed apart, in a :class:`~.document.Withheld` block that
  the sanitised copy prints whenever the use has one, whether it departs or not
  (:data:`CLAIMED_WITHHELD`, naming the inputs, never their values); the full copy prints
  their departures and effects there.
- **Every other departure** is listed in both copies: its value is the reviewer's or an
  unclaimed field's, and whether it departs moves with nothing claimed. In the runs that
  measure it, every input with a default stands at its default or at this departure, so the
  claimed values that reach its figures are those of the inputs with no default (the
  production volume, the molecular weight), always the case's. The engine says which
  figures move with them (:func:`assessments.esd.provenance.dependence`, over the same
  fixed grid as :mod:`.derivation`): an output whose figures, name, estimates or media move
  with none is printed as it is; the others, and whether any of them moves at all, are a
  :class:`~.document.Withheld` table (:data:`EFFECTS_WITHHELD`), there in the sanitised copy
  whenever any output of the two runs moves with a claimed value. A threshold's words read
  the other outputs of the same kind (a rank) and the case's molecular weight (a TLV/PEL in
  ppm), so they carry those claims too. Whether the engine computes a run at all may move
  with them as well: a run it refuses, there or at any point of the grid, withholds the
  departure's effects whole, and the full copy alone says the engine refused it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import groupby
from typing import Any

from ..departures import ALONE_REFUSED, DEFAULTS_REFUSED, Departure, Effect, UseDepartures, use_departures
from ..engine_refresh import QUANTITY_WORDS, output_names, output_words, refused_text
from ..esd import registry
from ..esd.parameters import EngineValidationError, ParamSet
from ..esd.provenance import Provenance, dependence
from ..esd.results import ENGINE_VERSION, Result
from ..esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES
from ..numbers import NOTHING, epa, signed_percent
from ..stored_text import declared_params
from .document import Block, Cell, Group, Heading, Inline, Items, Para, Row, Table, Text, Value, Withheld, Words, inline
from .use_report import UseBuilder

TITLE = "Appendix: defaults against the case"
INTRO = ("For each computed use, each input where the case departs from the document's default: the default the "
         "document prints, this case's value, where it comes from (the submitter's data or the reviewer's "
         "override) and the reason given. Then what each departure alone does to the use's releases and "
         "exposures: each figure it moves with every departing input at its default (the defaults alone) and "
         "with this departure alone, the change, and the review threshold it crosses (a release or an exposure "
         "changes rank within the use, or an inhalation estimate comes to exceed, or no longer exceeds, the "
         "case's TLV/PEL); and the releases it sends to other media. The figures are computed again by engine "
         "{version} from the use's inputs as computed.")
DEPARTURES_CAPTION = "Inputs departing from the document's defaults"
CLAIMED_CAPTION = "Inputs carrying claimed case values that depart from the document's defaults"
NO_DEPARTURE = "No input of this use departs from the document's default."
NO_OTHER_DEPARTURE = "No other input of this use departs from the document's default."
CLAIMED_AT_DEFAULT = "{inputs}: at the document's default."
#: The sanitised copy's line for the inputs that carry a claimed value (the same whatever the values are).
CLAIMED_WITHHELD = ("{inputs}: carrying claimed case values, so whether they depart from the document's defaults, "
                    "their values and their effects are withheld from the sanitised copy.")
EFFECTS_CAPTION = "Each release and exposure figure it moves"
EFFECTS_WITHHELD = ("{input} alone: its effects on the releases and exposures whose figures derive from claimed "
                    "values are withheld from the sanitised copy.")
MEDIA_LEAD = "{input} alone sends these releases to other media (defaults alone → this departure alone):"
MOVES_NOTHING = "{input} alone moves no release or exposure figure and sends no release elsewhere."
NOT_MEASURED = "{input} alone: not measured, as the engine refuses the inputs with every departure at its default."
HEAD = ("Input", "Document default", "This case", "Source", "Reason")
EFFECTS_HEAD = ("Release or exposure", "Estimate", "Quantity", "Defaults alone", "This departure alone", "Change",
                "Review threshold")
#: The most significant figures two figures are printed with, to tell them apart (EPA's two at least).
MOST_DIGITS = 6
#: The outputs of a result, as :func:`assessments.impact.figures` reads them: the list, the
#: key that names one, the keys of its name and its media, and its quantities.
OUTPUT_LISTS = (
    ("releases", "release", "number", ("source", "media", "chosen_medium", "medium_chosen_by"), RELEASE_QUANTITIES),
    ("exposures", "exposure", "letter", ("activity", "route"), EXPOSURE_QUANTITIES),
)


def appendix(uses: Iterable[UseBuilder]) -> Group:
    """The appendix: its heading, what it prints, and each computed use's part."""
    blocks: list[Block] = [Heading(2, inline(TITLE)), Para(inline(INTRO.format(version=ENGINE_VERSION)))]
    for use in uses:
        if use.result:
            blocks.append(use_part(use))
    return Group(tuple(blocks), cls="appendix departures", tag="section")


# --- what a claimed value reaches -------------------------------------------------------------


@lru_cache(maxsize=256)
def _dependence(key: str, inputs_json: str, symbols: tuple[str, ...]) -> Provenance | None:
    """What each part of the run of ``inputs_json`` moves with among ``symbols``; None when
    the engine refuses the run, or the run with those inputs at any point of their grid:
    whether the run is computed at all then moves with their values."""
    spec = registry.get(key)
    refused = False

    def compute(inputs: Mapping[str, Any]) -> Result:
        nonlocal refused
        try:
            return spec.compute(inputs)
        except EngineValidationError:
            refused = True
            raise

    try:
        found = dependence(compute, spec.params.params, json.loads(inputs_json), symbols)
    except (EngineValidationError, ArithmeticError, ValueError, TypeError):
        return None
    return None if refused else found


@dataclass(frozen=True)
class Reach:
    """The claimed case fields each output of two runs (the defaults alone, a departure
    alone) moves with: its figures, its name, its estimates and, for a release, its media.
    ``every``: any output, and how many there are; an output not in ``outputs`` reaches it."""

    outputs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    every: frozenset[str] = frozenset()
    kinds: Mapping[str, frozenset[str]] = field(default_factory=dict)
    weight: frozenset[str] = frozenset()  # the case's molecular weight, when claimed (a limit in ppm)

    def of(self, ident: str) -> frozenset[str]:
        return self.outputs.get(ident, self.every)

    def threshold(self, ident: str) -> frozenset[str]:
        """A crossing's words: the outputs of its kind (a rank), the limit's conversion."""
        kind = ident.partition("-")[0]
        return self.kinds.get(kind, self.every) | (self.weight if kind == "exposure" else frozenset())


def output_reach(result: Mapping[str, Any], moves: Provenance, fields: Mapping[str, str],
                 everything: frozenset[str]) -> dict[str, frozenset[str]]:
    """The claimed fields each output of ``result`` moves with (``moves``: the provenance of
    its inputs carrying ``fields``, symbol to case field), by ``impact.figures``' id."""
    found: dict[str, frozenset[str]] = {}
    for listed, kind, name, keys, quantities in OUTPUT_LISTS:
        for i, subject in enumerate(result.get(listed) or []):
            path = f"{listed}/{i}"
            paths = [f"{path}/{name}", *(f"{path}/{key}" for key in keys), f"{path}/estimates"]
            for j, _ in enumerate(subject.get("estimates") or []):
                at = f"{path}/estimates/{j}"
                paths += [f"{at}/label", f"{at}/irer_label", *(f"{at}/{q}" for _, q, _ in quantities)]
            symbols = frozenset().union(*(moves.of(p) for p in paths))
            ident = f"{kind}-{subject.get(name)}"
            found[ident] = found.get(ident, frozenset()) | everything | frozenset(fields[s] for s in symbols
                                                                                 if s in fields)
    return found


# --- one use ----------------------------------------------------------------------------------


class UsePart:
    """One use's departures, each with the claims its printed parts carry."""

    def __init__(self, use: UseBuilder) -> None:
        self.use = use
        self.found: UseDepartures = use_departures(use.scenario, case=use.submission)
        self.params: ParamSet | None = declared_params(use.scenario.scenario_key)
        inputs = use.scenario.computed_inputs
        self.inputs: dict[str, Any] = dict(inputs) if isinstance(inputs, dict) else {}
        self.everything = use.d.everything
        carried = use.d.carried  # the inputs that carry a claimed case field
        with_default = {s for s in carried if self.params is not None and s in self.params
                        and self.params[s].default is not None}
        applying = self.params.applicable(self.inputs) if self.params is not None else set()
        #: Inputs with a default that carry a claimed field: listed apart (the module docstring).
        self.claimed = [s for s in carried if s in with_default and s in applying]
        #: Inputs with no default that carry one: the case's value in every run.
        self.kept = {s: f for s, f in carried.items() if s not in with_default}
        self.weight = use.claimed & {"molecular_weight"}
        symbols = {d.symbol for d in self.found.departures}
        self.defaults_inputs = {s: v for s, v in self.inputs.items() if s not in symbols}
        self.names = {**output_names(self.found.defaults_result), **output_names(self.found.all_result)}

    def claims(self, symbol: str) -> frozenset[str]:
        """The claimed field an input carries."""
        return self.use.d.input(symbol)

    @property
    def base(self) -> frozenset[str]:
        """What reaches every run: the claimed fields of the inputs kept at the case's value."""
        return self.everything | frozenset(self.kept.values())

    def _moves(self, inputs: Mapping[str, Any]) -> Provenance | None:
        return _dependence(self.use.scenario.scenario_key, json.dumps(inputs, sort_keys=True, default=str),
                           tuple(sorted(self.kept)))

    def reach(self, departure: Departure) -> Reach:
        """What each output of the defaults alone and of ``departure`` alone moves with."""
        if departure.symbol in self.claimed:  # withheld whole with its input: every part carries its claim
            return Reach(every=self.base | self.claims(departure.symbol))
        if not self.base:
            return Reach(weight=self.weight)
        if not self.kept:  # a use the engine cannot say anything about (UseDerivation.everything)
            return Reach(every=self.base)
        key = self.use.scenario.scenario_key
        alone = {**self.defaults_inputs, departure.symbol: self.inputs.get(departure.symbol)}
        outputs: dict[str, frozenset[str]] = {}
        for result, inputs in ((self.found.defaults_result, self.defaults_inputs), (_computed(key, alone), alone)):
            moves = self._moves(inputs)
            if moves is None or result is None:
                return Reach(every=self.base)
            for ident, claims in output_reach(result, moves, self.kept, self.everything).items():
                outputs[ident] = outputs.get(ident, frozenset()) | claims
        every = frozenset().union(*outputs.values()) if outputs else frozenset()
        kinds = {kind: frozenset().union(*(c for i, c in outputs.items() if i.startswith(f"{kind}-")))
                 for _, kind, *_ in OUTPUT_LISTS}
        return Reach(outputs, every, kinds, self.weight)

    # the blocks ------------------------------------------------------------------------------
    def blocks(self) -> Block:
        use, found = self.use, self.found
        blocks: list[Block] = [Heading(3, (Text(f"Use {use.number}: "), use.title,
                                           Text(": defaults against the case")))]
        if found.refused:  # whether the engine refuses them may move with a claimed value: said in the full copy
            claims = self.base | frozenset(use.d.carried.values())
            refused = Para((Value(DEFAULTS_REFUSED.format(errors=refused_text(found.refused)), claims),), cls="note")
            blocks.append(Withheld(claims, (refused,)) if claims else refused)
        claimed = [d for d in found.departures if d.symbol in self.claimed]
        others = [d for d in found.departures if d.symbol not in self.claimed]
        if self.claimed:
            blocks.append(self.claimed_block(claimed))
        if others:
            blocks.append(self.table(others, DEPARTURES_CAPTION))
        else:
            blocks.append(Para(inline(NO_OTHER_DEPARTURE if self.claimed else NO_DEPARTURE)))
        for departure in others:
            blocks += self.effects(departure)
        return Group(tuple(blocks), cls="irer-part")

    def _input(self, symbol: str, fallback: str) -> Inline:
        """An input as the inputs table names it: its document symbol, then its label."""
        if self.params is None or symbol not in self.params:
            return inline(fallback)
        param = self.params[symbol]
        if not param.shown_symbol:
            return inline(param.label)
        return (Text(param.shown_symbol, "code"), Text(f" {param.label}"))

    def _named(self, symbol: str, fallback: str) -> Inline:
        """An input in a sentence: its label, then its document symbol in brackets."""
        if self.params is None or symbol not in self.params:
            return inline(fallback)
        param = self.params[symbol]
        if not param.shown_symbol:
            return inline(param.label)
        return (Text(f"{param.label} ("), Text(param.shown_symbol, "code"), Text(")"))

    def _name_text(self, symbol: str, fallback: str = "") -> str:
        return "".join(p.text for p in self._named(symbol, fallback or symbol))

    def claimed_block(self, departures: list[Departure]) -> Withheld:
        """The departures of the inputs that carry a claimed field, or that they are at their
        defaults; the sanitised copy's line in their place."""
        names = "; ".join(self._name_text(s) for s in self.claimed)
        claims = frozenset().union(*(self.claims(s) for s in self.claimed))
        inner: list[Block] = []
        if departures:
            inner.append(self.table(departures, CLAIMED_CAPTION))
            for departure in departures:
                inner += self.effects(departure)
        else:
            inner.append(Para(inline(CLAIMED_AT_DEFAULT.format(inputs=names))))
        return Withheld(claims, tuple(inner), CLAIMED_WITHHELD.format(inputs=names))

    def table(self, departures: list[Departure], caption: str) -> Table:
        """One row a departure: the input, the document's default, this case's value, its source, the reason."""
        rows: list[Row] = []
        for d in departures:
            claims = self.claims(d.symbol) if d.symbol in self.claimed else frozenset()
            rows.append((
                Cell(self._input(d.symbol, d.label), header=True, scope="row"),
                Cell(inline(d.default_text or NOTHING)),
                Cell((Value(d.value_text or NOTHING, claims),)),
                Cell((Value(d.source, claims),)),
                Cell((Value(d.reason or NOTHING, claims),) if claims else ((Words(d.reason),) if d.reason
                                                                             else inline(NOTHING))),
            ))
        head = tuple(Cell(inline(h), header=True, scope="col") for h in HEAD)
        return Table(head, (tuple(rows),), caption=caption, cls="departures")

    def effects(self, departure: Departure) -> list[Block]:
        """What ``departure`` alone moves: the outputs no claim reaches, then the others,
        withheld together (the module docstring), as is whether the engine measured it."""
        reach = self.reach(departure)
        name = self._name_text(departure.symbol, departure.label)
        blocks: list[Block] = [Heading(4, (*self._named(departure.symbol, departure.label), Text(" alone")))]
        inner: list[Block] = []
        if self.found.refused:
            inner.append(Para(inline(NOT_MEASURED.format(input=name)), cls="note"))
        elif departure.refused:
            text = ALONE_REFUSED.format(errors=refused_text(departure.refused))
            inner.append(Para((Value(text, reach.every),), cls="note"))
        else:
            free = [e for e in departure.effects if not reach.of(e.id)]
            free_media = [m for m in departure.media if not reach.of(m.id)]
            if free:
                blocks.append(self.effects_table(free, reach))
            if free_media:
                blocks += self.media(free_media, reach, name)
            held = [e for e in departure.effects if reach.of(e.id)]
            held_media = [m for m in departure.media if reach.of(m.id)]
            if held:
                inner.append(self.effects_table(held, reach))
            if held_media:
                inner += self.media(held_media, reach, name)
            if not (departure.effects or departure.media):
                inner.append(Para(inline(MOVES_NOTHING.format(input=name))))
        if not reach.every:
            return blocks + inner
        return [*blocks, Withheld(reach.every, tuple(inner), EFFECTS_WITHHELD.format(input=name))]

    def _output(self, ident: str, route: str | None) -> str:
        return self.names.get(ident) or output_words(ident, route)

    def effects_table(self, effects: list[Effect], reach: Reach) -> Table:
        """One body an output (its name printed once, over its rows), one row a figure it moves
        (the estimate printed once over its quantities)."""
        bodies: list[tuple[Row, ...]] = []
        for (ident, route), grouped in groupby(effects, key=lambda e: (e.id, e.route)):
            output = list(grouped)
            claims = reach.of(ident)
            rows: list[Row] = []
            for estimate, same in groupby(output, key=_estimate):
                figures = list(same)
                for e in figures:
                    before, after = figure_pair(e.default, e.departed)
                    cells = [Cell((Value(self._output(ident, route), claims),), header=True, scope="rowgroup",
                                  rowspan=len(output))] if not rows else []
                    if e is figures[0]:
                        cells.append(Cell((Value(estimate, claims),), rowspan=len(figures)))
                    rows.append((
                        *cells,
                        Cell(inline(QUANTITY_WORDS.get(e.quantity, e.quantity))),
                        Cell((Value(before, claims),), cls="num"),
                        Cell((Value(after, claims),), cls="num"),
                        Cell((Value(signed_percent(e.relative), claims),), cls="num"),
                        Cell((Value(e.threshold or NOTHING, claims | reach.threshold(ident)),)),
                    ))
            bodies.append(tuple(rows))
        head = tuple(Cell(inline(h), header=True, scope="col") for h in EFFECTS_HEAD)
        return Table(head, tuple(bodies), caption=EFFECTS_CAPTION, cls="departures effects")

    def media(self, changes: Iterable[Any], reach: Reach, name: str) -> list[Block]:
        items = tuple((Value(self._output(m.id, None), reach.of(m.id)), Text(": "), Value(m.default, reach.of(m.id)),
                       Text(" → "), Value(m.departed, reach.of(m.id))) for m in changes)
        return [Para(inline(MEDIA_LEAD.format(input=name))), Items(items, cls="departures-media")]


def use_part(use: UseBuilder) -> Block:
    """One computed use's part of the appendix."""
    return UsePart(use).blocks()


def _estimate(effect: Effect) -> str:
    """An effect's estimate: its label, and the label with the departure alone where it differs."""
    return f"{effect.estimate} → {effect.departed_estimate}" if effect.departed_estimate else effect.estimate


def _computed(key: str, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The engine's result for ``inputs`` as the JSON field stores it, or None when it refuses them."""
    try:
        result: dict[str, Any] = json.loads(json.dumps(registry.compute(key, dict(inputs)).as_dict()))
    except EngineValidationError:
        return None
    return result


def figure_pair(before: float | None, after: float | None) -> tuple[str, str]:
    """Two figures in EPA's E-notation, with as many significant figures (2 to
    :data:`MOST_DIGITS`) as tell them apart.

    >>> figure_pair(30.0, 50.0), figure_pair(49.7, 49.5), figure_pair(None, 2.0)
    (('3.0E+1', '5.0E+1'), ('4.97E+1', '4.95E+1'), ('—', '2.0E+0'))
    """
    digits = 2
    while (digits < MOST_DIGITS and before is not None and after is not None
           and epa(before, digits) == epa(after, digits)):
        digits += 1
    return epa(before, digits), epa(after, digits)
