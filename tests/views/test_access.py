"""Nothing but the login page and the health check is reachable anonymously: every URL
pattern of the project is requested without a session and must send the visitor to a
login page, but for the health check, which says only whether the database answers.
Single sign-on's two steps send to the login page too where it is not configured (here);
tests/oidc signs in through a provider."""

from urllib.parse import urlparse

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

LOGIN_PATHS = {"/accounts/login/", "/admin/login/"}
PUBLIC_PATHS = {"/healthz"}  # reviewer/health.py
API_PAGES = {"/api/v1", "/api/v1/openapi.json", "/api/v1/docs"}  # the API's pages: the pages' login
SAMPLE_ARGS = {"int": "1", "str": "x", "slug": "x", "path": "x", "uuid": "00000000-0000-0000-0000-000000000000"}


def all_paths(resolver=None, prefix=""):
    """Every concrete path of the URLconf, with sample values for converters."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        pattern = str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from all_paths(entry, prefix + pattern)
        elif isinstance(entry, URLPattern):
            yield _fill(prefix + pattern)


def _fill(pattern: str) -> str:
    import re

    if pattern.startswith("^") or "(?P" in pattern:
        # The admin's regex patterns: fill groups with sample values.
        pattern = re.sub(r"\(\?P<[^>]+>[^)]*\)", "1", pattern)
        pattern = pattern.replace("^", "").replace("$", "").replace("\\Z", "").replace("\\", "")
    pattern = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLE_ARGS.get(m.group(1) or "str", "x"), pattern)
    return "/" + pattern


PATHS = sorted(set(all_paths()))


def test_the_walk_finds_the_application_and_admin_urls():
    assert "/" in PATHS and "/cases/1/" in PATHS and "/admin/" in PATHS
    assert len(PATHS) > 20


@pytest.mark.parametrize("path", PATHS)
def test_anonymous_request_is_sent_to_login(client, path):
    response = client.get(path)
    if urlparse(path).path in LOGIN_PATHS:
        assert response.status_code == 200
        return
    if urlparse(path).path in PUBLIC_PATHS:
        assert response.status_code == 200 and response.json() == {"status": "ok"}
        return
    if path.startswith("/api/v1/") and path.rstrip("/") not in API_PAGES:
        # The API's operations (api/): a bearer token is their credential, not a login; no token is 401.
        assert response.status_code in (401, 405), path  # 405: a POST-only operation, whoever asks
        return
    assert response.status_code == 302, f"{path} answered {response.status_code} to an anonymous visitor"
    assert urlparse(response["Location"]).path in LOGIN_PATHS


def test_anonymous_post_is_refused_too(client):
    response = client.post("/cases/1/")
    assert response.status_code in (302, 403)
    assert response.status_code != 200
