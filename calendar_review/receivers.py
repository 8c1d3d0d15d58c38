"""What the review calendar does when a case or a calendar is written: the copy of the
calendar on the case (``models.refresh_case_due``) is brought up to date in the same
transaction, so every list reads a due date. A case entered however (the case form, the
admin, an import's raw save, ``loaddata``) gets its default due date; a calendar saved or
deleted however (its services, the admin, a queryset's delete, a raw save) is copied."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from assessments.models import Submission

from .models import ReviewCalendar, refresh_case_due


def case_entered(sender: type[Submission], instance: Submission, created: bool, **kwargs: Any) -> None:
    """A new case: its default due date written on its row."""
    if created:
        refresh_case_due(submission_ids=[instance.pk])


def calendar_written(sender: type[ReviewCalendar], instance: ReviewCalendar, **kwargs: Any) -> None:
    """A calendar saved or deleted: copied onto its case (the default due date once deleted)."""
    refresh_case_due(submission_ids=[instance.submission_id])


def connect() -> None:
    post_save.connect(case_entered, sender=Submission, dispatch_uid="calendar_review.case_entered")
    post_save.connect(calendar_written, sender=ReviewCalendar, dispatch_uid="calendar_review.calendar_saved")
    post_delete.connect(calendar_written, sender=ReviewCalendar, dispatch_uid="calendar_review.calendar_deleted")
