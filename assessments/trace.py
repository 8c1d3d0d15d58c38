"""The calculation trace in a reviewer's words (issue 26): the document's symbols as they
are (``Qchem_day``), the engine's own keys (``kg_site_yr``, ``activity_days``) by their
labels or in words, for the results page and the IRER's appendix alike.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from .esd import registry
from .esd.names import input_names, printed_names
from .esd.parameters import EngineValidationError
from .esd.site_data import METHODS
from .esd.text import in_words, internal_name


def trace_names(*, result: dict[str, Any], scenario_key: str) -> dict[str, str]:
    """The engine's own keys the calculation trace names (``kg_site_yr``, ``activity_days``:
    :func:`~assessments.esd.text.internal_name`), each as a reviewer reads
    it: an input by its label, a computed step by its label, any other in words
    (``activity days``). The document's symbols (``Qchem_day``) are not in it: they stay."""
    labels: dict[str, str] = {}
    with contextlib.suppress(EngineValidationError):  # a method this installation's engine does not know
        labels.update({p.symbol: p.label for p in registry.get(scenario_key).params.params})
    for method in METHODS.values():
        labels.update({p.symbol: p.label for p in method.params.params if p.symbol not in labels})
    trace = result.get("trace", [])
    labels.update({step["symbol"]: step["label"] for step in trace if step.get("label")})
    named = {step["symbol"] for step in trace} | {name for step in trace for name in step.get("inputs", {})}
    return {name: labels.get(name) or in_words(name) for name in named if internal_name(name)}


def trace_words(text: str, names: dict[str, str]) -> str:
    """``text`` (a step's equation) with each engine key of ``names`` in its words, lower case
    (``kg_site_yr / days`` -> ``annual release at one site / days``).

    >>> trace_words("kg_site_yr / days", {"kg_site_yr": "Annual release at one site"})
    'annual release at one site / days'
    """
    for name, words in names.items():
        text = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", words[:1].lower() + words[1:], text)
    return text


def _in_words(printed: str, names: dict[str, str]) -> str:
    """A step's printed name (``days_exposure (Exposure A)``) with its symbol in words
    when the symbol is an engine key (:func:`trace_names`)."""
    symbol = printed.split(" (", 1)[0]
    return names[symbol] + printed[len(symbol):] if symbol in names else printed


def step_names(*, result: dict[str, Any], scenario_key: str) -> list[tuple[str, dict[str, str]]]:
    """Each step of the result's trace as a page or the report prints it: its printed name
    (``esd.names.printed_names``: unique in the trace, an engine key in words) and the
    printed name of each of its inputs (an input an earlier step computed by that step's
    name, ``esd.results.input_names``; any other by its symbol or words)."""
    trace = result.get("trace", [])
    names = trace_names(result=result, scenario_key=scenario_key)
    printed = printed_names(trace)
    computed = input_names(trace)
    out = []
    for step, name, inputs in zip(trace, printed, computed):
        named = {}
        for key in step.get("inputs") or {}:
            if key in inputs:
                named[key] = _in_words(inputs[key], names)
            else:
                named[key] = trace_words(key, names)
        out.append((_in_words(name, names), named))
    return out


def trace_steps(*, result: dict[str, Any], scenario_key: str) -> list[dict[str, Any]]:
    """The result's calculation trace for the results page: each step with ``name`` (its
    printed name, unique in the trace: :func:`step_names`), ``is_symbol``, its ``equation``
    in words and ``inputs``: ``[{"name", "is_symbol", "value"}]``."""
    names = trace_names(result=result, scenario_key=scenario_key)
    steps = []
    for step, (name, input_names_) in zip(result.get("trace", []), step_names(result=result, scenario_key=scenario_key)):
        inputs = [{"name": input_names_[key], "is_symbol": key not in names, "value": value}
                  for key, value in (step.get("inputs") or {}).items()]
        steps.append(dict(step, name=name, is_symbol=step["symbol"] not in names,
                          equation=trace_words(step["equation"], names), inputs=inputs))
    return steps
