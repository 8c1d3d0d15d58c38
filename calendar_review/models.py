"""The review calendar of a case: when the notice was received, the review period, the
suspensions and extensions recorded against it, the due date they give, and the engineer
the case is assigned to.

One :class:`ReviewCalendar` per case, made the first time anything is recorded on it
(``services``); until then every page counts the defaults (received the day the case was
entered, ``settings.PMN_REVIEW_DAYS``): the case page, the case list, the due-date list and
the home page show that due date, labelled as the default (``selectors.case_due_state``).

The due date is stored (``due_on``) so the lists can filter and sort by it in the
database. It counts every closed suspension and every extension; a suspension still open
is kept apart (``clock_stopped_on``, the day it began), since its length grows each day:
the due date as of a day is ``due_on`` plus the open suspension's days so far
(:func:`calendar_review.due.suspended_days`). :meth:`ReviewCalendar.refresh_due` alone
writes both, from the rows; the services call it after every write. Saving or deleting a
calendar copies it onto its case (:func:`refresh_case_due`, the copy's one writer, through
``receivers``: ``Submission.CALENDAR_FIELDS``), which every list reads.

Validation lives in ``clean()`` (the services call ``full_clean()``): no NUL character,
reasons given, dates in order, suspensions not overlapping, extensions of at least a day.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.db.models.functions import Cast, Coalesce, TruncDate
from django.utils import timezone
from simple_history.models import HistoricalRecords

from assessments.limits import text_error
from assessments.models import DUE_COPIED, Submission, case_rows_refreshed
from assessments.models.case_fields import EARLIEST_DATE, DateRange

from .due import Span, due_date

#: The earliest received date accepted: TSCA took effect on 1 January 1977 (the earliest
#: date of the review, declared once: ``case_fields.EARLIEST_DATE``).
EARLIEST_RECEIVED = EARLIEST_DATE
#: The range of a suspension's last day, the one date of the calendar that may lie ahead
#: of today (the others are refused in the future by ``clean()``).
SUSPENSION_END = DateRange("The suspension's last day")
#: The longest review period, extension or suspension one entry may give [days]: a year.
MAX_PERIOD_DAYS = 365
#: Characters in a reason.
REASON_LIMIT = 2_000

RECEIVED_IN_FUTURE = "The received date {day} is in the future: give the day EPA received the notice."
RECEIVED_TOO_EARLY = "The received date {day} is before 1977: check the year."
RECEIVED_AFTER_ENTRY = "The received date {day} is after the {kind} of {first}, already recorded: check the dates."
PERIOD_OUT_OF_RANGE = "The review period must be a whole number of days from 1 to {limit}."
REASON_REQUIRED = "Give the reason."
SUSPENSION_BEFORE_RECEIPT = "A suspension cannot begin ({day}) before the notice was received ({received})."
SUSPENSION_IN_FUTURE = "A suspension is recorded when it begins: {day} is in the future."
SUSPENSION_ENDS_BEFORE_START = "The suspension's last day ({end}) is before its first day ({start})."
SUSPENSION_AFTER_DUE = (
    "A suspension must begin within the review period: {day} is after the due date ({due})."
)
SUSPENSION_OVERLAPS = "This suspension overlaps the one from {start} {to}: suspensions may not overlap."
EXTENSION_DAYS_OUT_OF_RANGE = "An extension must be a whole number of days from 1 to {limit}."
EXTENSION_BEFORE_RECEIPT = "An extension cannot be granted ({day}) before the notice was received ({received})."
EXTENSION_IN_FUTURE = "The date the extension was granted, {day}, is in the future."


def person(user: User | None) -> str:
    """A user as every page of the review calendar and the case list names them: the full
    name, or the user name for a user without one; an em dash for nobody."""
    if user is None:
        return "—"
    return user.get_full_name() or user.get_username()


def review_days() -> int:
    """The review period a new calendar starts with (``settings.PMN_REVIEW_DAYS``)."""
    return int(getattr(settings, "PMN_REVIEW_DAYS", 90))


def default_due_expression(created_at: str = "created_at") -> Cast:
    """A case's default due date in the database: the day it was entered (in the site's
    time zone, as ``services.calendar_defaults`` reads it) plus the default period."""
    return Cast(TruncDate(created_at) + timedelta(days=review_days()), output_field=models.DateField())


def refresh_case_due(*, submission_ids: Iterable[int] | None = None) -> None:
    """Copy each case's calendar onto the case (``Submission.CALENDAR_FIELDS``): its due
    date without an open suspension, the first day of an open suspension, that a calendar
    is recorded, and its assigned engineer; for a case with no calendar, the default due
    date (:func:`default_due_expression`) and nothing else. ``None``: every case.

    The one writer of those fields, called when a case is entered and whenever its calendar
    is saved or deleted (``receivers``: the model signals, so every way of writing is
    followed), and by whoever loads cases in bulk (``benchmarks/seed.py``).
    One UPDATE that reads the calendars in the same statement, as
    ``assessments.models.refresh_latest_assessment`` does; no history record (derived fields)."""
    calendar = ReviewCalendar.objects.filter(submission=OuterRef("pk"))
    ids = None if submission_ids is None else list(submission_ids)
    cases = Submission.objects.all()
    if ids is not None:
        cases = cases.filter(pk__in=ids)
    cases.update(
        due_on=Coalesce(Subquery(calendar.values("due_on")[:1]), default_due_expression(),
                        output_field=models.DateField()),
        clock_stopped_on=Subquery(calendar.values("clock_stopped_on")[:1]),
        calendar_recorded=Exists(calendar),
        assigned_engineer=Subquery(calendar.values("assigned_engineer")[:1]),
    )
    case_rows_refreshed.send(sender=Submission, submission_ids=ids, what=DUE_COPIED)


def _today() -> date:
    return timezone.localdate()


def _reason_errors(value: str, errors: dict[str, str]) -> None:
    message = text_error(value or "", label="The reason", limit=REASON_LIMIT)
    if message:
        errors["reason"] = message
    elif not (value or "").strip():
        errors["reason"] = REASON_REQUIRED


class ReviewCalendar(models.Model):
    """A case's review period and who it is assigned to."""

    submission = models.OneToOneField(
        Submission, verbose_name="case", on_delete=models.PROTECT, related_name="review_calendar"
    )
    received_on = models.DateField("received", help_text="The day EPA received the notice.")
    period_days = models.PositiveIntegerField(
        "review period (days)", help_text="Calendar days from receipt. TSCA gives 90 days for a PMN."
    )
    due_on = models.DateField(
        "due", editable=False,
        help_text="Received + period + extensions + closed suspensions (an open suspension is added as it runs).",
    )
    clock_stopped_on = models.DateField(
        "clock stopped since", null=True, blank=True, editable=False,
        help_text="The first day of the suspension still open, if any.",
    )
    assigned_engineer = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="assigned engineer", on_delete=models.PROTECT,
        related_name="assigned_calendars", null=True, blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        verbose_name = "review calendar"
        permissions = [("assign_engineer", "Can assign or reassign a case's engineer")]
        indexes = [
            models.Index(fields=["due_on", "id"], name="calendar_due_first"),
            models.Index(fields=["assigned_engineer", "due_on"], name="calendar_engineer_due"),
            # The few calendars whose clock is stopped: the case list's "Clock stopped"
            # filter reads them, not every calendar (migration 0003).
            models.Index(
                fields=["submission"], condition=Q(clock_stopped_on__isnull=False), name="calendar_clock_stopped",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(period_days__gte=1, period_days__lte=MAX_PERIOD_DAYS), name="calendar_period_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Review calendar of {self.submission.case_number}"

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        if self.received_on is not None:
            if self.received_on > _today():
                errors["received_on"] = RECEIVED_IN_FUTURE.format(day=self.received_on)
            elif self.received_on < EARLIEST_RECEIVED:
                errors["received_on"] = RECEIVED_TOO_EARLY.format(day=self.received_on)
            elif self.pk is not None:
                first = self._first_entry()
                if first is not None and first[1] < self.received_on:
                    errors["received_on"] = RECEIVED_AFTER_ENTRY.format(
                        day=self.received_on, kind=first[0], first=first[1]
                    )
        if self.period_days is not None and not 1 <= self.period_days <= MAX_PERIOD_DAYS:
            errors["period_days"] = PERIOD_OUT_OF_RANGE.format(limit=MAX_PERIOD_DAYS)
        if errors:
            raise ValidationError(errors)

    def _first_entry(self) -> tuple[str, date] | None:
        dates = [("suspension", d) for d in self.suspensions.values_list("starts_on", flat=True)]
        dates += [("extension", d) for d in self.extensions.values_list("granted_on", flat=True)]
        return min(dates, key=lambda item: item[1]) if dates else None

    def spans(self, *, exclude_pk: int | None = None) -> list[Span]:
        rows = self.suspensions.exclude(pk=exclude_pk) if exclude_pk else self.suspensions.all()
        return [Span(s.starts_on, s.ends_on) for s in rows.order_by("starts_on")]

    def fixed_due(self, *, spans: list[Span] | None = None, extension_days: list[int] | None = None) -> date:
        """The due date counting the closed suspensions and the extensions (not an open one)."""
        spans = self.spans() if spans is None else spans
        if extension_days is None:
            extension_days = list(self.extensions.values_list("days", flat=True)) if self.pk else []
        return due_date(
            self.received_on, period_days=self.period_days, extension_days=extension_days,
            suspensions=[s for s in spans if s.ends_on is not None], today=_today(),
        )

    def refresh_due(self) -> None:
        """Set ``due_on`` and ``clock_stopped_on`` from the rows (the caller saves)."""
        spans = self.spans() if self.pk else []
        self.due_on = self.fixed_due(spans=spans)
        self.clock_stopped_on = next((s.starts_on for s in spans if s.ends_on is None), None)



class Suspension(models.Model):
    """The review period suspended from one day to another (40 CFR 720.75(b))."""

    calendar = models.ForeignKey(ReviewCalendar, on_delete=models.CASCADE, related_name="suspensions")
    starts_on = models.DateField("suspended from", help_text="The first day the clock is stopped.")
    ends_on = models.DateField(
        "suspended to", null=True, blank=True, validators=[SUSPENSION_END],
        help_text="The last day the clock is stopped (counted). Leave empty while the suspension is open.",
    )
    reason = models.TextField("reason", help_text="e.g. the submitter's request of 2026-03-01, to send test data.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="suspension_dates_in_order",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="suspension_reason_not_blank"),
        ]

    def __str__(self) -> str:
        return f"Suspended {self.starts_on} to {self.ends_on or '(open)'}"

    @property
    def is_open(self) -> bool:
        return self.ends_on is None

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        _reason_errors(self.reason, errors)
        calendar = self.calendar
        if self.starts_on is not None:
            if self.starts_on > _today():
                errors["starts_on"] = SUSPENSION_IN_FUTURE.format(day=self.starts_on)
            elif self.starts_on < calendar.received_on:
                errors["starts_on"] = SUSPENSION_BEFORE_RECEIPT.format(day=self.starts_on, received=calendar.received_on)
            if self.ends_on is not None and self.ends_on < self.starts_on:
                errors["ends_on"] = SUSPENSION_ENDS_BEFORE_START.format(end=self.ends_on, start=self.starts_on)
        if self.starts_on is not None and not errors:
            others = calendar.spans(exclude_pk=self.pk) if calendar.pk else []
            for other in others:
                if _overlap(self.starts_on, self.ends_on, other.starts_on, other.ends_on):
                    to = f"to {other.ends_on}" if other.ends_on else "(still open)"
                    errors["starts_on"] = SUSPENSION_OVERLAPS.format(start=other.starts_on, to=to)
                    break
            else:
                due = calendar.fixed_due(spans=others)
                if self.starts_on > due:
                    errors["starts_on"] = SUSPENSION_AFTER_DUE.format(day=self.starts_on, due=due)
        if errors:
            raise ValidationError(errors)


def _overlap(a_start: date, a_end: date | None, b_start: date, b_end: date | None) -> bool:
    """Whether two inclusive spans share a day (an open end runs on for ever).

    >>> _overlap(date(2026, 3, 1), date(2026, 3, 10), date(2026, 3, 10), None)
    True
    >>> _overlap(date(2026, 3, 1), date(2026, 3, 10), date(2026, 3, 11), date(2026, 3, 12))
    False
    """
    return (a_end is None or b_start <= a_end) and (b_end is None or a_start <= b_end)


class Extension(models.Model):
    """The review period extended by a number of days (TSCA 5(c), 40 CFR 720.75(c))."""

    calendar = models.ForeignKey(ReviewCalendar, on_delete=models.CASCADE, related_name="extensions")
    granted_on = models.DateField("granted on", help_text="The day the extension was granted.")
    days = models.PositiveIntegerField("days", help_text="Calendar days added to the review period.")
    reason = models.TextField("reason")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["granted_on", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(days__gte=1, days__lte=MAX_PERIOD_DAYS), name="extension_days_in_range"),
            models.CheckConstraint(condition=~Q(reason=""), name="extension_reason_not_blank"),
        ]

    def __str__(self) -> str:
        return f"Extended {self.days} days on {self.granted_on}"

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        _reason_errors(self.reason, errors)
        if self.days is not None and not 1 <= self.days <= MAX_PERIOD_DAYS:
            errors["days"] = EXTENSION_DAYS_OUT_OF_RANGE.format(limit=MAX_PERIOD_DAYS)
        if self.granted_on is not None:
            if self.granted_on > _today():
                errors["granted_on"] = EXTENSION_IN_FUTURE.format(day=self.granted_on)
            elif self.granted_on < self.calendar.received_on:
                errors["granted_on"] = EXTENSION_BEFORE_RECEIPT.format(
                    day=self.granted_on, received=self.calendar.received_on
                )
        if errors:
            raise ValidationError(errors)
