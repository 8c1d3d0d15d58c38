"""Reads of the review calendar: one case's calendar for its page, the due state of a case
in a list, the case list's due-date filter, the due-date list (keyset paged by due date)
and the home page's "my work". Visibility is ``assessments.selectors.visible_submissions``:
a CBI case, and so its calendar, exists only for users cleared for CBI.

A case whose calendar nobody has recorded yet is due on its default date: the day it was
entered plus the default review period (``settings.PMN_REVIEW_DAYS``), as its page shows
(``services.calendar_defaults``). Every list, filter, sort and flag counts that date,
labelled as the default, until a calendar is recorded: in the database, the due date of a
case is :func:`with_due`'s annotation, the stored ``due_on`` or else the default one."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import (
    DateField,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.db.models.functions import Cast, Coalesce, TruncDate
from django.utils import timezone

from assessments.models import Assessment, Status, Submission
from assessments.selectors import visible_submissions, visible_to

from . import permissions
from .due import days_left, suspended_days
from .models import ReviewCalendar, Suspension
from .services import calendar_defaults, review_days


def person(user) -> str:
    """A user as every page of the review calendar and the case list names them: the full
    name, or the user name for a user without one; an em dash for nobody."""
    if user is None:
        return "—"
    return user.get_full_name() or user.get_username()


def due_soon_days() -> int:
    """Days before the due date a case counts as due soon (``settings.PMN_DUE_SOON_DAYS``)."""
    return int(getattr(settings, "PMN_DUE_SOON_DAYS", 14))


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
    today = today or timezone.localdate()
    if default:
        state = due_state(calendar, latest_status=latest_status, today=today)
        return dataclasses.replace(state, basis=DEFAULT_BASIS.format(days=calendar.period_days))
    due_on = calendar.due_on
    if calendar.clock_stopped_on is not None:
        due_on = due_on + timedelta(days=suspended_days(calendar.clock_stopped_on, None, today=today))
    left = days_left(due_on, today=today)
    if latest_status == Status.APPROVED:
        return DueState(COMPLETE, "Review approved", due_on, left)
    if calendar.clock_stopped_on is not None:
        return DueState(
            STOPPED, f"Clock stopped since {calendar.clock_stopped_on:%Y-%m-%d}; {_days(left)} left",
            due_on, left, calendar.clock_stopped_on,
        )
    if left < 0:
        return DueState(OVERDUE, f"Overdue by {_days(-left)}", due_on, left)
    if left == 0:
        return DueState(DUE_SOON, "Due today", due_on, left)
    if left <= due_soon_days():
        return DueState(DUE_SOON, f"Due soon: {_days(left)} left", due_on, left)
    return DueState(ON_TIME, f"{_days(left)} left", due_on, left)


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def case_due_state(case: Submission, *, today: date | None = None) -> DueState:
    """The case's due state: from its recorded calendar, else from the default period."""
    calendar = calendar_of(case)
    if calendar is None:
        return due_state(default_calendar(case), latest_status=case.latest_status, today=today, default=True)
    return due_state(calendar, latest_status=case.latest_status, today=today)


def case_engineer(case: Submission):
    """The case's engineer: the one assigned on its calendar, else its latest revision's."""
    calendar = calendar_of(case)
    if calendar is not None and calendar.assigned_engineer_id is not None:
        return calendar.assigned_engineer
    return case.latest_engineer


# The case list's due-date filter --------------------------------------------------------------

DUE_OVERDUE, DUE_WITHIN, DUE_STOPPED, DUE_NOT_SET = "overdue", "within", "stopped", "none"
DUE_CHOICES = [
    ("", "Any due date"),
    (DUE_OVERDUE, "Overdue"),
    (DUE_WITHIN, "Due within N days"),
    (DUE_STOPPED, "Clock stopped (suspended)"),
    (DUE_NOT_SET, "Default period (no review calendar recorded)"),
]

#: The name of :func:`with_due`'s annotation: a case's due date without an open suspension.
DUE = "due_on_effective"


def default_due_expression(created_at: str = "created_at") -> Cast:
    """A case's default due date in the database: the day it was entered (in the site's
    time zone, as ``services.calendar_defaults`` reads it) plus the default period;
    ``created_at``: the path to the case's field (``submission__created_at`` from its assessment)."""
    return Cast(TruncDate(created_at) + timedelta(days=review_days()), output_field=DateField())


