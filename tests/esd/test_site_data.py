"""EIIP Volume II, Chapter 6 (1999): the site-specific air-emission methods, their worked
examples, and the ``site_specific`` input every scenario accepts.

Every expected number carries a comment naming the EIIP example that printed it, or a hand
calculation written in the comment.
"""

from __future__ import annotations

import pytest

from assessments.esd import cvd, registry, site_data
from assessments.esd.parameters import EngineValidationError, Param, ParamSet, Step
from assessments.esd.registry import Scenario
from assessments.esd.results import Medium, Release, Result, release_estimate
from assessments.esd.site_data import (
    DARS_COMPOSITE,
    INORGANIC,
    MATERIAL_BALANCE,
    METHODS,
    ORGANIC,
    SOURCE_TEST,
    VOC,
    annual_emissions,
    emission_factor_emissions,
    evaporation_rate,
    mass_transfer_coefficient,
    material_balance_emissions,
    saturation_emissions,
    source_test_emissions,
    speciated_material_balance_emissions,
    standing,
    vapour_density,
)

CVD = cvd.SCENARIOS[0]
TON_KG = 2000 * 0.45359237  # 907.18474 kg per short ton (NIST)


# --- The worked examples ---------------------------------------------------------------


def test_example_6_4_1_voc_material_balance():
    # EIIP Example 6.4-1: (2 gal/hr − 1.5 gal/hr) × 7.5 lb VOC/gal = "3.75 lb VOC/hr"
    assert material_balance_emissions(2, 1.5, 7.5) == pytest.approx(3.75, abs=0.005)


def test_example_6_4_2_toluene_material_balance():
    # EIIP Example 6.4-2: (2 − 1.5) gal/hr × 7.5 lb/gal × 25/100 = "0.94 lb/hr"
    assert speciated_material_balance_emissions(2, 1.5, 7.5, 25) == pytest.approx(0.94, abs=0.005)


def test_example_6_4_3_hf_source_test():
    # EIIP Example 6.4-3: 15.4 ppmvd × 20.0 × 109,020 dscf/hr / (385.5 × 10^6) = "0.09 lb/hr"
    e_x = source_test_emissions(15.4, 20.0, 109020, 385.5)
    assert e_x == pytest.approx(0.09, abs=0.005)
    # EIIP Example 6.4-3, Eqn 6.4-4: 0.09 lb/hr × 1,760 hr/yr / 2,000 = "0.08 ton HF/yr"
    # (chaining the printed 0.09, as the example does; unrounded 0.0767 also rounds to 0.08)
    assert annual_emissions(0.09, 1760) == pytest.approx(0.08, abs=0.005)
    assert annual_emissions(e_x, 1760) == pytest.approx(0.08, abs=0.005)


def test_example_6_5_1_toluene_source_test():
    # EIIP Example 6.5-1: 15.4 × 92.0 × 109,020 / (385.5 × 10^6) = "0.40 lb/hr"
    assert source_test_emissions(15.4, 92.0, 109020) == pytest.approx(0.40, abs=0.005)
    # EIIP Example 6.5-1, Eqn 6.5-2: 0.40 × 1,760 / 2,000 = "0.35 ton toluene/yr"
    assert annual_emissions(0.40, 1760) == pytest.approx(0.35, abs=0.005)


def test_example_6_5_2_hf_emission_factor():
    # EIIP Example 6.5-2: 6.0E-6 lb HF/wafer × 30 wafers/hr = "1.8 × 10^-4 lb HF/hr"
    assert emission_factor_emissions(6.0e-6, 30) == pytest.approx(1.8e-4, abs=0.05e-4)


def test_example_6_5_3_methanol_saturation():
    # EIIP Example 6.5-3: (0.13 atm / 1 atm) × 6,000 ft³/hr × 0.083 lb/ft³ = "64.7 lb methanol/hr"
    assert saturation_emissions(0.13, 1, 6000, 0.083) == pytest.approx(64.7, abs=0.05)


def test_example_6_5_3_vapour_density_reading():
    # EIIP Example 6.5-3's d_x "0.083 lb/ft³" is methanol's vapour density 32 / 385.5
    assert vapour_density(32) == pytest.approx(0.083, abs=0.0005)


