"""The whole wizard with the keyboard only (WCAG 2.1.1): from the assessment page the
reviewer adds a use, walks every step, overrides one input with its reason, and computes,
pressing only Tab, Shift+Tab, arrow keys, typing and Enter. Every element that takes the
focus on the way shows a visible focus indicator (WCAG 2.4.7).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from assessments.esd import registry
from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_TABS = 400

FOCUS_SHOWN = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
}"""
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {tag: 'body', name: '', id: ''};
  const label = el.labels && el.labels.length ? el.labels[0].innerText : '';
  return {tag: el.tagName.toLowerCase(), name: (el.innerText || el.value || '').trim(), id: el.id || '',
          label: label.trim(), type: el.type || ''};
}"""


def tab_to(page: Page, matches, *, backwards: bool = False) -> dict:
    """Presses Tab (Shift+Tab backwards) until the focused element ``matches``; checks on
    the way that every focused element shows a focus indicator."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "body":
            continue
        assert page.evaluate(FOCUS_SHOWN), f"no visible focus indicator on {focused}"
        if matches(focused):
            return focused
    raise AssertionError(f"never reached the element by keyboard within {MAX_TABS} presses")


def button(name: str):
    return lambda f: f["tag"] in ("button", "a") and f["name"] == name


def field(element_id: str):
    return lambda f: f["id"] == element_id


def test_reviewer_completes_the_wizard_with_the_keyboard_only(page, django_user_model):
    make_user(django_user_model, "riley", group="reviewer", cbi=True, first_name="Riley", last_name="Reviewer")
    case = make_submission(case_number="P-26-0901", molecular_weight=200.0, vapour_pressure_torr=1.0e-6)
    assessment = make_assessment(case, django_user_model.objects.get(username="riley"))
    log_in(page, "riley")
    page.goto(page.base + f"/assessments/{assessment.pk}/")

    # Add a use: the scenario select is reached by Tab and left at its default (the current
    # edition of the photoresist ESD).
    tab_to(page, field("scenario_key"))
    chosen = page.evaluate("document.activeElement.value")
    tab_to(page, field("scenario_title"))
    page.keyboard.type("Photoresist at the customer fabs")
    tab_to(page, button("Add use"))
    page.keyboard.press("Enter")
    expect(page.locator("[aria-current=step]")).to_be_visible()
    scenario = Scenario.objects.get(assessment=assessment)
    assert scenario.scenario_key == chosen
    steps = registry.get(chosen).params.steps

    # Step 1: override the first input with a value of our own and give the reason.
    first_input = page.locator(".wizard-fields input:visible, .wizard-fields select:visible").first
    input_id = first_input.get_attribute("id")
    assert input_id.split("-", 1)[1] == "Qchem_yr", f"step 1 starts with {input_id}, not the production volume"
    tab_to(page, field(input_id))
    page.keyboard.press("Control+A")
    page.keyboard.type("4,000")
    # The reason box is the next text box after the value in the row.
    tab_to(page, lambda f: f["tag"] in ("input", "textarea") and "reason" in f["id"].lower())
    page.keyboard.type("PMN page 3: 4,000 kg/yr")

    # Every step: Save and next, by keyboard, until the last, then Save and compute.
    for number in range(1, len(steps)):
        tab_to(page, button("Save and next"))
        page.keyboard.press("Enter")
        expect(page.locator("[aria-current=step]")).to_contain_text(f"{number + 1}.")
    tab_to(page, button("Save and compute"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Environmental releases")).to_be_visible()

    scenario.refresh_from_db()
    assert scenario.result, "the use was computed"
    assert scenario.inputs["Qchem_yr"] == 4000
    assert scenario.reasons["Qchem_yr"] == "PMN page 3: 4,000 kg/yr"


def test_a_step_error_is_reached_and_fixed_with_the_keyboard(page, django_user_model):
    """A bad value: the error is tied to its field (aria-describedby, aria-invalid), and
    the reviewer fixes it without the mouse."""
    make_user(django_user_model, "riley", group="reviewer", cbi=True)
    case = make_submission(case_number="P-26-0902")
    assessment = make_assessment(case, django_user_model.objects.get(username="riley"))
    log_in(page, "riley")
    page.goto(page.base + f"/assessments/{assessment.pk}/")
    tab_to(page, button("Add use"))
    page.keyboard.press("Enter")
    expect(page.locator("[aria-current=step]")).to_be_visible()

    first_input = page.locator(".wizard-fields input[type=text]:visible").first
    input_id = first_input.get_attribute("id")
    tab_to(page, field(input_id))
    page.keyboard.press("Control+A")
    page.keyboard.type("-5")
    tab_to(page, button("Save and next"))
    page.keyboard.press("Enter")

    box = page.locator(f"#{input_id}")
    expect(box).to_have_attribute("aria-invalid", "true")
    described = box.get_attribute("aria-describedby") or ""
    error_ids = [i for i in described.split() if i.endswith("_error")]
    assert error_ids, f"the error is not tied to the field: aria-describedby={described!r}"
    expect(page.locator(f"#{error_ids[0]}")).to_contain_text(re.compile(r"must be|greater|between|at least"))

    tab_to(page, field(input_id))
    page.keyboard.press("Control+A")
    page.keyboard.type("5,000")
    tab_to(page, button("Save and next"))
    page.keyboard.press("Enter")
    expect(page.locator("[aria-current=step]")).to_contain_text("2.")