def with_due(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """``cases`` with each one's due date as :data:`DUE`: its calendar's stored ``due_on``,
    else the default one (:func:`default_due_expression`); one expression in the same
    query, no query per row. An open suspension is not in it (the filters treat a stopped
    clock apart)."""
    return cases.annotate(**{DUE: Coalesce(F("review_calendar__due_on"), default_due_expression(),
                                           output_field=DateField())})


def with_calendars(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """``cases`` with each one's calendar and assigned engineer read in the same query, and
    its due date (:func:`with_due`)."""
    return with_due(cases.select_related("review_calendar", "review_calendar__assigned_engineer"))


def with_due_per_case(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """``cases`` with each one's due date as :data:`DUE` (as :func:`with_due` gives it),
    whether its clock is stopped (``clock_stopped``) and its calendar's assigned engineer's
    id (``assigned_engineer_id``, ``None`` without one), each read from the case's own
    calendar through its key (one index probe a case) instead of joining every calendar:
    what the lists sorted or filtered by due date read over the open cases
    (``submission_open_newest_first``), the calendars of the page's cases read afterwards
    (:func:`with_page_calendars`)."""
    calendar = ReviewCalendar.objects.filter(submission=OuterRef("pk"))
    return cases.annotate(**{
        DUE: Coalesce(Subquery(calendar.values("due_on")[:1]), default_due_expression(), output_field=DateField()),
        "clock_stopped": Exists(calendar.filter(clock_stopped_on__isnull=False)),
        "assigned_engineer_id": Subquery(calendar.values("assigned_engineer")[:1]),
    })


def with_page_calendars(cases: list[Submission]) -> list[Submission]:
    """The cases of one page (read :func:`with_due_per_case`) with their calendars and
    assigned engineers (two queries, whatever the page's length), as :func:`due_row` reads them."""
    prefetch_related_objects(cases, "review_calendar__assigned_engineer")
    return cases


def open_cases(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """Cases whose review is not approved yet: the ones a due date still binds."""
    return cases.exclude(latest_status=Status.APPROVED)


def _overdue(today: date) -> Q:
    """Of cases read :func:`with_due`: past the due date, the clock running."""
    return Q(review_calendar__clock_stopped_on__isnull=True, **{f"{DUE}__lt": today})


def _due_within(today: date, days: int) -> Q:
    """Of cases read :func:`with_due`: due from today to ``days`` from now, the clock running."""
    return Q(review_calendar__clock_stopped_on__isnull=True,
             **{f"{DUE}__gte": today, f"{DUE}__lte": today + timedelta(days=days)})


def filter_by_due(
    cases: QuerySet[Submission], *, due: str = "", within: int | None = None, today: date | None = None
) -> QuerySet[Submission]:
    """``cases`` narrowed by due date: ``overdue`` (past the due date, not approved),
    ``within`` (due from today to ``within`` days from now, not approved; overdue ones
    not included), ``stopped`` (a suspension open), ``none`` (no calendar recorded: due on
    the default date). A case whose clock is stopped is neither due nor overdue while it
    stays stopped. The due date of a case with no calendar is its default one."""
    today = today or timezone.localdate()
    if DUE not in cases.query.annotations:
        cases = with_due(cases)
    if due == DUE_OVERDUE:
        return open_cases(cases).filter(_overdue(today))
    if due == DUE_WITHIN:
        return open_cases(cases).filter(_due_within(today, due_soon_days() if within is None else within))
    if due == DUE_STOPPED:
        return open_cases(cases).filter(review_calendar__clock_stopped_on__isnull=False)
    if due == DUE_NOT_SET:
        # NOT EXISTS, not the join's IS NULL: the database then knows it for an anti-join
        # and reads the list's index in order until a page is found.
        return cases.filter(~Exists(ReviewCalendar.objects.filter(submission=OuterRef("pk"))))
    return cases


# One case's calendar, for its page ------------------------------------------------------------


def open_suspension(*, submission: Submission) -> Suspension | None:
    """The case's suspension still open, if any (the case was read through
    ``submission_get``, which 404s a case the user may not see)."""
    return Suspension.objects.filter(calendar__submission=submission, ends_on__isnull=True).first()


def calendar_or_defaults(submission: Submission) -> ReviewCalendar:
    """The case's calendar, or (not saved) the one it would start with."""
    calendar = ReviewCalendar.objects.filter(submission=submission).select_related("assigned_engineer").first()
    return calendar if calendar is not None else default_calendar(submission)


def case_calendar(*, user, submission: Submission, today: date | None = None) -> dict:
    """Everything the case page's "Review calendar" section shows. ``submission`` was read
    through ``submission_get`` (the view's 404 for a case the user may not see); asked
    again here so the section shows nothing for such a case whoever renders it."""
    if not permissions.may_see(user, submission):
        return {"visible": False}
    today = today or timezone.localdate()
    preview = calendar_or_defaults(submission)
    calendar = preview if preview.pk else None
    if calendar is None:
        suspensions, extensions, assignments = [], [], []
    else:
        suspensions = list(calendar.suspensions.select_related("recorded_by"))
        extensions = list(calendar.extensions.select_related("recorded_by"))
        assignments = assignment_history(calendar=calendar)
    state = due_state(preview, latest_status=submission.latest_status, today=today, default=calendar is None)
    for s in suspensions:
        s.days = suspended_days(s.starts_on, s.ends_on, today=today)
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


def assignment_history(*, calendar: ReviewCalendar) -> list[dict]:
    """Each assignment of the case, newest first: who to, by whom, when, why."""
    records = list(
        calendar.history.select_related("history_user").order_by("history_date", "history_id")
    )
    rows, previous = [], None
    for record in records:
        if record.assigned_engineer_id != previous and record.assigned_engineer_id is not None:
            rows.append({"record": record, "at": record.history_date, "by": person(record.history_user),
                         "reason": record.history_change_reason or "", "engineer_id": record.assigned_engineer_id})
        previous = record.assigned_engineer_id
    names = {u.pk: person(u) for u in get_user_model().objects.filter(pk__in={r["engineer_id"] for r in rows})}
    for row in rows:
        row["engineer"] = names.get(row["engineer_id"], "(deleted user)")
    return rows[::-1]


def assignable_engineers(*, submission: Submission) -> QuerySet:
    """The users a case may be assigned to (``permissions.may_be_assigned``), by name."""
    from assessments.roles import CBI_PERMISSION

    User = get_user_model()
    backend = "django.contrib.auth.backends.ModelBackend"
    users = User.objects.with_perm(permissions.ENGINEER_PERMISSION, is_active=True, backend=backend)
    if submission.is_cbi:
        users = users.filter(pk__in=User.objects.with_perm(CBI_PERMISSION, is_active=True, backend=backend))
    return users.order_by("last_name", "first_name", User.USERNAME_FIELD)


# The due-date list: every open case with a due date, soonest first, keyset paged ---------------

BAD_DUE_PLACE = "This page link is not one the due-date list makes: showing the first page."


class BadDuePlace(ValueError):
    pass


@dataclass(frozen=True)
class DuePlace:
    """A case's place in the due-date list: due date, then case id (both ascending)."""

    due_on: date
    pk: int

    def __str__(self) -> str:
        return f"{self.due_on:%Y-%m-%d},{self.pk}"

    @classmethod
    def parse(cls, text: str) -> DuePlace:
        day, comma, pk = text.partition(",")
        if not comma or not (pk.isascii() and pk.isdigit()) or len(pk) > 18:
            raise BadDuePlace(BAD_DUE_PLACE)
        try:
            return cls(date.fromisoformat(day), int(pk))
        except ValueError:
            raise BadDuePlace(BAD_DUE_PLACE) from None

    def later(self) -> Q:
        return Q(**{f"{DUE}__gte": self.due_on}) & (Q(**{f"{DUE}__gt": self.due_on}) | Q(pk__gt=self.pk))

    def earlier(self) -> Q:
        return Q(**{f"{DUE}__lte": self.due_on}) & (Q(**{f"{DUE}__lt": self.due_on}) | Q(pk__lt=self.pk))


@dataclass
class DuePage:
    object_list: list[Submission]
    earlier: DuePlace | None  # the first row's place when there are rows before it
    later: DuePlace | None  # the last row's place when there are rows after it


def due_cases(*, user, mine: bool = False) -> QuerySet[Submission]:
    """The open cases ``user`` may see whose clock is running (a stopped clock has no fixed
    due date), read :func:`with_due` (a case with no calendar recorded is due on its
    default date); ``mine``: the user's cases only. :func:`due_page` orders them."""
    cases = open_cases(with_due_per_case(visible_submissions(user=user))).filter(clock_stopped=False)
    if mine:
        cases = cases.filter(_mine_case(user))
    return cases.select_related("latest_engineer")


def due_row(case: Submission, *, today: date | None = None) -> dict:
    """One case of a due-date list: the case, its calendar (recorded, else the default one),
    its due state and its engineer. ``case`` was read :func:`with_calendars`, or is on a
    page given :func:`with_page_calendars` (no query)."""
    return {"case": case, "calendar": calendar_of(case) or default_calendar(case),
            "due": case_due_state(case, today=today), "engineer": case_engineer(case)}


def due_page(calendars: QuerySet, *, params: Mapping[str, str], size: int,
             calendars_too: bool = True) -> tuple[DuePage, str]:
    """The page of cases (:func:`due_cases`) the link's ``after``/``before`` asks for,
    soonest due first, and a problem with the link (``""``: none); the rows' calendars read
    for the page (:func:`with_page_calendars`) unless not ``calendars_too`` (rows that
    are not cases: the review queue's assessments, annotated :data:`DUE`)."""
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
        rows = list(calendars.filter(before.earlier()).order_by(f"-{DUE}", "-id")[: size + 1])
        more, rows = len(rows) > size, rows[:size][::-1]
        if calendars_too:
            with_page_calendars(rows)
        if rows:
            return DuePage(rows, _place(rows[0]) if more else None, _place(rows[-1])), problem
        after = None
    query = calendars.filter(after.later()) if after is not None else calendars
    rows = list(query.order_by(DUE, "id")[: size + 1])
    more, rows = len(rows) > size, rows[:size]
    if calendars_too:
        with_page_calendars(rows)
    return DuePage(rows, _place(rows[0]) if after is not None and rows else None,
                   _place(rows[-1]) if more else None), problem


def _place(case: Submission) -> DuePlace:
    return DuePlace(getattr(case, DUE), case.pk)


# Home: my work --------------------------------------------------------------------------------

#: Rows per list on the home page; the due-date list has them all.
MY_WORK_ROWS = 10



def _mine_case(user) -> Q:
    """Of cases read :func:`with_due_per_case`: assigned to ``user`` on the calendar, else
    theirs as the latest revision's engineer."""
    return Q(assigned_engineer_id=user.pk) | Q(assigned_engineer_id__isnull=True, latest_engineer=user)


def my_work(*, user, today: date | None = None) -> dict:
    """The home page's lists for ``user``: the open cases assigned to them (on the
    calendar, else as the latest revision's engineer), their revisions returned to them,
    their cases due soon or overdue, and for supervisors the whole team's due soon and
    overdue cases. Each list at most :data:`MY_WORK_ROWS` rows, from three queries however
    many cases there are: the open cases' places (read once from their index,
    ``submission_open_newest_first``, each one's calendar through its key: what every list
    is chosen from), the rows shown, and the returned revisions (their own index,
    ``assessment_returned_newest``)."""
    from assessments.roles import is_supervisor

    today = today or timezone.localdate()
    soon = due_soon_days()
    last_urgent_day = today + timedelta(days=soon)  # overdue or due soon: due by then
    places = open_cases(with_due_per_case(visible_submissions(user=user))).values_list(
        DUE, "created_at", "pk", "clock_stopped", "assigned_engineer_id", "latest_engineer_id")
    mine, team_urgent = [], []
    for due_on, created_at, pk, stopped, assigned_id, engineer_id in places:
        urgent = not stopped and due_on <= last_urgent_day
        if assigned_id == user.pk or (assigned_id is None and engineer_id == user.pk):
            mine.append((due_on, -created_at.timestamp(), -pk, pk, urgent))
        if urgent:
            team_urgent.append((due_on, pk))
    mine.sort()  # soonest due first, then newest first, as the case list
    lists = {
        "assigned": [m[3] for m in mine],
        "due_soon": [pk for _, pk in sorted((m[0], m[3]) for m in mine if m[4])],
    }
    supervisor = is_supervisor(user)
    if supervisor:
        lists["team_due"] = [pk for _, pk in sorted(team_urgent)]
    shown = {pk for listed in lists.values() for pk in listed[:MY_WORK_ROWS]}
    cases = with_calendars(Submission.objects.filter(pk__in=shown)).select_related("latest_engineer").in_bulk()
    returned = (
        Assessment.objects.filter(visible_to(user=user, case="submission__"), engineer=user, status=Status.RETURNED)
        .select_related("submission").order_by("-updated_at", "-id")
    )
    work = {"today": today, "soon_days": soon, "returned": list(returned[:MY_WORK_ROWS]), "is_supervisor": supervisor}
    for name, listed in lists.items():
        work[name] = {"rows": [due_row(cases[pk], today=today) for pk in listed[:MY_WORK_ROWS]],
                      "more": len(listed) > MY_WORK_ROWS}
    return work
