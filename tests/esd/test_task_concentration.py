"""The concentration during the task (spec/INTERFACE.md, "Additions, version 3"; issue 26):
an inhalation estimate computed from a task's airborne concentration carries that
concentration (``task_mg_m3``, and ``task_ppm`` for a vapour with a molecular weight) and the
task's minutes a day (``task_minutes``) beside its 8-hour TWA, each computed by a traced
equation, so that a STEL or a ceiling is compared with what the worker breathes during the
task, not with the shift's average.

Expected numbers are the documents' printed samples or hand calculations written in the test.
"""

from __future__ import annotations

import pytest

from assessments.esd import figures, registry
from assessments.esd.models import inhalation

# ESD 2015 (CVD) App. C/D sample as the engine's default path (tests/esd/test_cvd_2015.py).
APP_D = {"Qchem_yr": 10000, "supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100}
# Photoresist 2010 §6 with a volatile chemical (tests/esd/test_options.py).
VOLATILE = {"Qchem_yr": 5000, "Fchem": 0.15, "VPchem": 10.0, "MWchem": 100.0}


def inhalation_estimates(result):
    return [(x, e) for x in result.exposures if x.route == "inhalation" for e in x.estimates]


def test_the_cvd_supplier_sample_is_a_one_minute_task_at_480_times_its_twa():
    [(_, e)] = inhalation_estimates(registry.compute("cvd-2015", APP_D))
    # App. D sample: "0.016 hr/day" (the engine: 1 container a day at 60 an hour = 1/60 hr = 1 min).
    assert e.task_minutes == pytest.approx(1.0)
    # Eqn C-2: 4.8 × 2,000 / 7,846 = 1.22355 ppm (App. C prints 1.22) during the task;
    # × 100 g/mol / 24.45 L/mol = 5.0043 mg/m³.
    assert e.task_ppm == pytest.approx(1.22355, rel=1e-5)
    assert e.task_mg_m3 == pytest.approx(5.0043, rel=1e-4)
    # The 8-hour TWA: 0.10426 mg/day (App. D prints 0.1) / (1.25 m³/h × 8 h) = 0.010426 mg/m³.
    assert e.mg_m3 == pytest.approx(0.010426, rel=1e-4)
    # One minute of 480 in the shift: the task's concentration is 480 times the TWA.
    assert e.task_mg_m3 / e.mg_m3 == pytest.approx(480.0)


def test_a_task_lasting_the_whole_shift_has_its_twa_as_its_concentration():
    # TIME_exposure 8 hr/day (Eqn D-1's bound): 1.22355 × 100 / 24.45 = 5.0043 mg/m³ all shift.
    [(_, e)] = inhalation_estimates(registry.compute("cvd-2015", {**APP_D, "TIME_exposure": 8}))
    assert e.task_minutes == 480.0
    assert e.task_mg_m3 == pytest.approx(e.mg_m3, rel=1e-12)
    assert e.task_mg_m3 == pytest.approx(5.0043, rel=1e-4)
    assert e.task_ppm == pytest.approx(e.ppm, rel=1e-12)


def test_the_photoresist_vapour_estimates_carry_the_mass_balance_concentration_of_the_task():
    result = registry.compute("photoresist-2010", VOLATILE)
    estimates = inhalation_estimates(result)
    assert estimates
    for _, e in estimates:
        # Eq B-10: I = Cm × 1.25 m³/h × h, so Cm during the task = I / (1.25 × h) and the TWA is Cm × h / 8.
        hours = e.task_minutes / 60
        assert e.task_mg_m3 == pytest.approx(e.mg_day / (1.25 * hours), rel=1e-9)
        assert e.mg_m3 == pytest.approx(e.task_mg_m3 * e.task_minutes / 480, rel=1e-9)
        # Eq B-9: ppm = mg/m³ × 24.45 / MW
        assert e.task_ppm == pytest.approx(e.task_mg_m3 * 24.45 / 100, rel=1e-9)
    # Exposure C: equipment cleaning, a single large vessel's 1 h (Table B-1/B-2).
    assert {e.task_minutes for x, e in estimates if x.letter == "C"} == {60.0}


def test_the_trace_shows_the_task_concentration_and_minutes():
    result = registry.compute("cvd-2015", APP_D)
    by_symbol = {step.symbol: step for step in result.trace}
    task, minutes = by_symbol["Cm_task"], by_symbol["TIMEtask_minutes"]
    assert task.label == "The airborne concentration during the task" and task.units == "mg/m³"
    assert task.inputs["Cv"] == pytest.approx(1.22355, rel=1e-5) and task.value == pytest.approx(5.0043, rel=1e-4)
    assert minutes.inputs == {"TIMEexposure": pytest.approx(1 / 60)} and minutes.value == pytest.approx(1.0)
    photoresist = {step.symbol for step in registry.compute("photoresist-2010", VOLATILE).trace}
    assert {"Cv_task", "Cm_task", "TIMEtask_minutes"} <= photoresist


def test_the_task_figures_are_declared():
    result = registry.compute("cvd-2015", APP_D)
    named = {f.path: f for f in figures.figures(result)}
    assert named["exposures/0/estimates/0/task_mg_m3"].label.startswith("Airborne concentration during the task")
    assert named["exposures/0/estimates/0/task_mg_m3"].units == "mg/m³"
    assert named["exposures/0/estimates/0/task_ppm"].units == "ppm"
    assert named["exposures/0/estimates/0/task_minutes"].units == "min/day"


def test_a_dermal_estimate_has_no_task_concentration():
    result = registry.compute("photoresist-2010", VOLATILE)
    dermal = [e for x in result.exposures if x.route == "dermal" for e in x.estimates]
    assert dermal and all(e.task_mg_m3 is None and e.task_ppm is None and e.task_minutes is None for e in dermal)
    data = result.as_dict()["exposures"][0]["estimates"][0]
    assert {"task_mg_m3", "task_ppm", "task_minutes"} <= set(data)  # present, null: not computed, not missing


@pytest.mark.parametrize(("C", "minutes", "expected"), [
    (480.0, 1.0, 32.0),     # 480 × 1 / 15
    (480.0, 15.0, 480.0),   # the whole window at C
    (480.0, 60.0, 480.0),   # a window within the task
    (480.0, 0.0, 0.0),
])
def test_the_highest_15_minute_average_of_a_task(C, minutes, expected):
    assert inhalation.fifteen_minute_average(C, minutes) == pytest.approx(expected)


def test_a_task_longer_than_the_shift_is_refused():
    with pytest.raises(ValueError, match="TIMEexposure must be between 0 and 8"):
        inhalation.task_minutes(9)
