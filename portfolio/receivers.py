"""The portfolio's ledger follows every write its records are made from: a case, a revision,
a use, a review decision or a calendar saved or deleted, however (the services, the admin,
an import's ``save()``), and the copies on the cases written in bulk
(``assessments.models.case_rows_refreshed``). Each refreshes the case's records once the
writer's transaction has committed (``ledger.later``); a bulk copy of every case rebuilds the
ledger at once (``ledger.rebuild``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from assessments.models import (
    DUE_COPIED,
    Assessment,
    ReviewDecision,
    Scenario,
    Submission,
    case_rows_refreshed,
)
from calendar_review.models import ReviewCalendar

from . import ledger
from .models import CaseRecord


def case_written(sender: type[Submission], instance: Submission, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        ledger.later([instance.pk])


def revision_written(sender: type[Assessment], instance: Assessment, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        ledger.later([instance.submission_id])


def row_of_revision_written(sender: type[Any], instance: Scenario | ReviewDecision, **kwargs: Any) -> None:
    """A use or a review decision: its revision's case (a revision deleted with its uses is
    already gone: its own signal refreshes the case)."""
    if kwargs.get("raw"):
        return
    case_id = Assessment.objects.filter(pk=instance.assessment_id).values_list("submission_id", flat=True).first()
    if case_id is not None:
        ledger.later([case_id])


def calendar_written(sender: type[ReviewCalendar], instance: ReviewCalendar, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        ledger.later([instance.submission_id])


def rows_refreshed(sender: type[Submission], submission_ids: list[int] | None, what: str, **kwargs: Any) -> None:
    """The copies on cases written in one UPDATE: those cases again, or every one (the due
    dates alone when only they were written)."""
    if submission_ids is not None:
        ledger.later(submission_ids)
    else:
        ledger.rebuild(due_only=what == DUE_COPIED)


def ledger_missing(**kwargs: Any) -> None:
    """After ``migrate``: a database that holds cases but no ledger yet (one upgraded to the
    version that adds the portfolio) has its ledger built from the history, once."""
    if Submission.objects.exists() and not CaseRecord.objects.exists():
        ledger.rebuild()


RECEIVERS = ((Submission, case_written), (Assessment, revision_written), (Scenario, row_of_revision_written),
             (ReviewDecision, row_of_revision_written), (ReviewCalendar, calendar_written))


def connect() -> None:
    for model, receiver in RECEIVERS:
        name = model.__name__.lower()
        post_save.connect(receiver, sender=model, dispatch_uid=f"portfolio.{name}_saved")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"portfolio.{name}_deleted")
    case_rows_refreshed.connect(rows_refreshed, sender=Submission, dispatch_uid="portfolio.case_rows_refreshed")


def disconnect() -> None:
    """The ledger stops following writes until :func:`connect` (``manage.py portfolio
    rebuild`` brings it up to date after): a bulk load that need not keep it meanwhile, such
    as the query-plan tests' seeds of tens of thousands of cases."""
    for model, _ in RECEIVERS:
        name = model.__name__.lower()
        post_save.disconnect(sender=model, dispatch_uid=f"portfolio.{name}_saved")
        post_delete.disconnect(sender=model, dispatch_uid=f"portfolio.{name}_deleted")
    case_rows_refreshed.disconnect(sender=Submission, dispatch_uid="portfolio.case_rows_refreshed")
