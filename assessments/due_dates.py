"""A case's due date as the lists read it: the copy of its review calendar on the case's own
row (``Submission.CALENDAR_FIELDS``: the due date without an open suspension, the first
day of an open suspension, whether a calendar is recorded, the assigned engineer; written
by the calendar app alone, ``calendar_review.models.refresh_case_due``), so that every list
sorted or filtered by due date reads one of the case table's indexes and stops after a page.

Here: the open cases (not approved: the ones a due date binds), the case list's due-date
filter, each engineer's cases (:data:`responsible`: the assigned engineer, else the latest
revision's) and the due-date order's pages by place, which the due-date list
(``calendar_review``) and the review queue (``review``) share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Generic, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from .engine_marks import with_older_engine_mark
from .models import Status, Submission
from .selectors import split_place

#: The case's field the due-date order reads (``Submission.due_on``).
DUE = "due_on"


def due_soon_days() -> int:
    """Days before the due date a case counts as due soon (``settings.PMN_DUE_SOON_DAYS``)."""
    return int(getattr(settings, "PMN_DUE_SOON_DAYS", 14))


def open_cases(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """Cases whose review is not approved yet: the ones a due date still binds, each row
    marked when its open revision has a use computed by an older engine (the lists' mark:
    ``engine_marks.with_older_engine_mark``, one ``EXISTS`` in the rows' own query)."""
    return with_older_engine_mark(cases.exclude(latest_status=Status.APPROVED))


def running(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """Cases whose clock runs (no suspension open): the ones whose due date is fixed."""
    return cases.filter(clock_stopped_on__isnull=True)


def responsible() -> Coalesce:
    """A case's engineer in the database: the one assigned on its calendar, else its latest
    revision's; the expression the index ``submission_engineer_due_first`` holds."""
    return Coalesce(F("assigned_engineer"), F("latest_engineer"))


def of_engineer(cases: QuerySet[Submission], user: User | AnonymousUser) -> QuerySet[Submission]:
    """``cases`` whose engineer (:func:`responsible`) is ``user``."""
    return cases.alias(engineer_id=responsible()).filter(engineer_id=user.pk)


# The case list's due-date filter --------------------------------------------------------------

DUE_OVERDUE, DUE_WITHIN, DUE_STOPPED, DUE_NOT_SET = "overdue", "within", "stopped", "none"
DUE_CHOICES = [
    ("", "Any due date"),
    (DUE_OVERDUE, "Overdue"),
    (DUE_WITHIN, "Due within N days"),
    (DUE_STOPPED, "Clock stopped (suspended)"),
    (DUE_NOT_SET, "Default period (no review calendar recorded)"),
]
#: The most days "Due within N days" looks ahead: a year.
WITHIN_MAX_DAYS = 365


def filter_by_due(
    cases: QuerySet[Submission], *, due: str = "", within: int | None = None, today: date | None = None
) -> QuerySet[Submission]:
    """``cases`` narrowed by due date: ``overdue`` (past the due date, not approved),
    ``within`` (due from today to ``within`` days from now, not approved; overdue ones
    not included; :func:`due_soon_days` when not given), ``stopped`` (a suspension open,
    not approved), ``none`` (no calendar recorded: due on the default date). A case whose
    clock is stopped is neither due nor overdue while it stays stopped."""
    today = today or timezone.localdate()
    if due == DUE_OVERDUE:
        return running(open_cases(cases)).filter(due_on__lt=today)
    if due == DUE_WITHIN:
        days = due_soon_days() if within is None else within
        return running(open_cases(cases)).filter(due_on__gte=today, due_on__lte=today + timedelta(days=days))
    if due == DUE_STOPPED:
        return open_cases(cases).filter(clock_stopped_on__isnull=False)
    if due == DUE_NOT_SET:
        return cases.filter(calendar_recorded=False)
    return cases


# Pages in due-date order, by place ------------------------------------------------------------

BAD_DUE_PLACE = "This page link is not one the due-date list makes: showing the first page."


class BadDuePlace(ValueError):
    pass


@dataclass(frozen=True)
class DuePlace:
    """A case's place in a due-date order: due date, then case id (both ascending)."""

    due_on: date
    pk: int

    def __str__(self) -> str:
        return f"{self.due_on:%Y-%m-%d},{self.pk}"

    @classmethod
    def parse(cls, text: str) -> DuePlace:
        parts = split_place(text)
        if parts is None:
            raise BadDuePlace(BAD_DUE_PLACE)
        try:
            return cls(date.fromisoformat(parts[0]), parts[1])
        except ValueError:
            raise BadDuePlace(BAD_DUE_PLACE) from None

    def later(self) -> Q:
        return Q(due_on__gte=self.due_on) & (Q(due_on__gt=self.due_on) | Q(pk__gt=self.pk))

    def earlier(self) -> Q:
        return Q(due_on__lte=self.due_on) & (Q(due_on__lt=self.due_on) | Q(pk__lt=self.pk))


Row = TypeVar("Row", bound=models.Model)


@dataclass
class DuePage(Generic[Row]):
    object_list: list[Row]
    earlier: DuePlace | None  # the first row's place when there are rows before it
    later: DuePlace | None  # the last row's place when there are rows after it


def _place(case: Submission) -> DuePlace:
    if case.due_on is None:  # written with the case (calendar_review.receivers): never left empty
        raise ValueError(f"Case {case.pk} has no due date copied from its calendar.")
    return DuePlace(case.due_on, case.pk)


def due_page(cases: QuerySet[Submission], *, params: Mapping[str, str], size: int) -> tuple[DuePage[Submission], str]:
    """The page of ``cases`` the link's ``after``/``before`` asks for, soonest due first
    (due date, then id), and a problem with the link (``""``: none). Read from an index in
    that order and stopped after one page (``submission_open_due_first``,
    ``submission_review_due_first``)."""
    problem = ""
    after = before = None
    try:
        if params.get("after"):
            after = DuePlace.parse(params["after"])
        elif params.get("before"):
            before = DuePlace.parse(params["before"])
    except BadDuePlace as exc:
        problem, after, before = str(exc), None, None
    if before is not None:
        rows = list(cases.filter(before.earlier()).order_by(f"-{DUE}", "-id")[: size + 1])
        more, rows = len(rows) > size, rows[:size][::-1]
        if rows:
            return DuePage(rows, _place(rows[0]) if more else None, _place(rows[-1])), problem
        after = None
    query = cases.filter(after.later()) if after is not None else cases
    rows = list(query.order_by(DUE, "id")[: size + 1])
    more, rows = len(rows) > size, rows[:size]
    return DuePage(rows, _place(rows[0]) if after is not None and rows else None,
                   _place(rows[-1]) if more else None), problem
