"""HEAD is answered wherever GET is (docs/security.md: only GET, HEAD and POST are answered),
by one rule in reviewer.middleware: every route of the application, filled with real objects
(cases in every state, tests/security/test_csp.py's ``site``), gives HEAD the GET's status
and headers, and no body (issue 27: HEAD got 405 from views decorated ``require_GET``)."""

from __future__ import annotations

import pytest

from .test_csp import _fill, _routes
from .test_csp import site as site  # the fixture: cases in every state

pytestmark = pytest.mark.django_db

def _compare(client, paths) -> dict[str, tuple]:
    """Each path whose HEAD differs from its GET: in status, content type or the headers
    sent (their values may differ: a date, a cookie, a document drawn twice), or by having a body."""
    differences = {}
    for path in paths:
        get, head = client.get(path), client.head(path)
        if (get.status_code, get.get("Content-Type"), set(get.headers) - {"Set-Cookie"}) != (
            head.status_code, head.get("Content-Type"), set(head.headers) - {"Set-Cookie"}
        ) or head.content:
            differences[path] = (get.status_code, head.status_code, set(get.headers) ^ set(head.headers),
                                 len(head.content))
    return differences


def test_head_gets_the_status_and_headers_of_get_and_no_body_on_every_route(client, reviewer, supervisor, site):
    walked = set()
    differences = {}
    for user, objects in ((reviewer, site[0]), (reviewer, site[1]), (supervisor, site[2])):
        client.force_login(user)
        # The IRER PDF is drawn in the request here (one is enough: tests/reports check it).
        paths = [_fill(route, objects) for _name, route in _routes() if user is supervisor or not route.endswith(".pdf")]
        differences |= _compare(client, paths)
        walked |= set(paths)
    client.logout()
    logged_out = ["/accounts/login/", "/", f"/cases/{site[0]['submission'].pk}/"]
    differences |= _compare(client, logged_out)
    assert differences == {}
    # The walk reached the pages views answer with ``require_GET`` and ``require_http_methods``.
    pk = site[0]["submission"].pk
    assert {"/", "/review/", "/notices/", f"/cases/{pk}/", f"/cases/{pk}/calendar/", "/cases/new/",
            f"/assessments/{site[2]['assessment'].pk}/irer.pdf"} <= walked


def test_head_is_not_refused_where_get_is_answered(client, reviewer, site):
    client.force_login(reviewer)
    for path in ("/", f"/cases/{site[0]['submission'].pk}/", f"/assessments/{site[0]['assessment'].pk}/"):
        response = client.head(path)
        assert response.status_code == 200, path
        assert int(response["Content-Length"]) == len(client.get(path).content)


def test_head_on_a_post_only_page_is_refused_as_get_is(client, reviewer, site):
    client.force_login(reviewer)
    path = f"/assessments/{site[1]['assessment'].pk}/submit/"
    assert client.get(path).status_code == client.head(path).status_code == 405
