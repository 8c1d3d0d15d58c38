"""Doses over the exposure's own days (issue 26; spec/INTERFACE.md, "Additions, version 3"):
ADD and LADD use the exposure days the exposure itself prints (ChemSTEER's ED), not a second
cap at 250; a reviewer may set ED for every exposure, and the dose basis then carries it.

Expected numbers are hand calculations written in the test (ADD = I × ED × EY / (BW × AT ×
365), LADD over ATc; spec/epa-standard-models.md, "Dose averages").
"""

from __future__ import annotations

import pytest

from assessments import presentation
from assessments.esd import figures, registry
from assessments.esd.parameters import EngineValidationError

SECTION_6 = {"Qchem_yr": 5000, "Fchem": 0.15}
# The photoresist ESD's per-worker days raised to 286: each exposure prints 286 days/yr
# (the lesser of its activity days, 360 at the default scale, and 286).
DAYS_286 = {**SECTION_6, "max_exposure_days": 286}


def test_an_exposure_printing_286_days_has_its_doses_over_286_days():
    result = registry.compute("photoresist-2010", DAYS_286)
    a = next(x for x in result.exposures if x.letter == "A")
    assert a.days_per_year == 286
    low = a.estimates[0]
    # ESD 2010 §6.3.3: 0.7 mg/cm² × 420 cm² × 1 × 0.15 = 44.1 mg/day (low end, one hand).
    assert low.mg_day == pytest.approx(44.1)
    # ADD = 44.1 × 286 × 40 / (80 × 40 × 365) = 12,612.6 / 29,200 = 0.43194 (the old cap gave 0.37757)
    assert low.add_mg_kg_day == pytest.approx(0.431938, rel=1e-5)
    # LADD = 44.1 × 286 × 40 / (80 × 70 × 365) = 504,504 / 2,044,000 = 0.24682
    assert low.ladd_mg_kg_day == pytest.approx(0.246822, rel=1e-5)


def test_every_exposure_uses_the_days_it_prints():
    result = registry.compute("photoresist-2010", DAYS_286)
    for exposure in result.exposures:
        for e in exposure.estimates:
            assert e.add_mg_kg_day == pytest.approx(e.mg_day * exposure.days_per_year * 40 / (80 * 40 * 365))


def test_without_ed_the_dose_basis_says_each_exposures_days_as_printed():
    basis = registry.compute("photoresist-2010", DAYS_286).as_dict()["dose_basis"]
    assert "exposure_days" not in basis and "exposure_days_cap" not in basis
    assert "each exposure's days a year, as printed (ChemSTEER's ED)" in basis["source"]
    assert "at most 250" not in basis["source"]


def test_ed_set_by_the_reviewer_is_used_for_every_exposure_and_is_in_the_dose_basis():
    result = registry.compute("photoresist-2010", {**DAYS_286, "ED": 200})
    for exposure in result.exposures:
        for e in exposure.estimates:
            # ADD = I × 200 × 40 / (80 × 40 × 365); LADD over 70 yr
            assert e.add_mg_kg_day == pytest.approx(e.mg_day * 200 / (80 * 365))
            assert e.ladd_mg_kg_day == pytest.approx(e.mg_day * 200 * 40 / (80 * 70 * 365))
    data = result.as_dict()
    assert data["dose_basis"]["exposure_days"] == 200
    assert "200 a year for every exposure (ED, set by the reviewer)" in data["dose_basis"]["source"]
    # The exposures still print their own days: ED is the doses' basis, not the exposure's days.
    assert {x["days_per_year"] for x in data["exposures"]} == {286}
    [figure] = [f for f in figures.figures(result) if f.path == "dose_basis/exposure_days"]
    assert figure.label == "Exposure days a year (ED), as the reviewer set them" and figure.units == "days/yr"


@pytest.mark.parametrize("days", [0, -1, 366])
def test_ed_outside_0_to_365_days_is_refused_by_name(days):
    with pytest.raises(EngineValidationError) as raised:
        registry.compute("photoresist-2010", {**SECTION_6, "ED": days})
    assert "ED" in raised.value.errors


def test_ed_is_declared_with_its_source_and_what_an_empty_value_means():
    [ed] = [p for p in registry.get("cvd-2015").params.params if p.symbol == "ED"]
    assert ed.if_empty == "each exposure's own days a year, as printed"
    assert "ChemSTEER" in ed.source and ed.units == "days/yr" and ed.upper == 365
    assert "ED" not in registry.get("cvd-2015").params.applicable({"include_exposures": "no"})


def test_the_pages_print_the_exposure_days_of_the_doses():
    as_printed = registry.compute("photoresist-2010", DAYS_286).as_dict()
    assert "exposure days: each exposure's days a year, as printed (ChemSTEER's ED)" in (
        presentation.dose_basis_text(as_printed))
    set_ed = registry.compute("photoresist-2010", {**DAYS_286, "ED": 220}).as_dict()
    assert "exposure days 220 a year for every exposure (ED, set by the reviewer)" in presentation.dose_basis_text(set_ed)
    # A result stored before (an approved revision keeps its snapshot) says the cap it used.
    stored = {**as_printed, "dose_basis": {**as_printed["dose_basis"], "exposure_days_cap": 250}}
    assert "exposure days: each exposure's days a year, at most 250" in presentation.dose_basis_text(stored)
