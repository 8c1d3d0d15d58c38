"""Section 508 (WCAG 2.1 AA) in a real browser, on pages as an action leaves them: a CBI
case's custody log after a view, the case form and a wizard step showing their errors,
the assessment page offering to undo a deleted use. Each test makes the data of
tests/browser/test_accessibility.py for itself (these tests change it) and finds no
violation.
"""

from __future__ import annotations

import re

import pytest

from assessments.models import Scenario
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import axe_violations, check_pages, make_review_data, report
from tests.conftest import make_submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(new_page):
    return new_page(bypass_csp=True)


@pytest.fixture
def review_data(django_user_model):
    """Two cases as a team has them mid-review (:func:`make_review_data`)."""
    return make_review_data(django_user_model)


def test_cbi_custody_pages_meet_wcag_aa(page, review_data):
    """A CBI case's page with its custody section, its whole log and "My CBI access", each with rows."""
    case = make_submission(case_number="P-26-0503", cbi_claims=["submitter"])
    log_in(page, "sam")
    page.goto(page.base + f"/cases/{case.pk}/")  # a first view, so the log has a row
    found = check_pages(page, [f"/cases/{case.pk}/", f"/cases/{case.pk}/custody/", "/my-cbi-access/"])
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)


def test_forms_with_errors_meet_wcag_aa(page, review_data):
    """The case form and a wizard step as they show their errors."""
    log_in(page, "riley")
    found = {}
    page.goto(page.base + "/cases/new/")
    page.get_by_role("button", name="Create case").click()
    page.locator("#error-summary").wait_for()  # the answer drawn, not the page it replaces
    violations = axe_violations(page)
    if violations:
        found["case form with errors"] = violations
    use = Scenario.objects.filter(assessment=review_data["second"], scenario_key="photoresist-2018").get()
    page.goto(page.base + f"/scenarios/{use.pk}/wizard/")
    field = page.locator(".wizard-fields input[type=text], .wizard-fields input:not([type])").first
    field.fill("-5")
    page.get_by_role("button", name="Save and next").click()
    page.locator(".has-error").first.wait_for()  # the step drawn again with its error
    violations = axe_violations(page)
    if violations:
        found["wizard step with an error"] = violations
    # A use deleted: the assessment page offers to undo it.
    page.goto(page.base + f"/scenarios/{use.pk}/delete/")
    page.locator("main form button[type=submit]").last.click()
    page.get_by_role("button", name=re.compile("Undo")).wait_for()
    violations = axe_violations(page)
    if violations:
        found["assessment page after a delete, with Undo"] = violations
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)
