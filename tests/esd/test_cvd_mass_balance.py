"""The CVD scenario's mass balance (ESD 2015): what is released never exceeds what is used,
less what the process consumes or destroys, plus the allowance the document's own
conventions make (decision 11 of ``assessments.esd.cvd``, and its ``allowance``).

The invariant is checked with hypothesis over valid inputs, volatile and not, with and
without the supplier site; the worked cases carry their hand calculations.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from assessments.esd import cvd
from assessments.esd.cvd.supplier import RATE_TOO_SLOW
from assessments.esd.parameters import EngineValidationError
from tests.esd.test_cvd_properties import cvd_inputs as fab_inputs

SCENARIO = cvd.SCENARIOS[0]
PRESETS = {p.key: dict(p.values) for p in SCENARIO.presets}
REL = 1e-9



@st.composite
def cvd_inputs(draw):
    """The fab inputs of the CVD properties (``test_cvd_properties.cvd_inputs``), with the
    daily-use basis, the media and, half the time, the supplier site added."""
    inputs = draw(fab_inputs())
    inputs["Qchem_site_day_basis"] = draw(st.sampled_from(["recalculated", "eqn_3_1"]))
    inputs["Release1_media"] = draw(st.sampled_from(["air_or_water", "air", "water", "table_a_2"]))
    if draw(st.booleans()):
        inputs.update(
            supplier_site="yes",
            # below 0.001 torr (nonvolatile), semi-volatile, highly volatile
            VP_chem=draw(st.one_of(st.floats(min_value=0.0, max_value=0.00099),
                                   st.floats(min_value=0.001, max_value=1.0e5))),
            MW_chem=draw(st.floats(min_value=1.0, max_value=1000.0)),
            toxic_reactive_pyrophoric=draw(st.sampled_from(["no", "yes"])),
            Nsites_supplier=draw(st.integers(min_value=1, max_value=5)),
            TIME_operating_days_supplier=draw(st.integers(min_value=1, max_value=365)),
            RATE_fill=draw(st.floats(min_value=0.5, max_value=120.0)),
        )
        if draw(st.booleans()):
            inputs["TIME_exposure"] = draw(st.floats(min_value=0.01, max_value=8.0))
    return inputs


def computed(inputs):
    """The scenario's result; a draw whose supplier would work more than 24 hours a day (refused
    by name, RATE_fill) is drawn again."""
    try:
        return SCENARIO.compute(inputs)
    except EngineValidationError as exc:
        assume(set(exc.errors) != {"RATE_fill"})
        raise


def test_a_supplier_day_beyond_24_hours_is_refused_naming_the_fill_rate():
    """Appendix C's container-cleaning hours are the standard model's, which refuses more than
    24 hours a day: the 900 containers a year of 1,000 kg/yr in 1 L containers (the engine's
    count), cleaned by one supplier open one day a year, take 30 hours at 30 an hour."""
    inputs = {**PRESETS["esd-2015-appendix-c-d"], "Qchem_yr": 1000.0, "Vcontainer": 1.0, "supplier_site": "yes",
              "VP_chem": 10.0, "MW_chem": 100.0, "Nsites_supplier": 1, "TIME_operating_days_supplier": 1,
              "RATE_fill": 30.0}
    with pytest.raises(EngineValidationError) as refused:
        SCENARIO.compute(inputs)
    assert set(refused.value.errors) == {"RATE_fill"}
    message = refused.value.errors["RATE_fill"]
    assert message.startswith("must be at least ") and "the supplier handles 900 containers a day, more than 24 hours' work at 30 an hour" in message
    least = float(message.split()[4])
    result = SCENARIO.compute({**inputs, "RATE_fill": least * 1.0001})  # the least rate it names is enough
    assert result.facility["supplier"]["TIME_activity_hours"] <= 24
    assert RATE_TOO_SLOW.split("{")[0] in message


def released(result) -> float:
    return sum(result.totals_by_medium().values())


@settings(max_examples=300, deadline=None)
@given(cvd_inputs())
def test_releases_never_exceed_the_use_less_what_is_consumed_plus_the_allowance(inputs):
    r = computed(inputs)
    assert r.facts.used_kg_yr == inputs["Qchem_yr"]
    assert r.consumed_kg_yr >= 0 and r.allowance_kg_yr >= 0
    assert bool(r.allowance_basis) == (r.allowance_kg_yr > 0)
    limit = r.facts.used_kg_yr - r.consumed_kg_yr + r.allowance_kg_yr
    # relative to the largest term: used − consumed + allowance cancels when a convention
    # puts far more through the sites than is used (the §6 sample's kept daily use)
    scale = max(r.facts.used_kg_yr, r.consumed_kg_yr, r.allowance_kg_yr)
    assert released(r) <= limit + REL * scale
    balance = r.as_dict()["mass_balance"]
    assert math.isclose(balance["difference_kg_yr"],
                        r.facts.used_kg_yr - released(r) - r.consumed_kg_yr, rel_tol=1e-9, abs_tol=REL * scale)


@settings(max_examples=200, deadline=None)
@given(cvd_inputs())
def test_the_air_release_at_the_supplier_is_taken_from_the_container_residue(inputs):
    r = computed(inputs)
    steps = {s.symbol: s for s in r.trace}
    numbers = {rel.number: rel for rel in r.releases}
    if 3 not in numbers:
        assert "Elocal_air_evaporated" not in steps
        return
    residue = steps["Elocal_container_residue_disp"].value
    air, left = numbers[3].estimates[0], numbers[2].estimates[0]
    # never more than the residue it evaporates from, and what it takes is gone from Release 2
    assert air.kg_site_day <= residue
    assert math.isclose(air.kg_site_day + left.kg_site_day, residue, rel_tol=1e-12)
    assert left.kg_site_day >= 0
    # on the same days, so per year too
    assert air.days_per_year == left.days_per_year and air.sites == left.sites
    assert steps["Elocal_container_residue_net"].inputs["Elocal_air_evaporated"] == air.kg_site_day


# --- Worked cases ----------------------------------------------------------------------------


def test_consumed_is_deposition_and_abatement_at_the_lowest_utilisation():
    # Hand calculation (Qchem_yr 10,000, defaults): 9 sites × 360 days × 2.7778 kg/site-day
    # = 9,000 kg/yr used at the fabs; at U = 0.3: deposited 0.3 × 9,000 = 2,700; abated
    # 0.99 × 0.7 × 9,000 = 6,237; consumed 8,937; released 0.01 × 0.7 × 9,000 = 63 kg/yr
    r = SCENARIO.compute({"Qchem_yr": 10000})
    assert r.consumed_kg_yr == pytest.approx(8937.0, rel=1e-12)
    assert released(r) == pytest.approx(63.0, rel=1e-12)
    assert r.allowance_kg_yr == 0.0 and r.allowance_basis == ""
    # the container residue, 10 % of 10,000, returns to the supplier: not assessed here
    assert r.as_dict()["mass_balance"]["difference_kg_yr"] == pytest.approx(1000.0, rel=1e-9)


def test_the_section_6_samples_kept_daily_use_is_an_allowance():
    # ESD 2015 §6.1.2-6.1.3: 2.7778 kg/site-day kept for 10 sites. Hand calculation: the sites
    # use 10 × 360 × 1,000/360 = 10,000 kg/yr against 10,000 × (1 − 0.006) = 9,940 kg/yr
    # that Eqn 3-2 divides: 60 kg/yr beyond the use.
    r = SCENARIO.compute(PRESETS["esd-2015-section-6"])
    assert r.allowance_kg_yr == pytest.approx(60.0, rel=1e-9)
    assert "eqn_3_1" in r.allowance_basis and "9,940" in r.allowance_basis
    assert released(r) + r.consumed_kg_yr == pytest.approx(10000.0, rel=1e-12)


def test_appendix_c_whole_containers_are_an_allowance():
    # Hand calculation: Qchem_yr 50 -> 45 / 1,000 = 0.045 -> 1 site at 45 / 360 = 0.125
    # kg/site-day; 45 / 60.6 = 0.74 -> 1 container a year; the supplier cleans it (Eqn C-1a):
    # 60.6 × 1 × 1 × 0.1 = 6.06 kg/yr of residue, against 0.1 × 50 = 5 kg/yr shipped as residue
    r = SCENARIO.compute({"Qchem_yr": 50, "supplier_site": "yes", "VP_chem": 0.0001})
    assert r.facility["supplier"]["residue_equation"] == "C-1a"
    assert r.allowance_kg_yr == pytest.approx(1.06, rel=1e-9)
    assert "whole containers" in r.allowance_basis


def test_the_appendix_c_sample_residue_less_the_vapour_is_still_the_printed_6_06():
    r = SCENARIO.compute({**PRESETS["esd-2015-appendix-c-d"], "Qchem_yr": 10000})
    residue, air = r.releases[1].estimates[0], r.releases[2].estimates[0]
    # Hand calculation: C-2 4.8 × 2,000 / 7,846 = 1.22355 ppm; C-4 1.93E-11 × (1 − 2,391.12 /
    # 5,391.12) × 1.22355 × 2,391.12 × 100 = 3.1421E-6 kg/s; C-5 × 3,600 / 60 = 1.8853E-4
    assert air.kg_site_day == pytest.approx(1.8853e-4, rel=1e-4)
    # App. C sample: "6.06 kg chemical disposed/site-day"; less the vapour 6.0598, still 6.06
    assert residue.kg_site_day == pytest.approx(6.06 - 1.8853e-4, rel=1e-6)
    assert round(residue.kg_site_day, 2) == 6.06
    assert "conservation of mass" in residue.basis and "conservation of mass" in air.basis


def test_the_air_release_is_at_most_the_residue_it_evaporates_from():
    # Hand calculation: 0.5 L × 0.52 kg/L × 1 × 0.1 = 0.026 kg of residue a day (Eqn C-1a);
    # C-2 4.8 × 100,000 / 7,846 = 61.18 ppm; C-4 1.93E-11 × 0.55647 × 61.18 × 2,391.12 × 500
    # = 7.856E-4 kg/s; C-5 × 60 s = 0.0471 kg/site-day > 0.026: the release is the residue
    r = SCENARIO.compute({"Qchem_yr": 50, "physical_state": "gas", "Vcontainer": 0.5,
                          "supplier_site": "yes", "VP_chem": 100000, "MW_chem": 500})
    steps = {s.symbol: s.value for s in r.trace}
    assert steps["Elocal_air_cleaning"] == pytest.approx(0.0471, rel=1e-3)
    assert r.releases[2].estimates[0].kg_site_day == pytest.approx(0.026, rel=1e-12)
    assert r.releases[1].estimates[0].kg_site_day == 0.0
    assert "the release is the whole residue" in r.releases[2].estimates[0].basis
