"""What the tests of the database's own guards (PostgreSQL triggers) share."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction


def postgresql_only(reason: str):
    """Skip a test unless the database is PostgreSQL (``reason``: why the check is PostgreSQL's only)."""
    return pytest.mark.skipif(connection.vendor != "postgresql", reason=reason)


def refused_by_the_database(call) -> str:
    """``call`` fails with a trigger's IntegrityError (SQLSTATE 23001); its message."""
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        call()
    assert caught.value.__cause__.sqlstate == "23001"
    return str(caught.value)


def sql(statement: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
