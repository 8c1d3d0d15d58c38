"""photoresist-2010: the 2010 ESD's worked example (Section 6) and its rules (Sections 3 to 5).

Every expected number was printed by the document (the comment says where) or is a hand
calculation written out in the test. The extracted text of the 2010 ESD has no page
numbers; section numbers locate the printed values. "Printed" values are compared at the
precision the ESD printed them (``rounds_to``).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from assessments.esd import registry
from tests.esd.printed import rounds_to

KEY = "photoresist-2010"
# ESD 2010 Section 6: "Qchem_yr is 5,000 kg chemical/yr"; "15 percent by weight ... (Fchem)"
SECTION_6 = {"Qchem_yr": 5000, "Fchem": 0.15}


def compute(**overrides):
    return registry.compute(KEY, {**SECTION_6, **overrides})


@pytest.fixture(scope="module")
def example():
    """Fphoto_wafer at its default 0.07 (Table A-4), the high end of §6.2.3-6.2.5's ranges."""
    return compute()


@pytest.fixture(scope="module")
def example_low_wafer():
    """Fphoto_wafer 0.01, the low end of §6.2.3-6.2.5's "0.01 to 0.07"."""
    return compute(Fphoto_wafer=0.01)


def release(result, number):
    (found,) = [r for r in result.releases if r.number == number]
    return found


def exposure(result, letter, route="dermal"):
    (found,) = [e for e in result.exposures if e.letter == letter and e.route == route]
    return found


def by_label(items):
    return {e.label: e for e in items}


# --- 6.1 General facility estimates ----------------------------------------------------


def test_daily_photoresist_use_is_36(example):
    # §6.1.1: "Qphoto_day = 36 kg photoresist dispensed/site-day"
    assert rounds_to(example.facility["Qphoto_day"], "36")


def test_application_days_are_360(example):
    # §6.1.2: "Assume 360 days/year."
    assert example.facility["TIMEapply_days"] == 360


def test_daily_chemical_use_before_rounding_is_5_4(example):
    # §6.1.3: "Qchem_day = 5.4 kg chemical dispensed/site-day"
    assert rounds_to(example.facility["Qchem_day_eqn_3_2"], "5.4")


def test_sites_are_2_6_rounded_up_to_3(example):
    # §6.1.4: "Nsites = 2.6 sites"; "Round Nsites up to the next integer (3 manufacturing sites)"
    assert rounds_to(example.facility["Nsites_calculated"], "2.6")
    assert example.facility["Nsites"] == 3


def test_daily_use_is_recalculated_for_3_sites(example):
    # §6.1.4: "Qchem_day = 4.60 kg chemical dispensed/site-day"
    assert rounds_to(example.facility["Qchem_day"], "4.60")
    assert example.facility["daily_use_basis"] == "dispensed"


def test_containers_emptied_per_site_year(example):
    # §6.1.5: "Qcont = ... 3.8 kg photoresist/container"; "Ncont_site_yr = 2,924 containers/site-yr"
    assert rounds_to(example.facility["Qcont"], "3.8")
    assert example.facility["Ncont_site_yr"] == 2924


# --- 6.2 Releases ----------------------------------------------------------------------


def test_release_1_container_residue_uses_eqn_4_1b(example):
    r = release(example, 1)
    (e,) = r.estimates
    # §6.2.1: "Since Ncont_site_yr is greater than TIMEapply_days ... [Eqn. 4-1b]";
    # "Qchem_received_day = 4.63"; "Elocalcontainer_residue_disp = 0.0278 ... over 360 days/year from 3 sites"
    assert r.equation == "ESD 2010 Eqn 4-1b"
    assert rounds_to(example.facility["Qchem_received_day"], "4.63")
    assert rounds_to(e.kg_site_day, "0.0278")
    assert (e.days_per_year, e.sites) == (360, 3)
    # Table 4-1: EPA/OPPT Small Container Residual Model; Table B-3: 0.006 is its high end
    assert r.model == "EPA/OPPT Small Container Residual Model"
    assert e.label == "high end"


