"""``include_exposures`` is a boolean of the contract (INTERFACE.md, "Additions, version 2",
"Releases only", and "Additions, version 3", "Booleans"): ``esd compute`` accepts JSON
``true``/``false`` and the strings ``"yes"``/``"no"``, through the engine's one validation,
and a refused choice names the JSON values accepted, never the wizard's labels."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from assessments.esd import registry

KEYS = [s.key for s in registry.scenarios()]
PHOTORESIST = {"Qchem_yr": 5000, "Fchem": 0.15}  # ESD 2010, Section 6 worked example


def _inputs(key: str) -> dict:
    return dict(PHOTORESIST) if key.startswith("photoresist") else {"Qchem_yr": 100.0}


def compute(key: str, inputs: dict) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", "compute", key, stdin=io.StringIO(json.dumps(inputs)), stdout=out, stderr=err)
    except SystemExit as exc:
        assert out.getvalue() == ""
        return exc.code, json.loads(err.getvalue())
    assert err.getvalue() == ""
    return 0, json.loads(out.getvalue())


@pytest.mark.parametrize("key", KEYS)
def test_include_exposures_false_gives_a_releases_only_result(key):
    status, result = compute(key, {**_inputs(key), "include_exposures": False})
    assert status == 0, result
    assert result["exposures"] == []
    assert result["inputs"]["include_exposures"] == "no"
    assert result == compute(key, {**_inputs(key), "include_exposures": "no"})[1]


@pytest.mark.parametrize("key", KEYS)
def test_include_exposures_true_is_the_default_result(key):
    status, result = compute(key, {**_inputs(key), "include_exposures": True})
    assert status == 0, result
    assert result["inputs"]["include_exposures"] == "yes"
    assert result == compute(key, _inputs(key))[1] == compute(key, {**_inputs(key), "include_exposures": "yes"})[1]


def test_include_exposures_true_keeps_the_dose_basis_inputs():
    # BW applies only while exposures are estimated: true must count as "yes" for it too
    status, result = compute("photoresist-2010", {**PHOTORESIST, "include_exposures": True, "BW": 70})
    assert status == 0, result
    assert result["dose_basis"]["body_weight_kg"] == 70
    exposure = result["exposures"][0]["estimates"][0]
    assert exposure["apdr_mg_kg_day"] == pytest.approx(exposure["mg_day"] / 70)


@pytest.mark.parametrize("value", [0, 1, "true", "false", "Yes", [], {}])
def test_other_values_are_refused_naming_the_json_values(value):
    status, body = compute("photoresist-2010", {**PHOTORESIST, "include_exposures": value})
    assert status == 2
    assert body == {"errors": {"include_exposures": 'must be one of the JSON values true, false, "yes", "no"'}}


def test_a_choice_error_names_json_values_not_labels():
    status, body = compute("photoresist-2018", {**PHOTORESIST, "stripping_process": "wet"})
    assert status == 2
    message = body["errors"]["stripping_process"]
    assert message == 'must be one of the JSON values "plasma", "aqueous", "organic_solvent", "unknown"'
    assert "“" not in message  # no form label


@pytest.mark.parametrize("key", KEYS)
def test_every_choice_error_of_the_command_names_the_json_values(key):
    scenario = registry.get(key)
    for param in scenario.params.params:
        if param.kind != "choice":
            continue
        status, body = compute(key, {**_inputs(key), param.symbol: "not-a-choice"})
        if status == 0:  # an input that does not apply with these inputs is ignored
            continue
        message = body["errors"][param.symbol]
        assert message.startswith("must be one of the JSON values"), (param.symbol, message)
        assert all(json.dumps(v) in message for v in param.json_values()), (param.symbol, message)


def test_the_engine_reads_true_and_false_as_the_choices():
    # the one validation the wizard, the import and the command share
    params = registry.get("photoresist-2010").params
    assert params.validate({**PHOTORESIST, "include_exposures": False})["include_exposures"] == "no"
    assert params.validate({**PHOTORESIST, "include_exposures": True})["include_exposures"] == "yes"
    assert "BW" not in params.applicable({"include_exposures": False})
    assert "BW" in params.applicable({"include_exposures": True})
