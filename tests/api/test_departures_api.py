"""``GET /api/v1/uses/{id}/departures``: the results page's "Defaults against the case" as JSON
(``assessments.departures``), behind the use detail's permission checks.

The use is the toy scenario's of the review tests (``tests/_review_support.py``: one release to
air, Qchem_yr × Fchem over TIME_days), with Fchem at 0.2 where its default is 0.1, given with a
reason of the reviewer's own: by hand, 5,000 kg/yr × 0.1 = 500 kg/yr with the defaults alone
(2 kg/site-day over 250 days), 5,000 × 0.2 = 1,000 kg/yr (4 kg/site-day) with the departure."""

from __future__ import annotations

import pytest

from audit.models import CbiAccess
from tests._review_support import draft_with_result, toy_engine  # the fixture, by its name

from .conftest import Api, make_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def path(assessment) -> str:
    return f"/api/v1/uses/{assessment.scenarios.get().pk}/departures"


def test_the_departures_of_a_use_as_json(client, reviewer):
    draft = draft_with_result(reviewer)
    body = Api(client, make_token(reviewer)).get(path(draft)).json()
    assert (body["id"], body["assessment_id"], body["use"], body["computed"]) == (
        draft.scenarios.get().pk, draft.pk, 1, True)
    assert body["summary"] == "Defaults against the case: 1 departure, none crosses a review threshold"
    [departure] = body["departures"]
    assert {k: departure[k] for k in ("symbol", "default", "value", "default_text", "value_text", "source",
                                      "reason", "thresholds", "refused")} == {
        "symbol": "Fchem", "default": 0.1, "value": 0.2, "default_text": "0.1 kg/kg", "value_text": "0.2 kg/kg",
        "source": "reviewer override", "reason": "Submitter's MSDS: 20 %.", "thresholds": [], "refused": None}
    effects = {e["quantity"]: e for e in departure["effects"]}
    assert set(effects) == {"kg_yr", "kg_site_day"}
    kg_yr = effects["kg_yr"]
    assert (kg_yr["id"], kg_yr["estimate"], kg_yr["route"], kg_yr["threshold"]) == ("release-1", "high end", None, None)
    assert (kg_yr["default"], kg_yr["departed"], kg_yr["relative"]) == (pytest.approx(500.0), pytest.approx(1000.0),
                                                                       pytest.approx(1.0))
    assert (effects["kg_site_day"]["default"], effects["kg_site_day"]["departed"]) == (pytest.approx(2.0),
                                                                                      pytest.approx(4.0))
    assert departure["largest_relative"] == pytest.approx(1.0)
    rows = {row["quantity"]: row for row in body["rows"]}
    assert (rows["kg_yr"]["defaults"], rows["kg_yr"]["all_departures"], rows["kg_yr"]["each"]) == (
        pytest.approx(500.0), pytest.approx(1000.0), [pytest.approx(1000.0)])
    assert body["refused"] is None and body["all_refused"] is None


def test_a_cbi_case_departures_are_a_404_to_an_uncleared_token_and_recorded_for_a_cleared_one(
        client, reviewer, uncleared_reviewer):
    draft = draft_with_result(reviewer, cbi_claims=["submitter"])
    assert draft.submission.is_cbi
    hidden = Api(client, make_token(uncleared_reviewer)).get(path(draft))
    assert hidden.status_code == 404 and set(hidden.json()) == {"errors"}
    before = CbiAccess.objects.count()
    shown = Api(client, make_token(reviewer)).get(path(draft))
    assert shown.status_code == 200 and shown.json()["departures"]
    assert CbiAccess.objects.count() == before + 1  # a full read of a CBI case, as the use detail records it


def test_no_such_use_is_a_404(client, reviewer):
    assert Api(client, make_token(reviewer)).get("/api/v1/uses/999999/departures").status_code == 404
