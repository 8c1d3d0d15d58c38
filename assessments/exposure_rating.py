"""The occupational exposure rating, derived from the computed results as ChemSTEER v3.2
derives it; the reviewer's override of it; ChemSTEER's exposure-based review criteria,
counted from the same results; and the warnings when the IRER would print no rating, or
"NR" beside exposed workers.

**The rating** (ChemSTEER v3.2, ``ChemStrX.SetOER()``, ``decompilation/source/ChemSteer/
ChemStrX.cs`` in the public ChemSteer4 repository, the statements ``string text = …`` and
``text2 = …`` at its end; :func:`occupational_exposure_rating` quotes them)::

    no exposure model on any activity   -> "NR", or "0-1" when the SAT's health concern
                                            names dermal or inhalation
    both highest doses 0, or 0 workers  -> "0-1"
    highest inhalation dose = 0         -> "1"    (dermal exposure only)
                            < 1 mg/day  -> "1-2"
                            <= 10       -> "2"
                            > 10        -> "2-3"
    then, for a band only, the workers:  < 10 "A", < 100 "B", >= 1000 "D", else "C"

Read from the stored results here: an exposure model is an exposure of a computed use
(``result["exposures"]``); the highest dermal and inhalation doses are the highest
``mg_day`` of any estimate of any exposure by that route, over every use (ChemSTEER: over
every operation, activity and output, ``arExpModEst[·, 8|4, ·]``); the workers are the uses'
workers added up (ChemSTEER: ``arOpNumWorkers[1, op]`` summed over the operations), each
use's counted as the criteria below count them (:func:`use_criteria`). ChemSTEER's SAT
flags (``lblSatHReq[0]`` Dermal, ``[2]`` Inhalation) are read from the case's SAT health
concerns, which hold ChemSTEER's Health line ("Dermal, Inhalation"): a word "dermal" or
"inhalation" in it. A use not computed yet adds nothing and is named beside the rating;
with no use computed at all the rating is not derived (blank), as ChemSTEER's rating is
blank until its rule first runs.

The rating stored on the assessment (``Assessment.occupational_exposure_rating``) is the
reviewer's override, given with a reason; the IRER prints the override when there is one,
else the derived rating (:func:`printed_rating`).

**The criteria.** What ChemSTEER counts, for an exposure-based review, is how many of EPA's
exposure-based review criteria the case meets (``ChemStrX.resetExpBasedCriteria``)::

    count = [more than 1,000 workers]
          + [more than 100 workers with more than 10 mg/day by inhalation]
          + ([more than 100 workers with 1-10 mg/day by inhalation for more than 100 days/yr]
             or [routine dermal contact for more than 250 workers over more than 100 days/yr])

In ChemSTEER the engineer answers each criterion; here each is counted from the stored
results and shown beside the rating, in words.

Workers are those of the results: an activity's workers per site times the use's sites
(``result["facts"]["sites"]``). The workers of one use are counted once (the use's
distinct workers, or for one criterion its largest activity that meets it, since the
same people may do several activities); the uses' counts are added up (different sites).
An activity's dose is its highest estimate in mg/day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # types only: the models read this module (Assessment.derived_rating)
    from .models import Assessment, Scenario, Submission

#: ChemSTEER's warning (title "Missing Information") when the IRER is saved without a rating.
MISSING_RATING_TITLE = "Missing Information"
MISSING_RATING = (
    "Your assessment currently does not have an Occupational Exposure Rating specified. "
    "Are you sure you want to continue?"
)

# The criteria's thresholds (ChemSTEER v3.2, frmMain's exposure-based review criteria).
MANY_WORKERS = 1000
HIGH_INHALATION_MG_DAY = 10.0
HIGH_INHALATION_WORKERS = 100
MODERATE_INHALATION_MG_DAY = (1.0, 10.0)
MODERATE_INHALATION_WORKERS = 100
DERMAL_WORKERS = 250
ROUTINE_DAYS = 100

CRITERIA_COUNT = "Exposure-based review criteria met: {count} of 3 (ChemSTEER's count, from the computed results)."
CRITERION_WORKERS = "More than 1,000 workers exposed: {answer} ({workers:,} workers over all sites)."
CRITERION_HIGH_INHALATION = (
    "More than 100 workers exposed by inhalation to more than 10 mg/day: {answer} ({workers:,} workers)."
)
CRITERION_MODERATE = (
    "More than 100 workers exposed by inhalation to 1-10 mg/day for more than 100 days/yr ({moderate:,} workers), "
    "or routine dermal contact for more than 250 workers over more than 100 days/yr ({dermal:,} workers): {answer}."
)
NOT_EXPOSURE_BASED = "This review is not marked exposure-based; ChemSTEER counts these criteria only for one that is."
NOT_COMPUTED = "Not counted: uses not computed yet ({titles})."
THE_RATING_IS_YOURS = (
    "These criteria are for the exposure-based review; the rating is derived by ChemSTEER's own rule, "
    "shown above, and may be overridden with a reason."
)

# --- The rating: ChemSTEER v3.2's rule (ChemStrX.SetOER) ------------------------------------

#: The inhalation dose bands' limits [mg/day] (ChemStrX.SetOER: ``array[1] < 1f`` -> "1-2";
#: ``!(array[1] <= 10f)`` -> "2-3", so 1 to 10 inclusive -> "2").
BAND_LOW_MG_DAY = 1.0
BAND_HIGH_MG_DAY = 10.0
#: The worker-count letters' limits (ChemStrX.SetOER: ``num < 10`` "A", ``num < 100`` "B",
#: ``num >= 1000`` "D", otherwise "C").
LETTER_B_WORKERS = 10
LETTER_C_WORKERS = 100
LETTER_D_WORKERS = 1000
#: ChemSTEER's ratings with no letter.
NOT_RATED = "NR"
LOWEST = "0-1"
#: The SAT health concerns that make a case with no exposure model "0-1" rather than "NR"
#: (ChemSTEER's ``lblSatHReq[0]`` "Dermal" and ``lblSatHReq[2]`` "Inhalation").
SAT_EXPOSURE_ROUTES = re.compile(r"\b(dermal|inhalation)\b", re.IGNORECASE)

DERIVED_RATING = "Occupational exposure rating derived from the results (ChemSTEER's rule): {rating}."
DERIVED_BASIS = (
    "Highest inhalation dose {inhalation} mg/day, highest dermal dose {dermal} mg/day, "
    "{workers:,} workers over all uses and sites."
)
NO_EXPOSURE_MODELS = "No use estimates a worker exposure."
SAT_ROUTE_NAMED = "The SAT's health concerns name dermal or inhalation exposure."
NOT_DERIVED = "Not derived: no use is computed yet."
OVERRIDDEN = "The IRER prints the reviewer's rating {override} instead (derived: {derived}). Reason: {reason}"
RATING_BESIDE_WORKERS = (
    "The IRER prints the occupational exposure rating as {printed} beside {workers:,} exposed workers "
    "(derived from the results: {derived})."
)


def occupational_exposure_rating(
    *, has_exposure_models: bool, sat_dermal_or_inhalation: bool, max_dermal_mg_day: float,
    max_inhalation_mg_day: float, workers: int,
) -> str:
    """ChemSTEER v3.2's occupational exposure rating: a dose band and a worker letter.

    From ``ChemStrX.SetOER()`` (decompilation/source/ChemSteer/ChemStrX.cs, ChemSteer4),
    verbatim::

        string text = ((!flag) ? ((!((lblSatHReq[0].Text == "Yes") | (lblSatHReq[2].Text == "Yes")))
            ? "NR" : "0-1") : ((((array[0] == 0f) & (array[1] == 0f)) || num == 0) ? "0-1"
            : ((array[1] == 0f) ? "1" : ((array[1] < 1f) ? "1-2"
            : ((!(array[1] <= 10f)) ? "2-3" : "2")))));
        if (text != "NR" & text != "0-1")
            text2 = ((num < 10) ? "A" : ((num < 100) ? "B" : ((num >= 1000) ? "D" : "C")));
        lblOccExpRating.Text = text + text2;

    (``flag``: an exposure model exists; ``array[0]``/``array[1]``: the highest dermal and
    inhalation potential dose rates [mg/day]; ``num``: the total workers.)

    Parameters
    ----------
    has_exposure_models : any activity has an exposure model
    sat_dermal_or_inhalation : the SAT's health concern names dermal or inhalation
    max_dermal_mg_day : the highest dermal potential dose rate [mg/day]
    max_inhalation_mg_day : the highest inhalation potential dose rate [mg/day]
    workers : the total workers exposed [-]

    >>> rate = lambda i, w, d=5.0: occupational_exposure_rating(has_exposure_models=True,
    ...     sat_dermal_or_inhalation=False, max_dermal_mg_day=d, max_inhalation_mg_day=i, workers=w)
    >>> rate(0, 9), rate(0.99, 10), rate(1, 99), rate(10, 100), rate(10.01, 999), rate(50, 1000)
    ('1A', '1-2B', '2B', '2C', '2-3C', '2-3D')
    >>> rate(0, 50, d=0), rate(3, 0)
    ('0-1', '0-1')
    >>> occupational_exposure_rating(has_exposure_models=False, sat_dermal_or_inhalation=False,
    ...     max_dermal_mg_day=0, max_inhalation_mg_day=0, workers=66)
    'NR'
    >>> occupational_exposure_rating(has_exposure_models=False, sat_dermal_or_inhalation=True,
    ...     max_dermal_mg_day=0, max_inhalation_mg_day=0, workers=66)
    '0-1'
    """
    if not has_exposure_models:
        return LOWEST if sat_dermal_or_inhalation else NOT_RATED
    if (max_dermal_mg_day == 0 and max_inhalation_mg_day == 0) or workers == 0:
        return LOWEST
    if max_inhalation_mg_day == 0:
        band = "1"
    elif max_inhalation_mg_day < BAND_LOW_MG_DAY:
        band = "1-2"
    elif max_inhalation_mg_day <= BAND_HIGH_MG_DAY:
        band = "2"
    else:
        band = "2-3"
    if workers < LETTER_B_WORKERS:
        letter = "A"
    elif workers < LETTER_C_WORKERS:
        letter = "B"
    elif workers >= LETTER_D_WORKERS:
        letter = "D"
    else:
        letter = "C"
    return band + letter


def sat_names_exposure_route(sat_health: str) -> bool:
    """Whether the SAT's health concerns name dermal or inhalation exposure.

    >>> sat_names_exposure_route("Dermal, Drinking Water"), sat_names_exposure_route("Drinking Water")
    (True, False)
    """
    return bool(SAT_EXPOSURE_ROUTES.search(sat_health or ""))


@dataclass
class DerivedRating:
    """The rating derived from the stored results, and what it was derived from."""

    rating: str
    has_exposure_models: bool = False
    sat_dermal_or_inhalation: bool = False
    max_dermal_mg_day: float = 0.0
    max_inhalation_mg_day: float = 0.0
    workers: int = 0
    not_computed: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The derived rating and its basis, in words, as the pages show them."""
        if not self.rating:
            return [NOT_DERIVED]
        lines = [DERIVED_RATING.format(rating=self.rating)]
        if self.has_exposure_models:
            lines.append(DERIVED_BASIS.format(
                inhalation=f"{self.max_inhalation_mg_day:.3g}", dermal=f"{self.max_dermal_mg_day:.3g}",
                workers=self.workers,
            ))
        else:
            lines.append(NO_EXPOSURE_MODELS)
            if self.sat_dermal_or_inhalation:
                lines.append(SAT_ROUTE_NAMED)
        if self.not_computed:
            lines.append(NOT_COMPUTED.format(titles=", ".join(self.not_computed)))
        return lines


