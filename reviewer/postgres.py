"""The PostgreSQL server of ``DATABASE_URL``, for the tools that make and drop databases of
their own on it (``benchmarks/run.py``, ``scripts/backup_restore_check.py``). Not imported by
the application."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import psycopg

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"


def server_url() -> str:
    """``DATABASE_URL`` without its database (``postgres://user@host:port``), or the local
    server when it names none."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        parts = urlsplit(url)
        return urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    return DEFAULT_SERVER


def admin(server: str, sql: str) -> None:
    """Run one statement on the server's ``postgres`` database (autocommit): CREATE or DROP
    DATABASE."""
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(sql)
