"""Settings for the test suite: the production settings with a throwaway secret key
and a fast password hasher. The database still comes from ``DATABASE_URL``.

A download draws its report in the request, through the task (django-tasks' immediate
backend), into a report cache of the test run's own (a temporary folder, removed at exit);
tests of the queue itself switch to the database backend (tests/reports/test_irer_queue.py)."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# The test client and the live server speak plain HTTP; production's redirect to HTTPS is
# checked in a subprocess with the production settings (tests/security).
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from . import settings as _production
from .settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",  # fast for users the tests create
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",  # the demo fixtures' hashes
]
REPORT_CACHE_DIR = Path(tempfile.mkdtemp(prefix="pmn-test-reports-"))
atexit.register(shutil.rmtree, REPORT_CACHE_DIR, ignore_errors=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": REPORT_CACHE_DIR}},
}
QUEUE_TASKS = _production.TASKS  # the production queue, for the tests of the queue itself
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A test database in a file, not in memory: the browser tests run the live server and
    # a report worker in threads of their own, and SQLite's shared in-memory database
    # locks whole tables and fails a second writer at once, where a file waits its turn.
    DATABASES["default"]["TEST"] = {"NAME": str(REPORT_CACHE_DIR / "test-db.sqlite3")}  # noqa: F405
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # mail.outbox
