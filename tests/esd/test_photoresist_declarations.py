"""What the photoresist scenarios declare for the rest of the product: the process as the
IRER describes it, the facility facts, the default set's summary line, what is consumed,
and the allowance the documents' own conventions create.

Expected values are printed by the documents (the comment says where) or hand
calculations written out in the test.
"""

from __future__ import annotations

import pytest

from assessments.esd import registry

SECTION_6 = {"Qchem_yr": 5000, "Fchem": 0.15}  # ESD 2010 §6 / EPA 2018 update §6-7 / ESD 2004 §4

# EPA 2018 update, Section 7 sample IRER: "NCS is unloaded from 1-gallon (3.8-liter) bottles
# (liquid, 15%) --> charged to application equipment --> Application (spin-coat) --> Soft Bake -->
# Image application via radiation --> Hard Bake --> Developing --> Intermediate processing (e.g.,
# baking) --> Etching --> Stripping --> PMN fully released or destroyed"
PRINTED_CHAIN = [
    "charged to application equipment", "Application (spin-coat)", "Soft Bake", "Image application via radiation",
    "Hard Bake", "Developing", "Intermediate processing (e.g., baking)", "Etching", "Stripping",
    "chemical fully released or destroyed",
]


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018"])
def test_process_is_the_sample_irers_chain_with_the_container_and_concentration(key):
    result = registry.compute(key, SECTION_6)
    assert result.process == ["Chemical is unloaded from 3.8-liter containers (liquid, 15%)", *PRINTED_CHAIN]


def test_process_prints_the_container_volume_to_three_figures():
    result = registry.compute("photoresist-2010", {**SECTION_6, "Vcont": 3.785411784, "Fchem": 0.07})
    assert result.process[0] == "Chemical is unloaded from 3.79-liter containers (liquid, 7%)"


def test_process_2004_names_the_editions_bottles():
    # ESD 2004 ¶48, p. 13: "1-gallon (4-liter) bottles and 2.5-gallon (10-liter) NOW Pack bottles"
    result = registry.compute("photoresist-2004", SECTION_6)
    assert result.process == ["Chemical is unloaded from 1-gallon (4-liter) or 2.5-gallon (10-liter) bottles (liquid, 15%)",
                              *PRINTED_CHAIN]


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018"])
def test_facts_of_the_worked_example(key):
    facts = registry.compute(key, SECTION_6).facts
    # ESD 2010 §6.1.4: 3 sites; Table 3-2: 360 days; §6.3.1-6.3.2: 48 operators and 18 technicians
    assert (facts.sites, facts.sites_known, facts.operating_days) == (3, False, 360)
    assert facts.workers_per_site == 48 + 18
    assert facts.used_kg_yr == 5000
    assert "Eqn 5-1" in facts.workers_basis and "Eqn 5-2" in facts.workers_basis and "66 distinct" in facts.workers_basis


def test_known_sites_are_marked_known():
    facts = registry.compute("photoresist-2010", {**SECTION_6, "Nsites": 4}).facts
    assert (facts.sites, facts.sites_known) == (4, True)


def test_2004_counts_the_high_end_of_its_workers():
    facts = registry.compute("photoresist-2004", SECTION_6).facts
    # ESD 2004 ¶60, p. 16: "20 to 25 workers per facility may be assumed as a default"
    assert facts.workers_per_site == 25
    assert "20 to 25" in facts.workers_basis and "high end" in facts.workers_basis


def test_2004_operating_days_are_the_recalculated_ones():
    # ESD 2004 footnote 5: below one site, TIMEapply_days = 0.994 × 500 / (5.4 × 1) = 92.04 days
    facts = registry.compute("photoresist-2004", {**SECTION_6, "Qchem_yr": 500}).facts
    assert facts.operating_days == pytest.approx(0.994 * 500 / 5.4)


@pytest.mark.parametrize("key, summary", [
    ("photoresist-2010", "hand areas esd-2010 (420/840 cm²)"),
    ("photoresist-2018", "hand areas epa-2013 (535/1070 cm²)"),
    ("photoresist-2004", "hand areas esd-2010 (420 cm²)"),
])
def test_default_set_summary_is_one_line_and_the_keys_stay(key, summary):
    default_set = registry.compute(key, SECTION_6).default_set
    assert default_set["summary"] == summary
    assert {"hand_areas", "hand_areas_cm2", "hand_areas_source", "scenario_default"} <= set(default_set)


