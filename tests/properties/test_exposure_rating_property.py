"""The occupational exposure rating derived from the computed results
(``assessments.exposure_rating``) is ChemSTEER v3.2's rule, for every registered scenario,
over inputs drawn within each input's declared range, read off the results as the module
says it reads them, and what the IRER prints and warns about follows it.

The rule, re-read here from ChemSTEER v3.2's ``ChemStrX.SetOER()``
(decompilation/source/ChemSteer/ChemStrX.cs in the public ChemSteer4 repository, the
statements ``string text = ...`` and ``text2 = ...`` at its end)::

    text  = !flag ? (SAT "Dermal" or "Inhalation" is "Yes" ? "0-1" : "NR")
          : (dermal == 0 & inhalation == 0) || workers == 0 ? "0-1"
          : inhalation == 0 ? "1" : inhalation < 1 ? "1-2" : !(inhalation <= 10) ? "2-3" : "2"
    text2 = text is "NR" or "0-1" ? "" : workers < 10 ? "A" : workers < 100 ? "B"
          : workers >= 1000 ? "D" : "C"
    rating = text + text2

``flag``: an exposure model exists; ``dermal``/``inhalation``: the highest potential dose
rates [mg/day]; ``workers``: the total workers. :func:`setoer` below states it again with
the source's own numbers (1, 10 mg/day; 10, 100, 1000 workers), not the module's constants,
so a change to either one fails a test here.

What the rule reads, from the stored results (the module's docstring): an exposure model is
an exposure of a computed use; the highest dose of a route is the highest ``mg_day`` of any
estimate of any exposure by that route, over every use; the workers are each computed use's
distinct workers a site times its sites (``facts``), added up over the uses; the SAT flags
are a word "dermal" or "inhalation" in the case's SAT health concerns. With no use computed
the rating is blank. The IRER prints the reviewer's override when there is one, else the
derived rating; it warns (ChemSTEER's "Missing Information") when it prints none, and when
it prints "NR" or none beside exposed workers.

Inputs: a plain case, a worked example or a branch of the scenario
(``tests.contract.varied_inputs.input_sets``), with up to three declared inputs moved within
their declared ranges (``tests.properties.strategies.in_range``); inputs the engine refuses
are drawn again. Computed by the engine directly: no database.

Examples per test: ``PMN_PROPERTY_EXAMPLES`` (default 4, 1 in CI); about 0.01 s an example.
The rule's limits themselves are checked at every limit and either side of it, every run
(:func:`test_the_derived_rating_is_setoers_at_each_of_its_limits`).
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import math
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError
from assessments.exposure_rating import (
    MISSING_RATING,
    MISSING_RATING_TITLE,
    OVERRIDDEN,
    RATING_BESIDE_WORKERS,
    derive_rating,
    printed_rating,
    rating_help,
    rating_warnings,
)
from assessments.models import Assessment, Submission
from assessments.models.case_fields import OCCUPATIONAL_EXPOSURE_RATINGS
from tests.contract.varied_inputs import input_sets
from tests.properties.strategies import in_range

EXAMPLES = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))
KEYS = [s.key for s in registry.scenarios()]
PROPERTY = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

#: SAT health concerns as ChemSTEER's Health line holds them.
SAT_HEALTH = ("", "Dermal, Inhalation", "Dermal", "inhalation", "Drinking Water", "Drinking Water, Fish Ingestion",
              "Dermal, Drinking Water")


# --- The rule, stated again from SetOER's text -------------------------------------------------


def setoer(*, flag: bool, sat_route: bool, dermal: float, inhalation: float, workers: int) -> str:
    """ChemSTEER v3.2's ``SetOER()`` rating, transcribed from its two statements."""
    if not flag:
        return "0-1" if sat_route else "NR"
    if (dermal == 0 and inhalation == 0) or workers == 0:
        return "0-1"
    if inhalation == 0:
        text = "1"
    elif inhalation < 1:
        text = "1-2"
    elif not inhalation <= 10:
        text = "2-3"
    else:
        text = "2"
    if workers < 10:
        return text + "A"
    if workers < 100:
        return text + "B"
    if workers >= 1000:
        return text + "D"
    return text + "C"


def sat_names_a_route(sat_health: str) -> bool:
    """A word "dermal" or "inhalation" among the SAT's health concerns."""
    return bool({word.lower() for word in re.findall(r"[A-Za-z]+", sat_health)} & {"dermal", "inhalation"})


