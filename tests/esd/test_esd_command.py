"""``manage.py esd``: the command-line contract (spec/INTERFACE.md) for the photoresist scenarios.

Most tests call the command in-process (call_command with captured stdout/stderr and the
SystemExit code); the headline example and the "never a traceback" rule run it as other
programs do, in a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from assessments.esd import registry
from tests.esd.printed import rounds_to

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("photoresist-2004", "photoresist-2010", "photoresist-2018")
SECTION_6 = {"Qchem_yr": 5000, "Fchem": 0.15}


def run(*args: str, stdin: str | None = None):
    """(exit status, stdout, stderr) of ``esd`` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    kwargs = {"stdout": out, "stderr": err}
    if stdin is not None:
        kwargs["stdin"] = io.StringIO(stdin)
    try:
        call_command("esd", *args, **kwargs)
        status = 0
    except SystemExit as exc:
        status = exc.code
    return status, out.getvalue(), err.getvalue()


def ok(*args: str, stdin: str | None = None):
    status, out, err = run(*args, stdin=stdin)
    assert status == 0, err
    assert err == ""
    return json.loads(out)


def bad(*args: str, stdin: str | None = None) -> dict[str, str]:
    status, out, err = run(*args, stdin=stdin)
    assert status == 2
    assert out == ""
    return json.loads(err)["errors"]


