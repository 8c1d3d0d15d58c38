#!/usr/bin/env python3
"""Check that a backup restores exactly: dump a database, restore it into a fresh one, and
compare the two: every table's row count, every sequence's position (PostgreSQL), and a
SHA-256 of every case's export (what ``manage.py export_case`` writes, without its
``exported_at`` time, read through ``assessments.transfer`` so that the check hands no CBI
to anyone and writes no custody row). Exit status 1 on any difference, 0 when they are identical, 2 when ``--source``
changed while it was dumped (nothing to compare against: run it again). The databases it
creates are dropped at the end, whatever happens.

PostgreSQL (the default): the procedure of docs/deployment.md, "Backup and restore", ``pg_dump
--format=custom`` then ``pg_restore`` into a new database, on the server of
``DATABASE_URL`` when that is a PostgreSQL URL (else ``postgres://postgres@127.0.0.1:5432``).
The source is a new database with the demo data (``load_demo``: its uses computed, one
assessment submitted, approved and revised through the services, so review decisions and
history rows exist), unless ``--source URL`` names an existing database to check instead:
that one is only read (``pg_dump``), never written.

SQLite (``--sqlite``): the same demo database as a file, copied with SQLite's online
backup API (what ``sqlite3 db.sqlite3 ".backup ..."`` does), and the copy opened as the
restored database.

    .venv/bin/python scripts/backup_restore_check.py [--source URL] [--keep-dump FILE]
    .venv/bin/python scripts/backup_restore_check.py --sqlite
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from reviewer.postgres import admin, server_url  # noqa: E402 (after the path)

PYTHON = str(ROOT / ".venv/bin/python") if (ROOT / ".venv/bin/python").exists() else sys.executable


# Inside Django (this file run again with --task, DATABASE_URL set to one database) ----------


def task_populate() -> None:
    """The demo data as load_demo makes it: computed, one assessment submitted, approved and
    revised."""
    from django.core.management import call_command
    from django.test.utils import override_settings

    with override_settings(DEBUG=True):  # load_demo loads only with DEBUG on; this database is the check's own
        call_command("load_demo", stdout=io.StringIO())


def task_snapshot() -> None:
    """Print, as JSON, what a restore must reproduce."""
    from django.db import connection

    from assessments import transfer
    from assessments.models import Submission

    tables = {}
    with connection.cursor() as cursor:
        for name in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(name)}")
            tables[name] = cursor.fetchone()[0]
        sequences = {}
        if connection.vendor == "postgresql":
            cursor.execute("SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2")
            sequences = {f"{schema}.{name}": value for schema, name, value in cursor.fetchall()}
    cases = {}
    for case_number in Submission.objects.order_by("case_number").values_list("case_number", flat=True):
        document = json.loads(transfer.dumps(transfer.case_export(case_number=case_number)))
        document.pop("exported_at")  # the time of the export, not of the data
        canonical = json.dumps(document, sort_keys=True, ensure_ascii=False).encode()
        cases[case_number] = hashlib.sha256(canonical).hexdigest()
    print(json.dumps({"tables": tables, "sequences": sequences, "cases": cases}))


TASKS = {"populate": task_populate, "snapshot": task_snapshot}


def run_task(name: str) -> None:
    import django

    django.setup()
    TASKS[name]()


# Outside Django: the procedure and the comparison -------------------------------------------


def django_env(database_url: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "reviewer.settings",
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
    }


def run(args: list[str], *, env: dict | None = None) -> str:
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(args)}\n{result.stdout}{result.stderr}")
    return result.stdout


def manage(database_url: str, *args: str) -> str:
    return run([PYTHON, "manage.py", *args], env=django_env(database_url))


def task(database_url: str, name: str) -> str:
    return run([PYTHON, str(Path(__file__).resolve()), "--task", name], env=django_env(database_url))


def make_demo(database_url: str) -> None:
    manage(database_url, "migrate", "--no-input", "-v0")
    task(database_url, "populate")


def snapshot(database_url: str) -> dict:
    return json.loads(task(database_url, "snapshot").strip().splitlines()[-1])


def compare(before: dict, after: dict) -> list[str]:
    problems = []
    for part, what in (("tables", "rows in table"), ("sequences", "sequence"), ("cases", "export of case")):
        for name in sorted(set(before[part]) | set(after[part])):
            old, new = before[part].get(name, "missing"), after[part].get(name, "missing")
            if old != new:
                problems.append(f"{what} {name}: {old} in the original, {new} in the restored copy")
    return problems


def report(before: dict, after: dict) -> int:
    rows = sum(before["tables"].values())
    print(f"  {len(before['tables'])} tables, {rows} rows; {len(before['sequences'])} sequences; "
          f"{len(before['cases'])} case exports hashed")
    for name, count in before["tables"].items():
        if count:
            print(f"    {name:45s} {count:6d} rows, restored {after['tables'].get(name, 'missing')}")
    for case, digest in before["cases"].items():
        same = "identical" if after["cases"].get(case) == digest else "DIFFERENT"
        print(f"    case {case:12s} export sha256 {digest[:16]}…  restored copy {same}")
    problems = compare(before, after)
    if problems:
        print("FAILED: the restored database differs:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print("OK: the restored database is identical (row counts, sequences, case exports).")
    return 0


# The self-test (--tamper): one changed value in the restored copy must fail the check.
TAMPER_SQL = "UPDATE assessments_scenario SET title = title || ' (changed)' WHERE id = (SELECT MAX(id) FROM assessments_scenario)"


def tamper_postgres(database_url: str) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(TAMPER_SQL)


def check_postgres(args) -> int:
    for tool in ("pg_dump", "pg_restore"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is not on PATH (Debian: apt-get install postgresql-client)")
    server = server_url()
    tag = f"{os.getpid()}_{secrets.token_hex(3)}"
    source_name, restored_name = f"pmn_backup_check_src_{tag}", f"pmn_backup_check_dst_{tag}"
    source = args.source or f"{server}/{source_name}"
    restored = f"{server}/{restored_name}"
    workdir = tempfile.mkdtemp(prefix="pmn-backup-check-")
    dump = args.keep_dump or os.path.join(workdir, "pmn.dump")
    created = []
    try:
        if not args.source:
            admin(server, f'CREATE DATABASE "{source_name}"')
            created.append(source_name)
            print(f"Source: new database {source_name} with the demo data, computed, approved and revised")
            make_demo(source)
        else:
            print(f"Source: {urlsplit(source)._replace(netloc=urlsplit(source).hostname or '').geturl()} (read only)")
        before = snapshot(source)
        print(f"Dump:    pg_dump --format=custom --no-owner --file {dump}")
        run(["pg_dump", "--format=custom", "--no-owner", "--file", dump, "--dbname", source])
        print(f"         {os.path.getsize(dump) / 1024:.0f} KiB")
        if args.source and compare(before, snapshot(source)):
            print("The source database changed while it was dumped (the site is in use): the dump is a\n"
                  "consistent snapshot, but this check cannot compare it. Run it again at a quiet moment.")
            return 2
        admin(server, f'CREATE DATABASE "{restored_name}"')
        created.append(restored_name)
        print(f"Restore: pg_restore --no-owner --exit-on-error --single-transaction into {restored_name}")
        run(["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction", "--dbname", restored, dump])
        if args.tamper:
            tamper_postgres(restored)
        after = snapshot(restored)
        return report(before, after)
    finally:
        for name in created:
            admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(workdir, ignore_errors=True)
        print(f"Cleaned up: dropped {', '.join(created) or 'nothing'}"
              + (f"; dump kept at {dump}" if args.keep_dump else ""))


def check_sqlite(args) -> int:
    workdir = tempfile.mkdtemp(prefix="pmn-backup-check-")
    try:
        original, backup = os.path.join(workdir, "db.sqlite3"), os.path.join(workdir, "backup.sqlite3")
        print(f"Source: new SQLite file {original} with the demo data, computed, approved and revised")
        make_demo(f"sqlite:///{original}")
        before = snapshot(f"sqlite:///{original}")
        print("Backup: sqlite3 online backup API (as sqlite3 db.sqlite3 \".backup backup.sqlite3\")")
        source, target = sqlite3.connect(original), sqlite3.connect(backup)
        with target:
            source.backup(target)
        source.close()
        target.close()
        restored = os.path.join(workdir, "restored.sqlite3")
        shutil.copyfile(backup, restored)  # restoring is putting the file back in place
        if args.tamper:
            with sqlite3.connect(restored) as conn:
                conn.execute(TAMPER_SQL)
            conn.close()
        after = snapshot(f"sqlite:///{restored}")
        return report(before, after)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        print(f"Cleaned up: removed {workdir}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", help="check a backup of this existing PostgreSQL database (read only)")
    parser.add_argument("--keep-dump", metavar="FILE", help="write the dump here and keep it")
    parser.add_argument("--sqlite", action="store_true", help="check the SQLite backup procedure instead")
    parser.add_argument("--task", choices=sorted(TASKS), help=argparse.SUPPRESS)
    parser.add_argument("--tamper", action="store_true", help=argparse.SUPPRESS)  # the tests' self-check
    args = parser.parse_args()
    if args.task:
        run_task(args.task)
        return
    sys.exit(check_sqlite(args) if args.sqlite else check_postgres(args))


if __name__ == "__main__":
    main()
