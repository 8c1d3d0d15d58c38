"""Reports through the report queue (202 and a status URL, then the file), the copies a
user may have, and the case list's filters and keyset paging as the page has them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from api.routes.cases import SIZE_OUT_OF_RANGE
from assessments.reports.services import FULL_COPY_NOT_ALLOWED
from calendar_review import services as calendar_services
from tests._review_support import approved, draft_with_result, toy_engine
from tests.conftest import make_submission

from .conftest import Api, make_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def test_a_pdf_not_drawn_yet_is_202_with_a_status_url_then_the_file(client, reviewer):
    draft = draft_with_result(reviewer)
    api = Api(client, make_token(reviewer))
    path = f"/api/v1/assessments/{draft.pk}/report.pdf?copy=sanitised"
    with override_settings(TASKS=settings.QUEUE_TASKS):  # the production queue: nothing drawn in the request
        queued = api.get(path)
        assert queued.status_code == 202, queued.content
        body = queued.json()
        assert body["state"] in ("queued", "no-worker") and queued["Location"] == body["status_url"]
        status = api.get(body["status_url"])
        assert status.status_code == 200 and status.json()["state"] == body["state"]
        assert api.get(body["status_url"].replace("copy=sanitised", "copy=full")).status_code == 404
    drawn = api.get(path)  # the immediate backend draws it now
    assert drawn.status_code == 200 and drawn["Content-Type"] == "application/pdf"
    assert drawn.content.startswith(b"%PDF-")


def test_an_approved_revisions_pdf_is_its_sealed_copy(client, reviewer, supervisor):
    done = approved(reviewer, supervisor)
    response = Api(client, make_token(reviewer)).get(f"/api/v1/assessments/{done.pk}/report.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")


def test_the_full_copy_of_a_case_claimed_since_approval_is_refused_to_an_uncleared_user(
        client, reviewer, supervisor, uncleared_reviewer):
    done = approved(reviewer, supervisor, cbi_claims=["submitter"])  # approved with the claim
    case = done.submission
    type(case).objects.filter(pk=case.pk).update(cbi_claims=[], is_cbi=False)  # the claim withdrawn since
    api = Api(client, make_token(uncleared_reviewer))
    full = api.get(f"/api/v1/assessments/{done.pk}/report.docx")
    assert full.status_code == 403 and full.json() == {"errors": {"__all__": FULL_COPY_NOT_ALLOWED}}
    assert api.get(f"/api/v1/assessments/{done.pk}/report.docx?copy=sanitised").status_code == 200


def test_a_copy_that_is_neither_is_named(client, reviewer):
    draft = draft_with_result(reviewer)
    response = Api(client, make_token(reviewer)).get(f"/api/v1/assessments/{draft.pk}/report.docx?copy=both")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["copy"]


def test_the_case_list_filters_and_pages_as_the_page_does(client, reviewer):
    for number in range(5):
        make_submission(submitter=f"Maker {number}")
    draft_with_result(reviewer, submitter="Acme Special")
    api = Api(client, make_token(reviewer))
    assert [c["submitter"] for c in api.get("/api/v1/cases", {"q": "special"}).json()["cases"]] == ["Acme Special"]
    assert [c["latest_status"] for c in api.get("/api/v1/cases", {"status": "draft"}).json()["cases"]] == ["draft"]
    first = api.get("/api/v1/cases", {"size": 4}).json()
    assert len(first["cases"]) == 4 and first["newer"] is None and first["older"]
    second = api.get("/api/v1/cases", {"size": 4, "after": first["older"]}).json()
    assert len(second["cases"]) == 2 and second["older"] is None
    assert not {c["id"] for c in first["cases"]} & {c["id"] for c in second["cases"]}
    back = api.get("/api/v1/cases", {"size": 4, "before": second["newer"]}).json()
    assert [c["id"] for c in back["cases"]] == [c["id"] for c in first["cases"]]


def test_each_case_listed_has_its_due_date_as_the_page_shows_it(client, reviewer):
    """The default period's for a case with no calendar; the calendar's once recorded,
    an open suspension's days so far added (before, every case listed said null)."""
    fresh, recorded = make_submission(case_number="P-26-0101"), make_submission(case_number="P-26-0102")
    today = timezone.localdate()
    calendar_services.calendar_update(submission=recorded, by=reviewer, received_on=today - timedelta(days=40),
                                      period_days=90)
    calendar_services.suspension_add(submission=recorded, by=reviewer, starts_on=today - timedelta(days=4),
                                     ends_on=None, reason="Waiting for test data.")
    listed = {c["case_number"]: c["due_date"] for c in Api(client, make_token(reviewer)).get("/api/v1/cases").json()["cases"]}
    assert listed == {fresh.case_number: str(today + timedelta(days=settings.PMN_REVIEW_DAYS)),
                      recorded.case_number: str(today + timedelta(days=50 + 5))}


def test_the_case_list_names_a_bad_filter_with_the_forms_words(client, reviewer):
    api = Api(client, make_token(reviewer))
    assert api.get("/api/v1/cases", {"size": 1000}).json() == {"errors": {"size": SIZE_OUT_OF_RANGE}}
    bad = api.get("/api/v1/cases", {"status": "lost"})
    assert bad.status_code == 400 and list(bad.json()["errors"]) == ["status"]
    bad = api.get("/api/v1/cases", {"due": "within", "within": "-3"})
    assert bad.status_code == 400 and list(bad.json()["errors"]) == ["within"]
    assert api.get("/api/v1/cases", {"after": "yesterday"}).status_code == 400
