"""Reads of the review calendar: one case's calendar for its page, the due state of a case
in a list, the case list's due-date filter, the due-date list (keyset paged by due date)
and the home page's "my work". Visibility is ``assessments.selectors.visible_submissions``:
a CBI case, and so its calendar, exists only for users cleared for CBI.

A case whose calendar nobody has recorded yet is due on its default date: the day it was
entered plus the default review period (``settings.PMN_REVIEW_DAYS``), as its page shows
(``services.calendar_defaults``). Every list, filter, sort and flag counts that date,
labelled as the default, until a calendar is recorded: in the database, the due date of a
case is the copy on its own row (``Submission.due_on``, written by
``models.refresh_case_due``), which the lists read through the case table's indexes
(``assessments.due_dates``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet, prefetch_related_objects
from django.utils import timezone

from assessments.due_dates import due_soon_days, of_engineer, open_cases, running
from assessments.models import Assessment, Status, Submission
from assessments.permissions import may_see
from assessments.roles import CBI_PERMISSION, is_supervisor
from assessments.selectors import visible_submissions, visible_to

from . import permissions
from .due import days_left, suspended_days
from .models import Extension, ReviewCalendar, Suspension, person, review_days
from .services import calendar_defaults

# One case's due state -------------------------------------------------------------------------

NONE, COMPLETE, STOPPED, OVERDUE, DUE_SOON, ON_TIME = "none", "complete", "stopped", "overdue", "due-soon", "on-time"


@dataclass(frozen=True)
class DueState:
    """Where a case stands against its due date, as the pages show it: ``state`` (one of
    the constants above, for styling), ``text`` (the words, so colour is never the only
    sign), the due date as of today and the days left."""

    state: str
    text: str
    due_on: date | None = None
    days_left: int | None = None
    clock_stopped_on: date | None = None
    #: How the due date was found, when it is not a recorded calendar's: "default 90-day period".
    basis: str = ""

    @property
    def days_over(self) -> int:
        """Days past the due date (0 before it)."""
        return max(0, -(self.days_left or 0))

    @property
    def flagged(self) -> bool:
        return self.state in (OVERDUE, DUE_SOON)


def calendar_of(case: Submission) -> ReviewCalendar | None:
    """The case's calendar, or ``None`` when nothing has been recorded yet."""
    try:
        return case.review_calendar
    except ObjectDoesNotExist:
        return None


#: How a due date from the default period is labelled wherever it is shown.
DEFAULT_BASIS = "default {days}-day period"


def default_calendar(case: Submission) -> ReviewCalendar:
    """The calendar a case starts with, not saved: received the day it was entered, the
    default review period (no query). The case keeps no link to it (``calendar_of(case)``
    still says no calendar is recorded)."""
    calendar = ReviewCalendar(submission_id=case.pk, **calendar_defaults(case))
    ReviewCalendar.submission.field.set_cached_value(calendar, case)  # not case.review_calendar
    calendar.refresh_due()
    return calendar


def due_state(calendar: ReviewCalendar | None, *, latest_status: str, today: date | None = None,
              default: bool = False) -> DueState:
    """The due state of a case from its stored calendar (no query); ``default``: the
    calendar is the one the case would start with (:func:`default_calendar`), not recorded."""
    if calendar is None:
        return DueState(NONE, "No review calendar yet")
    basis = DEFAULT_BASIS.format(days=calendar.period_days) if default else ""
    return _state(calendar.due_on, calendar.clock_stopped_on, latest_status=latest_status, today=today, basis=basis)


def _state(fixed_due: date, clock_stopped_on: date | None, *, latest_status: str, today: date | None,
           basis: str) -> DueState:
    """The due state from a due date without an open suspension and that suspension's
    first day (a calendar's, or the copy of it on the case)."""
    today = today or timezone.localdate()
    due_on = fixed_due
    if clock_stopped_on is not None:
        due_on = due_on + timedelta(days=suspended_days(clock_stopped_on, None, today=today))
    left = days_left(due_on, today=today)
    if latest_status == Status.APPROVED:
        return DueState(COMPLETE, "Review approved", due_on, left, basis=basis)
    if clock_stopped_on is not None:
        return DueState(
            STOPPED, f"Clock stopped since {clock_stopped_on:%Y-%m-%d}; {_days(left)} left",
            due_on, left, clock_stopped_on, basis=basis,
        )
    if left < 0:
        return DueState(OVERDUE, f"Overdue by {_days(-left)}", due_on, left, basis=basis)
    if left == 0:
        return DueState(DUE_SOON, "Due today", due_on, left, basis=basis)
    if left <= due_soon_days():
        return DueState(DUE_SOON, f"Due soon: {_days(left)} left", due_on, left, basis=basis)
    return DueState(ON_TIME, f"{_days(left)} left", due_on, left, basis=basis)


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def case_due_state(case: Submission, *, today: date | None = None) -> DueState:
    """The case's due state from the copy of its calendar on its row (no query): its
    recorded calendar's, else the default period's, labelled so."""
    if case.due_on is None:  # written with the case (receivers): never left empty
        raise ValueError(f"Case {case.pk} has no due date copied from its calendar.")
    basis = "" if case.calendar_recorded else DEFAULT_BASIS.format(days=review_days())
    return _state(case.due_on, case.clock_stopped_on, latest_status=case.latest_status, today=today, basis=basis)


