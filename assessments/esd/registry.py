"""Scenario key -> scenario: the engine's front door.

``scenarios()``, ``defaults(key)`` and ``compute(key, inputs)`` are what the ``esd``
command, the wizards and the report call. The registry is filled by discovery: every
module or package directly inside ``assessments.esd`` that exposes ``SCENARIOS`` (a
sequence of :class:`Scenario`) is registered, so a new scenario is one engine module and
its tests. :func:`registered` adds a scenario for the duration of a ``with`` block (the
contract tests register a synthetic one).
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from . import over_release
from .options import INCLUDE_EXPOSURES, NO, OpenMedium, finish, with_options
from .parameters import ALL, EngineValidationError, ParamSet
from .results import Result
from .site_data import compute_with_site_data

if TYPE_CHECKING:  # figures reads the registry (its figures() defaults to a registered scenario's declarations)
    from .figures import FacilityFigure


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
    # Releases whose document leaves the medium open: each becomes a choice (options.py).
    open_media: tuple[OpenMedium, ...] = field(default=())
    # How the IRER's "to:" line names the document it follows: "(per ESD)", as ChemSTEER's
    # scenarios write it, or "(per revised ESD)" (the EPA 2018 update's sample IRER, §7).
    irer_per: str = "per ESD"
    # The year of the edition of the document (or of its latest update) the scenario follows.
    edition: int | None = None
    # The key of the scenario that follows a newer edition of the same document, when there
    # is one: this one is kept to reproduce assessments made with it.
    superseded_by: str = ""
    # What every key of the result's ``facility`` mapping is (a nested mapping's by its path,
    # "supplier/Cv_chem"): its label, units and role, and the trace step that computed it
    # (figures.FacilityFigure). The pages and the report name a facility figure by this
    # declaration only; a key the scenario does not declare fails the contract tests.
    facility_labels: Mapping[str, FacilityFigure] = field(default_factory=dict)

    @property
    def current(self) -> bool:
        """True for the current edition of its document (no newer one is registered)."""
        return not self.superseded_by

    @property
    def full_title(self) -> str:
        """The title with its edition year (the title's own words when they give it)."""
        if self.edition is None or str(self.edition) in self.title:
            return self.title
        return f"{self.title} ({self.edition})"

    def offered(self) -> Scenario:
        """The scenario as the registry offers it: its inputs with what every scenario
        adds (the medium choices of ``open_media``, the dose basis, releases only)."""
        return dataclasses.replace(self, params=with_options(self.params, self.open_media))

    def compute(self, inputs: Mapping[str, Any], *, check_over_release: bool = True) -> Result:
        # Every scenario also accepts the optional "site_specific" list of EIIP
        # site-specific air releases (see site_data's module docstring), and the options
        # every scenario offers are applied to what ``run`` returns (options.finish).
        given = set(inputs) if isinstance(inputs, Mapping) else set()

        def run(v: dict[str, Any]) -> Result:
            return finish(self.run(v), self.open_media, v, given)

        try:
            result = compute_with_site_data(self.params, run, inputs)
        except EngineValidationError:
            raise
        except (ArithmeticError, ValueError) as exc:  # in-range inputs whose arithmetic fails:
            # x / 0 after an underflow, an overflow, ceil(NaN) from 0 × inf
            raise EngineValidationError({ALL: COMPUTE_FAILED.format(error=exc)}) from exc
        _check_finite(result)
        # ``result.inputs`` keeps every effective input, as the command-line contract
        # promises (INTERFACE.md: "every effective input"); one that does not apply holds
        # its default (a value given for it was ignored) and no equation reads it. The
        # pages and the IRER list only the inputs that applied (``ParamSet.applicable``).
        if not check_over_release:
            return result
        # Releases beyond the use and the documents' rounding: the warning and the inputs
        # it names, found by computing again with each at its default (issue 26). Those
        # computations read the releases and the mass balance only, so they skip the doses
        # (releases only, where the scenario offers it): the exposures move no release.
        releases_only = {INCLUDE_EXPOSURES: NO} if INCLUDE_EXPOSURES in self.params else {}
        return over_release.checked(result, self.params, inputs,
                                    lambda again: self.compute({**again, **releases_only}, check_over_release=False))


UNKNOWN_SCENARIO = "unknown scenario {key!r}; known: {known}"
COMPUTE_FAILED = "these inputs cannot be computed ({error}); check the values for consistency"
NOT_FINITE = (
    "these inputs give {what} = {value}, beyond what can be computed; "
    "check the orders of magnitude of the inputs"
)


def _check_finite(result: Result) -> None:
    """Refuse a result holding an overflowed (±inf) or undefined (NaN) number.

    Every input may be within its bounds and their product still exceed a double
    (1e308): such a result is reported as bad input, never returned.
    """
    named = [(f"facility {k}", v) for k, v in result.facility.items()]
    for release in result.releases:
        for e in release.estimates:
            named += [(f"release {release.number} {name}", getattr(e, name)) for name in _RELEASE_AMOUNTS]
    for exposure in result.exposures:
        named += [(f"exposure {exposure.letter} workers_per_site", exposure.workers_per_site),
                  (f"exposure {exposure.letter} days_per_year", exposure.days_per_year)]
        named += [(f"exposure {exposure.letter} {name}", getattr(e, name))
                  for e in exposure.estimates for name in _EXPOSURE_AMOUNTS]
    named += [(f"{step.symbol}", step.value) for step in result.trace]
    named += [(f"total to {medium}", amount) for medium, amount in result.totals_by_medium().items()]
    named += [("consumed or destroyed", result.consumed_kg_yr), ("rounding allowance", result.allowance_kg_yr),
              ("rounding limit", result.rounding_limit_kg_yr)]
    balance = result.mass_balance()
    if balance is not None:  # each medium's total from its own set: their sum may overflow where none does
        named += [("releases added up", balance.released_total_kg_yr),
                  ("mass balance difference", balance.difference_kg_yr)]
    for what, value in named:
        if isinstance(value, float) and not math.isfinite(value):
            raise EngineValidationError({ALL: NOT_FINITE.format(what=what, value=value)})


_EXPOSURE_AMOUNTS = ("mg_day", "mg_m3", "ppm", "apdr_mg_kg_day", "add_mg_kg_day", "ladd_mg_kg_day", "task_mg_m3",
                     "task_ppm", "task_minutes")
_RELEASE_AMOUNTS = ("kg_site_day", "days_per_year", "sites", "kg_site_year", "kg_year_all_sites")


@cache
def _registry() -> dict[str, Scenario]:
    """Every scenario of the engine package, by key, in discovery order (module names)."""
    package = importlib.import_module(__package__)
    found: dict[str, Scenario] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__package__}.{info.name}")
        for scenario in getattr(module, "SCENARIOS", ()):
            if scenario.key in found:
                raise RuntimeError(f"scenario key {scenario.key!r} registered twice")
            found[scenario.key] = scenario.offered()
    return found


