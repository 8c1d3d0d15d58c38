"""A site-specific release that takes the total released above the use is flagged.

Submitter data are not capped (the numbers stay as computed) but the reviewer must see
when an entry's release makes the releases add up to more than the chemical used:
``facts.used_kg_yr``, else the ``Qchem_yr`` input. Synthetic scenarios keep the hand
calculations short; every expected figure is worked in a comment.
"""

from __future__ import annotations

import pytest

from assessments.esd import registry
from assessments.esd.parameters import Param, ParamSet, Step
from assessments.esd.registry import Scenario
from assessments.esd.results import Facts, Medium, Release, Result, release_estimate
from assessments.esd.site_data import EXCEEDS_USE, SITE_SPECIFIC
from assessments.esd.text import num

LB = 0.45359237  # kg per lb (NIST)
DAYS = 250


def demo(*kg_yr: float, facts: bool = True, qchem: bool = True) -> Scenario:
    """A scenario using ``Qchem_yr`` kg/yr at one site, with releases of ``kg_yr`` each
    (to water, 250 days, one site) and its facts when ``facts``."""
    symbol = "Qchem_yr" if qchem else "Q"
    params = ParamSet(params=(Param(symbol, "Use", "kg/yr", None, "test", "s", lower=0, required=True),),
                      steps=(Step("s", "S"),))

    def run(v):
        releases = [Release(n, f"Source {n}", "model", "eqn", [Medium("water", 1.0)],
                            [release_estimate("high end", amount / DAYS, DAYS, 1, "b")])
                    for n, amount in enumerate(kg_yr, start=1)]
        used = Facts(sites=1, sites_known=True, operating_days=DAYS, workers_per_site=0,
                     workers_basis="none", used_kg_yr=v[symbol]) if facts else None
        return Result(scenario="demo", inputs=dict(v), facility={}, releases=releases, exposures=[], warnings=[],
                      trace=[], facts=used)

    return Scenario("demo", "Demo", "test", params, run)


def factor_entry(OH: float, replaces: int | None = None, source: str = "stack test 2023") -> dict:
    """1 lb/unit × 1 unit/hr = 1 lb/hr (EIIP Eqn 6.5-3) over ``OH`` hours: OH × 0.45359237 kg/yr."""
    inputs = {"pollutant_class": "voc", "EF_x": 1, "AF": 1, "OH": OH}
    if replaces is None:
        inputs["days_per_year"] = DAYS
    return {"method": "emission_factor", "replaces": replaces, "source": source, "inputs": inputs}


def exceeding(result: Result) -> list[str]:
    return [w for w in result.warnings if "submitter data are not capped" in w]


def test_an_added_release_taking_the_total_above_the_use_is_flagged_with_its_figures():
    r = demo(800).compute({"Qchem_yr": 1000, SITE_SPECIFIC: [factor_entry(OH=1000)]})
    # Hand calculation: 1 lb/hr × 1,000 hr × 0.45359237 = 453.59 kg/yr at one site;
    # 800 + 453.59 = 1,253.59 kg/yr released against 1,000 kg/yr used
    assert exceeding(r) == [
        "Release 2 (Submitter's site data, entry 1: Emission factor × activity; source: stack test 2023): the site-specific release of 454 kg/yr "
        "(all sites) brings the total released (every release) to 1,254 kg/yr, more than the 1,000 kg/yr of "
        "chemical used; submitter data are not capped: check the entry against the use."
    ]


def test_the_flagged_release_is_not_capped():
    r = demo(800).compute({"Qchem_yr": 1000, SITE_SPECIFIC: [factor_entry(OH=1000)]})
    # Hand calculation: 1,000 hr × 0.45359237 kg/lb = 453.59237 kg/yr, as computed
    assert r.releases[1].estimates[0].kg_year_all_sites == pytest.approx(1000 * LB, rel=1e-12)
    assert sum(r.totals_by_medium().values()) == pytest.approx(800 + 1000 * LB, rel=1e-12)


def test_a_release_keeping_the_total_within_the_use_is_not_flagged():
    r = demo(800).compute({"Qchem_yr": 1000, SITE_SPECIFIC: [factor_entry(OH=400)]})
    # Hand calculation: 400 × 0.45359237 = 181.44 kg/yr; 800 + 181.44 = 981.44 < 1,000
    assert exceeding(r) == []


def test_a_replacing_release_above_the_use_is_flagged():
    r = demo(800).compute({"Qchem_yr": 1000, SITE_SPECIFIC: [factor_entry(OH=2500, replaces=1)]})
    # Hand calculation: 2,500 × 0.45359237 = 1,133.98 kg/yr in place of the 800 (one site,
    # the replaced release's), so the total is 1,133.98 against 1,000 used
    assert exceeding(r) == [
        "Release 1 (Submitter's site data, entry 1: Emission factor × activity; source: stack test 2023): the site-specific release of 1,134 kg/yr "
        "(all sites) brings the total released (every release) to 1,134 kg/yr, more than the 1,000 kg/yr of "
        "chemical used; submitter data are not capped: check the entry against the use."
    ]


