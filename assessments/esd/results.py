"""What a computation returns: facility estimates, releases, exposures, the trace.

The JSON form (:meth:`Result.as_dict`) is the contract of ``spec/INTERFACE.md``;
fields may be added, never renamed or removed. Numbers are kept at full precision:
rounding is presentation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

ENGINE_VERSION = "1.0.0"

#: The media a release can go to, as a reviewer reads them: the one list of the media.
MEDIUM_NAMES = (
    ("air", "Air"), ("water", "Water"), ("incineration", "Incineration"), ("landfill", "Landfill"),
    ("fuel_blending", "Fuel blending"), ("destroyed", "Destroyed"),
)
MEDIA = tuple(key for key, _ in MEDIUM_NAMES)

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
    # What the step computes, in a reviewer's words: its equation's declared label
    # (calc.equation), or what a value taken as given is. Last, so that positional
    # construction stays valid; "" in a result stored before steps carried it.
    label: str = ""


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
        *,
        label: str = "",
        **inputs: Any,
    ) -> Any:
        self.steps.append(TraceStep(symbol, value, units, equation, citation, dict(inputs), note, label))
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
    """One estimate of a release. ``case`` names the set of inputs it belongs to when a
    document carries one input as a range that moves several releases at once (the 2004
    edition's Fphoto_wafer 0.01 or 0.07): estimates of different releases with the same
    ``case`` are consistent with each other, and the totals never mix two cases."""

    label: str
    kg_site_day: float
    days_per_year: float
    sites: int
    kg_site_year: float
    kg_year_all_sites: float
    basis: str
    case: str = ""
    # The label EPA's IRER prints ("Output 2", "High End of Range"): irer.irer_label.
    irer_label: str = ""

    def __post_init__(self) -> None:
        if self.label not in LABELS:
            raise ValueError(f"unknown characterisation {self.label!r}")


def release_estimate(
    label: str, kg_site_day: float, days_per_year: float, sites: int, basis: str, case: str = ""
) -> ReleaseEstimate:
    """A release estimate with its annual figures (ESD 2010 §4: daily × days × sites).

    >>> e = release_estimate("high end", 0.0277778, 360, 3, "b")
    >>> round(e.kg_site_year, 3), round(e.kg_year_all_sites, 3)
    (10.0, 30.0)
    """
    per_site = kg_site_day * days_per_year
    return ReleaseEstimate(label, kg_site_day, days_per_year, sites, per_site, per_site * sites, basis, case)


@dataclass(frozen=True)
class Release:
    number: int
    source: str
    model: str
    equation: str
    media: list[Medium]
    estimates: list[ReleaseEstimate]
    site_specific: bool = False
    # Where the media are left open (every fraction None): the medium the totals count the
    # release under, and who chose it ("reviewer", or "document": its default stands).
    chosen_medium: str = ""
    medium_chosen_by: str = ""
    # As EPA's IRER prints the release: the source's name ("from:"; ``source`` is the
    # document's own name of the release) and the model's standard sentence ("basis:").
    irer_source: str = ""
    standard_basis: str = ""


@dataclass(frozen=True)
class ExposureEstimate:
    """One estimate of an exposure. ``mg_m3`` (8-hour TWA) and ``ppm`` are set by the
    scenario on an inhalation estimate computed from an airborne concentration; the dose
    rates [mg/kg-day] are added to every estimate from the result's ``dose_basis``
    (:mod:`assessments.esd.options`)."""

    label: str
    mg_day: float
    basis: str
    mg_m3: float | None = None
    ppm: float | None = None
    apdr_mg_kg_day: float | None = None
    add_mg_kg_day: float | None = None
    ladd_mg_kg_day: float | None = None
    irer_label: str = ""

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


@dataclass(frozen=True)
class Facts:
    """What every scenario reports about its sites, typed, so that nothing outside the
    engine has to know which symbol of a scenario holds them.

    ``sites``: the number of sites (computed or known); ``sites_known``: entered by the
    reviewer rather than computed; ``operating_days``: the days a year the use runs (the
    IRER's "Days/yr"); ``workers_per_site``: the distinct workers a site exposed via the
    assessed routes (0 when none is exposed), with ``workers_basis``, the sentence that
    says how they were counted; ``used_kg_yr``: the chemical this use puts through all its
    sites a year (the mass balance's input, normally the production volume entered).
    """

    sites: int
    sites_known: bool
    operating_days: float
    workers_per_site: int
    workers_basis: str
    used_kg_yr: float


@dataclass(frozen=True)
class MassBalance:
    """Where the chemical used goes, kg/yr over all sites.

    ``released_kg_yr`` is by medium (the totals of :meth:`Result.totals_by_medium`);
    ``consumed_kg_yr`` what the process consumes or destroys (reacted onto the wafer,
    destroyed in abatement); ``difference_kg_yr`` = used − released − consumed, the part
    no release accounts for (the documents do not assess it) or, when negative, what the
    documents' own conventions release beyond the use (``allowance_kg_yr``, with its
    reason in ``allowance_basis``: whole containers and whole sites rounded up, a daily
    use that keeps the container residue). ``basis`` says which estimates were added.
    """

    used_kg_yr: float
    released_kg_yr: dict[str, float]
    consumed_kg_yr: float
    difference_kg_yr: float
    basis: str
    allowance_kg_yr: float = 0.0
    allowance_basis: str = ""

    @property
    def released_total_kg_yr(self) -> float:
        return sum(self.released_kg_yr.values())


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
    # What every scenario declares (see Facts, MassBalance): the process as the IRER's
    # arrow chain, one step an item; the facility facts; what is consumed or destroyed,
    # and the allowance for the documents' rounding conventions, kg/yr all sites.
    process: list[str] = field(default_factory=list)
    facts: Facts | None = None
    consumed_kg_yr: float = 0.0
    allowance_kg_yr: float = 0.0
    allowance_basis: str = ""
    # The body weight, working years and averaging times of the dose rates (options.dose_basis).
    dose_basis: dict[str, Any] | None = None

    def case_totals(self) -> dict[str, float]:
        """kg/yr all sites released in each case the estimates name (see :class:`ReleaseEstimate`),
        in the order the cases first appear."""
        cases = dict.fromkeys(e.case for r in self.releases for e in r.estimates if e.case)
        return {case: sum(_amount(r, (case,)) for r in self.releases) for case in cases}

    def totals_cases(self) -> tuple[str, ...]:
        """The cases the totals use, one for each input carried as a range (the text of a
        case before " = ", e.g. ``Fphoto_wafer``): of that input's cases, the one releasing
        the most in all (the conservative one); where they tie (a range that only moves the
        chemical between releases), the one named first. Empty when no estimate names a case.

        Cases of different inputs (the adhesion range and a vapour model's range) move
        different releases, so one of each is taken together.
        """
        totals = self.case_totals()
        by_input: dict[str, dict[str, float]] = {}
        for case, total in totals.items():
            by_input.setdefault(case.split(" = ")[0], {})[case] = total
        chosen = []
        for cases in by_input.values():
            top = max(cases.values())
            # A total that is not a number (an overflow, which the registry then refuses)
            # matches nothing: the first case stands in, so the refusal is what is seen.
            first = next(iter(cases))
            chosen.append(next((case for case, total in cases.items() if total >= top * (1 - 1e-9)), first))
        return tuple(chosen)

    def totals_case(self) -> str:
        """The cases of :meth:`totals_cases` as one phrase (``""`` when none)."""
        return "; ".join(self.totals_cases())

    def totals_by_medium(self) -> dict[str, float]:
        """kg/yr, all sites, by medium: of each release, its estimate in the totals' case
        (:meth:`totals_case`) where it has one, else its highest estimate.

        A release split between media (fractions that add to 1) is divided; a release
        whose medium is left open among several counts under the medium chosen for it
        (``chosen_medium``), or, where none is, under the listed media's joint name, e.g.
        ``"water or incineration"`` (a scenario that declares no choice for it).
        """
        cases = self.totals_cases()
        totals: dict[str, float] = {}
        for release in self.releases:
            if not release.estimates:
                continue
            amount = _amount(release, cases)
            if release.chosen_medium:
                totals[release.chosen_medium] = totals.get(release.chosen_medium, 0.0) + amount
            elif (shares := _split(release)) is not None:
                for medium, share in shares:
                    totals[medium] = totals.get(medium, 0.0) + amount * share
            else:
                name = " or ".join(m.medium for m in release.media)
                totals[name] = totals.get(name, 0.0) + amount
        return totals

    def mass_balance(self) -> MassBalance | None:
        """Used, released by medium, consumed and the difference (None without facts)."""
        if self.facts is None:
            return None
        released = self.totals_by_medium()
        used = self.facts.used_kg_yr
        basis = "The highest estimate of each release"
        totals = self.case_totals()
        for case in self.totals_cases():
            rivals = [t for c, t in totals.items() if c.split(" = ")[0] == case.split(" = ")[0]]
            tie = all(math.isclose(total, totals[case], rel_tol=1e-9) for total in rivals)
            why = "every set releases the same in all" if tie else "the set releasing the most"
            basis += f"; where the estimates depend on a range, the set {case} ({why})"
        return MassBalance(
            used_kg_yr=used,
            released_kg_yr=released,
            consumed_kg_yr=self.consumed_kg_yr,
            difference_kg_yr=used - sum(released.values()) - self.consumed_kg_yr,
            basis=basis + ".",
            allowance_kg_yr=self.allowance_kg_yr,
            allowance_basis=self.allowance_basis,
        )

    def as_dict(self) -> dict[str, Any]:
        out = plain(self)
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
        for name in ("consumed_kg_yr", "allowance_kg_yr", "allowance_basis"):
            del ordered[name]  # carried by the mass balance
        balance = self.mass_balance()
        if balance is not None:
            ordered["mass_balance"] = plain(balance)
        return ordered


def _split(release: Release) -> list[tuple[str, float]] | None:
    """``(medium, fraction)`` of a release divided between media, or None when any
    medium's fraction is not given."""
    shares = [(m.medium, m.fraction) for m in release.media if m.fraction is not None]
    return shares if len(shares) == len(release.media) else None


def _amount(release: Release, cases: tuple[str, ...]) -> float:
    """kg/yr all sites of ``release`` in ``cases``: its estimate in one of them if it has
    one, else its highest estimate."""
    in_case = [e.kg_year_all_sites for e in release.estimates if e.case and e.case in cases]
    return max(in_case or [e.kg_year_all_sites for e in release.estimates] or [0.0])


def plain(value: Any) -> Any:
    """``value`` as plain data: what ``dataclasses.asdict`` gives for a result (dataclasses as
    dicts, lists and tuples kept as such), without its deep copy of every number and string,
    which a result does not need (they are immutable) and which took most of the time.

    >>> plain(Medium("water", 0.5)), plain([Medium("air")]) == [{"medium": "air", "fraction": None}]
    ({'medium': 'water', 'fraction': 0.5}, True)
    """
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value