@pytest.mark.parametrize("key", ["photoresist-2004", "photoresist-2010", "photoresist-2018"])
def test_nothing_is_consumed(key):
    # Releases 1 to 5 take all of the chemical, and plasma stripping's 'destroyed' is a medium
    assert registry.compute(key, SECTION_6).consumed_kg_yr == 0


def test_the_esds_rule_needs_no_allowance():
    # ESD 2010 §6: the five releases add up to the 5,000 kg/yr used (Eqn 4-1b, dispensed basis)
    result = registry.compute("photoresist-2010", SECTION_6)
    assert (result.allowance_kg_yr, result.allowance_basis) == (0.0, "")
    assert result.mass_balance().difference_kg_yr == pytest.approx(0, abs=1e-9)


def test_chemsteer_basis_allows_the_container_residue_counted_again():
    # irer.md / EPA 2018 update §7: Qchem_day = 5,000 / (3 × 360) = 4.63 with the residue included;
    # with Eqn 4-1b the releases add up to 5,000 / (1 − 0.006) = 5,030.18 kg/yr, by hand
    result = registry.compute("photoresist-2018", {**SECTION_6, "daily_use_basis": "chemsteer"})
    assert result.allowance_kg_yr == pytest.approx(5000 / 0.994 - 5000, rel=1e-9)
    assert "ChemSTEER's daily use counts the container residue again" in result.allowance_basis
    assert "+0.604 %" in result.allowance_basis
    assert sum(result.totals_by_medium().values()) == pytest.approx(5000 + result.allowance_kg_yr, rel=1e-9)


def test_whole_containers_are_allowed():
    # Qchem_yr 50: Ncont_site_yr = 50 / (0.15 × 3.8) = 87.72 -> 88 containers (Eqn 4-1a), so Release 1
    # counts 88 − 87.72 = 0.28 containers more: 0.28 × 3.8 × 0.15 × 0.006 kg/yr, by hand
    result = registry.compute("photoresist-2010", {**SECTION_6, "Qchem_yr": 50})
    assert result.allowance_kg_yr == pytest.approx((88 - 50 / 0.57) * 3.8 * 0.15 * 0.006, rel=1e-9)
    assert "whole containers" in result.allowance_basis


def test_a_cleaning_interval_longer_than_the_application_days_is_allowed():
    # §4.3 note's biweekly example entered as the interval: 26 cleanings × 14 days = 364 days of residue
    # against 360 application days: 4 days × 4.6019 × 0.01 kg/site-day × 3 sites, by hand
    result = registry.compute("photoresist-2010", {**SECTION_6, "cleanings_per_year": 26, "cleaning_interval_days": 14})
    assert result.allowance_kg_yr == pytest.approx(4 * 0.994 * 5000 / 1080 * 0.01 * 3, rel=1e-9)
    assert "26 cleanings × 14 days" in result.allowance_basis and "the interval entered" in result.allowance_basis


def test_2004_allows_keeping_qchem_day_after_rounding_sites_up():
    # ESD 2004 §4, p. 18: Nsites = 0.994 × 5,000 / (5.4 × 360) = 2.557 -> 3 with Qchem_day kept at 5.4, so
    # the releases grow by 5.4 × 360 × (3 − 2.557) = 862.0 kg/yr (total 5,832 against 5,000 used)
    result = registry.compute("photoresist-2004", SECTION_6)
    assert result.allowance_kg_yr == pytest.approx(5.4 * 360 * (3 - 0.994 * 5000 / (5.4 * 360)), rel=1e-9)
    assert "keeps Qchem_day" in result.allowance_basis
    # one consistent set (the media's totals take each medium's own set, issue 26)
    assert result.one_set_released_kg_yr() <= 5000 + result.allowance_kg_yr


def test_the_allowance_sentence_gives_shares_not_annual_amounts():
    # An annual all-site amount would reveal a production volume claimed as CBI
    result = registry.compute("photoresist-2018", {**SECTION_6, "daily_use_basis": "chemsteer"})
    assert "kg/yr" not in result.allowance_basis and "5,000" not in result.allowance_basis
