"""The submitter's site data as the web pages show them: the wizard step's key and title,
each EIIP method described in plain words, a stored ``site_specific`` entry as one line
of text (history, comparison of revisions), an entry of a result as table rows (results
page, IRER), and the release numbers an entry may replace.

Everything about a method (title, inputs, units, defaults, ranges, standing) is read from
the engine's declarations (``esd.site_data.METHODS``); nothing is typed here. Validation
is the engine's own (``esd.site_data.parse_entries``), called by the form and the service.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .esd import registry
from .esd.parameters import CHOICE, EngineValidationError, Param, Step
from .esd.site_data import DARS_COMPOSITE, DOC, METHODS, POLLUTANT_CLASSES, SITE_SPECIFIC, STEP, SiteMethod, standing
from .esd.site_data.entries import SITE_DATA_NAME
from .models import Scenario
from .numbers import entered, unit_for

#: The wizard step's key: the engine's step of the methods' inputs (``esd.site_data.STEP``).
SITE_STEP = STEP
SITE_STEP_TITLE = SITE_DATA_NAME
SITE_STEP_HELP = (
    "Optional. When the submitter gives measurements or data from their own facility, an air "
    "release computed from them by an EIIP method (Volume II, Chapter 6) can replace one of the "
    "ESD's releases or be added beside them. Leave “No site data” selected to use the ESD's "
    "estimates only."
)
#: The step as the wizard lists it, after the scenario's own steps.
SITE_STEP_INFO = Step(SITE_STEP, SITE_STEP_TITLE, SITE_STEP_HELP)
NO_SITE_DATA = "No site data"
NO_SITE_DATA_HELP = "The ESD's estimates stand. Choose this to remove an entry saved before."
ADD_BESIDE = "Add beside the ESD's releases"

_KIND = {
    "output": "Uses the facility’s own measurements; its release is labelled “output”.",
    "what-if": "An engineering calculation, which EIIP calls the least preferred kind; "
               "its release is labelled “what-if”.",
}


def _class_name(label: str) -> str:
    """A pollutant class's name without its examples, e.g. ``speciated organics``."""
    name = re.sub(r"\s*\([^)]*\)", "", label).strip()
    return name[:1].lower() + name[1:] if name[1:2].islower() else name


def method_description(method: SiteMethod) -> str:
    """What a method is and when EIIP prefers it, in plain words (EIIP Table 6.3-1).

    >>> from assessments.esd.site_data import METHODS
    >>> print(method_description(METHODS["source_test"]).split(". ")[1])
    EIIP Table 6.3-1: the preferred method for inorganic HAPs and reactive inorganic gases; an alternative method for VOC and speciated organics
    """
    names = dict(POLLUTANT_CLASSES)
    by_standing: dict[str, list[str]] = {}
    for pollutant_class, label in POLLUTANT_CLASSES:
        by_standing.setdefault(standing(method.family, pollutant_class), []).append(_class_name(label))
    if len(by_standing) == 1:
        (where, _), = by_standing.items()
        rating = f"{_STANDING[where]} every pollutant class"
    else:
        order = sorted(by_standing, key=list(_STANDING).index)
        rating = "; ".join(f"{_STANDING[where]} {' and '.join(by_standing[where])}" for where in order)
    equations = [
        f"{citation} for {_class_name(names[key])}" if key in names else citation
        for key, citation in method.equations.items()
    ]
    if len(equations) > 1:
        equations[-1] = "otherwise " + equations[-1].replace(f"{DOC} ", "")
    return (
        f"{_KIND.get(method.label, '')} EIIP Table 6.3-1: {rating}. {', '.join(equations)}; data quality "
        f"(DARS composite) {DARS_COMPOSITE[method.family]}."
    ).strip()


_STANDING = {"preferred": "the preferred method for", "alternative": "an alternative method for",
             "not listed": "not listed for"}


def value_text(param: Param | None, value: Any) -> str:
    """An entry's input value as a person reads it: a choice by its name, a number with its units."""
    if param is not None and param.kind == CHOICE:
        return dict(param.choices).get(value, str(value))
    if param is not None:  # a percentage stored as confirmed ("0.9%") reads 0.9 %
        value = param.from_input(value)
    units = unit_for(value, param.units) if param is not None else ""
    return f"{entered(value)} {units}".strip()


def replaces_text(replaces: Any) -> str:
    return f"replaces release {replaces}" if replaces is not None else "added beside the ESD's releases"


