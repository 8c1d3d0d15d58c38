"""``manage.py esd impact`` (docs/interface.md, "Additions, version 4", "Impact of a change"):
every assessment whose stored numbers move with a changed default, read only.

The demo data (``load_demo``): P-18-0123 revision 1 approved and revision 2 a draft, each with
one photoresist-2018 use on ChemSTEER's daily-use basis; P-26-0042 a CVD draft. Changing
photoresist-2018's container residue fraction (default 0.006, EPA/OPPT Small Container Residual
Model) to 0.01 moves release 1 of both revisions, by hand:

- ESD 2010 Eqn 4-1b: Elocal = Qchem_received_day × Fcontainer_disp, with Qchem_received_day =
  Qchem_day / (1 − Fcontainer_disp); ChemSTEER's Qchem_day = 5,000 kg/yr / (3 sites × 360 days)
  = 4.6296 kg/site-day;
- so the release over all sites is 5,000 × F / (1 − F) kg/yr: 5,000 × 0.006 / 0.994 = 30.181
  stored, 5,000 × 0.01 / 0.99 = 50.505 changed (+67.3 %); per site-day 4.6296 × 0.006 / 0.994
  = 0.027945 stored, 4.6296 × 0.01 / 0.99 = 0.046764 changed;
- release 2 (equipment cleaning) stays 50.0 kg/yr (0.0463 kg/site-day): release 1 was the
  smallest of the five releases and is now above it (rank changed), and the use's model
  characterisation of release 1 becomes "what-if" (0.01 is not the model's high end).
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assessments import impact, services
from assessments.esd import registry
from assessments.exposure_limits import ExposureLimit
from assessments.models import Scenario
from benchmarks._sample import add_sample_use, sample_assessment

CHANGE = "photoresist-2018.Fcontainer_disp=0.01"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


def refused(*overrides: str) -> str:
    """The ``--override`` error of ``esd impact`` with these overrides (exit 2, nothing on stdout)."""
    status, out, err = run("impact", *(a for o in overrides for a in ("--override", o)))
    assert (status, out) == (2, "")
    errors = json.loads(err)["errors"]
    assert list(errors) == ["--override"]
    return str(errors["--override"])


# --- the demo data -------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_changed_default_lists_the_draft_to_recompute_and_the_approved_revision_to_note(demo_data):
    status, out, err = run("impact", "--override", CHANGE)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Change: photoresist-2018.Fcontainer_disp=0.01; engine 1.2.0."
    rows = [re.split(r" {2,}", line) for line in lines if line.startswith("P-")]
    moved = ["1", "release-1", "high end → what-if"]
    assert rows == [
        ["P-18-0123", "2", "draft", "recompute", *moved, "kg_yr", "30.1811", "50.5051", "+67.3 %", "rank changed"],
        ["P-18-0123", "2", "draft", "recompute", *moved, "kg_site_day", "0.0279455", "0.0467639", "+67.3 %",
         "rank changed"],
        ["P-18-0123", "1", "approved", "note only", *moved, "kg_yr", "30.1811", "50.5051", "+67.3 %", "rank changed"],
        ["P-18-0123", "1", "approved", "note only", *moved, "kg_site_day", "0.0279455", "0.0467639", "+67.3 %",
         "rank changed"],
    ]
    assert lines[-1] == "2 revision(s) of 1 case(s) listed: 1 to recompute, 1 approved (note only)."


@pytest.mark.django_db
def test_the_json_has_the_contracts_keys_and_new_is_a_fresh_compute(demo_data):
    status, out, err = run("impact", "--override", CHANGE, "--json")
    assert (status, err) == (0, "")
    printed = json.loads(out)
    assert set(printed) == {"engine_version", "change", "cases"}
    assert printed["change"] == {"overrides": [{"scenario": "photoresist-2018", "input": "Fcontainer_disp",
                                                "value": 0.01}], "against": None, "stored_by": None}
    cases = printed["cases"]
    assert [(c["case"], c["revision"], c["status"], c["action"]) for c in cases] == [
        ("P-18-0123", 2, "draft", "recompute"), ("P-18-0123", 1, "approved", "note only")]
    contract = {"use", "id", "estimate", "quantity", "old", "new", "relative", "threshold"}
    for case in cases:
        assert {"case", "revision", "status", "action", "moves"} <= set(case) and case["refused"] == []
        assert all(contract <= set(move) for move in case["moves"])
        kg_yr, per_day = case["moves"]
        assert (kg_yr["use"], kg_yr["id"], kg_yr["estimate"], kg_yr["quantity"]) == (1, "release-1", "high end", "kg_yr")
        assert kg_yr["old"] == pytest.approx(5000 * 0.006 / 0.994, rel=1e-12)
        assert kg_yr["new"] == pytest.approx(5000 * 0.01 / 0.99, rel=1e-12)
        assert kg_yr["relative"] == pytest.approx((0.01 / 0.99) / (0.006 / 0.994) - 1, rel=1e-9)
        assert per_day["quantity"] == "kg_site_day"
        assert per_day["new"] == pytest.approx(5000 / (3 * 360) * 0.01 / 0.99, rel=1e-12)
        assert kg_yr["threshold"] == per_day["threshold"] == "rank changed"
        use = Scenario.objects.get(assessment__submission__case_number=case["case"],
                                   assessment__revision=case["revision"], position=1)
        fresh = registry.compute("photoresist-2018", {**use.computed_inputs, "Fcontainer_disp": 0.01})
        assert kg_yr["new"] == fresh.releases[0].estimates[0].kg_year_all_sites
        assert per_day["new"] == fresh.releases[0].estimates[0].kg_site_day


@pytest.mark.django_db
def test_with_no_change_nothing_moves_and_nothing_is_written(demo_data):
    with CaptureQueriesContext(connection) as queries:
        status, out, err = run("impact")
    assert (status, err) == (0, "")
    assert out.splitlines() == ["Change: none (the engine as it is); engine 1.2.0.", "No assessment's numbers move."]
    # Two reads (PostgreSQL reads the assessments through a server-side cursor: DECLARE ... SELECT);
    # nothing written.
    assert [q["sql"].split()[0] for q in queries.captured_queries] in (["SELECT", "SELECT"], ["DECLARE", "SELECT"])


# --- bad overrides -------------------------------------------------------------------------


def test_an_unknown_scenario_is_refused_in_the_registrys_words():
    known = ", ".join(s.key for s in registry.scenarios())
    assert refused("photoresist-2019.Fcontainer_disp=0.01") == (
        "'photoresist-2019.Fcontainer_disp=0.01': "
        + registry.UNKNOWN_SCENARIO.format(key="photoresist-2019", known=known))


def test_an_unknown_input_is_refused_by_name():
    assert refused("photoresist-2018.Fcontainer=0.01") == (
        "'photoresist-2018.Fcontainer=0.01': 'Fcontainer' is not an input of photoresist-2018")


def test_a_value_out_of_range_is_refused_naming_the_input_and_its_range():
    assert refused("photoresist-2018.Fcontainer_disp=1.5") == (
        "'photoresist-2018.Fcontainer_disp=1.5': Fcontainer_disp (Fraction of the photoresist left in emptied "
        "containers) must be at least 0 and less than 1 kg/kg (a fraction: 1.5 % is 0.015, or type 1.5%)")
    assert refused("photoresist-2018.Nsites=2.5") == (
        "'photoresist-2018.Nsites=2.5': Nsites (Number of sites, when known) must be a whole number between 1 and "
        "10000")
    assert refused("photoresist-2018.stripping_process=wet") == (
        "'photoresist-2018.stripping_process=wet': stripping_process (Stripping process) must be one of plasma, "
        "aqueous, organic_solvent, unknown")


@pytest.mark.parametrize("text", ["photoresist-2018.Fcontainer_disp", "photoresist-2018.Fcontainer_disp=",
                                  "photoresist-2018=0.01", ".Fcontainer_disp=0.01"])
def test_an_override_that_is_not_key_input_value_is_refused(text):
    assert refused(text) == (
        f"{text!r} is not KEY.INPUT=VALUE (a scenario key, a dot, an input symbol, = and a value, as "
        "manage.py esd defaults KEY names them)")


def test_a_required_input_has_no_default_to_change():
    assert refused("photoresist-2018.Qchem_yr=1000") == (
        "'photoresist-2018.Qchem_yr=1000': Qchem_yr (Production volume of the chemical) has no default to change: "
        "every use of photoresist-2018 gives it")


def test_every_bad_override_is_named_and_one_input_changed_twice_is_refused():
    assert refused(CHANGE, "photoresist-2018.Fcontainer_disp=0.02", "x.y=1") == (
        "'photoresist-2018.Fcontainer_disp=0.02': photoresist-2018.Fcontainer_disp is changed twice; "
        "'x.y=1': " + registry.UNKNOWN_SCENARIO.format(key="x", known=", ".join(s.key for s in registry.scenarios())))


def test_override_is_an_option_of_impact_only():
    status, out, err = run("list", "--override", CHANGE)
    assert (status, out) == (2, "")
    assert json.loads(err)["errors"]["__all__"].startswith("--override is an option of impact only; usage: esd")


# --- which uses the change reaches ---------------------------------------------------------


def test_an_input_left_out_blank_or_at_its_default_takes_the_change_and_one_set_otherwise_does_not():
    assert registry.get("photoresist-2018").params["Fcontainer_disp"].default == 0.006
    (change,) = impact.parse_overrides([CHANGE])
    for stored in ({}, {"Fcontainer_disp": None}, {"Fcontainer_disp": " "}, {"Fcontainer_disp": 0.006},
                   {"Fcontainer_disp": "0.006"}):
        assert impact.changed_inputs("photoresist-2018", stored, [change]) == {"Fcontainer_disp": 0.01}
    assert impact.changed_inputs("photoresist-2018", {"Fcontainer_disp": 0.02}, [change]) == {"Fcontainer_disp": 0.02}
    assert impact.changed_inputs("photoresist-2010", {}, [change]) == {}


@pytest.mark.django_db
def test_an_input_the_reviewer_set_keeps_the_reviewers_value(reviewer):
    assessment = sample_assessment(reviewer)
    own = add_sample_use(assessment, reviewer)
    own.inputs |= {"Fcontainer_disp": 0.02}
    own.reasons |= {"Fcontainer_disp": "The submitter's drums."}
    own.save()
    services.scenario_compute(scenario=own, by=reviewer)
    found = impact.impact(overrides=impact.parse_overrides([CHANGE]))
    assert [(c.case, c.revision) for c in found.cases] == [("P-18-0123", 1)]
    assert {move.use for move in found.cases[0].moves} == {1}  # use 2 keeps its 0.02


@pytest.mark.django_db
def test_a_use_the_engine_now_refuses_is_listed_with_its_error(reviewer):
    sample_assessment(reviewer)
    change = "photoresist-2018.Qliquid_skin_low=5"  # above the high end's default, 2.1 mg/cm²-incident
    status, out, err = run("impact", "--override", change, "--json")
    assert (status, err) == (0, "")
    (case,) = json.loads(out)["cases"]
    assert case["moves"] == []
    assert case["refused"] == [{"use": 1, "errors": {
        "Qliquid_skin_low": "must not exceed “Liquid photoresist left on skin, high end” (2.1 mg/cm²-incident)"}}]
    status, out, err = run("impact", "--override", change)
    assert "refused by the engine: Qliquid_skin_low: must not exceed “Liquid photoresist left on skin, high end” " \
           "(2.1 mg/cm²-incident)" in out


# --- thresholds, on hand-made results ------------------------------------------------------


def releases(*kg_yr: float) -> dict:
    """A result with one "high end" estimate per release, kg_yr as given (360 days, 1 site)."""
    return {"releases": [{"number": n, "estimates": [{"label": "high end", "kg_site_day": value / 360,
                                                       "kg_year_all_sites": value}]}
                         for n, value in enumerate(kg_yr, start=1)], "exposures": []}


def test_a_release_overtaking_another_changes_rank():
    moves = impact.compare(releases(30.0, 50.0, 4600.0), releases(60.0, 50.0, 4600.0), use=1)
    assert [(m.id, m.quantity, m.old, m.new, m.threshold) for m in moves] == [
        ("release-1", "kg_yr", 30.0, 60.0, "rank changed"),
        ("release-1", "kg_site_day", 30.0 / 360, 60.0 / 360, "rank changed")]
    assert moves[0].relative == 1.0  # (60 − 30) / 30


def test_a_release_that_moves_within_its_place_crosses_no_threshold():
    moves = impact.compare(releases(30.0, 50.0), releases(40.0, 50.0), use=1)
    assert [(m.id, m.quantity, m.threshold) for m in moves] == [("release-1", "kg_yr", None),
                                                                ("release-1", "kg_site_day", None)]


def inhalation(mg_m3: float) -> dict:
    """A result with one inhalation estimate at ``mg_m3`` (8-hour TWA; 10 m³ a day breathed)."""
    return {"releases": [], "dose_basis": {"body_weight_kg": 80},
            "exposures": [{"letter": "A", "route": "inhalation", "estimates": [
                {"label": "high end", "mg_day": mg_m3 * 10, "mg_m3": mg_m3, "ppm": None}]}]}


def test_an_exposure_crossing_the_case_limit_is_flagged_both_ways():
    limit = ExposureLimit(5.0, "mg/m3")
    up = impact.compare(inhalation(4.0), inhalation(6.0), use=2, limit=limit)
    assert [(m.id, m.route, m.quantity, m.threshold) for m in up] == [
        ("exposure-A", "inhalation", "mg_day", None),
        ("exposure-A", "inhalation", "mg_m3", "now above the TLV/PEL of 5 mg/m³")]
    down = impact.compare(inhalation(6.0), inhalation(4.0), use=2, limit=limit)
    assert [m.threshold for m in down] == [None, "no longer above the TLV/PEL of 5 mg/m³"]
    assert [m.threshold for m in impact.compare(inhalation(4.0), inhalation(4.5), use=2, limit=limit)] == [None, None]
