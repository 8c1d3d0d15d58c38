"""Where each figure of a result comes from: the inputs it depends on.

A sanitised report must not let a reader work a claimed value back from what it prints:
not the value, and not a site count, a daily amount, a total, a percentage or a sentence
computed from it. So every part of a result (each number, each sentence the engine
writes, and the length of each list, since a step or a warning that appears only for some
values tells something too) is asked: does it move when this input moves?

The engine answers by evaluation, not by reading the code: the scenario is computed again
with the inputs asked about set to fixed points spanning their allowed ranges (:func:`grid`,
:func:`runs`), the other inputs as given; a part that differs from the result as given in
any of those runs depends on them. The points are fixed (they do not depend on the values
given), so two cases that differ only in those inputs are compared against the same runs,
and several inputs are moved over their joint range, since a part may move with one only
where another stands. A run the engine refuses (a combination out of range) tells nothing
and is left out.

This is a search, on a grid of three points a decade: a part that moved only between two
points of the grid for every other input would be missed. The property tests
(``tests/contract/test_sanitised_copy_property.py``) search between the points at random.

Paths are "/"-joined keys and list indices into :meth:`Result.as_dict`
(``releases/0/estimates/1/kg_site_day``, ``trace/7/value``); a list's own path stands for
its length and a mapping's for its keys, so ``warnings`` depending on an input means the
number of warnings does, and ``facility`` that a figure is there for some values only.

>>> flatten({"a": 1, "b": [{"c": None}, 3]})
{'a': 1, 'a?': 'int', 'b': 2, 'b/0': ('c',), 'b/0/c': None, 'b/0/c?': 'NoneType', 'b/1': 3, 'b/1?': 'int'}
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .parameters import CHOICE, INT, EngineValidationError, Param
from .results import Result

#: Points a decade on a logarithmic grid (an input whose range spans decades: a volume, a
#: molecular weight, a fraction down to one in a million).
POINTS_PER_DECADE = 3
#: A range open at zero starts at :data:`GRID_FLOOR` when it ends at 1 or below (a
#: fraction) and at :data:`OPEN_START` otherwise (a volume, a weight); a range with no
#: upper end stops at :data:`GRID_CEILING`.
GRID_FLOOR = 1e-6
OPEN_START = 1e-3
GRID_CEILING = 1e10
#: Points of a linear grid, for a range that does not start above zero by decades.
LINEAR_POINTS = 21

#: Parts of a result that name it rather than describe the use: its scenario and the
#: engine's version never move with an input.
IGNORED = ("engine_version", "scenario")


#: After a leaf's path, the path of its kind (a number, a word, or none): whether a part is
#: there at all may move with an input while its value, where there is one, does not.
KIND = "?"


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of a JSON-like value by its path (and its kind's, :data:`KIND`); a list's
    path holds its length, a mapping's (below the top) its keys."""
    out: dict[str, Any] = {}
    _flatten_into(out, value, prefix)
    return out


def _flatten_into(out: dict[str, Any], value: Any, prefix: str) -> None:
    # One dictionary filled down the tree (a provenance search flattens hundreds of results).
    if isinstance(value, dict) or (not isinstance(value, (list, tuple)) and isinstance(value, Mapping)):
        if prefix:
            out[prefix] = tuple(sorted(str(key) for key in value))
        for key, item in value.items():
            _flatten_into(out, item, f"{prefix}/{key}" if prefix else str(key))
    elif isinstance(value, (list, tuple)):
        out[prefix] = len(value)
        for index, item in enumerate(value):
            _flatten_into(out, item, f"{prefix}/{index}")
    else:
        out[prefix] = value
        out[prefix + KIND] = type(value).__name__


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return False  # a figure that is not a number is never known to be fixed
    return bool(a == b) and type(a) is type(b)


def grid(param: Param) -> list[float]:
    """The fixed points an input is tried at: logarithmic across a range that starts above
    zero (or is open at zero), linear otherwise; within the declared bounds, open ends
    excluded; integers for an integer input.

    >>> points = grid(Param("F", "a fraction", "-", 0.5, "doc", "s", lower=0, upper=1, lower_open=True))
    >>> len(points), f"{points[0]:.3g}", f"{points[1]:.3g}", points[-1]
    (19, '1e-06', '2.15e-06', 1.0)
    >>> grid(Param("F", "a fraction", "-", 0.5, "doc", "s", lower=0, upper=1))[-1]
    1.0
    """
    lower = param.lower if param.lower is not None else 0.0
    upper = param.upper
    if lower > 0 or (lower == 0 and param.lower_open) or (lower == 0 and upper is not None and upper > 1e3):
        floor = GRID_FLOOR if upper is not None and upper <= 1 else OPEN_START
        start = lower if lower > 0 else floor
        stop = upper if upper is not None else max(GRID_CEILING, start * 10)
        steps = max(math.ceil(math.log10(stop / start) * POINTS_PER_DECADE), 1)
        points = [start * (stop / start) ** (i / steps) for i in range(steps + 1)]
    else:
        stop = upper if upper is not None else lower + 1e6
        points = [lower + (stop - lower) * i / (LINEAR_POINTS - 1) for i in range(LINEAR_POINTS)]
    inside = [x for x in points if _inside(param, x)]
    if param.kind == INT:
        inside = sorted({round(x) for x in inside if _inside(param, round(x))})
    return inside


def _inside(param: Param, x: float) -> bool:
    if param.lower is not None and (x < param.lower or (param.lower_open and x == param.lower)):
        return False
    return not (param.upper is not None and (x > param.upper or (param.upper_open and x == param.upper)))