def test_example_6_5_4_methanol_evaporation():
    # EIIP Example 6.5-4: K = 0.00438 × 1.7^0.78 × (18/32)^(1/3) = "0.00547 ft/sec"
    k = mass_transfer_coefficient(1.7, 32)
    assert k == pytest.approx(0.00547, abs=0.000005)
    # EIIP Example 6.5-4: W = 32 × 0.00547 × 1 × 1.91 / (10.73 × 533) = "5.84 × 10^-5 lb/sec"
    # (the document truncates: 5.845E-5 unrounded, 5.846E-5 from the printed K)
    assert evaporation_rate(32, k, 1, 1.91, 533, 10.73) == pytest.approx(5.84e-5, abs=0.01e-5)


# --- Standing, Table 6.3-1 ----------------------------------------------------------------


@pytest.mark.parametrize("family, pollutant, expected", [
    # EIIP Table 6.3-1: VOC and speciated organics: material balance preferred; source
    # testing, engineering calculations, emission factors alternative
    (MATERIAL_BALANCE, VOC, "preferred"),
    (MATERIAL_BALANCE, ORGANIC, "preferred"),
    (SOURCE_TEST, ORGANIC, "alternative"),
    (site_data.ENGINEERING, VOC, "alternative"),
    (site_data.EMISSION_FACTOR, ORGANIC, "alternative"),
    # Inorganic HAPs: source testing preferred; engineering calculations, emission factors
    # alternative; material balance not listed (§3.2.1)
    (SOURCE_TEST, INORGANIC, "preferred"),
    (site_data.ENGINEERING, INORGANIC, "alternative"),
    (site_data.EMISSION_FACTOR, INORGANIC, "alternative"),
    (MATERIAL_BALANCE, INORGANIC, "not listed"),
])
def test_table_6_3_1_standing(family, pollutant, expected):
    assert standing(family, pollutant) == expected


def test_every_method_declares_its_params_for_forms():
    for method in METHODS.values():
        symbols = [p.symbol for p in method.params.params]
        assert symbols[:4] == ["pollutant_class", "OH", "days_per_year", "Nsites"]
        assert all(p.label and p.units is not None for p in method.params.params)
        assert DARS_COMPOSITE[method.family]
        assert method.label in ("output", "what-if")


# --- The site_specific input -------------------------------------------------------------

HF_TEST = {  # EIIP Example 6.4-3's data
    "method": "source_test",
    "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020,
               "OH": 1760, "days_per_year": 220},
    "replaces": 1,
    "source": "EIIP Example 6.4-3 (stack test)",
}


def cvd_with(*entries, **inputs):
    return CVD.compute({"Qchem_yr": 10000, **inputs, "site_specific": list(entries)})


def test_source_test_replaces_release_1():
    r = cvd_with(HF_TEST)
    (rel,) = r.releases
    assert rel.number == 1
    assert rel.site_specific is True
    assert [(m.medium, m.fraction) for m in rel.media] == [("air", 1.0)]
    (e,) = rel.estimates
    assert e.label == "output"
    # EIIP Example 6.4-3: "0.08 ton HF/yr" -> × 907.18 kg/ton; a site-year of 220 days
    assert e.kg_site_year / TON_KG == pytest.approx(0.08, abs=0.005)
    assert e.days_per_year == 220
    # Hand calculation: 15.4 × 20 × 109,020 / 385.5e6 = 0.087103 lb/hr × 1,760 × 0.45359237
    # = 69.536 kg/yr / 220 days = 0.31607 kg/site-day; over the replaced release's 9 sites
    assert e.kg_site_day == pytest.approx(0.31607, rel=1e-4)
    assert e.sites == 9
    assert "preferred" in e.basis and "Table 6.3-1" in e.basis and "6.4-3" in e.basis
    assert "site-specific" in e.basis.lower()
    assert rel.equation == "EIIP Vol. II Ch. 6 Eqn 6.4-3, 6.4-4"
    # the ESD's estimate is kept in the notes, the entry in the inputs
    assert any("Release 1" in n and "replaced" in n for n in r.notes)
    assert r.inputs["site_specific"][0]["method"] == "source_test"
    assert r.as_dict()["releases"][0]["site_specific"] is True


