"""The wizard's steps are addresses over the saved draft: a step the use does not have is
not found, a form names the step of its address, and the session keeps only what was typed
and left unsaved, forgotten once the step is saved or the use computed."""

import pytest

from assessments import input_rules, services
from assessments.models import Scenario
from assessments.wizards import UNKNOWN_STEP, step_field
from tests.conftest import make_assessment, make_submission
from tests.views.wizard_helpers import post_step, step_url, steps, walk

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    return services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")


def test_a_step_the_use_does_not_have_is_not_found(client, reviewer, scenario):
    client.force_login(reviewer)
    assert client.get(step_url(scenario, "no-such-step")).status_code == 404
    post = {step_field(scenario): "no-such-step", "no-such-step-Qchem_yr": "1"}
    assert client.post(step_url(scenario, "no-such-step"), post).status_code == 404
    scenario.refresh_from_db()
    assert scenario.current_step == "" and scenario.result is None


def test_a_form_naming_another_step_than_its_address_is_refused_and_saves_nothing(client, reviewer, scenario):
    client.force_login(reviewer)
    first, second = steps(scenario)[:2]
    before = (dict(scenario.inputs), scenario.current_step)
    response = client.post(step_url(scenario, first), {step_field(scenario): second, f"{second}-Napply": "750"})
    assert response.status_code == 400 and response.content.decode() == UNKNOWN_STEP
    scenario.refresh_from_db()
    assert (scenario.inputs, scenario.current_step) == before


def test_walking_the_wizard_keeps_nothing_in_the_session(client, reviewer, scenario):
    client.force_login(reviewer)
    assert walk(client, scenario).status_code == 200
    assert not [key for key, _ in client.session.items() if "wizard" in key]


def test_saving_a_step_forgets_what_was_typed_on_it_before(client, reviewer, scenario):
    client.force_login(reviewer)
    first, second = steps(scenario)[:2]
    post_step(client, scenario, second, {"Napply": "750"}, {"Napply": "half typed"}, button={"wizard_goto_step": first})
    saved = post_step(client, scenario, second, {"Napply": "800"}, {"Napply": "Submitter: 800 applications"})
    assert saved.status_code == 302
    form = client.get(step_url(scenario, second)).context["wizard"]["form"]
    assert not form.is_bound  # the saved draft, not what was typed before
    assert form["Napply"].value() == "800" and form["reason_Napply"].value() == "Submitter: 800 applications"


def test_computing_forgets_what_was_typed_on_other_steps(client, reviewer, scenario):
    client.force_login(reviewer)
    first, second = steps(scenario)[:2]
    post_step(client, scenario, second, {"Napply": "750"}, {"Napply": "half typed"}, button={"wizard_goto_step": first})
    response = post_step(client, scenario, first, button={"wizard_finish": "1"})
    assert response["Location"] == f"/scenarios/{scenario.pk}/"
    form = client.get(step_url(scenario, second)).context["wizard"]["form"]
    scenario.refresh_from_db()
    assert not form.is_bound and "Napply" not in scenario.inputs  # the use was computed without it


def test_what_was_typed_is_shown_again_with_the_step_as_saved_now(client, reviewer, scenario):
    # Typed, left with "Back", then the step saved in another tab: coming back shows what
    # was typed, and posting it saves it (the reviewer has seen the step as it is now).
    client.force_login(reviewer)
    first, second = steps(scenario)[:2]
    post_step(client, scenario, second, {"Napply": "750"}, {"Napply": "typed here"}, button={"wizard_goto_step": first})
    services.scenario_save_step(scenario=scenario, by=reviewer, step=second, values={"Napply": "600"},
                                reasons={"Napply": "another tab"})
    page = client.get(step_url(scenario, second))
    form = page.context["wizard"]["form"]
    assert form["Napply"].value() == "750"
    assert form["seen"].value() == input_rules.step_token(Scenario.objects.get(pk=scenario.pk), second)
    response = client.post(step_url(scenario, second), {**form.data.dict(), step_field(scenario): second})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["Napply"] == 750 and scenario.reasons["Napply"] == "typed here"
