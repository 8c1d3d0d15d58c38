"""Content security policy: nothing inline, nothing from elsewhere. The header forbids
inline script and style, and no page the application renders relies on them: every
page is parsed for inline script, event-handler attributes, style attributes and
elements, and javascript: URLs."""

from __future__ import annotations

import contextlib
import re
from html.parser import HTMLParser
from unittest import mock

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from assessments import services, workflow
from assessments.esd import registry
from assessments.models import ImpactRun
from assessments.roles import SUPERVISOR_GROUP
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}


# Style attributes in third-party templates that the policy blocks, where the only effect is
# cosmetic. Exact start tags, so any other inline style still fails the tests.
BLOCKED_COSMETIC_STYLES = {
    # django-simple-history's admin history list (simple_history/object_history_list.html):
    # without it the paginator keeps its top border.
    '<p class="paginator" style="border-top: 0">',
}


def parse_policy(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        if part.strip():
            name, *values = part.split()
            directives[name] = values
    return directives


class InlineContent(HTMLParser):
    """Collects everything a CSP without 'unsafe-inline' would block."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and not attributes.get("src"):
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...> event handler")
            if name == "style" and self.get_starttag_text() not in BLOCKED_COSMETIC_STYLES:
                self.found.append(f"<{tag} style=...> attribute")
            if name in {"href", "src", "action", "formaction"} and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")

    handle_startendtag = handle_starttag


def inline_content(html: str) -> list[str]:
    parser = InlineContent()
    parser.feed(html)
    return parser.found


def test_inline_content_finder_finds_each_kind():
    html = ('<script>alert(1)</script><script src="/static/x.js"></script><a href="javascript:go()">x</a>'
            '<button onclick="go()">x</button><p style="color:red">x</p><style>p{}</style><img src="/a.png">')
    assert inline_content(html) == ["<script> without src", "<a href=javascript:...>", "<button onclick=...> event handler",
                                    "<p style=...> attribute", "<style> element"]


def test_csp_policy_is_the_agreed_one(client):
    response = client.get("/accounts/login/")
    assert parse_policy(response["Content-Security-Policy"]) == POLICY


def test_csp_header_forbids_inline_script(client):
    policy = parse_policy(client.get("/accounts/login/")["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', 'unsafe-eval', hosts or nonces
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'self'"]


def test_csp_header_is_on_every_kind_of_page(client, reviewer):
    assert "Content-Security-Policy" in client.get("/accounts/login/")
    client.force_login(reviewer)
    assert "Content-Security-Policy" in client.get("/")
    assert "Content-Security-Policy" in client.get("/cases/999999/")  # 404
    assert "Content-Security-Policy" in client.get("/admin/")  # 302 for a non-staff user


# --- every page -------------------------------------------------------------------


def _routes(resolver=None, prefix: str = "") -> list[tuple[str, str]]:
    routes = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace != "admin":
                routes += _routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            routes.append((entry.name or "", prefix + str(entry.pattern)))
    return routes


def _fill(route: str, objects: dict) -> str:
    kind = {"cases": "submission", "assessments": "assessment", "scenarios": "scenario",
            "contacts": "contact", "notices": "notice", "use-comments": "use_comment",
            "engine": "impact_run"}.get(route.split("/", 1)[0])

    def value(match):
        if match.group(1) == "pk":
            return str(objects[kind].pk)
        return objects["step"]

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", value, route)


def _computed_photoresist(assessment, engineer):
    scenario = services.scenario_add(assessment=assessment, by=engineer, scenario_key="photoresist-2018",
                                     title="Photoresist in semiconductor manufacturing")
    return services.scenario_compute(scenario=scenario, by=engineer)


@pytest.fixture
def site(reviewer, supervisor, django_user_model):
    """Cases in every state, computed with a real ESD scenario: an approved revision 1
    with a draft revision 2, a draft-only case (editable header), and a submitted case
    waiting in the supervisor's queue."""
    approver = make_user(django_user_model, "sup-approver", group=SUPERVISOR_GROUP, cbi=True)
    first = make_assessment(make_submission(use_concentration=0.15, molecular_weight=200), reviewer)
    _computed_photoresist(first, reviewer)
    workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=first, by=approver, comment="Fine.")
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    draft = make_assessment(make_submission(), reviewer)
    _computed_photoresist(draft, reviewer)
    waiting = make_assessment(make_submission(), reviewer)
    _computed_photoresist(waiting, reviewer)
    workflow.assessment_submit(assessment=waiting, by=reviewer, note="Please review.")
    step = registry.get("photoresist-2018").params.steps[0].key  # the wizard's first step
    from notices.models import Notice, UseComment
    from tests.contacts.factories import make_contact

    objects = [
        {"submission": first.submission, "assessment": second, "scenario": second.scenarios.get(), "step": step,
         "contact": make_contact(first.submission, reviewer, assessments=[second])},
        {"submission": draft.submission, "assessment": draft, "scenario": draft.scenarios.get(), "step": step,
         "contact": make_contact(draft.submission, reviewer, assessments=[draft])},
        {"submission": waiting.submission, "assessment": waiting, "scenario": waiting.scenarios.get(), "step": step,
         "contact": make_contact(waiting.submission, reviewer, assessments=[waiting])},
    ]
    run = ImpactRun.objects.create(kind=ImpactRun.Kind.OVERRIDE, engine_version="1.2.0")  # the engine-change page's
    for each in objects:  # a notice (the approval's, to the engineer) and a comment on a use
        each["impact_run"] = run
        each["notice"] = Notice.objects.filter(recipient=reviewer).first()
        each["use_comment"] = UseComment.objects.create(scenario=each["scenario"], author=approver, text="Check it.")
    return objects


