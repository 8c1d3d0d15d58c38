"""The custody tests' users and cases, made once a module (``conftest.shared_cases``), each
test with copies of its own read again from the database: the fixtures the custody test
modules take in place of tests/conftest.py's per-test ones (imported by name)."""

from __future__ import annotations

import pytest

from tests.audit.conftest import fresh


@pytest.fixture
def reviewer(shared_cases):
    return fresh(shared_cases["reviewer"])


@pytest.fixture
def supervisor(shared_cases):
    return fresh(shared_cases["supervisor"])


@pytest.fixture
def cbi(shared_cases) -> dict:
    return fresh(shared_cases["cbi"])


@pytest.fixture
def plain(shared_cases) -> dict:
    return fresh(shared_cases["plain"])
