"""The standard EPA/OPPT release and exposure models (assessments.esd.models).

Every expected number is either printed in a source document (the comment says where)
or a hand calculation written out in the test. "2010 ESD" is OECD ESD No. 9, Photoresist
Use in Semiconductor Manufacturing (2010), seeds/000_d29d57f7318cbf60.txt; "CVD ESD" is
OECD ESD No. 35, Chemical Vapour Deposition in the Semiconductor Industry (2015),
seeds/004_0329b8505f36c53a.txt; "2018 IRER" is the sample IRER in Section 7 of EPA's
2018 update of the photoresist ESD, seeds/002_cb894bf81e617eac.txt.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from assessments.esd.models import dermal, doses, inhalation, residue, vapour, volatility


def round_sig(x: float, sig: int) -> float:
    """Round to ``sig`` significant figures, as the documents print results."""
    return round(x, sig - 1 - math.floor(math.log10(abs(x))))


# ======================================================================================
# Residue models: loss fractions (Tables B-3 and B-5)
# ======================================================================================


@pytest.mark.parametrize(
    "name, printed",
    [
        # 2010 ESD, Appendix B.3, Table B-3 (liquid; Small Container, Drum, Bulk; solids)
        ("SMALL_CONTAINER_CT", 0.003),
        ("SMALL_CONTAINER_HE", 0.006),
        ("DRUM_PUMPING_CT", 0.025),
        ("DRUM_PUMPING_HE", 0.03),
        ("DRUM_POURING_CT", 0.003),
        ("DRUM_POURING_HE", 0.006),
        ("BULK_CT", 0.0007),
        ("BULK_HE", 0.002),
        ("SOLIDS_CONTAINER", 0.01),
        # 2010 ESD, Appendix B.4, Table B-5 (Single / Multiple Process Vessel)
        ("SINGLE_VESSEL_CONSERVATIVE", 0.01),
        ("SINGLE_VESSEL_GRAVITY_CT", 0.0007),
        ("SINGLE_VESSEL_GRAVITY_HE", 0.002),
        ("MULTIPLE_VESSEL_CONSERVATIVE", 0.02),
    ],
)
def test_loss_fraction_constants_match_tables_b3_and_b5(name, printed):
    assert getattr(residue, name) == printed


def test_every_loss_fraction_constant_has_a_source_naming_its_table():
    for name, text in residue.LOSS_FRACTION_SOURCES.items():
        assert hasattr(residue, name), name
        assert "Table B-3" in text or "Table B-5" in text, name
        assert "2010" in text, name
    assert len(residue.LOSS_FRACTION_SOURCES) == 13


def test_residual_model_names_are_the_documents():
    # 2010 ESD, Appendix B.3 and B.4, lists of "the standard EPA models"
    assert residue.SMALL_CONTAINER_MODEL == "EPA/OPPT Small Container Residual Model"
    assert residue.DRUM_MODEL == "EPA/OPPT Drum Residual Model"
    assert residue.BULK_MODEL == "EPA/OPPT Bulk Transport Residual Model"
    assert residue.SOLIDS_MODEL == "EPA/OPPT Solid Residuals in Transport Containers Model"
    assert residue.SINGLE_VESSEL_MODEL == "EPA/OPPT Single Process Vessel Residual Model"
    assert residue.MULTIPLE_VESSEL_MODEL == "EPA/OPPT Multiple Process Vessel Residual Model"


@pytest.mark.parametrize(
    "volume_gal, key",
    [
        # 2010 ESD, Table B-1 / B-3 ranges: bottle < 5; small container 5 to < 20;
        # drum 20 to < 100; tote 100 to < 1,000; tank truck 1,000 to < 10,000;
        # rail car 10,000 and up. Lower bounds inclusive, upper bounds exclusive.
        (1, "bottle"),
        (4.99, "bottle"),
        (5, "small_container"),
        (16, "small_container"),  # the CVD ESD's 16-gal (60.6 L) container
        (19.99, "small_container"),
        (20, "drum"),
        (55, "drum"),
        (99.9, "drum"),
        (100, "tote"),
        (550, "tote"),
        (1_000, "tank_truck"),
        (5_000, "tank_truck"),
        (9_999, "tank_truck"),
        (10_000, "rail_car"),
        (20_000, "rail_car"),
    ],
)
def test_container_type_by_volume_follows_table_b3_ranges(volume_gal, key):
    assert residue.container_type(volume_gal).key == key


def test_container_type_defaults_are_the_printed_volumes():
    # 2010 ESD, Table B-3, Vcont_empty: 1, 5, 55, 550, 5,000, 20,000 gal
    assert [c.default_volume_gal for c in residue.CONTAINER_TYPES] == [1, 5, 55, 550, 5_000, 20_000]
    for c in residue.CONTAINER_TYPES:
        assert residue.container_type(c.default_volume_gal) is c


def test_photoresist_bottle_in_litres_is_a_bottle():
    # 2010 ESD Section 3.6: the default "1-gallon bottle", 3.8 L/container
    assert residue.container_type(residue.gallons_from_litres(3.8)).key == "bottle"
    # CVD ESD Appendix C: "a 16-gallon (approximately 60.6 liters) container"
    assert residue.gallons_from_litres(60.6) == pytest.approx(16.0, abs=0.01)


def test_container_residue_defaults_pick_the_table_b3_model():
    assert residue.container_residue_defaults(1).model == residue.SMALL_CONTAINER_MODEL
    assert residue.container_residue_defaults(55).estimates == (("central tendency", 0.025), ("high end", 0.03))
    assert residue.container_residue_defaults(550).model == residue.BULK_MODEL
    assert residue.container_residue_defaults(20_000).estimates == (("central tendency", 0.0007), ("high end", 0.002))
    # the pouring alternative applies to drums only (Table B-3)
    assert residue.container_residue_defaults(1, drum_emptying="pouring").estimates == (
        ("central tendency", 0.003),
        ("high end", 0.006),
    )
    solid = residue.container_residue_defaults(20_000, physical_form="solid")
    assert solid.model == residue.SOLIDS_MODEL and solid.estimates[0][1] == 0.01


# ======================================================================================
# Residue models: the release equations and the days rule (Eq B-11, B-12; Table B-4)
# ======================================================================================


def test_container_residue_release_reproduces_photoresist_release_1():
    # 2010 ESD Section 6.2.1 (Eqn 4-1b, Small Container Residual Model):
    # 4.63 kg chem received/site-day × 0.006 = "0.0278 kg chem. released/site-day"
    assert residue.container_residue_release(4.63, residue.SMALL_CONTAINER_HE) == pytest.approx(0.0278, rel=1e-3)


def test_equipment_residue_release_reproduces_photoresist_release_2():
    # 2010 ESD Section 6.2.2 (Eqn 4-2, Single Process Vessel Residual Model):
    # 4.60 kg chem dispensed/site-day × 0.01 = "0.046 kg chem. released/site-day"
    assert residue.equipment_residue_release(4.60, residue.SINGLE_VESSEL_CONSERVATIVE) == pytest.approx(0.046)
    assert residue.loss_fraction_release(4.60, 0.01) == pytest.approx(0.046)


def test_table_b4_rule_reproduces_the_photoresist_daily_amount_received():
    # 2010 ESD Section 6.1.5 and 6.2.1: 2,924 containers/site-yr of 3.8 kg photoresist at
    # 15 % chemical (0.57 kg chemical/container), 360 application days. More than one
    # container a day, so (Table B-4, first row) Q = 0.57 × 2,924 / 360 = 4.6297 kg/site-day,
    # over 360 days. The ESD prints Qchem_received_day = "4.63" (it reaches it as
    # 4.60 / (1 - 0.006)).
    q, days = residue.container_residue_daily_quantity(0.57, 2924, 360)
    assert round(q, 2) == 4.63
    assert days == 360


def test_table_b4_rule_fewer_than_one_container_a_day_reproduces_cvd_eq_c1a():
    # CVD ESD Appendix C, sample calculation for Eq C-1a: fewer containers than
    # operating days, so the daily release is one container's worth:
    # 60.6 L/container × 1 kg/L × 1.0 × 0.1 × 1 container/site-day = "6.06 kg chemical
    # disposed/site-day", over as many days as containers (Table B-4, second row).
    # (0.1 is the CVD ESD's own residue fraction, not a Table B-3 default.)
    q, days = residue.container_residue_daily_quantity(60.6 * 1.0 * 1.0, 17, 250)
    assert (q, days) == (pytest.approx(60.6), 17)
    assert residue.container_residue_release(q, 0.1) == pytest.approx(6.06)


def test_table_b4_rule_exactly_one_container_a_day_gives_the_same_answer_either_way():
    # 360 containers over 360 days: row 1 gives 2 kg × 1/day over 360 days; row 2
    # would give 2 kg over 360 containers = days. Same numbers.
    assert residue.container_residue_daily_quantity(2.0, 360, 360) == (2.0, 360)


def test_table_b6_rule_for_batches():
    # Hand calculation (2010 ESD Table B-6): 10 kg/batch, 730 batches/yr, 365 days:
    # 2 batches a day, so Q = 10 × 730/365 = 20 kg/site-day over 365 days.
    # 10 kg/batch, 12 batches/yr (monthly campaigns): Q = 10 kg over 12 days.
    assert residue.equipment_residue_daily_quantity(10, 730, 365) == (20.0, 365)
    assert residue.equipment_residue_daily_quantity(10, 12, 365) == (10, 12)


def test_annual_release_reproduces_the_2018_irer_container_residue_totals():
    # 2018 IRER (Section 7, "Incineration ... Cleaning Liquid Residuals from Bottles"):
    # "High End: 2.8E-2 kg/site-day over 360 days/yr from 3 sites or 1.0E+1 kg/site-yr
    # from 3 sites or 3.0E+1 kg/yr-all sites". Unrounded daily value 4.6296 × 0.006.
    kg_day = residue.container_residue_release(5000 / (3 * 360), 0.006)
    assert round_sig(kg_day, 2) == 0.028
    assert round_sig(residue.annual_release(kg_day, 360), 2) == 10
    assert round_sig(residue.annual_release(kg_day, 360, 3), 2) == 30


def test_annual_release_reproduces_the_2018_irer_equipment_cleaning_totals():
    # 2018 IRER: "Conservative: 4.6E-2 kg/site-day over 360 days/yr from 3 sites or
    # 1.7E+1 kg/site-yr from 3 sites or 5E+1 kg/yr-all sites" (Single Vessel, 1 %).
    # Hand: 0.046 × 360 = 16.56 -> 1.7E+1; × 3 = 49.68 -> 5E+1.
    assert residue.annual_release(0.046, 360) == pytest.approx(16.56)
    assert round_sig(residue.annual_release(0.046, 360), 2) == 17
    assert round_sig(residue.annual_release(0.046, 360, 3), 1) == 50


# ======================================================================================
# Vapour generation models (Eq B-1 to B-6; Table B-1)
# ======================================================================================


def test_table_b1_defaults():
    # 2010 ESD, Appendix B, Table B-1
    assert vapour.D_OPENING_SMALL_CONTAINER_CM == 5.08
    assert vapour.D_OPENING_LARGE_CONTAINER_CM == 7.6
    assert vapour.D_OPENING_EQUIPMENT_CLEANING_CM == 92
    assert (vapour.D_OPENING_SAMPLING_TYPICAL_CM, vapour.D_OPENING_SAMPLING_WORST_CM) == (2.5, 10)
    rates = {k: v.fill_rate_per_h for k, v in vapour.CONTAINER_VAPOUR_DEFAULTS.items()}
    assert rates == {"bottle": 60, "small_container": 60, "drum": 20, "tote": 20, "tank_truck": 2, "rail_car": 1}
    assert vapour.CONTAINER_VAPOUR_DEFAULTS["drum"].saturation_typical == 0.5
    assert vapour.CONTAINER_VAPOUR_DEFAULTS["tote"].saturation_worst == 1
    assert vapour.EQUIPMENT_CLEANING_HOURS == {"multiple_vessels": 4, "single_large_vessel": 1, "single_small_vessel": 0.5}
    assert (vapour.SAMPLING_HOURS, vapour.CONTINUOUS_HOURS) == (1, 24)
    # every container class of residue.py has vapour defaults, and the volumes agree
    for c in residue.CONTAINER_TYPES:
        assert vapour.CONTAINER_VAPOUR_DEFAULTS[c.key].volume_gal == c.default_volume_gal
        assert vapour.CONTAINER_VAPOUR_DEFAULTS[c.key].opening_cm == vapour.opening_diameter_cm(c.default_volume_gal)


def test_opening_area():
    # Hand: π × 5.08² / 4 = 3.14159265 × 25.8064 / 4 = 20.26830 cm²
    assert vapour.opening_area_cm2(5.08) == pytest.approx(20.26830, rel=1e-6)


def test_penetration_model_hand_calculation():
    # MW 100 g/mol, VP 10 torr, drum opening d = 5.08 cm, vz 100 ft/min, T 298 K, X 1, P 1 atm
    #   MW^0.835              = 100^0.835            = 46.77351
    #   (1/29 + 1/MW)^0.25    = 0.0444828^0.25       = 0.459249
    #   vz^0.5                = 100^0.5              = 10
    #   A = π d²/4                                   = 20.26830 cm²
    #   T^0.05                = 298^0.05             = 1.329569
    #   d^0.5                 = 5.08^0.5             = 2.253886
    #   G = 8.24e-8 × 46.77351 × 1 × 10 × 0.459249 × 10 × 20.26830 / (1.329569 × 2.253886 × 1)
    #     = 1.197154e-3 g/s
    expected = 8.24e-8 * 46.77351 * 1 * 10 * 0.459249 * 10 * 20.26830 / (1.329569 * 2.253886 * 1)
    assert expected == pytest.approx(1.197154e-3, rel=1e-6)
    assert vapour.penetration_generation_rate(100, 10, 5.08) == pytest.approx(expected, rel=1e-5)


def test_penetration_model_scales_as_printed_exponents():
    # Eq B-1: G ∝ VP, ∝ X, ∝ vz^0.5, ∝ P^-0.5, ∝ d^1.5 (A/d^0.5)
    g = vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=25)
    assert vapour.penetration_generation_rate(100, 20, 5.08, vz_ft_min=25) == pytest.approx(2 * g)
    assert vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=25, X=0.5) == pytest.approx(0.5 * g)
    assert vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=100) == pytest.approx(2 * g)
    assert vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=25, P_atm=4) == pytest.approx(0.5 * g)
    assert vapour.penetration_generation_rate(100, 10, 4 * 5.08, vz_ft_min=25) == pytest.approx(8 * g)


def test_mass_transfer_model_hand_calculation():
    # MW 100, VP 10 torr, equipment-cleaning opening d = 92 cm, vz 440 ft/min, T 298 K, X 1
    #   MW^0.78               = 100^0.78             = 36.30781
    #   (1/29 + 1/MW)^0.33    = 0.0444828^0.33       = 0.358017
    #   vz^0.78               = 440^0.78             = 115.3169
    #   A = π × 92²/4                                = 6647.610 cm²
    #   T^0.4                 = 298^0.4              = 9.765321
    #   d^0.11                = 92^0.11              = 1.644435
    #   (T^0.5 - 5.87)^(2/3)  = 11.392677^(2/3)      = 5.063108
    #   G = 1.93e-7 × 36.30781 × 10 × 0.358017 × 115.3169 × 6647.610 / (9.765321 × 1.644435 × 5.063108)
    #     = 0.2365370 g/s
    expected = 1.93e-7 * 36.30781 * 10 * 0.358017 * 115.3169 * 6647.610 / (9.765321 * 1.644435 * 5.063108)
    assert expected == pytest.approx(0.2365370, rel=1e-6)
    assert vapour.mass_transfer_generation_rate(100, 10, 92) == pytest.approx(expected, rel=1e-5)


def test_ap42_loading_model_hand_calculation():
    # Drum filling: f 1 (worst case), MW 100, Vc 55 gal, 20 drums/h, X 1, VP 10 torr, T 298 K
    #   Vc × 3,785.4 = 55 × 3,785.4     = 208,197 cm³
    #   r / 3,600    = 20 / 3,600       = 0.00555556 /s
    #   VP / 760     = 10 / 760         = 0.01315789 atm
    #   R × T        = 82.05 × 298      = 24,450.9 atm·cm³/mol
    #   G = 1 × 100 × 208,197 × 0.00555556 × 0.01315789 / 24,450.9 = 0.0622434 g/s
    expected = 1 * 100 * 208_197 * (20 / 3600) * (10 / 760) / 24_450.9
    assert expected == pytest.approx(0.0622434, rel=1e-5)
    assert vapour.ap42_loading_generation_rate(100, 10, 55, 20) == pytest.approx(expected, rel=1e-9)
    # typical saturation factor 0.5 halves it (Table B-1)
    assert vapour.ap42_loading_generation_rate(100, 10, 55, 20, f=0.5) == pytest.approx(expected / 2)


def test_vapour_release_reproduces_cvd_eq_c5():
    # CVD ESD Appendix C, Eq C-5 sample: G_air = 3.13E-6 kg/s (= 3.13E-3 g/s),
    # TIME = 1 container/site-day ÷ 60 containers/hr:
    # 3.13E-6 × 3,600 × 1/60 = "1.88E-4 kg/site-day"
    assert vapour.vapour_release_kg_day(3.13e-3, 1 / 60) == pytest.approx(1.88e-4, rel=3e-3)


def test_vapour_release_hand_calculation():
    # Eq B-2: 1.197154e-3 g/s × 0.4 h × 3,600 s/h / 1,000 g/kg = 1.723902e-3 kg/site-day
    assert vapour.vapour_release_kg_day(1.197154e-3, 0.4) == pytest.approx(1.723902e-3, rel=1e-6)


def test_activity_hours_rules_of_table_b1():
    # 8 drums a day at 20 drums/h: 8 / 20 = 0.4 h
    assert vapour.container_activity_hours(8, 20) == pytest.approx(0.4)
    # batch: lesser of 3 h × 4 batches = 12 or 24; 10 h × 3 = 30 -> 24
    assert vapour.batch_activity_hours(3, 4) == 12
    assert vapour.batch_activity_hours(10, 3) == 24


def test_opening_diameter_switches_at_5000_gallons():
    # Table B-1: 5.08 cm "(<5,000 gals)", 7.6 cm "(>5,000 gals)"; the 5,000-gal tank
    # truck default takes 7.6 cm
    assert vapour.opening_diameter_cm(4_999) == 5.08
    assert vapour.opening_diameter_cm(5_000) == 7.6


# ======================================================================================
# Inhalation models (Eq B-7 to B-15; Table B-2)
# ======================================================================================


def test_table_b2_defaults():
    # 2010 ESD, Appendix B, Table B-2, and Eq B-9, B-10
    assert (inhalation.Q_INDOOR_TYPICAL_FT3_MIN, inhalation.Q_INDOOR_WORST_FT3_MIN) == (3_000, 500)
    assert inhalation.Q_OUTDOOR_TYPICAL_FT3_MIN == 237_600
    assert (inhalation.K_MIXING_TYPICAL, inhalation.K_MIXING_WORST) == (0.5, 0.1)
    assert inhalation.MOLAR_VOLUME_L_MOL == 24.45
    assert inhalation.BREATHING_RATE_M3_H == 1.25
    assert inhalation.MASS_BALANCE_CONSTANT == 1.7e5


def test_outdoor_worst_ventilation():
    # Table B-2: 26,400 × (60 × 440 / 5,280) = 26,400 × 5 = 132,000 ft³/min
    assert inhalation.outdoor_worst_ventilation_ft3_min(440) == pytest.approx(132_000)
    # at 880 ft/min (10 mile/h): 26,400 × 10 = 264,000
    assert inhalation.outdoor_worst_ventilation_ft3_min(880) == pytest.approx(264_000)


def test_mass_balance_chain_hand_calculation():
    # Drum unloading indoors, typical: G = 1.197154e-3 g/s (penetration hand calc above),
    # MW 100, Q 3,000 ft³/min, k 0.5, T 298 K, VP 10 torr.
    #   Eq B-7: Cv = 1.7e5 × 298 × 1.197154e-3 / (100 × 3,000 × 0.5)
    #              = 60,647.8 / 150,000 = 0.404319 ppm
    #   Eq B-8: 1 × 10 × 10⁶ / 760 = 13,157.9 ppm  -> B-7 is the lesser
    #   Eq B-9: Cm = 0.404319 × 100 / 24.45 = 1.653656 mg/m³
    #   Eq B-10: 8 drums at 20/h = 0.4 h: I = 1.653656 × 1.25 × 0.4 = 0.826828 mg/day
    g = vapour.penetration_generation_rate(100, 10, 5.08)
    cv = inhalation.mass_balance_concentration_ppm(g, 100, 3_000, 0.5, 10)
    assert cv == pytest.approx(0.404319, rel=1e-5)
    cm = inhalation.ppm_to_mg_m3(cv, 100)
    assert cm == pytest.approx(1.653656, rel=1e-5)
    hours = inhalation.container_exposure_hours(8, 20)
    assert hours == pytest.approx(0.4)
    assert inhalation.inhalation_dose(cm, hours) == pytest.approx(0.826828, rel=1e-5)


def test_saturation_cap_binds_for_a_very_volatile_chemical():
    # B.2.2.1: G "may be ... an otherwise known value". A very volatile chemical
    # (VP 400 torr, MW 60) evaporating at a known 50 g/s in a worst-case room
    # (Q 500 ft³/min, k 0.1):
    #   Eq B-7: 1.7e5 × 298 × 50 / (60 × 500 × 0.1) = 2.533e9 / 3,000 = 844,333 ppm
    #           (84 % of the air: impossible)
    #   Eq B-8: 1 × 400 × 10⁶ / 760 = 526,316 ppm  -> the cap binds
    assert inhalation.mass_balance_ppm(50, 60, 500, 0.1) == pytest.approx(844_333.3, rel=1e-6)
    assert inhalation.saturation_concentration_ppm(400) == pytest.approx(526_315.8, rel=1e-6)
    assert inhalation.mass_balance_concentration_ppm(50, 60, 500, 0.1, 400) == pytest.approx(526_315.8, rel=1e-6)
    # with a mole fraction of 0.5 the cap halves (Raoult's law, Eq B-8)
    assert inhalation.mass_balance_concentration_ppm(50, 60, 500, 0.1, 400, X=0.5) == pytest.approx(263_157.9, rel=1e-6)


def test_saturation_cap_does_not_bind_below_saturation():
    # Hand: 1.7e5 × 298 × 0.01 / (100 × 3,000 × 0.5) = 3.37733 ppm < 13,157.9 ppm
    assert inhalation.mass_balance_concentration_ppm(0.01, 100, 3_000, 0.5, 10) == pytest.approx(3.37733, rel=1e-5)


def test_cvd_eq_d1_sample():
    # CVD ESD Appendix D, Eq D-1 sample: 1.22 ppm × 100 g/mol / 24.45 L/mol × 1.25 m³/hr
    # × 0.016 hr/day = "0.1 mg/day" (unrounded: 4.98978 × 0.02 = 0.0997955)
    cm = inhalation.ppm_to_mg_m3(1.22, 100)
    dose = inhalation.inhalation_dose(cm, 0.016)
    assert round_sig(dose, 1) == 0.1
    assert dose == pytest.approx(0.0997955, rel=1e-5)
    # and with the Eq D-1 stated default of 8 hr/day: 4.98978 × 1.25 × 8 = 49.8978 mg/day
    assert inhalation.inhalation_dose(cm, 8) == pytest.approx(49.8978, rel=1e-5)


def test_small_volume_solids_hand_calculation():
    # Eq B-13: 20 kg/worker-shift × 1 shift × 0.3 × 0.161 mg/kg = 0.966 mg/day (worst)
    #          20 × 1 × 0.3 × 0.0477 = 0.2862 mg/day (typical)
    assert inhalation.small_volume_solids_dose(20, 0.3, inhalation.EF_WORST_MG_KG) == pytest.approx(0.966)
    assert inhalation.small_volume_solids_dose(20, 0.3, inhalation.EF_TYPICAL_MG_KG) == pytest.approx(0.2862)
    # 54 kg is still inside the model ("up to (and including) 54 kg/worker-shift", B.5)
    assert inhalation.small_volume_solids_dose(54, 1, 0.161) == pytest.approx(8.694)


def test_pnor_hand_calculation():
    # Eq B-14: 15 mg/m³ × 0.3 = 4.5 mg/m³; Eq B-15: 4.5 × 1.25 × 8 = 45 mg/day
    assert inhalation.pnor_concentration_mg_m3(0.3) == pytest.approx(4.5)
    assert inhalation.pnor_dose(0.3) == pytest.approx(45.0)
    # respirable fraction PEL 5 mg/m³: 5 × 0.3 × 1.25 × 8 = 15 mg/day
    assert inhalation.pnor_dose(0.3, C_total=inhalation.PNOR_RESPIRABLE_MG_M3) == pytest.approx(15.0)


def test_solids_model_switches_above_54_kg():
    # 2010 ESD B.5: up to and including 54 kg/worker-shift -> Small Volume Solids;
    # beyond -> OSHA Total PNOR PEL-Limiting Model
    assert inhalation.solids_inhalation_model(54) == inhalation.SMALL_VOLUME_SOLIDS_MODEL
    assert inhalation.solids_inhalation_model(55) == inhalation.PNOR_MODEL


def test_container_exposure_hours_is_the_lesser_of_rate_and_8():
    # Table B-2: lesser of (containers/site-day ÷ RATEfill) or 8: 200 drums ÷ 20/h = 10 -> 8
    assert inhalation.container_exposure_hours(200, 20) == 8
    assert inhalation.container_exposure_hours(100, 20) == 5


# ======================================================================================
# Dermal models (Eq B-16; Tables B-8, B-9)
# ======================================================================================


def test_hand_area_sets():
    assert dataclasses.is_dataclass(dermal.HandAreas)
    with pytest.raises(dataclasses.FrozenInstanceError):
        dermal.HAND_AREA_SETS["esd-2010"].one_hand = 1.0  # type: ignore[misc]
    esd = dermal.HAND_AREA_SETS["esd-2010"]
    epa = dermal.HAND_AREA_SETS["epa-2013"]
    # 2010 ESD Table B-8: 420 cm² (1 hand mean), 840 cm² (2 hand mean)
    assert (esd.one_hand, esd.two_hands) == (420.0, 840.0)
    assert "Table B-8" in esd.source
    # EPA/OPPT since September 2013 (Exposure Factors Handbook 2011): 535 and 1,070
    assert (epa.one_hand, epa.two_hands) == (535.0, 1070.0)
    assert "2013" in epa.source and "2011" in epa.source


def test_qu_defaults_match_table_b8():
    # 2010 ESD Table B-8: contact 0.7 / 2.1, immersion 1.3 / 10.3 mg/cm²-event
    assert (dermal.QU_CONTACT_LOW, dermal.QU_CONTACT_HIGH) == (0.7, 2.1)
    assert (dermal.QU_IMMERSION_LOW, dermal.QU_IMMERSION_HIGH) == (1.3, 10.3)
    assert (dermal.CONTAINER_SURFACE_SOLIDS_CAP_MG_EVENT, dermal.DIRECT_SOLIDS_CAP_MG_EVENT) == (1_100, 3_100)


def test_dermal_model_names():
    # 2010 ESD, Appendix B.6, list of the standard EPA dermal models
    assert dermal.ONE_HAND_CONTACT_MODEL == "EPA/OPPT 1-Hand Dermal Contact with Liquid Model"
    assert dermal.TWO_HAND_CONTACT_MODEL == "EPA/OPPT 2-Hand Dermal Contact with Liquid Model"
    assert dermal.TWO_HAND_IMMERSION_MODEL == "EPA/OPPT 2-Hand Dermal Immersion in Liquid Model"
    assert dermal.CONTAINER_SURFACE_SOLIDS_MODEL == "EPA/OPPT 2-Hand Dermal Contact with Container Surfaces Model"
    assert dermal.DIRECT_SOLIDS_MODEL == "EPA/OPPT 2-Hand Dermal Contact with Solids Model"


@pytest.mark.parametrize(
    "model, Qu, printed, sig",
    [
        # 2010 ESD Table B-8, "Resulting Contact AREAsurface × Qremain_skin (mg/event)",
        # printed rounded: 420 × 0.7 = 294 -> "290"; 420 × 2.1 = 882 -> "880";
        # 840 × 0.7 = 588 -> "590"; 840 × 2.1 = 1,764 -> "1,800";
        # 840 × 1.3 = 1,092 -> "1,100"; 840 × 10.3 = 8,652 -> "8,650"
        (dermal.ONE_HAND_CONTACT_MODEL, 0.7, 290, 2),
        (dermal.ONE_HAND_CONTACT_MODEL, 2.1, 880, 2),
        (dermal.TWO_HAND_CONTACT_MODEL, 0.7, 590, 2),
        (dermal.TWO_HAND_CONTACT_MODEL, 2.1, 1_800, 2),
        (dermal.TWO_HAND_IMMERSION_MODEL, 1.3, 1_100, 2),
        (dermal.TWO_HAND_IMMERSION_MODEL, 10.3, 8_650, 3),
    ],
)
def test_table_b8_products(model, Qu, printed, sig):
    S = dermal.surface_area_cm2(model, "esd-2010")
    assert round_sig(dermal.dermal_dose(S, Qu, 1.0), sig) == printed


@pytest.mark.parametrize(
    "S, Yderm, low, high, sig_high",
    [
        # 2010 ESD Section 6.3.3 (Exposure A, 1-Hand): "44-132 mg chem./day"
        (420, 0.15, 44, 132, 3),
        # Sections 6.3.4, 6.3.5, 6.3.6 (Exposures B, C, D, 2-Hand): "88-265" (printed "26588")
        (840, 0.15, 88, 265, 3),
        # Section 6.3.7 (Exposure E): × 0.01 mg photoresist/mg waste: "0.88-2.6" (printed "6.20.88")
        (840, 0.15 * 0.01, 0.88, 2.6, 2),
    ],
)
def test_dermal_dose_reproduces_photoresist_section_6_3(S, Yderm, low, high, sig_high):
    # low ends are printed to 2 significant figures, high ends as listed
    assert round_sig(dermal.dermal_dose(S, dermal.QU_CONTACT_LOW, Yderm), 2) == low
    assert round_sig(dermal.dermal_dose(S, dermal.QU_CONTACT_HIGH, Yderm), sig_high) == high


def test_dermal_dose_unrounded_photoresist_exposure_a():
    # 0.7 × 420 × 1 × 0.15 = 44.1; 2.1 × 420 × 1 × 0.15 = 132.3 (Section 6.3.3, unrounded)
    assert dermal.dermal_dose(420, 0.7, 0.15) == pytest.approx(44.1)
    assert dermal.dermal_dose(420, 2.1, 0.15, FT=1) == pytest.approx(132.3)


def test_dermal_dose_with_epa_2013_areas():
    # Hand: 1,070 cm² × 2.1 mg/cm² × 0.15 × 1 = 337.05 mg/day (2-hand, high, current EPA areas)
    S = dermal.surface_area_cm2(dermal.TWO_HAND_CONTACT_MODEL, "epa-2013")
    assert dermal.dermal_dose(S, 2.1, 0.15) == pytest.approx(337.05)


def test_solids_dermal_bounds():
    # Table B-8: < 1,100 and < 3,100 mg/event; × 0.2 × 1 event/day = 220 and 620 mg/day
    assert dermal.solids_dermal_dose_bound(dermal.CONTAINER_SURFACE_SOLIDS_CAP_MG_EVENT, 0.2) == pytest.approx(220)
    assert dermal.solids_dermal_dose_bound(dermal.DIRECT_SOLIDS_CAP_MG_EVENT, 0.2) == pytest.approx(620)


@pytest.mark.parametrize(
    "pH, temperature_C, negligible",
    [
        # 2010 ESD Table B-9: corrosive (pH > 12, pH < 2) and > 140 °F (60 °C): negligible
        (1.9, None, True),
        (2.0, None, False),
        (12.0, None, False),
        (12.1, None, True),
        (7, 60, False),
        (7, 60.5, True),
        (None, 80, True),
        (None, None, False),
    ],
)
def test_table_b9_negligible_dermal(pH, temperature_C, negligible):
    assert dermal.is_dermal_negligible(pH=pH, temperature_C=temperature_C) is negligible


# ======================================================================================
# Doses
# ======================================================================================


def test_exposure_days_photoresist():
    # 2010 ESD Section 6.3: 360 operating days -> "...over 250 days/year"
    assert doses.exposure_days(360) == 250
    # 2010 ESD Section 5.5: cleanings fewer than 250 a year keep their number (e.g. 52)
    assert doses.exposure_days(52) == 52


def test_dose_averages_hand_calculation():
    # I = 132.3 mg/day (Exposure A, high end), ED 250 d/yr, EY 40 yr, BW 70 kg
    #   APDR = 132.3 / 70 = 1.89 mg/kg-day
    #   ADD  = 132.3 × 250 × 40 / (70 × 40 × 365) = 1,323,000 / 1,022,000 = 1.294521
    #   LADD = 132.3 × 250 × 40 / (70 × 70 × 365) = 1,323,000 / 1,788,500 = 0.739726
    assert doses.apdr(132.3) == pytest.approx(1.89)
    assert doses.add(132.3, 250) == pytest.approx(1.294521, rel=1e-6)
    assert doses.ladd(132.3, 250) == pytest.approx(0.739726, rel=1e-6)
    # with 80 kg (recent TSCA evaluations): APDR = 132.3 / 80 = 1.65375
    assert doses.apdr(132.3, BW=doses.BW_TSCA_KG) == pytest.approx(1.65375)
    assert doses.BW_DEFAULT_KG == 70 and doses.BW_TSCA_KG == 80


# ======================================================================================
# Volatility gates
# ======================================================================================


def test_irer_sample_chemical_is_nonvolatile():
    # 2018 IRER sample: "VP 1.0E-6 torr @ 20 °C"; inhalation not assessed
    assert volatility.is_nonvolatile(1.0e-6)


def test_volatility_thresholds():
    # CVD ESD Explanatory Notes: volatile "at or greater than 0.001 torr"
    assert volatility.is_nonvolatile(0.000999)
    assert not volatility.is_nonvolatile(0.001)
    assert volatility.is_volatile(0.001)
    # 2004 photoresist ESD: air releases negligible below 0.01 torr
    assert volatility.air_release_negligible_2004(0.0099)
    assert not volatility.air_release_negligible_2004(0.01)


def test_cvd_volatility_classes():
    # CVD ESD Appendix C: semi-volatile 0.001-35 torr, highly volatile above 35 torr.
    # The Appendix C/D sample chemical (2,000 torr) and HCFC-22 (7,846 torr, Table C-3 note)
    # are highly volatile.
    assert volatility.cvd_volatility_class(0.0005) == "nonvolatile"
    assert volatility.cvd_volatility_class(0.001) == "semi-volatile"
    assert volatility.cvd_volatility_class(35) == "semi-volatile"
    assert volatility.cvd_volatility_class(35.01) == "highly volatile"
    assert volatility.cvd_volatility_class(2_000) == "highly volatile"
    assert volatility.cvd_volatility_class(7_846) == "highly volatile"


# ======================================================================================
# Bad arguments: ValueError naming the argument and its range; never clamped
# ======================================================================================


@pytest.mark.parametrize(
    "call, match",
    [
        # residue
        (lambda: residue.loss_fraction_release(-1, 0.01), r"amount_kg_day must be at least 0"),
        (lambda: residue.loss_fraction_release(1, 1.5), r"loss_fraction must be between 0 and 1"),
        (lambda: residue.loss_fraction_release(1, -0.1), r"loss_fraction must be between 0 and 1"),
        (lambda: residue.container_residue_release(1, 2), r"loss_fraction must be between 0 and 1"),
        (lambda: residue.annual_release(-0.1, 360), r"kg_day must be at least 0"),
        (lambda: residue.annual_release(1, 400), r"days must be between 0 and 366"),
        (lambda: residue.annual_release(1, 360, 0), r"sites must be at least 1"),
        (lambda: residue.annual_release(1, 360, 2.5), r"sites must be a whole number"),
        (lambda: residue.container_type(0), r"volume_gal must be greater than 0 gal"),
        (lambda: residue.container_type(-5), r"volume_gal must be greater than 0"),
        (lambda: residue.container_residue_daily_quantity(1, 10, 0), r"operating_days must be greater than 0"),
        (lambda: residue.container_residue_daily_quantity(1, 0, 250), r"containers_per_year must be greater than 0"),
        (lambda: residue.container_residue_daily_quantity(-1, 10, 250), r"kg_per_container must be at least 0"),
        (lambda: residue.equipment_residue_daily_quantity(1, 0, 250), r"batches_per_year must be greater than 0"),
        (lambda: residue.container_residue_defaults(55, physical_form="gas"), r"physical_form must be one of"),
        (lambda: residue.container_residue_defaults(55, drum_emptying="tipping"), r"drum_emptying must be one of"),
        (lambda: residue.equipment_residue_defaults(vessels="several"), r"vessels must be one of"),
        (lambda: residue.equipment_residue_defaults(vessels="multiple", draining="gravity"), r"draining must be pumping"),
        (lambda: residue.gallons_from_litres(-1), r"V_L must be at least 0"),
        # vapour
        (lambda: vapour.opening_area_cm2(0), r"d_cm must be greater than 0 cm"),
        (lambda: vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=101), r"vz_ft_min must be greater than 0 and at most 100 ft/min: .*Mass Transfer Coefficient Model"),
        (lambda: vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=0), r"vz_ft_min must be greater than 0"),
        (lambda: vapour.penetration_generation_rate(0, 10, 5.08), r"MW must be greater than 0 g/mol"),
        (lambda: vapour.penetration_generation_rate(100, -1, 5.08), r"VP_torr must be at least 0 torr"),
        (lambda: vapour.penetration_generation_rate(100, 10, 0), r"d_cm must be greater than 0"),
        (lambda: vapour.penetration_generation_rate(100, 10, 5.08, X=1.2), r"X must be between 0 and 1"),
        (lambda: vapour.penetration_generation_rate(100, 10, 5.08, P_atm=0), r"P_atm must be greater than 0 atm"),
        (lambda: vapour.penetration_generation_rate(100, 10, 5.08, T_K=-1), r"T_K must be greater than 0 K"),
        (lambda: vapour.mass_transfer_generation_rate(100, 10, 92, vz_ft_min=100), r"vz_ft_min must be greater than 100 ft/min: .*Penetration Model"),
        (lambda: vapour.mass_transfer_generation_rate(100, 10, 92, T_K=30), r"T_K must be greater than 34.4569 K"),
        (lambda: vapour.ap42_loading_generation_rate(100, 10, 0, 20), r"Vc_gal must be greater than 0 gal"),
        (lambda: vapour.ap42_loading_generation_rate(100, 10, 55, 0), r"fill_rate_per_h must be greater than 0"),
        (lambda: vapour.ap42_loading_generation_rate(100, 10, 55, 20, f=0), r"f must be greater than 0 and at most 1"),
        (lambda: vapour.ap42_loading_generation_rate(100, 10, 55, 20, f=1.5), r"f must be greater than 0 and at most 1"),
        (lambda: vapour.vapour_release_kg_day(-1, 1), r"G_g_s must be at least 0 g/s"),
        (lambda: vapour.vapour_release_kg_day(1, 25), r"hours must be between 0 and 24 h/site-day"),
        (lambda: vapour.container_activity_hours(100, 2), r"must be at most 24 h/site-day"),
        (lambda: vapour.container_activity_hours(0, 20), r"containers_per_day must be greater than 0"),
        (lambda: vapour.batch_activity_hours(0, 2), r"hours_per_batch must be greater than 0"),
        (lambda: vapour.opening_diameter_cm(0), r"volume_gal must be greater than 0"),
        # inhalation
        (lambda: inhalation.mass_balance_ppm(1, 100, 0, 0.5), r"Q_ft3_min must be greater than 0 ft3/min"),
        (lambda: inhalation.mass_balance_ppm(1, 0, 3000, 0.5), r"MW must be greater than 0 g/mol"),
        (lambda: inhalation.mass_balance_ppm(1, 100, 3000, 0), r"k must be greater than 0 and at most 1"),
        (lambda: inhalation.mass_balance_ppm(-1, 100, 3000, 0.5), r"G_g_s must be at least 0"),
        (lambda: inhalation.mass_balance_concentration_ppm(1, 100, 3000, 0.5, -1), r"VP_torr must be at least 0"),
        (lambda: inhalation.saturation_concentration_ppm(10, P_torr=0), r"P_torr must be greater than 0 torr"),
        (lambda: inhalation.ppm_to_mg_m3(1, 0), r"MW must be greater than 0"),
        (lambda: inhalation.ppm_to_mg_m3(-1, 100), r"Cv_ppm must be at least 0 ppm"),
        (lambda: inhalation.inhalation_dose(1, 9), r"hours must be between 0 and 8 h/worker-day"),
        (lambda: inhalation.inhalation_dose(1, -1), r"hours must be between 0 and 8"),
        (lambda: inhalation.inhalation_dose(1, 8, breathing_rate=0), r"breathing_rate must be greater than 0"),
        (lambda: inhalation.small_volume_solids_dose(55, 0.5, 0.161), r"Q_shift_kg must be between 0 and 54 kg/worker-shift"),
        (lambda: inhalation.small_volume_solids_dose(10, 1.5, 0.161), r"Ychem must be between 0 and 1"),
        (lambda: inhalation.small_volume_solids_dose(10, 0.5, 0.161, Nshifts=0), r"Nshifts must be greater than 0"),
        (lambda: inhalation.pnor_dose(0.5, hours=10), r"hours must be between 0 and 8"),
        (lambda: inhalation.pnor_concentration_mg_m3(0.5, C_total=0), r"C_total must be greater than 0"),
        (lambda: inhalation.outdoor_worst_ventilation_ft3_min(0), r"vz_ft_min must be greater than 0"),
        (lambda: inhalation.container_exposure_hours(1, 0), r"fill_rate_per_h must be greater than 0"),
        (lambda: inhalation.solids_inhalation_model(-1), r"Q_shift_kg must be at least 0"),
        # dermal
        (lambda: dermal.dermal_dose(-420, 2.1, 0.15), r"S_cm2 must be at least 0 cm2"),
        (lambda: dermal.dermal_dose(420, -2.1, 0.15), r"Qu_mg_cm2 must be at least 0"),
        (lambda: dermal.dermal_dose(420, 2.1, 15), r"Yderm must be between 0 and 1"),
        (lambda: dermal.dermal_dose(420, 2.1, 0.15, FT=0), r"FT must be greater than 0 events/day"),
        (lambda: dermal.solids_dermal_dose_bound(0, 0.5), r"cap_mg_event must be greater than 0"),
        (lambda: dermal.hand_areas("epa-2019"), r"hand_area_set must be one of esd-2010, epa-2013"),
        (lambda: dermal.surface_area_cm2(dermal.DIRECT_SOLIDS_MODEL), r"model must be one of"),
        (lambda: dermal.is_dermal_negligible(temperature_C=-300), r"temperature_C must be at least -273.15"),
        (lambda: dermal.is_dermal_negligible(pH=float("nan")), r"pH must be a finite number"),
        # doses
        (lambda: doses.apdr(10, BW=0), r"BW must be greater than 0 kg"),
        (lambda: doses.apdr(-10), r"I_mg_day must be at least 0"),
        (lambda: doses.add(10, 400), r"ED must be between 0 and 366"),
        (lambda: doses.add(10, 250, EY=50), r"EY must be between 0 and 40"),
        (lambda: doses.add(10, 250, AT=0), r"AT must be greater than 0 yr"),
        (lambda: doses.ladd(10, 250, EY=80), r"EY must be between 0 and 70"),
        (lambda: doses.ladd(10, 250, ATc=-70), r"ATc must be greater than 0"),
        (lambda: doses.exposure_days(-1), r"operating_days must be between 0 and 366"),
        (lambda: doses.exposure_days(400), r"operating_days must be between 0 and 366"),
        # volatility
        (lambda: volatility.is_nonvolatile(-0.5), r"VP_torr must be at least 0 torr"),
        (lambda: volatility.cvd_volatility_class(-1), r"VP_torr must be at least 0"),
        # type errors are value errors with the argument's name, too
        (lambda: vapour.opening_area_cm2("5"), r"d_cm must be a number"),
        (lambda: residue.loss_fraction_release(True, 0.01), r"amount_kg_day must be a number"),
        (lambda: vapour.opening_area_cm2(float("inf")), r"d_cm must be a finite number"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_argument_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_penetration_model_accepts_its_default_air_speed_of_100():
    # Eq B-1 default is 100 ft/min ("less than or equal to 100", B.2.1.1): allowed
    assert vapour.penetration_generation_rate(100, 10, 5.08, vz_ft_min=100) > 0


def test_nothing_is_clamped_out_of_range_raises_rather_than_returning_the_limit():
    with pytest.raises(ValueError):
        inhalation.inhalation_dose(10, 12)
    with pytest.raises(ValueError):
        inhalation.small_volume_solids_dose(100, 1, 0.161)