def subprocess_esd(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    return subprocess.run([sys.executable, "manage.py", "esd", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


# --- The headline example --------------------------------------------------------------


def test_compute_photoresist_2010_section_6_through_the_command():
    proc = subprocess_esd("compute", "photoresist-2010", stdin=json.dumps(SECTION_6))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # nothing but JSON on stdout
    # ESD 2010 §6.1.4: "3 manufacturing sites", "Qchem_day = 4.60 kg chemical dispensed/site-day";
    # §6.2.1: "Elocalcontainer_residue_disp = 0.0278 ... over 360 days/year from 3 sites"
    assert out["facility"]["Nsites"] == 3
    assert rounds_to(out["facility"]["Qchem_day"], "4.60")
    (r1,) = [r for r in out["releases"] if r["number"] == 1]
    (e,) = r1["estimates"]
    assert rounds_to(e["kg_site_day"], "0.0278")
    assert (e["days_per_year"], e["sites"]) == (360, 3)
    assert list(out)[:7] == ["scenario", "engine_version", "inputs", "facility", "releases", "exposures", "warnings"]


def test_bad_input_in_a_subprocess_gives_json_and_no_traceback():
    for args, stdin in ((("compute", "photoresist-2010"), '{"Fchem": "x"}'),
                        (("compute", "photoresist-2010"), "{broken"),
                        (("compute", "no-such-scenario"), "{}"),
                        (("compute", "photoresist-2010", "/no/such/file.json"), None),
                        (("--no-such-option",), None)):
        proc = subprocess_esd(*args, stdin=stdin)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        assert json.loads(proc.stderr)["errors"]


# --- list, defaults, compute -----------------------------------------------------------


def test_list_prints_the_photoresist_scenarios():
    listed = ok("list")
    by_key = {s["key"]: s for s in listed}
    assert set(KEYS) <= set(by_key)
    assert all(set(by_key[k]) == {"key", "title", "source"} for k in KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_defaults_prints_every_input_with_its_default(key):
    out = ok("defaults", key)
    declared = registry.get(key).params.params
    assert list(out["inputs"]) == [p.symbol for p in declared]
    assert {s: d["default"] for s, d in out["inputs"].items()} == {p.symbol: p.default for p in declared}
    assert all({"label", "units", "source", "step", "allowed"} <= set(d) for d in out["inputs"].values())


def test_defaults_show_the_documents_values():
    d2010 = ok("defaults", "photoresist-2010")["inputs"]
    d2018 = ok("defaults", "photoresist-2018")["inputs"]
    # ESD 2010 Table A-4: Fchem 0.4, Fcontainer_disp 0.006, TIMEapply_days 360, AREAsurface 420/840
    assert (d2010["Fchem"]["default"], d2010["Fcontainer_disp"]["default"]) == (0.4, 0.006)
    assert d2010["TIMEapply_days"]["default"] == 360
    assert (d2010["AREAsurface_1hand"]["default"], d2010["AREAsurface_2hand"]["default"]) == (420, 840)
    # EPA's 2013 hand areas for the 2018 update; stripping process unknown by default (§4.7)
    assert (d2018["AREAsurface_1hand"]["default"], d2018["AREAsurface_2hand"]["default"]) == (535, 1070)
    assert d2018["stripping_process"]["choices"] == ["plasma", "aqueous", "organic_solvent", "unknown"]
    assert d2010["Qchem_yr"] == {**d2010["Qchem_yr"], "default": None, "required": True}


def test_defaults_list_the_table_3_2_presets():
    presets = {p["key"]: p["values"] for p in ok("defaults", "photoresist-2010")["presets"]}
    # Table 3-2: niche 100 applications/site-hr, 20 h/day, 5 mL, 250 days/yr
    assert presets["niche"] == {"Napply": 100, "TIMEapply_hours": 20, "Qapply": 5, "TIMEapply_days": 250}


def test_compute_from_a_file(tmp_path):
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(SECTION_6))
    out = ok("compute", "photoresist-2010", str(path))
    assert out["facility"]["Nsites"] == 3


def test_compute_from_stdin_with_a_dash_or_nothing():
    assert ok("compute", "photoresist-2018", "-", stdin=json.dumps(SECTION_6))["scenario"] == "photoresist-2018"
    assert ok("compute", "photoresist-2004", stdin=json.dumps(SECTION_6))["scenario"] == "photoresist-2004"


def test_indent_zero_prints_one_line():
    status, out, _ = run("compute", "photoresist-2010", "--indent", "0", stdin=json.dumps(SECTION_6))
    assert status == 0
    assert out.count("\n") == 1 and out.endswith("\n")


# --- Bad input: exit 2, {"errors": {...}} on stderr ------------------------------------


def test_unknown_scenario():
    assert "unknown scenario 'photoresist-2030'" in bad("compute", "photoresist-2030", stdin="{}")["__all__"]
    assert "__all__" in bad("defaults", "photoresist-2030")


def test_unknown_symbol():
    errors = bad("compute", "photoresist-2010", stdin=json.dumps({**SECTION_6, "Fchemical": 0.2}))
    assert errors == {"Fchemical": "unknown input symbol for this scenario"}


def test_out_of_range():
    errors = bad("compute", "photoresist-2010", stdin=json.dumps({**SECTION_6, "Fchem": 1.5}))
    # A fraction above 1 says it is one, and how a percentage is given in JSON (issue 26).
    assert errors == {"Fchem": 'must be greater than 0 and at most 1 kg/kg (a fraction: 1.5 % is 0.015, '
                               'or the JSON string "1.5%")'}


def test_string_where_a_number_belongs():
    errors = bad("compute", "photoresist-2018", stdin=json.dumps({"Qchem_yr": "five thousand"}))
    assert list(errors) == ["Qchem_yr"]


def test_several_bad_symbols_are_all_named():
    errors = bad("compute", "photoresist-2010", stdin=json.dumps({"Qchem_yr": -1, "TIMEapply_days": 0}))
    assert set(errors) == {"Qchem_yr", "TIMEapply_days"}


def test_malformed_json():
    assert "malformed JSON" in bad("compute", "photoresist-2010", stdin='{"Qchem_yr": 5000,')["__all__"]


@pytest.mark.parametrize("text, kind", [("[5000, 0.15]", "array"), ('"5000"', "string"), ("5000", "number"),
                                        ("null", "null")])
def test_json_that_is_not_an_object(text, kind):
    assert bad("compute", "photoresist-2010", stdin=text)["__all__"].endswith(f"not a JSON {kind}")


def test_empty_input():
    assert "no JSON" in bad("compute", "photoresist-2010", stdin="  \n")["__all__"]


def test_unreadable_file(tmp_path):
    assert "cannot read" in bad("compute", "photoresist-2010", str(tmp_path / "missing.json"))["__all__"]
    assert "cannot read" in bad("compute", "photoresist-2010", str(tmp_path))["__all__"]  # a directory


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"Qchem_yr": 5000, "note": "\xe9"}')
    assert "cannot read" in bad("compute", "photoresist-2010", str(path))["__all__"]


@pytest.mark.parametrize("args", [(), ("compute",), ("defaults",), ("frobnicate",), ("list", "extra"),
                                  ("defaults", "photoresist-2010", "extra")])
def test_bad_arguments(args):
    assert "usage: esd" in bad(*args, stdin="{}")["__all__"]


def test_a_symbol_of_another_edition_is_named():
    errors = bad("compute", "photoresist-2004", stdin=json.dumps({**SECTION_6, "Vcont": 3.8}))
    assert list(errors) == ["Vcont"]
