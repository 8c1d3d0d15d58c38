"""Every figure a result returns, with its label, units and role, as the engine declares them.

A page or a report names a number by what the engine declares about it, never by reading
an equation function's docstring or by taking a symbol apart:

- an equation declares what it computes (``@equation(..., label=...)``,
  :mod:`assessments.esd.calc`), and each trace step carries that label;
- a scenario declares every key of its result's ``facility`` mapping
  (``Scenario.facility_labels``: key -> :class:`FacilityFigure`): its label, units and
  role, and the trace step that computed it, where one did;
- the parts every result shares (a release estimate's amounts, an exposure estimate's
  dose rates and airborne concentrations, the facts, the dose basis, the totals and the
  mass balance) are declared once here.

:func:`figures` lists every figure of a result, each with a stable path into
:meth:`~assessments.esd.results.Result.as_dict`: "/"-joined keys and list indices, e.g.
``facility/Nsites``, ``releases/0/estimates/1/kg_site_day``,
``exposures/2/estimates/0/add_mg_kg_day``, ``facts/sites``, ``mass_balance/used_kg_yr``,
``trace/7/value`` (the paths of :func:`assessments.esd.provenance.flatten`). The inputs,
each step's own inputs, a release's number and a value the result does not hold (``None``)
are not figures. :func:`figures_of` reads a result in its JSON form (a stored snapshot),
so the pages, the report and the engine name a figure alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .calc import equation_info
from .parameters import Param
from .registry import get
from .results import MEDIUM_NAMES, Result

#: What a figure is to a reviewer: the general facility estimates, a release's amounts, a
#: worker's potential dose rate (``exposure``), the dose rates per body weight (``dose``),
#: an airborne concentration, the totals and the mass balance (``balance``), a step of the
#: calculation trace, and the facility facts every scenario reports (``fact``).
FACILITY, RELEASE, EXPOSURE, DOSE, CONCENTRATION, BALANCE, TRACE, FACT = (
    "facility", "release", "exposure", "dose", "concentration", "balance", "trace", "fact",
)
ROLES = (FACILITY, RELEASE, EXPOSURE, DOSE, CONCENTRATION, BALANCE, TRACE, FACT)

#: A facility figure's declaration refused when the scenario's module is imported.
LABEL_REQUIRED = "a facility figure needs a label: what it is, in a reviewer's words"
UNKNOWN_ROLE = "unknown role {role!r}; known: {known}"
STEP_REQUIRED = "first_step and by_equation name a step: declare which trace symbol computes the figure"


@dataclass(frozen=True)
class FacilityFigure:
    """What one key of a result's ``facility`` mapping is.

    ``label`` and ``units``: what it is, in a reviewer's words, and its units (``""`` for
    a sentence or a choice). ``step``: the symbol of the trace step that computes it, where
    one does; the figure is the last step recorded under that symbol (a count after its
    rounding up), or the first with ``first_step`` (the value before rounding). The page
    cites that step. ``by_equation``: the figure is computed by one of several of the
    document's equations, depending on the inputs (the number of sites computed or known,
    the daily use recalculated or kept): it is named by the label and units of the
    equation that computed it in this result (its step's), which say which one was used,
    and by ``label`` where none did (an entered value). ``basis``: the facility key of the
    sentence that says how the figure was found, given on the figure's row.
    """

    label: str
    units: str
    role: str = FACILITY
    step: str = ""
    first_step: bool = False
    by_equation: bool = False
    basis: str = ""

    def __post_init__(self) -> None:
        if not self.label.strip():
            raise ValueError(LABEL_REQUIRED)
        if self.role not in ROLES:
            raise ValueError(UNKNOWN_ROLE.format(role=self.role, known=", ".join(ROLES)))
        if (self.first_step or self.by_equation) and not self.step:
            raise ValueError(STEP_REQUIRED)


def computed_by(fn: Callable[..., Any], *, step: str = "", label: str = "", first_step: bool = False,
                role: str = FACILITY, basis: str = "") -> FacilityFigure:
    """A facility figure one equation computes, named by the equation's own declaration
    (its label, units and symbol); ``step`` where the scenario records it under another
    symbol (``Nsites_unrounded``), ``label`` where the figure is one of several the
    equation computes (``..., low end``)."""
    info = equation_info(fn)
    return FacilityFigure(label or info.label, info.units, role, step or info.symbol, first_step, basis=basis)


def entered(param: Param, *, step: str = "", by_equation: bool = False, label: str = "",
            role: str = FACILITY, basis: str = "") -> FacilityFigure:
    """A facility figure that is an input as the scenario used it, named by the input's
    declaration; ``step`` where the scenario records it in the trace (a value taken as
    given, or computed when the input is left empty: ``by_equation``)."""
    return FacilityFigure(label or param.label, param.units, role, step, by_equation=by_equation, basis=basis)


@dataclass(frozen=True)
class Figure:
    """One figure of a result: where it is (``path`` into ``Result.as_dict()``), what it
    is, its units and role, its value, the citation of the trace step that computed it
    (``""`` for none) and, for a facility figure, the sentence saying how it was found."""

    path: str
    label: str
    units: str
    role: str
    value: Any
    citation: str = ""
    basis: str = ""

    @property
    def key(self) -> str:
        """The path below its part: ``Nsites`` for ``facility/Nsites``."""
        return self.path.split("/", 1)[1] if "/" in self.path else self.path


# The parts every result shares ------------------------------------------------------------

#: A release estimate's amounts (``ReleaseEstimate``): key -> (label, units).
RELEASE_AMOUNTS = {
    "kg_site_day": ("Daily release per site", "kg/site-day"),
    "days_per_year": ("Days of release a year", "days/yr"),
    "sites": ("Sites releasing", "sites"),
    "kg_site_year": ("Annual release per site", "kg/site-yr"),
    "kg_year_all_sites": ("Annual release, all sites", "kg/yr"),
}
#: An exposure's worker count and days (``Exposure``): key -> (label, units).
EXPOSURE_COUNTS = {
    "workers_per_site": ("Workers exposed per site", "workers/site"),
    "days_per_year": ("Days of exposure a year", "days/yr"),
}
#: An exposure estimate's figures (``ExposureEstimate``): key -> (label, units, role).
EXPOSURE_AMOUNTS = {
    "mg_day": ("Potential dose rate", "mg/day", EXPOSURE),
    "mg_m3": ("Airborne concentration (8-hour TWA)", "mg/m³", CONCENTRATION),
    "ppm": ("Airborne concentration (8-hour TWA)", "ppm", CONCENTRATION),
    "apdr_mg_kg_day": ("Acute potential dose rate (APDR)", "mg/kg-day", DOSE),
    "add_mg_kg_day": ("Average daily dose (ADD)", "mg/kg-day", DOSE),
    "ladd_mg_kg_day": ("Lifetime average daily dose (LADD)", "mg/kg-day", DOSE),
    "task_mg_m3": ("Airborne concentration during the task", "mg/m³", CONCENTRATION),
    "task_ppm": ("Airborne concentration during the task", "ppm", CONCENTRATION),
    "task_minutes": ("Minutes a day of the task", "min/day", EXPOSURE),
}
#: The facility facts every scenario reports (``Facts``): key -> (label, units).
FACTS = {
    "sites": ("Number of sites", "sites"),
    "operating_days": ("Days of operation", "days/yr"),
    "workers_per_site": ("Workers exposed per site via the assessed routes", "workers"),
    "used_kg_yr": ("Chemical used, all sites", "kg/yr"),
}
#: The dose basis (``options.dose_basis``): key -> (label, units).
DOSE_BASIS = {
    "body_weight_kg": ("Body weight of a worker", "kg"),
    "working_years": ("Working years", "yr"),
    "averaging_time_yr": ("Averaging time of the average daily dose (ADD)", "yr"),
    "averaging_time_cancer_yr": ("Averaging time of the lifetime average daily dose (LADD)", "yr"),
    "exposure_days": ("Exposure days a year (ED), as the reviewer set them", "days/yr"),
    # Only in a result stored before the doses used each exposure's own days (INTERFACE.md,
    # "Additions, version 3"): an approved revision keeps its snapshot, so its figure keeps a name.
    "exposure_days_cap": ("Most exposure days a year counted in the doses (a result computed before ED)", "days/yr"),
}
#: The mass balance's figures that are not by medium (``MassBalance``): key -> (label, units).
MASS_BALANCE = {
    "used_kg_yr": ("Chemical used, all sites", "kg/yr"),
    "consumed_kg_yr": ("Consumed or destroyed by the process, all sites", "kg/yr"),
    "difference_kg_yr": ("Used less released and consumed: what no release accounts for, all sites", "kg/yr"),
    "allowance_kg_yr": ("Released beyond the use by the documents' rounding conventions, all sites", "kg/yr"),
    # Issue 26: what whole-container rounding can explain, and what one set releases beyond it.
    "rounding_limit_kg_yr": ("Most the documents' whole-container rounding and other conventions can release "
                             "beyond the use, all sites", "kg/yr"),
    "over_release_kg_yr": ("Released beyond the use and the rounding conventions' limit, all sites", "kg/yr"),
}
_MEDIUM_WORDS = {key: name.lower() for key, name in MEDIUM_NAMES}


def _medium(medium: str) -> str:
    """``"water or incineration"`` -> ``"water or incineration"``, each medium by its name."""
    return " or ".join(_MEDIUM_WORDS.get(part, part) for part in medium.split(" or "))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# Reading a result ---------------------------------------------------------------------------

def figures(result: Result, declared: Mapping[str, FacilityFigure] | None = None) -> list[Figure]:
    """Every figure of ``result`` (see the module's docstring); ``declared``: its scenario's
    facility declarations (default: those of the registered scenario ``result.scenario``)."""
    if declared is None:
        declared = get(result.scenario).facility_labels
    return figures_of(result.as_dict(), declared)


def figures_of(data: Mapping[str, Any], declared: Mapping[str, FacilityFigure]) -> list[Figure]:
    """Every figure of a result in its JSON form (``Result.as_dict()``, a stored snapshot):
    the facility figures (:func:`facility_figures`, numbers and sentences), each release's
    media shares and estimates, each exposure's workers, days and estimates, the trace, the
    facts, the dose basis, the totals and the mass balance."""
    found = facility_figures(data, declared)
    for i, release in enumerate(data.get("releases") or []):
        found += _release(f"releases/{i}", release)
    for i, exposure in enumerate(data.get("exposures") or []):
        found += _exposure(f"exposures/{i}", exposure)
    for i, step in enumerate(data.get("trace") or []):
        if _number(step.get("value")):
            found.append(Figure(f"trace/{i}/value", step.get("label") or "", step.get("units") or "", TRACE,
                                step["value"], step.get("citation") or ""))
    found += _declared_part("facts", data.get("facts"), FACTS, FACT)
    found += _declared_part("dose_basis", data.get("dose_basis"), DOSE_BASIS, DOSE)
    for medium, amount in (data.get("totals_by_medium") or {}).items():
        if _number(amount):
            found.append(Figure(f"totals_by_medium/{medium}", f"Total released to {_medium(medium)}, all sites",
                                "kg/yr", BALANCE, amount))
    balance = data.get("mass_balance") or {}
    found += _declared_part("mass_balance", balance, MASS_BALANCE, BALANCE)
    for medium, amount in (balance.get("released_kg_yr") or {}).items():
        if _number(amount):
            found.append(Figure(f"mass_balance/released_kg_yr/{medium}", f"Released to {_medium(medium)}, all sites",
                                "kg/yr", BALANCE, amount))
    return found


def facility_figures(data: Mapping[str, Any], declared: Mapping[str, FacilityFigure]) -> list[Figure]:
    """The figures of a result's ``facility`` mapping (a nested mapping's by its path, e.g.
    ``facility/supplier/Cv_chem``), in the engine's order, each as its scenario declares it
    (:class:`FacilityFigure`), with the citation of the step that computed it and the
    sentence of its ``basis``. A key the scenario does not declare has an empty label and
    units (:func:`undeclared`); a value the result does not hold (``None``) is left out."""
    facility = data.get("facility") or {}
    trace = list(data.get("trace") or [])
    found = []
    for key, value in _leaves(facility):
        if value is None:
            continue
        declaration = declared.get(key)
        if declaration is None:
            found.append(Figure(f"facility/{key}", "", "", FACILITY, value))
            continue
        label, units, citation = declaration.label, declaration.units, ""
        step = _step(declaration, trace)
        if step is not None:
            citation = step.get("citation") or ""
            if declaration.by_equation:
                label, units = step.get("label") or label, step.get("units") or units
        basis = facility.get(declaration.basis) if declaration.basis else None
        found.append(Figure(f"facility/{key}", label, units, declaration.role, value, citation,
                            str(basis) if basis is not None else ""))
    return found


def undeclared(data: Mapping[str, Any], declared: Mapping[str, FacilityFigure]) -> list[str]:
    """The keys of a result's ``facility`` mapping (a nested one's by its path) its scenario
    does not declare: a contract-test failure, never named by a guess."""
    return [key for key, _ in _leaves(data.get("facility") or {}) if key not in declared]


def _leaves(mapping: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for key, value in mapping.items():
        if isinstance(value, Mapping):
            found += _leaves(value, f"{prefix}{key}/")
        else:
            found.append((f"{prefix}{key}", value))
    return found


def _step(declaration: FacilityFigure, trace: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    if not declaration.step:
        return None
    steps = [step for step in trace if step.get("symbol") == declaration.step]
    if not steps:
        return None
    return steps[0] if declaration.first_step else steps[-1]


def _declared_part(part: str, values: Mapping[str, Any] | None, declared: Mapping[str, tuple[str, str]],
                   role: str) -> list[Figure]:
    """The numbers of a part every result shares; one the engine does not declare here has
    an empty label (a contract-test failure)."""
    found = []
    for key, value in (values or {}).items():
        if _number(value):
            label, units = declared.get(key, ("", ""))
            found.append(Figure(f"{part}/{key}", label, units, role, value))
    return found


def _release(path: str, release: Mapping[str, Any]) -> list[Figure]:
    name = f"Release {release.get('number')} ({release.get('source', '')})"
    found = []
    for j, medium in enumerate(release.get("media") or []):
        if _number(medium.get("fraction")):
            found.append(Figure(f"{path}/media/{j}/fraction", f"Share of {name} going to {_medium(medium['medium'])}",
                                "kg/kg", RELEASE, medium["fraction"]))
    for j, estimate in enumerate(release.get("estimates") or []):
        which = ", ".join(part for part in (estimate.get("label"), estimate.get("case")) if part)
        for key, value in estimate.items():
            if key in RELEASE_AMOUNTS and _number(value):
                label, units = RELEASE_AMOUNTS[key]
                found.append(Figure(f"{path}/estimates/{j}/{key}", f"{label}, {name}, {which}", units, RELEASE, value))
            elif _number(value):
                found.append(Figure(f"{path}/estimates/{j}/{key}", "", "", RELEASE, value))
    return found


def _exposure(path: str, exposure: Mapping[str, Any]) -> list[Figure]:
    name = (f"Exposure {exposure.get('letter')} ({exposure.get('activity', '')}, {exposure.get('route', '')})")
    found = []
    for key, (label, units) in EXPOSURE_COUNTS.items():
        if _number(exposure.get(key)):
            found.append(Figure(f"{path}/{key}", f"{label}, {name}", units, EXPOSURE, exposure[key]))
    for j, estimate in enumerate(exposure.get("estimates") or []):
        for key, value in estimate.items():
            if not _number(value):
                continue
            label, units, role = EXPOSURE_AMOUNTS.get(key, ("", "", EXPOSURE))
            found.append(Figure(f"{path}/estimates/{j}/{key}",
                                f"{label}, {name}, {estimate.get('label')}" if label else "", units, role, value))
    return found
