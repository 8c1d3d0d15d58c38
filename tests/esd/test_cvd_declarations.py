"""What the CVD scenario declares for the rest of the product (process, facts, default set)
and the exposure time of Appendix D (decision 8 of ``assessments.esd.cvd``).

Expected strings are the IRER's process description; expected numbers are printed by
ESD 2015 or worked out in the comment.
"""

from __future__ import annotations

import pytest

from assessments.esd import cvd

SCENARIO = cvd.SCENARIOS[0]
PRESETS = {p.key: dict(p.values) for p in SCENARIO.presets}


def compute(**inputs):
    return SCENARIO.compute(inputs)


def steps(result):
    return {s.symbol: s for s in result.trace}


# --- Process ---------------------------------------------------------------------------------


def test_process_is_the_irers_description_of_cvd():
    # ESD 2015 §2 (Figure 2-1), §3.7 (16-gal, 60.6 L containers), §4.3 (POU abatement, air or water)
    assert compute(Qchem_yr=10000).process == [
        "Precursor is received in 60.6-liter cylinders or canisters (liquid, 100%)",
        "connected to the gas cabinet or liquid delivery system",
        "vaporised and delivered to the CVD chamber",
        "Deposition (a fraction of the precursor reacts onto the wafer)",
        "unreacted precursor exhausted to point-of-use abatement",
        "abatement effluent to air or water",
    ]


@pytest.mark.parametrize("media, words", [
    ("air", "abatement effluent to air"),
    ("water", "abatement effluent to water"),
    ("table_a_2", "abatement effluent to air, wastewater treatment or incineration"),
])
def test_process_ends_with_the_media_of_release_1(media, words):
    assert compute(Qchem_yr=10000, Release1_media=media).process[-1] == words


def test_process_states_the_container_state_and_concentration_entered():
    first = compute(Qchem_yr=10000, physical_state="gas", Vcontainer=49.8, Fchem=0.5).process[0]
    assert first == "Precursor is received in 49.8-liter cylinders or canisters (gas, 50%)"


def test_process_adds_the_supplier_site_when_assessed():
    r = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=0.0001)
    assert r.process[-1] == "empty containers returned to the supplier for cleaning (Appendix C)"


# --- Facts -----------------------------------------------------------------------------------


def test_facts_at_the_fab_no_worker_exposed():
    # ESD 2015 §5.2 ¶69: "approximately 19 production workers per facility ... None of these
    # production workers would be exposed"; §3.2 ¶37: 360 days; hand calculation: 9 sites
    f = compute(Qchem_yr=10000).facts
    assert (f.sites, f.sites_known, f.operating_days, f.workers_per_site, f.used_kg_yr) == (
        9, False, 360, 0, 10000.0)
    assert "19" in f.workers_basis and "none exposed" in f.workers_basis


def test_facts_known_sites():
    f = compute(Qchem_yr=10000, Nsites=20).facts
    assert (f.sites, f.sites_known) == (20, True)


def test_facts_use_the_supplier_workers_when_their_inhalation_is_quantified():
    # ESD 2015 App. D: "Up to 4 workers per site will be exposed."
    f = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=2000, MW_chem=100).facts
    assert f.workers_per_site == 4
    assert "supplier" in f.workers_basis and "App. D" in f.workers_basis


def test_facts_no_supplier_workers_when_inhalation_is_negligible():
    # ESD 2015 App. D: "Inhalation exposure is assumed to be negligible for chemicals with
    # vapour pressures below 0.001 torr"
    f = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=0.0001).facts
    assert f.workers_per_site == 0


def test_default_set_summary():
    assert compute(Qchem_yr=10000).default_set["summary"] == "ESD 2015 as published (Table A-4)"
    d = compute(Qchem_yr=10000).as_dict()
    assert d["facts"]["sites"] == 9 and d["process"] and "mass_balance" in d


# --- Appendix D exposure time (decision 8) ----------------------------------------------------


def test_exposure_time_left_empty_is_the_container_handling_time():
    # ESD 2015 App. C Eqn C-5 where-list: containers a day / 60 containers/hr = 1/60 hr;
    # App. D sample: "0.016 hr/day". Hand calculation: 4.8 × 2,000 / 7,846 = 1.22355 ppm ×
    # 100 / 24.45 × 1.25 × 1/60 = 0.10426 mg/day; App. D prints "0.1 mg/day"
    r = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=2000, MW_chem=100)
    step = steps(r)["TIME_exposure"]
    assert step.value == pytest.approx(1 / 60, rel=1e-12)
    assert step.inputs == {"containers_per_day": 1.0, "RATE_fill": 60.0}
    (exposure,) = r.exposures
    assert exposure.estimates[0].mg_day == pytest.approx(0.10426, rel=1e-4)
    assert round(exposure.estimates[0].mg_day, 1) == 0.1


def test_exposure_time_is_at_most_8_hours():
    # Hand calculation: 1,000 containers a day at 60 an hour would be 16.7 hr: 8 hr/day
    # (Eqn D-1 where-list's 8 hr/day; ESD No. 9 (2010) Table B-2 "or 8")
    r = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=2000, MW_chem=100, RATE_fill=0.1)
    assert steps(r)["TIME_exposure"].value == 8.0


def test_an_entered_exposure_time_is_used():
    # Hand calculation: 1.22355 × 100 / 24.45 × 1.25 × 8 = 50.04 mg/day
    r = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=2000, MW_chem=100, TIME_exposure=8)
    assert "TIME_exposure" not in steps(r)
    assert r.exposures[0].estimates[0].mg_day == pytest.approx(50.04, abs=0.01)


def test_the_appendix_c_d_preset_no_longer_needs_the_samples_0_016():
    assert "TIME_exposure" not in PRESETS["esd-2015-appendix-c-d"]
    r = SCENARIO.compute({**PRESETS["esd-2015-appendix-c-d"], "Qchem_yr": 10000})
    # App. D sample: "0.1 mg/day"
    assert r.exposures[0].estimates[0].mg_day == pytest.approx(0.1, abs=0.005)


# --- Trace ------------------------------------------------------------------------------------


def test_trace_keeps_its_symbols_and_records_the_vapour_taken_from_the_residue():
    r = compute(Qchem_yr=10000, supplier_site="yes", VP_chem=2000, MW_chem=100)
    symbols = [s.symbol for s in r.trace]
    for symbol in ("Qchem_site_day_eqn_3_1", "Nsites_unrounded", "Nsites", "Qchem_site_day",
                   "Ncontainer_unload_site_yr_unrounded", "Ncontainer_unload_site_yr",
                   "Elocal_control_low_end", "Qconsumed_high_end", "Elocal_process_disp_high_end",
                   "Elocal_air_cleaning", "Elocal_air_evaporated", "Elocal_container_residue_net"):
        assert symbol in symbols
    net = steps(r)["Elocal_container_residue_net"]
    assert net.equation == "Elocal_container_residue_disp − Elocal_air_evaporated"
    assert "Conservation of mass" in net.citation
    assert net.value == r.releases[1].estimates[0].kg_site_day
