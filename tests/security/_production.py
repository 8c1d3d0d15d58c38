"""Run code under the production settings (``reviewer.settings``), in a subprocess so the
environment decides them exactly as on a server: DEBUG unset, a long random SECRET_KEY,
no DATABASE_URL (nothing here touches the database), plus the variables a test sets."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Variables the production settings (or Django's checks) read: cleared, so neither the
# developer's shell nor the test session leaks in.
SETTINGS_ENV = {
    "SECRET_KEY", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_COOKIES", "SESSION_COOKIE_AGE",
    "SESSION_IDLE_TIMEOUT", "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "TRUSTED_PROXY_COUNT", "LOGIN_FAILURE_LIMIT",
    "LOGIN_COOLOFF_MINUTES", "LOGIN_ADDRESS_FAILURE_LIMIT", "LOGIN_DELAY_SECONDS", "LOGIN_MAX_DELAY_SECONDS",
    "DJANGO_SETTINGS_MODULE", "SECRET_KEY_FILE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser tests for themselves, never on a server
}


def production_env(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_ENV}
    return {**clean, "DJANGO_SETTINGS_MODULE": "reviewer.settings", "SECRET_KEY": secrets.token_urlsafe(50),
            "SECRET_KEY_FILE": str(ROOT / "no-such-key-file"),  # the quick start's key file is not the server's
            "ALLOWED_HOSTS": "review.example.gov,testserver", **env}


def run_in_production(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run ``code`` after ``django.setup()`` with the production settings."""
    script = "import django\ndjango.setup()\nfrom django.conf import settings\n" + code
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=production_env(**env),
                          capture_output=True, text=True, timeout=120)


def production_settings(*names: str, **env: str) -> dict:
    """The values of the named settings under the production settings and ``env``."""
    code = f"import json\nprint(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))"
    result = run_in_production(code, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_get(path: str, *, secure: bool, **env: str) -> dict:
    """GET ``path`` through the production middleware with Django's test client:
    the status, the headers and the cookies' attributes."""
    code = (
        "import json\nfrom django.test import Client, override_settings\n"
        # No collectstatic here: plain static storage, so pages render without a manifest.
        "plain = {**settings.STORAGES, 'staticfiles': {'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}}\n"
        "with override_settings(STORAGES=plain):\n"
        f"    r = Client().get({path!r}, secure={secure!r}, HTTP_HOST='review.example.gov')\n"
        "print(json.dumps({'status': r.status_code, 'headers': dict(r.headers),"
        " 'cookies': {k: dict(v.items()) for k, v in r.cookies.items()}}))"
    )
    result = run_in_production(code, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
