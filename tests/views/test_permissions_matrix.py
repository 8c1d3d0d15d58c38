"""Every URL of the application, as every kind of user, on a public and on a CBI case.

The URL list is built from the URL resolver (the admin aside: tests/admin covers it), so a
page another engineer adds is walked too; each ``<int:pk>`` is filled with a real object
picked by the path's first segment (``cases/`` a case, ``assessments/`` an assessment,
``scenarios/`` a scenario). Known pages have their exact answer in :data:`EXPECTED_GET`;
any page not listed there is still held to the rules every page obeys:

- anonymous: a redirect to the login page (the login page and the health check excepted);
- an uncleared user on anything under a CBI case: 404, never 403;
- a CBI-cleared user: the same answer on the CBI case as on the public one;
- no 500: only 200, 302, 403, 404 or 405 (and 400 for an empty POST to a form that
  needs its management fields).

The workflow's actions are also POSTed by each user (:data:`EXPECTED_POST`), checking
that the status changed exactly when the answer says it did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from assessments import workflow
from assessments.models import Assessment, ImpactRun, ReviewDecision, Status
from assessments.reports.tasks import render_request
from tests._review_support import (
    approved,
    submitted,
    toy_engine,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

ROLES = ("anonymous", "owner", "other", "supervisor", "uncleared")
LOGIN_PATHS = {"/accounts/login/", "/admin/login/"}
PUBLIC_PATHS = {"/healthz"}  # the health check (reviewer/health.py), answered to anyone
# Single sign-on's start and the provider's answer: answered to anyone, GET only; here, where
# single sign-on is not configured, they send to the login page (tests/oidc signs in).
SIGN_IN_PATHS = {"/accounts/sso/start/", "/accounts/sso/callback/"}
ALLOWED_CODES = {200, 302, 403, 404, 405}
OBJECT_BY_PREFIX = {"cases": "submission", "assessments": "assessment", "scenarios": "scenario",
                    "contacts": "contact", "notices": "notice", "use-comments": "use_comment"}
# The API (api/, docs/api.md): its operations read a bearer token, never the session, so every
# role here (logged in by session, or not) gets 401 in JSON; tests/api walks each one per token.
# Its description, reference page and root are pages: the pages' login.
API_PREFIX = "api/v1/"
API_PAGES = {"openapi-json", "openapi-view", "api-root"}


def is_api_operation(route) -> bool:
    return route.route.startswith(API_PREFIX) and route.name not in API_PAGES


@dataclass(frozen=True)
class Route:
    name: str
    route: str  # e.g. "assessments/<int:pk>/history/"

    @property
    def object_kind(self) -> str | None:
        if "<" not in self.route:
            return None
        prefix = self.route.split("/", 1)[0]
        return OBJECT_BY_PREFIX.get(prefix)

    def __str__(self) -> str:
        return self.name or self.route


def application_routes(resolver=None, prefix: str = "") -> list[Route]:
    """Every path() of the project, the admin's namespace aside."""
    resolver = resolver or get_resolver()
    routes = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            routes += application_routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            routes.append(Route(entry.name or "", prefix + str(entry.pattern)))
    return routes


ROUTES = application_routes()


def test_the_walk_finds_the_workflow_pages_and_the_others():
    names = {route.name for route in ROUTES}
    assert {"review-queue", "assessment-submit", "assessment-history", "assessment-compare", "scenario-wizard-step",
            "home", "submission-detail", "assessment-detail"} <= names


