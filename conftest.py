"""Test-wide settings: a throwaway secret key so the production settings load."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
