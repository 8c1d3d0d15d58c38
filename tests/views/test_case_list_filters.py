"""The case list's status filter says it reads each case's latest revision, and *Has an
approved revision* finds a case whose revision 1 is approved while revision 2 is a draft
(which "Latest revision: Approved" rightly leaves out)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from lxml import html

from assessments import selectors
from assessments.models import Status
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def cases(reviewer, supervisor):
    """Four cases: an amendment in progress (revision 1 approved, revision 2 a draft), one
    approved at its latest revision, a draft, and one not yet assessed."""
    approved = {"status": Status.APPROVED, "approved_by": supervisor, "approved_at": timezone.now()}
    amending = make_submission(case_number="P-26-0701")
    make_assessment(amending, reviewer, revision=1, **approved)
    make_assessment(amending, reviewer, revision=2, status=Status.DRAFT)
    done = make_submission(case_number="P-26-0702")
    make_assessment(done, reviewer, revision=1, **approved)
    draft = make_submission(case_number="P-26-0703")
    make_assessment(draft, reviewer, revision=1, status=Status.DRAFT)
    make_submission(case_number="P-26-0704")


def listed(client, query: dict) -> list[str]:
    response = client.get("/", query)
    assert response.status_code == 200
    return sorted(case.case_number for case in response.context["page"].object_list)


def test_latest_revision_approved_leaves_out_a_case_whose_latest_revision_is_a_draft(client, reviewer, cases):
    client.force_login(reviewer)
    assert listed(client, {"status": Status.APPROVED}) == ["P-26-0702"]
    assert listed(client, {"status": Status.DRAFT}) == ["P-26-0701", "P-26-0703"]


def test_has_an_approved_revision_finds_an_earlier_approved_revision(client, reviewer, cases):
    client.force_login(reviewer)
    assert listed(client, {"has_approved": "1"}) == ["P-26-0701", "P-26-0702"]


def test_both_filters_together_find_the_amendments_in_progress(client, reviewer, cases):
    client.force_login(reviewer)
    assert listed(client, {"has_approved": "1", "status": Status.DRAFT}) == ["P-26-0701"]


def test_the_selector_filters_on_any_revision(reviewer, cases):
    found = selectors.submission_search(user=reviewer, has_approved=True)
    assert sorted(found.values_list("case_number", flat=True)) == ["P-26-0701", "P-26-0702"]
    assert selectors.submission_search(user=reviewer).count() == 4


def test_has_an_approved_revision_keeps_cbi_cases_from_the_uncleared(client, uncleared_reviewer, reviewer, supervisor):
    secret = make_submission(case_number="P-26-0705", cbi_claims=["chemical_name"])
    make_assessment(secret, reviewer, revision=1, status=Status.APPROVED, approved_by=supervisor,
                    approved_at=timezone.now())
    client.force_login(uncleared_reviewer)
    assert listed(client, {"has_approved": "1"}) == []


def test_the_filters_say_what_they_read(client, reviewer, cases):
    client.force_login(reviewer)
    page = html.fromstring(client.get("/", {"has_approved": "1"}).content.decode())
    status = page.xpath("//select[@name='status']")[0]
    assert page.xpath(f"string(//label[@for='{status.get('id')}'])") == "Latest revision"
    help_id = status.get("aria-describedby")
    assert page.xpath(f"string(//*[@id='{help_id}'])") == "The status of each case's latest revision."
    box = page.xpath("//input[@name='has_approved']")[0]
    assert box.get("type") == "checkbox" and box.get("checked") is not None  # kept after searching
    assert page.xpath(f"string(//label[@for='{box.get('id')}'])") == "Has an approved revision"
    described = page.xpath(f"string(//*[@id='{box.get('aria-describedby')}'])")
    assert described == "Any revision approved, not only the latest."
    assert "Latest revision" in page.xpath("string(//table[contains(@class, 'table-cases')]//thead)")


def test_the_box_is_unticked_by_default(client, reviewer, cases):
    client.force_login(reviewer)
    page = html.fromstring(client.get("/").content.decode())
    assert page.xpath("//input[@name='has_approved']")[0].get("checked") is None
