"""The OpenAPI description: served at /api/v1/openapi.json (behind the pages' login), equal
to the checked-in docs/openapi.json, and the reference page built from local files only.

After changing an endpoint: ``UPDATE_OPENAPI=1 .venv/bin/python -m pytest tests/api/test_openapi.py``
writes docs/openapi.json again (then review the diff)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

CHECKED_IN = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def test_the_served_description_is_the_checked_in_one(client, reviewer):
    client.force_login(reviewer)
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    served = response.json()
    if os.environ.get("UPDATE_OPENAPI"):
        CHECKED_IN.write_text(json.dumps(served, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert json.loads(CHECKED_IN.read_text(encoding="utf-8")) == served
    assert served["openapi"].startswith("3.") and served["components"]["securitySchemes"]["BearerToken"] == {
        "type": "http", "scheme": "bearer"}
    assert "/api/v1/scenarios/{scenario_key}/compute" in served["paths"]


def test_the_reference_page_loads_nothing_from_elsewhere(client, reviewer):
    client.force_login(reviewer)
    html = client.get("/api/v1/docs").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("swagger-ui-bundle.js" in s for s in sources)
    assert not [s for s in sources if s.startswith(("http:", "https:", "//"))]


def test_the_description_and_the_page_need_the_pages_login(client):
    for path in ("/api/v1/openapi.json", "/api/v1/docs", "/api/v1/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
