"""What a computation returns: facility estimates, releases, exposures, the trace.

The JSON form (:meth:`Result.as_dict`) is the contract of ``spec/INTERFACE.md``;
fields may be added, never renamed or removed. Numbers are kept at full precision:
rounding is presentation.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from .text import num

#: The engine's version, stored with every result: raised when a result's figures or fields
#: change in meaning, so a result computed before is told apart (the imports refuse one from
#: another version; the review checks recompute it). 1.1.0: doses over each exposure's
#: printed days (ED), the over-release warning, each inhalation estimate's task
#: concentration (spec/INTERFACE.md, "Additions, version 3"). 1.2.0: each trace step's
#: ``qualifier`` (its printed name unique in the trace: :func:`.names.printed_names`), releases-only
#: results that count no worker as exposed, the nonvolatile note naming the vapour pressure
#: it read (issue 41).
ENGINE_VERSION = "1.2.0"

#: The media a release can go to, as a reviewer reads them: the one list of the media.
MEDIUM_NAMES = (
    ("air", "Air"), ("water", "Water"), ("incineration", "Incineration"), ("landfill", "Landfill"),
    ("fuel_blending", "Fuel blending"), ("destroyed", "Destroyed"),
)
MEDIA = tuple(key for key, _ in MEDIUM_NAMES)

LABELS = ("central tendency", "high end", "low end", "conservative", "what-if", "output")

#: Below this fraction of the larger of the use and the releases, an excess of the releases
#: over the use and the rounding limit is floating-point noise (Result.over_release_kg_yr).
OVER_RELEASE_NOISE = 1e-9

#: Where a document names the conservative end of an input it carries as a range for one
#: medium: (input, medium) -> (the end's value, why, in the document's words and place).
#: A medium's total takes that end where it is one of the range's cases; every other
#: medium's total takes the case releasing the most to it (Result.totals_sets).
#: ESD 2010 §4.4 (Release 3) and Table A-4 (Fphoto_wafer default 0.07): "As a conservative
#: estimate for water releases, EPA recommends assuming that up to seven percent of the
#: dispensed photoresist remains on the wafer [...]. Alternatively, incineration releases
#: may be maximized by assuming one percent"; the 2018 update repeats it word for word
#: (§4.5) and its sample IRER takes 7 % "to maximize water releases" (§7, Release 3). The
#: 2004 edition gives the range 0.01 to 0.07 (¶52) without naming an end: there the rule is
#: the case releasing the most to the medium, which picks the same ends. (The text
#: extractions in seeds/ carry no page numbers; the sections are the documents'.)
STATED_ENDS: dict[tuple[str, str], tuple[float, str]] = {
    ("Fphoto_wafer", "water"): (0.07, "conservative for water, ESD 2010 §4.4 and Table A-4"),
    ("Fphoto_wafer", "incineration"): (0.01, "maximises incineration, ESD 2010 §4.4"),
}


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
    # What tells this value apart from another value of the same symbol in one trace
    # ("Eqn 3-3, unrounded"), declared where the scenario computes it: the step's printed
    # name is then "Nsites (Eqn 3-3, unrounded)" (:func:`.names.printed_names`). "" in a result
    # stored before steps carried it, and where the symbol has one value.
    qualifier: str = ""


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
        qualifier: str = "",
        **inputs: Any,
    ) -> Any:
        self.steps.append(TraceStep(symbol, value, units, equation, citation, dict(inputs), note, label, qualifier))
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
    (:mod:`assessments.esd.options`).

    ``task_mg_m3`` and ``task_ppm`` (a vapour with a molecular weight): the airborne
    concentration during the task, the model's own concentration over its exposure hours,
    ``task_minutes`` a day (I = Cm × b × h: the TWA is Cm × h / 8). What a short-term
    limit (a STEL, a ceiling) is compared with (spec/INTERFACE.md, "Additions, version 3";
    :mod:`assessments.exposure_limits`). A task lasting the whole 8-hour shift has its TWA
    as its task concentration. None where the model gives no concentration during a task
    (a dermal estimate; a dose from mg per kg handled, as the Small Volume Solids model's).
    """

    label: str
    mg_day: float
    basis: str
    mg_m3: float | None = None
    ppm: float | None = None
    apdr_mg_kg_day: float | None = None
    add_mg_kg_day: float | None = None
    ladd_mg_kg_day: float | None = None
    irer_label: str = ""
    task_mg_m3: float | None = None
    task_ppm: float | None = None
    task_minutes: float | None = None

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
    IRER's "Days/yr"); ``workers_per_site``: the distinct workers per site exposed via the
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
    use that keeps the container residue). ``basis`` says which estimates were added and,
    where estimates depend on a range, which set each medium's total takes
    (:meth:`Result.totals_sets`): media taken from different sets can add to more than any
    one set releases, and the basis then says so with the figures, so that a negative
    difference reads as what it is.

    Added (issue 26): ``rounding_limit_kg_yr``, the most the documents' whole-container
    rounding (and their other conventions: whole sites, ChemSTEER's daily use, calendar
    cleaning intervals) can release beyond the use, as the scenario declares it;
    ``over_release_kg_yr``, what one consistent set releases (with what the process
    consumes) beyond the use and that limit, 0 within it; and, when it is not 0, the
    warning (``over_release_warning``, one sentence with the figures) and the inputs it
    names (``over_release_inputs``, their symbols), from :mod:`assessments.esd.over_release`.
    """

    used_kg_yr: float
    released_kg_yr: dict[str, float]
    consumed_kg_yr: float
    difference_kg_yr: float
    basis: str
    allowance_kg_yr: float = 0.0
    allowance_basis: str = ""
    rounding_limit_kg_yr: float = 0.0
    over_release_kg_yr: float = 0.0
    over_release_warning: str = ""
    over_release_inputs: list[str] = field(default_factory=list)

    @property
    def released_total_kg_yr(self) -> float:
        return sum(self.released_kg_yr.values())


@dataclass(kw_only=True)  # built by keyword: thirteen fields, several of the same type
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
    # Issue 26, carried by the mass balance: the most the documents' rounding conventions
    # can release beyond the use, kg/yr all sites (each scenario declares it), and, when one
    # consistent set releases more, the warning and the inputs it names (the registry adds
    # them: over_release.checked).
    rounding_limit_kg_yr: float = 0.0
    over_release_warning: str = ""
    over_release_inputs: list[str] = field(default_factory=list)

    def case_totals(self) -> dict[str, float]:
        """kg/yr all sites released in each case the estimates name (see :class:`ReleaseEstimate`),
        in the order the cases first appear."""
        cases = dict.fromkeys(e.case for r in self.releases for e in r.estimates if e.case)
        return {case: sum(_amount(r, (case,)) for r in self.releases) for case in cases}

    def _range_cases(self) -> dict[str, list[str]]:
        """The cases of each input carried as a range (the text of a case before " = "),
        inputs and cases in the order they first appear."""
        by_input: dict[str, list[str]] = {}
        for case in dict.fromkeys(e.case for r in self.releases for e in r.estimates if e.case):
            by_input.setdefault(_input(case), []).append(case)
        return by_input

    def _sets(self) -> list[tuple[tuple[str, ...], dict[str, float]]]:
        """Every consistent set (one case of each range input, in order: the first cases
        first) with its totals by medium; one empty set when no estimate names a case."""
        combos = list(itertools.product(*self._range_cases().values()))
        return [(combo, self._medium_totals(combo)) for combo in combos]

    def totals_cases(self) -> tuple[str, ...]:
        """One consistent set for all media together, one case of each input carried as a
        range: of that input's cases, the one releasing the most in all media (on a tie, a
        range that only moves the chemical between releases, the one named first). Empty
        when no estimate names a case. What one set releases in all
        (:meth:`one_set_released_kg_yr`); the totals by medium take each medium's own set
        (:meth:`totals_sets`)."""
        sets = self._sets()
        best, _ = _first_top([(combo, sum(totals.values())) for combo, totals in sets])
        return best

    def totals_case(self) -> str:
        """The cases of :meth:`totals_cases` as one phrase (``""`` when none)."""
        return "; ".join(self.totals_cases())

    def one_set_released_kg_yr(self) -> float:
        """kg/yr all sites and media released by one consistent set: the most any set
        releases in all (:meth:`totals_cases`). The mass balance holds for it; the sum of
        :meth:`totals_by_medium` may exceed it (each medium takes its own set)."""
        sets = self._sets()
        return max((sum(totals.values()) for _, totals in sets), default=0.0)

    def _medium_sets(self) -> dict[str, tuple[tuple[str, ...], float]]:
        """medium -> (the consistent set its total takes, the total): the document's stated
        end where it names one for the medium (:data:`STATED_ENDS`), else of each range
        input's cases the one releasing the most to that medium; on a tie the first."""
        sets = self._sets()
        media = dict.fromkeys(m for _, totals in sets for m in totals)
        by_input = self._range_cases()
        chosen = {}
        for medium in media:
            stated = [(combo, totals) for combo, totals in sets if _keeps_stated_ends(combo, medium, by_input)]
            chosen[medium] = _first_top([(combo, totals.get(medium, 0.0)) for combo, totals in stated or sets])
        return chosen

    def totals_sets(self) -> dict[str, tuple[str, ...]]:
        """Which set each medium's total takes: medium -> the cases, one of each range input
        whose estimates reach that medium (media no range reaches are left out).

        Each medium takes its own conservative set (issue 26): for water, Fphoto_wafer = 0.07
        (ESD 2010 §4.4, Table A-4); for incineration 0.01; for air, a vapour model's worst
        case. Within a medium the set is consistent: never the high end of both sides of one
        range for the same medium.
        """
        reach = self._reach()
        return {medium: tuple(c for c in combo if _input(c) in reach.get(medium, ()))
                for medium, (combo, _) in self._medium_sets().items() if reach.get(medium)}

    def _reach(self) -> dict[str, set[str]]:
        """medium -> the range inputs whose estimates the medium's total counts."""
        reach: dict[str, set[str]] = {}
        for release in self.releases:
            inputs = {_input(e.case) for e in release.estimates if e.case}
            for medium in _counted_under(release):
                reach.setdefault(medium, set()).update(inputs)
        return reach

    def totals_by_medium(self) -> dict[str, float]:
        """kg/yr, all sites, by medium: of each release, its estimate in the medium's own set
        (:meth:`totals_sets`) where it has one, else its highest estimate.

        A release split between media (fractions that add to 1) is divided; a release
        whose medium is left open among several counts under the medium chosen for it
        (``chosen_medium``), or, where none is, under the listed media's joint name, e.g.
        ``"water or incineration"`` (a scenario that declares no choice for it).
        """
        return {medium: total for medium, (_, total) in self._medium_sets().items()}

    def _medium_totals(self, cases: tuple[str, ...]) -> dict[str, float]:
        """kg/yr, all sites, by medium, every release in the one set ``cases``."""
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
        return MassBalance(
            used_kg_yr=used,
            released_kg_yr=released,
            consumed_kg_yr=self.consumed_kg_yr,
            difference_kg_yr=used - sum(released.values()) - self.consumed_kg_yr,
            basis=self._balance_basis(released),
            allowance_kg_yr=self.allowance_kg_yr,
            allowance_basis=self.allowance_basis,
            rounding_limit_kg_yr=self.rounding_limit_kg_yr,
            over_release_kg_yr=self.over_release_kg_yr(),
            over_release_warning=self.over_release_warning,
            over_release_inputs=list(self.over_release_inputs),
        )

    def release_amounts(self) -> list[tuple[Release, float]]:
        """Each release with its kg/yr over all sites in the one consistent set of
        :meth:`totals_cases` (its highest estimate where it names no case)."""
        cases = self.totals_cases()
        return [(release, _amount(release, cases)) for release in self.releases]

    def over_release_kg_yr(self) -> float:
        """kg/yr, all sites, that one consistent set releases, with what the process
        consumes, beyond the chemical used and :attr:`rounding_limit_kg_yr` (issue 26); 0
        within them (floating-point noise, :data:`OVER_RELEASE_NOISE` of the larger of the
        use and the releases, included) and without facts.

        >>> r = Result(scenario="x", inputs={}, facility={}, releases=[Release(1, "s", "m", "e", [Medium("water")],
        ...            [release_estimate("output", 1.0, 100, 1, "b")])], exposures=[], warnings=[], trace=[],
        ...            facts=Facts(1, False, 100, 0, "", 60.0), rounding_limit_kg_yr=30.0)
        >>> r.over_release_kg_yr()
        10.0
        """
        if self.facts is None:
            return 0.0
        released = self.one_set_released_kg_yr()
        used = self.facts.used_kg_yr
        excess = released + self.consumed_kg_yr - used - self.rounding_limit_kg_yr
        return excess if excess > OVER_RELEASE_NOISE * max(abs(used), released) else 0.0

    def _balance_basis(self, released: dict[str, float]) -> str:
        """Which estimates the mass balance adds, in a reviewer's words: each medium's set,
        and, when the media take different sets, that together they release more than one
        set does (so the difference is lower, and may be negative, by that much)."""
        basis = "The highest estimate of each release"
        sets = self.totals_sets()
        if not sets:
            return basis + "."
        per_set = self._sets()
        parts = []
        for medium, cases in sets.items():
            whys = [f"{case} ({_why(case, medium, per_set)})" for case in cases]
            noun = "the set" if len(whys) == 1 else "the sets"
            parts.append(f"{medium}: {noun} {' and '.join(whys)}")
        basis += ("; where the estimates depend on a range, each medium's total takes the set conservative for "
                  "that medium: " + "; ".join(parts) + ".")
        one_set, added = self.one_set_released_kg_yr(), sum(released.values())
        if len(set(sets.values())) > 1 and added > one_set * (1 + 1e-9):
            basis += (f" The media's totals come from different sets, so together they add to {num(added)} kg/yr, "
                      f"{num(added - one_set)} kg/yr more than any one set releases ({num(one_set)} kg/yr): the "
                      "difference is lower by that much and may be negative; it is not chemical released beyond the "
                      "use.")
        return basis

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
        # Added (issue 26): which set each medium's total takes, medium -> its cases joined by "; ".
        ordered["totals_sets"] = {medium: "; ".join(cases) for medium, cases in self.totals_sets().items()}
        for name in ("consumed_kg_yr", "allowance_kg_yr", "allowance_basis", "rounding_limit_kg_yr",
                     "over_release_warning", "over_release_inputs"):
            del ordered[name]  # carried by the mass balance
        balance = self.mass_balance()
        if balance is not None:
            ordered["mass_balance"] = plain(balance)
        return ordered