# What each user gets: a code for every role, or a default ("*").
EXPECTED_GET: dict[str, dict[str, int]] = {
    "login": {"*": 302},  # redirect_authenticated_user
    "logout": {"*": 405},  # POST only
    "signin-start": {"*": 302},  # to the login page: single sign-on is not configured here
    "signin-callback": {"*": 302},
    "home": {"*": 200},
    "healthz": {"*": 200},
    "submission-create": {"*": 200},
    "submission-detail": {"*": 200},
    # Revision 1 approved, revision 2 a draft: any reviewer or supervisor may amend the case
    # (revision 1 keeps the case as approved; tests/views/test_amendments.py).
    "submission-edit": {"*": 200},
    "assessment-start": {"*": 405},
    "assessment-detail": {"*": 200},
    "scenario-add": {"*": 405},
    "scenario-results": {"*": 200},
    "scenario-wizard": {"owner": 302, "*": 403},
    "scenario-wizard-step": {"owner": 200, "*": 403},
    "scenario-duplicate": {"*": 405},
    "scenario-delete": {"owner": 200, "*": 403},  # the question; the POST deletes
    "scenario-restore": {"*": 405},
    "scenario-sensitivity": {"*": 200},
    "scenario-sensitivity-band": {"*": 405},  # POST only
    "review-queue": {"supervisor": 200, "*": 403},
    # The supervisors' engine-change page (docs/engine-changes.md): a supervisor's only.
    "engine-changes": {"supervisor": 200, "*": 403},
    "engine-change-start": {"*": 405},  # POST only
    # The portfolio (docs/portfolio.md): everyone's, a reviewer's own work, a supervisor's team.
    "portfolio": {"*": 200},
    "portfolio-csv": {"*": 200},
    "engine-change-progress": {"supervisor": 200, "*": 403},
    "assessment-submit": {"*": 405},
    "assessment-approve": {"*": 405},
    "assessment-return": {"*": 405},
    "assessment-revise": {"*": 405},
    "assessment-history": {"*": 200},
    "assessment-compare": {"*": 200},
    "irer-status": {"*": 200},
    "assessment-withdraw": {"*": 405},
    "notice-list": {"*": 200},
    "notice-read": {"*": 405},
    "notices-read-all": {"*": 405},
    "use-comment-resolve": {"*": 405},
    # The API tokens page (api/views.py) and the API: see API_PREFIX.
    "api-tokens": {"*": 200},
    "api-token-revoke": {"*": 405},
    "openapi-json": {"*": 200},
    "openapi-view": {"*": 200},
    "api-root": {"*": 302},
    **{name: {"*": 401} for name in (
        "api-case-list", "api-case-detail", "api-case-revisions", "api-case-export", "api-assessment-detail",
        "api-assessment-uses", "api-use-detail", "api-report-pdf", "api-report-status", "api-report-docx",
        "api-scenarios", "api-scenario-defaults")},
    **{name: {"*": 405} for name in (  # POST only: 405 whoever asks
        "api-case-import", "api-assessment-submit", "api-assessment-return", "api-assessment-approve", "api-compute",
        "api-sensitivity")},
}


@pytest.fixture(scope="module")
def shared(django_db_setup, django_db_blocker):
    """The users and the two cases every test of this module reads, made once a module (each
    approval draws and seals its report: the cost of this module) inside a transaction rolled
    back at the module's end. Each test runs in a savepoint of it (pytest-django's
    transaction a test), so whatever a test changes is undone before the next one."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from assessments.esd import registry
    from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
    from tests._review_support import TOY, TOY_KEY
    from tests.conftest import make_user

    model = get_user_model()
    with django_db_blocker.unblock(), transaction.atomic(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_registry", lambda: {TOY_KEY: TOY})  # as the toy_engine fixture
        users = {"anonymous": None,
                 "owner": make_user(model, "rev", group=REVIEWER_GROUP, cbi=True),
                 "other": make_user(model, "rev2", group=REVIEWER_GROUP, cbi=True),
                 "supervisor": make_user(model, "sup", group=SUPERVISOR_GROUP, cbi=True),
                 "uncleared": make_user(model, "contractor", group=REVIEWER_GROUP)}
        approver = make_user(model, "sup2", group=SUPERVISOR_GROUP, cbi=True)
        cases = {"public": make_case(users["owner"], approver, cbi=False),
                 "cbi": make_case(users["owner"], approver, cbi=True)}
        run = ImpactRun.objects.create(kind=ImpactRun.Kind.OVERRIDE, engine_version="1.2.0")
        for objects in cases.values():
            objects["impact_run"] = run
        yield users, approver, cases
        transaction.set_rollback(True)


@pytest.fixture
def users(shared):
    return shared[0]


@pytest.fixture
def other_supervisor(shared):  # this module's, made once with the others
    return shared[1]


def make_case(owner, approver, *, cbi: bool) -> dict:
    """A case with revision 1 approved and revision 2 a draft of ``owner``'s, with a
    computed use: the objects the URLs are filled with."""
    first = approved(owner, approver, **({"cbi_claims": ["chemical_name"]} if cbi else {}))
    second = workflow.assessment_revise(assessment=first, by=owner)
    from notices.models import Notice, UseComment
    from tests.contacts.factories import make_contact

    scenario = second.scenarios.get()
    return {"submission": first.submission, "assessment": second, "scenario": scenario,
            "report_task": queued_report(second), "contact": make_contact(first.submission, owner, assessments=[second]),
            # The owner's notice, and a supervisor's comment on the draft's use.
            "notice": Notice.objects.create(recipient=owner, verb="approved", submission=first.submission,
                                            assessment=first, text="Approved."),
            "use_comment": UseComment.objects.create(scenario=scenario, author=approver, text="Check it.")}


def queued_report(assessment) -> str:
    """The id of a task drawing ``assessment``'s full report, queued in the report queue."""
    with override_settings(TASKS=settings.QUEUE_TASKS):
        return render_request(key=f"{assessment.pk:064x}", html="<p>report</p>", assessment_id=assessment.pk,
                              copy="full").task_id


