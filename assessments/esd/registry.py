"""Scenario key -> scenario: the engine's front door.

``scenarios()``, ``defaults(key)`` and ``compute(key, inputs)`` are what the ``esd``
command, the wizards and the report call. A scenario module exposes ``SCENARIOS``, a
sequence of :class:`Scenario`; :data:`SCENARIO_MODULES` lists those modules.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Mapping

from .parameters import ALL, EngineValidationError, ParamSet
from .results import Result

SCENARIO_MODULES = (
    "assessments.esd.photoresist",
    "assessments.esd.cvd",
)


@dataclass(frozen=True)
class Preset:
    """A consistent set of defaults a reviewer may pick at once (e.g. a Table 3-2 row)."""

    key: str
    label: str
    values: Mapping[str, Any]
    source: str


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    source: str
    params: ParamSet
    run: Callable[[dict[str, Any]], Result]  # effective inputs -> Result; pure
    presets: tuple[Preset, ...] = field(default=())

    def compute(self, inputs: Mapping[str, Any]) -> Result:
        # Every scenario also accepts the optional "site_specific" list of EIIP
        # site-specific air releases (see site_data's module docstring); without it this
        # is exactly self.run(self.params.validate(inputs)).
        from .site_data import compute_with_site_data

        return compute_with_site_data(self.params, self.run, inputs)


UNKNOWN_SCENARIO = "unknown scenario {key!r}; known: {known}"


@cache
def _registry() -> dict[str, Scenario]:
    found: dict[str, Scenario] = {}
    for module_name in SCENARIO_MODULES:
        for scenario in importlib.import_module(module_name).SCENARIOS:
            if scenario.key in found:
                raise RuntimeError(f"scenario key {scenario.key!r} registered twice")
            found[scenario.key] = scenario
    return found


def scenarios() -> list[Scenario]:
    return list(_registry().values())


def get(key: str) -> Scenario:
    try:
        return _registry()[key]
    except KeyError:
        known = ", ".join(_registry())
        raise EngineValidationError({ALL: UNKNOWN_SCENARIO.format(key=key, known=known)}) from None


def defaults(key: str) -> dict[str, Any]:
    return get(key).params.defaults()


def compute(key: str, inputs: Mapping[str, Any]) -> Result:
    """Validate ``inputs`` for scenario ``key`` and compute; pure, no I/O."""
    return get(key).compute(inputs)
