"""Start Django for a benchmark on a throwaway test database (SQLite in memory unless
DATABASE_URL points at PostgreSQL), and remove it afterwards."""

import contextlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reviewer.settings_test")


@contextlib.contextmanager
def test_database():
    import django

    django.setup()
    from django.db import connection

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield connection
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
