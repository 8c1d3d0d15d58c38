"""The wizard's optional "Submitter's site data" step: an EIIP site-specific air release
entered on every scenario's wizard, validated by the engine's own code, saved in the
scenario's inputs under ``site_specific`` and computed by the engine; shown as site-specific
on the results page, readable in the history, and carried by the export and import."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from assessments import comparison, services, timeline, transfer
from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError
from assessments.esd.site_data import METHODS, parse_entries
from assessments.models import Scenario
from assessments.site_data import SITE_STEP, SITE_STEP_TITLE
from tests.conftest import make_assessment, make_submission, make_user
from tests.views.wizard_helpers import form_data, management_key, step_url, walk

pytestmark = pytest.mark.django_db

KG_PER_LB = 0.45359237  # EIIP's lb/hr to kg: the pound's definition

# EIIP Example 6.4-3's data (HF source test), as a reviewer types them.
HF_TEST = {
    "pollutant_class": "inorganic", "C_x": "15.4", "MW_x": "20", "V": "109,020", "OH": "1760", "days_per_year": "220",
}
HF_SOURCE = "PMN attachment 3: 2023 stack test, tool exhaust"


@pytest.fixture
def assessment(reviewer):
    case = make_submission(production_volume_kg_yr=10000)
    return make_assessment(case, reviewer)


def add_scenario(client, assessment, key="cvd-2015") -> Scenario:
    client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": key, "title": ""})
    return Scenario.objects.get(assessment=assessment, scenario_key=key)


def entry_values(method: str, inputs: dict, *, index: int = 0, replaces: str = "", source: str = HF_SOURCE,
                 activity: str = "") -> dict:
    """The site-data step's fields for one entry, by field name (without the step prefix)."""
    values = {f"e{index}-method": method, f"e{index}-replaces": replaces, f"e{index}-source": source,
              f"e{index}-activity": activity}
    values.update({f"e{index}-{method}-{symbol}": value for symbol, value in inputs.items()})
    return values


def post_site(client, scenario, values: dict, button: dict | None = None, *, page=None):
    """GET the site-data step (or use ``page``), overlay ``values``, POST it."""
    page = page or client.get(step_url(scenario, SITE_STEP))
    assert page.status_code == 200
    data = form_data(page)
    data.update({f"{SITE_STEP}-{name}": value for name, value in values.items()})
    data[management_key(scenario)] = SITE_STEP
    data.update(button or {})
    return client.post(step_url(scenario, SITE_STEP), data)


def hf_hand_calculation() -> tuple[float, float]:
    """EIIP Eqn 6.4-3 by hand: E = C_x × MW_x × V / (M × 10^6) lb/hr, M = 385.5 ft³/lb-mole;
    over OH = 1,760 hr/yr and 220 days. Returns (kg/site-yr, kg/site-day)."""
    lb_per_hr = 15.4 * 20.0 * 109020 / (385.5 * 1e6)  # 0.087103 lb/hr (EIIP prints "0.09 lb/hr")
    kg_year = lb_per_hr * 1760 * KG_PER_LB  # 69.54 kg/site-yr
    return kg_year, kg_year / 220


# The step on every wizard ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()])
def test_every_wizard_ends_with_the_optional_site_data_step(client, reviewer, assessment, key):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, key)
    page = client.get(step_url(scenario, SITE_STEP))
    html = page.content.decode()
    assert page.status_code == 200
    assert f"{escape(SITE_STEP_TITLE)}</span>" in html  # the current step in the step list
    assert re.search(r'<input[^>]*value=""[^>]*checked[^>]*data-site-method-choice', html)  # "No site data"
    for method in METHODS.values():
        assert method.title in html
        assert f'data-site-method="{method.key}" hidden' in html  # no method chosen: no inputs shown
    assert "the preferred method for inorganic HAPs" in html  # the standing in plain words, not a code
    assert "Show this method's inputs</button>" in html