def figures(uses) -> dict:
    """What SetOER reads, read off the uses' stored results."""
    computed = [use.result for use in uses if use.result]
    exposures = [exposure for result in computed for exposure in result.get("exposures") or []]

    def highest(route: str) -> float:
        doses = [estimate["mg_day"] for exposure in exposures if exposure["route"] == route
                 for estimate in exposure["estimates"] if estimate.get("mg_day") is not None]
        return max(doses, default=0.0)

    workers = 0
    for result in computed:
        facts = result["facts"]
        per_site = facts.get("workers_per_site")
        if per_site is None:  # before the engine declared distinct workers: the largest activity's
            per_site = max((exposure["workers_per_site"] for exposure in result.get("exposures") or []), default=0)
        # Workers at every site, whole, exactly (a product of doubles may round, or pass 1.8e308).
        workers += round(Fraction(float(per_site)) * Fraction(float(facts["sites"])))
    return {"flag": bool(exposures), "dermal": highest("dermal"), "inhalation": highest("inhalation"),
            "workers": workers, "computed": bool(computed)}


def expected_rating(uses, sat_health: str) -> str:
    found = figures(uses)
    if not found["computed"]:
        return ""
    return setoer(flag=found["flag"], sat_route=sat_names_a_route(sat_health), dermal=found["dermal"],
                  inhalation=found["inhalation"], workers=found["workers"])


#: The bands and letters from lowest to highest; "NR" is outside the order (not rated).
BANDS = ("0-1", "1", "1-2", "2", "2-3")
LETTERS = ("", "A", "B", "C", "D")


def rank(rating: str) -> tuple[int, int]:
    band = max((b for b in BANDS if rating.startswith(b)), key=len)
    return BANDS.index(band), LETTERS.index(rating[len(band):])


# --- Uses computed by the engine ---------------------------------------------------------------


@dataclass
class Use:
    """What the rating reads of a use (``Scenario.title`` and ``.result``), without a database row."""

    title: str
    result: dict | None = field(repr=False)

    def __repr__(self) -> str:
        if not self.result:
            return f"Use({self.title!r}, not computed)"
        exposures = [(e["route"], e["workers_per_site"], max((x["mg_day"] for x in e["estimates"]), default=None))
                     for e in self.result.get("exposures") or []]
        return f"Use({self.title!r}, facts={self.result['facts']!r}, exposures={exposures!r})"


@functools.cache
def _bases(key: str) -> tuple[dict, ...]:
    return tuple(input_sets(registry.get(key)))


def _stored(key: str, inputs: dict) -> dict | None:
    """The result as a use stores it (``Result.as_dict()`` through JSON); None if the engine
    refuses the inputs."""
    try:
        result = json.loads(json.dumps(registry.compute(key, inputs).as_dict()))
    except EngineValidationError:
        return None
    return result


def _workers_fit_a_double(result: dict) -> bool:
    """Whether each count of workers (workers a site times the sites) is a finite double;
    not so past 1.8e308 (:func:`test_a_use_with_more_workers_than_a_double_holds_is_still_rated`)."""
    sites = float(result["facts"]["sites"])
    per_site = [result["facts"].get("workers_per_site") or 0]
    per_site += [exposure["workers_per_site"] or 0 for exposure in result.get("exposures") or []]
    return all(math.isfinite(sites * float(workers)) for workers in per_site)


def stored_results(key: str) -> st.SearchStrategy[dict]:
    """One use's stored result: a plain case, worked example or branch, with up to three
    declared inputs moved within their declared ranges."""
    params = registry.get(key).params
    # Symbols and positions, not declarations and dicts, are sampled: short reprs for hypothesis.
    moved = st.lists(st.sampled_from([p.symbol for p in params.params]), max_size=3, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({symbol: in_range(params[symbol]) for symbol in chosen}))
    base = st.integers(0, len(_bases(key)) - 1).map(_bases(key).__getitem__)
    inputs = st.tuples(base, moved).map(lambda pair: {**pair[0], **pair[1]})
    return inputs.map(functools.partial(_stored, key)).filter(lambda result: result is not None)


@st.composite
def uses(draw, key: str, *, min_computed: int = 1) -> list[Use]:
    """Up to three computed uses of the scenario, and perhaps one not computed yet."""
    results = draw(st.lists(stored_results(key), min_size=min_computed, max_size=3))
    found = [Use(f"{key} use {n}", result) for n, result in enumerate(results, 1)]
    if draw(st.booleans()):
        found.append(Use("Not computed yet", None))
    return found


