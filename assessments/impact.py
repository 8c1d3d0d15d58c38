"""The impact of a change to the engine on every stored assessment: ``manage.py esd impact``
(docs/interface.md, "Additions, version 4", "Impact of a change").

A change is a list of overrides, ``KEY.INPUT=VALUE`` (:func:`parse_overrides`): a changed
default. VALUE is read and checked by the input's own declaration (``Param.coerce`` and
``Param.check``, the code the wizard's forms and ``esd compute`` read every value with), and
the override applies to every use of scenario KEY whose stored inputs leave INPUT at its
default: left out, blank, or equal to the default (the wizard stores nothing for an input
left at or returned to its default: it stays linked to it). An input the reviewer set keeps
the reviewer's value (:func:`changed_inputs`).

The engine that computes the new figures, and the stored results compared, are
``--against``'s (:mod:`assessments.impact_engines`): the installed engine over every stored
result by default; the installed engine over the results an earlier release stored
(``--against 1.1.0``, or ``older``); or the engine of a git ref over every stored result.

The replay (:func:`impact`) walks every assessment, case by case and newest revision first
(:func:`assessments_with_uses`: two queries a chunk, never a write), and computes each
computed use (``Scenario.result``) again: ``registry.compute(key, computed_inputs with the
change)``, exactly what ``esd compute`` prints for those inputs (that release's ``esd
compute`` with a git ref). Each use's outputs are
compared with its stored result (:func:`compare`); the outputs are those of
``esd sensitivity`` (:data:`~assessments.esd.sensitivity.RELEASE_QUANTITIES`,
:data:`~assessments.esd.sensitivity.EXPOSURE_QUANTITIES`), named as it names them. An output
moves when its stored and new values are not equal within
:data:`~assessments.engine_results.RESULT_REL_TOL` (the rule that says a stored result is
the engine's), or when it is in one result only (``old`` or ``new`` null). A move crosses a
review threshold (``threshold``) when:

- its release or exposure estimate changes rank within its use: its place among the use's
  release estimates (exposure estimates) by that quantity, largest first, ties sharing a
  place (:data:`RANK_CHANGED`);
- an inhalation estimate that exceeded the case's TLV/PEL no longer does, or the other way
  round, compared as the results page and the IRER compare it
  (:func:`assessments.exposure_limits.check_estimate`; an approved revision with the case as
  approved): said on the estimate's ``mg_m3`` move, or its first move when ``mg_m3`` stays.

An assessment is listed when an output of one of its uses moves, or when the engine now
refuses a use's stored inputs with the change (``refused``, with the engine's errors). A
draft, submitted or returned revision is to be recomputed; an approved one is noted only:
its sealed record never changes.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q

from .engine_marks import computed_by_older_engine
from .engine_results import RESULT_REL_TOL
from .esd import registry
from .esd.parameters import CHOICE, EngineValidationError, Param
from .esd.results import ENGINE_VERSION
from .esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES, Key
from .esd.shares import error_words
from .exposure_limits import ABOVE, ABOVE_TEXT, NOT_ABOVE, ExposureLimit, case_limit, check_estimate
from .impact_engines import INSTALLED, OLDER, Against, Engine, engine_for
from .models import Assessment, Scenario, Status

#: Where the errors of a bad override are reported (the contract's ``{"errors": {FIELD: ...}}``).
OVERRIDE_FIELD = "--override"
MALFORMED = ("{text!r} is not KEY.INPUT=VALUE (a scenario key, a dot, an input symbol, = and a value, as "
             "manage.py esd defaults KEY names them)")
UNKNOWN_INPUT = "{text!r}: {symbol!r} is not an input of {key}"
NO_DEFAULT = "{text!r}: {symbol} ({label}) has no default to change: every use of {key} gives it"
VALUE_REFUSED = "{text!r}: {symbol} ({label}) {message}"
CHOICE_REFUSED = "must be one of {values}"
CHANGED_TWICE = "{text!r}: {key}.{symbol} is changed twice"
#: Between the errors of several bad overrides (and several errors of the registry's).
ERRORS_JOINED = "; "

RECOMPUTE, NOTE_ONLY = "recompute", "note only"
#: What is done with a revision whose numbers move: an approved one's sealed record never changes.
ACTIONS = {Status.DRAFT: RECOMPUTE, Status.SUBMITTED: RECOMPUTE, Status.RETURNED: RECOMPUTE,
           Status.APPROVED: NOTE_ONLY}

RANK_CHANGED = "rank changed"
NOW_ABOVE = "now {above}"
NO_LONGER_ABOVE = "no longer {above}"
THRESHOLDS_JOINED = "; "

RELEASE, EXPOSURE = "release", "exposure"
#: Assessments read a chunk at a time (each with its uses, prefetched): memory stays bounded
#: however many uses there are.
CHUNK = 100
#: What the replay reads of an assessment and of a use (the case is read whole: an approved
#: revision's case as approved is made from it, ``Assessment.case_data``).
ASSESSMENT_FIELDS = ("id", "revision", "status", "case_snapshot", "submission")
USE_FIELDS = ("id", "assessment", "position", "scenario_key", "result", "computed_inputs")


# --- the change ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Override:
    """Scenario ``scenario``'s input ``input`` defaults to ``value`` (its effective value)."""

    scenario: str
    input: str
    value: float | int | str
    param: Param = field(repr=False, compare=False)

    @property
    def stored(self) -> Any:
        """The value as a use's stored inputs hold it (a share below 1 % with its sign)."""
        return self.param.as_input(self.value)

    def as_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "input": self.input, "value": self.value}


