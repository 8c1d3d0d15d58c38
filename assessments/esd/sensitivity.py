"""How much each input moves each figure: one-at-a-time ranges, overrides, a Monte Carlo band.

:func:`analyse` is ``manage.py esd sensitivity`` as a function (spec/INTERFACE.md,
"Additions, version 3", "Sensitivity"): it returns exactly the contract's JSON as a dict.
:func:`study` returns the same analysis with what a results page needs besides (units, each
output at all the defaults, the inputs left out and why); ``study(...).as_dict()`` is
``analyse(...)``.

Outputs. Every release estimate's ``kg_yr`` (its ``kg_year_all_sites``) and ``kg_site_day``;
every exposure estimate's ``mg_day``, ``mg_m3`` where it has one, and its doses
(``apdr_mg_kg_day``, ``add_mg_kg_day``, ``ladd_mg_kg_day``) where it has them. An output is
named as ``esd compute`` names it: ``release-N`` (the release's ``number``) or
``exposure-L`` (the exposure's ``letter``), the estimate's ``label``, the quantity.

Drivers (the tornado). Each input that declares the range its document prints
(:attr:`~.parameters.Param.documented_range`) and applies to these inputs
(:meth:`~.parameters.ParamSet.applicable`) is set to the range's low end, then its high end,
every other input as given, and the scenario computed (``registry.compute`` exactly, less the
over-release warning, which changes no figure). ``drivers`` is sorted by
``|output_at_high − output_at_low|``, largest first, ties in the order the scenario declares
its inputs. An end the engine refuses with the other inputs (``Qliquid_skin_high`` at 0.7
when ``Qliquid_skin_low`` is 1.0: low above high) gives no driver; an input that does not
apply gives none; an output a computation does not return (an estimate only one setting
makes) gets no driver from it. Each is listed in :attr:`Study.skipped` or
:attr:`Output.left_out`, never in the contract's JSON, which has no key for them.

Overrides. Every input that applies and whose effective value differs from its default (a
required input with no default aside) is set back to its default, one at a time, the
others as given: ``output_at_default``. An input with no default (a known ``Nsites``) goes
back to "not given". :attr:`Output.output_at_all_defaults` is the output with every one of
them back at once (Python only: the contract has no key for it).

Band (an illustration, not a probabilistic assessment: the documents give ranges, not
distributions, and none states a distribution for an input the engine ranges). With
``samples`` > 0 and at least two ranged inputs that apply, each of ``samples`` draws sets
every such input the case leaves at its default at once, uniformly within its documented
range (a count: each whole number within it equally likely), others as given, from
``random.Random(seed)``, drawing the inputs in the order the scenario declares them. The
ranged inputs the case sets (the overrides above: a value other than the default, such as a
submitter's measured concentration) are held at the case's values: the document's range
describes what is not known, and the case knows these (:attr:`Study.band_held`). Drawn
instead, a concentration the submitter gives as 0.15 would be replaced by the document's 0.2
to 0.4, and the band would describe another chemical: its median would lie outside the
tornado's span (it did, before this rule). When the case sets every ranged input, nothing is
left to vary and each output's band is its base value, with ``samples`` draws counted and
none computed. The two inputs of a quantity with a low
and a high value (``U_process_low``, ``U_process_high``: INTERFACE.md's ``_low``/``_high``)
sharing one range take the two draws in order, the smaller as the low end. A draw the
engine refuses otherwise (``Fphoto_wafer_low`` above ``Fphoto_wafer``) is drawn again, so
the draws are uniform over the part of the ranges the engine accepts; after
:data:`MAX_DRAWS_PER_SAMPLE` draws a sample without ``samples`` accepted, there is no band.
``p5``, ``p50``, ``p95`` are nearest-rank percentiles (the value at rank ``ceil(p/100 × n)``
of the ``n`` sorted values) over the accepted draws that return the output; ``band.samples``
is that ``n``. The same inputs, ``samples`` and ``seed`` give the same band.

Pure: no I/O, the standard library and the engine only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .parameters import ALL, INT, EngineValidationError, Param
from .results import ENGINE_VERSION, Result

#: What the band is called wherever it is shown (the use's pages and their messages): one name,
#: never another beside it.
BAND_NAME = "Monte Carlo band"
#: The band's samples when the caller gives none (the CLI's default is no band: 0).
DEFAULT_SAMPLES = 2_000
DEFAULT_SEED = 1
#: The most samples one analysis draws (about 1 ms each).
MAX_SAMPLES = 100_000
#: Draws allowed per sample asked for, refused ones included, before the band is given up.
MAX_DRAWS_PER_SAMPLE = 20

#: The contract's quantities of a release estimate and of an exposure estimate, in the order
#: listed: (quantity, the estimate's attribute, words for the label).
RELEASE_QUANTITIES = (
    ("kg_yr", "kg_year_all_sites", "kg/yr, all sites"),
    ("kg_site_day", "kg_site_day", "kg/site-day"),
)
EXPOSURE_QUANTITIES = (
    ("mg_day", "mg_day", "mg/day"),
    ("mg_m3", "mg_m3", "mg/m³, 8-hour TWA"),
    ("apdr_mg_kg_day", "apdr_mg_kg_day", "acute potential dose rate (APDR), mg/kg-day"),
    ("add_mg_kg_day", "add_mg_kg_day", "average daily dose (ADD), mg/kg-day"),
    ("ladd_mg_kg_day", "ladd_mg_kg_day", "lifetime average daily dose (LADD), mg/kg-day"),
)
UNITS = {"kg_yr": "kg/yr", "kg_site_day": "kg/site-day", "mg_day": "mg/day", "mg_m3": "mg/m³",
         "apdr_mg_kg_day": "mg/kg-day", "add_mg_kg_day": "mg/kg-day", "ladd_mg_kg_day": "mg/kg-day"}

SAMPLES_INVALID = f"must be a whole number from 0 to {MAX_SAMPLES:,} (0: no band)"
SEED_INVALID = "must be a whole number (the band's random seed)"
NOT_APPLYING = "does not apply to these inputs"
REFUSED = "refused by the engine at this value: {errors}"
NOT_RETURNED = "a computation with {input} at {value} does not return this output"
BAND_GIVEN_UP = ("no band: {accepted} of {samples} samples accepted in {draws} draws (the engine refused the "
                 "rest); the documented ranges rarely fit these inputs together")
ONE_RANGE = "no band: fewer than two inputs with a documented range apply to these inputs"
BAND = "(band)"
NO_DRAW_RETURNS = "no band: no draw returns this output (its release or exposure has other estimates there)"

#: An output's place in a result: (id, which release or exposure of that id, from 0, how many
#: estimates it has, which estimate, quantity). An estimate is followed by its place, not its
#: label: the label can change with an input (a container residue fraction other than the
#: model's high end makes the "high end" estimate a "what-if"). When a release or exposure
#: has one estimate where the base had several (a range whose two ends an input makes equal:
#: ``U_process_low`` at the high end), that one estimate stands for each of them
#: (:func:`value_at`); when its number of estimates changes otherwise, the output is not
#: returned.
Key = tuple[str, int, int, int, str]


@dataclass(frozen=True)
class Driver:
    input: str
    low: float
    high: float
    source: str
    output_at_low: float
    output_at_high: float

    @property
    def swing(self) -> float:
        return abs(self.output_at_high - self.output_at_low)

    def as_dict(self) -> dict[str, Any]:
        return {"input": self.input, "low": self.low, "high": self.high, "source": self.source,
                "output_at_low": self.output_at_low, "output_at_high": self.output_at_high}


@dataclass(frozen=True)
class Override:
    input: str
    value: Any
    default: Any
    output_at_default: float

    def as_dict(self) -> dict[str, Any]:
        return {"input": self.input, "value": self.value, "default": self.default,
                "output_at_default": self.output_at_default}


@dataclass(frozen=True)
class Band:
    samples: int
    seed: int
    p5: float
    p50: float
    p95: float

    def as_dict(self) -> dict[str, Any]:
        return {"samples": self.samples, "seed": self.seed, "p5": self.p5, "p50": self.p50, "p95": self.p95}


@dataclass
class Output:
    """One output's analysis; :meth:`as_dict` is the contract's entry, the rest is Python's."""

    id: str
    estimate: str
    quantity: str
    label: str
    units: str
    base: float
    drivers: list[Driver] = field(default_factory=list)
    overrides: list[Override] = field(default_factory=list)
    band: Band | None = None
    #: Its place in a result (:func:`figures`' key): ``figures(registry.compute(...))[key]``.
    key: Key | None = None
    #: The output with every override back at its default at once (None: not returned there,
    #: or the engine refuses that set); equal to ``base`` when nothing is overridden.
    output_at_all_defaults: float | None = None
    #: (input, why) for each ranged input or override that gives this output no figure.
    left_out: list[tuple[str, str]] = field(default_factory=list)

    @property
    def span(self) -> tuple[float, float]:
        """The tornado's span: the least and greatest of the base and every driver's ends."""
        values = [self.base] + [v for d in self.drivers for v in (d.output_at_low, d.output_at_high)]
        return min(values), max(values)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "estimate": self.estimate, "quantity": self.quantity, "label": self.label,
            "base": self.base, "drivers": [d.as_dict() for d in self.drivers],
            "overrides": [o.as_dict() for o in self.overrides],
        }
        if self.band is not None:
            out["band"] = self.band.as_dict()
        return out


