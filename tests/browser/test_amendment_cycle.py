"""A PMN amendment in a real browser: revision 1 of a photoresist use is approved; the
reviewer starts revision 2, amends the case's production volume (with the reason the form
asks for), enters it in the use and computes, submits; the supervisor approves. Revision
1's IRER still prints the production volume it was approved with, revision 2's the
amended one (text read back from the PDFs), and the history shows the amendment.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from assessments.models import Assessment, Scenario, Status
from tests.browser.conftest import log_in
from tests.browser.test_review_cycle import PHOTORESIST, Edit, create_case, download_irer, enter, submit
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CASE = "P-26-0811"
REASON = "Amended PMN of 2026-03-02: production volume raised to 6,000 kg/yr."
# ESD 2010 Eqn 3-2, 3-3 by hand, Fchem 0.2: 0.994 × 6,000 / (7.2 × 360) = 2.30 → 3 sites
AMENDED_VOLUME = Edit("Production volume and concentration", "Qchem_yr", "6000", REASON, 3)


def open_revision(page: Page, number: int) -> None:
    page.goto(f"{page.base}/cases/{Assessment.objects.get(submission__case_number=CASE, revision=number).submission_id}/")
    page.get_by_role("link", name=f"Revision {number}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"revision {number}")


def approve(page: Page, number: int) -> None:
    open_revision(page, number)
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status").filter(has_text="Approved.").first).to_be_visible()


def pv_line(text: str) -> str:
    match = re.search(r"PV \(kg/yr\):\s*([\d,]+)", text)
    assert match, text[:500]
    return match.group(1)


def test_an_amendment_reaches_revision_2_and_revision_1_keeps_its_header(new_page, django_user_model, tmp_path: Path):
    make_user(django_user_model, "riley", group="reviewer")
    make_user(django_user_model, "sam", group="supervisor")
    reviewer, supervisor = new_page(), new_page()
    log_in(reviewer, "riley")
    log_in(supervisor, "sam")

    # Revision 1: the case, one use computed, submitted, approved.
    create_case(reviewer, CASE)
    reviewer.get_by_role("button", name="Start assessment").click()
    reviewer.get_by_label("Emission scenario").select_option(PHOTORESIST.key)
    reviewer.get_by_role("button", name="Add use").click()
    enter(reviewer, PHOTORESIST.first)
    open_revision(reviewer, 1)
    submit(reviewer, "Ready for review.")
    approve(supervisor, 1)
    first = Assessment.objects.get(submission__case_number=CASE, revision=1)
    assert first.status == Status.APPROVED and first.case_snapshot["production_volume_kg_yr"] == 5000.0

    # While revision 1 is the latest, the case cannot be edited.
    reviewer.goto(f"{reviewer.base}/cases/{first.submission_id}/")
    expect(reviewer.get_by_role("link", name="Edit case")).to_have_count(0)

    # Revision 2, then the amendment: the form asks for its reason.
    open_revision(reviewer, 1)
    reviewer.get_by_role("button", name="Start a new revision").click()
    expect(reviewer.get_by_role("heading", level=1)).to_contain_text("revision 2")
    reviewer.goto(f"{reviewer.base}/cases/{first.submission_id}/")
    reviewer.get_by_role("link", name="Edit case").click()
    reviewer.get_by_label(re.compile(r"^\s*Production volume \(kg/yr\)")).fill("6,000")
    reviewer.get_by_role("button", name="Save amendment").click()
    expect(reviewer.get_by_label(re.compile(r"^\s*Reason for the amendment"))).to_be_visible()
    expect(reviewer.get_by_text("Give the reason for this amendment").first).to_be_visible()
    reviewer.get_by_label(re.compile(r"^\s*Reason for the amendment")).fill(REASON)
    reviewer.get_by_role("button", name="Save amendment").click()
    expect(reviewer.get_by_role("status").filter(has_text=f"Case {CASE} amended.").first).to_be_visible()

    # The use of revision 2 takes the new volume and is computed; submitted; approved.
    second = Assessment.objects.get(submission__case_number=CASE, revision=2)
    scenario = Scenario.objects.get(assessment=second)
    open_revision(reviewer, 2)
    reviewer.get_by_role("link", name=scenario.title, exact=True).click()
    reviewer.get_by_role("link", name="Edit inputs").click()
    enter(reviewer, AMENDED_VOLUME)
    scenario.refresh_from_db()
    assert scenario.result["facility"]["Nsites"] == AMENDED_VOLUME.nsites
    open_revision(reviewer, 2)
    submit(reviewer, "Amended volume.")
    approve(supervisor, 2)
    second.refresh_from_db()
    assert second.status == Status.APPROVED and second.case_snapshot["production_volume_kg_yr"] == 6000.0

    # Each revision's PDF prints its own production volume.
    open_revision(reviewer, 1)
    assert pv_line(download_irer(reviewer, tmp_path / "r1")) == "5,000"
    open_revision(reviewer, 2)
    assert pv_line(download_irer(reviewer, tmp_path / "r2")) == "6,000"

    # The history shows the amendment: who, what from what to what, why.
    reviewer.get_by_role("link", name="History").first.click()
    entry = reviewer.locator("li.card").filter(has_text="Reason for the amendment")
    expect(entry).to_contain_text("riley · Amended Case")
    expect(entry).to_contain_text("Production volume (kg/yr)")
    expect(entry.locator(".history-old")).to_have_text("5,000")
    expect(entry.locator(".history-new")).to_have_text("6,000")
    expect(entry).to_contain_text(f"Reason for the amendment: {REASON}")