def parse_overrides(texts: Sequence[str]) -> list[Override]:
    """Each ``KEY.INPUT=VALUE`` as an :class:`Override`, or raise
    :class:`~assessments.esd.parameters.EngineValidationError` with every bad one, in the
    order given, under :data:`OVERRIDE_FIELD`: malformed, an unknown scenario (the registry's
    words), an unknown input, one with no default (a required input: every use gives it),
    a value its declaration refuses (naming the input and its allowed range in the words the
    wizard's form gives; a choice's values, as typed, instead of the form's labels), or the
    same input changed twice.

    The scenario keys and symbols are the engine's (``manage.py esd list`` and ``esd
    defaults KEY``); tests/test_esd_impact.py reads the sample's.
    """
    found: list[Override] = []
    errors: list[str] = []
    for text in texts:
        try:
            override = _parse(text)
        except ValueError as exc:
            errors.append(str(exc))
            continue
        if any((o.scenario, o.input) == (override.scenario, override.input) for o in found):
            errors.append(CHANGED_TWICE.format(text=text, key=override.scenario, symbol=override.input))
            continue
        found.append(override)
    if errors:
        raise EngineValidationError({OVERRIDE_FIELD: ERRORS_JOINED.join(errors)})
    return found


def _parse(text: str) -> Override:
    target, equals, raw = text.partition("=")
    key, dot, symbol = target.partition(".")
    if not (equals and dot and key.strip() and symbol.strip() and raw.strip()):
        raise ValueError(MALFORMED.format(text=text))
    key, symbol = key.strip(), symbol.strip()
    try:
        scenario = registry.get(key)
    except EngineValidationError as exc:
        raise ValueError(f"{text!r}: " + ERRORS_JOINED.join(exc.errors.values())) from None
    if symbol not in scenario.params:
        raise ValueError(UNKNOWN_INPUT.format(text=text, symbol=symbol, key=key))
    param = scenario.params[symbol]
    if param.required and param.default is None:
        raise ValueError(NO_DEFAULT.format(text=text, symbol=symbol, label=param.label, key=key))
    try:
        value = param.coerce(raw)
        message = param.check(value)
    except ValueError as exc:
        message = error_words(exc)
    if message:
        if param.kind == CHOICE:  # the values to type, not the form's labels
            message = CHOICE_REFUSED.format(values=", ".join(choice for choice, _ in param.choices))
        raise ValueError(VALUE_REFUSED.format(text=text, symbol=symbol, label=param.label, message=message))
    return Override(key, symbol, value, param)


def at_default(param: Param, stored: Any) -> bool:
    """Whether a use's stored value of ``param`` leaves it at its default: not given (left
    out or blank), or equal to the default as the input reads it."""
    if stored is None or (isinstance(stored, str) and not stored.strip()):
        return True
    if param.default is None:
        return False
    try:
        return param.coerce(stored) == param.default
    except ValueError:  # a stored value the input refuses is the reviewer's: the engine says so
        return False


