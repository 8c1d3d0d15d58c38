"""A count or an amount per site reads "per site", as ChemSTEER's IRER prints it ("48
workers per site"), never "a site" ("48 operators a site"): in every sentence a scenario's
result carries (bases, notes, warnings, the workers' basis, the trace's notes) and in every
text the engine declares for the pages and the report (labels, sources, reasons).

"a site" stays where it is no rate: "at a site", "of a site", "a site-specific release".
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import assessments.esd
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, EngineValidationError

#: "a site", "a supplier site", "a fab", "a site-day" after a word: the word says whether it
#: is a rate ("48 operators a site") or not ("at a site"). "a site-specific ..." is no rate.
A_SITE = re.compile(r"(?P<before>\S+)\s+an?\s+(?:supplier\s+)?(?:site|fab)(?:-(?:day|year|yr))?(?![\w-])",
                    re.IGNORECASE)
#: Words after which "a site" is the object of a preposition, a verb or a conjunction, not a rate.
NOT_A_RATE = frozenset((
    "at", "to", "of", "for", "from", "in", "on", "into", "onto", "each", "one", "per", "with", "by", "than",
    "as", "and", "or", "over", "under", "within", "across", "about", "beyond", "between",
    "is", "are", "was", "were", "be", "been", "being", "not", "only", "but", "that", "if", "when", "where",
    "whether", "same", "any", "every", "such",
))


def per_site_misses(text: str) -> list[str]:
    """The places in ``text`` where "a site" stands for "per site" (with some context)."""
    misses = []
    for m in A_SITE.finditer(text):
        before = m.group("before")
        if before[-1] in ",;:.!?(" or before.lower() in NOT_A_RATE:
            continue  # a new clause, or "at a site", "to a site" ...
        misses.append(text[max(m.start() - 40, 0): m.end() + 20])
    return misses


# --- The check itself ----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "up to 48 operators a site (Eqn 5-1)",                                  # the old exposure basis
    "48 operators (Exposure A) and 18 technicians a site; ...",             # the old workers note
    "... one pool (Eqn 5-2: 6 a shift × 3 shifts): 66 distinct workers a site (ESD 2010 §5.2).",
    "20 to 25 workers a site handling the photoresist (ESD 2004 ¶60, p. 16, and Table B-2)",
    "up to 18 a site (Eqn 5-2; one pool); no gloves",
    "the 2004 equations release Qchem_day a site-day.",
    "Up to 4 workers a supplier site, handling and cleaning the returned containers",
    "up to 19 production workers a fab working on CVD, none exposed",
    "Workers exposed a site",
])
def test_the_check_finds_a_site_used_for_per_site(text):
    assert per_site_misses(text)


@pytest.mark.parametrize("text", [
    "up to 48 operators per site (Eqn 5-1)",
    "the 2004 equations release Qchem_day per site-day.",
    "Up to 4 workers per supplier site, handling and cleaning the returned containers",
    "Daily amount of the chemical received at a site, before dispensing",
    "the submitter's data for a site-specific release",
    "Workers at the fab; a site visit (CEB, 2001a)",
    "Any registered scenario carries an extra site-specific release.",
    "A site that is not known is computed (Eqn 3-3).",
    "more than the 4.6 kg/site-day a facility of the chosen scale uses",
])
def test_the_check_passes_a_site_that_is_no_rate(text):
    assert not per_site_misses(text)


# --- Every text the engine gives ----------------------------------------------------------


def _texts(value: Any, seen: set[int] | None = None) -> Iterator[str]:
    """Every string in ``value``: mappings, sequences and dataclasses, walked."""
    seen = set() if seen is None else seen
    if isinstance(value, str):
        yield value
        return
    if isinstance(value, (int, float, bool, enum.Enum)) or value is None or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _texts(key, seen)
            yield from _texts(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _texts(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _texts(getattr(value, f.name), seen)


#: Inputs some choices require that no case field gives: a 30 kg cylinder (within ESD 2015
#: Table 3-1's fills), an ideal gas.
REQUIRED_BY_CHOICES = {"m_container": 30.0, "z": 1.0}


def _case_inputs(scenario, vapour_pressure: float) -> dict:
    """A new use's inputs from a plain case (5,000 kg/yr, 15 %, MW 200, the VP given)."""
    case = {"production_volume_kg_yr": 5000.0, "use_concentration": 0.15, "molecular_weight": 200.0,
            "vapour_pressure_torr": vapour_pressure}
    inputs = {p.symbol: case[p.from_case] for p in scenario.params.params if p.from_case in case}
    return {**inputs, **{k: v for k, v in REQUIRED_BY_CHOICES.items() if k in scenario.params}}


