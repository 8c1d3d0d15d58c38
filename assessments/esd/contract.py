"""The command-line contract's JSON (shared spec INTERFACE.md), read and written once for
``manage.py esd`` and the API's engine endpoints (``api/routes/engine.py``): the inputs read
from text (:func:`parse_inputs`; a file or stdin, :func:`read_inputs`), ``defaults``' and
``sensitivity``'s JSON, and the errors in the words a reader of JSON needs (:func:`json_words`).
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from . import registry, sensitivity
from .number_text import json_number
from .parameters import ALL, CHOICE, CHOICE_RANGE, EngineValidationError

#: The keys of ``sensitivity``'s input that are not inputs of the scenario.
SAMPLES, SEED = "samples", "seed"
#: The FILE argument that means standard input, and its name in the errors.
STDIN = "-"
STANDARD_INPUT = "standard input"
UNREADABLE = "cannot read the inputs from {source}: {reason}"
MALFORMED = "malformed JSON in {source}: {reason}"
EMPTY = "no JSON in {source}: expected one object of {{symbol: value}}"
NOT_AN_OBJECT = "the inputs must be one JSON object of {{symbol: value}}, not a JSON {kind}"
INTERNAL = "the engine failed on these inputs ({kind}: {reason}); nothing was computed"


def defaults_payload(scenario: registry.Scenario) -> dict[str, Any]:
    """Every input of the scenario with its default, label, units, source, step and bounds."""
    return {
        "scenario": scenario.key,
        "title": scenario.title,
        "source": scenario.source,
        "inputs": {p.symbol: p.as_dict() for p in scenario.params.params},
        "steps": [{"key": s.key, "title": s.title, "help": s.help} for s in scenario.params.steps],
        "presets": [{"key": p.key, "label": p.label, "values": dict(p.values), "source": p.source}
                    for p in scenario.presets],
    }


def sensitivity_payload(scenario: registry.Scenario, inputs: dict[str, Any]) -> dict[str, Any]:
    """``esd sensitivity``'s JSON for ``inputs`` (compute's, with ``samples`` and ``seed`` taken
    out); bad inputs raise with compute's errors, a bad ``samples`` or ``seed`` beside them."""
    inputs = dict(inputs)
    samples, seed = (_whole(inputs.pop(SAMPLES, 0)), _whole(inputs.pop(SEED, sensitivity.DEFAULT_SEED)))
    errors: dict[str, str] = {}
    try:
        sensitivity.check_band_options(samples, seed)
    except EngineValidationError as exc:
        errors.update(exc.errors)
    try:
        if errors:
            scenario.compute(inputs)  # compute's errors too, all at once
        else:
            return sensitivity.analyse(scenario.key, inputs, samples=samples, seed=seed)
    except EngineValidationError as exc:
        errors = {**json_words(scenario, exc.errors), **errors}
    raise EngineValidationError(errors)


def _whole(value: Any) -> Any:
    """A JSON number with no fraction as an int (``2000.0`` is 2000); anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def json_words(scenario: registry.Scenario, errors: dict[str, str]) -> dict[str, str]:
    """``errors`` as a reader of JSON needs them: a choice input's refusal names the JSON
    values it accepts (``true, false, "yes", "no"``), not the labels the wizard's form
    shows (INTERFACE.md, "Additions, version 3", "Booleans"); a message with words of its
    own for a reader of JSON (``shares.Message``: a share asked about, ``give 90 ..., or the
    JSON string "0.9%"``) takes them, a site-data entry's too."""
    worded = {key: getattr(message, "json_words", message) for key, message in errors.items()}
    choices = {p.symbol: p for p in scenario.params.params if p.kind == CHOICE}
    for symbol, message in errors.items():
        param = choices.get(symbol)
        if param is None:
            continue
        if message == param.choice_error():
            worded[symbol] = param.json_choice_error()
        else:  # "is required (Label, one of the listed choices)"
            worded[symbol] = message.replace(CHOICE_RANGE, param.json_choice_error().removeprefix("must be "))
    return worded


def read_inputs(source: str, stdin: TextIO) -> dict[str, Any]:
    """The JSON inputs from a file, or from ``stdin`` when ``source`` is ``-``
    (:func:`parse_inputs`); an unreadable file is a validation error too."""
    name = STANDARD_INPUT if source == STDIN else source
    try:
        if source == STDIN:
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise EngineValidationError({ALL: UNREADABLE.format(source=name, reason=getattr(exc, "strerror", None) or exc)}) from exc
    return parse_inputs(text, source=name)


def parse_inputs(text: str, *, source: str) -> dict[str, Any]:
    """The JSON inputs in ``text`` (read from ``source``, named in the errors): one object of
    {symbol: value}; empty text, bad JSON or another JSON value become validation errors."""
    if not text.strip():
        raise EngineValidationError({ALL: EMPTY.format(source=source)})
    try:
        # A number a double would hold as 0 or infinity stays text, so its input refuses it by name.
        inputs = json.loads(text, parse_float=json_number)
    except json.JSONDecodeError as exc:
        raise EngineValidationError(
            {ALL: MALFORMED.format(source=source, reason=f"{exc.msg} at line {exc.lineno}, column {exc.colno}")}) from exc
    except (ValueError, RecursionError) as exc:  # a 5,000-digit integer; arrays nested 100,000 deep
        raise EngineValidationError({ALL: MALFORMED.format(source=source, reason=str(exc) or "nested too deeply")}) from exc
    if not isinstance(inputs, dict):
        raise EngineValidationError({ALL: NOT_AN_OBJECT.format(kind=_json_kind(inputs))})
    return inputs


def _json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type.

    >>> _json_kind([1]), _json_kind("x"), _json_kind(None), _json_kind(2.5)
    ('array', 'string', 'null', 'number')
    """
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number"