def scaled(use: Use, *, dose_factor: float, routes: frozenset[str], site_factor: int) -> Use:
    """``use`` with every estimate of ``routes`` ``dose_factor`` times higher and ``site_factor`` times the sites."""
    if not use.result:
        return use
    result = copy.deepcopy(use.result)
    result["facts"]["sites"] *= site_factor
    for exposure in result.get("exposures") or []:
        if exposure["route"] in routes:
            for estimate in exposure["estimates"]:
                if estimate.get("mg_day") is not None:
                    estimate["mg_day"] *= dose_factor
    return Use(use.title, result)


# --- The properties ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_the_derived_rating_is_setoers_rule_over_the_results(key):
    @PROPERTY
    @given(found=uses(key, min_computed=0), sat_health=st.sampled_from(SAT_HEALTH))
    def check(found, sat_health):
        derived = derive_rating(scenarios=found, sat_health=sat_health)
        read = figures(found)
        assert derived.rating == expected_rating(found, sat_health), (read, sat_health)
        assert derived.rating in ("", *OCCUPATIONAL_EXPOSURE_RATINGS)
        assert (derived.rating == "") == (not read["computed"])
        assert (derived.has_exposure_models, derived.max_dermal_mg_day, derived.max_inhalation_mg_day,
                derived.workers) == (read["flag"], read["dermal"], read["inhalation"], read["workers"])
        assert derived.not_computed == [use.title for use in found if not use.result]

    check()


@pytest.mark.parametrize("key", KEYS)
def test_more_exposure_or_more_workers_never_lowers_the_rating(key):
    @PROPERTY
    @given(found=uses(key), more=uses(key, min_computed=0), sat_health=st.sampled_from(SAT_HEALTH),
           dose_factor=st.floats(1.0, 1e4), routes=st.sampled_from([frozenset({"dermal"}), frozenset({"inhalation"}),
                                                                     frozenset({"dermal", "inhalation"})]),
           site_factor=st.integers(1, 50))
    def check(found, more, sat_health, dose_factor, routes, site_factor):
        before = derive_rating(scenarios=found, sat_health=sat_health).rating
        higher = [scaled(use, dose_factor=dose_factor, routes=routes, site_factor=site_factor) for use in found]
        after = derive_rating(scenarios=higher + more, sat_health=sat_health).rating
        if before == "NR":  # not rated: no exposure model, nothing to be lower than
            return
        (band, letter), (band_after, letter_after) = rank(before), rank(after)
        assert band_after >= band and letter_after >= letter, (before, after, dose_factor, routes, site_factor)

    check()


def assert_prints_and_warns_as_chemsteer_does(found, *, sat_health: str, override: str, reason: str) -> None:
    """The IRER prints ``override`` (with its reason, naming the derived rating), else the
    derived rating; it warns when it prints none, and when it prints "NR" or none beside
    exposed workers."""
    assessment = Assessment(submission=Submission(sat_health=sat_health), occupational_exposure_rating=override,
                            occupational_exposure_rating_reason=reason if override else "")
    derived = expected_rating(found, sat_health)
    workers = figures(found)["workers"]
    printed = override or derived
    assert printed_rating(assessment, found) == printed

    warnings = []
    if not printed:
        warnings.append(f"{MISSING_RATING_TITLE}: {MISSING_RATING}")
    if printed in ("", "NR") and workers > 0:
        warnings.append(RATING_BESIDE_WORKERS.format(printed=printed or "blank", workers=workers,
                                                     derived=derived or "not derived"))
    assert rating_warnings(assessment, found) == warnings

    shown = rating_help(assessment=assessment, scenarios=found)
    assert (shown["printed"], shown["derived"], shown["missing"]) == (printed, derived, not printed)
    if override:
        assert shown["overridden_line"] == OVERRIDDEN.format(
            override=override, derived=derived or "not derived", reason=reason or "none given")
        if override != derived:
            assert f"(derived: {derived or 'not derived'})" in shown["overridden_line"]
    else:
        assert shown["overridden_line"] == ""


