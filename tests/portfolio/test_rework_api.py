"""A case's rework through the API (``GET /api/v1/cases/{id}/rework``): what the case page's
Rework section shows, and a CBI case invisible to a token of a person not cleared for CBI."""

from __future__ import annotations

import pytest

from assessments import workflow
from tests._review_support import add_computed_scenario, toy_engine
from tests.api.conftest import Api, make_token
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


def test_the_rework_of_each_revision(client, toy_engine, reviewer, supervisor, uncleared_reviewer):
    draft = make_assessment(make_submission(), reviewer)
    add_computed_scenario(draft)
    draft = workflow.assessment_submit(assessment=draft, by=reviewer, note="Ready.")
    workflow.assessment_return(assessment=draft, by=supervisor, comment="Check Fchem.")
    api = Api(client, make_token(reviewer))
    response = api.get(f"/api/v1/cases/{draft.submission_id}/rework")
    assert response.status_code == 200
    body = response.json()
    assert body["case_number"] == draft.submission.case_number and isinstance(body["days_left"], int)
    (revision,) = body["revisions"]
    assert (revision["revision"], revision["status"], revision["returns"]) == (1, "returned", 1)
    assert set(revision["seconds_in_status"]) == {"draft", "submitted", "returned"}
    assert [d["symbol"] for d in revision["departures"]] == ["Fchem"]

    cbi = make_assessment(make_submission(cbi_claims=["chemical_name"]), reviewer)
    assert Api(client, make_token(uncleared_reviewer)).get(f"/api/v1/cases/{cbi.submission_id}/rework").status_code == 404
    assert api.get(f"/api/v1/cases/{cbi.submission_id}/rework").status_code == 200
