"""``python manage.py esd ... cvd-2015``: the command-line contract (spec/INTERFACE.md) for the
CVD scenario and the ``site_specific`` input.

The command runs in a subprocess, as other programs run it: JSON on stdout only, exit 0;
bad input exits 2 with ``{"errors": {SYMBOL: message}}`` on stderr and no traceback.
Expected numbers are the ESD's printed ones (ESD 2015 §6), as in test_cvd_2015.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMAND = ROOT / "assessments" / "management" / "commands" / "esd.py"

pytestmark = pytest.mark.skipif(
    not COMMAND.exists(), reason="the esd management command is not written yet"
)


def esd(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    return subprocess.run(
        [sys.executable, "manage.py", "esd", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )


def ok_json(proc: subprocess.CompletedProcess):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def errors_of(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout.strip() == ""
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stderr)["errors"]


# ESD 2015 §6 sample inputs (¶76) with the sample's Fcontainer_disp 0.006 and its kept,
# rounded 2.8 kg/site-day (= 1,008 kg/site-yr / 360 days)
SECTION_6 = {"Qchem_yr": 10000, "physical_state": "liquid", "Fchem": 1.0,
             "Fcontainer_disp": 0.006, "Qchem_site_day_basis": "eqn_3_1", "Qchem_site_yr": 1008}


def test_list_includes_cvd_2015():
    listed = ok_json(esd("list"))
    (entry,) = [s for s in listed if s["key"] == "cvd-2015"]
    assert entry["title"] and entry["source"]


def test_defaults_show_the_esd_defaults():
    text = esd("defaults", "cvd-2015")
    out = ok_json(text)
    blob = json.dumps(out)
    for symbol in ("Qchem_yr", "Qchem_site_yr", "TIME_operating_days", "Fchem", "Fcontainer_disp",
                   "Vcontainer", "physical_state", "RHOformulation", "U_process_low",
                   "U_process_high", "EF", "Nsites", "Nworkers_site"):
        assert f'"{symbol}"' in blob


def test_compute_from_stdin_reproduces_section_6(tmp_path):
    out = ok_json(esd("compute", "cvd-2015", "-", stdin=json.dumps(SECTION_6)))
    assert out["scenario"] == "cvd-2015"
    assert list(out)[:7] == ["scenario", "engine_version", "inputs", "facility", "releases",
                             "exposures", "warnings"]
    # ESD 2015 §6.1.3: "10 sites"; §6.1.4.1: "17 container/site-yr"
    assert out["facility"]["Nsites"] == 10
    assert out["facility"]["Ncontainer_unload_site_yr"] == 17
    # §6.3: "None"; §5.2: up to 19 workers per site
    assert out["exposures"] == []
    assert out["facility"]["Nworkers_site"] == 19
    (rel,) = out["releases"]
    assert rel["number"] == 1
    # §6.2.1: "0.014 ... to 0.02 kg/site-day", "360 day/year from each of 10 sites",
    # "Media of release: Air or water."
    by_label = {e["label"]: e for e in rel["estimates"]}
    assert by_label["low end"]["kg_site_day"] == pytest.approx(0.014, abs=0.0005)
    assert by_label["high end"]["kg_site_day"] == pytest.approx(0.02, abs=0.005)
    assert {(e["days_per_year"], e["sites"]) for e in rel["estimates"]} == {(360, 10)}
    assert rel["media"] == [{"medium": "air", "fraction": None}, {"medium": "water", "fraction": None}]


def test_compute_from_a_file(tmp_path):
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps({"Qchem_yr": 10000}))
    out = ok_json(esd("compute", "cvd-2015", str(path)))
    # Decision 1 (stated default 0.1): hand calculation 10,000 × 0.9 / 1,000 = 9 sites
    assert out["facility"]["Nsites"] == 9


def test_compute_with_a_site_specific_release():
    entry = {"method": "source_test", "replaces": 1, "source": "EIIP Example 6.4-3",
             "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0,
                        "V": 109020, "OH": 1760, "days_per_year": 220}}
    out = ok_json(esd("compute", "cvd-2015", "-",
                      stdin=json.dumps({"Qchem_yr": 10000, "site_specific": [entry]})))
    (rel,) = out["releases"]
    assert rel["site_specific"] is True
    # EIIP Example 6.4-3: "0.08 ton HF/yr" (× 907.18474 kg/ton)
    assert rel["estimates"][0]["kg_site_year"] / 907.18474 == pytest.approx(0.08, abs=0.005)


@pytest.mark.parametrize("inputs, symbol", [
    ({"Qchem_yr": 10000, "Fchem": 1.5}, "Fchem"),
    ({"Qchem_yr": -1}, "Qchem_yr"),
    ({"Qchem_yr": "ten"}, "Qchem_yr"),
    ({}, "Qchem_yr"),
    ({"Qchem_yr": 10000, "Qunknown": 3}, "Qunknown"),
    ({"Qchem_yr": 10000, "site_specific": [{"method": "source_test", "source": "x",
                                             "replaces": 1, "inputs": {"C_x": -1}}]},
     "site_specific[0].C_x"),
])
def test_bad_input_exits_2_naming_the_symbol(inputs, symbol):
    errors = errors_of(esd("compute", "cvd-2015", "-", stdin=json.dumps(inputs)))
    assert symbol in errors


def test_malformed_json_exits_2():
    errors = errors_of(esd("compute", "cvd-2015", "-", stdin="{not json"))
    assert "__all__" in errors