def _input(case: str) -> str:
    """The input a case belongs to: its text before " = ".

    >>> _input("Fphoto_wafer = 0.07")
    'Fphoto_wafer'
    """
    return case.split(" = ")[0]


def _value(case: str) -> float | None:
    """The number a case sets its input to, or None when it is not one."""
    try:
        return float(case.split(" = ", 1)[1].replace(",", ""))
    except (IndexError, ValueError):
        return None


def _keeps_stated_ends(combo: tuple[str, ...], medium: str, by_input: dict[str, list[str]]) -> bool:
    """Whether ``combo`` takes, for ``medium``, every end a document names for it
    (:data:`STATED_ENDS`) that is one of the range's cases."""
    for case in combo:
        stated = STATED_ENDS.get((_input(case), medium))
        if stated is None:
            continue
        ends = [c for c in by_input.get(_input(case), []) if (v := _value(c)) is not None
                and math.isclose(v, stated[0], rel_tol=1e-9)]
        if ends and case not in ends:
            return False
    return True


def _first_top(scored: list[tuple[tuple[str, ...], float]]) -> tuple[tuple[str, ...], float]:
    """The first ``(set, amount)`` whose amount is the largest (within 1e-9: a tie keeps the
    first). An amount that is not a number (an overflow, which the registry then refuses)
    matches nothing: the first stands in, so the refusal is what is seen.

    >>> _first_top([(("a",), 1.0), (("b",), 2.0), (("c",), 2.0)])
    (('b',), 2.0)
    """
    if not scored:
        return (), 0.0
    top = max(amount for _, amount in scored)
    return next(((combo, amount) for combo, amount in scored if amount >= top * (1 - 1e-9)), scored[0])