def changed_inputs(key: str, inputs: Mapping[str, Any], overrides: Sequence[Override]) -> dict[str, Any]:
    """A use's stored ``inputs`` (of scenario ``key``) with the change: each override of ``key``
    whose input they leave at its default (:func:`at_default`) sets it; a value the reviewer
    set is kept."""
    changed = dict(inputs)
    for override in overrides:
        if override.scenario == key and at_default(override.param, inputs.get(override.input)):
            changed[override.input] = override.stored
    return changed


# --- comparing two results -----------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One output of a result (a JSON dict, as ``Scenario.result`` stores it)."""

    kind: str
    label: str
    route: str | None
    value: float
    estimate: Mapping[str, Any]


@dataclass(frozen=True)
class Move:
    use: int
    id: str
    route: str | None
    estimate: str
    new_estimate: str | None
    quantity: str
    old: float | None
    new: float | None
    relative: float | None
    threshold: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"use": self.use, "id": self.id, "route": self.route, "estimate": self.estimate,
                "new_estimate": self.new_estimate, "quantity": self.quantity, "old": self.old, "new": self.new,
                "relative": self.relative, "threshold": self.threshold}


#: An estimate's place in a result: its output's :data:`Key` less the quantity.
Place = tuple[str, int, int, int]


def _items(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list | tuple) else []


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def figures(result: Any) -> dict[Key, Figure]:
    """Every output of ``result`` by its place (``esd sensitivity``'s :data:`Key`: id, which
    release or exposure of that id, how many estimates it has, which estimate, quantity), in
    the order the result lists them."""
    found: dict[Key, Figure] = {}
    if not isinstance(result, Mapping):
        return found
    subjects: list[tuple[str, str, Mapping[str, Any], tuple[tuple[str, str, str], ...]]]
    subjects = [(RELEASE, f"release-{r.get('number')}", r, RELEASE_QUANTITIES) for r in _items(result.get("releases"))]
    subjects += [(EXPOSURE, f"exposure-{x.get('letter')}", x, EXPOSURE_QUANTITIES)
                 for x in _items(result.get("exposures"))]
    seen: dict[str, int] = {}
    for kind, ident, subject, quantities in subjects:
        seen[ident] = seen.get(ident, -1) + 1
        estimates = _items(subject.get("estimates"))
        route = str(subject.get("route", "")) if kind == EXPOSURE else None
        for index, estimate in enumerate(estimates):
            for quantity, name, _ in quantities:
                value = _number(estimate.get(name))
                if value is not None:
                    found[(ident, seen[ident], len(estimates), index, quantity)] = Figure(
                        kind, str(estimate.get("label", "")), route, value, estimate)
    return found


def ranks(found: Mapping[Key, Figure]) -> dict[Key, int]:
    """Each output's place among the outputs of its kind (release, exposure) and quantity,
    largest first, from 1; equal values share a place."""
    groups: dict[tuple[str, str], list[float]] = {}
    for key, figure in found.items():
        groups.setdefault((figure.kind, key[4]), []).append(figure.value)
    for values in groups.values():
        values.sort()
    places = {}
    for key, figure in found.items():
        values = groups[(figure.kind, key[4])]
        places[key] = 1 + len(values) - bisect.bisect_right(values, figure.value)
    return places


def _single(key: Key) -> Key:
    return (key[0], key[1], 1, 0, key[4])


def pairs(old: Mapping[Key, Figure], new: Mapping[Key, Figure]) -> list[tuple[Key | None, Key | None]]:
    """The outputs of two results paired by place: the same place, or, where a release or
    exposure has one estimate in one result and several in the other (a range whose two ends
    an input makes equal), that one with each of them (as ``esd sensitivity`` pairs them);
    an output in one result only is paired with ``None``. In the new result's order, then
    the outputs gone."""
    found: list[tuple[Key | None, Key | None]] = []
    matched: set[Key] = set()
    for key in new:
        if key in old:
            partners = [key]
        elif key[2] > 1 and _single(key) in old:
            partners = [_single(key)]
        else:
            partners = [k for k in old if k[2] > 1 and _single(k) == key]
        found += [(partner, key) for partner in partners] or [(None, key)]
        matched.update(partners)
    return found + [(key, None) for key in old if key not in matched]


