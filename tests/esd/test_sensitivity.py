"""The sensitivity analysis (assessments/esd/sensitivity.py) and the documented ranges it reads.

Every figure the analysis reports is checked against ``registry.compute`` run with that one
input at that value, over every scenario in the registry; the ranges are checked on their
declarations. The printed examples: ESD 2010 §6.2.3 and §6.3.3 give Release 3 and Exposure A
at both ends of Fphoto_wafer and Qliquid_skin (catalogue esd-photoresist-2010.md, "Worked
example"), which are the tornado's ends for those inputs.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from assessments.esd import registry, sensitivity
from assessments.esd.parameters import CHOICE, INT, DocumentedRange, EngineValidationError, Param
from assessments.esd.sensitivity import value_at

KEYS = [s.key for s in registry.scenarios()]
#: Values for the inputs a scenario requires (the sample case's production volume).
REQUIRED = {"Qchem_yr": 5000.0}
#: Inputs that open a scenario's optional parts (more outputs, more ranged inputs apply).
OPENED = {
    "photoresist-2010": {"Fphoto_wafer_range": "both", "Fchem": 0.15, "Nsites": 3},
    "photoresist-2018": {"Fphoto_wafer_range": "both", "Fchem": 0.15, "stripping_process": "aqueous"},
    "photoresist-2004": {"Fchem": 0.15, "Nworkers_low": 22},
    "cvd-2015": {"supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100, "Qchem_site_yr": 400.0},
}
SAMPLES = 300
CONTRACT_OUTPUT_KEYS = {"id", "estimate", "quantity", "label", "base", "drivers", "overrides"}


def required(key: str) -> dict[str, Any]:
    params = registry.get(key).params
    return {p.symbol: REQUIRED[p.symbol] for p in params.params if p.required and p.default is None
            and p.symbol in params.applicable({})}


def moved(key: str) -> dict[str, Any]:
    """Every ranged input with a default moved to the middle of its range: overrides everywhere."""
    out = required(key)
    for p in registry.get(key).params.params:
        r = p.documented_range
        if r is not None and p.default is not None and p.applies_when is None:
            middle = (r.low + r.high) / 2
            out[p.symbol] = int(middle) if p.kind == INT else middle
    return out


CASES = [(key, "required") for key in KEYS] + [(key, "opened") for key in KEYS] + [(key, "moved") for key in KEYS]


def case_inputs(key: str, case: str) -> dict[str, Any]:
    if case == "required":
        return required(key)
    if case == "opened":
        return {**required(key), **OPENED.get(key, {})}
    return moved(key)


@cache
def analysed(key: str, case: str, samples: int = 0, seed: int = 1) -> sensitivity.Study:
    return sensitivity.study(key, case_inputs(key, case), samples=samples, seed=seed)


@cache
def compute_figures(key: str, inputs_json: str) -> dict:
    return sensitivity.figures(registry.compute(key, json.loads(inputs_json)))


def figures_with(key: str, inputs: dict[str, Any], **changed: Any) -> dict:
    merged = {**inputs, **changed}
    merged = {k: v for k, v in merged.items() if v is not None}
    return compute_figures(key, json.dumps(merged, sort_keys=True))


# --- the declarations ---------------------------------------------------------------------


def ranged_params():
    return [(s.key, p) for s in registry.scenarios() for p in s.params.params if p.documented_range is not None]


@pytest.mark.parametrize("key,param", ranged_params(), ids=lambda v: v if isinstance(v, str) else v.symbol)
def test_every_documented_range_is_within_bounds_and_holds_the_default(key, param):
    r = param.documented_range
    assert r.low < r.high
    assert param.check(r.low) == "" and param.check(r.high) == ""
    if param.default is not None:
        assert r.low <= param.default <= r.high
    if param.kind == INT:
        assert r.low == int(r.low) and r.high == int(r.high)


@pytest.mark.parametrize("key,param", ranged_params(), ids=lambda v: v if isinstance(v, str) else v.symbol)
def test_every_documented_range_cites_its_document_and_place(key, param):
    source = param.documented_range.source
    assert any(doc in source for doc in ("ESD 2004", "ESD 2010", "EPA 2018 update", "ESD 2015"))
    assert any(place in source for place in ("§", "¶", "Table", "App."))


def test_every_scenario_declares_ranges_for_at_least_two_inputs():
    for scenario in registry.scenarios():
        assert sum(p.documented_range is not None for p in scenario.params.params) >= 2, scenario.key


def test_inputs_without_a_printed_range_declare_none():
    # One value each in ESD 2010 (Table A-4): the EPA assumptions and the single defaults.
    params = registry.get("photoresist-2010").params
    for symbol in ("RHOphoto", "Napp_ratio", "Fphoto_develop", "Fphoto_waste", "Nshifts_day", "max_exposure_days"):
        assert params[symbol].documented_range is None, symbol
    # AREAsurface: the 2010 ESD prints one set (420/840); the 2018 update cites EPA's 2013 set beside it.
    assert params["AREAsurface_1hand"].documented_range is None
    assert registry.get("photoresist-2018").params["AREAsurface_1hand"].documented_range.low == 420.0


def _param(**kwargs: Any) -> Param:
    base: dict[str, Any] = {"symbol": "F", "label": "F", "units": "kg/kg", "default": 0.5, "source": "doc",
                            "step": "s", "lower": 0, "upper": 1}
    return Param(**{**base, **kwargs})


def test_a_default_outside_its_documented_range_is_refused_at_declaration():
    with pytest.raises(ValueError, match="outside its documented range"):
        _param(documented_range=DocumentedRange(0.1, 0.3, "Doc Table 1"))


def test_a_documented_range_beyond_the_allowed_bounds_is_refused_at_declaration():
    with pytest.raises(ValueError, match="outside the allowed bounds"):
        _param(documented_range=DocumentedRange(0.2, 1.5, "Doc Table 1"))


def test_a_count_range_with_fractional_ends_and_a_choice_range_are_refused():
    with pytest.raises(ValueError, match="whole-number ends"):
        _param(kind=INT, default=3, upper=10, documented_range=DocumentedRange(1.5, 4, "Doc"))
    with pytest.raises(ValueError, match="only a number input"):
        _param(kind=CHOICE, default="a", choices=(("a", "A"),), documented_range=DocumentedRange(0, 1, "Doc"))


def test_a_documented_range_needs_low_below_high_and_a_citation():
    with pytest.raises(ValueError):
        DocumentedRange(0.3, 0.3, "Doc")
    with pytest.raises(ValueError):
        DocumentedRange(0.1, 0.3, " ")


# --- the tornado --------------------------------------------------------------------------


@pytest.mark.parametrize("key,case", CASES)
def test_every_tornado_figure_equals_a_compute_with_that_input_at_that_end(key, case):
    inputs = case_inputs(key, case)
    study = analysed(key, case)
    checked = 0
    for output in study.outputs:
        for driver in output.drivers:
            assert value_at(figures_with(key, inputs, **{driver.input: driver.low}), output.key) == driver.output_at_low
            assert value_at(figures_with(key, inputs, **{driver.input: driver.high}), output.key) == driver.output_at_high
            checked += 1
        assert output.base == figures_with(key, inputs)[output.key]
    assert checked > 0


@pytest.mark.parametrize("key,case", CASES)
def test_drivers_are_sorted_by_swing_largest_first(key, case):
    for output in analysed(key, case).outputs:
        swings = [abs(d.output_at_high - d.output_at_low) for d in output.drivers]
        assert swings == sorted(swings, reverse=True)


@pytest.mark.parametrize("key,case", CASES)
def test_every_release_kg_yr_and_exposure_mg_day_is_an_output(key, case):
    result = registry.compute(key, case_inputs(key, case))
    named = {(o.id, o.estimate, o.quantity) for o in analysed(key, case).outputs}
    for release in result.releases:
        for e in release.estimates:
            assert (f"release-{release.number}", e.label, "kg_yr") in named
            assert (f"release-{release.number}", e.label, "kg_site_day") in named
    for exposure in result.exposures:
        for e in exposure.estimates:
            for quantity in ("mg_day", "apdr_mg_kg_day", "add_mg_kg_day", "ladd_mg_kg_day"):
                assert (f"exposure-{exposure.letter}", e.label, quantity) in named
            if e.mg_m3 is not None:
                assert (f"exposure-{exposure.letter}", e.label, "mg_m3") in named


def test_an_input_that_does_not_apply_is_no_driver_and_is_reported():
    study = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000}, samples=0)
    assert all(d.input != "Fphoto_wafer_low" for o in study.outputs for d in o.drivers)
    assert ("Fphoto_wafer_low", sensitivity.NOT_APPLYING) in [(s.input, s.reason) for s in study.skipped]
    opened = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000, "Fphoto_wafer_range": "both"}, samples=0)
    assert any(d.input == "Fphoto_wafer_low" for o in opened.outputs for d in o.drivers)


def test_an_end_the_engine_refuses_is_no_driver_and_is_reported():
    # Qliquid_skin_high at 0.7 is below the low end given (1.0): the cross-check refuses it.
    study = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000, "Qliquid_skin_low": 1.0}, samples=0)
    assert all(d.input != "Qliquid_skin_high" for o in study.outputs for d in o.drivers)
    refused = [s for s in study.skipped if s.input == "Qliquid_skin_high"]
    assert refused and refused[0].value == 0.7 and "must not exceed" in refused[0].reason


def test_tornado_ends_reproduce_the_printed_2010_worked_example():
    # ESD 2010 §6.2.3: Release 3 = 4.60 × (1 − 0.01) × (1 − [0.01 to 0.07]) kg/site-day, unrounded
    # 4.510275 (Fphoto_wafer 0.01) and 4.236925 (0.07); §6.3.3: Exposure A 44.1 to 132.3 mg/day.
    study = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000, "Fchem": 0.15}, samples=0)
    by_name = {(o.id, o.estimate, o.quantity): o for o in study.outputs}
    release_3 = next(o for (i, _, q), o in by_name.items() if i == "release-3" and q == "kg_site_day")
    wafer = next(d for d in release_3.drivers if d.input == "Fphoto_wafer")
    assert (wafer.low, wafer.high) == (0.01, 0.07)
    assert wafer.output_at_low == pytest.approx(4.510275, rel=1e-6)
    assert wafer.output_at_high == pytest.approx(4.236925, rel=1e-6)
    exposure_a = by_name[("exposure-A", "high end", "mg_day")]
    skin = next(d for d in exposure_a.drivers if d.input == "Qliquid_skin_high")
    assert (skin.output_at_low, skin.output_at_high) == (pytest.approx(44.1), pytest.approx(132.3))


# --- overrides ----------------------------------------------------------------------------


@pytest.mark.parametrize("key,case", CASES)
def test_every_override_figure_equals_a_compute_at_the_default(key, case):
    inputs = case_inputs(key, case)
    params = registry.get(key).params
    for output in analysed(key, case).outputs:
        for override in output.overrides:
            assert override.value != override.default
            at_default = figures_with(key, inputs, **{override.input: params[override.input].default})
            assert value_at(at_default, output.key) == override.output_at_default


@pytest.mark.parametrize("key,case", CASES)
def test_output_at_all_defaults_equals_a_compute_with_every_override_back(key, case):
    inputs = case_inputs(key, case)
    study = analysed(key, case)
    params = registry.get(key).params
    effective = registry.compute(key, inputs).inputs
    back = [p.symbol for p in params.params if p.symbol in params.applicable(inputs)
            and not (p.required and p.default is None) and effective[p.symbol] != p.default]
    figures = figures_with(key, inputs, **{symbol: params[symbol].default for symbol in back})
    for output in study.outputs:
        assert output.output_at_all_defaults == value_at(figures, output.key)


def test_overrides_list_each_moved_input_with_its_value_and_default():
    study = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000, "Vcont": 20.0, "Nsites": 3}, samples=0)
    release_1 = next(o for o in study.outputs if o.id == "release-1" and o.quantity == "kg_yr")
    found = {o.input: (o.value, o.default) for o in release_1.overrides}
    assert found == {"Vcont": (20.0, 3.8), "Nsites": (3, None)}


def test_nothing_overridden_gives_no_overrides_and_the_base_at_all_defaults():
    study = analysed("photoresist-2010", "required")
    assert all(not o.overrides and o.output_at_all_defaults == o.base for o in study.outputs)


# --- the band -----------------------------------------------------------------------------


@pytest.mark.parametrize("key,case", CASES)
def test_the_band_is_reproducible_with_the_same_seed(key, case):
    first = analysed(key, case, SAMPLES, 7).as_dict()
    again = sensitivity.study(key, case_inputs(key, case), samples=SAMPLES, seed=7).as_dict()
    assert first == again
    assert all(o["band"]["seed"] == 7 and o["band"]["samples"] == SAMPLES for o in first["outputs"] if "band" in o)


def test_another_seed_gives_another_band():
    one = analysed("photoresist-2010", "required", SAMPLES, 7)
    other = sensitivity.study("photoresist-2010", {"Qchem_yr": 5000.0}, samples=SAMPLES, seed=8)
    assert [o.band for o in one.outputs] != [o.band for o in other.outputs]


@pytest.mark.parametrize("key,case", CASES)
def test_the_band_lies_in_order_or_says_why_it_is_absent(key, case):
    for output in analysed(key, case, SAMPLES, 7).outputs:
        band = output.band
        if band is None:
            assert (sensitivity.BAND, sensitivity.NO_DRAW_RETURNS) in output.left_out
            continue
        assert band.p5 <= band.p50 <= band.p95


def _within_span(output: sensitivity.Output) -> bool:
    low, high = output.span
    tolerance = 1e-9 * max(abs(low), abs(high))
    return low - tolerance <= output.band.p50 <= high + tolerance


@pytest.mark.parametrize("key", KEYS)
def test_at_the_defaults_the_band_median_lies_within_the_tornado_span(key):
    for output in analysed(key, "required", SAMPLES, 7).outputs:
        assert _within_span(output), output.label


@pytest.mark.parametrize("key", KEYS)
def test_with_the_cases_inputs_held_the_band_median_lies_within_the_tornado_span(key):
    """The sample case's inputs (a concentration of 0.15, below the document's 0.2 to 0.4;
    the optional parts opened): the band holds what the case sets."""
    study = analysed(key, "opened", SAMPLES, 7)
    for output in study.outputs:
        assert _within_span(output), output.label


def test_the_band_holds_the_ranged_inputs_the_case_sets_and_varies_the_rest():
    study = analysed("photoresist-2010", "opened", SAMPLES, 7)
    ranged = [p.symbol for p in registry.get("photoresist-2010").params.params if p.documented_range is not None
              and p.symbol in registry.get("photoresist-2010").params.applicable(case_inputs("photoresist-2010",
                                                                                              "opened"))]
    assert study.band_held == ["Fchem"]  # 0.15, the case's; its document's range is 0.2 to 0.4
    assert study.band_varied == [s for s in ranged if s != "Fchem"]
    # Before this rule the band drew Fchem from 0.2 to 0.4 and exposure A's median, about
    # 140 mg/day, lay above the tornado's greatest, 2.1 × 420 cm² × 0.15 = 132.3 mg/day.
    output = next(o for o in study.outputs if (o.id, o.estimate, o.quantity) == ("exposure-A", "low end", "mg_day"))
    assert output.span == (pytest.approx(44.1), pytest.approx(132.3)) and output.band.p50 < 132.3
    # Every override is held: the band is what the overrides table does not list.
    assert set(study.band_held) == {o.input for out in study.outputs for o in out.overrides} & set(ranged)


def test_a_case_that_sets_every_ranged_input_has_a_band_of_its_base():
    inputs = moved("photoresist-2010")
    params = {p.symbol: p for p in registry.get("photoresist-2010").params.params}
    for symbol in analysed("photoresist-2010", "moved", SAMPLES, 7).band_varied:  # no default, or optional
        documented = params[symbol].documented_range
        inputs[symbol] = int(documented.low) if params[symbol].kind == INT else documented.low
    study = sensitivity.study("photoresist-2010", inputs, samples=SAMPLES, seed=7)
    assert study.band_varied == [] and study.band_held
    for output in study.outputs:
        assert output.band == sensitivity.Band(SAMPLES, 7, output.base, output.base, output.base)


def test_the_median_leaves_the_tornado_span_where_an_output_is_not_monotone_in_an_input():
    # Not a defect: the property is false for such an output. With 100 applications a day, the
    # 2004 ESD's container residue counts whole containers a year, so the release is a sawtooth
    # in the days of use: between the range's ends it rises above both (one input moves it).
    study = sensitivity.study("photoresist-2004", {**required("photoresist-2004"), "Napply": 100}, samples=400,
                              seed=7)
    output = next(o for o in study.outputs if (o.id, o.estimate, o.quantity) == ("release-1", "high end", "kg_yr"))
    assert [d.input for d in output.drivers if d.swing > 0 and d.input in study.band_varied] == ["TIMEapply_days"]
    assert output.band.p50 > output.span[1]


def test_the_median_leaves_the_tornado_span_where_inputs_compound():
    # Not a defect: with Vcont at 19 L, several inputs at the ends of their ranges move the
    # container residue per site-day the same way together; one at a time, none reaches it.
    study = sensitivity.study("photoresist-2010", {**required("photoresist-2010"), "Vcont": 19.0}, samples=400,
                              seed=7)
    output = next(o for o in study.outputs if (o.id, o.estimate, o.quantity) == ("release-1", "high end",
                                                                                    "kg_site_day"))
    assert len([d for d in output.drivers if d.swing > 0 and d.input in study.band_varied]) >= 3
    assert output.band.p50 < output.span[0]


def test_the_band_is_absent_without_samples():
    assert all("band" not in o for o in analysed("cvd-2015", "required").as_dict()["outputs"])


def test_low_and_high_inputs_of_one_quantity_are_drawn_in_order():
    # U_process_low <= U_process_high in every draw: none is refused.
    study = sensitivity.study("cvd-2015", {"Qchem_yr": 5000.0}, samples=200, seed=3)
    assert study.band_refused == 0 and study.band_note == ""


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 21)]
    assert [sensitivity.nearest_rank(values, p) for p in (5, 50, 95)] == [1.0, 10.0, 19.0]


# --- the contract's shape and errors ------------------------------------------------------


def test_analyse_returns_exactly_the_contract_shape():
    out = sensitivity.analyse("photoresist-2018", {"Qchem_yr": 5000, "Fchem": 0.15, "Vcont": 20.0},
                              samples=50, seed=2)
    assert set(out) == {"scenario", "engine_version", "outputs"}
    for output in out["outputs"]:
        assert set(output) == CONTRACT_OUTPUT_KEYS | {"band"}
        assert all(set(d) == {"input", "low", "high", "source", "output_at_low", "output_at_high"}
                   for d in output["drivers"])
        assert all(set(o) == {"input", "value", "default", "output_at_default"} for o in output["overrides"])
        assert set(output["band"]) == {"samples", "seed", "p5", "p50", "p95"}
    json.dumps(out, allow_nan=False)


@pytest.mark.parametrize("inputs", [{}, {"Qchem_yr": -1}, {"Qchem_yr": "many"}, {"Qchem_yr": 5000, "nope": 1},
                                    {"Qchem_yr": 5000, "Qliquid_skin_low": 3.0}, ["not", "an", "object"]])
def test_bad_inputs_raise_the_errors_compute_raises(inputs):
    with pytest.raises(EngineValidationError) as computed:
        registry.compute("photoresist-2010", inputs)
    with pytest.raises(EngineValidationError) as analysed_errors:
        sensitivity.analyse("photoresist-2010", inputs, samples=0)
    assert analysed_errors.value.errors == computed.value.errors


@pytest.mark.parametrize("samples,seed", [(-1, 1), (1.5, 1), (True, 1), (sensitivity.MAX_SAMPLES + 1, 1), (5, "x")])
def test_bad_band_options_are_refused_by_name(samples, seed):
    with pytest.raises(EngineValidationError) as exc:
        sensitivity.analyse("photoresist-2010", {"Qchem_yr": 5000}, samples=samples, seed=seed)
    assert set(exc.value.errors) <= {"samples", "seed"} and exc.value.errors
