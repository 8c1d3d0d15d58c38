"""``manage.py esd sensitivity KEY FILE|-`` (INTERFACE.md, "Additions, version 3", "Sensitivity").

JSON on stdout in the contract's shape, equal to :func:`assessments.esd.sensitivity.analyse`;
for a sample of figures, ``esd compute`` with that one input at that value gives the same
number; bad input exits 2 with exactly ``esd compute``'s errors.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from assessments.esd import registry, sensitivity

SAMPLE_USE = {"Qchem_yr": 5000, "Fchem": 0.15, "Vcont": 20.0}
KEYS = [s.key for s in registry.scenarios()]


def run(*args: str, stdin: str):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", *args, stdout=out, stderr=err, stdin=io.StringIO(stdin))
        status = 0
    except SystemExit as exc:
        status = exc.code
    return status, out.getvalue(), err.getvalue()


def ok(*args: str, stdin: str):
    status, out, err = run(*args, stdin=stdin)
    assert (status, err) == (0, ""), err
    return json.loads(out)


def compute_figures(key: str, inputs: dict) -> dict:
    """The outputs of ``esd compute`` (the JSON contract), by the analysis's names and places."""
    result = ok("compute", key, "-", stdin=json.dumps(inputs))
    out = {}
    for kind, subjects, ident, quantities in (("release", result["releases"], "number", {"kg_yr": "kg_year_all_sites",
                                                                                         "kg_site_day": "kg_site_day"}),
                                              ("exposure", result["exposures"], "letter", None)):
        for subject in subjects:
            for i, estimate in enumerate(subject["estimates"]):
                names = quantities or {q: q for q, _, _ in sensitivity.EXPOSURE_QUANTITIES}
                for quantity, field in names.items():
                    if estimate.get(field) is not None:
                        out[(f"{kind}-{subject[ident]}", 0, len(subject["estimates"]), i, quantity)] = estimate[field]
    return out


def required(key: str) -> dict:
    return {p.symbol: 5000 for p in registry.get(key).params.params if p.required and p.default is None
            and p.symbol in registry.get(key).params.applicable({})}


@pytest.mark.parametrize("key", KEYS)
def test_the_command_prints_analyse_exactly(key):
    inputs = {**required(key), "samples": 40, "seed": 3}
    printed = ok("sensitivity", key, "-", stdin=json.dumps(inputs))
    expected = sensitivity.analyse(key, required(key), samples=40, seed=3)
    assert printed == json.loads(json.dumps(expected))
    assert set(printed) == {"scenario", "engine_version", "outputs"}
    for output in printed["outputs"]:
        assert set(output) == {"id", "estimate", "quantity", "label", "base", "drivers", "overrides", "band"}


def test_a_sample_of_figures_equals_esd_compute_with_that_input_at_that_value():
    key = "photoresist-2018"
    study = sensitivity.study(key, SAMPLE_USE, samples=0)
    printed = ok("sensitivity", key, "-", stdin=json.dumps(SAMPLE_USE))
    assert printed == json.loads(json.dumps(study.as_dict()))
    release_5 = next(o for o in study.outputs if o.id == "release-5" and o.quantity == "kg_yr")
    exposure_b = next(o for o in study.outputs if o.id == "exposure-B" and o.quantity == "mg_day")
    for output in (release_5, exposure_b):
        top = output.drivers[0]
        at_low = compute_figures(key, {**SAMPLE_USE, top.input: top.low})
        at_high = compute_figures(key, {**SAMPLE_USE, top.input: top.high})
        assert sensitivity.value_at(at_low, output.key) == top.output_at_low
        assert sensitivity.value_at(at_high, output.key) == top.output_at_high
        override = next(o for o in output.overrides if o.input == "Vcont")
        at_default = compute_figures(key, {**SAMPLE_USE, "Vcont": override.default})
        assert sensitivity.value_at(at_default, output.key) == override.output_at_default


def test_without_samples_there_is_no_band_and_the_seed_defaults_to_1():
    printed = ok("sensitivity", "cvd-2015", "-", stdin=json.dumps({"Qchem_yr": 5000}))
    assert all("band" not in o for o in printed["outputs"])
    banded = ok("sensitivity", "cvd-2015", "-", stdin=json.dumps({"Qchem_yr": 5000, "samples": 20}))
    assert {o["band"]["seed"] for o in banded["outputs"]} == {1}


def test_a_scenario_with_fewer_than_two_ranged_inputs_has_no_band(synthetic):
    inputs = {p.symbol: 2500 for p in synthetic.params.params if p.required and p.default is None}
    printed = ok("sensitivity", synthetic.key, "-", stdin=json.dumps({**inputs, "samples": 50}))
    assert printed["outputs"] and all("band" not in o and o["drivers"] == [] for o in printed["outputs"])


BAD_INPUTS = [
    "{}",
    '{"Qchem_yr": -1}',
    '{"Qchem_yr": "lots"}',
    '{"Qchem_yr": 5000, "Vcontt": 3}',
    '{"Qchem_yr": 5000, "include_exposures": "maybe"}',
    '{"Qchem_yr": 5000, "Qliquid_skin_low": 3.0}',
    '{"Qchem_yr": 5000, "Fchem": "90"}',
    "[1, 2]",
    "{not json",
    "",
]


@pytest.mark.parametrize("stdin", BAD_INPUTS)
def test_bad_input_exits_2_with_the_errors_compute_gives(stdin):
    computed = run("compute", "photoresist-2010", "-", stdin=stdin)
    analysed = run("sensitivity", "photoresist-2010", "-", stdin=stdin)
    assert computed[0] == analysed[0] == 2
    assert analysed[1] == ""
    assert json.loads(analysed[2]) == json.loads(computed[2])


def test_an_unknown_scenario_exits_2_as_compute_does():
    computed = run("compute", "nope", "-", stdin="{}")
    analysed = run("sensitivity", "nope", "-", stdin="{}")
    assert computed[0] == analysed[0] == 2 and json.loads(analysed[2]) == json.loads(computed[2])


@pytest.mark.parametrize("extra", [{"samples": -1}, {"samples": 2.5}, {"samples": "many"}, {"seed": "x"},
                                   {"samples": sensitivity.MAX_SAMPLES + 1}])
def test_a_bad_samples_or_seed_exits_2_by_name_beside_compute_errors(extra):
    status, out, err = run("sensitivity", "photoresist-2010", "-", stdin=json.dumps({"Qchem_yr": -1, **extra}))
    errors = json.loads(err)["errors"]
    assert status == 2 and out == ""
    assert set(errors) == {"Qchem_yr", *extra}