@dataclass(frozen=True)
class Provenance:
    """The inputs each part of one result depends on, among those asked about.

    ``reproduced`` is False when the engine no longer computes the stored result from its
    inputs (the engine changed since): then every part is taken to depend on every input
    asked about, which errs on the side of withholding.
    """

    symbols: frozenset[str]
    dependent: Mapping[str, frozenset[str]] = field(default_factory=dict)
    reproduced: bool = True

    def of(self, path: str) -> frozenset[str]:
        """The inputs the part at ``path`` depends on: its own, and those of every list it
        is in (a part of a list whose length moves is not where it was)."""
        if not self.reproduced:
            return self.symbols
        found: set[str] = set()
        parts = path.split("/")
        for end in range(1, len(parts) + 1):
            found |= self.dependent.get("/".join(parts[:end]), frozenset())
        return frozenset(found)

    def under(self, path: str) -> frozenset[str]:
        """The inputs any part at or below ``path`` depends on (a whole sentence list, a
        release with every figure in it)."""
        if not self.reproduced:
            return self.symbols
        found = set(self.of(path))
        prefix = path + "/"
        for key, symbols in self.dependent.items():
            if key.startswith(prefix):
                found |= symbols
        return frozenset(found)


NONE = Provenance(frozenset())


def dependence(
    compute: Callable[[Mapping[str, Any]], Result],
    params: Iterable[Param],
    inputs: Mapping[str, Any],
    symbols: Iterable[str],
    *,
    stored: Mapping[str, Any] | None = None,
) -> Provenance:
    """The parts of ``compute(inputs)`` that depend on the inputs ``symbols``, taken together.

    ``compute`` is a scenario's compute (``Scenario.compute``), ``params`` its inputs'
    declarations, ``inputs`` what it was computed from. ``stored``: the result as stored
    (``Result.as_dict()`` at the time), which must be what the engine computes from
    ``inputs`` today; when it is not, the answer is that everything depends on every
    symbol (:attr:`Provenance.reproduced`). Symbols that are not numeric inputs of the
    scenario, or that hold no value, are left out: nothing depends on them.

    The symbols are moved over their joint range (:func:`runs`), not one at a time from
    the values given: a part may move with one input only where another stands (a release
    that is nil while a light chemical evaporates whole), and whether it moves must not
    depend on the values given, so that two cases that differ only in these inputs are told
    the same. A part that depends on any of them is said to depend on all of them.
    """
    declared = {p.symbol: p for p in params}
    asked = frozenset(symbols)
    base_result = compute(inputs).as_dict()
    base = _leaves(base_result)
    if stored is not None and _leaves(dict(stored)) != base:
        return Provenance(asked, {}, reproduced=False)
    effective = base_result.get("inputs", {})
    varied = [declared[s] for s in sorted(asked) if s in declared and declared[s].kind != CHOICE
              and isinstance(effective.get(s), (int, float)) and not isinstance(effective.get(s), bool)]
    if not varied:
        return Provenance(asked, {})
    together = {p.symbol for p in varied}
    dependent: dict[str, set[str]] = {}
    for moved in runs(varied):
        _compare(base, _run(compute, {**inputs, **moved}), together, dependent)
    return Provenance(asked, {path: frozenset(s) for path, s in dependent.items()})


#: Fixed points of the joint range through which each input is moved along its grid, and
#: fixed scattered points of the joint range, when several inputs are moved together.
ANCHORS = 4
SCATTERED = 48
_SEED = 20261126


def runs(varied: list[Param]) -> list[dict[str, float]]:
    """The values the inputs ``varied`` are set to, run by run: fixed, whatever the values
    given. One input: each point of its grid. Several: each input along its grid with the
    others at each of :data:`ANCHORS` fixed points spread over their grids, and
    :data:`SCATTERED` points drawn over the joint grid (a fixed seed).

    >>> a = Param("a", "a", "-", 0.5, "doc", "s", lower=0, upper=1, lower_open=True)
    >>> b = Param("b", "b", "kg", 1.0, "doc", "s", lower=0, lower_open=True)
    >>> len(runs([a])), len(runs([a, b])), runs([a, b]) == runs([a, b])
    (19, 284, True)
    """
    grids = {p.symbol: grid(p) for p in varied}
    if len(varied) == 1:
        (symbol, points), = grids.items()
        return [{symbol: x} for x in points]
    out: list[dict[str, float]] = []
    names = list(grids)
    for j in range(ANCHORS):
        anchor = {name: points[int((((j + 0.5) / ANCHORS) + i * 0.618) % 1 * len(points))]
                  for i, (name, points) in enumerate(grids.items())}
        for name in names:
            out += [{**anchor, name: x} for x in grids[name]]
    chooser = random.Random(_SEED)
    out += [{name: chooser.choice(points) for name, points in grids.items()} for _ in range(SCATTERED)]
    return out


def _leaves(result: Mapping[str, Any]) -> dict[str, Any]:
    return flatten({k: v for k, v in result.items() if k not in IGNORED})


def _run(compute: Callable[[Mapping[str, Any]], Result], inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        return _leaves(compute(inputs).as_dict())
    except EngineValidationError:
        return None


def _compare(base: dict[str, Any], other: dict[str, Any] | None, symbols: set[str],
             dependent: dict[str, set[str]]) -> None:
    if other is None:
        return
    missing = object()
    for path, value in base.items():
        found = other.get(path, missing)
        if found is value or (type(found) is type(value) and found == value):
            continue  # the common case, without a call
        if found is missing or not _same(value, found):
            dependent.setdefault(path, set()).update(symbols)