def _why(case: str, medium: str, sets: list[tuple[tuple[str, ...], dict[str, float]]]) -> str:
    """Why ``medium``'s total takes ``case``: the document's words where it names the end,
    else that the case releases the most to the medium, or that every case releases the same."""
    stated = STATED_ENDS.get((_input(case), medium))
    value = _value(case)
    if stated is not None and value is not None and math.isclose(value, stated[0], rel_tol=1e-9):
        return stated[1]
    rivals = [totals.get(medium, 0.0) for combo, totals in sets if case not in combo]
    mine = [totals.get(medium, 0.0) for combo, totals in sets if case in combo]
    if mine and all(math.isclose(r, max(mine), rel_tol=1e-9) for r in rivals):
        return f"every set releases the same to {medium}"
    return f"the set releasing the most to {medium}"


def _counted_under(release: Release) -> list[str]:
    """The media (or joint name) the totals count ``release`` under."""
    if release.chosen_medium:
        return [release.chosen_medium]
    if (shares := _split(release)) is not None:
        return [medium for medium, _ in shares]
    return [" or ".join(m.medium for m in release.media)]


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


_SCALARS = frozenset({float, int, str, bool, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for any other type), looked up once per type."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _FIELD_NAMES[kind]


def plain(value: Any) -> Any:
    """``value`` as plain data: what ``dataclasses.asdict`` gives for a result (dataclasses as
    dicts, lists and tuples kept as such), without its deep copy of every number and string,
    which a result does not need (they are immutable) and which took most of the time.

    >>> plain(Medium("water", 0.5)), plain([Medium("air")]) == [{"medium": "air", "fraction": None}]
    ({'medium': 'water', 'fraction': 0.5}, True)
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _field_names(kind)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value