def test_organic_source_test_is_the_alternative_method():
    entry = {**HF_TEST, "inputs": {**HF_TEST["inputs"], "pollutant_class": "organic", "MW_x": 92.0}}
    (rel,) = cvd_with(entry).releases
    # EIIP Example 6.5-1: "0.35 ton toluene/yr" (0.352 unrounded)
    assert rel.estimates[0].kg_site_year / TON_KG == pytest.approx(0.35, abs=0.005)
    assert "alternative" in rel.estimates[0].basis
    assert rel.equation == "EIIP Vol. II Ch. 6 Eqn 6.5-1, 6.5-2"


def test_entry_beside_the_esd_estimate_gets_the_next_number():
    entry = {"method": "emission_factor", "replaces": None, "source": "EIIP Example 6.5-2",
             "activity": "Wet etch hood",
             "inputs": {"pollutant_class": "inorganic", "EF_x": 6.0e-6, "AF": 30, "OH": 8760,
                        "days_per_year": 365}}
    r = cvd_with(entry)
    assert [(x.number, x.site_specific) for x in r.releases] == [(1, False), (2, True)]
    new = r.releases[1]
    assert new.source == "Wet etch hood (site-specific data)"
    # Hand calculation: 1.8E-4 lb/hr (Example 6.5-2) × 8,760 hr × 0.45359237 / 365 days
    # = 1.9595E-3 kg/site-day, one site (the facility whose data it is)
    assert new.estimates[0].kg_site_day == pytest.approx(1.9595e-3, rel=1e-4)
    assert new.estimates[0].sites == 1


def test_engineering_calculations_are_what_if():
    entry = {"method": "saturation", "replaces": None, "source": "EIIP Example 6.5-3",
             "inputs": {"pollutant_class": "organic", "P_sat_x": 0.13, "V": 6000, "d_x": 0.083,
                        "OH": 2000, "days_per_year": 250}}
    rel = cvd_with(entry).releases[1]
    assert rel.estimates[0].label == "what-if"
    # Hand calculation: 64.74 lb/hr (Example 6.5-3 prints 64.7) × 2,000 hr × 0.45359237
    # = 58,731 kg/yr
    assert rel.estimates[0].kg_site_year == pytest.approx(58731, rel=1e-3)
    assert "extremely conservative" in rel.estimates[0].basis


def test_saturation_with_mw_and_a_dilution_ratio():
    entry = {"method": "saturation", "replaces": None, "source": "facility",
             "inputs": {"pollutant_class": "organic", "P_sat_x": 0.13, "V": 6000, "MW_x": 32,
                        "dilution_ratio": 800, "OH": 1000, "days_per_year": 250}}
    r = cvd_with(entry)
    # EIIP §3.1.4: dilution "as high as 800 to 1". Hand calculation: 0.13 × 6,000 × 32/385.5
    # = 64.747 lb/hr / 800 = 0.080934 lb/hr × 1,000 hr × 0.45359237 = 36.711 kg/yr
    assert r.releases[1].estimates[0].kg_site_year == pytest.approx(36.711, rel=1e-4)


def test_evaporation_method_through_a_scenario():
    entry = {"method": "evaporation", "replaces": None, "source": "EIIP Example 6.5-4",
             "inputs": {"pollutant_class": "voc", "MW_x": 32, "U": 1.7, "A": 1, "P_vap_x": 1.91,
                        "T": 533, "OH": 1, "days_per_year": 1}}
    e = cvd_with(entry).releases[1].estimates[0]
    # EIIP Example 6.5-4: "5.84 × 10^-5 lb/sec" × 3,600 s × 0.45359237 kg/lb over one hour
    assert e.kg_site_year / (3600 * 0.45359237) == pytest.approx(5.84e-5, abs=0.01e-5)


