"""Driving a scenario wizard through the test client, as a browser would post it."""

from __future__ import annotations

from assessments.esd import registry
from assessments.site_data import SITE_STEP


def management_key(scenario) -> str:
    return f"scenario-wizard-{scenario.pk}-current_step"


def step_url(scenario, step: str) -> str:
    return f"/scenarios/{scenario.pk}/wizard/{step}/"


def form_data(response) -> dict:
    """The fields of the rendered step form with the values a browser would send."""
    form = response.context["wizard"]["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        data[form.add_prefix(name)] = "" if value is None else value
    return data


def post_step(client, scenario, step: str, values: dict | None = None, reasons: dict | None = None,
              button: dict | None = None):
    """GET the step, overlay ``values`` (by symbol) and ``reasons``, POST it."""
    page = client.get(step_url(scenario, step))
    assert page.status_code == 200, page
    data = form_data(page)
    for symbol, value in (values or {}).items():
        data[f"{step}-{symbol}"] = value
    for symbol, reason in (reasons or {}).items():
        data[f"{step}-reason_{symbol}"] = reason
    data[management_key(scenario)] = step
    data.update(button or {})
    return client.post(step_url(scenario, step), data)


def steps(scenario) -> list[str]:
    """The wizard's steps: the scenario's own, then the optional "Submitter's site data"."""
    return [s.key for s in registry.get(scenario.scenario_key).params.steps] + [SITE_STEP]


def walk(client, scenario, overrides: dict[str, tuple[dict, dict]] | None = None):
    """Post every step in order (with per-step ``(values, reasons)``); return the last response."""
    overrides = overrides or {}
    response = None
    for step in steps(scenario):
        values, reasons = overrides.get(step, ({}, {}))
        response = post_step(client, scenario, step, values, reasons)
        assert response.status_code == 302, (step, response.context and response.context["wizard"]["form"].errors)
    return client.get(response["Location"], follow=True)