def entry_text(entry: Any) -> str:
    """One stored ``site_specific`` entry as a line of text (never a Python or JSON dump).

    >>> entry_text({"method": "source_test", "inputs": {"C_x": 15.4, "OH": 1760},
    ...             "replaces": 1, "source": "Stack test 2023"})
    'Source test (stack concentration and flow), replaces release 1: OH = 1,760 hr/yr, C_x = 15.4 ppmvd; source: Stack test 2023'
    >>> entry_text({"method": "source_test", "inputs": {"pollutant_class": "voc"}, "replaces": None, "source": "S"})
    "Source test (stack concentration and flow), added beside the ESD's releases: Pollutant class (for the method's standing) = VOC (total); source: S"
    """
    if not isinstance(entry, Mapping):
        return str(entry)
    method_key, stored_inputs = entry.get("method"), entry.get("inputs")
    method = METHODS.get(method_key) if isinstance(method_key, str) else None
    title = method.title if method is not None else str(method_key)
    inputs: Mapping[Any, Any] = stored_inputs if isinstance(stored_inputs, Mapping) else {}
    # In the method's declaration order (a database's JSON may hold the keys in another).
    order = [p.symbol for p in method.params.params] if method is not None else []
    symbols = [s for s in order if s in inputs] + sorted((s for s in inputs if s not in order), key=str)
    values = ", ".join(
        f"{_name(method, symbol)} = {value_text(_param(method, symbol), inputs[symbol])}" for symbol in symbols
        if inputs[symbol] is not None
    )
    text = f"{title}, {replaces_text(entry.get('replaces'))}"
    if values:
        text += f": {values}"
    text += f"; source: {entry.get('source') or ''}"
    if entry.get("activity"):
        text += f"; activity: {entry['activity']}"
    return text


def entries_text(entries: Any) -> str:
    """The ``site_specific`` list as numbered lines of text; ``""`` for none."""
    if not isinstance(entries, list):
        return "" if entries is None else str(entries)
    if len(entries) == 1:
        return entry_text(entries[0])
    return "; ".join(f"({number}) {entry_text(e)}" for number, e in enumerate(entries, start=1))


def _name(method: SiteMethod | None, symbol: str) -> str:
    """An entry's input as its line names it: the document's symbol (``C_x``), or the label of
    an input the engine keys by a name of its own (``pollutant_class``: ``Param.shown_symbol``)."""
    param = _param(method, symbol)
    if param is None or param.shown_symbol:
        return symbol
    return param.label


def _param(method: SiteMethod | None, symbol: str) -> Param | None:
    if method is None or symbol not in method.params:
        return None
    return method.params[symbol]


def result_entries(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The site data a stored result was computed with (the engine records the effective
    entries in ``inputs["site_specific"]``), each with its inputs as table rows."""
    entries = ((result or {}).get("inputs") or {}).get(SITE_SPECIFIC) or []
    out = []
    for number, entry in enumerate(entries, start=1):
        method = METHODS.get(entry.get("method"))
        if method is None:
            continue
        inputs = entry.get("inputs") or {}
        rows = [  # a choice by its name; a number as the engine used it (pages round it)
            {"param": p, "value": value_text(p, inputs[p.symbol]) if p.kind == CHOICE else inputs[p.symbol]}
            for p in method.params.params if inputs.get(p.symbol) is not None
        ]
        out.append({
            "number": number,
            "method": method,
            "replaces": replaces_text(entry.get("replaces")),
            "source": entry.get("source") or "",
            "activity": entry.get("activity") or "",
            "rows": rows,
        })
    return out


def release_choices(scenario: Scenario) -> list[tuple[int, str]]:
    """The releases an entry may replace: ``(number, source)`` of the scenario's own releases.

    From the engine on the scenario's saved inputs without its site data (the releases the
    ESD gives as the inputs stand now); when those inputs cannot be computed yet, from the
    stored result; else none (an entry can then only be added beside)."""
    inputs = {k: v for k, v in (scenario.inputs or {}).items() if k != SITE_SPECIFIC}
    try:
        return [(r.number, r.source) for r in registry.compute(scenario.scenario_key, inputs).releases]
    except EngineValidationError:
        pass
    releases = (scenario.result or {}).get("releases") or []
    return [(r["number"], r["source"]) for r in releases if isinstance(r, Mapping) and "number" in r]
