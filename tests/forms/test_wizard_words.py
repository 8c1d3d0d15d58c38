"""The wizard's words and the inputs it shows: choices by their labels (a select with
grouped options, or radio buttons with descriptions), short "Allowed" texts, defaults that
say what happens when an input is left empty; only the inputs that apply (hidden rows the
browser shows when a choice makes them apply); checks spanning two inputs made at the
step, on the field, naming both by label; a reason typed beside any value kept through
History, the results page, the IRER and a new revision; the assessment page's scenario
select on the current edition."""

from __future__ import annotations

import json
import re

import pytest

from assessments import presentation, timeline, workflow
from assessments.esd import registry
from assessments.esd.parameters import CHOICE
from assessments.forms.scenarios import default_text, step_form_class
from assessments.models import Scenario
from assessments.reports.context import irer_context
from tests.conftest import make_assessment, make_submission
from tests.reports import reading
from tests.views.wizard_helpers import post_step, step_url, walk

pytestmark = pytest.mark.django_db

CVD = "cvd-2015"


@pytest.fixture
def assessment(reviewer):
    return make_assessment(make_submission(production_volume_kg_yr=5000, use_concentration=0.15), reviewer)


def add(client, assessment, key):
    client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": key, "title": ""})
    return Scenario.objects.get(assessment=assessment, scenario_key=key)


def _row(html: str, symbol: str) -> str:
    """The wizard row of one input: from its opening tag to the next row's."""
    start = html.index(f'data-symbol="{symbol}"')
    start = html.rindex("<div", 0, start)
    end = html.find("data-symbol=", html.index(">", start))
    return html[start:end if end != -1 else len(html)]


# Choices by their labels --------------------------------------------------------------------


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()])
def test_no_step_lists_choice_codes(client, reviewer, assessment, key):
    client.force_login(reviewer)
    scenario = add(client, assessment, key)
    for step in registry.get(key).params.steps:
        html = client.get(step_url(scenario, step.key)).content.decode()
        assert "Allowed: one of " not in html.replace("Allowed: one of the listed choices", ""), step.key
        for param in registry.get(key).params.for_step(step.key):
            if param.kind != CHOICE:
                continue
            for value, _label in param.choices:
                option = re.search(rf'<(?:option|input)[^>]*value="{re.escape(value)}"', html)
                assert option, (param.symbol, value)
            shown = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', _row(html, param.symbol))
            for value, text in shown:  # each option reads its label (or the row's short text)
                if value:
                    assert text != value or dict(param.choices)[value] == value, (param.symbol, value)