def test_release_2_equipment_cleaning(example):
    r = release(example, 2)
    (e,) = r.estimates
    # §6.2.2: "Elocalequip_disp = 0.046 kg chem. released/site-day ... over 360 days/year from 3 sites"
    assert rounds_to(e.kg_site_day, "0.046")
    assert (e.days_per_year, e.sites) == (360, 3)
    # Table 4-1 and Table B-5: Single Process Vessel Residual Model, "Conservative" 0.01
    assert r.model == "EPA/OPPT Single Process Vessel Residual Model"
    assert e.label == "conservative"


def test_release_3_spin_off_range(example, example_low_wafer):
    # §6.2.3: "Elocalexcess_disp = 4.2-4.5 kg excess chem. released/site-day" for Fphoto_wafer
    # 0.07 to 0.01, "over 360 days/year from 3 sites"
    assert rounds_to(release(example, 3).estimates[0].kg_site_day, "4.2")
    assert rounds_to(release(example_low_wafer, 3).estimates[0].kg_site_day, "4.5")
    assert release(example, 3).estimates[0].days_per_year == 360


def test_release_4_developer_range(example, example_low_wafer):
    # §6.2.4: "Elocaldeveloper = 0.023-0.16 kg chem. released/site-day" (Fphoto_wafer 0.01 to 0.07)
    assert rounds_to(release(example_low_wafer, 4).estimates[0].kg_site_day, "0.023")
    assert rounds_to(release(example, 4).estimates[0].kg_site_day, "0.16")


def test_release_5_etching_and_stripping_range(example, example_low_wafer):
    # §6.2.5 prints "Elocaldeveloper = 0.023-0.16": a typo for Elocaletch_strip_disp (Eqn 4-5 is
    # computed and labelled Release 5 here, as the section heading and Table A-2 do)
    r = release(example, 5)
    assert r.equation == "ESD 2010 Eqn 4-5"
    assert rounds_to(release(example_low_wafer, 5).estimates[0].kg_site_day, "0.023")
    assert rounds_to(r.estimates[0].kg_site_day, "0.16")


def test_releases_3_to_5_are_user_defined_outputs(example):
    # Table 4-1: "Loss rate is based on available industry-specific data"; the sample IRER
    # (EPA 2018 update, Section 7) prints these as "Output 2" of the User-Defined Loss Rate Model
    for number in (3, 4, 5):
        r = release(example, number)
        assert r.model == "User-Defined Loss Rate Model"
        assert [e.label for e in r.estimates] == ["output"]


def test_media_are_as_printed(example):
    media = {r.number: ([m.medium for m in r.media], {m.fraction for m in r.media}) for r in example.releases}
    # §4.2 title and Table A-2: container residue to "Water, Landfill, Incineration" (uncertain: any one)
    assert media[1] == (["water", "incineration", "landfill"], {None})
    # §4.3: "incineration or landfill"; §4.4: "incineration"; §4.5, §4.6 and Table A-2: "Water"
    assert media[2] == (["incineration", "landfill"], {None})
    assert media[3] == (["incineration"], {None})
    assert media[4] == (["water"], {None})
    assert media[5] == (["water"], {None})


def test_releases_are_numbered_1_to_5(example):
    assert [r.number for r in example.releases] == [1, 2, 3, 4, 5]


def test_annual_container_residue_is_the_residue_of_the_production_volume(example):
    # The ESD prints no annual figures. Hand calculation: 0.0277778 kg/site-day × 360 days ×
    # 3 sites = 30.0 kg/yr = 5,000 kg/yr × 0.006 (and 10.0 kg/site-yr, as the sample IRER prints).
    (e,) = release(example, 1).estimates
    assert e.kg_site_year == pytest.approx(10.0, rel=1e-9)
    assert e.kg_year_all_sites == pytest.approx(5000 * 0.006, rel=1e-9)


# --- 6.3 Occupational exposures --------------------------------------------------------