def test_material_balance_of_an_inorganic_warns_it_is_not_listed():
    entry = {"method": "material_balance", "replaces": 1, "source": "facility usage records",
             "inputs": {"pollutant_class": "inorganic", "Q_in": 2, "Q_out": 1.5, "C_x": 7.5,
                        "OH": 1000}}
    r = cvd_with(entry)
    assert any("not listed" in w for w in r.warnings)
    # EIIP Example 6.4-1: "3.75 lb VOC/hr"; the replaced release's 360 days are kept.
    e = r.releases[0].estimates[0]
    assert e.kg_site_year == pytest.approx(3.75 * 1000 * 0.45359237, rel=1e-12)
    assert e.days_per_year == 360


def test_speciated_material_balance():
    entry = {"method": "material_balance_speciated", "replaces": 1, "source": "records",
             "inputs": {"pollutant_class": "organic", "Q_in": 2, "Q_out": 1.5, "d": 7.5,
                        "wt_pct_x": 25, "OH": 2000, "Nsites": 3}}
    e = cvd_with(entry).releases[0].estimates[0]
    # EIIP Example 6.4-2: "0.94 lb/hr" (0.9375) × 2,000 hr / 2,000 lb/ton = 0.94 ton/yr
    assert e.kg_site_year / TON_KG == pytest.approx(0.94, abs=0.005)
    assert e.sites == 3


def test_site_specific_works_for_any_scenario():
    # A scenario that knows nothing of site data still accepts the key (registry-level).
    params = ParamSet(params=(Param("Q", "Use", "kg/yr", None, "test", "s", lower=0,
                                    required=True),), steps=(Step("s", "S"),))

    def run(v):
        rel = Release(1, "Some source", "model", "eqn", [Medium("water", 1.0)],
                      [release_estimate("high end", v["Q"] / 250, 250, 2, "b")])
        return Result(scenario="dummy", inputs=dict(v), facility={}, releases=[rel], exposures=[], warnings=[], trace=[])

    dummy = Scenario("dummy", "Dummy", "test", params, run)
    r = dummy.compute({"Q": 500, "site_specific": [HF_TEST]})
    assert r.releases[0].site_specific and r.releases[0].estimates[0].sites == 2
    assert dummy.compute({"Q": 500}).releases[0].site_specific is False


def test_site_specific_through_the_registry_for_every_scenario():
    # Any registered scenario (photoresist too) carries an extra site-specific release.
    entry = {**HF_TEST, "replaces": None}
    for scenario in registry.scenarios():
        r = registry.compute(scenario.key, {"Qchem_yr": 10000, "site_specific": [entry]})
        assert r.releases[-1].site_specific is True, scenario.key
        assert r.releases[-1].number == max(x.number for x in r.releases[:-1]) + 1


def test_no_site_specific_key_leaves_the_result_unchanged():
    plain = CVD.compute({"Qchem_yr": 10000}).as_dict()
    empty = CVD.compute({"Qchem_yr": 10000, "site_specific": []}).as_dict()
    assert plain == empty
    assert "site_specific" not in plain["inputs"]


# --- Bad site_specific entries -------------------------------------------------------------


