"""The quick start's settings (``DEVELOPMENT=1``, as scripts/run.sh sets them) serve the
application's own error pages, not Django's debug pages, and keep what the quick start
needs (plain HTTP, static files, load_demo); logging prints each line once, and a refusal
(403) as one line without a traceback.

Each check runs in a subprocess, so the environment decides the settings (and Django's
logging configuration) exactly as when ``manage.py`` starts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from demo.management.commands import load_demo

ROOT = Path(__file__).resolve().parent.parent

# Variables the settings read: cleared, so neither the developer's shell nor the test
# session leaks in.
SETTINGS_ENV = {
    "SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "DEVELOPMENT", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_PROXY_SSL_HEADER", "LOG_LEVEL", "EMAIL_BACKEND",
    "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE",
}

# A page that refuses (403) and one that fails (500), beside the application's own URLs,
# reached without a login and without a database.
PROBE = '''
import json, os, sys, types
import django
django.setup()
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import include, path

@login_not_required
def refuse(request):
    raise PermissionDenied("Only the assessment's engineer can change it.")

@login_not_required
def fail(request):
    raise RuntimeError("the probe failed on purpose")

urls = types.ModuleType("probe_urls")
urls.urlpatterns = [path("probe/refuse/", refuse), path("probe/fail/", fail), path("", include("reviewer.urls"))]
sys.modules["probe_urls"] = urls
overrides = {"ROOT_URLCONF": "probe_urls"}
if os.environ.get("PROBE_PLAIN_STATIC"):  # production without collectstatic: no manifest to read
    overrides["STORAGES"] = {**settings.STORAGES,
                             "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
with override_settings(**overrides):
    client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
    sys.stderr.write("--- %s ---\\n" % sys.argv[1])
    sys.stderr.flush()
    response = client.get(sys.argv[1])
    sys.stderr.flush()
    body = b"".join(response.streaming_content) if response.streaming else response.content
    print(json.dumps({"status": response.status_code, "body": body.decode(),
                      "content_type": response.get("Content-Type", "")}))
'''


def quick_start_env(tmp_path: Path, **env: str) -> dict:
    """The environment scripts/run.sh gives ``manage.py``: DEVELOPMENT=1 and the key file
    the quick start writes; DEBUG unset."""
    key_file = tmp_path / "secret_key"
    key_file.write_text("q" * 50)
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_ENV}
    return {**clean, "DJANGO_SETTINGS_MODULE": "reviewer.settings", "DEVELOPMENT": "1",
            "SECRET_KEY_FILE": str(key_file), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", **env}


def production_env(tmp_path: Path, **env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_ENV}
    return {**clean, "DJANGO_SETTINGS_MODULE": "reviewer.settings", "SECRET_KEY": "p" * 50,
            "SECRET_KEY_FILE": str(tmp_path / "no-key-file"), "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PROBE_PLAIN_STATIC": "1", **env}


def get(path: str, env: dict) -> tuple[dict, str]:
    """GET ``path`` in a fresh process: the response (status, body) and what was logged
    while it was answered (standard error after the probe's marker)."""
    # Without collectstatic WhiteNoise warns that STATIC_ROOT is missing (as pytest.ini ignores).
    no_static_root = "ignore:No directory at:UserWarning"
    result = subprocess.run([sys.executable, "-W", no_static_root, "-c", PROBE, path], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    logged = result.stderr.split(f"--- {path} ---\n", 1)[1]
    return json.loads(result.stdout.strip().splitlines()[-1]), logged


def settings_under(env: dict, *names: str) -> dict:
    code = ("import django, json\ndjango.setup()\nfrom django.conf import settings\n"
            f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# The quick start's error pages ------------------------------------------------------------------


def test_quick_start_shows_the_applications_404_page(tmp_path):
    response, _ = get("/no/such/page/", quick_start_env(tmp_path))
    assert response["status"] == 404
    assert "There is no such page, or you may not see it." in response["body"]  # templates/404.html
    assert "<title>Not found · PMN review</title>" in response["body"]
    assert "Page not found at" not in response["body"]  # Django's debug page
    assert "URLconf" not in response["body"] and "DEBUG = True" not in response["body"]


def test_debug_still_shows_djangos_debug_page_when_asked_for(tmp_path):
    """DEBUG=1 remains the way to Django's debug pages (the README's DEBUG=1 commands)."""
    response, _ = get("/no/such/page/", quick_start_env(tmp_path, DEBUG="1"))
    assert response["status"] == 404
    assert "DEBUG = True" in response["body"]


def test_quick_start_shows_the_applications_500_page(tmp_path):
    response, logged = get("/probe/fail/", quick_start_env(tmp_path))
    assert response["status"] == 500
    assert "Something went wrong" in response["body"] and "the probe failed on purpose" not in response["body"]
    assert "Traceback" in logged  # a server error keeps its traceback in the log


def test_quick_start_serves_the_static_files_without_collectstatic(tmp_path):
    env = quick_start_env(tmp_path)
    response, _ = get("/static/css/app.css", env)
    assert response["status"] == 200
    assert response["content_type"].startswith("text/css")
    assert response["body"] == (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
    page, _ = get("/accounts/login/", env)
    assert page["status"] == 200
    assert 'href="/static/css/app.css"' in page["body"]  # named as in static/, no manifest needed


def test_quick_start_speaks_plain_http_with_console_mail(tmp_path):
    values = settings_under(
        quick_start_env(tmp_path), "DEBUG", "DEVELOPMENT", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "EMAIL_BACKEND",
    )
    assert values == {
        "DEBUG": False, "DEVELOPMENT": True, "SECURE_SSL_REDIRECT": False, "SECURE_HSTS_SECONDS": 0,
        "SESSION_COOKIE_SECURE": False, "CSRF_COOKIE_SECURE": False,
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
    }


def test_production_is_unchanged_without_development(tmp_path):
    values = settings_under(
        production_env(tmp_path, SECURE_SSL_REDIRECT="1"), "DEVELOPMENT", "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE", "EMAIL_BACKEND", "STORAGES",
    )
    assert values["DEVELOPMENT"] is False and values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600 and values["SESSION_COOKIE_SECURE"] is True
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert values["STORAGES"]["staticfiles"]["BACKEND"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_quick_start_sets_development_not_debug():
    script = (ROOT / "scripts" / "run.sh").read_text(encoding="utf-8")
    assert re.search(r"^export DEVELOPMENT=\$\{DEVELOPMENT:-1\}$", script, re.M)
    assert not re.search(r"^\s*export DEBUG", script, re.M)


def test_load_demo_runs_with_the_quick_starts_settings(tmp_path):
    """What scripts/run.sh does on a new database, with DEVELOPMENT=1 and no DEBUG."""
    env = quick_start_env(tmp_path)
    manage = [sys.executable, "manage.py"]
    subprocess.run(manage + ["migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    loaded = subprocess.run(manage + ["load_demo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip().startswith("Demo data loaded: 4 user(s)")
    # The README's commands after the quick start: without DEBUG or DEVELOPMENT, the key file read.
    server = {k: v for k, v in env.items() if k != "DEVELOPMENT"}
    listed = subprocess.run(manage + ["esd", "list"], cwd=ROOT, env=server, capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert any(s["key"] for s in json.loads(listed.stdout))
    refused = subprocess.run(manage + ["load_demo", "--force"], cwd=ROOT, env=server, capture_output=True,
                             text=True, timeout=120)
    assert refused.returncode == 2 and load_demo.NOT_DEBUG in refused.stderr
    forced = subprocess.run(manage + ["load_demo", "--force"], cwd=ROOT, env={**server, "DEBUG": "1"},
                            capture_output=True, text=True, timeout=120)
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.strip() == load_demo.NOTHING_MISSING


# Logging -----------------------------------------------------------------------------------------


REFUSED_LINE = "WARNING django.request: Forbidden (Permission denied): /probe/refuse/"


@pytest.mark.parametrize("where", ["production", "quick start", "debug"])
def test_a_refusal_logs_one_line_without_a_traceback(tmp_path, where):
    env = {
        "production": production_env(tmp_path),
        "quick start": quick_start_env(tmp_path),
        "debug": quick_start_env(tmp_path, DEBUG="1"),
    }[where]
    response, logged = get("/probe/refuse/", env)
    assert response["status"] == 403
    assert "Only the assessment&#x27;s engineer can change it." in response["body"]
    assert logged.splitlines() == [REFUSED_LINE]


@pytest.mark.parametrize("where", ["production", "debug"])
def test_a_missing_page_logs_one_line(tmp_path, where):
    env = production_env(tmp_path) if where == "production" else quick_start_env(tmp_path, DEBUG="1")
    response, logged = get("/no/such/page/", env)
    assert response["status"] == 404
    assert logged.splitlines() == ["WARNING django.request: Not Found: /no/such/page/"]


def test_a_server_error_logs_its_traceback_once(tmp_path):
    response, logged = get("/probe/fail/", production_env(tmp_path))
    assert response["status"] == 500
    assert logged.count("Traceback (most recent call last)") == 1
    assert logged.count("ERROR django.request: Internal Server Error: /probe/fail/") == 1
    assert "RuntimeError: the probe failed on purpose" in logged


def test_runserver_prints_each_request_once_as_django_prints_it(tmp_path):
    """The quick start's server (``runserver``) logs each request on "django.server" at INFO:
    one line, in Django's own format, whatever LOG_LEVEL is."""
    code = ("import django, logging\ndjango.setup()\n"
            "logging.getLogger('django.server').info('\"GET /probe/ HTTP/1.1\" 200 5')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=quick_start_env(tmp_path),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and re.fullmatch(r'\[[^]]+\] "GET /probe/ HTTP/1\.1" 200 5', lines[0]), lines


def test_no_other_logging_handler_is_configured():
    """Logging is configured in one place (reviewer/settings.py LOGGING): no module adds a
    handler of its own or calls basicConfig, which would print lines twice."""
    found = []
    for path in ROOT.rglob("*.py"):
        if any(part in {".venv", "node_modules", "tests"} for part in path.relative_to(ROOT).parts):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in ("logging.basicConfig", ".addHandler(", "logging.StreamHandler("):
            if pattern in text:
                found.append(f"{path.relative_to(ROOT)}: {pattern}")
    assert found == []