def limit_crossing(before: Figure, after: Figure, *, limit: ExposureLimit | None, molecular_weight: float | None,
                   old_result: Mapping[str, Any], new_result: Mapping[str, Any]) -> str | None:
    """Words when the estimate exceeds the case's TLV/PEL in one result and not in the other
    (:data:`NOW_ABOVE`, :data:`NO_LONGER_ABOVE`); None when it stays on its side, or either
    comparison cannot be made (no limit, not inhalation, no concentration)."""
    checks = [check_estimate(dict(figure.estimate), route=figure.route or "", limit=limit,
                             molecular_weight=molecular_weight, result=dict(result))
              for figure, result in ((before, old_result), (after, new_result))]
    was, now = checks
    if was is None or now is None or not {was.state, now.state} <= {ABOVE, NOT_ABOVE} or was.above == now.above:
        return None
    assert limit is not None  # a comparison was made
    return (NOW_ABOVE if now.above else NO_LONGER_ABOVE).format(above=limit.words(ABOVE_TEXT))


def compare(old_result: Any, new_result: Any, *, use: int, limit: ExposureLimit | None = None,
            molecular_weight: float | None = None) -> list[Move]:
    """The outputs of use ``use`` that move from ``old_result`` (as stored) to ``new_result``
    (as the engine now computes it), each with the threshold it crosses, if any (the module
    docstring says when)."""
    old, new = figures(old_result), figures(new_result)
    old_ranks, new_ranks = ranks(old), ranks(new)
    rows: list[tuple[Key | None, Key | None, list[str]]] = []
    for old_key, new_key in pairs(old, new):
        before = old[old_key] if old_key is not None else None
        after = new[new_key] if new_key is not None else None
        if before is not None and after is not None and math.isclose(before.value, after.value,
                                                                     rel_tol=RESULT_REL_TOL):
            continue
        changed = old_key is not None and new_key is not None and old_ranks[old_key] != new_ranks[new_key]
        rows.append((old_key, new_key, [RANK_CHANGED] if changed else []))
    _mark_limit_crossings(rows, old, new, limit=limit, molecular_weight=molecular_weight,
                          old_result=old_result if isinstance(old_result, Mapping) else {},
                          new_result=new_result if isinstance(new_result, Mapping) else {})
    return [_move(use, old.get(old_key) if old_key else None, new.get(new_key) if new_key else None,
                  (new_key or old_key), thresholds) for old_key, new_key, thresholds in rows]


def _mark_limit_crossings(rows: list[tuple[Key | None, Key | None, list[str]]], old: Mapping[Key, Figure],
                          new: Mapping[Key, Figure], **compared: Any) -> None:
    """Add the TLV/PEL crossing of each exposure estimate that moves to its ``mg_m3`` row,
    or to its first row when its ``mg_m3`` does not move."""
    by_estimate: dict[tuple[Place, Place], list[tuple[Key | None, Key | None, list[str]]]] = {}
    for row in rows:
        old_key, new_key, _ = row
        if old_key is not None and new_key is not None and new[new_key].kind == EXPOSURE:
            by_estimate.setdefault((old_key[:4], new_key[:4]), []).append(row)
    for estimate_rows in by_estimate.values():
        old_key, new_key, _ = estimate_rows[0]
        assert old_key is not None and new_key is not None
        words = limit_crossing(old[old_key], new[new_key], **compared)
        if words:
            target = next((row for row in estimate_rows if row[1] is not None and row[1][4] == "mg_m3"),
                          estimate_rows[0])
            target[2].append(words)


def _move(use: int, before: Figure | None, after: Figure | None, key: Key | None, thresholds: list[str]) -> Move:
    assert key is not None and (before or after) is not None
    old = before.value if before is not None else None
    new = after.value if after is not None else None
    relative = (new - old) / old if old is not None and new is not None and old != 0 else None
    shown = before or after
    assert shown is not None
    return Move(use=use, id=key[0], route=shown.route, estimate=shown.label,
                new_estimate=after.label if after is not None else None, quantity=key[4], old=old, new=new,
                relative=relative, threshold=THRESHOLDS_JOINED.join(thresholds) or None)


# --- the replay over every stored use ------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """A use whose stored inputs the engine now refuses with the change, and its errors."""

    use: int
    errors: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {"use": self.use, "errors": self.errors}


@dataclass(frozen=True)
class CaseImpact:
    case: str
    revision: int
    status: str
    action: str
    moves: list[Move]
    refused: list[Refused]

    def as_dict(self) -> dict[str, Any]:
        return {"case": self.case, "revision": self.revision, "status": self.status, "action": self.action,
                "moves": [m.as_dict() for m in self.moves], "refused": [r.as_dict() for r in self.refused]}


