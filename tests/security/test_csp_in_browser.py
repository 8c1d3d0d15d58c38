"""The policy in a real browser: Chromium reports no content-security-policy violation on
the application's pages or the admin, and Bootstrap's script still works under it.
Parsing the HTML (test_csp.py) cannot see what scripts do at run time; this can."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from assessments import services, workflow
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-only"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# django-simple-history's admin history list has one style attribute (see
# test_csp.BLOCKED_COSMETIC_STYLES); blocking it only leaves a border on the paginator.
KNOWN = "style-src-attr <p class=paginator>"

# Chromium is driven from another process: Playwright's sync API runs an event loop in
# its thread, which would clash with tests/browser's session-wide Playwright and with
# the ORM calls of this test.
DRIVER = r"""
import json, sys
from playwright.sync_api import sync_playwright

job = json.load(sys.stdin)
report = {"violations": [], "statuses": {}, "toggler_opens_the_menu": False}
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=job["chromium"], args=["--headless", "--no-sandbox",
        "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"])
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.on("console", lambda m: report["violations"].append(page.url.split("/", 3)[-1] + ": " + m.text[4:])
            if m.text.startswith("CSP ") else None)
    # Each violation, with the element (inline style, handler) or the URL blocked.
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error('CSP ' + e.effectiveDirective + ' '"
        " + (e.target && e.target.tagName ? '<' + e.target.tagName.toLowerCase() + ' class=' + e.target.className + '>'"
        " : e.blockedURI)));")
    base = job["base"]
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(job["username"])
    page.get_by_label("Password").fill(job["password"])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/")
    for path in job["paths"]:
        report["statuses"][path] = page.goto(base + path).status
        page.wait_for_load_state("load")
    # Bootstrap's script runs: on a narrow window the navigation opens from its toggler.
    page.set_viewport_size({"width": 500, "height": 800})
    page.goto(base + "/")
    page.get_by_role("button", name="Toggle navigation").click()
    page.get_by_role("link", name="Cases").wait_for(state="visible")
    report["toggler_opens_the_menu"] = True
    browser.close()
print(json.dumps(report))
"""


def drive_chromium(base: str, username: str, paths: list[str]) -> dict:
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is not installed at {CHROMIUM}: CI must run the browser tests")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    job = {"chromium": CHROMIUM, "base": base, "username": username, "password": PASSWORD, "paths": paths}
    result = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(job), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_no_csp_violation_in_chromium(live_server, django_user_model):
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True, is_staff=True, is_superuser=True)
    approver = make_user(django_user_model, "sam", group="supervisor", cbi=True)
    assessment = make_assessment(make_submission(use_concentration=0.15, molecular_weight=200), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2018", title="Resist")
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=assessment, by=approver, comment="Fine.")
    draft = workflow.assessment_revise(assessment=assessment, by=reviewer)
    draft_scenario = draft.scenarios.get()

    paths = [
        "/", "/cases/new/", f"/cases/{assessment.submission.pk}/", f"/assessments/{assessment.pk}/",
        f"/assessments/{assessment.pk}/irer/", f"/assessments/{assessment.pk}/history/",
        f"/assessments/{draft.pk}/compare/", f"/assessments/{draft.pk}/notes/", f"/scenarios/{scenario.pk}/",
        f"/scenarios/{draft_scenario.pk}/wizard/", "/admin/", "/admin/assessments/submission/",
        f"/admin/assessments/submission/{assessment.submission.pk}/change/",
        f"/admin/assessments/assessment/{assessment.pk}/history/", "/admin/auth/user/add/",
        "/admin/audit/authevent/",
    ]
    report = drive_chromium(live_server.url, "riley", paths)
    assert report["statuses"] == dict.fromkeys(paths, 200)
    assert report["toggler_opens_the_menu"]
    history = f"admin/assessments/assessment/{assessment.pk}/history/"
    assert report["violations"] == [f"{history}: {KNOWN}"]  # and the watcher sees what is blocked