@contextmanager
def registered(scenario: Scenario) -> Iterator[Scenario]:
    """Register ``scenario`` inside the ``with`` block only (a test's synthetic scenario);
    yields it as the registry offers it."""
    found = _registry()
    if scenario.key in found:
        raise RuntimeError(f"scenario key {scenario.key!r} registered twice")
    found[scenario.key] = scenario.offered()
    try:
        yield found[scenario.key]
    finally:
        del found[scenario.key]


def scenarios() -> list[Scenario]:
    return list(_registry().values())


#: The heading of the editions a newer one supersedes, where a list offers the scenarios.
EARLIER_EDITIONS = "Earlier editions"
CURRENT_EDITIONS = "Current editions"


def offered() -> list[tuple[str, list[Scenario]]]:
    """The scenarios as a reviewer picks one: the current editions first, then the earlier
    editions (each newest first), as ``[(heading, scenarios)]``."""
    def newest_first(group: list[Scenario]) -> list[Scenario]:
        return sorted(group, key=lambda s: -(s.edition or 0))

    current = [s for s in scenarios() if s.current]
    earlier = [s for s in scenarios() if not s.current]
    return [(heading, newest_first(group)) for heading, group in
            ((CURRENT_EDITIONS, current), (EARLIER_EDITIONS, earlier)) if group]


def default_key() -> str:
    """The scenario a new use starts on: the newest current edition."""
    return offered()[0][1][0].key


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