@dataclass(frozen=True)
class Impact:
    """What ``esd impact`` prints; :meth:`as_dict` is the contract's JSON."""

    overrides: list[Override]
    cases: list[CaseImpact]
    against: Against = INSTALLED
    engine_version: str = ENGINE_VERSION

    def as_dict(self) -> dict[str, Any]:
        return {"engine_version": self.engine_version,
                "change": {"overrides": [o.as_dict() for o in self.overrides], **self.against.as_dict()},
                "cases": [c.as_dict() for c in self.cases]}


def stored_by(version: str) -> Q:
    """The uses whose stored result the engine ``version`` computed (:data:`OLDER`: any
    version but the installed one, a result with none included: ``engine_marks``' rule)."""
    if version == OLDER:
        return computed_by_older_engine()  # the rule the pages mark open uses by
    return Q(result__engine_version=version) if version else Q()


def assessments_with_uses(*, uses: Q | None = None, ids: tuple[int, int] | None = None) -> Iterator[Assessment]:
    """Every assessment (with an id in ``ids``, both ends included, when given), by case
    number and newest revision first, with its case and its computed uses in effect that
    ``uses`` selects (by position), read :data:`CHUNK` at a time: two queries a chunk,
    whatever the number of uses. Nothing is written."""
    found = Scenario.objects.filter(uses or Q(), result__isnull=False).only(*USE_FIELDS).order_by("position", "pk")
    assessments = Assessment.objects.all() if ids is None else Assessment.objects.filter(pk__range=ids)
    return (assessments.select_related("submission").only(*ASSESSMENT_FIELDS)
            .prefetch_related(Prefetch("scenarios", queryset=found))
            .order_by("submission__case_number", "-revision", "pk").iterator(chunk_size=CHUNK))


def use_impact(use: Scenario, overrides: Sequence[Override], *, engine: Engine, limit: ExposureLimit | None,
               molecular_weight: float | None) -> list[Move] | Refused:
    """The moves of one computed use with the change (``engine`` computing the stored inputs
    with ``overrides``), or the engine's refusal of its inputs."""
    inputs = use.computed_inputs if isinstance(use.computed_inputs, dict) else {}
    try:
        fresh = engine.compute(use.scenario_key, changed_inputs(use.scenario_key, inputs, overrides))
    except EngineValidationError as exc:
        return Refused(use.position, {symbol: str(message) for symbol, message in exc.errors.items()})
    return compare(use.result, fresh, use=use.position, limit=limit, molecular_weight=molecular_weight)


def assessment_impact(assessment: Assessment, overrides: Sequence[Override], *,
                      engine: Engine) -> tuple[CaseImpact | None, list[tuple[Scenario, list[Move] | Refused]]]:
    """One assessment's :class:`CaseImpact` (None when nothing of it moves) and each of its
    uses that moves or is refused, with its moves or refusal."""
    case = assessment.case_data  # an approved revision: the case as approved (its TLV/PEL, MW)
    limit = case_limit(case)
    moves: list[Move] = []
    refused: list[Refused] = []
    touched: list[tuple[Scenario, list[Move] | Refused]] = []
    for use in assessment.scenarios.all():
        found = use_impact(use, overrides, engine=engine, limit=limit, molecular_weight=case.molecular_weight)
        if isinstance(found, Refused):
            refused.append(found)
        else:
            moves += found
        if found:
            touched.append((use, found))
    if not (moves or refused):
        return None, touched
    return CaseImpact(case=assessment.submission.case_number, revision=assessment.revision,
                      status=assessment.status, action=ACTIONS[Status(assessment.status)],
                      moves=moves, refused=refused), touched


def impact(*, overrides: Sequence[Override], against: Against = INSTALLED) -> Impact:
    """Every assessment whose numbers move with the change (:func:`parse_overrides`, and
    ``against``: :func:`~assessments.impact_engines.parse_against`), or one of whose uses the
    engine now refuses; read only."""
    cases = []
    with engine_for(against) as engine:
        for assessment in assessments_with_uses(uses=stored_by(against.stored_by)):
            found, _ = assessment_impact(assessment, overrides, engine=engine)
            if found is not None:
                cases.append(found)
    return Impact(overrides=list(overrides), cases=cases, against=against)
