"""Request hygiene: methods, caching of authenticated responses, an unknown proxy, the
database connection's health check, gunicorn's control socket, and the password page."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings

from assessments import services
from reviewer.middleware import UNKNOWN_PROXY, RequestHygieneMiddleware
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(reviewer):
    return make_submission()


@pytest.mark.parametrize("method", ["trace", "options", "put", "patch", "delete"])
def test_methods_other_than_get_head_post_are_refused(client, reviewer, case, method):
    client.force_login(reviewer)
    for url in (f"/cases/{case.pk}/", "/accounts/login/", "/"):
        response = getattr(client, method)(url)
        assert response.status_code == 405
        assert response["Allow"] == "GET, HEAD, POST"


def test_authenticated_pages_and_reports_are_never_cached(client, reviewer, case):
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015")
    services.scenario_compute(scenario=scenario, by=reviewer)
    client.force_login(reviewer)
    for url in ("/", f"/cases/{case.pk}/", f"/assessments/{assessment.pk}/", f"/assessments/{assessment.pk}/irer.pdf"):
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, url


def test_x_forwarded_for_without_trusted_proxies_is_logged_once(client, caplog, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    RequestHygieneMiddleware.proxy_warned = False
    with caplog.at_level(logging.WARNING, logger="reviewer.security"):
        client.get("/accounts/login/", HTTP_X_FORWARDED_FOR="203.0.113.9")
        client.get("/accounts/login/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert [r.getMessage() for r in caplog.records] == [UNKNOWN_PROXY]


def test_x_forwarded_for_with_trusted_proxies_is_expected(client, caplog, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    RequestHygieneMiddleware.proxy_warned = False
    with caplog.at_level(logging.WARNING, logger="reviewer.security"):
        client.get("/accounts/login/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert not caplog.records


def test_database_connections_are_health_checked():
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_gunicorn_control_socket_is_off():
    from gunicorn.config import Config

    config = Config()
    namespace: dict = {}
    exec(compile((settings.BASE_DIR / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), namespace)
    config.set("control_socket_disable", namespace["control_socket_disable"])
    assert config.control_socket_disable is True


def test_every_user_can_change_their_password(client, reviewer):
    client.force_login(reviewer)
    page = client.get("/accounts/password/")
    assert page.status_code == 200 and "Change your password" in page.content.decode()
    new = "a-long-new-passphrase-2026"
    response = client.post("/accounts/password/", {"old_password": "pw-for-tests-only", "new_password1": new,
                                                   "new_password2": new})
    assert response["Location"] == "/accounts/password/done/"
    reviewer.refresh_from_db()
    assert reviewer.check_password(new)
    assert client.get("/").status_code == 200  # still logged in


def test_a_weak_new_password_is_refused_with_the_rule(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/accounts/password/", {"old_password": "pw-for-tests-only", "new_password1": "short",
                                                   "new_password2": "short"})
    assert response.status_code == 200
    assert "at least 12 characters" in response.content.decode()
    reviewer.refresh_from_db()
    assert reviewer.check_password("pw-for-tests-only")


def test_password_page_needs_a_login(client):
    assert client.get("/accounts/password/")["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("path", ["/", "/cases/{case}/", "/assessments/{assessment}/", "/assessments/{assessment}/irer/",
                                  "/assessments/{assessment}/irer.pdf"])
def test_pages_that_only_show_refuse_a_post(client, reviewer, case, path):
    assessment = make_assessment(case, reviewer)
    client.force_login(reviewer)
    response = client.post(path.format(case=case.pk, assessment=assessment.pk))
    assert response.status_code == 405
