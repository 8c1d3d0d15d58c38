"""The scenario wizards end to end through the test client: each step saved to the
database, resuming in a new session, going back, invalid values, overrides without a
reason, and the stored inputs and result afterwards."""

import pytest

from assessments import services
from assessments.esd import registry
from assessments.models import Scenario
from tests.conftest import make_assessment, make_submission
from tests.views.wizard_helpers import management_key, post_step, step_url, steps, walk

pytestmark = pytest.mark.django_db


@pytest.fixture
def assessment(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    return make_assessment(case, reviewer)


def add_scenario(client, assessment, key):
    response = client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": key, "title": ""})
    scenario = Scenario.objects.get(assessment=assessment, scenario_key=key)
    assert response["Location"] == f"/scenarios/{scenario.pk}/wizard/"
    return scenario


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()])
def test_every_wizard_walks_end_to_end_with_defaults(client, reviewer, assessment, key):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, key)
    results = walk(client, scenario)
    assert results.status_code == 200
    scenario.refresh_from_db()
    expected = registry.compute(key, scenario.inputs).as_dict()
    assert scenario.result["releases"] == expected["releases"]
    assert scenario.result["facility"] == expected["facility"]
    assert scenario.current_step == steps(scenario)[-1]


def test_new_scenario_takes_volume_and_concentration_from_the_case(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    assert scenario.inputs == {"Qchem_yr": 5000, "Fchem": 0.15}
    assert scenario.reasons == {"Fchem": "Submission: concentration in the use formulation."}
    page = client.get(step_url(scenario, "production"))
    assert page.context["wizard"]["form"]["Fchem"].value() == "0.15"


def test_override_with_reason_is_stored_and_result_uses_it(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    walk(client, scenario, {"process": ({"Fphoto_wafer": "0.01"}, {"Fphoto_wafer": "Submitter: 1 % stays on the wafer"})})
    scenario.refresh_from_db()
    assert scenario.inputs == {"Qchem_yr": 5000, "Fchem": 0.15, "Fphoto_wafer": 0.01}
    assert scenario.reasons["Fphoto_wafer"] == "Submitter: 1 % stays on the wafer"
    assert scenario.result["inputs"]["Fphoto_wafer"] == 0.01
    # ESD 2010 Eqn 4-4 by hand: Qchem_day × (1 − 0.01) × 0.01 × 0.5, Qchem_day = 0.994 × 5000 / (3 × 360)
    qchem_day = 0.994 * 5000 / (3 * 360)
    developer = next(r for r in scenario.result["releases"] if r["number"] == 4)
    assert developer["estimates"][0]["kg_site_day"] == pytest.approx(qchem_day * 0.99 * 0.01 * 0.5)


def test_override_without_reason_is_refused_and_nothing_saved(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    before = dict(Scenario.objects.get(pk=scenario.pk).inputs)
    response = post_step(client, scenario, "production", {"Fchem": "0.2"}, {"Fchem": ""})
    assert response.status_code == 200
    form = response.context["wizard"]["form"]
    assert form.errors["reason_Fchem"] == ["Give a reason for changing the default (0.4 kg/kg)."]
    scenario.refresh_from_db()
    assert scenario.inputs == before and scenario.current_step == ""


def test_invalid_value_is_shown_on_the_field_with_the_allowed_range(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    param = registry.get("photoresist-2010").params["Fchem"]
    response = post_step(client, scenario, "production", {"Fchem": "1.5"}, {"Fchem": "typo"})
    assert response.status_code == 200
    message = response.context["wizard"]["form"].errors["Fchem"][0]
    assert param.range_text() in message and message.startswith(param.label)
    assert 'aria-invalid="true"' in response.content.decode()
    scenario.refresh_from_db()
    assert scenario.inputs["Fchem"] == 0.15


def test_text_where_a_number_belongs_is_a_field_error(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    response = post_step(client, scenario, "facility", {"TIMEapply_days": "many"}, {"TIMEapply_days": "x"})
    assert "must be a number" in response.context["wizard"]["form"].errors["TIMEapply_days"][0]


def test_each_valid_step_is_saved_and_a_new_session_resumes_after_it(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    first, second, third = steps(scenario)[:3]
    post_step(client, scenario, first)
    post_step(client, scenario, second, {"TIMEapply_days": "300"}, {"TIMEapply_days": "Submitter: 300 days/yr"})
    scenario.refresh_from_db()
    assert scenario.inputs["TIMEapply_days"] == 300 and scenario.current_step == second

    client.logout()  # the session (and the wizard's session storage) is gone
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{scenario.pk}/wizard/")
    assert response["Location"] == step_url(scenario, third)
    back = client.get(step_url(scenario, second))
    form = back.context["wizard"]["form"]
    assert form["TIMEapply_days"].value() == "300"
    assert form["reason_TIMEapply_days"].value() == "Submitter: 300 days/yr"


def test_going_back_keeps_what_was_typed(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    first, second = steps(scenario)[:2]
    post_step(client, scenario, first)
    response = post_step(client, scenario, second, {"Napply": "750"}, {"Napply": "half typed"},
                         button={"wizard_goto_step": first})
    assert response["Location"] == step_url(scenario, first)
    again = client.get(step_url(scenario, second))
    form = again.context["wizard"]["form"]
    assert form["Napply"].value() == "750" and form["reason_Napply"].value() == "half typed"
    scenario.refresh_from_db()
    assert "Napply" not in scenario.inputs  # kept in the session only, until the step is saved


def test_returning_a_value_to_its_default_drops_the_override_and_keeps_a_reason_typed(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    post_step(client, scenario, "production", {"Fchem": "0.4"}, {"Fchem": "back to default"})
    scenario.refresh_from_db()
    assert "Fchem" not in scenario.inputs and scenario.reasons["Fchem"] == "back to default"
    post_step(client, scenario, "production", {"Fchem": "0.4"}, {"Fchem": ""})
    scenario.refresh_from_db()
    assert "Fchem" not in scenario.inputs and "Fchem" not in scenario.reasons


def test_preset_fills_the_step_with_the_table_row_and_its_source_as_reason(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    preset = next(p for p in registry.get("photoresist-2010").presets if p.key == "niche")
    post_step(client, scenario, "facility", button={"facility-preset": "niche"})
    scenario.refresh_from_db()
    for symbol, value in preset.values.items():
        assert scenario.inputs[symbol] == value
        assert scenario.reasons[symbol] == f"{preset.label} ({preset.source})"


def test_save_and_compute_from_a_middle_step_uses_defaults_for_the_rest(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    response = post_step(client, scenario, "production", button={"wizard_finish": "1"})
    assert response["Location"] == f"/scenarios/{scenario.pk}/"  # computed in the POST
    scenario.refresh_from_db()
    assert scenario.result["facility"]["Nsites"] == 3  # ESD 2010 §6.1.4: 2.56 rounded up


def test_editing_a_computed_scenario_recomputes_it(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    walk(client, scenario)
    scenario.refresh_from_db()
    assert scenario.result["facility"]["Nsites"] == 3
    walk(client, scenario, {"facility": ({"Nsites": "5"}, {"Nsites": "Submitter names 5 fabs"})})
    scenario.refresh_from_db()
    assert scenario.result["facility"]["Nsites"] == 5


def test_what_was_typed_on_one_use_is_not_shown_on_another(client, reviewer, assessment):
    client.force_login(reviewer)
    one = add_scenario(client, assessment, "photoresist-2010")
    two = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    first, second = steps(one)[:2]
    post_step(client, one, second, {"Napply": "750"}, {"Napply": "half typed"}, button={"wizard_goto_step": first})
    assert client.get(step_url(one, second)).context["wizard"]["form"]["Napply"].value() == "750"
    other = client.get(step_url(two, second)).context["wizard"]["form"]
    assert not other.is_bound and other["reason_Napply"].value() in (None, "")


def test_missing_management_form_is_a_400_not_a_500(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    response = client.post(step_url(scenario, "production"), {"production-Fchem": "0.2"})
    assert response.status_code == 400


def test_other_reviewer_cannot_open_the_wizard(client, reviewer, assessment, supervisor):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    client.force_login(supervisor)
    assert client.get(step_url(scenario, "production")).status_code == 403
    assert client.post(step_url(scenario, "production"), {management_key(scenario): "production"}).status_code == 403


def test_a_step_saved_in_another_tab_is_not_silently_overwritten(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    tab_a = client.get(step_url(scenario, "containers"))  # tab A opens the step
    post_step(client, scenario, "containers", {"Vcont": "1"}, {"Vcont": "1-L bottles (tab B)"})  # tab B saves it
    from tests.views.wizard_helpers import form_data

    data = form_data(tab_a) | {"containers-Vcont": "19", "containers-reason_Vcont": "NOW Pack (tab A)",
                               management_key(scenario): "containers"}
    response = client.post(step_url(scenario, "containers"), data)
    assert response.status_code == 200
    form = response.context["wizard"]["form"]
    assert "Someone else saved this step after you opened it" in " ".join(form.non_field_errors())
    assert form["Vcont"].value() == "19"  # what tab A typed is kept on the page
    scenario.refresh_from_db()
    assert scenario.inputs["Vcont"] == 1 and scenario.reasons["Vcont"] == "1-L bottles (tab B)"


def test_saving_a_different_step_in_another_tab_does_not_block(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    tab_a = client.get(step_url(scenario, "containers"))
    post_step(client, scenario, "process", {"Fphoto_wafer": "0.01"}, {"Fphoto_wafer": "tab B"})
    from tests.views.wizard_helpers import form_data

    data = form_data(tab_a) | {"containers-Vcont": "19", "containers-reason_Vcont": "NOW Pack",
                               management_key(scenario): "containers"}
    assert client.post(step_url(scenario, "containers"), data).status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["Vcont"] == 19 and scenario.inputs["Fphoto_wafer"] == 0.01


def test_coming_back_to_a_step_one_saved_oneself_is_not_a_conflict(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    post_step(client, scenario, "containers", {"Vcont": "1"}, {"Vcont": "1-L bottles"})
    response = post_step(client, scenario, "containers", {"Vcont": "19"}, {"Vcont": "NOW Pack"})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["Vcont"] == 19


def test_opening_done_with_get_computes_nothing(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    post_step(client, scenario, "production")
    assert client.get(step_url(scenario, "done")).status_code == 404  # no such step: only a POST computes
    scenario.refresh_from_db()
    assert scenario.result is None and scenario.computed_at is None


def test_a_tampered_step_name_is_a_bad_request(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    before = (scenario.inputs, scenario.current_step)
    for field, value in ((management_key(scenario), "no-such-step"), ("wizard_goto_step", "no-such-step")):
        data = {management_key(scenario): "production", "production-Qchem_yr": "1", field: value}
        response = client.post(step_url(scenario, "production"), data)
        assert response.status_code == 400
    scenario.refresh_from_db()
    assert (scenario.inputs, scenario.current_step) == before


def test_a_step_posted_after_the_wizard_ended_saves_that_step(client, reviewer, assessment):
    # Computing ends the session's wizard; a later post of another step (a second tab, the
    # back button) must save the step it names, not be read as the first step.
    client.force_login(reviewer)
    scenario = add_scenario(client, assessment, "photoresist-2010")
    walk(client, scenario)
    second = steps(scenario)[1]
    form = client.get(step_url(scenario, second)).context["wizard"]["form"]
    post = {form.add_prefix(name): ("" if form[name].value() is None else form[name].value()) for name in form.fields}
    post[management_key(scenario)] = second
    session = client.session
    for key in [k for k in session.keys() if k.startswith("wizard_")]:  # noqa: SIM118 (a session is not iterable)
        del session[key]  # the wizard's storage, as a compute or another tab leaves it
    session.save()
    response = client.post(step_url(scenario, second), post)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.current_step == second
