"""An inhalation estimate's airborne concentration against the case's TLV/PEL
(``assessments.exposure_limits.check_estimate``): in the limit's unit, converting with the
case's molecular weight where the estimate lacks that unit (ppm = mg/m³ × 24.45 / MW at
25 °C, 1 atm), saying so in plain words where no comparison can be made, and never
comparing a result stored before the engine reported concentrations."""

from __future__ import annotations

import pytest

from assessments import exposure_limits
from assessments.exposure_limits import (
    ABOVE,
    CANNOT_COMPARE,
    NOT_ABOVE,
    RECOMPUTE,
    ExposureLimit,
    tlv_pel_text,
)
from tests.conftest import make_submission
from tests.exposure_limit_fixtures import TWA_5, check

PPM1 = ExposureLimit(1.0, "ppm")


def test_a_mg_m3_limit_is_compared_with_the_mg_m3_figure():
    above = check({"mg_day": 75.0, "mg_m3": 7.5, "ppm": None}, TWA_5)
    assert above.state == ABOVE and above.text == "above the TLV/PEL of 5 mg/m³"
    below = check({"mg_day": 10.0, "mg_m3": 1.0, "ppm": None}, TWA_5)
    assert below.state == NOT_ABOVE and below.text == "not above the TLV/PEL of 5 mg/m³"


def test_a_concentration_equal_to_the_limit_is_not_above_it():
    assert check({"mg_day": 50.0, "mg_m3": 5.0}, TWA_5).state == NOT_ABOVE


def test_a_ppm_limit_is_compared_with_the_estimates_ppm():
    # mg/m³ 8.0 would be above a limit of 1 if read as ppm; the estimate's own ppm (0.5) is not.
    assert check({"mg_day": 80.0, "mg_m3": 8.0, "ppm": 0.5}, PPM1, mw=200.0).state == NOT_ABOVE
    assert check({"mg_day": 80.0, "mg_m3": 8.0, "ppm": 1.5}, PPM1).text == "above the TLV/PEL of 1 ppm"


def test_a_ppm_limit_converts_mg_m3_with_the_cases_molecular_weight():
    # By hand: 16.36 mg/m³ × 24.45 L/mol / 200 g/mol = 2.0 ppm, above 1 ppm and not above 2.5 ppm.
    estimate = {"mg_day": 163.6, "mg_m3": 16.36, "ppm": None}
    assert check(estimate, PPM1, mw=200.0).state == ABOVE
    assert check(estimate, ExposureLimit(2.5, "ppm"), mw=200.0).state == NOT_ABOVE


def test_a_mg_m3_limit_converts_ppm_when_the_estimate_has_no_mg_m3():
    # By hand: 1 ppm × 200 g/mol / 24.45 L/mol = 8.18 mg/m³, above 5 mg/m³.
    assert check({"mg_day": 80.0, "ppm": 1.0}, TWA_5, mw=200.0).state == ABOVE


def test_without_ppm_or_a_molecular_weight_the_comparison_cannot_be_made():
    outcome = check({"mg_day": 80.0, "mg_m3": 8.0, "ppm": None}, PPM1, mw=None)
    assert outcome.state == CANNOT_COMPARE
    assert outcome.text.startswith("cannot be compared with the TLV/PEL of 1 ppm")
    assert "no molecular weight" in outcome.text


def test_an_inhalation_estimate_not_from_an_airborne_concentration_says_so():
    outcome = check({"mg_day": 3.0, "mg_m3": None, "ppm": None}, TWA_5)
    assert outcome.state == CANNOT_COMPARE and "not computed from an airborne concentration" in outcome.text


def test_a_result_stored_before_concentrations_says_recompute_the_use():
    outcome = check({"mg_day": 3.0}, TWA_5, result={"exposures": []})
    assert outcome.state == RECOMPUTE
    assert outcome.text == "not computed: recompute the use to compare it with the TLV/PEL of 5 mg/m³"


def test_dermal_estimates_and_cases_without_a_limit_are_not_compared():
    assert check({"mg_day": 1e6, "mg_m3": 1e6}, TWA_5, route="dermal") is None
    assert check({"mg_day": 1e6, "mg_m3": 1e6}, None) is None


@pytest.mark.django_db
def test_the_header_text_puts_the_value_unit_and_note_together():
    assert tlv_pel_text(make_submission(tlv_pel_value=5.0, tlv_pel_unit="mg/m3", tlv_pel="ACGIH TLV")) == "5 mg/m³ (ACGIH TLV)"
    assert tlv_pel_text(make_submission(tlv_pel_value=0.25, tlv_pel_unit="ppm")) == "0.25 ppm"
    assert tlv_pel_text(make_submission(tlv_pel="none established")) == "none established"
    assert tlv_pel_text(make_submission()) == ""


def test_the_molar_volume_is_the_engines_declared_constant():
    """Declared once: the conversion reads the engine's 24.45 L/mol, not a copy."""
    from assessments.esd.models.inhalation import MOLAR_VOLUME_L_MOL

    assert exposure_limits.MOLAR_VOLUME_L_MOL is MOLAR_VOLUME_L_MOL == 24.45
