"""What a computation returns: facility estimates, releases, exposures, the trace.

The JSON form (:meth:`Result.as_dict`) is the contract of ``spec/INTERFACE.md``;
fields may be added, never renamed or removed. Numbers are kept at full precision:
rounding is presentation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ENGINE_VERSION = "1.0.0"

MEDIA = ("air", "water", "incineration", "landfill", "fuel_blending", "destroyed")

LABELS = ("central tendency", "high end", "low end", "conservative", "what-if", "output")


@dataclass(frozen=True)
class TraceStep:
    """One evaluated equation: what a supervisor needs to recheck it by hand."""

    symbol: str
    value: float | int
    units: str
    equation: str  # the formula in the document's symbols, e.g. "Qchem_day × Fequip_disp"
    citation: str  # document, equation and page/section, e.g. "ESD 2010 Eqn 4-2, §4.3"
    inputs: dict[str, Any] = field(default_factory=dict)
    note: str = ""


class Trace:
    """Accumulates :class:`TraceStep` records while a scenario computes.

    ``record`` returns the value, so a computation reads as a sequence of assignments:

    >>> t = Trace()
    >>> x = t.record("Qchem_day", 36 * 0.15, "kg/site-day", "Qphoto_day × Fchem",
    ...              "ESD 2010 Eqn 3-2", Qphoto_day=36, Fchem=0.15)
    >>> round(x, 6), t.steps[0].citation
    (5.4, 'ESD 2010 Eqn 3-2')
    """

    def __init__(self) -> None:
        self.steps: list[TraceStep] = []

    def record(
        self,
        symbol: str,
        value: float | int,
        units: str,
        equation: str,
        citation: str,
        note: str = "",
        **inputs: Any,
    ) -> Any:
        self.steps.append(TraceStep(symbol, value, units, equation, citation, dict(inputs), note))
        return value


@dataclass(frozen=True)
class Medium:
    medium: str
    fraction: float | None = None

    def __post_init__(self) -> None:
        if self.medium not in MEDIA:
            raise ValueError(f"unknown medium {self.medium!r}")


@dataclass(frozen=True)
class ReleaseEstimate:
    label: str
    kg_site_day: float
    days_per_year: float
    sites: int
    kg_site_year: float
    kg_year_all_sites: float
    basis: str

    def __post_init__(self) -> None:
        if self.label not in LABELS:
            raise ValueError(f"unknown characterisation {self.label!r}")


def release_estimate(
    label: str, kg_site_day: float, days_per_year: float, sites: int, basis: str
) -> ReleaseEstimate:
    """A release estimate with its annual figures (ESD 2010 §4: daily × days × sites).

    >>> e = release_estimate("high end", 0.0277778, 360, 3, "b")
    >>> round(e.kg_site_year, 3), round(e.kg_year_all_sites, 3)
    (10.0, 30.0)
    """
    per_site = kg_site_day * days_per_year
    return ReleaseEstimate(label, kg_site_day, days_per_year, sites, per_site, per_site * sites, basis)


@dataclass(frozen=True)
class Release:
    number: int
    source: str
    model: str
    equation: str
    media: list[Medium]
    estimates: list[ReleaseEstimate]
    site_specific: bool = False


@dataclass(frozen=True)
class ExposureEstimate:
    label: str
    mg_day: float
    basis: str

    def __post_init__(self) -> None:
        if self.label not in LABELS:
            raise ValueError(f"unknown characterisation {self.label!r}")


@dataclass(frozen=True)
class Exposure:
    letter: str
    activity: str
    route: str  # "dermal" or "inhalation"
    model: str
    equation: str
    workers_per_site: int
    days_per_year: float
    estimates: list[ExposureEstimate]


@dataclass
class Result:
    scenario: str
    inputs: dict[str, Any]
    facility: dict[str, Any]
    releases: list[Release]
    exposures: list[Exposure]
    warnings: list[str]
    trace: list[TraceStep]
    notes: list[str] = field(default_factory=list)
    default_set: dict[str, str] = field(default_factory=dict)
    engine_version: str = ENGINE_VERSION

    def totals_by_medium(self) -> dict[str, float]:
        """kg/yr, all sites, of the highest estimate of each release, by medium.

        A release split between media (fractions that add to 1) is divided; a release
        whose medium is left open among several counts under each listed medium's
        joint name, e.g. ``"water or incineration"``.
        """
        totals: dict[str, float] = {}
        for release in self.releases:
            if not release.estimates:
                continue
            amount = max(e.kg_year_all_sites for e in release.estimates)
            if all(m.fraction is not None for m in release.media):
                for m in release.media:
                    totals[m.medium] = totals.get(m.medium, 0.0) + amount * m.fraction
            else:
                name = " or ".join(m.medium for m in release.media)
                totals[name] = totals.get(name, 0.0) + amount
        return totals

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        # Keep the contract's key order: scenario, engine_version, inputs, facility, ...
        ordered = {
            "scenario": out.pop("scenario"),
            "engine_version": out.pop("engine_version"),
            "inputs": out.pop("inputs"),
            "facility": out.pop("facility"),
            "releases": out.pop("releases"),
            "exposures": out.pop("exposures"),
            "warnings": out.pop("warnings"),
        }
        ordered.update(out)
        ordered["totals_by_medium"] = self.totals_by_medium()
        return ordered
