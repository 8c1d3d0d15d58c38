"""Every step of every scenario wizard under arbitrary posts (hypothesis), through the
test client: the answer is a redirect (the step was saved; on the last step or with "Save
and compute", computed too, to the results or to the step that stops the computation) or
the step again with its errors (200), never a server error; and when it is not a redirect
nothing was saved: the scenario's inputs, reasons, current step and result are as they were.

Values are what a browser can send for a text box or a select: in-range numbers as a
reviewer types them, number-shaped text, the spellings float() accepts but a finite
number must refuse (nan, inf, 1e400), any text (NUL characters too), over-long text,
repeated fields; reasons present, blank, or longer than the field allows; the step's
"seen" token current, stale or blank; a preset key or not; "Save and compute" or not.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from assessments import input_rules, services
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, cross_errors, each_input, parse_number
from assessments.forms.scenarios import format_value
from assessments.models import Scenario
from assessments.wizards import FINISH
from tests.conftest import make_assessment, make_submission
from tests.properties.strategies import in_range, number_text, special_text
from tests.views.wizard_helpers import management_key, post_step, step_url

pytestmark = pytest.mark.django_db

STEPS = [(s.key, step.key) for s in registry.scenarios() for step in s.params.steps]

# 20 (scenario, step) pairs, 20 posts each: about 1.5 s a pair, 30 s in all, on the 2-core machine.
POSTS = settings(max_examples=20, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def typed(param) -> st.SearchStrategy:
    """A value as typed in the param's box: in range (mostly) or anything."""
    good = in_range(param).map(lambda v: v if isinstance(v, str) else format_value(v))
    if param.kind == CHOICE:
        good = st.sampled_from([value for value, _ in param.choices])
    default = st.just(format_value(param.default))
    wild = st.one_of(number_text, special_text, st.text(max_size=45), st.just("1" * 41),
                     st.lists(number_text, min_size=2, max_size=2))
    return st.one_of(good, good, default, wild)


reasons = st.one_of(st.just("Submitter's data sheet, p. 3"), st.just(""), st.just("   "),
                    st.text(max_size=30), st.just("r" * 501))


@st.composite
def step_post(draw, key: str, step: str, token: str) -> tuple[dict, bool]:
    """The POST of one step (its fields under the step's prefix) and whether it is careful:
    every value in range with a reason, the current token, no preset."""
    scenario = registry.get(key)
    params = scenario.params.for_step(step)
    careful = draw(st.booleans())  # in-range values with reasons: the post should save
    data = {}
    for p in params:
        if careful:
            value = draw(in_range(p).map(lambda v: v if isinstance(v, str) else format_value(v)))
            reason = "Submitter's data sheet, p. 3"
        else:
            value = draw(st.one_of(st.none(), typed(p)))
            reason = draw(st.one_of(st.none(), reasons))
        if value is not None:
            data[f"{step}-{p.symbol}"] = value
        if reason is not None:
            data[f"{step}-reason_{p.symbol}"] = reason
    symbols = {p.symbol for p in params}
    preset_keys = [pr.key for pr in scenario.presets if symbols & set(pr.values)]
    if preset_keys and not careful:
        preset = draw(st.one_of(st.none(), st.sampled_from(preset_keys), st.text(max_size=8)))
        if preset is not None:
            data[f"{step}-preset"] = preset
    seen = token if careful else draw(st.sampled_from([token, token, "", "0" * 32, "stale"]))
    data[f"{step}-seen"] = seen
    if draw(st.booleans()):
        data[FINISH] = "1"
    return data, careful


def step_cross_errors(key: str, step: str, saved: dict, post: dict) -> dict:
    """The engine's checks spanning several inputs that the step's values break, among the
    checks reading only inputs of this step and the steps before it (what the step checks)."""
    params = registry.get(key).params
    on_step = {p.symbol for p in params.for_step(step)}
    merged = {k: v for k, v in saved.items() if k not in on_step}
    merged |= {symbol: post[f"{step}-{symbol}"] for symbol in on_step if f"{step}-{symbol}" in post}
    effective, problems = each_input(params, merged)
    if problems:
        return {}
    keys = [s.key for s in params.steps]
    within = {p.symbol for p in params.params if keys.index(p.step) <= keys.index(step)}
    return {k: v for k, v in cross_errors(params, effective, within=within).items() if k in on_step}


def snapshot(pk: int) -> tuple:
    s = Scenario.objects.get(pk=pk)
    return s.inputs, s.reasons, s.current_step, s.result, s.computed_inputs


