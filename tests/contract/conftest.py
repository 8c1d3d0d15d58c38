"""The contract tests' synthetic scenario, registered for the test that asks for it."""

from __future__ import annotations

import pytest

from assessments.esd import registry

from .synthetic import SYNTHETIC


@pytest.fixture
def synthetic():
    with registry.registered(SYNTHETIC) as scenario:
        yield scenario
