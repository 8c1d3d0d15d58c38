"""A vapour release is at most the residue it evaporates from, and is taken from it.

Release 7 (Penetration Model, equipment cleaning) comes out of the equipment residue
(Release 2); Release 6 (AP-42 Loading Model, unloading) out of the container residue
(Release 1); the inhalation estimates A and C use a generation rate that implies no more
vapour than the release. Rule: conservation of mass, as the material balance method
states it (EIIP Vol. II Ch. 6, 1999, §3.1.1, Eqn 6.4-1); the ESD is silent (it assumes
a nonvolatile chemical). A volatile example: 100 kg/yr, Fchem 0.02, VP 5 torr, MW 100.
"""

from __future__ import annotations

import math

import pytest

from assessments.esd import registry

ISSUE = {"Qchem_yr": 100, "Fchem": 0.02, "VPchem": 5, "MWchem": 100}

# By hand (ESD 2010 Eqn 3-1 to 3-4, 4-1b, 4-2): Qchem_day = 36 × 0.02 = 0.72; Nsites = 0.994 × 100 /
# (0.72 × 360) = 0.38 -> 1 site; Qchem_day = 0.994 × 100 / 360 = 0.27611 kg/site-day; Ncont_site_yr =
# 100 / (0.02 × 3.8) = 1,315.8 -> 1,316 >= 360 days, so Eqn 4-1b.
Q_DAY = 0.994 * 100 / 360
EQUIPMENT_RESIDUE = Q_DAY * 0.01  # Eqn 4-2: 0.0027611 kg/site-day
CONTAINER_RESIDUE = Q_DAY / 0.994 * 0.006  # Eqn 4-1b: 0.0016667 kg/site-day
# Penetration Model (Eq B-1), 92-cm opening, 100 ft/min, 298 K: 0.046132 g/s; over 1 h: 0.16608 kg, the
# 59.8 kg/yr before the mass limit (× 360 days)
AREA = math.pi * 92 ** 2 / 4
G_CLEANING = 8.24e-8 * 100 ** 0.835 * 5 * (1 / 29 + 1 / 100) ** 0.25 * 100 ** 0.5 * AREA / (298 ** 0.05 * 92 ** 0.5)
# AP-42 (Eq B-5), 3.8-L bottle, 60 bottles/h, saturation 1: G; 1,316 / 360 bottles a day take 0.0609 h
G_UNLOADING_WORST = 1 * 100 * (3.8 / 3.785411784) * 3785.4 * 60 / 3600 * (5 / 760) / (82.05 * 298)
UNLOADING_HOURS = 1316 / 360 / 60


def release(result, number):
    (found,) = [r for r in result.releases if r.number == number]
    return found


def by_label(items):
    return {e.label: e for e in items}


@pytest.fixture(scope="module")
def issue():
    return registry.compute("photoresist-2010", ISSUE)


def test_the_penetration_model_alone_would_evaporate_sixty_times_the_residue():
    assert pytest.approx(59.8, abs=0.05) == G_CLEANING * 3.6 * 360  # Release 7 without the mass limit, kg/yr
    assert G_CLEANING * 3.6 > 60 * EQUIPMENT_RESIDUE


def test_release_7_is_at_most_the_equipment_residue(issue):
    (seven,) = release(issue, 7).estimates
    assert seven.kg_site_day == pytest.approx(EQUIPMENT_RESIDUE, rel=1e-12)
    assert seven.kg_year_all_sites == pytest.approx(0.994, rel=1e-9)  # 0.0027611 × 360 × 1 site


def test_release_2_keeps_what_did_not_evaporate(issue):
    (two,) = release(issue, 2).estimates
    assert two.kg_site_day == 0
    assert two.label == "conservative"  # the equipment model's label stays
    assert "Less the vapour from the cleaning (Release 7)" in two.basis