def _highest_dose(exposure: dict[str, Any]) -> float:
    doses = [_number(e.get("mg_day")) for e in exposure.get("estimates") or []]
    return max((d for d in doses if d is not None), default=0.0)


def derive_rating(*, scenarios: Iterable[Scenario], sat_health: str = "") -> DerivedRating:
    """The occupational exposure rating ChemSTEER's rule gives for the uses' stored results
    (:func:`occupational_exposure_rating`); blank when no use is computed."""
    derived = DerivedRating(rating="", sat_dermal_or_inhalation=sat_names_exposure_route(sat_health))
    computed = 0
    for scenario in scenarios:
        if not scenario.result:
            derived.not_computed.append(scenario.title)
            continue
        computed += 1
        derived.workers += use_criteria(scenario.result).workers
        for exposure in scenario.result.get("exposures") or []:
            derived.has_exposure_models = True
            dose = _highest_dose(exposure)
            if exposure.get("route") == "inhalation":
                derived.max_inhalation_mg_day = max(derived.max_inhalation_mg_day, dose)
            elif exposure.get("route") == "dermal":
                derived.max_dermal_mg_day = max(derived.max_dermal_mg_day, dose)
    if computed:
        derived.rating = occupational_exposure_rating(
            has_exposure_models=derived.has_exposure_models,
            sat_dermal_or_inhalation=derived.sat_dermal_or_inhalation,
            max_dermal_mg_day=derived.max_dermal_mg_day,
            max_inhalation_mg_day=derived.max_inhalation_mg_day,
            workers=derived.workers,
        )
    return derived