@pytest.mark.parametrize("key", KEYS)
def test_the_irer_prints_the_override_else_the_derived_rating_and_warns_as_chemsteer_does(key):
    @PROPERTY
    @given(found=uses(key, min_computed=0), sat_health=st.sampled_from(SAT_HEALTH),
           override=st.sampled_from(("", *OCCUPATIONAL_EXPOSURE_RATINGS)),
           reason=st.sampled_from(("", "Spray application not modelled.")))
    def check(found, sat_health, override, reason):
        assert_prints_and_warns_as_chemsteer_does(found, sat_health=sat_health, override=override, reason=reason)

    check()


# --- The rule at its limits, every run ---------------------------------------------------------

#: Each limit of SetOER's expression and the doubles either side of it.
INHALATION_EDGES = (0.0, 5e-324, 0.5, math.nextafter(1.0, 0.0), 1.0, math.nextafter(1.0, 2.0), 5.0,
                    math.nextafter(10.0, 0.0), 10.0, math.nextafter(10.0, 20.0), 1e308)
DERMAL_EDGES = (0.0, 5e-324, 168.0)
WORKER_EDGES = (0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 10**12)


def _one_use(*, flag: bool, dermal: float, inhalation: float, workers: int) -> Use:
    """A stored result of one site with ``workers`` distinct workers and, with ``flag``, a
    dermal and an inhalation exposure of those doses."""
    exposures = [
        {"route": route, "workers_per_site": workers, "days_per_year": 250,
         "estimates": [{"label": "low end", "mg_day": dose / 2}, {"label": "high end", "mg_day": dose}]}
        for route, dose in (("dermal", dermal), ("inhalation", inhalation))
    ] if flag else []
    return Use("Use", {"facts": {"sites": 1, "workers_per_site": workers}, "exposures": exposures})


def test_the_derived_rating_is_setoers_at_each_of_its_limits():
    wrong = []
    for flag, sat_health, dermal, inhalation, workers in itertools.product(
            (True, False), SAT_HEALTH, DERMAL_EDGES, INHALATION_EDGES, WORKER_EDGES):
        use = _one_use(flag=flag, dermal=dermal, inhalation=inhalation, workers=workers)
        rating = derive_rating(scenarios=[use], sat_health=sat_health).rating
        expected = setoer(flag=flag, sat_route=sat_names_a_route(sat_health), dermal=dermal, inhalation=inhalation,
                          workers=workers)
        if rating != expected:
            wrong.append((flag, sat_health, dermal, inhalation, workers, rating, expected))
    assert not wrong, wrong[:10]


def test_every_override_prints_and_warns_as_chemsteer_does_at_each_of_its_limits():
    """Every rating a reviewer may give, or none, beside nothing computed, no exposure model
    (with and without workers), no dose, no workers, and a band with each letter's limit."""
    def no_model(workers):
        return [Use("Use", {"facts": {"sites": 1, "workers_per_site": workers}, "exposures": []})]

    cases = [[], [Use("Not computed yet", None)], no_model(0), no_model(66)]
    cases += [[_one_use(flag=True, dermal=dermal, inhalation=inhalation, workers=workers)]
              for dermal, inhalation, workers in ((168.0, 5.0, 0), (0.0, 0.0, 66), (168.0, 0.0, 9), (0.0, 0.5, 99),
                                                  (168.0, 10.0, 999), (168.0, 50.0, 1000))]
    for found, sat_health, override in itertools.product(cases, ("", "Inhalation", "Drinking Water"),
                                                         ("", *OCCUPATIONAL_EXPOSURE_RATINGS)):
        assert_prints_and_warns_as_chemsteer_does(found, sat_health=sat_health, override=override,
                                                  reason="Spray application not modelled." if override else "")


# --- Beyond a double ----------------------------------------------------------------------------

#: A use whose workers (workers a site times the sites) are past the largest double: the
#: engine computes it, finite (7.67e307 sites of 25 workers), and the rating counts the workers
#: exactly (``exposure_rating._workers``); found by the properties above, where ``round(inf)``
#: once raised OverflowError.
OVERFLOWING = ("photoresist-2004", {"Qchem_yr": 1e307, "Fchem": 1e-5, "VPchem": 0.0})


def test_a_use_with_more_workers_than_a_double_holds_is_still_rated():
    key, inputs = OVERFLOWING
    result = json.loads(json.dumps(registry.compute(key, inputs).as_dict()))
    assert not _workers_fit_a_double(result)  # the engine gives the result; the count overflows
    # Dermal exposure only (VPchem 0): band "1"; workers far past 1,000: "D".
    assert derive_rating(scenarios=[Use("Use", result)]).rating == expected_rating([Use("Use", result)], "") == "1D"