@dataclass(frozen=True)
class Skipped:
    """An input end (or an override's default) that gives no figure at all, and why."""

    input: str
    value: Any
    reason: str


@dataclass
class Study:
    """The whole analysis. ``as_dict()`` is the contract's JSON (and nothing else)."""

    scenario: str
    outputs: list[Output]
    skipped: list[Skipped] = field(default_factory=list)
    #: Why there is no band ("" when there is one, or when none was asked for).
    band_note: str = ""
    #: Draws the engine refused and that were drawn again.
    band_refused: int = 0
    #: The ranged inputs the band varies, and those it holds at the case's values (the case
    #: sets them), in the order the scenario declares them.
    band_varied: list[str] = field(default_factory=list)
    band_held: list[str] = field(default_factory=list)
    engine_version: str = ENGINE_VERSION

    def as_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "engine_version": self.engine_version,
                "outputs": [o.as_dict() for o in self.outputs]}


def analyse(key: str, inputs: Mapping[str, Any], *, samples: int = DEFAULT_SAMPLES,
            seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The sensitivity of every output of scenario ``key`` to ``inputs``, as
    ``manage.py esd sensitivity`` prints it (INTERFACE.md, "Additions, version 3"):

    ``{"scenario", "engine_version", "outputs": [{"id", "estimate", "quantity", "label",
    "base", "drivers": [{"input", "low", "high", "source", "output_at_low",
    "output_at_high"}], "overrides": [{"input", "value", "default", "output_at_default"}],
    "band"?: {"samples", "seed", "p5", "p50", "p95"}}]}``

    ``inputs`` are ``registry.compute``'s (raw JSON or form values); bad inputs raise
    :class:`~.parameters.EngineValidationError` with the errors ``registry.compute`` gives.
    ``samples`` (default 2,000; 0 for no band) and ``seed`` set the Monte Carlo band; see
    the module docstring for every rule. Numbers are full precision. A photoresist use
    takes about 40 ms without the band and about 1 ms a sample more.
    """
    return study(key, inputs, samples=samples, seed=seed).as_dict()


def study(key: str, inputs: Mapping[str, Any], *, samples: int = DEFAULT_SAMPLES,
          seed: int = DEFAULT_SEED) -> Study:
    """:func:`analyse`'s analysis with the rest a results page needs: each output's units,
    its value with every override at its default, the inputs that gave no figure and why,
    and why there is no band."""
    check_band_options(samples, seed)
    scenario = registry.get(key)
    base_result = scenario.compute(inputs, check_over_release=False)  # raises as registry.compute
    raw = dict(inputs)
    outputs = _outputs(base_result)
    found = Study(scenario=key, outputs=list(outputs.values()))
    applying = scenario.params.applicable(raw)
    ranged = [p for p in scenario.params.params if p.documented_range is not None]
    for param in ranged:
        if param.symbol not in applying:
            found.skipped.append(Skipped(param.symbol, None, NOT_APPLYING))
    live = [p for p in ranged if p.symbol in applying]
    _tornado(scenario, raw, live, outputs, found)
    moved = set_by_case(scenario, base_result, applying)
    _overrides(scenario, raw, base_result, moved, outputs, found)
    if samples > 0:
        if len(live) < 2:
            found.band_note = ONE_RANGE
        else:
            held = {p.symbol for p in moved}
            found.band_varied = [p.symbol for p in live if p.symbol not in held]
            found.band_held = [p.symbol for p in live if p.symbol in held]
            _band(scenario, raw, [p for p in live if p.symbol not in held], outputs, found, samples, seed)
    return found


def set_by_case(scenario: registry.Scenario, base: Result, applying: set[str]) -> list[Param]:
    """The inputs that apply whose effective value differs from the default (a required input
    with no default aside): the overrides, and the ranged ones among them the band holds."""
    return [p for p in scenario.params.params
            if p.symbol in applying and not (p.required and p.default is None)
            and p.symbol in base.inputs and base.inputs[p.symbol] != p.default]


def check_band_options(samples: Any, seed: Any) -> None:
    """Refuse a ``samples`` or ``seed`` that is not a whole number in range, by name."""
    errors = {}
    if isinstance(samples, bool) or not isinstance(samples, int) or not 0 <= samples <= MAX_SAMPLES:
        errors["samples"] = SAMPLES_INVALID
    if isinstance(seed, bool) or not isinstance(seed, int):
        errors["seed"] = SEED_INVALID
    if errors:
        raise EngineValidationError(errors)


# --- outputs -------------------------------------------------------------------------------


#: What :func:`_estimates` yields: (key less the quantity, the subject's words, the estimate,
#: its quantities).
_Place = tuple[tuple[str, int, int, int], str, Any, tuple[tuple[str, str, str], ...]]


def _estimates(result: Result) -> Iterator[_Place]:
    seen: dict[str, int] = {}
    subjects: list[tuple[str, str, list[Any], tuple[tuple[str, str, str], ...]]]
    subjects = [(f"release-{r.number}", f"Release {r.number}: {r.source}", r.estimates, RELEASE_QUANTITIES)
                for r in result.releases]
    subjects += [(f"exposure-{x.letter}", f"Exposure {x.letter}: {x.activity} ({x.route})", x.estimates,
                  EXPOSURE_QUANTITIES) for x in result.exposures]
    for ident, words, estimates, quantities in subjects:
        seen[ident] = seen.get(ident, -1) + 1
        for i, estimate in enumerate(estimates):
            yield (ident, seen[ident], len(estimates), i), words, estimate, quantities


def figures(result: Result) -> dict[Key, float]:
    """Every output of ``result`` by its place (:data:`Key`), in the order the result lists them."""
    out: dict[Key, float] = {}
    for place, _, estimate, quantities in _estimates(result):
        for quantity, attribute, _ in quantities:
            value = getattr(estimate, attribute)
            if value is not None:
                out[(*place, quantity)] = float(value)
    return out


def value_at(figures_: Mapping[Key, float], key: Key) -> float | None:
    """The output at ``key`` (a base result's) in another result's :func:`figures`: the same
    place, or the single estimate of a release or exposure the base had several of; ``None``
    when that result does not return it."""
    if key in figures_:
        return figures_[key]
    ident, occurrence, count, _, quantity = key
    return figures_.get((ident, occurrence, 1, 0, quantity)) if count > 1 else None


def _outputs(result: Result) -> dict[Key, Output]:
    """The base result's outputs, named and labelled."""
    words = {q: w for q, _, w in RELEASE_QUANTITIES + EXPOSURE_QUANTITIES}
    out: dict[Key, Output] = {}
    for place, subject, estimate, quantities in _estimates(result):
        for quantity, attribute, _ in quantities:
            value = getattr(estimate, attribute)
            if value is not None:
                out[(*place, quantity)] = Output(
                    id=place[0], estimate=estimate.label, quantity=quantity, units=UNITS[quantity], key=(*place, quantity),
                    label=f"{subject}, {estimate.label}: {words[quantity]}", base=float(value))
    return out


def _compute(scenario: registry.Scenario, inputs: Mapping[str, Any]) -> dict[Key, float] | str:
    """The outputs with ``inputs``, or the engine's refusal in words."""
    try:
        return figures(scenario.compute(inputs, check_over_release=False))
    except EngineValidationError as exc:
        return "; ".join(f"{k}: {v}" if k != ALL else str(v) for k, v in exc.errors.items())


def _as_given(param: Param, value: Any) -> Any:
    """A value as an input reads it (a count as a whole number; a share on its own scale)."""
    if value is None:
        return None
    if param.kind == INT:
        return int(value)
    return param.as_input(value) if param.share else value


# --- the tornado ---------------------------------------------------------------------------


def _tornado(scenario: registry.Scenario, raw: dict[str, Any], live: list[Param], outputs: dict[Key, Output],
             found: Study) -> None:
    order = {p.symbol: i for i, p in enumerate(live)}
    for param in live:
        documented = param.documented_range
        assert documented is not None
        ends = []
        for end in (documented.low, documented.high):
            got = _compute(scenario, {**raw, param.symbol: _as_given(param, end)})
            if isinstance(got, str):
                found.skipped.append(Skipped(param.symbol, end, REFUSED.format(errors=got)))
            ends.append(got)
        low, high = ends
        if isinstance(low, str) or isinstance(high, str):
            continue
        for key, output in outputs.items():
            at_low, at_high = value_at(low, key), value_at(high, key)
            if at_low is None or at_high is None:
                value = documented.low if at_low is None else documented.high
                output.left_out.append((param.symbol, NOT_RETURNED.format(input=param.symbol, value=value)))
                continue
            output.drivers.append(Driver(param.symbol, documented.low, documented.high, documented.source,
                                         at_low, at_high))
    for output in outputs.values():
        output.drivers.sort(key=lambda d: (-d.swing, order[d.input]))


# --- overrides -----------------------------------------------------------------------------


def _overrides(scenario: registry.Scenario, raw: dict[str, Any], base: Result, moved: list[Param],
               outputs: dict[Key, Output], found: Study) -> None:
    def at_default(inputs: dict[str, Any], param: Param) -> dict[str, Any]:
        if param.default is None:
            return {k: v for k, v in inputs.items() if k != param.symbol}
        return {**inputs, param.symbol: _as_given(param, param.default)}

    everything = raw
    for param in moved:
        everything = at_default(everything, param)
        got = _compute(scenario, at_default(raw, param))
        if isinstance(got, str):
            found.skipped.append(Skipped(param.symbol, param.default, REFUSED.format(errors=got)))
            continue
        for key, output in outputs.items():
            value = value_at(got, key)
            if value is None:
                output.left_out.append((param.symbol, NOT_RETURNED.format(input=param.symbol, value=param.default)))
                continue
            output.overrides.append(Override(param.symbol, base.inputs[param.symbol], param.default, value))
    together = _compute(scenario, everything) if moved else {k: o.base for k, o in outputs.items()}
    if isinstance(together, str):
        found.skipped.append(Skipped("(every override)", None, REFUSED.format(errors=together)))
        return
    for key, output in outputs.items():
        output.output_at_all_defaults = value_at(together, key)


# --- the band ------------------------------------------------------------------------------


def _pairs(live: list[Param]) -> list[tuple[str, str]]:
    """The ``X_low``/``X_high`` inputs (INTERFACE.md: a quantity the document gives a low and a
    high value for) that both apply and share one documented range."""
    by_symbol = {p.symbol: p for p in live}
    return [(p.symbol, high) for p in live if p.symbol.endswith("_low")
            and (high := p.symbol.removesuffix("_low") + "_high") in by_symbol
            and by_symbol[high].documented_range == p.documented_range]


def _draw(rng: random.Random, param: Param) -> float | int:
    documented = param.documented_range
    assert documented is not None
    if param.kind == INT:
        return rng.randint(int(documented.low), int(documented.high))
    return rng.uniform(documented.low, documented.high)


def nearest_rank(ordered: list[float], percent: float) -> float:
    """The nearest-rank percentile of sorted values: the value at rank ``ceil(p/100 × n)``.

    >>> nearest_rank([1.0, 2.0, 3.0, 4.0], 50), nearest_rank([1.0, 2.0, 3.0, 4.0], 95)
    (2.0, 4.0)
    """
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


def _band(scenario: registry.Scenario, raw: dict[str, Any], live: list[Param], outputs: dict[Key, Output],
          found: Study, samples: int, seed: int) -> None:
    if not live:  # the case sets every ranged input: nothing varies
        for output in outputs.values():
            output.band = Band(samples, seed, output.base, output.base, output.base)
        return
    rng = random.Random(seed)
    values: dict[Key, list[float]] = {key: [] for key in outputs}
    accepted = draws = 0
    pairs = _pairs(live)
    while accepted < samples and draws < samples * MAX_DRAWS_PER_SAMPLE:
        draws += 1
        drawn = {p.symbol: _draw(rng, p) for p in live}
        for low, high in pairs:  # uniform with low <= high: the two draws, in order
            drawn[low], drawn[high] = min(drawn[low], drawn[high]), max(drawn[low], drawn[high])
        drawn = {p.symbol: _as_given(p, drawn[p.symbol]) for p in live}
        got = _compute(scenario, {**raw, **drawn})
        if isinstance(got, str):
            found.band_refused += 1
            continue
        accepted += 1
        for key, column in values.items():
            value = value_at(got, key)
            if value is not None:
                column.append(value)
    if accepted < samples:
        found.band_note = BAND_GIVEN_UP.format(accepted=accepted, samples=samples, draws=draws)
        return
    for key, output in outputs.items():
        ordered = sorted(values[key])
        if ordered:
            output.band = Band(len(ordered), seed, nearest_rank(ordered, 5), nearest_rank(ordered, 50),
                               nearest_rank(ordered, 95))
        else:
            output.left_out.append((BAND, NO_DRAW_RETURNS))