def case_engineer(case: Submission) -> User | None:
    """The case's engineer: the one assigned on its calendar, else its latest revision's
    (the copy on the case: ``assessments.due_dates.responsible``)."""
    return case.assigned_engineer if case.assigned_engineer_id is not None else case.latest_engineer


# One case's calendar, for its page ------------------------------------------------------------


def open_suspension(*, submission: Submission) -> Suspension | None:
    """The case's suspension still open, if any (the case was read through
    ``submission_get``, which 404s a case the user may not see)."""
    return Suspension.objects.filter(calendar__submission=submission, ends_on__isnull=True).first()


def calendar_or_defaults(submission: Submission) -> ReviewCalendar:
    """The case's calendar, or (not saved) the one it would start with."""
    calendar = ReviewCalendar.objects.filter(submission=submission).select_related("assigned_engineer").first()
    return calendar if calendar is not None else default_calendar(submission)


@dataclass(frozen=True)
class SuspensionRow:
    """One suspension as the case page lists it, with its days counted as of the page's
    day (an open one's so far: :func:`calendar_review.due.suspended_days`)."""

    starts_on: date
    ends_on: date | None
    days: int
    reason: str
    recorded_by: User | None
    recorded_at: datetime

    @classmethod
    def of(cls, suspension: Suspension, *, today: date) -> SuspensionRow:
        return cls(
            starts_on=suspension.starts_on, ends_on=suspension.ends_on,
            days=suspended_days(suspension.starts_on, suspension.ends_on, today=today),
            reason=suspension.reason, recorded_by=suspension.recorded_by, recorded_at=suspension.recorded_at,
        )


def case_calendar(*, user: User | AnonymousUser, submission: Submission, today: date | None = None) -> dict[str, Any]:
    """Everything the case page's "Review calendar" section shows. ``submission`` was read
    through ``submission_get`` (the view's 404 for a case the user may not see); asked
    again here so the section shows nothing for such a case whoever renders it."""
    if not may_see(user, submission):
        return {"visible": False}
    today = today or timezone.localdate()
    preview = calendar_or_defaults(submission)
    calendar = preview if preview.pk else None
    suspensions: list[SuspensionRow] = []
    extensions: list[Extension] = []
    assignments: list[dict[str, Any]] = []
    if calendar is not None:
        suspensions = [SuspensionRow.of(s, today=today) for s in calendar.suspensions.select_related("recorded_by")]
        extensions = list(calendar.extensions.select_related("recorded_by"))
        assignments = assignment_history(calendar=calendar)
    state = due_state(preview, latest_status=submission.latest_status, today=today, default=calendar is None)
    return {
        "visible": True,
        "submission": submission,
        "calendar": preview,
        "recorded": calendar is not None,
        "state": state,
        "suspensions": suspensions,
        "extensions": extensions,
        "suspended_total": sum(s.days for s in suspensions),
        "extension_total": sum(e.days for e in extensions),
        "engineer": preview.assigned_engineer if calendar is not None and calendar.assigned_engineer_id
        else submission.latest_engineer,
        "assigned": calendar is not None and calendar.assigned_engineer_id is not None,
        "assignments": assignments,
        "can_record": permissions.can_record(user, submission),
        "can_assign": permissions.can_assign(user, submission),
    }


def assignment_history(*, calendar: ReviewCalendar) -> list[dict[str, Any]]:
    """Each assignment of the case, newest first: who to, by whom, when, why."""
    records = list(
        calendar.history.select_related("history_user").order_by("history_date", "history_id")
    )
    rows: list[dict[str, Any]] = []
    previous: int | None = None
    for record in records:
        if record.assigned_engineer_id != previous and record.assigned_engineer_id is not None:
            rows.append({"record": record, "at": record.history_date, "by": person(record.history_user),
                         "reason": record.history_change_reason or "", "engineer_id": record.assigned_engineer_id})
        previous = record.assigned_engineer_id
    names = {u.pk: person(u) for u in get_user_model().objects.filter(pk__in={r["engineer_id"] for r in rows})}
    for row in rows:
        row["engineer"] = names.get(row["engineer_id"], "(deleted user)")
    return rows[::-1]


