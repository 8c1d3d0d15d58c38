"""The portfolio's tests read the ledger as each write leaves it. A write refreshes the ledger
once its transaction commits (``ledger.later``); the tests run in a transaction that never
commits, so here the refresh runs at once, in the writer's transaction. The deferred path
itself is tested on its own, with real commits (``test_ledger.py::test_the_ledger_follows_commits``)."""

from __future__ import annotations

import pytest

from portfolio import ledger


@pytest.fixture(autouse=True)
def ledger_at_once(request, monkeypatch):
    if "commits" not in request.keywords:
        monkeypatch.setattr(ledger, "later", ledger.refresh_cases)
