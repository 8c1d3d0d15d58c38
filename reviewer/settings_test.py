"""Settings for the test suite: the production settings with a throwaway secret key
and a fast password hasher. The database still comes from ``DATABASE_URL``."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# The test client and the live server speak plain HTTP; production's redirect to HTTPS is
# checked in a subprocess with the production settings (tests/security).
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from .settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",  # fast for users the tests create
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",  # the demo fixtures' hashes
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