def _scenarios(assessment: Assessment, scenarios: Iterable[Scenario] | None) -> list[Scenario]:
    return list(assessment.scenarios.all()) if scenarios is None else list(scenarios)


def _case(assessment: Assessment) -> Submission:
    return getattr(assessment, "case_data", None) or assessment.submission


def assessment_rating(*, assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> DerivedRating:
    """The rating derived for ``assessment`` from its uses' results and its case's SAT concerns."""
    return derive_rating(scenarios=_scenarios(assessment, scenarios), sat_health=_case(assessment).sat_health)


def printed_rating(assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> str:
    """The rating the IRER prints: the reviewer's override when there is one, else the
    rating derived from the results (blank when neither)."""
    if assessment.occupational_exposure_rating:
        return assessment.occupational_exposure_rating
    return assessment_rating(assessment=assessment, scenarios=scenarios).rating


def rating_warnings(assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> list[str]:
    """The warnings about the rating the IRER would print, for the pages and the command
    line: ChemSTEER's "Missing Information" when it prints none, and a warning when it
    prints "NR" (or none) beside exposed workers."""
    scenarios = _scenarios(assessment, scenarios)
    derived = assessment_rating(assessment=assessment, scenarios=scenarios)
    printed = assessment.occupational_exposure_rating or derived.rating
    warnings = []
    if not printed:
        warnings.append(f"{MISSING_RATING_TITLE}: {MISSING_RATING}")
    if printed in ("", NOT_RATED) and derived.workers > 0:
        warnings.append(RATING_BESIDE_WORKERS.format(
            printed=printed or "blank", workers=derived.workers, derived=derived.rating or "not derived",
        ))
    return warnings


@dataclass
class Criteria:
    """Workers meeting each criterion, over all uses, and the count ChemSTEER keeps."""

    workers: int = 0
    high_inhalation_workers: int = 0
    moderate_inhalation_workers: int = 0
    dermal_workers: int = 0
    not_computed: list[str] = field(default_factory=list)

    @property
    def many_workers(self) -> bool:
        return self.workers > MANY_WORKERS

    @property
    def high_inhalation(self) -> bool:
        return self.high_inhalation_workers > HIGH_INHALATION_WORKERS

    @property
    def moderate_or_dermal(self) -> bool:
        return self.moderate_inhalation_workers > MODERATE_INHALATION_WORKERS or self.dermal_workers > DERMAL_WORKERS

    @property
    def count(self) -> int:
        return int(self.many_workers) + int(self.high_inhalation) + int(self.moderate_or_dermal)

    def lines(self, *, exposure_based: bool) -> list[str]:
        """The criteria in words, as shown beside the rating."""

        def yes(flag: bool) -> str:
            return "yes" if flag else "no"

        lines = [
            CRITERIA_COUNT.format(count=self.count),
            CRITERION_WORKERS.format(answer=yes(self.many_workers), workers=self.workers),
            CRITERION_HIGH_INHALATION.format(answer=yes(self.high_inhalation), workers=self.high_inhalation_workers),
            CRITERION_MODERATE.format(
                answer=yes(self.moderate_or_dermal), moderate=self.moderate_inhalation_workers,
                dermal=self.dermal_workers,
            ),
        ]
        if not exposure_based:
            lines.append(NOT_EXPOSURE_BASED)
        if self.not_computed:
            lines.append(NOT_COMPUTED.format(titles=", ".join(self.not_computed)))
        lines.append(THE_RATING_IS_YOURS)
        return lines


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _workers(per_site: float, sites: float) -> int:
    """Workers at every site, whole: exact, so a count beyond a double's range (a huge
    production volume gives as many sites) is still a number the criteria compare."""
    return round(Fraction(per_site) * Fraction(sites))


def use_criteria(result: dict[str, Any]) -> Criteria:
    """The criteria's workers for one use's stored result."""
    facts = result.get("facts") or {}  # none in a result computed before the engine declared them
    sites = _number(facts.get("sites")) or 0
    exposures = result.get("exposures") or []
    high = moderate = dermal = 0
    largest = 0
    for exposure in exposures:
        per_site = _number(exposure.get("workers_per_site")) or 0
        workers = _workers(per_site, sites)
        largest = max(largest, workers)
        doses = [_number(e.get("mg_day")) for e in exposure.get("estimates") or []]
        known = [d for d in doses if d is not None]
        dose = max(known) if known else None
        days = _number(exposure.get("days_per_year")) or 0
        route = exposure.get("route")
        if dose is None:
            continue
        if route == "inhalation" and dose > HIGH_INHALATION_MG_DAY:
            high = max(high, workers)
        low, top = MODERATE_INHALATION_MG_DAY
        if route == "inhalation" and low <= dose <= top and days > ROUTINE_DAYS:
            moderate = max(moderate, workers)
        if route == "dermal" and dose > 0 and days > ROUTINE_DAYS:
            dermal = max(dermal, workers)
    distinct = _number(facts.get("workers_per_site"))
    total = _workers(distinct, sites) if distinct is not None else largest
    return Criteria(workers=total, high_inhalation_workers=high, moderate_inhalation_workers=moderate,
                    dermal_workers=dermal)


def exposure_based_criteria(*, scenarios: Iterable[Scenario]) -> Criteria:
    """The criteria over all the uses of an assessment (its scenarios' stored results)."""
    total = Criteria()
    for scenario in scenarios:
        if not scenario.result:
            total.not_computed.append(scenario.title)
            continue
        use = use_criteria(scenario.result)
        total.workers += use.workers
        total.high_inhalation_workers += use.high_inhalation_workers
        total.moderate_inhalation_workers += use.moderate_inhalation_workers
        total.dermal_workers += use.dermal_workers
    return total


def rating_help(*, assessment: Assessment, scenarios: Iterable[Scenario] | None = None) -> dict[str, Any]:
    """What the pages show beside the rating: ``{"derived", "derived_lines", "override",
    "reason", "printed", "overridden_line", "workers_warning", "lines", "count", "missing",
    "missing_title", "missing_text"}``; ``missing`` true when the IRER would print no
    rating (ChemSTEER's warning), ``workers_warning`` when it prints "NR" or none beside
    exposed workers."""
    scenarios = _scenarios(assessment, scenarios)
    criteria = exposure_based_criteria(scenarios=scenarios)
    derived = assessment_rating(assessment=assessment, scenarios=scenarios)
    override = assessment.occupational_exposure_rating
    printed = override or derived.rating
    warnings = rating_warnings(assessment, scenarios)
    return {
        "derived": derived.rating,
        "derived_lines": derived.lines(),
        "override": override,
        "reason": assessment.occupational_exposure_rating_reason,
        "printed": printed,
        "overridden_line": OVERRIDDEN.format(
            override=override, derived=derived.rating or "not derived",
            reason=assessment.occupational_exposure_rating_reason or "none given",
        ) if override else "",
        "workers_warning": next((w for w in warnings if not w.startswith(MISSING_RATING_TITLE)), ""),
        "lines": criteria.lines(exposure_based=assessment.exposure_based_review),
        "count": criteria.count,
        "missing": not printed,
        "missing_title": MISSING_RATING_TITLE,
        "missing_text": MISSING_RATING,
    }
