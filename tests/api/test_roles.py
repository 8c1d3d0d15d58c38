"""Every endpoint, as each kind of token: a reviewer (the engineer, cleared for CBI), a
supervisor (cleared), a reviewer not cleared for CBI, on a public and on a CBI case; and a
revoked token, an expired token, no token, and a session cookie without a token."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from api.models import ApiToken
from assessments.models import ReviewDecision, Status
from tests._review_support import draft_with_result, submitted, toy_engine

from .conftest import Api, make_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

ROLES = ("reviewer", "supervisor", "uncleared")


@pytest.fixture
def people(reviewer, supervisor, uncleared_reviewer):
    return {"reviewer": reviewer, "supervisor": supervisor, "uncleared": uncleared_reviewer}


def _objects(reviewer, *, cbi: bool) -> dict:
    case = {"cbi_claims": ["submitter"]} if cbi else {}
    draft = draft_with_result(reviewer, **case)
    waiting = submitted(reviewer, **case)
    return {"case": draft.submission_id, "assessment": draft.pk, "use": draft.scenarios.get().pk,
            "draft": draft.pk, "submitted": waiting.pk}


# (method, path template, body, {role: status} with "*" the default) -------------------------------
READS = [
    ("get", "/api/v1/cases/{case}", {"*": 200}),
    ("get", "/api/v1/cases/{case}/revisions", {"*": 200}),
    ("get", "/api/v1/cases/{case}/rework", {"*": 200}),
    ("get", "/api/v1/cases/{case}/export", {"*": 200}),
    ("get", "/api/v1/assessments/{assessment}", {"*": 200}),
    ("get", "/api/v1/assessments/{assessment}/uses", {"*": 200}),
    ("get", "/api/v1/uses/{use}", {"*": 200}),
    ("get", "/api/v1/uses/{use}/departures", {"*": 200}),
    ("get", "/api/v1/assessments/{assessment}/report.docx?copy=sanitised", {"*": 200}),
]
ACTIONS = [
    ("post", "/api/v1/assessments/{draft}/submit", {"note": "Ready."},
     {"reviewer": 200, "supervisor": 403, "uncleared": 403}),
    ("post", "/api/v1/assessments/{submitted}/return", {"comment": "Check the volume."},
     {"reviewer": 403, "supervisor": 200, "uncleared": 403}),
    ("post", "/api/v1/assessments/{submitted}/approve", {"comment": "Fine."},
     {"reviewer": 403, "supervisor": 200, "uncleared": 403}),
]
UNBOUND = [  # no case: the same answer on either
    ("get", "/api/v1/cases", None, {"*": 200}),
    ("get", "/api/v1/scenarios", None, {"*": 200}),
    ("get", "/api/v1/scenarios/review-toy/defaults", None, {"*": 200}),
    ("post", "/api/v1/scenarios/review-toy/compute", {"Qchem_yr": 100}, {"*": 200}),
    ("post", "/api/v1/scenarios/review-toy/sensitivity", {"Qchem_yr": 100}, {"*": 200}),
    ("post", "/api/v1/cases/import", {"format": "pmn-review-case"}, {"*": 403}),
]
EVERY = [(m, p, None, e) for m, p, e in READS] + ACTIONS + UNBOUND


def _call(api: Api, method: str, path: str, body, key: str):
    return api.get(path) if method == "get" else api.post(path, body, key=key)


@pytest.mark.parametrize("cbi", [False, True], ids=["public", "cbi"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "template", "body", "expected"), EVERY, ids=[e[1] for e in EVERY])
def test_every_endpoint_answers_each_role_as_the_pages_do(client, people, role, cbi, method, template, body,
                                                          expected):
    objects = _objects(people["reviewer"], cbi=cbi)
    api = Api(client, make_token(people[role]))
    response = _call(api, method, template.format(**objects), body, key=f"{role}-{cbi}")
    bound = "{" in template
    want = 404 if (cbi and role == "uncleared" and bound) else expected.get(role, expected.get("*"))
    assert response.status_code == want, (role, cbi, response.content[:300])
    assert response["Cache-Control"].startswith("no-store")
    if response["Content-Type"] == "application/json" and response.status_code >= 400:
        errors = response.json()["errors"]
        assert errors and all(isinstance(text, str) and text for text in errors.values())


def test_uncleared_token_does_not_see_the_cbi_case_in_the_list(client, people):
    public, cbi = _objects(people["reviewer"], cbi=False), _objects(people["reviewer"], cbi=True)
    listed = {c["id"] for c in Api(client, make_token(people["uncleared"])).get("/api/v1/cases").json()["cases"]}
    assert public["case"] in listed and cbi["case"] not in listed
    listed = {c["id"] for c in Api(client, make_token(people["reviewer"])).get("/api/v1/cases").json()["cases"]}
    assert {public["case"], cbi["case"]} <= listed


def test_approved_work_is_refused_as_on_the_pages(client, people):
    objects = _objects(people["reviewer"], cbi=False)
    supervisor = Api(client, make_token(people["supervisor"]))
    assert supervisor.post(f"/api/v1/assessments/{objects['submitted']}/approve", {}, key="a").status_code == 200
    again = supervisor.post(f"/api/v1/assessments/{objects['submitted']}/return", {"comment": "x"}, key="b")
    assert again.status_code == 403
    assert again.json() == {"errors": {"__all__": "This assessment is approved: it cannot be returned now."}}


def test_a_supervisor_never_approves_their_own_work(client, supervisor):
    own = submitted(supervisor)
    response = Api(client, make_token(supervisor)).post(f"/api/v1/assessments/{own.pk}/approve", {})
    assert response.status_code == 403
    from assessments.workflow import SELF_REVIEW_NOT_ALLOWED

    assert response.json() == {"errors": {"__all__": SELF_REVIEW_NOT_ALLOWED}}
    own.refresh_from_db()
    assert own.status == Status.SUBMITTED


def test_a_return_needs_a_comment_named_by_its_field(client, people):
    objects = _objects(people["reviewer"], cbi=False)
    response = Api(client, make_token(people["supervisor"])).post(
        f"/api/v1/assessments/{objects['submitted']}/return", {"comment": " "})
    from assessments.workflow import RETURN_COMMENT_REQUIRED

    assert response.status_code == 400 and response.json() == {"errors": {"comment": RETURN_COMMENT_REQUIRED}}


# Tokens that let nothing in --------------------------------------------------------------------------


def _revoked(user) -> str:
    token = make_token(user, name="revoked")
    ApiToken.objects.filter(owner=user, name="revoked").update(revoked_at=timezone.now())
    return token


def _expired(user) -> str:
    token = make_token(user, name="expired")
    ApiToken.objects.filter(owner=user, name="expired").update(expires_at=timezone.now() - timedelta(seconds=1))
    return token


@pytest.mark.parametrize("kind", ["revoked", "expired", "none", "session", "garbage"])
@pytest.mark.parametrize(("method", "template", "body", "expected"), EVERY, ids=[e[1] for e in EVERY])
def test_a_refused_token_gets_401_on_every_endpoint_and_nothing_is_done(client, people, kind, method, template,
                                                                          body, expected):
    user = people["supervisor"]
    objects = _objects(people["reviewer"], cbi=True)
    token = {"revoked": lambda: _revoked(user), "expired": lambda: _expired(user), "none": lambda: None,
             "session": lambda: None, "garbage": lambda: "pmn_00000000_not-a-token"}[kind]()
    if kind == "session":
        client.force_login(user)  # a logged-in browser: the API reads no session cookie
    decisions = ReviewDecision.objects.count()
    response = _call(Api(client, token), method, template.format(**objects), body, key="k")
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert list(response.json()) == ["errors"] and response.json()["errors"]["__all__"]
    assert ReviewDecision.objects.count() == decisions