@pytest.mark.parametrize("value, key", [
    ({"method": "source_test"}, "site_specific"),
    ([42], "site_specific[0]"),
    ([{**HF_TEST, "method": "guess"}], "site_specific[0].method"),
    ([{**HF_TEST, "source": ""}], "site_specific[0].source"),
    ([{k: v for k, v in HF_TEST.items() if k != "source"}], "site_specific[0].source"),
    ([{**HF_TEST, "colour": "red"}], "site_specific[0].colour"),
    ([{**HF_TEST, "replaces": "one"}], "site_specific[0].replaces"),
    ([{**HF_TEST, "replaces": 0}], "site_specific[0].replaces"),
    ([{**HF_TEST, "inputs": [1, 2]}], "site_specific[0].inputs"),
    ([{**HF_TEST, "inputs": {**HF_TEST["inputs"], "C_x": -1}}], "site_specific[0].C_x"),
    ([{**HF_TEST, "inputs": {**HF_TEST["inputs"], "C_x": "high"}}], "site_specific[0].C_x"),
    ([{**HF_TEST, "inputs": {**HF_TEST["inputs"], "Zed": 1}}], "site_specific[0].Zed"),
    ([{**HF_TEST, "inputs": {**HF_TEST["inputs"], "pollutant_class": "metal"}}],
     "site_specific[0].pollutant_class"),
    ([{**HF_TEST, "inputs": {k: v for k, v in HF_TEST["inputs"].items() if k != "OH"}}],
     "site_specific[0].OH"),
    ([{**HF_TEST, "inputs": {**HF_TEST["inputs"], "OH": 9000}}], "site_specific[0].OH"),
    ([{**HF_TEST, "replaces": None,
       "inputs": {k: v for k, v in HF_TEST["inputs"].items() if k != "days_per_year"}}],
     "site_specific[0].days_per_year"),
    ([HF_TEST, HF_TEST], "site_specific[1].replaces"),
    ([{**HF_TEST, "replaces": 7}], "site_specific[0].replaces"),
    ([{"method": "material_balance", "source": "x", "replaces": 1,
       "inputs": {"pollutant_class": "voc", "Q_in": 1, "Q_out": 2, "C_x": 1, "OH": 10}}],
     "site_specific[0].Q_out"),
    ([{"method": "saturation", "source": "x", "replaces": 1,
       "inputs": {"pollutant_class": "voc", "P_sat_x": 0.1, "V": 10, "d_x": 0.08, "MW_x": 32,
                  "OH": 10}}],
     "site_specific[0].d_x"),
])
def test_bad_site_specific_entry_names_the_field(value, key):
    with pytest.raises(EngineValidationError) as exc:
        CVD.compute({"Qchem_yr": 10000, "site_specific": value})
    assert key in exc.value.errors, exc.value.errors


def test_site_specific_and_scenario_errors_are_reported_together():
    bad = [{**HF_TEST, "inputs": {**HF_TEST["inputs"], "V": 0}}]
    with pytest.raises(EngineValidationError) as exc:
        CVD.compute({"Qchem_yr": -1, "site_specific": bad})
    assert {"Qchem_yr", "site_specific[0].V"} <= set(exc.value.errors)


# --- A control device's efficiency (EIIP §2.3.2, Forms C1 to C4) ---------------------------


def test_control_efficiency_applies_where_the_method_estimates_before_the_device():
    from assessments.esd.site_data import METHODS

    assert {k for k, m in METHODS.items() if m.controlled} == {
        "material_balance", "material_balance_speciated", "emission_factor", "saturation", "evaporation"}
    assert not METHODS["source_test"].controlled  # measured at the stack, after the device
    entry = {"method": "emission_factor", "source": "PMN attachment 2",
             "inputs": {"pollutant_class": "inorganic", "EF_x": 6.0e-6, "AF": 5.0, "OH": 1760, "days_per_year": 220}}
    plain = registry.compute("cvd-2015", {"Qchem_yr": 10000, "site_specific": [entry]})
    controlled = registry.compute("cvd-2015", {"Qchem_yr": 10000, "site_specific": [
        {**entry, "inputs": {**entry["inputs"], "CE": 99}}]})
    before, after = (r.releases[-1].estimates[0].kg_site_day for r in (plain, controlled))
    # by hand: E_x = 6.0e-6 lb/wafer × 5 wafers/hr × (1 − 0.99)
    assert after == pytest.approx(before * 0.01)
    assert "99 % efficiency" in controlled.releases[-1].estimates[0].basis
    assert any(s.equation == "E_x_uncontrolled × (1 − CE / 100)" for s in controlled.trace)


def test_control_efficiency_out_of_range_names_the_entry_field():
    entry = {"method": "emission_factor", "source": "PMN", "inputs": {
        "pollutant_class": "inorganic", "EF_x": 1, "AF": 1, "OH": 100, "days_per_year": 10, "CE": 120}}
    with pytest.raises(EngineValidationError) as raised:
        registry.compute("cvd-2015", {"Qchem_yr": 10000, "site_specific": [entry]})
    assert "between 0 and 100" in raised.value.errors["site_specific[0].CE"]
