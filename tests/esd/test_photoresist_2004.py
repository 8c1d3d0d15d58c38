"""photoresist-2004: the 2004 edition's worked example (Section 4, ¶64, pp. 18-20).

Expected numbers are the edition's printed ones (page and the OCR form where the
extraction garbled them) or hand calculations written in the test. Where the example is
illegible or prints one end of a range only, the test says which reading the code follows.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from assessments.esd import registry
from tests.esd.printed import rounds_to

KEY = "photoresist-2004"
# p. 18: "Chemical of interest production volume (Qchem_yr) is 5,000 kg/yr"; "15% by weight"
SECTION_4 = {"Qchem_yr": 5000, "Fchem": 0.15}


def compute(**overrides):
    return registry.compute(KEY, {**SECTION_4, **overrides})


@pytest.fixture(scope="module")
def example():
    return compute()


def release(result, number):
    (found,) = [r for r in result.releases if r.number == number]
    return found


def at_wafer(r, Fphoto_wafer):
    """The estimate computed at one end of the Fphoto_wafer range (estimates follow the range: low, high)."""
    low, high = r.estimates
    return low if Fphoto_wafer == 0.01 else high


def test_daily_use_and_days(example):
    # p. 18: "Qphoto-day = 36 kg/site-day"; "TIMEapply_days = 360 days/yr";
    # Eqn 3-2: "Qchem_day = 36 kg/site-day × 0.15 × 1/1 = 5.4 kg/site-day"
    assert rounds_to(example.facility["Qphoto_day"], "36")
    assert example.facility["TIMEapply_days"] == 360
    assert rounds_to(example.facility["Qchem_day"], "5.4")


def test_sites_rounded_up_without_recalculating_the_daily_use(example):
    # p. 18, Eqn 3-3: "(1 − 0.006) × 5,000 kg / (5.4 kg/site-day × 360 day/yr) = blsites": the
    # result is illegible. By hand 0.994 × 5,000 / (5.4 × 360) = 2.557. The edition has no rule
    # above one site (only footnote 5, below one); the code counts whole sites (3, as the 2010
    # revision's example does with the same numbers) and keeps Qchem_day = 5.4, as every release
    # of the example on pp. 18-19 does.
    assert example.facility["Nsites_calculated"] == pytest.approx(0.994 * 5000 / (5.4 * 360))
    assert example.facility["Nsites"] == 3
    assert rounds_to(example.facility["Qchem_day"], "5.4")


def test_container_residue(example):
    r = release(example, 1)
    (e,) = r.estimates
    # p. 18, Eqn 3-4: "5.4 kg/site-day × 0.006 = 0.032 kg/site-day";
    # "Media of Release: water, land, or incineration (default)"
    assert rounds_to(e.kg_site_day, "0.032")
    assert [m.medium for m in r.media] == ["water", "landfill", "incineration"]
    assert r.equation == "ESD 2004 Eqn 3-4"


def test_equipment_cleaning(example):
    r = release(example, 2)
    # p. 19, Eqn 3-5: "5.4 × (1 − 0.006) × 0.01 = 0054" (OCR for 0.054);
    # "Media of Release: land or incineration (default)"
    assert rounds_to(r.estimates[0].kg_site_day, "0.054")
    assert [m.medium for m in r.media] == ["landfill", "incineration"]


def test_spin_off_range(example):
    r = release(example, 3)
    # p. 19, Eqn 3-6: "5.4 × (1 − 0.006) × (1 − 0.01) × (1 − 0.01 to 0.07) = 491053" (OCR for
    # 4.9 to 5.3 kg/site-day); "Media of Release: incineration (default)"
    assert rounds_to(at_wafer(r, 0.07).kg_site_day, "4.9")
    assert rounds_to(at_wafer(r, 0.01).kg_site_day, "5.3")
    assert [m.medium for m in r.media] == ["incineration"]
    # the higher spin-off (less on the wafer) is the high end
    assert at_wafer(r, 0.01).label == "high end"


def test_developer_prints_the_low_end_only(example):
    r = release(example, 4)
    # p. 19, Eqn 3-7: "5.4 × (1 − 0.006) × (1 − 0.01) × (0.01 to 0.07) × 0.5 = 0.027 kg/site-day":
    # one value for a range; it is the Fphoto_wafer = 0.01 end. The code gives both ends; the
    # other, by hand: 5.4 × 0.994 × 0.99 × 0.07 × 0.5 = 0.186 (0.19), the high end for water.
    assert rounds_to(at_wafer(r, 0.01).kg_site_day, "0.027")
    assert at_wafer(r, 0.07).kg_site_day == pytest.approx(5.4 * 0.994 * 0.99 * 0.07 * 0.5)
    assert at_wafer(r, 0.07).label == "high end"
    # "Media of Release: water (default)"
    assert [m.medium for m in r.media] == ["water"]


def test_etching_and_stripping_prints_the_low_end_only(example):
    r = release(example, 5)
    # p. 19, Eqn 3-8: "... × (0.01 to 0.07) × (1 − 0.006) × (1 − 0.01) × (1 − 0.5) = 0.027
    # kg/site-day"; "Media of Release: water (default)". Same reading as the developer.
    assert rounds_to(at_wafer(r, 0.01).kg_site_day, "0.027")
    assert at_wafer(r, 0.07).kg_site_day == pytest.approx(5.4 * 0.07 * 0.994 * 0.99 * 0.5)
    assert [m.medium for m in r.media] == ["water"]


def test_releases_run_360_days_at_3_sites(example):
    # ¶49-57: "This release rate is applicable over TIMEapply_days (default: 360) for Nsites"
    assert {(e.days_per_year, e.sites) for r in example.releases for e in r.estimates} == {(360, 3)}


def test_inhalation_negligible(example):
    # p. 19: "Inhalation Exposure: Negligible (VP < 0.001 torr)"
    assert any("Negligible (VP < 0.001 torr)" in n for n in example.notes)
    assert all(x.route == "dermal" for x in example.exposures)


def test_dermal_exposure(example):
    (x,) = example.exposures
    by = {e.label: e.mg_day for e in x.estimates}
    # p. 20, Eqn 3-9: "420 cm² × 2.1 mg/cm²-incident × 0.15 × 1 incident/day = 132 mg/day"; the
    # low end is not printed: by hand 420 × 0.7 × 0.15 × 1 = 44.1 mg/day (¶63: 0.7 "low-end")
    assert rounds_to(by["high end"], "132")
    assert by["low end"] == pytest.approx(420 * 0.7 * 0.15)
    # "EXPdermal applies to 20 to 25 workers per site (default) over up to 250 days/yr (default)"
    assert x.workers_per_site == 25
    assert (example.facility["Nworkers_low"], example.facility["Nworkers_high"]) == (20, 25)
    assert x.days_per_year == 250
    assert x.model == "EPA/OPPT 1-Hand Dermal Contact with Liquid Model"
    assert x.equation == "ESD 2004 Eqn 3-9"


def test_rounding_sites_up_overcounts_and_warns(example):
    # By hand: 5.4 kg/site-day × 360 days × 3 sites = 5,832 kg/yr released, against 5,000 kg/yr
    assert example.facility["release_total_kg_yr"] == pytest.approx(5.4 * 360 * 3)
    assert any("5,832 kg/yr" in w and "+16.6 %" in w for w in example.warnings)


def test_fewer_than_one_site_recalculates_the_days():
    result = compute(Qchem_yr=500)
    # Footnote 5, p. 12: Nsites < 1 -> 1 site and TIMEapply_days = (1 − Fcontainer_disp) ×
    # Qchem_yr / (Qchem_day × Nsites); by hand 0.994 × 500 / (5.4 × 1) = 92.04 days/yr
    assert result.facility["Nsites"] == 1
    assert result.facility["TIMEapply_days"] == pytest.approx(0.994 * 500 / 5.4)
    assert [e.days_per_year for r in result.releases for e in r.estimates] == [pytest.approx(92.037, abs=1e-3)] * 8
    # ¶63: exposure "up to TIMEapply_days" when fewer than 250
    assert result.exposures[0].days_per_year == pytest.approx(92.037, abs=1e-3)
    assert not result.warnings


def test_known_sites_solve_eqn_3_3_for_the_daily_use():
    # Decision: with a known Nsites, Eqn 3-3's only unknown is Qchem_day; by hand
    # 0.994 × 5,000 / (4 × 360) = 3.451 kg/site-day
    result = compute(Nsites=4)
    assert result.facility["Qchem_day"] == pytest.approx(0.994 * 5000 / (4 * 360))


def test_sites_above_the_2001_fab_count_warn():
    # ESD 2004 ¶8: 389 establishments with 50 or more employees (CBP 2001)
    result = compute(Nsites=400)
    assert result.warnings[0].startswith("Nsites (400) exceeds the 389 US fabs with 50 or more employees")


def test_hand_area_recorded(example):
    assert example.default_set["hand_areas"] == "esd-2010"
    assert example.default_set["hand_areas_cm2"] == "420"