#: Choices with more options than this are tried at their first two only (CVD's Table 4-2 rows
#: differ in their emission factor, not in their sentences).
MANY_CHOICES = 8


def _variants(scenario) -> Iterator[tuple[str, dict, bool]]:
    """(name, inputs, whether they may be refused): the defaults, each preset, a known site
    with a supplier and monthly cleaning, and each value of each choice input (some need
    another choice: a compressibility factor is for a gas, and are refused alone)."""
    yield "defaults", {}, False
    for preset in scenario.presets:
        yield f"preset {preset.key}", dict(preset.values), False
    yield "a known site, a supplier, cleaned monthly", {"Nsites": 1, "cleanings_per_year": 12,
                                                        "supplier_site": "yes"}, False
    for param in scenario.params.params:
        if param.kind != CHOICE:
            continue
        values = [value for value, _ in param.choices]
        for value in values[:2] if len(values) > MANY_CHOICES else values:
            yield f"{param.symbol}={value}", {param.symbol: value}, True


def _results(scenario) -> Iterator[tuple[str, dict]]:
    for vapour_pressure in (0.001, 5.0):
        base = _case_inputs(scenario, vapour_pressure)
        for name, variant, may_refuse in _variants(scenario):
            inputs = {**base, **{k: v for k, v in variant.items() if k in scenario.params}}
            try:
                result = scenario.compute(inputs)
            except EngineValidationError:
                if may_refuse:
                    continue
                raise
            yield f"VP {vapour_pressure}, {name}", result.as_dict()


@pytest.mark.parametrize("scenario", registry.scenarios(), ids=lambda s: s.key)
def test_no_sentence_of_a_result_says_a_site_for_per_site(scenario):
    misses = {}
    for name, result in _results(scenario):
        found = [miss for text in _texts({k: v for k, v in result.items() if k != "inputs"})
                 for miss in per_site_misses(text)]
        if found:
            misses[name] = sorted(set(found))
    assert not misses, misses


@pytest.mark.parametrize("scenario", registry.scenarios(), ids=lambda s: s.key)
def test_no_declared_text_of_a_scenario_says_a_site_for_per_site(scenario):
    # Labels, units, sources, reasons and choice words of its inputs, its presets and its
    # facility figures: what the wizard, the results page and the report print beside a value.
    declared = (scenario.title, scenario.source, scenario.params, scenario.presets, scenario.facility_labels,
                scenario.open_media)
    misses = sorted({miss for text in _texts(declared) for miss in per_site_misses(text)})
    assert not misses, misses


def test_no_text_an_engine_module_declares_says_a_site_for_per_site():
    # Module-level texts (figures' labels, constants' sources, notes kept as constants).
    misses = {}
    for info in pkgutil.walk_packages(assessments.esd.__path__, f"{assessments.esd.__name__}."):
        module = importlib.import_module(info.name)
        values = [value for name, value in vars(module).items()
                  if not name.startswith("__") and not callable(value) and not isinstance(value, type)
                  and getattr(value, "__module__", module.__name__) == module.__name__]
        found = sorted({miss for text in _texts(values) for miss in per_site_misses(text)})
        if found:
            misses[info.name] = found
    assert not misses, misses
