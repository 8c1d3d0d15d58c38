"""The names a calculation trace prints its steps under (issue 41): one name, one value.

A document computes some quantities twice (the number of sites before and after rounding
up, the daily use before the sites are counted and recalculated for them), and an
equation evaluated for each activity and end of a range returns the same symbol each
time. A report that printed ``Nsites = 2.56`` and ``Nsites = 3`` would say one thing with
two values; here each step gets a name unique in its trace, from what the scenario
declares where it computes the step (``TraceStep.qualifier``, else its note), and each
step's inputs are named after the step whose value they read.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from typing import Any


def printed_names(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """The name each step of a calculation trace prints under: unique within the trace, so
    a report never prints one name with two values (issue 41). ``steps``: the trace as a
    result stores it (``{"symbol", "qualifier", "note", "citation", ...}``; a result stored
    before steps carried a qualifier reads as one without).

    A symbol with one step prints as itself. A symbol with several: a step that declares a
    qualifier prints as ``"SYMBOL (qualifier)"``; when exactly one step of the symbol
    declares none, that one is the symbol's value and prints as the symbol alone (the
    rounded number of sites beside ``Nsites (Eqn 3-3, unrounded)``); otherwise each
    prints with its note (``EXPdermal (Exposure A, low end)``), else its citation. A name
    that would still repeat takes its step's number (``..., step 7``).

    >>> steps = [{"symbol": "Nsites", "qualifier": "Eqn 3-3, unrounded"}, {"symbol": "Nsites"},
    ...          {"symbol": "EXP", "note": "A, low end"}, {"symbol": "EXP", "note": "A, high end"},
    ...          {"symbol": "Qcont"}]
    >>> printed_names(steps)
    ['Nsites (Eqn 3-3, unrounded)', 'Nsites', 'EXP (A, low end)', 'EXP (A, high end)', 'Qcont']
    >>> printed_names([{"symbol": "x", "note": "same"}, {"symbol": "x", "note": "same"}])
    ['x (same, step 1)', 'x (same, step 2)']
    """
    return _unique(_qualified_names(steps))


def _qualified_names(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each step's name by the rule of :func:`printed_names`, before a repeat is numbered."""
    symbols = [str(step.get("symbol", "")) for step in steps]
    count = collections.Counter(symbols)
    unqualified = collections.Counter(s for s, step in zip(symbols, steps) if not step.get("qualifier"))
    names = []
    for symbol, step in zip(symbols, steps):
        qualifier = step.get("qualifier") or ""
        if count[symbol] == 1 or (not qualifier and unqualified[symbol] == 1):
            names.append(symbol)
        else:
            told = qualifier or step.get("note") or step.get("citation") or ""
            names.append(f"{symbol} ({told})" if told else symbol)
    return names


def _unique(names: list[str]) -> list[str]:
    """``names`` with each repeated one numbered by its step (1-based)."""
    count = collections.Counter(names)
    return [name if count[name] == 1 else _numbered(name, i) for i, name in enumerate(names, start=1)]


def _numbered(name: str, number: int) -> str:
    return f"{name[:-1]}, step {number})" if name.endswith(")") else f"{name} (step {number})"


def trace_repeats(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """The names :func:`printed_names` had to number because the engine declared nothing that
    tells their steps apart: empty for every result of every scenario (a contract test)."""
    count = collections.Counter(_qualified_names(steps))
    return sorted(name for name, n in count.items() if n > 1)


def input_names(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """For each step, the printed name of each of its inputs that an earlier step computed:
    the latest step of the input's own symbol that holds the very value the input read
    (a release less its evaporation reads the release as its model gave it, not the central
    tendency's remainder computed just before), else the latest step of its symbol (``Nsites``
    read by Eqn 3-4 after the rounding is the rounded one), else the latest step that keeps
    a variant of it under a longer symbol (``Qchem_site_day_eqn_3_1`` for an equation's
    ``Qchem_site_day``) and holds the value the input read. The trace prints an input under the name of the value it
    holds; inputs no earlier step computed (entered inputs, the document's own arguments)
    keep their names.

    >>> input_names([{"symbol": "N", "qualifier": "raw", "inputs": {}}, {"symbol": "N", "inputs": {"N": 2.5}},
    ...              {"symbol": "M", "inputs": {"N": 3}}])
    [{}, {'N': 'N (raw)'}, {'N': 'N'}]
    >>> input_names([{"symbol": "Q_eqn_3_1", "value": 2.78, "inputs": {}}, {"symbol": "N", "inputs": {"Q": 2.78}}])
    [{}, {'Q': 'Q_eqn_3_1'}]
    """
    names = printed_names(steps)
    earlier: list[tuple[str, Any, str]] = []
    out = []
    for step, name in zip(steps, names):
        named = {}
        for key, value in (step.get("inputs") or {}).items():
            own = [(v, n) for symbol, v, n in reversed(earlier) if symbol == key]
            held = next((n for v, n in own if v == value and not isinstance(v, bool)), None)
            variant = next((n for symbol, v, n in reversed(earlier)
                            if symbol.startswith(f"{key}_") and v == value and not isinstance(v, bool)), None)
            found = held or (own[0][1] if own else None) or variant
            if found is not None:
                named[key] = found
        out.append(named)
        earlier.append((str(step.get("symbol", "")), step.get("value"), name))
    return out
