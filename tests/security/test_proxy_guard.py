"""A reverse proxy the settings do not know of (issue 27): with ``TRUSTED_PROXY_COUNT`` unset, a
request from this host (loopback, or a Unix socket) carrying ``X-Forwarded-For`` is refused
with 503 and a message naming the setting, logged once a process; set (0 included) it is
served. Requests without the header, or from elsewhere, are served."""

from __future__ import annotations

import json
import logging

import pytest
from axes.models import AccessAttempt

from reviewer.middleware import PROXY_REFUSED, UNKNOWN_PROXY, RequestHygieneMiddleware

from ._production import production_settings, run_in_production

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
FORWARDED = {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}


@pytest.fixture
def unset(settings):
    settings.TRUSTED_PROXY_COUNT = None
    RequestHygieneMiddleware.proxy_refusal_logged = False
    RequestHygieneMiddleware.proxy_warned = False


@pytest.mark.parametrize("remote_addr", ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1", ""])
def test_forwarded_request_from_this_host_is_refused_while_the_count_is_unset(client, unset, remote_addr):
    response = client.get(LOGIN, REMOTE_ADDR=remote_addr, **FORWARDED)
    assert response.status_code == 503
    assert response.content.decode() == PROXY_REFUSED
    assert "TRUSTED_PROXY_COUNT" in PROXY_REFUSED and "1 or more" in PROXY_REFUSED and "or to 0" in PROXY_REFUSED


def test_a_refused_login_is_not_counted(client, unset, reviewer):
    for _ in range(6):
        response = client.post(LOGIN, {"username": "rev", "password": "wrong"}, **FORWARDED)
        assert response.status_code == 503
    assert not AccessAttempt.objects.exists()


def test_the_refusal_is_logged_once_a_process_as_an_error(client, unset, caplog):
    with caplog.at_level(logging.WARNING, logger="reviewer.security"):
        client.get(LOGIN, **FORWARDED)
        client.get("/", **FORWARDED)
    mine = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "reviewer.security"]
    assert mine == [(logging.ERROR, PROXY_REFUSED)]


def test_requests_without_the_header_are_served(client, unset):
    assert client.get(LOGIN).status_code == 200


def test_forwarded_request_from_elsewhere_is_served_with_a_warning(client, unset, caplog):
    with caplog.at_level(logging.WARNING, logger="reviewer.security"):
        assert client.get(LOGIN, REMOTE_ADDR="192.0.2.10", **FORWARDED).status_code == 200
    assert [r.getMessage() for r in caplog.records if r.name == "reviewer.security"] == [UNKNOWN_PROXY]


def test_a_count_of_zero_set_explicitly_serves_with_the_proxys_address(client, settings, caplog):
    settings.TRUSTED_PROXY_COUNT = 0
    RequestHygieneMiddleware.proxy_warned = False
    with caplog.at_level(logging.WARNING, logger="reviewer.security"):
        assert client.get(LOGIN, **FORWARDED).status_code == 200
    assert [r.getMessage() for r in caplog.records if r.name == "reviewer.security"] == [UNKNOWN_PROXY]


def test_a_count_of_proxies_serves_with_the_clients_address(client, settings, reviewer):
    settings.TRUSTED_PROXY_COUNT = 1
    client.post(LOGIN, {"username": "rev", "password": "wrong"}, **FORWARDED)
    assert AccessAttempt.objects.get().ip_address == "203.0.113.9"


# --- under the production settings ---------------------------------------------------------------


PROBE = (
    "import json\nfrom django.test import Client\n"
    "r = Client().get('/accounts/login/', secure=True, HTTP_HOST='review.example.gov',"
    " HTTP_X_FORWARDED_FOR='203.0.113.9')\n"
    "print(json.dumps({'status': r.status_code, 'count': settings.TRUSTED_PROXY_COUNT}))"
)


def test_production_refuses_an_unknown_proxy_by_default():
    result = run_in_production(PROBE)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"status": 503, "count": None}
    assert PROXY_REFUSED in result.stderr  # the log line, on standard error


def test_trusted_proxy_count_from_the_environment():
    assert production_settings("TRUSTED_PROXY_COUNT") == {"TRUSTED_PROXY_COUNT": None}
    assert production_settings("TRUSTED_PROXY_COUNT", TRUSTED_PROXY_COUNT="0") == {"TRUSTED_PROXY_COUNT": 0}
    assert production_settings("TRUSTED_PROXY_COUNT", TRUSTED_PROXY_COUNT="2") == {"TRUSTED_PROXY_COUNT": 2}


@pytest.mark.parametrize("value", ["-1", "one", "1.5"])
def test_a_bad_trusted_proxy_count_is_refused_by_name(value):
    result = run_in_production("", TRUSTED_PROXY_COUNT=value)
    assert result.returncode != 0
    assert f"TRUSTED_PROXY_COUNT must be a whole number of at least 0, not {value!r}." in result.stderr
