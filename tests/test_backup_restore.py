"""The backup and restore procedures of docs/deployment.md, "Backup and restore", run for real by
scripts/backup_restore_check.py: a copy restored into a fresh database has every row,
every sequence position and every case's export unchanged, and the databases the check
makes are gone afterwards; and the check notices a difference (one changed title in the
restored copy fails it; the comparison is the same code for both databases)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "backup_restore_check.py"


def check(*args: str) -> subprocess.CompletedProcess:
    # The script makes (and drops) its own databases on the server of DATABASE_URL.
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, env=dict(os.environ),
                          capture_output=True, text=True, timeout=600)


def check_databases() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", ["pmn\\_backup\\_check\\_%"])
        return sorted(row[0] for row in cursor.fetchall())


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="DATABASE_URL is not PostgreSQL")
@pytest.mark.skipif(not (shutil.which("pg_dump") and shutil.which("pg_restore")), reason="pg_dump is not on PATH")
def test_pg_dump_restores_every_row_and_every_case(django_db_blocker):
    with django_db_blocker.unblock():
        before = check_databases()
    result = check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK: the restored database is identical" in result.stdout
    assert "case P-18-0123" in result.stdout and "case P-26-0042" in result.stdout
    with django_db_blocker.unblock():
        assert check_databases() == before


def test_sqlite_backup_copy_restores_every_row_and_every_case():
    result = check("--sqlite")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK: the restored database is identical" in result.stdout


def test_check_fails_when_the_restored_copy_differs():
    result = check("--sqlite", "--tamper")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAILED: the restored database differs" in result.stdout
    assert "export of case P-18-0123:" in result.stdout
