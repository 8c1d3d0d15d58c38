"""Section 508 (WCAG 2.1 AA) in a real browser: axe-core checks every page a reviewer
and a supervisor reach, with data on it (two cases, computed uses of both ESDs, an
approved revision and a draft revision 2, a returned case, a contact report, notices),
and finds no violation (forms with their errors showing, and pages after an action:
test_accessibility_after_actions.py).

axe-core is vendored (``tests/browser/vendor/axe-core``, MPL-2.0) so the check needs no
network; it is injected with Playwright's ``add_script_tag`` in a context that bypasses
the pages' Content-Security-Policy (the pages themselves keep it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from assessments import impact_runs, services, workflow
from assessments.esd import registry
from assessments.models import Assessment, ImpactRun, Scenario
from assessments.site_data import SITE_STEP
from contacts import services as contact_services
from tests.browser.conftest import log_in
from tests.conftest import make_submission, make_user

# Every test here reads the data the module's ``walk`` fixture made and committed (the pages
# after an action, on data of their own: test_accessibility_after_actions.py). The mark is
# what has the test database made.
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

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


#: The uses of the photoresist case, in the order they are added.
USE_KEYS = ("photoresist-2018", "cvd-2015")
#: The engine version revision 2's uses were stored by: an earlier release than the installed one.
OLDER_ENGINE = "1.1.0"


def make_review_data(user_model) -> dict:
    """Two cases as a team has them mid-review, made through the services."""
    reviewer = make_user(user_model, "riley", group="reviewer", cbi=True, first_name="Riley", last_name="Reviewer")
    supervisor = make_user(user_model, "sam", group="supervisor", cbi=True, first_name="Sam", last_name="Supervisor")

    photoresist = make_submission(case_number="P-26-0501", molecular_weight=200.0, vapour_pressure_torr=1.0e-6)
    first = services.assessment_start(submission=photoresist, by=reviewer)
    uses = [
        services.scenario_add(assessment=first, by=reviewer, scenario_key=key)
        for key in USE_KEYS
    ]
    for use in uses:
        services.scenario_compute(scenario=use, by=reviewer)
    workflow.assessment_submit(
        assessment=first, by=reviewer, note="Ready for review.",
        volume_reason="The fab makes the resist it uses from the imported volume: the uses are one stream.",
    )
    workflow.assessment_approve(assessment=first, by=supervisor, comment="Agreed.")
    second = workflow.assessment_revise(assessment=Assessment.objects.get(pk=first.pk), by=reviewer)
    # Revision 2's uses as an earlier engine stored them (issue 42): its results pages, its
    # assessment page and the lists show the marker, and each use's recompute page the difference
    # (the first a moved figure, the second none).
    for use in Scenario.objects.filter(assessment=second).order_by("pk"):
        result = dict(use.result, engine_version=OLDER_ENGINE)
        if use.scenario_key == USE_KEYS[0]:
            result["releases"][0]["estimates"][0]["kg_year_all_sites"] *= 2
        Scenario.objects.filter(pk=use.pk).update(result=result)
    # Revision 2's uses show the ChemSTEER v3.2 column (issue 42): its tables are checked with the page.
    services.assessment_set_chemsteer_v32(assessment=second, by=reviewer, on=True)
    # The supervisors' engine-change page with what a measure of the installed engine found
    # (revision 2's uses, stored by the earlier engine), its filters and its table of moves.
    run = impact_runs.start_run(by=supervisor, kind=ImpactRun.Kind.ENGINE)
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
        "first": first, "second": second, "returned": returned, "run": run,
    }


def wizard_steps(key: str) -> list[str]:
    """Every step of a use's wizard, the submitter's site data last."""
    return [step.key for step in registry.get(key).params.steps] + [SITE_STEP]


def use_pages(key: str) -> list[str]:
    """The names of a use's pages: its results, its report text, its delete question, its
    recompute (computed by an older engine) and every step of its wizard."""
    return [f"{key} results", f"{key} report text", f"{key} delete", f"{key} recompute"] + [
        f"{key} wizard {step}" for step in wizard_steps(key)]


#: Every page a reviewer reaches, by name (the test ids), in the order they are walked.
REVIEWER_PAGES = [
    "home", "home approved", "new case", "case", "case edit", "returned case", "case calendar", "new contact",
    "revision 2", "revision 1", "returned revision", "revision 2 notes", "revision 2 history",
    "revision 2 compare", "revision 2 compare all", "revision 1 irer", "revision 1 irer sanitised",
    "revision 2 irer", "due", "notices", "methods validation", "password", "no such page", "portfolio",
    "contact report 1",
] + [name for key in USE_KEYS for name in use_pages(key)]

#: Every page a supervisor reaches, by name.
SUPERVISOR_PAGES = ["home", "review queue", "due", "notices", "returned revision", "revision 2 history", "assign",
                    "engine changes", "portfolio"]


def reviewer_paths(data) -> dict[str, str]:
    """Each page a reviewer reaches in ``data``, by name: the cases, the revisions, their
    reports, every contact report and every page of every use of revision 2."""
    second, first, returned = data["second"], data["first"], data["returned"]
    photoresist, cvd = data["photoresist"], data["cvd"]
    paths = {
        "home": "/", "home approved": "/?status=approved", "new case": "/cases/new/",
        "case": f"/cases/{photoresist.pk}/", "case edit": f"/cases/{photoresist.pk}/edit/",
        "returned case": f"/cases/{cvd.pk}/", "case calendar": f"/cases/{photoresist.pk}/calendar/",
        "new contact": f"/cases/{photoresist.pk}/contacts/new/",
        "revision 2": f"/assessments/{second.pk}/", "revision 1": f"/assessments/{first.pk}/",
        "returned revision": f"/assessments/{returned.pk}/",
        "revision 2 notes": f"/assessments/{second.pk}/notes/", "revision 2 history": f"/assessments/{second.pk}/history/",
        "revision 2 compare": f"/assessments/{second.pk}/compare/",
        "revision 2 compare all": f"/assessments/{second.pk}/compare/?all=1",
        "revision 1 irer": f"/assessments/{first.pk}/irer/",
        "revision 1 irer sanitised": f"/assessments/{first.pk}/irer/?copy=sanitised",
        "revision 2 irer": f"/assessments/{second.pk}/irer/",
        "due": "/due/", "notices": "/notices/", "methods validation": "/methods/validation/",
        "password": "/accounts/password/", "no such page": "/no-such-page/", "portfolio": "/portfolio/",
    }
    for number, report in enumerate(photoresist.contact_reports.order_by("pk"), start=1):
        paths[f"contact report {number}"] = f"/contacts/{report.pk}/"
    for use in Scenario.objects.filter(assessment=second).order_by("pk"):
        key, prefix = use.scenario_key, f"/scenarios/{use.pk}/"
        paths |= {f"{key} results": prefix, f"{key} report text": prefix + "report-text/",
                  f"{key} delete": prefix + "delete/", f"{key} recompute": prefix + "recompute/"}
        paths |= {f"{key} wizard {step}": f"{prefix}wizard/{step}/" for step in wizard_steps(key)}
    return paths


def supervisor_paths(data) -> dict[str, str]:
    return {"home": "/", "review queue": "/review/", "due": "/due/", "notices": "/notices/",
            "returned revision": f"/assessments/{data['returned'].pk}/",
            "revision 2 history": f"/assessments/{data['second'].pk}/history/",
            "assign": f"/cases/{data['cvd'].pk}/assign/",
            "engine changes": f"/engine/changes/?run={data['run'].pk}&status=all",
            "portfolio": "/portfolio/?period=36"}


@dataclass
class Walk:
    """The addresses of the walk's pages in its data, by user, and a browser page for each
    user, logged in, that the walk's tests take in turn (as one test walking every page
    would: a page opened for each test costs more than its check)."""

    paths: dict[str, dict[str, str]]
    pages: dict[str, object]


@pytest.fixture(scope="module")
def walk(browser, django_db_setup, django_db_blocker):
    """The walk's data, made once for this module and committed, served by a live server of
    the module's own, with riley and sam each logged in once: each page is a test of its
    own (xdist shares them out) and no test makes the data again.

    pytest-django's ``live_server`` makes each test that uses it transactional, the
    database emptied after it and the data with it. The walk's tests only read (the
    browser's GETs), so here the data lives for the module instead, and the database is
    emptied at its end (``flush``), as after a transactional test: whatever runs next
    finds it as a transactional test leaves it. The walk's tests are plain ``django_db``
    tests: their own transaction, on the test's connection, holds nothing; the pages are
    read through the live server's connections."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from pytest_django.live_server_helper import LiveServer

    with django_db_blocker.unblock():
        server = LiveServer("localhost")
        server._live_server_modified_settings.enable()
        walk = Walk({}, {})
        contexts = []
        try:
            data = make_review_data(get_user_model())
            walk.paths = {"riley": reviewer_paths(data), "sam": supervisor_paths(data)}
            for username in walk.paths:
                contexts.append(browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True))
                page = walk.pages[username] = contexts[-1].new_page()
                page.set_default_timeout(15000)
                page.base = server.url
                log_in(page, username)
            yield walk
        finally:
            for context in contexts:
                context.close()
            server.stop()
            server._live_server_modified_settings.disable()
            call_command("flush", interactive=False, verbosity=0)
            # Playwright's event loop runs in this thread, and while a loop runs Django keeps
            # connections per context (asgiref's Local): the ones this fixture used are not
            # those pytest-django closes at the end of the run. Close them, or the test
            # database cannot be dropped.
            connections.close_all()


