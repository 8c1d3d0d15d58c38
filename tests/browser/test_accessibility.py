"""Section 508 (WCAG 2.1 AA) in a real browser: axe-core checks every page a reviewer
and a supervisor reach, with data on it (two cases, computed uses of both ESDs, an
approved revision and a draft revision 2, a returned case, a contact report, notices),
and finds no violation; forms are checked with their errors showing too.

axe-core is vendored (``tests/browser/vendor/axe-core``, MPL-2.0) so the check needs no
network; it is injected with Playwright's ``add_script_tag`` in a context that bypasses
the pages' Content-Security-Policy (the pages themselves keep it).
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from assessments import services, workflow
from assessments.models import Assessment, Scenario
from assessments.site_data import SITE_STEP
from contacts import services as contact_services
from tests.browser.conftest import log_in
from tests.conftest import make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN_AXE = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(0, 2).join(' ')),
  }));
}"""


def axe_violations(page) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE, WCAG_AA)


def check_pages(page, paths: list[str]) -> dict[str, list[dict]]:
    """Opens each path and runs axe on it; returns the violations per path (none: {})."""
    found = {}
    for path in paths:
        response = page.goto(page.base + path)
        assert response is not None and response.status < 500, f"{path} answered {response and response.status}"
        violations = axe_violations(page)
        if violations:
            found[path] = violations
    return found


def report(found: dict[str, list[dict]]) -> str:
    lines = []
    for path, violations in found.items():
        for v in violations:
            lines.append(f"{path}: {v['id']} ({v['impact']}): {v['help']}")
            lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)


@pytest.fixture
def page(new_page):
    return new_page(bypass_csp=True)


@pytest.fixture
def review_data(django_user_model):
    """Two cases as a team has them mid-review, made through the services."""
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True, first_name="Riley", last_name="Reviewer")
    supervisor = make_user(django_user_model, "sam", group="supervisor", cbi=True, first_name="Sam", last_name="Supervisor")

    photoresist = make_submission(case_number="P-26-0501", molecular_weight=200.0, vapour_pressure_torr=1.0e-6)
    first = services.assessment_start(submission=photoresist, by=reviewer)
    uses = [
        services.scenario_add(assessment=first, by=reviewer, scenario_key=key)
        for key in ("photoresist-2018", "cvd-2015")
    ]
    for use in uses:
        services.scenario_compute(scenario=use, by=reviewer)
    workflow.assessment_submit(
        assessment=first, by=reviewer, note="Ready for review.",
        volume_reason="The fab makes the resist it uses from the imported volume: the uses are one stream.",
    )
    workflow.assessment_approve(assessment=first, by=supervisor, comment="Agreed.")
    second = workflow.assessment_revise(assessment=Assessment.objects.get(pk=first.pk), by=reviewer)
    contact_services.contact_report_create(
        submission=photoresist, by=reviewer, assessments=[second],
        data={
            "contacted_at": timezone.now() - timedelta(hours=2), "direction": "called_by",
            "epa_name": "Riley Reviewer", "submitter_name": "Dana Chemist",
            "submitter_affiliation": "Acme Photochemicals", "notes": "Two coats per wafer.",
        },
    )

    cvd = make_submission(case_number="P-26-0502", molecular_weight=120.0)
    returned = services.assessment_start(submission=cvd, by=reviewer)
    services.scenario_compute(
        scenario=services.scenario_add(assessment=returned, by=reviewer, scenario_key="cvd-2015"), by=reviewer
    )
    workflow.assessment_submit(assessment=returned, by=reviewer, note="Please check.")
    workflow.assessment_return(assessment=returned, by=supervisor, comment="Check the supplier site.")
    return {
        "reviewer": reviewer, "supervisor": supervisor, "photoresist": photoresist, "cvd": cvd,
        "first": first, "second": second, "returned": returned,
    }


def reviewer_paths(data) -> list[str]:
    second, first, returned = data["second"], data["first"], data["returned"]
    photoresist, cvd = data["photoresist"], data["cvd"]
    paths = [
        "/", "/?status=approved", "/cases/new/", f"/cases/{photoresist.pk}/", f"/cases/{photoresist.pk}/edit/",
        f"/cases/{cvd.pk}/", f"/cases/{photoresist.pk}/calendar/", f"/cases/{photoresist.pk}/contacts/new/",
        f"/assessments/{second.pk}/", f"/assessments/{first.pk}/", f"/assessments/{returned.pk}/",
        f"/assessments/{second.pk}/notes/", f"/assessments/{second.pk}/history/",
        f"/assessments/{second.pk}/compare/", f"/assessments/{second.pk}/compare/?all=1",
        f"/assessments/{first.pk}/irer/", f"/assessments/{first.pk}/irer/?copy=sanitised",
        f"/assessments/{second.pk}/irer/",
        "/due/", "/notices/", "/methods/validation/", "/accounts/password/", "/no-such-page/",
    ]
    paths += [f"/contacts/{report.pk}/" for report in photoresist.contact_reports.all()]
    for use in Scenario.objects.filter(assessment=second):
        paths += [f"/scenarios/{use.pk}/", f"/scenarios/{use.pk}/report-text/", f"/scenarios/{use.pk}/delete/"]
        # every step of the wizard
        from assessments.esd import registry

        paths += [f"/scenarios/{use.pk}/wizard/{step.key}/" for step in registry.get(use.scenario_key).params.steps]
        paths.append(f"/scenarios/{use.pk}/wizard/{SITE_STEP}/")
    return paths


def test_every_reviewer_page_meets_wcag_aa(page, review_data):
    log_in(page, "riley")
    found = check_pages(page, reviewer_paths(review_data))
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)


def test_every_supervisor_page_meets_wcag_aa(page, review_data):
    log_in(page, "sam")
    paths = ["/", "/review/", "/due/", "/notices/", f"/assessments/{review_data['returned'].pk}/",
             f"/assessments/{review_data['second'].pk}/history/", f"/cases/{review_data['cvd'].pk}/assign/"]
    found = check_pages(page, paths)
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)


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
    violations = axe_violations(page)
    if violations:
        found["case form with errors"] = violations
    use = Scenario.objects.filter(assessment=review_data["second"], scenario_key="photoresist-2018").get()
    page.goto(page.base + f"/scenarios/{use.pk}/wizard/")
    field = page.locator(".wizard-fields input[type=text], .wizard-fields input:not([type])").first
    field.fill("-5")
    page.get_by_role("button", name="Save and next").click()
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


def test_axe_finds_a_planted_violation(page, review_data):
    """The check itself works: an image without alternative text is found."""
    log_in(page, "riley")
    page.goto(page.base + "/")
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"/static/favicon.svg\">')")
    assert "image-alt" in {v["id"] for v in axe_violations(page)}
