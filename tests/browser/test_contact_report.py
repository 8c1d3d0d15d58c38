"""A reviewer in a real browser records a contact with the submitter and sees it on the
case page; a first try with the contact time missing is refused on that field."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from contacts.models import ContactReport
from tests.browser.conftest import PASSWORD, log_in
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_records_a_contact_and_sees_it_on_the_case_page(page, django_user_model):
    riley = make_user(django_user_model, "riley", group="reviewer", cbi=True, first_name="Riley", last_name="Reviewer")
    case = make_submission(case_number="P-26-0888")
    make_assessment(case, riley)
    log_in(page, "riley", PASSWORD)

    page.goto(page.base + f"/cases/{case.pk}/")
    page.get_by_role("link", name="Record a contact").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Record a contact")
    expect(page.get_by_role("textbox", name="EPA person (required)")).to_have_value("Riley Reviewer")

    page.get_by_label("Called by (the submitter called EPA)").check()
    page.get_by_role("textbox", name="Submitter's contact (required)").fill("Dana Chemist")
    page.get_by_label(re.compile(r"^\s*Submitter's contact's affiliation")).fill("Acme Photochemicals")
    page.get_by_role("textbox", name="Notes (required)").fill("Dana called: the resist is spin coated, 2 coats per wafer.")
    page.get_by_label("Revision 1 (draft)").check()
    page.get_by_role("button", name="Record contact").click()

    # No contact time: refused, the error summary links to the field.
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("Date and time of the contact: This field is required.")
    assert not ContactReport.objects.exists()
    summary.get_by_role("link", name=re.compile("Date and time of the contact")).click()
    expect(page.locator("#id_contacted_at")).to_be_focused()

    when = timezone.localtime(timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    page.locator("#id_contacted_at").fill(when)
    page.get_by_role("button", name="Record contact").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contact report")
    expect(page.get_by_text("Dana called: the resist is spin coated")).to_be_visible()

    page.get_by_role("link", name="P-26-0888").click()
    section = page.locator("section#contact-reports")
    row = section.get_by_role("row", name=re.compile("Dana Chemist"))
    expect(row).to_contain_text("Called by (the submitter called EPA)")
    expect(row).to_contain_text("Revision 1")
    report = ContactReport.objects.get()
    assert report.submitter_name == "Dana Chemist" and report.created_by == riley