@pytest.fixture
def cases(shared):
    return shared[2]


def fill(route: Route, objects: dict) -> str:
    kind = route.object_kind

    def value(match):
        converter, name = match.group(1) or "str", match.group(2)
        if name == "pk" and kind:
            return str(objects[kind].pk)
        if name == "step":
            return "volume"
        if name == "task_id":
            return objects["report_task"]
        if name == "pk" and route.name == "engine-change-progress":  # a measure of the team's work, no case's
            return str(objects["impact_run"].pk)
        if is_api_operation(route):  # 401 before any object is read
            return "1"
        pytest.fail(f"{route}: no object for <{converter}:{name}>; teach the permission matrix this URL")

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route.route)


def answer(client, user, method: str, path: str, data=None):
    client.logout()
    if user is not None:
        client.force_login(user)
    return getattr(client, method)(path, data or {})


def hides(route: Route, response) -> bool:
    """The answer tells nothing about the CBI object: a 404, or a 405 that the URL gives
    for that method whatever the object (the same for an id that does not exist)."""
    if response.status_code == 404:
        return True
    if response.status_code != 405:
        return False
    request = response.wsgi_request
    missing = re.sub(r"<(?:\w+:)?pk>", "999999999", "/" + route.route)
    return getattr(request_client(request), request.method.lower())(missing).status_code == 405


def request_client(request):
    from django.test import Client

    client = Client()
    client.force_login(request.user)
    return client


def check_common_rules(route: Route, role: str, public, cbi) -> None:
    """The rules every page obeys, whatever it is."""
    if is_api_operation(route):  # 405: a method the operation does not take, whoever asks
        assert public.status_code == cbi.status_code in (401, 405), (str(route), role, public.status_code)
        return
    for response in (public, cbi):
        assert response.status_code in ALLOWED_CODES, (str(route), role, response.status_code)
    if role == "anonymous":
        for response in (public, cbi):
            if urlparse(response.wsgi_request.path).path in LOGIN_PATHS:
                assert response.status_code == 200
            elif urlparse(response.wsgi_request.path).path in PUBLIC_PATHS:
                assert response.status_code in (200, 405), (str(route), response.status_code)
            else:
                assert response.status_code == 302, (str(route), response.status_code)
                assert urlparse(response["Location"]).path in LOGIN_PATHS
        return
    if role == "uncleared" and route.object_kind:
        assert hides(route, cbi), f"{route}: an uncleared user got {cbi.status_code} on a CBI case, not 404"
    else:
        assert cbi.status_code == public.status_code, (str(route), role, public.status_code, cbi.status_code)
    assert public.status_code != 404, f"{route}: {role} got 404 on a public case"