def test_the_table_4_2_efficiencies_are_grouped_by_process(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    row = _row(client.get(step_url(scenario, "release")).content.decode(), "EF_table_4_2")
    groups = re.findall(r'<optgroup label="([^"]+)">', row)
    assert groups[:2] == ["Silicon EPI with dopants (hydrogen vented)", "Silicon EPI with dopants (hydrogen abated)"]
    assert len(groups) == 9
    assert ">Wet scrubbing (without chemical addition); Diborane: &gt;98%</option>" in row
    assert "Allowed: one of the listed choices" in row and "epi-h2" not in row.replace('value="epi-h2', "")


def test_a_short_choice_with_descriptions_is_radio_buttons_with_them(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    row = _row(client.get(step_url(scenario, "containers")).content.decode(), "density_method")
    assert row.count('type="radio"') == 3 and "<fieldset" in row and "<legend" in row
    assert "The ESD&#x27;s default for the physical state (Method 1)" in row
    assert "over the container&#x27;s volume" in row  # the choice's description


def test_a_default_says_what_happens_when_left_empty():
    params = registry.get(CVD).params
    assert default_text(params["Nsites"]) == "none: computed by Eqn 3-2 and rounded up to whole sites"
    assert default_text(params["Tc"]) == "none: the reduced temperature is not shown"
    assert default_text(params["VP_chem"]) == "none: required"
    assert default_text(params["Qchem_yr"]) == "none: required"
    for scenario in registry.scenarios():
        for param in scenario.params.params:
            text = default_text(param)
            assert "computed when left empty" not in text
            if "computed" in text:
                assert param.if_empty.startswith("computed"), param.symbol


# Only the inputs that apply ---------------------------------------------------------------------


def test_gas_only_rows_are_hidden_for_a_liquid_and_carry_their_condition(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    html = client.get(step_url(scenario, "containers")).content.decode()
    for symbol in ("z", "P", "T", "Tc", "Pc"):
        row = _row(html, symbol)
        assert re.search(rf'data-symbol="{symbol}"[^>]* hidden>', row), symbol
        condition = json.loads(re.search(r"data-applies-when=\"([^\"]+)\"", row).group(1).replace("&quot;", '"'))
        assert condition == [{"physical_state": ["gas"], "density_method": ["compressibility"]}]
    assert not re.search(r'data-symbol="Vcontainer"[^>]* hidden', html)
    assert "js/wizard-conditions.js" in html


def test_supplier_rows_follow_the_saved_choice(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    html = client.get(step_url(scenario, "supplier")).content.decode()
    assert re.search(r'data-symbol="Nsites_supplier"[^>]* hidden>', html)
    saved = post_step(client, scenario, "supplier", {"supplier_site": "yes", "VP_chem": "2000"},
                      {"supplier_site": "Returned containers"})
    assert saved.status_code == 302
    html = client.get(step_url(scenario, "supplier")).content.decode()
    assert not re.search(r'data-symbol="Nsites_supplier"[^>]* hidden', html)
    # the molecular weight on the containers step applies now that the supplier site is assessed
    html = client.get(step_url(scenario, "containers")).content.decode()
    assert not re.search(r'data-symbol="MW_chem"[^>]* hidden', html)
    saved_controls = json.loads(re.search(r'data-saved="([^"]*)"', html).group(1).replace("&quot;", "\""))
    assert saved_controls == {"supplier_site": "yes", "toxic_reactive_pyrophoric": "no"}


def test_a_value_in_a_field_that_does_not_apply_is_ignored_and_the_saved_one_kept(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    response = post_step(client, scenario, "containers", {"physical_state": "gas", "density_method": "compressibility",
                                                          "z": "0.15", "MW_chem": "32"},
                         {"physical_state": "Silane", "density_method": "A gas", "MW_chem": "Silane, 32 g/mol"})
    assert response.status_code == 302, response.context["wizard"]["form"].errors
    scenario.refresh_from_db()
    assert scenario.inputs["z"] == 0.15
    # back to the state's default density: z no longer applies; a bad value typed in it is not read
    response = post_step(client, scenario, "containers", {"density_method": "state_default", "z": "-7"})
    assert response.status_code == 302, response.context and response.context["wizard"]["form"].errors
    scenario.refresh_from_db()
    assert scenario.inputs["z"] == 0.15 and "density_method" not in scenario.inputs
    walk(client, scenario)
    scenario.refresh_from_db()
    # the engine read the default, not the saved 0.15 (the contract's inputs list it so)
    assert scenario.result["inputs"]["z"] != 0.15
    used = {row["param"].symbol for row in presentation.inputs_used(scenario=scenario, result=scenario.result)}
    assert not {"z", "P", "T", "Tc", "Pc", "Nsites_supplier", "VP_chem"} & used
    report = set(reading.inputs(irer_context(assessment=scenario.assessment)))
    assert not {"z", "P", "T", "Nsites_supplier"} & report and "Vcontainer" in report


def test_a_value_replacing_an_empty_input_needs_a_reason_that_says_what_empty_means(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    response = post_step(client, scenario, "use", {"Nsites": "4"})
    assert response.context["wizard"]["form"].errors["reason_Nsites"] == [
        "Give the source of this value (left empty: computed by Eqn 3-2 and rounded up to whole sites)."]


def test_an_input_required_when_it_applies_is_required_at_the_step(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    response = post_step(client, scenario, "containers", {"density_method": "fill_mass", "m_container": ""},
                         {"density_method": "Packaging data"})
    assert response.status_code == 200
    assert response.context["wizard"]["form"].errors == {"m_container": ["This input is required (greater than 0 and at most 4500 kg)."]}
    response = post_step(client, scenario, "containers", {"physical_state": "gas", "density_method": "compressibility",
                                                          "MW_chem": "32"},
                         {"physical_state": "Silane", "density_method": "A gas", "MW_chem": "Silane"})
    assert response.context["wizard"]["form"].errors == {"z": ["This input is required (greater than 0)."]}
    assert post_step(client, scenario, "containers", {"density_method": "state_default"}).status_code == 302


def test_a_choice_shows_its_label_in_the_inputs_used(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    walk(client, scenario)
    scenario.refresh_from_db()
    rows = {row["param"].symbol: row for row in presentation.inputs_used(scenario=scenario, result=scenario.result)}
    assert rows["physical_state"]["value"] == "Liquid" and rows["physical_state"]["code"] == "liquid"
    report = reading.inputs(irer_context(assessment=scenario.assessment))
    # an input the engine keys by a name of its own (density_method) is named by its label (issue 26)
    assert report["How the density is found"]["value"] == "The ESD's default for the physical state (Method 1)"


# Two inputs checked together, at the step --------------------------------------------------------


def test_a_low_end_above_its_high_end_is_refused_at_the_step_on_the_field(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, CVD)
    before = dict(Scenario.objects.get(pk=scenario.pk).inputs)
    response = post_step(client, scenario, "release", {"U_process_low": "0.7", "U_process_high": "0.5"},
                         {"U_process_low": "Submitter", "U_process_high": "Submitter"})
    assert response.status_code == 200
    errors = response.context["wizard"]["form"].errors
    assert errors["U_process_low"] == [
        "Utilisation of the precursor, low end must not exceed “Utilisation of the precursor, high end” (0.5): "
        "the utilisation range runs from low to high (ESD 2015 §4.3)."]
    assert Scenario.objects.get(pk=scenario.pk).inputs == before
    html = response.content.decode()
    assert "must not exceed “Utilisation of the precursor, high end”" in _row(html, "U_process_low")


def test_a_check_reading_an_earlier_step_runs_at_the_later_one(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, "photoresist-2010")
    assert post_step(client, scenario, "facility", {"TIMEapply_days": "250"}, {"TIMEapply_days": "Submitter"}).status_code == 302
    response = post_step(client, scenario, "process", {"cleanings_per_year": "300"}, {"cleanings_per_year": "Plant"})
    assert response.status_code == 200
    assert response.context["wizard"]["form"].errors["cleanings_per_year"] == [
        "Equipment cleanings per year must not exceed “Days of application per year” (250): the equipment is "
        "cleaned at most once an application day (ESD 2010 §4.3)."]


def test_a_check_reading_a_later_step_waits_for_it(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, "photoresist-2010")
    post_step(client, scenario, "process", {"cleanings_per_year": "300"}, {"cleanings_per_year": "Plant"})
    # the facility step does not hold the cleanings: lowering the days there is saved ...
    response = post_step(client, scenario, "facility", {"TIMEapply_days": "250"}, {"TIMEapply_days": "Submitter"})
    assert response.status_code == 302
    # ... and the computation names the input and sends the reviewer to its step
    response = post_step(client, scenario, "workers", button={"wizard_finish": "1"})
    assert response["Location"] == step_url(scenario, "process")


# A reason typed beside a value is kept ------------------------------------------------------------


def test_a_reason_beside_a_value_from_the_case_is_kept_to_the_next_revision(client, reviewer, supervisor, assessment):
    client.force_login(reviewer)
    scenario = add(client, assessment, "photoresist-2010")
    reason = "PMN page 3: 5,000 kg/yr, the maximum of the first three years"
    kept = "Confirmed with the submitter: 0.4 is the upper bound"
    walk(client, scenario, {"production": ({}, {"Qchem_yr": reason}), "containers": ({}, {"Vcont": kept})})
    scenario.refresh_from_db()
    assert scenario.inputs["Qchem_yr"] == 5000  # from the case, unchanged
    assert scenario.reasons["Qchem_yr"] == reason and scenario.reasons["Vcont"] == kept
    # shown again on the step
    page = client.get(step_url(scenario, "production"))
    assert page.context["wizard"]["form"]["reason_Qchem_yr"].value() == reason
    # History
    changes = [change.new for entry in timeline.assessment_history(assessment=scenario.assessment)
               for change in entry.changes]
    assert reason in changes and kept in changes
    # the results page's inputs table and the IRER's
    rows = {row["param"].symbol: row for row in presentation.inputs_used(scenario=scenario, result=scenario.result)}
    assert rows["Qchem_yr"]["reason"] == reason and rows["Vcont"]["reason"] == kept
    assert reason in client.get(f"/scenarios/{scenario.pk}/").content.decode()
    sources = {symbol: row["source"] for symbol, row in reading.inputs(irer_context(assessment=scenario.assessment)).items()}
    assert sources["Qchem_yr"] == reason
    assert sources["Vcont"].endswith(f"(reviewer: {kept})") and sources["Vcont"].startswith("ESD 2010")
    # a new revision copies it
    approved = workflow.assessment_approve(
        assessment=workflow.assessment_submit(assessment=scenario.assessment, by=reviewer, note="Ready."),
        by=supervisor, comment="Fine.")
    revision_2 = workflow.assessment_revise(assessment=approved, by=reviewer)
    copied = revision_2.scenarios.get()
    assert copied.reasons["Qchem_yr"] == reason and copied.reasons["Vcont"] == kept


# The scenario select ------------------------------------------------------------------------------


def test_the_scenario_select_starts_on_the_current_edition_with_full_titles(client, reviewer, assessment):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{assessment.pk}/").content.decode()
    select = html[html.index('<select class="form-select" name="scenario_key"'):]
    select = select[:select.index("</select>")]
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["Current editions", "Earlier editions"]
    current, earlier = select.split('<optgroup label="Earlier editions">')
    assert re.search(r'<option value="photoresist-2018" selected>', current)
    assert 'value="photoresist-2004"' in earlier and 'value="photoresist-2010"' in earlier
    for scenario in registry.scenarios():
        assert f">{scenario.full_title.replace(chr(39), '&#x27;')}</option>" in select