def test_workers(example):
    # §6.3.1: "Noperators_site_day = 48 operators/site-day"; §6.3.2: "Ntechs_site_day = 18"
    assert example.facility["Noperators_site_day"] == 48
    assert example.facility["Ntechs_site_day"] == 18
    assert exposure(example, "A").workers_per_site == 48
    assert {exposure(example, x).workers_per_site for x in "BCDE"} == {18}


def test_exposure_a_one_hand(example):
    a = exposure(example, "A")
    # §6.3.3: "EXPdermal = 44-132 mg chem./day ... over 250 days/year" (printed "132-44")
    assert rounds_to(by_label(a.estimates)["low end"].mg_day, "44")
    assert rounds_to(by_label(a.estimates)["high end"].mg_day, "132")
    assert a.days_per_year == 250
    assert a.model == "EPA/OPPT 1-Hand Dermal Contact with Liquid Model"


@pytest.mark.parametrize("letter", ["B", "C", "D"])
def test_exposures_b_to_d_two_hands(example, letter):
    x = exposure(example, letter)
    # §6.3.4 to 6.3.6 print "cm 084" (840 cm2) and "26588" (88-265 mg chem./day), "over 250 days/year"
    assert rounds_to(by_label(x.estimates)["low end"].mg_day, "88")
    assert rounds_to(by_label(x.estimates)["high end"].mg_day, "265")
    assert x.days_per_year == 250
    assert x.model == "EPA/OPPT 2-Hand Dermal Contact with Liquid Model"


def test_exposure_e_waste_solvent(example):
    e = exposure(example, "E")
    # §6.3.7 prints "6.20.88": 0.88-2.6 mg chem./day, over 250 days/year
    assert rounds_to(by_label(e.estimates)["low end"].mg_day, "0.88")
    assert rounds_to(by_label(e.estimates)["high end"].mg_day, "2.6")
    assert e.days_per_year == 250


def test_exposures_are_lettered_a_to_e_and_dermal_only(example):
    assert [(x.letter, x.route) for x in example.exposures] == [(c, "dermal") for c in "ABCDE"]


def test_hand_areas_are_the_printed_set_and_recorded(example):
    # §5.3-5.7 and Table A-4: 420 cm² (1 hand), 840 cm² (2 hands)
    assert example.inputs["AREAsurface_1hand"] == 420
    assert example.inputs["AREAsurface_2hand"] == 840
    assert example.default_set["hand_areas"] == "esd-2010"


def test_inhalation_is_stated_negligible(example):
    # §5 and §5.3-5.7: "Inhalation exposure is expected to be negligible for nonvolatile chemicals"
    assert any("negligible for nonvolatile chemicals (VP < 0.001 torr" in n for n in example.notes)


# --- Section 3 rules beyond the example ------------------------------------------------


@pytest.mark.parametrize("preset, printed", [("niche", "10"), ("large-low", "33"), ("large-high", "36")])
def test_table_3_2_presets_give_the_printed_daily_use(preset, printed):
    scenario = registry.get(KEY)
    (values,) = [p.values for p in scenario.presets if p.key == preset]
    result = compute(**values)
    # Table 3-2: Qphoto_day 10 (niche), 33 (large scale, low end), 36 (large scale, high end)
    assert rounds_to(result.facility["Qphoto_day"], printed)
    assert result.facility["TIMEapply_days"] == values["TIMEapply_days"]


def test_known_sites_skip_eqn_3_3():
    result = compute(Nsites=5)
    # §3.6 box: Qchem_day = (1 − Fcontainer_disp) × Qchem_yr / (Nsites × TIMEapply_days);
    # by hand (1 − 0.006) × 5,000 / (5 × 360) = 2.76111 kg/site-day
    assert result.facility["Nsites"] == 5
    assert result.facility["Nsites_calculated"] is None
    assert result.facility["Qchem_day"] == pytest.approx(0.994 * 5000 / (5 * 360), rel=1e-12)
    assert not [s for s in result.trace if s.citation.startswith("ESD 2010 Eqn 3-3,")]
    assert any("Nsites is known (5)" in n for n in result.notes)


