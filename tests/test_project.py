"""Project-level guarantees: migrations committed, system checks clean, settings from
the environment."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_migrations_are_committed():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_system_check_is_clean():
    call_command("check", fail_level="WARNING")


def _settings_probe(env: dict, expr: str) -> subprocess.CompletedProcess:
    code = f"import django, os; os.environ['DJANGO_SETTINGS_MODULE']='reviewer.settings'; django.setup(); from django.conf import settings; print({expr})"
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS"}}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True)


def test_secret_key_required_when_debug_is_off():
    result = _settings_probe({}, "settings.SECRET_KEY")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in result.stderr


def test_debug_runs_without_secret_key_on_sqlite_in_the_project_folder():
    result = _settings_probe({"DEBUG": "1"}, "settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME']")
    assert result.returncode == 0, result.stderr
    assert "sqlite3" in result.stdout and str(ROOT / "db.sqlite3") in result.stdout


def test_database_url_selects_postgresql_and_hosts_are_read():
    result = _settings_probe(
        {"SECRET_KEY": "x" * 50, "DATABASE_URL": "postgres://pmn@db.example:5432/pmn", "ALLOWED_HOSTS": "a.example, b.example"},
        "settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'], settings.ALLOWED_HOSTS, settings.DEBUG",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.postgresql pmn ['a.example', 'b.example'] False"