def test_release_6_below_the_residue_is_the_model_and_release_1_keeps_the_rest(issue):
    six = by_label(release(issue, 6).estimates)
    one = by_label(release(issue, 1).estimates)
    worst = G_UNLOADING_WORST * UNLOADING_HOURS * 3.6
    assert six["high end"].kg_site_day == pytest.approx(worst, rel=1e-9)
    assert one["high end"].kg_site_day == pytest.approx(CONTAINER_RESIDUE - worst, rel=1e-9)
    for label in ("central tendency", "high end"):
        assert one[label].case == six[label].case  # a consistent pair for the totals
        assert one[label].kg_site_day + six[label].kg_site_day == pytest.approx(CONTAINER_RESIDUE, rel=1e-12)


def test_the_totals_release_exactly_the_use(issue):
    # one consistent set (the media's totals take each medium's own set, issue 26: air the
    # worst saturation factor, the container residue's medium the typical one)
    assert issue.one_set_released_kg_yr() == pytest.approx(100, rel=1e-9)
    assert issue.facility["release_total_kg_yr"] == pytest.approx(100, rel=1e-9)


def test_exposure_c_inhalation_uses_the_rate_the_residue_allows(issue):
    # G = 0.0027611 kg × 1,000 / 3,600 s = 7.6698e-4 g/s instead of 0.0461; Eq B-7 worst case:
    # 1.7e5 × 298 × G / (100 × 500 × 0.1) ppm (below saturation, 5/760 × 1e6) × 100 / 24.45 × 1.25 × 1 h
    g = EQUIPMENT_RESIDUE * 1000 / 3600
    expected = 1.7e5 * 298 * g / (100 * 500 * 0.1) * 100 / 24.45 * 1.25 * 1
    (c,) = [x for x in issue.exposures if x.letter == "C" and x.route == "inhalation"]
    high = by_label(c.estimates)["high end"]
    assert high.mg_day == pytest.approx(expected, rel=1e-9)
    assert "limited to the" in high.basis


def test_the_trace_records_the_limit_and_the_subtraction(issue):
    limited = [s for s in issue.trace if "Conservation of mass" in s.citation]
    assert {s.symbol for s in limited} == {"Elocalair", "Elocalcontainer_residue_disp", "Elocalequip_disp",
                                           "Qvapor_generation"}
    (cleaning,) = [s for s in limited if s.symbol == "Elocalair" and s.note.startswith("equipment cleaning")]
    assert cleaning.inputs["Elocalair_model"] == pytest.approx(G_CLEANING * 3.6, rel=1e-9)
    assert cleaning.value == pytest.approx(EQUIPMENT_RESIDUE, rel=1e-12)


def test_both_basis_sentences_state_the_rule(issue):
    for number in (1, 2, 6, 7):
        for e in release(issue, number).estimates:
            assert "at most the residue it evaporates from, and is taken from it" in e.basis, number


def test_at_188_torr_everything_in_the_residues_evaporates():
    # The issue: millions of kg/yr from a 97,615 kg/yr use; now the residues, no more
    result = registry.compute("photoresist-2010", {**ISSUE, "Qchem_yr": 97_615, "VPchem": 188})
    assert [e.kg_site_day for e in release(result, 1).estimates] == [0, 0]
    assert release(result, 2).estimates[0].kg_site_day == 0
    assert sum(result.totals_by_medium().values()) == pytest.approx(97_615, rel=1e-9)


def test_a_nonvolatile_chemical_is_unchanged():
    plain = registry.compute("photoresist-2010", {"Qchem_yr": 100, "Fchem": 0.02})
    low_vp = registry.compute("photoresist-2010", {**ISSUE, "VPchem": 1e-4})
    assert [r.number for r in low_vp.releases] == [1, 2, 3, 4, 5]
    assert [[e.kg_site_day for e in r.estimates] for r in low_vp.releases] == \
        [[e.kg_site_day for e in r.estimates] for r in plain.releases]
