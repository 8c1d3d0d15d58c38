"""``Idempotency-Key``: the same key twice makes one submission; the second request gets the
first one's answer. A key reused for another request, or missing on a POST that acts, is refused."""

from __future__ import annotations

import pytest

from api.idempotency import KEY_REQUIRED, KEY_REUSED, REPLAYED_HEADER
from assessments.models import DecisionAction, ReviewDecision, Status
from tests._review_support import draft_with_result, toy_engine

from .conftest import Api, make_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def test_the_same_key_twice_submits_once(client, reviewer):
    draft = draft_with_result(reviewer)
    api = Api(client, make_token(reviewer))
    path = f"/api/v1/assessments/{draft.pk}/submit"
    first = api.post(path, {"note": "Ready."}, key="submit-1")
    second = api.post(path, {"note": "Ready."}, key="submit-1")
    assert first.status_code == second.status_code == 200
    assert second.content == first.content and second[REPLAYED_HEADER] == "true"
    assert ReviewDecision.objects.filter(assessment=draft, action=DecisionAction.SUBMIT).count() == 1
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED
    # A new key is a new request: refused now, as the page refuses it.
    third = api.post(path, {"note": "Ready."}, key="submit-2")
    assert third.status_code == 403
    assert ReviewDecision.objects.filter(assessment=draft).count() == 1


def test_a_refusal_is_kept_for_its_key_too(client, reviewer, supervisor):
    draft = draft_with_result(reviewer)
    api = Api(client, make_token(supervisor))
    path = f"/api/v1/assessments/{draft.pk}/submit"
    assert api.post(path, {}, key="x").status_code == 403
    assert api.post(path, {}, key="x")[REPLAYED_HEADER] == "true"


def test_keys_are_each_tokens_own(client, reviewer):
    draft = draft_with_result(reviewer)
    path = f"/api/v1/assessments/{draft.pk}/submit"
    assert Api(client, make_token(reviewer, name="a")).post(path, {}, key="same").status_code == 200
    assert Api(client, make_token(reviewer, name="b")).post(path, {}, key="same").status_code == 403


def test_a_key_reused_for_another_request_is_refused(client, reviewer):
    draft = draft_with_result(reviewer)
    api = Api(client, make_token(reviewer))
    api.post(f"/api/v1/assessments/{draft.pk}/submit", {"note": "a"}, key="k")
    response = api.post(f"/api/v1/assessments/{draft.pk}/submit", {"note": "b"}, key="k")
    assert response.status_code == 422 and response.json() == {"errors": {"Idempotency-Key": KEY_REUSED}}


def test_a_post_that_acts_needs_a_key(client, reviewer):
    draft = draft_with_result(reviewer)
    response = Api(client, make_token(reviewer)).post(f"/api/v1/assessments/{draft.pk}/submit", {}, key=None)
    assert response.status_code == 400 and response.json() == {"errors": {"Idempotency-Key": KEY_REQUIRED}}
    draft.refresh_from_db()
    assert draft.status == Status.DRAFT


def test_compute_needs_no_key(client, reviewer):
    response = Api(client, make_token(reviewer)).post("/api/v1/scenarios/review-toy/compute", {"Qchem_yr": 1},
                                                      key=None)
    assert response.status_code == 200