def test_sites_above_the_fabs_with_50_employees_warn():
    # Hand calculation: 0.994 × 600,000 / (5.4 × 360) = 306.8 -> 307 sites > 268 (§1.4)
    result = compute(Qchem_yr=600_000)
    assert result.facility["Nsites"] == 307
    assert result.warnings == [
        "Nsites (307) exceeds the 268 US fabs with 50 or more employees (ESD 2010, Section 1.4)"]


def test_sites_above_all_fabs_warn_twice():
    result = compute(Nsites=1000)
    assert len(result.warnings) == 2
    assert "955 US semiconductor facilities" in result.warnings[1]


def test_known_sites_dispensing_more_than_a_facility_warns():
    # 1 site for 5,000 kg/yr: 0.994 × 5,000 / 360 = 13.8 kg/site-day > 5.4 from Eqn 3-2 (§3.6 box)
    result = compute(Nsites=1)
    assert any("more than the 5.40 kg/site-day" in w for w in result.warnings)


def test_few_containers_use_eqn_4_1a():
    result = compute(Qchem_yr=50)
    r = release(result, 1)
    (e,) = r.estimates
    # Hand calculation: Nsites = 0.994 × 50 / (5.4 × 360) = 0.026 -> 1 site; Ncont_site_yr =
    # 50 / (0.15 × 3.8 × 1) = 87.7 -> 88 < 360 days, so Eqn 4-1a: 3.8 × 0.15 × 0.006 × 1 =
    # 0.00342 kg/site-day over 88 days/yr (§4.2)
    assert result.facility["Ncont_site_yr"] == 88
    assert r.equation == "ESD 2010 Eqn 4-1a"
    assert e.kg_site_day == pytest.approx(3.8 * 0.15 * 0.006, rel=1e-12)
    assert e.days_per_year == 88
    # Exposures A and B: "the lesser of Ncont_site_yr or TIMEapply_days, up to 250" = 88
    assert exposure(result, "A").days_per_year == exposure(result, "B").days_per_year == 88


def test_exactly_one_container_a_day_uses_eqn_4_1b():
    # Ncont_site_yr == TIMEapply_days is not covered by §4.2; Table B-4 ("1 or more" a day) -> 4-1b.
    # Hand calculation: Qchem_yr = 360 containers × 0.15 × 3.8 kg = 205.2 kg/yr at 1 site
    result = compute(Qchem_yr=205.2, Nsites=1)
    assert result.facility["Ncont_site_yr"] == 360
    assert release(result, 1).equation == "ESD 2010 Eqn 4-1b"


@pytest.mark.parametrize("cleanings, interval", [(12, 30), (26, 360 / 26), (52, 360 / 52)])
def test_cleaning_less_often_accumulates_the_residue(cleanings, interval):
    result = compute(cleanings_per_year=cleanings)
    (e,) = release(result, 2).estimates
    # §4.3 note: "12 days/year (monthly), 26 ... (biweekly), or 52 ... (weekly)" with the residue
    # "multiplying the daily amount ... by the number of days of the cleaning interval"; the note's
    # "30 days (monthly), 14 days (biweekly), 7 days (weekly)" are calendar intervals: the application
    # days between cleanings are 360/12 = 30, 360/26 = 13.8, 360/52 = 6.9; by hand: 4.601852 × 0.01 × interval
    assert e.days_per_year == cleanings
    assert e.kg_site_day == pytest.approx(0.994 * 5000 / (3 * 360) * 0.01 * interval, rel=1e-12)
    # §5.5: Exposure C over "the number of cleanings per year ..., up to 250"
    assert exposure(result, "C").days_per_year == cleanings


def test_daily_cleaning_is_the_default(example):
    assert release(example, 2).estimates[0].days_per_year == 360
    assert example.facility["TIMEdays_equip_residue"] == 360