def assignable_engineers(*, submission: Submission) -> QuerySet[User]:
    """The users a case may be assigned to (``permissions.may_be_assigned``), by name."""
    user_model = get_user_model()
    backend = "django.contrib.auth.backends.ModelBackend"
    users = user_model.objects.with_perm(permissions.ENGINEER_PERMISSION, is_active=True, backend=backend)
    if submission.is_cbi:
        users = users.filter(pk__in=user_model.objects.with_perm(CBI_PERMISSION, is_active=True, backend=backend))
    return users.order_by("last_name", "first_name", user_model.USERNAME_FIELD)


# The due-date list: every open case with a due date, soonest first, keyset paged ---------------

def due_cases(*, user: User | AnonymousUser, mine: bool = False) -> QuerySet[Submission]:
    """The open cases ``user`` may see whose clock is running (a stopped clock has no fixed
    due date; a case with no calendar recorded is due on its default date); ``mine``: the
    user's cases only. ``assessments.due_dates.due_page`` orders them."""
    cases = running(open_cases(visible_submissions(user=user)))
    if mine:
        cases = of_engineer(cases, user)
    return cases.select_related("latest_engineer", "assigned_engineer")


def with_page_calendars(cases: list[Submission]) -> list[Submission]:
    """The cases of one page with their calendars (one query, whatever the page's length),
    as :func:`due_row` reads them."""
    prefetch_related_objects(cases, "review_calendar")
    return cases


def due_row(case: Submission, *, today: date | None = None) -> dict[str, Any]:
    """One case of a due-date list: the case, its calendar (recorded, else the default one),
    its due state and its engineer. ``case`` is on a page given :func:`with_page_calendars`
    (no query)."""
    return {"case": case, "calendar": calendar_of(case) or default_calendar(case),
            "due": case_due_state(case, today=today), "engineer": case_engineer(case)}


# Home: my work --------------------------------------------------------------------------------

#: Rows per list on the home page; the due-date list has them all.
MY_WORK_ROWS = 10



def my_work(*, user: User | AnonymousUser, today: date | None = None) -> dict[str, Any]:
    """The home page's lists for ``user``: the open cases assigned to them (on the
    calendar, else as the latest revision's engineer), their revisions returned to them,
    their cases due soon or overdue, and for supervisors the whole team's due soon and
    overdue cases. Each list at most :data:`MY_WORK_ROWS` rows (and whether there are
    more), each read from an index in its own order and stopped after a page, however
    many cases there are (``submission_engineer_due_first``, ``submission_open_due_first``,
    ``assessment_returned_newest``)."""
    today = today or timezone.localdate()
    soon = due_soon_days()
    last_urgent_day = today + timedelta(days=soon)  # overdue or due soon: due by then
    visible_open = open_cases(visible_submissions(user=user)).select_related("latest_engineer", "assigned_engineer")
    mine = of_engineer(visible_open, user)
    lists = {
        "assigned": list(mine.order_by("due_on", "-created_at", "-id")[: MY_WORK_ROWS + 1]),
        "due_soon": list(running(mine).filter(due_on__lte=last_urgent_day).order_by("due_on", "id")
                         [: MY_WORK_ROWS + 1]),
    }
    supervisor = is_supervisor(user)
    if supervisor:
        lists["team_due"] = list(running(visible_open).filter(due_on__lte=last_urgent_day).order_by("due_on", "id")
                                 [: MY_WORK_ROWS + 1])
    # An anonymous user has no pk, and visible_to admits no case for them: the list is empty.
    returned = (
        Assessment.objects.filter(visible_to(user=user, case="submission__"), engineer_id=user.pk,
                                  status=Status.RETURNED)
        .select_related("submission").order_by("-updated_at", "-id")
    )
    work: dict[str, Any] = {"today": today, "soon_days": soon, "returned": list(returned[:MY_WORK_ROWS]),
                            "is_supervisor": supervisor}
    with_page_calendars([case for listed in lists.values() for case in listed[:MY_WORK_ROWS]])
    for name, listed in lists.items():
        work[name] = {"rows": [due_row(case, today=today) for case in listed[:MY_WORK_ROWS]],
                      "more": len(listed) > MY_WORK_ROWS}
    return work