def test_without_facts_the_production_volume_is_the_use():
    r = demo(800, facts=False).compute({"Qchem_yr": 1000, SITE_SPECIFIC: [factor_entry(OH=1000)]})
    # As in the first test: 1,253.59 kg/yr released against Qchem_yr = 1,000 kg/yr
    assert exceeding(r) == [EXCEEDS_USE.format(number=2, entry="Submitter's site data, entry 1: Emission factor × activity", source="stack test 2023",
                                               release="454", total="1,254", used="1,000",
                                               basis=" (Qchem_yr)", counted="every release")]
    assert exceeding(r)[0].endswith("of chemical used (Qchem_yr); submitter data are not capped: "
                                    "check the entry against the use.")


def test_the_facts_use_comes_before_the_production_volume():
    scenario = demo(800)
    r = scenario.compute({"Qchem_yr": 2000, SITE_SPECIFIC: [factor_entry(OH=1000)]})
    # facts.used_kg_yr = 2,000 kg/yr; 1,253.59 released is within it
    assert r.facts.used_kg_yr == 2000
    assert exceeding(r) == []


def test_no_use_known_means_no_warning_and_no_error():
    r = demo(800, facts=False, qchem=False).compute({"Q": 1, SITE_SPECIFIC: [factor_entry(OH=6000)]})
    assert exceeding(r) == []
    assert r.releases[1].site_specific is True


def test_only_the_entry_that_raises_the_total_above_the_use_is_named():
    # The document's own releases already total 1,200 kg/yr against 1,000 used (as the 2004
    # photoresist edition's rounding conventions do): lowering one is not the submitter's excess.
    entries = [factor_entry(OH=800, replaces=2, source="records"), factor_entry(OH=100, source="new hood")]
    r = demo(800, 400).compute({"Qchem_yr": 1000, SITE_SPECIFIC: entries})
    # Hand calculation: entry 0: 800 × 0.45359237 = 362.87 kg/yr in place of 400, total
    # 1,162.87 (lower); entry 1: 100 × 0.45359237 = 45.36 kg/yr added, total 1,208.23 (higher)
    assert exceeding(r) == [
        "Release 3 (Submitter's site data, entry 2: Emission factor × activity; source: new hood): the site-specific release of 45.4 kg/yr "
        "(all sites) brings the total released (every release) to 1,208 kg/yr, more than the 1,000 kg/yr of "
        "chemical used; submitter data are not capped: check the entry against the use."
    ]


def test_an_added_release_beside_the_photoresist_2010_releases_is_flagged():
    # ESD 2010's Releases 1 to 5 follow the whole 5,000 kg/yr used (container residue,
    # equipment cleaning, then spin-off, developer and etch/strip of the rest), so any air
    # release added beside them exceeds the use. EIIP Example 6.5-2: 1.8E-4 lb/hr × 8,760 hr
    # × 0.45359237 = 0.715 kg/yr.
    entry = {"method": "emission_factor", "replaces": None, "source": "EIIP Example 6.5-2",
             "inputs": {"pollutant_class": "inorganic", "EF_x": 6.0e-6, "AF": 30, "OH": 8760,
                        "days_per_year": 365}}
    r = registry.compute("photoresist-2010", {"Qchem_yr": 5000, SITE_SPECIFIC: [entry]})
    (warning,) = exceeding(r)
    total = sum(r.totals_by_medium().values())
    assert warning.startswith("Release 6 (Submitter's site data, entry 1: Emission factor × activity; source: EIIP Example 6.5-2): the "
                              "site-specific "
                              "release of 0.715 kg/yr (all sites) brings the total released (every release) to "
                              f"{num(total)} kg/yr, more than the 5,000 kg/yr of chemical used")


def test_the_eiip_hf_stack_test_on_cvd_is_within_the_use():
    # EIIP Example 6.4-3 in place of CVD release 1: 0.0871 lb/hr × 1,760 hr × 0.45359237
    # = 69.5 kg/site-yr × 9 sites = 626 kg/yr, far below the 10,000 kg/yr produced
    entry = {"method": "source_test", "replaces": 1, "source": "EIIP Example 6.4-3",
             "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020,
                        "OH": 1760, "days_per_year": 220}}
    r = registry.compute("cvd-2015", {"Qchem_yr": 10000, SITE_SPECIFIC: [entry]})
    assert exceeding(r) == []