def _checked_pages(client: Client, paths) -> dict[str, list[str]]:
    """GET each path (following redirects); the inline content of each HTML page."""
    pages = {}
    for path in paths:
        response = client.get(path, follow=True)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            query = response.request.get("QUERY_STRING", "")
            pages[response.request["PATH_INFO"] + (f"?{query}" if query else "")] = inline_content(
                response.content.decode())
    return pages


def test_no_inline_script_in_any_template(client, reviewer, supervisor, site):
    pages = {}
    # The engineer on the revised and the draft-only case; the supervisor on the waiting one
    # (with the approve and return forms).
    for user, objects in ((reviewer, site[0]), (reviewer, site[1]), (supervisor, site[2])):
        client.force_login(user)
        pages |= _checked_pages(client, [_fill(route, objects) for _name, route in _routes()
                                         if not route.endswith(".pdf")])  # the PDF is no page
    client.logout()
    pages |= _checked_pages(client, ["/accounts/login/"])
    walked = {path.split("?")[0] for path in pages}
    # The walk reached the main pages (each filled with a real object).
    must = ["/", "/cases/new/", "/review/", "/notices/", "/accounts/login/",
            f"/cases/{site[0]['submission'].pk}/", f"/cases/{site[1]['submission'].pk}/edit/",
            f"/assessments/{site[0]['assessment'].pk}/", f"/assessments/{site[0]['assessment'].pk}/irer/",
            f"/assessments/{site[0]['assessment'].pk}/notes/", f"/assessments/{site[0]['assessment'].pk}/history/",
            f"/assessments/{site[0]['assessment'].pk}/compare/", f"/scenarios/{site[0]['scenario'].pk}/",
            f"/scenarios/{site[0]['scenario'].pk}/wizard/{site[0]['step']}/", f"/assessments/{site[2]['assessment'].pk}/"]
    assert set(must) <= walked, set(must) - walked
    assert {path: found for path, found in pages.items() if found} == {}


def test_irer_preview_uses_a_stylesheet_link(client, reviewer, site):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{site[0]['assessment'].pk}/irer/").content.decode()
    assert re.search(r'<link rel="stylesheet" href="[^"]*css/irer\.css"', html)
    assert "<style" not in html


def test_no_inline_script_in_the_admin(client, django_user_model, site):
    admin_user = django_user_model.objects.create_superuser("root", password="pw-for-tests-only")
    client.force_login(admin_user)
    paths = ["/admin/"]
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        paths += [reverse("admin:{}_{}_changelist".format(*info)), reverse("admin:{}_{}_add".format(*info))]
        first = model._default_manager.first()
        if first is not None:
            for view in ("change", "history"):
                with contextlib.suppress(NoReverseMatch):
                    paths.append(reverse(f"admin:%s_%s_{view}" % info, args=[first.pk]))
    pages = _checked_pages(client, paths)
    assert len(pages) > 20
    assert {path: found for path, found in pages.items() if found} == {}


def test_error_pages_have_no_inline_style(client, reviewer, settings):
    client.force_login(reviewer)
    assert inline_content(client.get("/cases/999999/").content.decode()) == []  # 404
    failing = Client(raise_request_exception=False)
    failing.force_login(reviewer)
    with mock.patch("assessments.views.selectors.submission_search", side_effect=RuntimeError("boom")):
        response = failing.get("/")
    assert response.status_code == 500
    assert inline_content(response.content.decode()) == []
    # 500.html links the stylesheet by a plain path (no manifest lookup): it must follow STATIC_URL.
    assert f'href="/{settings.STATIC_URL.strip("/")}/css/app.css"' in response.content.decode()


def test_lockout_page_has_no_inline_script(client, reviewer):
    for _ in range(5):
        response = client.post("/accounts/login/", {"username": "rev", "password": "wrong"})
    assert response.status_code == 429
    assert inline_content(response.content.decode()) == []
