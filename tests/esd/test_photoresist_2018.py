"""photoresist-2018: the EPA 2018 update's worked example (Section 6), its sample IRER
(Section 7), its media of release (Table 1-1, Section 4) and stripping-process split (§4.7).

Expected numbers are the update's printed ones (the comment says where: section, and for
the IRER the release block it sits in) or hand calculations written in the test.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from assessments.esd import registry
from tests.esd.printed import rounds_to

KEY = "photoresist-2018"
# Section 6: "Qchem_yr is 5,000 kg chemical/yr"; "15 percent by weight ... (Fchem)"
SECTION_6 = {"Qchem_yr": 5000, "Fchem": 0.15}
# Section 7 / irer.md "The sample as numbers": PV 5,000 kg/yr, PMN 15 %, unknown stripping
# process, with ChemSTEER's daily-use recalculation
SAMPLE_IRER = {**SECTION_6, "stripping_process": "unknown", "daily_use_basis": "chemsteer"}


def e_notation(value: float, printed: str) -> bool:
    """``value`` at the significant figures of an IRER number ("1.6E-1", "5E+1") reads as printed."""
    mantissa = printed.upper().split("E")[0]
    figures = len(mantissa.replace(".", ""))
    return float(f"{value:.{figures - 1}E}") == float(printed)


def compute(**inputs):
    return registry.compute(KEY, inputs)


def release(result, number):
    (found,) = [r for r in result.releases if r.number == number]
    return found


def media(r):
    return [(m.medium, m.fraction) for m in r.media]


@pytest.fixture(scope="module")
def example():
    return compute(**SECTION_6)


@pytest.fixture(scope="module")
def example_low_wafer():
    return compute(**SECTION_6, Fphoto_wafer=0.01)


@pytest.fixture(scope="module")
def irer():
    return compute(**SAMPLE_IRER)


# --- Section 6 -------------------------------------------------------------------------


def test_general_facility_estimates(example):
    # §6 item 3: "Nsites = 2.6 sites", "Qchem_day = 4.6 kg chemical dispensed/site-day",
    # "Ncont_site_yr = 2,924 containers/site-yr", "Qphoto_day = 36", "TIMEapply_days = 360"
    f = example.facility
    assert rounds_to(f["Nsites_calculated"], "2.6")
    assert rounds_to(f["Qchem_day"], "4.6")
    assert f["Ncont_site_yr"] == 2924
    assert rounds_to(f["Qphoto_day"], "36")
    assert f["TIMEapply_days"] == 360


def test_release_1_to_incineration(example):
    r = release(example, 1)
    (e,) = r.estimates
    # §6.1.1: "Qchem_received_day = 4.63"; "Elocalcontainer_residue_disp = 0.0278 ... over 360
    # days/year from 3 sites"; "Container residue should be assessed to incineration."
    assert rounds_to(example.facility["Qchem_received_day"], "4.63")
    assert rounds_to(e.kg_site_day, "0.0278")
    assert (e.days_per_year, e.sites) == (360, 3)
    assert media(r) == [("incineration", None)]
    assert r.equation == "ESD 2010 Eqn 4-1b (EPA 2018 update §4.3)"


def test_release_2_to_incineration_or_landfill(example):
    r = release(example, 2)
    # §6.1.2: "Elocalequip_disp = 0.046"; "should be assessed to incineration or landfill"
    # (Table 1-1: the Consortium's 50 %/50 % split was not adopted: medium left open)
    assert rounds_to(r.estimates[0].kg_site_day, "0.046")
    assert media(r) == [("incineration", None), ("landfill", None)]


def test_release_3_spin_off(example, example_low_wafer):
    # §6.1.3: "Elocalexcess_disp = 4.24 to 4.51 kg excess chem. released/site-day";
    # "should be assessed to incineration"
    assert rounds_to(release(example, 3).estimates[0].kg_site_day, "4.24")
    assert rounds_to(release(example_low_wafer, 3).estimates[0].kg_site_day, "4.51")
    assert media(release(example, 3)) == [("incineration", None)]


def test_release_4_developer_to_onsite_wastewater_treatment(example, example_low_wafer):
    # §6.1.4: "Elocaldeveloper = 0.023 to 0.16"; "assessed to on-site wastewater treatment"
    assert rounds_to(release(example_low_wafer, 4).estimates[0].kg_site_day, "0.023")
    assert rounds_to(release(example, 4).estimates[0].kg_site_day, "0.16")
    assert media(release(example, 4)) == [("water", None)]


def test_release_5_unknown_stripping_to_water_or_incineration(example, example_low_wafer):
    # §6.1.5: "Elocaletch_strip_disposal = 0.023 to 0.16 ... over 360 days/year from 3 sites";
    # "Because the type of stripping process is unknown, assume release is to on-site industrial
    # wastewater treatment or incineration."
    assert rounds_to(release(example_low_wafer, 5).estimates[0].kg_site_day, "0.023")
    assert rounds_to(release(example, 5).estimates[0].kg_site_day, "0.16")
    assert media(release(example, 5)) == [("water", None), ("incineration", None)]
    assert example.facility["stripping_process"] == "unknown"


# --- §4.7: the stripping-process split -------------------------------------------------


@pytest.mark.parametrize("process, expected", [
    # §4.7: "Plasma stripping/ash – chemical of interest in the removed photoresist is destroyed."
    ("plasma", [("destroyed", 1.0)]),
    # "Aqueous stripping – chemical of interest is released 100 percent to water."
    ("aqueous", [("water", 1.0)]),
    # "Organic solvent stripping – ... 25 percent to water and 75 percent to incineration."
    ("organic_solvent", [("water", 0.25), ("incineration", 0.75)]),
    # "Unknown stripping process – chemical of interest is released to water or incineration."
    ("unknown", [("water", None), ("incineration", None)]),
])
def test_stripping_process_media(process, expected):
    result = compute(**SECTION_6, stripping_process=process)
    assert media(release(result, 5)) == expected


def test_organic_solvent_split_in_the_totals():
    result = compute(**SECTION_6, stripping_process="organic_solvent")
    five = release(result, 5).estimates[0].kg_year_all_sites
    four = release(result, 4).estimates[0].kg_year_all_sites
    three = release(result, 3).estimates[0].kg_year_all_sites
    two = release(result, 2).estimates[0].kg_year_all_sites
    one = release(result, 1).estimates[0].kg_year_all_sites
    totals = result.totals_by_medium()
    # §4.7 split: 25 % of Release 5 to water beside Release 4; 75 % to incineration beside
    # Releases 1 and 3 (Table 1-1: container residue to incineration) and Release 2
    # (incineration or landfill, §4.4: counted under incineration, its first, unless chosen)
    assert totals["water"] == pytest.approx(four + 0.25 * five)
    assert totals["incineration"] == pytest.approx(one + two + three + 0.75 * five)


def test_plasma_stripping_destroys_release_5():
    result = compute(**SECTION_6, stripping_process="plasma")
    assert result.totals_by_medium()["destroyed"] == pytest.approx(release(result, 5).estimates[0].kg_year_all_sites)


# --- Section 7: the sample IRER --------------------------------------------------------

# Each row: release number, the IRER's characterisation, and its printed kg/site-day,
# kg/site-yr and kg/yr-all sites (Section 7, "ENVIRONMENTAL RELEASES ESTIMATE SUMMARY")
IRER_ROWS = [
    (4, "output", "1.6E-1", "5.8E+1", "1.7E+2"),  # Water, "Output 2", from: Waste Developer Solution
    (5, "output", "1.6E-1", "5.8E+1", "1.7E+2"),  # Water or Incineration, "Output 2", Etching and Stripping Waste
    (1, "high end", "2.8E-2", "1.0E+1", "3.0E+1"),  # Incineration, "High End", bottles
    (2, "conservative", "4.6E-2", "1.7E+1", "5E+1"),  # Incineration or Landfill, "Conservative"
    (3, "output", "4.3E+0", "1.5E+3", "4.6E+3"),  # Incineration, "Output 2", Spin-Off
]


@pytest.mark.parametrize("number, label, per_day, per_site_year, all_sites", IRER_ROWS)
def test_sample_irer_release(irer, number, label, per_day, per_site_year, all_sites):
    (e,) = release(irer, number).estimates
    assert e.label == label
    assert e_notation(e.kg_site_day, per_day)
    assert e_notation(e.kg_site_year, per_site_year)
    assert e_notation(e.kg_year_all_sites, all_sites)
    # every block: "over 360 days/yr from 3 sites"
    assert (e.days_per_year, e.sites) == (360, 3)


def test_sample_irer_release_total(irer):
    # Section 7: "RELEASE TOTAL 5.0E+3 kg/yr - all sites"
    total = sum(r.estimates[0].kg_year_all_sites for r in irer.releases)
    assert e_notation(total, "5.0E+3")
    assert e_notation(irer.facility["release_total_kg_yr"], "5.0E+3")


def test_sample_irer_media(irer):
    # Section 7 headings: Water (developer); Water or Incineration (etching and stripping);
    # Incineration (bottles); Incineration or Landfill (equipment); Incineration (spin-off)
    assert media(release(irer, 4)) == [("water", None)]
    assert media(release(irer, 5)) == [("water", None), ("incineration", None)]
    assert media(release(irer, 1)) == [("incineration", None)]
    assert media(release(irer, 2)) == [("incineration", None), ("landfill", None)]
    assert media(release(irer, 3)) == [("incineration", None)]


def test_sample_irer_basis_loss_fractions(irer):
    # Section 7 bases: "LF = (1-0.01) x 0.07 x 0.5 = 0.03465" (developer, etching/stripping) and
    # "(1-0.01)x(1-0.07) = 0.9207" (spin-off)
    assert "0.03465" in release(irer, 4).estimates[0].basis
    assert "0.03465" in release(irer, 5).estimates[0].basis
    assert "0.9207" in release(irer, 3).estimates[0].basis


def test_sample_irer_records_the_daily_use_basis(irer):
    # irer.md: PV ÷ (sites × days) = 4.63 kg/site-day reproduces the sample's spin-off 4.3E+0
    assert irer.facility["daily_use_basis"] == "chemsteer"
    assert rounds_to(irer.facility["Qchem_day"], "4.63")
    assert any("ChemSTEER's rule, as its IRERs print it" in n for n in irer.notes)


def test_the_esd_rule_gives_4_2_and_closes_the_mass_balance():
    # irer.md: the ESD's own rule ((1 − 0.006) × PV ÷ (sites × days) = 4.60) "gives 4.2E+0 and
    # closes the mass balance exactly"
    result = compute(**{**SAMPLE_IRER, "daily_use_basis": "dispensed"})
    assert e_notation(release(result, 3).estimates[0].kg_site_day, "4.2E+0")
    assert sum(r.estimates[0].kg_year_all_sites for r in result.releases) == pytest.approx(5000, rel=1e-12)


# --- Exposures: EPA's 2013 hand areas --------------------------------------------------


def test_exposures_use_epa_2013_hand_areas(example):
    # The update assesses no exposures (Section 7: "outside of the scope of the ESD update"); its
    # IRER was "Generated by the 09/30/2013 version of ChemSTEER", after EPA's September 2013
    # change to 535/1,070 cm². By hand: A high end 2.1 × 535 × 0.15 = 168.525 mg/day;
    # B high end 2.1 × 1,070 × 0.15 = 337.05 mg/day; E low end 0.7 × 1,070 × 0.15 × 0.01 = 1.1235
    by = {(x.letter, e.label): e.mg_day for x in example.exposures for e in x.estimates}
    assert by[("A", "high end")] == pytest.approx(168.525)
    assert by[("B", "high end")] == pytest.approx(337.05)
    assert by[("E", "low end")] == pytest.approx(1.1235)
    assert example.default_set["hand_areas"] == "epa-2013"
    assert example.inputs["AREAsurface_1hand"] == 535 and example.inputs["AREAsurface_2hand"] == 1070


def test_the_printed_2010_hand_areas_can_be_chosen():
    result = compute(**SECTION_6, AREAsurface_1hand=420, AREAsurface_2hand=840)
    assert result.default_set["hand_areas"] == "esd-2010"
    assert result.default_set["scenario_default"] == "epa-2013"


def test_notes_say_why_exposures_follow_the_2010_esd(example):
    assert any("outside the scope of the EPA 2018 update" in n for n in example.notes)
