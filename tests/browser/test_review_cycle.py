"""The whole review of a case in a real browser, for a photoresist use and a CVD use:

the reviewer logs in, creates the case, assesses the use with one override and its
reason, reads the results, downloads the IRER (a PDF naming the case) and submits; the
supervisor, logged in in a second browser context, returns it with a comment; the
reviewer reads the comment, changes an input, recomputes and resubmits; the supervisor
approves; and the approved work is locked: the edit buttons are gone and the wizard's
address answers with the 403 page.

Each stage is checked on the page (visible text) and in the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from assessments.models import Assessment, DecisionAction, ReviewDecision, Scenario, Status
from assessments.services import EDIT_ASSESSMENT_NOT_ALLOWED
from tests.browser.conftest import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON_LABEL = "Reason for a value other than the default"


@dataclass(frozen=True)
class Edit:
    step_title: str  # the wizard step's title, as its step button shows it
    symbol: str
    value: str
    reason: str
    nsites: int  # the number of sites the engine must then report (hand calculation)


@dataclass(frozen=True)
class Use:
    key: str
    case_number: str
    first: Edit
    comment: str  # the supervisor's reason to return it
    fix: Edit


PHOTORESIST = Use(
    key="photoresist-2010",
    case_number="P-26-0801",
    # ESD 2010 Eqn 3-2, 3-3 by hand: 36 kg/site-day × 0.2 = 7.2; 0.994 × 5,000 / (7.2 × 360) = 1.92 → 2 sites
    first=Edit("Production volume and concentration", "Fchem", "0.2", "Submitter: 20 % in the resist", 2),
    comment="The PMN names the sites: four fabs (attachment 3). Enter them as known sites.",
    # A known number of sites is used as given (ESD 2010 §3.1: Nsites not computed)
    fix=Edit("Facility: a Table 3-2 row, the submitter's numbers, or known sites", "Nsites", "4",
             "PMN attachment 3: four fabs", 4),
)

CVD = Use(
    key="cvd-2015",
    case_number="P-26-0802",
    # ESD 2015 Eqn 3-2 by hand: 5,000 × (1 − 0.1) / 2,000 = 2.25 → 3 sites
    first=Edit("Production volume, sites and daily use", "Qchem_site_yr", "2000",
               "Submitter: 2,000 kg a year per fab", 3),
    comment="Qchem_site_yr: the PMN gives 900 kg/site-yr (page 4), not 2,000.",
    # 5,000 × 0.9 / 900 = 5.0 → 5 sites
    fix=Edit("Production volume, sites and daily use", "Qchem_site_yr", "900", "PMN page 4: 900 kg/site-yr", 5),
)


# --- what a reviewer and a supervisor do ----------------------------------------------------


def create_case(page: Page, case_number: str) -> None:
    page.get_by_role("link", name="New case").click()
    page.get_by_label(re.compile(r"^\s*Case number")).fill(case_number)
    page.get_by_label(re.compile(r"^\s*Submitter")).fill("Acme Semiconductor Chemicals")
    page.get_by_label(re.compile(r"^\s*Specific chemical name")).fill("Precursor X")
    page.get_by_label(re.compile(r"^\s*Generic name")).fill("Organometallic precursor")
    page.get_by_label(re.compile(r"^\s*Production volume \(kg/yr\)")).fill("5,000")
    page.get_by_label(re.compile(r"^\s*Use\*?\s*$")).fill("Used at semiconductor fabs.")
    page.get_by_role("button", name="Create case").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(case_number)


def field_row(page: Page, symbol: str):
    """The wizard row of one input: its value box and its reason box."""
    return page.locator(".wizard-fields > .row").filter(
        has=page.locator("label code", has_text=re.compile(rf"^{re.escape(symbol)}$")))


def enter(page: Page, edit: Edit) -> None:
    current = page.locator("[aria-current=step]")
    if not re.search(re.escape(edit.step_title), current.inner_text()):
        page.get_by_role("button", name=re.compile(rf"^\d+\. {re.escape(edit.step_title)}$")).click()
    expect(page.locator("[aria-current=step]")).to_contain_text(edit.step_title)
    row = field_row(page, edit.symbol)
    row.get_by_label(re.compile(rf"^\s*{re.escape(edit.symbol)}\b")).fill(edit.value)
    row.get_by_label(REASON_LABEL).fill(edit.reason)
    page.get_by_role("button", name="Save and compute").click()
    expect(page.get_by_role("heading", name="Environmental releases")).to_be_visible()


def expect_results(page: Page, edit: Edit) -> None:
    facility = page.locator("section[aria-labelledby=facility-title]")
    expect(facility.locator("tr").filter(has=page.locator("code", has_text=re.compile(r"^Nsites$")))
           .locator("td").first).to_have_text(f"{edit.nsites} site{'s' if edit.nsites != 1 else ''}")
    inputs = page.locator("section[aria-labelledby=inputs-title]")
    expect(inputs.locator("tr", has_text=edit.symbol).first).to_contain_text(edit.reason)


def open_assessment(page: Page) -> None:
    page.get_by_role("link", name="Revision 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("revision 1")


def submit(page: Page, note: str) -> None:
    page.get_by_label("Note to the supervisor (optional)").fill(note)
    page.get_by_role("button", name="Submit for approval").click()
    expect(page.get_by_role("status").filter(has_text="Submitted for approval.").first).to_be_visible()


def download_irer(page: Page, tmp_path: Path) -> str:
    with page.expect_download() as info:
        page.get_by_role("link", name="Download IRER (PDF)").click()
    download = info.value
    assert download.failure() is None
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-"), data[:20]
    return "\n".join(p.extract_text() for p in PdfReader(path).pages)


def open_from_queue(page: Page, case_number: str) -> None:
    page.get_by_role("link", name=re.compile(r"^Review queue")).click()
    page.get_by_role("link", name=case_number, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(case_number)


def decisions(assessment: Assessment) -> list[tuple[str, str, str]]:
    rows = ReviewDecision.objects.filter(assessment=assessment).order_by("pk")
    return [(d.action, d.by.username, d.comment) for d in rows]


# --- the review cycle ----------------------------------------------------------------------


def review_cycle(new_page, django_user_model, tmp_path: Path, use: Use) -> None:
    make_user(django_user_model, "riley", group="reviewer")
    make_user(django_user_model, "sam", group="supervisor")
    reviewer = new_page()
    log_in(reviewer, "riley")

    # The reviewer: a case, an assessment, the use with one override and its reason.
    create_case(reviewer, use.case_number)
    reviewer.get_by_role("button", name="Start assessment").click()
    reviewer.get_by_label("Emission scenario").select_option(use.key)
    reviewer.get_by_role("button", name="Add use").click()
    expect(reviewer.get_by_role("heading", level=2)).to_contain_text("Step 1 of")
    enter(reviewer, use.first)
    expect_results(reviewer, use.first)
    scenario = Scenario.objects.get(assessment__submission__case_number=use.case_number)
    assessment = scenario.assessment
    assert scenario.scenario_key == use.key
    assert scenario.reasons[use.first.symbol] == use.first.reason
    assert scenario.result["facility"]["Nsites"] == use.first.nsites
    assert scenario.computed_inputs == scenario.inputs

    # The IRER: a PDF that names the case.
    open_assessment(reviewer)
    text = download_irer(reviewer, tmp_path)
    assert use.case_number in text
    submit(reviewer, "Ready for review.")
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED

    # The supervisor, in a second browser context, returns it with a comment.
    supervisor = new_page()
    log_in(supervisor, "sam")
    open_from_queue(supervisor, use.case_number)
    supervisor.get_by_label("What must change (required to return)").fill(use.comment)
    supervisor.get_by_role("button", name="Return to the engineer").click()
    expect(supervisor.get_by_role("status").filter(has_text="Returned to the engineer.").first).to_be_visible()
    assessment.refresh_from_db()
    assert assessment.status == Status.RETURNED
    assert decisions(assessment)[-1] == (DecisionAction.RETURN, "sam", use.comment)

    # The reviewer reads the comment, changes an input, recomputes and resubmits.
    reviewer.reload()
    expect(reviewer.locator(".return-comment")).to_have_text(use.comment)
    expect(reviewer.get_by_role("alert").filter(has_text="Returned by sam")).to_be_visible()
    reviewer.get_by_role("link", name="Edit inputs").click()
    enter(reviewer, use.fix)
    expect_results(reviewer, use.fix)
    scenario.refresh_from_db()
    assert scenario.inputs[use.fix.symbol] == float(use.fix.value)
    assert scenario.reasons[use.fix.symbol] == use.fix.reason
    assert scenario.result["facility"]["Nsites"] == use.fix.nsites
    assert scenario.computed_inputs == scenario.inputs
    open_assessment(reviewer)
    submit(reviewer, "Sites corrected as asked.")
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED

    # The supervisor approves.
    supervisor.reload()
    supervisor.get_by_role("button", name="Approve").click()
    expect(supervisor.get_by_role("status").filter(has_text="Approved.").first).to_be_visible()
    expect(supervisor.get_by_text("This revision is final")).to_be_visible()
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED and assessment.approved_by.username == "sam"
    assert [(a, by) for a, by, _ in decisions(assessment)] == [
        (DecisionAction.SUBMIT, "riley"), (DecisionAction.RETURN, "sam"),
        (DecisionAction.SUBMIT, "riley"), (DecisionAction.APPROVE, "sam"),
    ]

    # Approved work is locked: no edit buttons, and the wizard's address is refused.
    reviewer.reload()
    expect(reviewer.locator(".badge-status-approved")).to_have_text("Approved")
    for name in ("Edit inputs", "Edit notes", re.compile("^Delete")):  # Delete: a link to its question
        expect(reviewer.get_by_role("link", name=name)).to_have_count(0)
    for name in ("Add use", "Duplicate", "Submit for approval", re.compile("^Delete")):
        expect(reviewer.get_by_role("button", name=name)).to_have_count(0)
    reviewer.get_by_role("link", name=scenario.title).click()
    expect(reviewer.get_by_role("heading", name="Environmental releases")).to_be_visible()
    expect(reviewer.get_by_role("link", name="Edit inputs")).to_have_count(0)
    locked = scenario.inputs, scenario.reasons, scenario.result
    response = reviewer.goto(f"{reviewer.base}/scenarios/{scenario.pk}/wizard/")
    assert response.status == 403
    expect(reviewer.get_by_role("heading", level=1)).to_have_text("Not allowed")
    expect(reviewer.get_by_text(EDIT_ASSESSMENT_NOT_ALLOWED)).to_be_visible()
    scenario.refresh_from_db()
    assert (scenario.inputs, scenario.reasons, scenario.result) == locked


def test_photoresist_use_is_returned_fixed_resubmitted_approved_and_locked(new_page, django_user_model, tmp_path):
    review_cycle(new_page, django_user_model, tmp_path, PHOTORESIST)


def test_cvd_use_is_returned_fixed_resubmitted_approved_and_locked(new_page, django_user_model, tmp_path):
    review_cycle(new_page, django_user_model, tmp_path, CVD)