def test_exposure_days_follow_the_application_days_below_250():
    # Niche scale (Table 3-2): 250 days; with 200 application days every activity is 200 days
    result = compute(TIMEapply_days=200)
    assert {x.days_per_year for x in result.exposures} == {200}


def test_max_exposure_days_caps_the_days():
    result = compute(max_exposure_days=100)
    assert {x.days_per_year for x in result.exposures} == {100}


def test_epa_2013_hand_areas_are_recorded_when_entered():
    result = compute(AREAsurface_1hand=535, AREAsurface_2hand=1070)
    # By hand: 2.1 × 535 × 0.15 = 168.525 mg/day (A, high end)
    assert by_label(exposure(result, "A").estimates)["high end"].mg_day == pytest.approx(168.525)
    assert result.default_set["hand_areas"] == "epa-2013"


# --- The trace -------------------------------------------------------------------------


def test_trace_records_each_equation_with_its_inputs(example):
    cited = " | ".join(s.citation for s in example.trace)
    for eqn in ("3-1", "3-2", "3-3", "3-4", "4-1b", "4-2", "4-3", "4-4", "4-5", "5-1", "5-2",
                "5-3", "5-4", "5-5", "5-6", "5-7"):
        assert f"Eqn {eqn}" in cited
    (recalc,) = [s for s in example.trace if s.symbol == "Qchem_day" and "footnote" in s.citation]
    assert recalc.inputs == {"Fcontainer_disp": 0.006, "Qchem_yr": 5000, "Nsites": 3, "TIMEapply_days": 360}
    # the recorded value is the formula of its recorded inputs, by hand: (1 − 0.006) × 5,000 / (3 × 360)
    assert recalc.value == pytest.approx((1 - 0.006) * 5000 / (3 * 360), rel=1e-12)


# --- A volatile chemical ---------------------------------------------------------------

# By hand, AP-42 Loading Model (Eq B-5) for a 3.8-L bottle (1.003854 gal), 60 bottles/h,
# saturation factor 1, MW 150, VP 0.5 torr, 298 K: G = 1 × 150 × 1.003854 × 3,785.4 × 60/3,600
# × 0.5/760 / (82.05 × 298) g/s
G_WORST = 1 * 150 * (3.8 / 3.785411784) * 3785.4 * 60 / 3600 * (0.5 / 760) / (82.05 * 298)
HOURS = 2924 / 360 / 60  # 8.12 bottles a day at 60 bottles/h


def test_volatile_chemical_warns_and_adds_vapour_estimates():
    result = compute(VPchem=0.5, MWchem=150)
    assert any("0.001 torr or more" in w for w in result.warnings)
    six = release(result, 6)
    assert [m.medium for m in six.media] == ["air"]
    # Eq B-6: G × hours × 3,600 / 1,000
    assert by_label(six.estimates)["high end"].kg_site_day == pytest.approx(G_WORST * HOURS * 3.6, rel=1e-9)
    seven = release(result, 7)
    assert seven.model == "EPA/OPPT Penetration Model"
    a = exposure(result, "A", "inhalation")
    # Eq B-7 to B-10 worst case: 1.7e5 × 298 × G / (150 × 500 × 0.1) ppm (below saturation
    # 0.5/760 × 1e6 = 658 ppm) × 150/24.45 mg/m3 × 1.25 m3/h × hours
    ppm = 1.7e5 * 298 * G_WORST / (150 * 500 * 0.1)
    assert by_label(a.estimates)["high end"].mg_day == pytest.approx(ppm * 150 / 24.45 * 1.25 * HOURS, rel=1e-9)
    assert exposure(result, "C", "inhalation").days_per_year == 250


def test_nonvolatile_vapour_pressure_adds_nothing():
    result = compute(VPchem=1e-6, MWchem=200)
    assert [r.number for r in result.releases] == [1, 2, 3, 4, 5]
    assert not result.warnings
    assert any("VPchem = 1E-6 torr is below it" in n for n in result.notes)