def test_the_methods_inputs_come_from_their_declarations(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    html = client.get(step_url(scenario, SITE_STEP)).content.decode()
    for param in METHODS["source_test"].params.params:
        assert f'id="id_{SITE_STEP}-e0-source_test-{param.symbol}"' in html
        assert escape(param.label) in html and escape(param.source) in html
    # M has a default (EIIP's molar volume at 68 °F), shown and prefilled
    assert 'name="site_specific-e0-source_test-M" value="385.5"' in html
    assert "Allowed: at least 0 ppmvd" in html


def test_the_releases_to_replace_are_the_scenarios_own(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    page = client.get(step_url(scenario, SITE_STEP))
    releases = registry.compute("cvd-2015", scenario.inputs).releases
    choices = page.context["wizard"]["form"].fields["e0-replaces"].choices
    assert choices == [("", "Add beside the ESD's releases")] + [
        (str(r.number), f"Replace release {r.number}: {r.source}") for r in releases]


# Left empty: nothing changes ----------------------------------------------------------------------


def test_leaving_the_step_at_no_site_data_changes_nothing(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    before = dict(scenario.inputs)
    results = walk(client, scenario)  # every step at its defaults, the site-data step too
    assert results.status_code == 200
    scenario.refresh_from_db()
    assert scenario.inputs == before and "site_specific" not in scenario.inputs
    assert scenario.result["releases"] == registry.compute("cvd-2015", before).as_dict()["releases"]
    assert not any(r["site_specific"] for r in scenario.result["releases"])
    assert "site_specific" not in scenario.result["inputs"]


def test_choosing_no_site_data_removes_the_saved_entries(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    post_site(client, scenario, entry_values("source_test", HF_TEST, replaces="1"))
    scenario.refresh_from_db()
    assert scenario.inputs["site_specific"]
    response = post_site(client, scenario, {"e0-method": ""})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs


# A valid entry: saved, computed, labelled ------------------------------------------------------------


def test_a_source_test_entry_is_saved_and_computes_a_site_specific_release(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    response = post_site(client, scenario, entry_values("source_test", HF_TEST, replaces="1",
                                                        activity="CVD tool exhaust stack"))
    assert response.status_code == 302  # the last step: computed, to the results
    scenario.refresh_from_db()
    assert scenario.inputs["site_specific"] == [{
        "method": "source_test",
        "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020.0, "OH": 1760.0,
                   "days_per_year": 220.0},
        "replaces": 1,
        "source": HF_SOURCE,
        "activity": "CVD tool exhaust stack",
    }]
    kg_year, kg_day = hf_hand_calculation()
    (release,) = [r for r in scenario.result["releases"] if r["number"] == 1]
    assert release["site_specific"] is True
    assert release["source"] == "CVD tool exhaust stack (site-specific data)"
    assert [m["medium"] for m in release["media"]] == ["air"]
    (estimate,) = release["estimates"]
    assert estimate["kg_site_year"] == pytest.approx(kg_year, rel=1e-9)
    assert estimate["kg_site_day"] == pytest.approx(kg_day, rel=1e-9)
    assert estimate["days_per_year"] == 220
    assert response["Location"] == f"/scenarios/{scenario.pk}/"  # the results page

    page = client.get(response["Location"]).content.decode()
    assert "CVD tool exhaust stack (site-specific data)" in page
    assert '<span class="badge text-bg-info">site-specific</span>' in page
    assert HF_SOURCE in page  # the entry's inputs and source on the results page
    assert "Measured concentration of the pollutant" in page


def test_an_entry_beside_the_releases_gets_the_next_number(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    emission_factor = {"pollutant_class": "inorganic", "EF_x": "0.002", "AF": "30", "OH": "1760",
                       "days_per_year": "220"}
    post_site(client, scenario, entry_values("emission_factor", emission_factor))
    scenario.refresh_from_db()
    numbers = [r["number"] for r in scenario.result["releases"]]
    added = scenario.result["releases"][-1]
    assert added["number"] == max(numbers) == len(registry.compute("cvd-2015", {"Qchem_yr": 10000}).releases) + 1
    assert added["site_specific"] is True
    # EIIP Eqn 6.5-3 by hand: 0.002 lb/unit × 30 units/hr × 1,760 hr/yr × 0.45359237 kg/lb
    assert added["estimates"][0]["kg_site_year"] == pytest.approx(0.002 * 30 * 1760 * KG_PER_LB, rel=1e-9)
    assert added["estimates"][0]["sites"] == 1  # it stands for the submitter's one site


def test_another_entry_is_added_and_both_are_saved(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    first = entry_values("source_test", HF_TEST, replaces="1")
    shown = post_site(client, scenario, first, {"site_add": "1"})
    assert shown.status_code == 200  # shown again with a second entry, nothing saved yet
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs
    html = shown.content.decode()
    assert "Site data entry 2" in html and 'value="15.4"' in html  # what was typed is kept
    second = entry_values("evaporation", {"pollutant_class": "organic", "MW_x": "32", "U": "1.7", "A": "10",
                                          "P_vap_x": "1.91", "T": "533", "OH": "1760", "days_per_year": "220"},
                          index=1, source="Submitter's tank data")
    response = post_site(client, scenario, {**first, **second}, page=shown)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert [e["method"] for e in scenario.inputs["site_specific"]] == ["source_test", "evaporation"]
    assert [r["site_specific"] for r in scenario.result["releases"]][-1] is True
    assert scenario.result["releases"][0]["site_specific"] is True


def test_show_this_methods_inputs_shows_them_without_saving(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    response = post_site(client, scenario, {"e0-method": "source_test"}, {"site_show": "0"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-site-method="source_test">' in html  # shown, not hidden
    assert 'data-site-method="evaporation" hidden' in html
    assert "invalid-feedback" not in html  # not checked: nothing was saved
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs and scenario.result is None


def test_the_saved_entry_is_shown_when_the_step_is_opened_again(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    post_site(client, scenario, entry_values("source_test", HF_TEST, replaces="1"))
    form = client.get(step_url(scenario, SITE_STEP)).context["wizard"]["form"]
    assert form["e0-method"].value() == "source_test"
    assert form["e0-source_test-C_x"].value() == "15.4"
    assert form["e0-replaces"].value() == "1"
    assert form["e0-source"].value() == HF_SOURCE


# Bad values: the engine's messages, nothing saved ----------------------------------------------------


def engine_message(entry: dict, key: str) -> str:
    with pytest.raises(EngineValidationError) as caught:
        parse_entries([entry])
    return caught.value.errors[key]


def test_a_value_out_of_range_shows_the_engines_message_on_the_field(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    before = (dict(scenario.inputs), scenario.result)
    response = post_site(client, scenario, entry_values("source_test", {**HF_TEST, "C_x": "-1"}, replaces="1"))
    assert response.status_code == 200
    message = engine_message({"method": "source_test", "inputs": {**HF_TEST, "C_x": "-1"}, "source": "x"},
                             "site_specific[0].C_x")
    assert message == "must be at least 0 ppmvd"  # the field's range, as the command line says it
    form = response.context["wizard"]["form"]
    assert form.errors["e0-source_test-C_x"] == [f"C_x {message}."]
    html = response.content.decode()
    field = re.search(r'<input[^>]*name="site_specific-e0-source_test-C_x"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field
    described = re.search(r'aria-describedby="([^"]+)"', field).group(1).split()
    assert "id_site_specific-e0-source_test-C_x_error" in described
    assert f'id="id_site_specific-e0-source_test-C_x_error"><div>C_x {message}.</div>' in html
    scenario.refresh_from_db()
    assert (scenario.inputs, scenario.result) == before


def test_a_cross_check_of_the_method_is_the_engines(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    response = post_site(client, scenario, entry_values("source_test", {**HF_TEST, "OH": "6000"}, replaces="1"))
    assert response.status_code == 200
    # 6,000 hr/yr over 220 days is more than 24 hours a day (methods._common_check)
    assert response.context["wizard"]["form"].errors["e0-source_test-OH"] == [
        "OH must be at most 24 hr a day × “Days of release” (5280 hr/yr)."]
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs


def test_a_missing_source_or_required_input_is_named(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    inputs = {k: v for k, v in HF_TEST.items() if k != "V"}
    response = post_site(client, scenario, entry_values("source_test", inputs, source="  "))
    errors = response.context["wizard"]["form"].errors
    assert errors["e0-source"] == ["Source of the data is required: where the facility data come from."]
    assert errors["e0-source_test-V"] == ["V is required (Stack gas volumetric flow rate, greater than 0 and at most 1E+9 dscf/hr)."]
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs


def test_a_decimal_comma_is_refused_with_the_engines_hint(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    response = post_site(client, scenario, entry_values("source_test", {**HF_TEST, "C_x": "15,4"}, replaces="1"))
    (error,) = response.context["wizard"]["form"].errors["e0-source_test-C_x"]
    assert error == "C_x must be a number (at least 0): use a decimal point, not a comma (1.5, not 1,5)."


def test_two_entries_replacing_one_release_are_refused(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    shown = post_site(client, scenario, {}, {"site_add": "1"})
    both = {**entry_values("source_test", HF_TEST, replaces="1"),
            **entry_values("source_test", HF_TEST, index=1, replaces="1")}
    response = post_site(client, scenario, both, page=shown)
    assert response.context["wizard"]["form"].errors["e1-replaces"] == [
        "Release 1 is already replaced by site-data entry 1."]
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs


def test_a_release_gone_since_the_entry_was_saved_is_named_at_compute(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    services.scenario_save_site_data(scenario=scenario, by=reviewer, entries=[
        {"method": "source_test", "inputs": dict(HF_TEST), "replaces": 9, "source": HF_SOURCE}])
    response = post_site(client, scenario, {}, {"wizard_finish": "1"})
    assert response["Location"] == step_url(scenario, SITE_STEP)
    page = client.get(response["Location"]).content.decode()
    assert "Submitter&#x27;s site data, entry 1, replaces: no release 9 in this scenario&#x27;s result" in page
    scenario.refresh_from_db()
    assert scenario.result is None


# Permissions -----------------------------------------------------------------------------------------


def test_a_user_who_cannot_edit_the_assessment_cannot_post_the_step(client, reviewer, supervisor, assessment,
                                                                    django_user_model):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    data = form_data(client.get(step_url(scenario, SITE_STEP)))
    data.update({f"{SITE_STEP}-{k}": v for k, v in entry_values("source_test", HF_TEST, replaces="1").items()})
    data[management_key(scenario)] = SITE_STEP
    other = make_user(django_user_model, "other-reviewer", group="reviewer", cbi=True)
    for user in (other, supervisor):
        client.force_login(user)
        assert client.post(step_url(scenario, SITE_STEP), data).status_code == 403
        assert client.post(step_url(scenario, SITE_STEP), {**data, "site_show": "0"}).status_code == 403
    scenario.refresh_from_db()
    assert "site_specific" not in scenario.inputs and scenario.result is None
    with pytest.raises(services.PermissionDenied):
        services.scenario_save_site_data(scenario=scenario, by=other, entries=[])


def test_a_submitted_assessment_cannot_take_site_data(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    data = form_data(client.get(step_url(scenario, SITE_STEP)))
    data[management_key(scenario)] = SITE_STEP
    assessment.status = "submitted"
    assessment.save()
    assert client.post(step_url(scenario, SITE_STEP), data).status_code == 403


# Where the entries are read: history, comparison, export and import -----------------------------------


def test_the_history_shows_the_entry_as_text(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    post_site(client, scenario, entry_values("source_test", HF_TEST, replaces="1"))
    changes = [c for entry in timeline.assessment_history(assessment=assessment) for c in entry.changes]
    (change,) = [c for c in changes if c.field == "Submitter's site data (EIIP)"]
    assert change.new.startswith("Source test (stack concentration and flow), replaces release 1: "
                                 "Pollutant class (for the method's standing) = Inorganic HAPs")
    assert "C_x = 15.4 ppmvd" in change.new and f"source: {HF_SOURCE}" in change.new
    assert "{" not in change.new and "[" not in change.new


def test_the_comparison_of_inputs_shows_the_entry_as_text(reviewer, assessment):
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015")
    services.scenario_save_site_data(scenario=scenario, by=reviewer, entries=[
        {"method": "source_test", "inputs": dict(HF_TEST), "replaces": 1, "source": HF_SOURCE}])
    scenario.refresh_from_db()
    rows = comparison._input_rows(None, scenario)
    (row,) = [r for r in rows if "site data" in r.label.lower()]
    assert row.label == "Submitter's site data (EIIP)"
    assert row.right.startswith("Source test (stack concentration and flow), replaces release 1")
    assert row.left == ""


def test_export_and_import_carry_the_entries_and_validate_them_with_the_engine(reviewer, assessment):
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015")
    scenario = services.scenario_save_site_data(scenario=scenario, by=reviewer, entries=[
        {"method": "source_test", "inputs": dict(HF_TEST), "replaces": 1, "source": HF_SOURCE}])
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    document = transfer.case_export(case_number=assessment.submission.case_number)
    document = transfer.loads(transfer.dumps(document), source="test")
    document["case"]["case_number"] = "P-26-9901"
    imported = transfer.case_import(document=document)
    copy = imported.assessments.get().scenarios.get()
    assert copy.inputs["site_specific"] == scenario.inputs["site_specific"]
    assert copy.current_step == SITE_STEP
    assert copy.result == scenario.result

    document["case"]["case_number"] = "P-26-9902"
    document["assessments"][0]["scenarios"][0]["inputs"]["site_specific"][0]["inputs"]["C_x"] = -1
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert "site_specific[0].C_x: must be at least 0 ppmvd" in str(caught.value)


# The IRER ------------------------------------------------------------------------------------------------


def test_the_irer_labels_the_release_site_specific_and_lists_the_site_data(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment)
    post_site(client, scenario, entry_values("source_test", HF_TEST, replaces="1", activity="CVD tool exhaust stack"))
    html = client.get(f"/assessments/{assessment.pk}/irer/").content.decode()
    kg_year, kg_day = hf_hand_calculation()  # 69.5 kg/site-yr and 0.316 kg/site-day, two figures as EPA prints
    assert (round(kg_day, 2), round(kg_year)) == (0.32, 70)
    assert "<strong>Output, site-specific data:</strong> 3.2E-1 kg/site-day over 220 days/yr" in html
    assert "<p>or 7.0E+1 kg/site-yr from 9 sites" in html  # the replaced release's 9 sites
    assert "from: CVD tool exhaust stack (site-specific data)</p>" in html
    sources = re.findall(r"<li>\[(\d+)\] ([^<]*)</li>", html)
    (number, source), = [(n, s) for n, s in sources if s.startswith(escape(SITE_STEP_TITLE))]
    assert f"source: {HF_SOURCE}" in source and "replaces release 1" in source
    row = re.search(r"<tr><td><code>C_x</code> Measured concentration of the pollutant \(site data 1\)</td>"
                    r"<td class=\"num\">([^<]*)</td><td>ppmvd</td><td>Site data</td><td class=\"num\">\[(\d+)\]</td>", html)
    assert row and row.group(1) == "15.4" and row.group(2) == number