class OpenWizard:
    """One scenario per test, its step opened (GET) as a browser would before its first
    post; hypothesis' examples then post to it in turn, each starting from the state the
    last one left."""

    def __init__(self, client, reviewer):
        case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
        self.assessment = make_assessment(case, reviewer)
        self.client, self.reviewer = client, reviewer
        self.scenario: Scenario | None = None
        self.needs_get = True
        client.force_login(reviewer)

    def open(self, key: str, step: str) -> Scenario:
        if self.scenario is None:
            self.scenario = services.scenario_add(assessment=self.assessment, by=self.reviewer, scenario_key=key)
        if self.needs_get:
            assert self.client.get(step_url(self.scenario, step)).status_code == 200
            self.needs_get = False
        return self.scenario


@pytest.fixture
def wizard(client, reviewer):
    return OpenWizard(client, reviewer)


@pytest.mark.parametrize(("key", "step"), STEPS)
@POSTS
@given(data=st.data())
def test_a_step_post_saves_and_redirects_or_shows_errors_and_saves_nothing(client, wizard, key, step, data):
    scenario = wizard.open(key, step)
    before = snapshot(scenario.pk)
    token = input_rules.step_token(Scenario.objects.get(pk=scenario.pk), step)
    post, careful = data.draw(step_post(key, step, token), label="post")
    post[management_key(scenario)] = step

    response = client.post(step_url(scenario, step), post)

    assert response.status_code in (200, 302), response.status_code
    after = snapshot(scenario.pk)
    event(f"{'careful' if careful else 'anything'}: {response.status_code}")
    if careful:  # in range, with reasons, on the step as it is now: saved, unless two of its inputs disagree
        expected = step_cross_errors(key, step, before[0], post)
        if expected:  # e.g. a low end above its high end: refused on the field, as the engine refuses it
            assert response.status_code == 200 and set(response.context["wizard"]["form"].errors) <= set(expected)
        else:
            assert response.status_code == 302, response.context["wizard"]["form"].errors
    if response.status_code == 302:
        steps = [s.key for s in registry.get(key).params.steps]
        if step != steps[-1] and FINISH not in post:
            assert response["Location"] == step_url(scenario, steps[steps.index(step) + 1])
        else:  # saved, then computed in the same POST: the results, or a step naming what stops it
            computed = response["Location"] == f"/scenarios/{scenario.pk}/"
            assert computed or response["Location"].startswith(f"/scenarios/{scenario.pk}/wizard/")
            if computed:
                assert after[3] is not None and after[4] == after[0]
        inputs, reasons, current_step, _, _ = after
        assert current_step == step
        step_symbols = {p.symbol for p in registry.get(key).params.for_step(step)}
        # Saving a step touches that step's inputs only.
        assert {k: v for k, v in inputs.items() if k not in step_symbols} == \
            {k: v for k, v in before[0].items() if k not in step_symbols}
        assert {k: v for k, v in reasons.items() if k not in step_symbols} == \
            {k: v for k, v in before[1].items() if k not in step_symbols}
        # Every input kept is within its declaration and each override has its reason.
        params = registry.get(key).params
        for symbol, value in inputs.items():
            assert params[symbol].check(value) == "", (symbol, value)
            if input_rules.needs_reason(params[symbol], value):
                assert reasons.get(symbol, "").strip(), symbol
    else:
        form = response.context["wizard"]["form"]
        assert form.errors, "a step shown again must say what is wrong"
        assert after == before


@settings(max_examples=300, deadline=None)
@given(value=st.floats(allow_nan=False, allow_infinity=False))
def test_a_value_shown_in_a_step_reads_back_as_the_stored_number(value):
    # The form shows each saved input with format_value; posting the form back unchanged
    # must not change it (it was shown with 10 significant digits, and re-saving a step
    # silently rounded the reviewer's overrides).
    assert parse_number(format_value(value)) == value


def test_saving_a_step_again_unchanged_keeps_its_inputs_and_the_result_fresh(client, reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    client.force_login(reviewer)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    reason = "Submitter's data sheet, p. 3"
    post_step(client, scenario, "production", {"MWchem": "123.45678901234"}, {"MWchem": reason},
              button={FINISH: "1"})  # saved and computed in this POST
    scenario.refresh_from_db()
    assert scenario.inputs["MWchem"] == 123.45678901234 and scenario.computed_inputs == scenario.inputs
    response = post_step(client, scenario, "production")  # the form as shown, posted back
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["MWchem"] == 123.45678901234
    assert scenario.computed_inputs == scenario.inputs  # the result is not made stale
