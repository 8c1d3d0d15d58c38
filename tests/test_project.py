"""Project-level guarantees: migrations committed, system checks clean, settings from
the environment."""

import os
import shutil
import stat
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
    clean = {k: v for k, v in os.environ.items()
             if k not in {"SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS"}}
    no_key_file = {"SECRET_KEY_FILE": str(ROOT / "no-such-key-file")}  # unless a test names one
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **no_key_file, **env},
                          capture_output=True, text=True)


def test_secret_key_required_when_debug_is_off():
    result = _settings_probe({}, "settings.SECRET_KEY")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in result.stderr


def test_secret_key_is_read_from_the_key_file_when_not_in_the_environment(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_text("k" * 50 + "\n")
    result = _settings_probe({"SECRET_KEY_FILE": str(key_file)}, "settings.SECRET_KEY, settings.DEBUG")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{'k' * 50} False"


def test_secret_key_in_the_environment_wins_over_the_key_file(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_text("k" * 50)
    result = _settings_probe({"SECRET_KEY_FILE": str(key_file), "SECRET_KEY": "e" * 50}, "settings.SECRET_KEY")
    assert result.stdout.strip() == "e" * 50


def test_an_empty_key_file_is_no_key(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_text("\n")
    result = _settings_probe({"SECRET_KEY_FILE": str(key_file)}, "settings.SECRET_KEY")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in result.stderr


def test_quick_start_writes_an_owner_only_key_file(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    shutil.copy(ROOT / "scripts" / "_venv.sh", scripts / "_venv.sh")
    shutil.copy(ROOT / "requirements.txt", tmp_path / "requirements.txt")
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")  # installed already: nothing to install
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    subprocess.run(["bash", "-c", "source scripts/_venv.sh"], cwd=tmp_path, env=env, check=True, capture_output=True)
    key = tmp_path / ".secret_key"
    assert len(key.read_text().strip()) >= 50
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


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
