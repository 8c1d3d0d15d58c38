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
from tests._review_support import other_supervisor, submitted, toy_engine

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("toy_engine"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

PAUSE_S = 0.5


def race(calls, monkeypatch, *, holding: threading.Event | None = None):
    """Run ``calls`` at once in threads; return each one's result or exception.
    ``holding`` is set when a transition starts holding the row lock."""
    original = workflow._transition

    def slow_transition(*args, **kwargs):
        if holding is not None:
            holding.set()
        time.sleep(PAUSE_S)  # hold the row lock while the other thread tries
        return original(*args, **kwargs)

    monkeypatch.setattr(workflow, "_transition", slow_transition)
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as exc:
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


def test_a_raw_write_racing_an_approval_waits_for_it_and_is_refused(reviewer, supervisor, monkeypatch):
    """The database's approved-work trigger reads the parent assessment ``FOR SHARE``: an
    UPDATE of a scenario sent while the approval holds the row waits for it to commit,
    then sees the assessment approved and is refused. Without that lock it would read
    "submitted" and change the approved work's scenario as the approval commits."""
    from django.db import IntegrityError

    from assessments.models import Scenario

    assessment = submitted(reviewer)
    scenario = assessment.scenarios.get()
    holding = threading.Event()

    def raw_update():
        assert holding.wait(timeout=10)  # sent while the approval holds the row, before it writes
        with connection.cursor() as cursor:
            cursor.execute("UPDATE assessments_scenario SET title = 'Changed' WHERE id = %s", [scenario.pk])

    outcomes = race(
        [lambda: workflow.assessment_approve(assessment=assessment, by=supervisor), raw_update],
        monkeypatch,
        holding=holding,
    )
    assert isinstance(outcomes[0], Assessment), outcomes
    assert isinstance(outcomes[1], IntegrityError), outcomes
    assert "is approved and final" in str(outcomes[1])
    assert Scenario.objects.get(pk=scenario.pk).title == scenario.title
