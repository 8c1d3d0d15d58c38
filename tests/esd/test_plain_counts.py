"""The engine's sentences count and share as a reviewer reads them: "1 site", "2 sites"
(never "1 sites" or "site(s)"), and a share or a change that is not zero never reads "0 %"."""

from __future__ import annotations

import re

import pytest

from assessments.esd import registry
from assessments.esd.text import change, count, figure, given, num, share

# --- The helpers -------------------------------------------------------------------------


@pytest.mark.parametrize("n, noun, shown, expected", [
    (1, "site", None, "1 site"),
    (2, "site", None, "2 sites"),
    (0, "worker", None, "0 workers"),
    (2924, "container", None, "2,924 containers"),
    (1.0, "day", num, "1 day"),
    (360.0, "day", num, "360 days"),
    (0.5, "day", given, "0.5 days"),
    (1.0004, "container", figure, "1 container"),  # agrees with the number as printed
    (1.98, "container", figure, "1.98 containers"),
])
def test_a_count_agrees_with_its_number(n, noun, shown, expected):
    assert count(n, noun, shown=shown) == expected


def test_a_noun_without_an_s_plural_takes_its_own():
    assert (count(1, "batch", "batches"), count(3, "batch", "batches")) == ("1 batch", "3 batches")


@pytest.mark.parametrize("x, expected", [
    (0.0, "0 %"),
    (3e-9, "< +0.1 %"),      # not zero: never "0 %"
    (-2.2e-16, "> -0.1 %"),
    (0.0009, "< +0.1 %"),
    (0.001, "+0.1 %"),
    (0.0060362, "+0.604 %"),
    (-0.006, "-0.6 %"),
    (12.345, "+1,234 %"),    # whole figures, never 1.23e+03
])
def test_a_change_reads_0_percent_only_when_there_is_none(x, expected):
    assert change(x) == expected


@pytest.mark.parametrize("part, whole, expected", [
    (0, 5000, "0 %"),
    (0.002, 5000, "< 0.1 %"),
    (5, 5000, "0.1 %"),
    (5030.18, 5000, "100.6 %"),
    (1_234_567, 100, "1,234,567 %"),
])
def test_a_share_reads_0_percent_only_when_it_is_zero(part, whole, expected):
    assert share(part, whole) == expected


# --- In the scenarios' sentences ---------------------------------------------------------


def test_the_2004_warning_of_a_small_excess_does_not_say_0_percent():
    # ESD 2004 §4 inputs (Fchem 0.15: Qchem_day = 36 × 0.15 = 5.4 kg/site-day, 360 days).
    # Eqn 3-3 by hand: 0.994 × Qchem_yr ÷ (5.4 × 360) is 2.982 for Qchem_yr = 5,832 kg/yr, rounded
    # up to 3 sites, which release 5.4 × 360 × 3 = 5,832 kg/yr: exactly the production volume.
    # Three parts in a billion less production volume: the releases exceed it by 3E-7 %.
    pv = 5832 * (1 - 3e-9)
    result = registry.compute("photoresist-2004", {"Qchem_yr": pv, "Fchem": 0.15})
    (warning,) = [w for w in result.warnings if "against the production volume" in w]
    assert "5,832 kg/yr, < +0.1 % against the production volume" in warning
    assert "0 %" not in warning
    # at exactly the production volume, no excess and no warning
    exact = registry.compute("photoresist-2004", {"Qchem_yr": 5832.0, "Fchem": 0.15})
    assert not [w for w in exact.warnings if "against the production volume" in w]


#: "1" then a plural count, or a "(s)" left to the reader.
WRONG_PLURAL = re.compile(
    r"(?<![\d.,])1 (?:(?:production|supplier|distinct|application|operating) )?"
    r"(?:sites|workers|days|containers|operators|technicians|lines|shifts|cleanings|times)\b|\w\(s\)")

#: Every count the scenarios' inputs hold, at one (the inputs a scenario lacks are left out).
ONES = {
    "Nsites": 1, "TIMEapply_days": 1, "TIME_operating_days": 1, "max_exposure_days": 1,
    "Nworkers_site": 1, "Nworkers_low": 1, "Nworkers_high": 1,
    "Noperators_line_shift": 1, "Nlines_site": 1, "Nshifts_day": 1, "Ntechs_shift": 1, "cleanings_per_year": 1,
    "Vcont": 1000.0,  # one container a year: Eqn 4-1a's few containers
    "supplier_site": "yes", "Nsites_supplier": 1, "Nworkers_supplier": 1, "TIME_operating_days_supplier": 1,
}
VARIANTS = {
    "one site": {"Nsites": 1},
    "one site, one supplier site and one worker each": {
        "Nsites": 1, "supplier_site": "yes", "Nsites_supplier": 1, "Nworkers_supplier": 1, "Nworkers_site": 1},
    "every count at one": ONES,
}


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def _inputs(scenario, variant: dict, vapour_pressure: float) -> dict:
    inputs = {"Qchem_yr": 5000.0}
    for param in scenario.params.params:
        case_value = {"vapour_pressure_torr": vapour_pressure, "molecular_weight": 200.0,
                      "use_concentration": 0.15}.get(param.from_case)
        if case_value is not None:
            inputs[param.symbol] = case_value
    inputs.update({symbol: value for symbol, value in variant.items() if symbol in scenario.params})
    return inputs


@pytest.mark.parametrize("vapour_pressure", [1.0, 5.0], ids=["low VP", "volatile"])
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("scenario", registry.scenarios(), ids=lambda s: s.key)
def test_no_sentence_says_1_sites(scenario, variant, vapour_pressure):
    result = scenario.compute(_inputs(scenario, VARIANTS[variant], vapour_pressure)).as_dict()
    texts = list(_texts({key: value for key, value in result.items() if key != "inputs"}))
    wrong = [text[max(m.start() - 50, 0): m.end() + 20] for text in texts for m in WRONG_PLURAL.finditer(text)]
    assert not wrong, wrong
    if VARIANTS[variant] is ONES:  # the counts are there, in the singular
        assert any(re.search(r"(?<![\d.,])1 (?:production )?(?:site|worker)\b", text) for text in texts)


def test_the_2004_releases_are_from_1_site_over_1_day():
    result = registry.compute("photoresist-2004", {"Qchem_yr": 5000.0, "Fchem": 0.15, "Nsites": 1,
                                                   "TIMEapply_days": 1})
    bases = [e.basis for r in result.releases for e in r.estimates]
    assert bases and all("over 1 day/yr from 1 site;" in basis for basis in bases)


def test_the_cvd_supplier_basis_counts_one_worker_and_one_site():
    result = registry.compute("cvd-2015", {"Qchem_yr": 5000.0, "VP_chem": 5.0, "MW_chem": 200.0, "supplier_site": "yes",
                                           "Nsites_supplier": 1, "Nworkers_supplier": 1, "Nworkers_site": 1})
    assert result.facts.workers_basis.startswith("Up to 1 worker per supplier site, handling and cleaning")
    assert "up to 1 production worker per fab working on CVD" in result.facts.workers_basis
