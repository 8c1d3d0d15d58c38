"""Production settings (``reviewer.settings`` with DEBUG off): Django's deployment checks,
HTTPS only, HSTS, secure cookies, each configurable from the environment as the
configuration table (docs/configuration.md) says, and secrets only from the environment."""

from __future__ import annotations

import subprocess
import sys

from ._production import ROOT, production_env, production_get, production_settings, run_in_production

ONE_YEAR = 365 * 24 * 3600


def test_check_deploy_has_no_warnings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=production_env(), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_plain_http_is_redirected_to_https_in_production():
    response = production_get("/accounts/login/", secure=False)
    assert response["status"] == 301
    assert response["headers"]["Location"] == "https://review.example.gov/accounts/login/"


def test_hsts_in_production():
    response = production_get("/accounts/login/", secure=True)
    assert response["status"] == 200
    assert response["headers"]["Strict-Transport-Security"] == f"max-age={ONE_YEAR}; includeSubDomains; preload"


def test_hsts_and_https_redirect_are_configurable_from_the_environment():
    values = production_settings(
        "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_SSL_REDIRECT",
        SECURE_HSTS_SECONDS="3600", SECURE_HSTS_INCLUDE_SUBDOMAINS="0", SECURE_HSTS_PRELOAD="false",
        SECURE_SSL_REDIRECT="0",
    )
    assert values == {"SECURE_HSTS_SECONDS": 3600, "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
                      "SECURE_HSTS_PRELOAD": False, "SECURE_SSL_REDIRECT": False}


def test_https_settings_are_off_with_debug():
    values = production_settings("SECURE_HSTS_SECONDS", "SECURE_SSL_REDIRECT", DEBUG="1")
    assert values == {"SECURE_HSTS_SECONDS": 0, "SECURE_SSL_REDIRECT": False}


def test_proxy_ssl_header_is_unset_unless_configured():
    assert production_settings("SECURE_PROXY_SSL_HEADER") == {"SECURE_PROXY_SSL_HEADER": None}


def test_proxy_ssl_header_from_the_environment():
    assert production_settings("SECURE_PROXY_SSL_HEADER", SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto") == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"]}
    assert production_settings("SECURE_PROXY_SSL_HEADER", SECURE_PROXY_SSL_HEADER="X-Forwarded-Ssl=on") == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_SSL", "on"]}


def test_request_through_tls_proxy_is_served_not_redirected():
    """Behind a proxy that terminates TLS: its header marks the request secure."""
    code = (
        "from django.test import Client\n"
        "r = Client().get('/', HTTP_HOST='review.example.gov', HTTP_X_FORWARDED_PROTO='https')\n"
        "print(r.status_code, r['Location'], r.headers.get('Strict-Transport-Security'))"
    )
    result = run_in_production(code, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
    assert result.returncode == 0, result.stderr
    # To the login page (not to https://), and HSTS sent: the request counted as HTTPS.
    assert result.stdout.split() == ["302", "/accounts/login/?next=/", f"max-age={ONE_YEAR};", "includeSubDomains;",
                                     "preload"]


def test_session_cookie_flags_in_production():
    values = production_settings(
        "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE", "SESSION_EXPIRE_AT_BROWSER_CLOSE",
        "SESSION_COOKIE_AGE", "SESSION_IDLE_TIMEOUT", "CSRF_COOKIE_SECURE", "CSRF_COOKIE_HTTPONLY",
    )
    assert values == {
        "SESSION_COOKIE_SECURE": True, "SESSION_COOKIE_HTTPONLY": True, "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_EXPIRE_AT_BROWSER_CLOSE": True, "SESSION_COOKIE_AGE": 8 * 3600, "SESSION_IDLE_TIMEOUT": 30 * 60,
        "CSRF_COOKIE_SECURE": True, "CSRF_COOKIE_HTTPONLY": True,
    }


def test_csrf_cookie_is_sent_secure_and_httponly_in_production():
    cookie = production_get("/accounts/login/", secure=True)["cookies"]["csrftoken"]
    assert (cookie["secure"], cookie["httponly"], cookie["samesite"]) == (True, True, "Lax")


def test_session_lifetimes_are_configurable_from_the_environment():
    assert production_settings("SESSION_COOKIE_AGE", "SESSION_IDLE_TIMEOUT", SESSION_COOKIE_AGE="3600",
                               SESSION_IDLE_TIMEOUT="600") == {"SESSION_COOKIE_AGE": 3600, "SESSION_IDLE_TIMEOUT": 600}


def test_secret_key_comes_only_from_the_environment():
    result = run_in_production("print(settings.SECRET_KEY)", SECRET_KEY="k" * 60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "k" * 60
    missing = run_in_production("print(settings.SECRET_KEY)", SECRET_KEY="")
    assert missing.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in missing.stderr


def test_database_credentials_come_only_from_the_environment():
    url = "postgres://pmn:s3cret-from-env@db.example.gov:5432/pmn"
    database = production_settings("DATABASES", DATABASE_URL=url)["DATABASES"]["default"]
    assert (database["USER"], database["PASSWORD"], database["HOST"]) == ("pmn", "s3cret-from-env", "db.example.gov")
    default = production_settings("DATABASES")["DATABASES"]["default"]
    assert default["ENGINE"] == "django.db.backends.sqlite3" and not default.get("PASSWORD")  # none built in
