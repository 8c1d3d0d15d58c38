"""Writes of the review calendar and the assignment. Each service checks the permission
(``calendar_review.permissions``), validates with the models' own ``full_clean()``, runs in
one transaction with the calendar's row locked, and brings the stored due date up to date
(``ReviewCalendar.refresh_due``), so a refused or invalid call writes nothing. Error
messages are module constants so tests can assert the exact text. Every row keeps its
history (django-simple-history), with the reason given as the change reason."""

from __future__ import annotations

from datetime import date
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from assessments import events
from assessments.limits import text_error
from assessments.models import Assessment, Submission, refresh_latest_assessment
from assessments.permissions import EDITABLE_STATUSES
from assessments.services import history_note

from . import permissions
from .models import REASON_LIMIT, REASON_REQUIRED, Extension, ReviewCalendar, Suspension, person, review_days

RECORD_NOT_ALLOWED = "You may not change this case's review calendar."
ASSIGN_NOT_ALLOWED = "Only a supervisor may assign a case's engineer."
ENGINEER_NOT_ELIGIBLE = (
    "{name} cannot be this case's engineer: choose an active reviewer or supervisor"
    " (cleared for CBI when the case is CBI)."
)
ALREADY_ENDED = "This suspension has already ended."
REASSIGNED_REVISION = "Engineer reassigned by {by}: {reason}"


def calendar_defaults(submission: Submission) -> dict[str, Any]:
    """What a case's calendar holds before anyone records anything: received the day the
    case was entered, the settings' review period."""
    return {
        "received_on": timezone.localdate(submission.created_at),
        "period_days": review_days(),
    }


def _locked_calendar(submission: Submission, by: User) -> ReviewCalendar:
    """The case's calendar, made now if it has none, with its row locked. The case's row
    is locked first, as the review workflow locks it (``assessments.workflow``), so a
    reassignment and a status change wait for each other instead of crossing."""
    Submission.objects.select_for_update().filter(pk=submission.pk).values_list("pk").first()
    calendar = ReviewCalendar.objects.filter(submission=submission).first()
    if calendar is None:
        calendar = ReviewCalendar(submission=submission, **calendar_defaults(submission))
        calendar.refresh_due()
        calendar.full_clean(exclude=["submission"])
        history_note(calendar, by=by, reason="Review calendar started")
        calendar.save()
    return ReviewCalendar.objects.select_for_update().select_related("submission").get(pk=calendar.pk)


def _save_due(calendar: ReviewCalendar, *, by: User, reason: str) -> None:
    calendar.refresh_due()
    history_note(calendar, by=by, reason=reason)
    calendar.save()


def _check_record(by: User, submission: Submission) -> None:
    if not permissions.can_record(by, submission):
        raise PermissionDenied(RECORD_NOT_ALLOWED)


@transaction.atomic
def calendar_update(*, submission: Submission, by: User, received_on: date, period_days: int) -> ReviewCalendar:
    """Set the case's received date and review period."""
    _check_record(by, submission)
    calendar = _locked_calendar(submission, by)
    calendar.received_on, calendar.period_days = received_on, period_days
    calendar.full_clean(exclude=["submission"])
    _save_due(calendar, by=by, reason="Received date or review period changed")
    return calendar


RecordT = TypeVar("RecordT", Suspension, Extension)


def _save_record(record: RecordT, calendar: ReviewCalendar, *, by: User, reason: str) -> RecordT:
    """Validate and save a suspension or an extension with its history reason, then the
    calendar's due date, which it moves."""
    record.full_clean(exclude=["calendar", "recorded_by"])
    history_note(record, by=by, reason=reason)
    record.save()
    _save_due(calendar, by=by, reason=reason)
    return record


@transaction.atomic
def suspension_add(*, submission: Submission, by: User, starts_on: date, ends_on: date | None, reason: str) -> Suspension:
    """Record a suspension of the review period (``ends_on`` ``None``: still open)."""
    _check_record(by, submission)
    calendar = _locked_calendar(submission, by)
    suspension = Suspension(calendar=calendar, starts_on=starts_on, ends_on=ends_on, reason=reason, recorded_by=by)
    return _save_record(suspension, calendar, by=by, reason="Suspension recorded")


@transaction.atomic
def suspension_end(*, suspension: Suspension, by: User, ends_on: date) -> Suspension:
    """Close an open suspension on ``ends_on`` (its last day)."""
    submission = suspension.calendar.submission
    _check_record(by, submission)
    calendar = _locked_calendar(submission, by)
    suspension = Suspension.objects.get(pk=suspension.pk, calendar=calendar)
    if suspension.ends_on is not None:
        raise ValidationError({"ends_on": ALREADY_ENDED})
    suspension.ends_on = ends_on
    return _save_record(suspension, calendar, by=by, reason="Suspension ended")


@transaction.atomic
def extension_add(*, submission: Submission, by: User, granted_on: date, days: int, reason: str) -> Extension:
    """Record an extension of the review period by ``days`` calendar days."""
    _check_record(by, submission)
    calendar = _locked_calendar(submission, by)
    extension = Extension(calendar=calendar, granted_on=granted_on, days=days, reason=reason, recorded_by=by)
    return _save_record(extension, calendar, by=by, reason="Extension recorded")


@transaction.atomic
def engineer_assign(*, submission: Submission, engineer: User, by: User, reason: str) -> ReviewCalendar:
    """Assign (or reassign) the case to ``engineer``. The case's latest revision, when it
    is a draft or returned, becomes ``engineer``'s too, so they can edit and submit it; a
    submitted or approved revision keeps the engineer who wrote it. The reason is kept as
    the change reason of the calendar's and the revision's history."""
    if not permissions.can_assign(by, submission):
        raise PermissionDenied(ASSIGN_NOT_ALLOWED)
    errors: dict[str, str] = {}
    if not permissions.may_be_assigned(engineer, submission):
        errors["engineer"] = ENGINEER_NOT_ELIGIBLE.format(name=person(engineer))
    message = text_error(reason or "", label="The reason", limit=REASON_LIMIT)
    if message or not (reason or "").strip():
        errors["reason"] = message or REASON_REQUIRED
    if errors:
        raise ValidationError(errors)
    calendar = _locked_calendar(submission, by)
    previous_engineer_id = calendar.assigned_engineer_id
    calendar.assigned_engineer = engineer
    history_note(calendar, by=by, reason=reason)
    calendar.save()
    latest = (
        Assessment.objects.select_for_update().filter(submission=submission).order_by("-revision").first()
    )
    if latest is not None and latest.status in EDITABLE_STATUSES and latest.engineer_id != engineer.pk:
        latest.engineer = engineer
        history_note(latest, by=by, reason=_short(REASSIGNED_REVISION.format(by=person(by), reason=reason)))
        latest.save()
        refresh_latest_assessment(submission_ids=[submission.pk])
    if previous_engineer_id != engineer.pk:
        events.assigned.send(sender=ReviewCalendar, submission=submission, engineer=engineer, assessment=latest, by=by)
    return calendar


def _short(text: str, limit: int = 100) -> str:
    """A change reason for a history whose reason column holds ``limit`` characters (the
    assessments'); the full reason stays on the calendar's history."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
