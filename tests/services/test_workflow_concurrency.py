"""Two supervisors act on the same submitted assessment at the same moment: the row lock
(``select_for_update`` in assessments.workflow) makes one of them wait, re-read the
status and be refused, so exactly one decision is recorded.

The race is forced: the first supervisor to get past the checks pauses inside the
transaction (``_transition`` is wrapped with a delay) while the second one starts. Without
the lock both would read "submitted" and both would write. PostgreSQL only: SQLite has
no row locks (it locks the whole database file instead).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from assessments import workflow
from assessments.models import Assessment, ReviewDecision, Status
from tests._review_support import other_supervisor, submitted, toy_engine  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("toy_engine"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

PAUSE_S = 0.5


def race(calls, monkeypatch):
    """Run ``calls`` at once in threads; return each one's result or exception."""
    original = workflow._transition

    def slow_transition(*args, **kwargs):
        time.sleep(PAUSE_S)  # hold the row lock while the other thread tries
        return original(*args, **kwargs)

    monkeypatch.setattr(workflow, "_transition", slow_transition)
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as exc:  # noqa: BLE001  (the outcome under test)
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


def test_two_simultaneous_approvals_one_wins(reviewer, supervisor, other_supervisor, monkeypatch):
    assessment = submitted(reviewer)
    outcomes = race(
        [
            lambda: workflow.assessment_approve(assessment=assessment, by=supervisor, comment="first"),
            lambda: workflow.assessment_approve(assessment=assessment, by=other_supervisor, comment="second"),
        ],
        monkeypatch,
    )
    wins = [o for o in outcomes if isinstance(o, Assessment)]
    losses = [o for o in outcomes if isinstance(o, PermissionDenied)]
    assert len(wins) == 1 and len(losses) == 1, outcomes
    assert str(losses[0]) == "This assessment is approved: it cannot be approved now."
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED
    decisions = ReviewDecision.objects.filter(assessment=assessment, action="approve")
    assert decisions.count() == 1
    assert decisions.get().by == assessment.approved_by == wins[0].approved_by


def test_simultaneous_approve_and_return_one_wins(reviewer, supervisor, other_supervisor, monkeypatch):
    assessment = submitted(reviewer)
    outcomes = race(
        [
            lambda: workflow.assessment_approve(assessment=assessment, by=supervisor),
            lambda: workflow.assessment_return(assessment=assessment, by=other_supervisor, comment="Redo it."),
        ],
        monkeypatch,
    )
    assert sum(isinstance(o, Assessment) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, PermissionDenied) for o in outcomes) == 1, outcomes
    assessment.refresh_from_db()
    review_decisions = ReviewDecision.objects.filter(assessment=assessment).exclude(action="submit")
    assert review_decisions.count() == 1
    assert review_decisions.get().to_status == assessment.status
