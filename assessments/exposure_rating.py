"""The occupational exposure rating's help: ChemSTEER's exposure-based review criteria,
counted from the computed results, and its warning when no rating is given.

ChemSTEER v3.2 stores the rating as the engineer chooses it; no rule in it derives a
rating. What it does count, for an exposure-based review, is how many of EPA's
exposure-based review criteria the case meets (``ChemStrX.resetExpBasedCriteria``)::

    count = [more than 1,000 workers]
          + [more than 100 workers with more than 10 mg/day by inhalation]
          + ([more than 100 workers with 1-10 mg/day by inhalation for more than 100 days/yr]
             or [routine dermal contact for more than 250 workers over more than 100 days/yr])

In ChemSTEER the engineer answers each criterion; here each is counted from the stored
results and shown beside the rating, in words, as help: the rating stays the engineer's.

Workers are those of the results: an activity's workers a site times the use's sites
(``result["facts"]["sites"]``). The workers of one use are counted once (the use's
distinct workers, or for one criterion its largest activity that meets it, since the
same people may do several activities); the uses' counts are added up (different sites).
An activity's dose is its highest estimate in mg/day.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .models import Assessment, Scenario
from .presentation import result_facts

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
THE_RATING_IS_YOURS = "ChemSTEER derives no rating from these: the rating is the engineer's choice."


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


def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def use_criteria(result: dict) -> Criteria:
    """The criteria's workers for one use's stored result."""
    facts = result_facts(result)
    sites = _number(facts.get("sites")) or 0
    exposures = result.get("exposures") or []
    high = moderate = dermal = 0
    largest = 0
    for exposure in exposures:
        per_site = _number(exposure.get("workers_per_site")) or 0
        workers = round(per_site * sites)
        largest = max(largest, workers)
        doses = [_number(e.get("mg_day")) for e in exposure.get("estimates") or []]
        doses = [d for d in doses if d is not None]
        dose = max(doses) if doses else None
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
    total = round(distinct * sites) if distinct is not None else largest
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


def rating_help(*, assessment: Assessment, scenarios=None) -> dict:
    """What the pages show beside the rating: ``{"lines", "count", "missing", "missing_title",
    "missing_text"}``; ``missing`` true when no rating is chosen (ChemSTEER's warning)."""
    scenarios = list(assessment.scenarios.all()) if scenarios is None else scenarios
    criteria = exposure_based_criteria(scenarios=scenarios)
    return {
        "lines": criteria.lines(exposure_based=assessment.exposure_based_review),
        "count": criteria.count,
        "missing": not assessment.occupational_exposure_rating,
        "missing_title": MISSING_RATING_TITLE,
        "missing_text": MISSING_RATING,
    }