def test_the_walk_has_a_test_for_every_page(walk):
    """Every page of the walk's data has its test below, and no test names a page it lacks:
    a use, a wizard step or a contact report added to the data is a page more to check."""
    assert list(walk.paths["riley"]) == REVIEWER_PAGES
    assert list(walk.paths["sam"]) == SUPERVISOR_PAGES


@pytest.mark.parametrize("name", REVIEWER_PAGES)
def test_every_reviewer_page_meets_wcag_aa(walk, name):
    """Each page a reviewer reaches, logged in as riley, with the walk's data on it."""
    found = check_pages(walk.pages["riley"], [walk.paths["riley"][name]])
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)


@pytest.mark.parametrize("name", SUPERVISOR_PAGES)
def test_every_supervisor_page_meets_wcag_aa(walk, name):
    """Each page a supervisor reaches, logged in as sam."""
    found = check_pages(walk.pages["sam"], [walk.paths["sam"][name]])
    assert not found, "axe-core found WCAG 2.1 AA violations:\n" + report(found)


def test_axe_finds_a_planted_violation(walk):
    """The check itself works: an image without alternative text is found."""
    page = walk.pages["riley"]
    page.goto(page.base + "/")
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"/static/favicon.svg\">')")
    assert "image-alt" in {v["id"] for v in axe_violations(page)}