def for_every_role(check, roles=ROLES) -> None:
    """Run ``check(role)`` for each role; report every role that fails, not just the first."""
    problems = []
    for role in roles:
        try:
            check(role)
        except AssertionError as exc:
            problems.append(f"{role}: {exc}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_get_answers(client, users, cases, route):
    def check(role):
        user = users[role]
        public = answer(client, user, "get", fill(route, cases["public"]))
        cbi = answer(client, user, "get", fill(route, cases["cbi"]))
        check_common_rules(route, role, public, cbi)
        if role != "anonymous" and route.name in EXPECTED_GET:
            expected = EXPECTED_GET[route.name]
            assert public.status_code == expected.get(role, expected["*"]), (str(route), public.status_code)

    for_every_role(check)


@pytest.mark.parametrize("route", [r for r in ROUTES if r.name not in ("login", "logout")], ids=str)
def test_post_answers_follow_the_common_rules(client, users, cases, route):
    """Every URL POSTed (empty form) by every user: anonymous to the login page, an
    uncleared user 404 on the CBI case, and nothing a server error."""
    # Those who may not act go first: a POST that succeeds (a delete) must not leave
    # them a 404 they would have got anyway.
    order = ("anonymous", "uncleared", "other", "supervisor", "owner")
    assert sorted(order) == sorted(ROLES)
    for_every_role(lambda role: _check_post(client, users[role], role, cases, route), order)


def _check_post(client, user, role, cases, route):
    public = answer(client, user, "post", fill(route, cases["public"]))
    cbi = answer(client, user, "post", fill(route, cases["cbi"]))
    if is_api_operation(route):  # 405: a method the operation does not take, whoever asks
        assert public.status_code == cbi.status_code in (401, 405), (str(route), role, public.status_code)
        return
    for response in (public, cbi):
        # 400: a form posted without its parts (the wizard's management form) is a bad request.
        assert response.status_code in ALLOWED_CODES | {400}, (str(route), role, response.status_code)
    if role == "anonymous" and urlparse(public.wsgi_request.path).path in PUBLIC_PATHS:
        assert public.status_code == cbi.status_code == 405  # answered to GET and HEAD only
    elif role == "anonymous" and urlparse(public.wsgi_request.path).path in SIGN_IN_PATHS:
        assert public.status_code == cbi.status_code == 405  # the provider's answer is a GET
    elif role == "anonymous":
        for response in (public, cbi):
            assert response.status_code == 302 and urlparse(response["Location"]).path in LOGIN_PATHS
    elif role == "uncleared" and route.object_kind:
        assert hides(route, cbi), f"{route}: POST by an uncleared user got {cbi.status_code} on a CBI case"


# The workflow's actions POSTed by each user -----------------------------------------------------

EXPECTED_POST = {
    # action: (state the target is put in, {role: code})
    "submit": ("draft", {"owner": 302, "other": 403, "supervisor": 403, "uncleared": 403}),
    "approve": ("submitted", {"owner": 403, "other": 403, "supervisor": 302, "uncleared": 403}),
    "return": ("submitted", {"owner": 403, "other": 403, "supervisor": 302, "uncleared": 403}),
    "revise": ("approved", {"owner": 302, "other": 302, "supervisor": 302, "uncleared": 302}),
    "withdraw": ("submitted", {"owner": 302, "other": 403, "supervisor": 403, "uncleared": 403}),
}


def target(state: str, owner, approver, *, cbi: bool) -> Assessment:
    case = {"cbi_claims": ["submitter"]} if cbi else {}
    if state == "draft":
        from tests._review_support import draft_with_result

        return draft_with_result(owner, **case)
    if state == "submitted":
        return submitted(owner, **case)
    return approved(owner, approver, **case)


def snapshot(assessment: Assessment):
    return (
        list(Assessment.objects.filter(submission=assessment.submission).order_by("pk").values()),
        ReviewDecision.objects.filter(assessment__submission=assessment.submission).count(),
    )


@pytest.mark.parametrize("cbi", [False, True], ids=["public", "cbi"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(EXPECTED_POST))
def test_workflow_action_answer(client, users, other_supervisor, action, role, cbi):
    state, codes = EXPECTED_POST[action]
    assessment = target(state, users["owner"], other_supervisor, cbi=cbi)
    before = snapshot(assessment)
    response = answer(client, users[role], "post", f"/assessments/{assessment.pk}/{action}/", {"comment": "Checked.", "note": "n"})
    if role == "anonymous":
        expected = 302
        assert urlparse(response["Location"]).path == "/accounts/login/"
    elif role == "uncleared" and cbi:
        expected = 404
    else:
        expected = codes[role]
    assert response.status_code == expected, (action, role, cbi, response.status_code)
    changed = snapshot(assessment) != before
    assert changed == (expected == 302 and role != "anonymous"), (action, role, cbi)
    if changed and action != "revise":
        assessment.refresh_from_db()
        assert assessment.status == workflow.TRANSITIONS[(state, action)]
    if changed and action == "revise":
        assert Assessment.objects.filter(submission=assessment.submission, revision=2, status=Status.DRAFT).exists()
