"""The copy of each case's review calendar on its own row (``Submission.CALENDAR_FIELDS``),
which every list sorted or filtered by due date reads: written when the case is entered
(its default due date) and whenever its calendar is written, by one writer
(``calendar_review.models.refresh_case_due``), never by a stale instance of the case, and
kept out of the case's history; an import derives it, never taking the file's."""

from __future__ import annotations

import io
import os
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from assessments import transfer
from assessments.models import Submission
from calendar_review import services
from calendar_review.models import ReviewCalendar, Suspension, refresh_case_due, review_days
from calendar_review.selectors import default_calendar
from tests.conftest import make_submission

from .conftest import received

pytestmark = pytest.mark.django_db


def copy(case: Submission) -> tuple:
    row = Submission.objects.get(pk=case.pk)
    return row.due_on, row.clock_stopped_on, row.calendar_recorded, row.assigned_engineer_id


def calendar_copy(case: Submission) -> tuple:
    calendar = ReviewCalendar.objects.get(submission=case)
    return calendar.due_on, calendar.clock_stopped_on, True, calendar.assigned_engineer_id


def default_copy(case: Submission) -> tuple:
    entered = timezone.localdate(Submission.objects.get(pk=case.pk).created_at)
    return entered + timedelta(days=review_days()), None, False, None


def test_a_case_entered_has_its_default_due_date(settings):
    settings.PMN_REVIEW_DAYS = 75
    case = make_submission()
    assert copy(case) == default_copy(case)
    assert copy(case)[0] == timezone.localdate() + timedelta(days=75)


def test_every_write_of_the_calendar_is_copied_onto_the_case(reviewer, supervisor, other_reviewer, today):
    case = make_submission()
    received(case, days_ago=30, period=60, by=reviewer)
    assert copy(case) == calendar_copy(case) and copy(case)[0] == today + timedelta(days=30)
    services.extension_add(submission=case, by=reviewer, granted_on=today, days=10, reason="The submitter's request.")
    assert copy(case) == calendar_copy(case) and copy(case)[0] == today + timedelta(days=40)
    suspension = services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=2),
                                         ends_on=None, reason="Waiting for test data.")
    assert copy(case) == calendar_copy(case) and copy(case)[1] == today - timedelta(days=2)
    services.suspension_end(suspension=suspension, by=reviewer, ends_on=today)
    assert copy(case) == calendar_copy(case) and copy(case)[1] is None
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="Workload.")
    assert copy(case) == calendar_copy(case) and copy(case)[3] == other_reviewer.pk


def test_deleting_the_calendar_gives_the_case_its_default_due_date_again(reviewer):
    case = make_submission()
    received(case, days_ago=30, period=60, by=reviewer)
    assert copy(case)[2] is True
    ReviewCalendar.objects.get(submission=case).delete()
    assert copy(case) == default_copy(case)


def test_a_stale_instance_of_the_case_never_writes_its_copy_back(reviewer):
    case = make_submission()
    stale = Submission.objects.get(pk=case.pk)
    received(case, days_ago=30, period=60, by=reviewer)
    stale.chemical_name = "Amended name"
    stale.save()
    assert copy(case) == calendar_copy(case)


def test_the_copy_is_not_in_the_case_history(reviewer):
    case = make_submission()
    before = case.history.count()
    received(case, days_ago=30, period=60, by=reviewer)
    assert case.history.count() == before


def test_an_imported_case_has_its_default_due_date_not_the_files_copy(reviewer):
    """The export carries the case's row as stored (the copy too, as it carries the copy of
    the latest assessment); the import derives both, never taking the file's."""
    case = make_submission()
    received(case, days_ago=30, period=60, by=reviewer)
    document = transfer.case_export(case_number=case.case_number)
    assert document["case"]["calendar_recorded"] is True
    ReviewCalendar.objects.filter(submission=case).delete()
    case.delete()
    imported = transfer.case_import(document=transfer.loads(transfer.dumps(document), source="test"))
    assert copy(imported) == default_copy(imported)


def test_refresh_due_dates_gives_cases_without_a_calendar_the_period_in_force(settings, reviewer):
    """A changed PMN_REVIEW_DAYS reaches the cases already entered without a calendar when
    the command is run (until then they keep the period in force when entered); a recorded
    calendar's due date is its own."""
    settings.PMN_REVIEW_DAYS = 90
    fresh, recorded = make_submission(case_number="P-26-0201"), make_submission(case_number="P-26-0202")
    received(recorded, days_ago=30, period=60, by=reviewer)
    settings.PMN_REVIEW_DAYS = 45
    assert copy(fresh)[0] == timezone.localdate(fresh.created_at) + timedelta(days=90)
    out = io.StringIO()
    call_command("refresh_due_dates", stdout=out)
    assert copy(fresh) == default_copy(fresh) and copy(fresh)[0] == timezone.localdate(fresh.created_at) + timedelta(days=45)
    assert copy(recorded) == calendar_copy(recorded)
    assert out.getvalue().strip() == "Due dates copied for 2 case(s); the default review period is 45 days."


# Over every sequence of the calendar's writes -------------------------------------------------

OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("record"), st.integers(0, 400), st.integers(1, 365)),
    st.tuples(st.just("extend"), st.integers(1, 365)),
    st.tuples(st.just("suspend"), st.integers(0, 60)),
    st.tuples(st.just("end"), st.integers(0, 10)),
    st.tuples(st.just("assign"), st.booleans()),
    st.tuples(st.just("delete")),
), min_size=1, max_size=8)


@examples(max_examples=int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4")) * 10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations=OPERATIONS)
def test_after_any_sequence_of_writes_the_copy_is_the_calendars(operations, reviewer, supervisor, other_reviewer):
    """Whatever the calendar's services accept or refuse, in any order, and a calendar
    deleted: the case's copy is its calendar's, or the default one without a calendar."""
    case = make_submission()
    today = timezone.localdate()
    for operation in operations:
        kind, *args = operation
        try:
            if kind == "record":
                services.calendar_update(submission=case, by=reviewer, received_on=today - timedelta(days=args[0]),
                                         period_days=args[1])
            elif kind == "extend":
                services.extension_add(submission=case, by=reviewer, granted_on=today, days=args[0],
                                       reason="The submitter's request.")
            elif kind == "suspend":
                services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=args[0]),
                                        ends_on=None, reason="Waiting for test data.")
            elif kind == "end":
                suspension = Suspension.objects.filter(calendar__submission=case, ends_on__isnull=True).first()
                if suspension is not None:
                    services.suspension_end(suspension=suspension, by=reviewer,
                                            ends_on=max(suspension.starts_on, today - timedelta(days=args[0])))
            elif kind == "assign":
                services.engineer_assign(submission=case, engineer=other_reviewer if args[0] else reviewer,
                                         by=supervisor, reason="Workload.")
            else:
                ReviewCalendar.objects.filter(submission=case).delete()
        except ValidationError:
            pass  # refused: nothing written (the services' rule), and the copy still the calendar's
        recorded = ReviewCalendar.objects.filter(submission=case).exists()
        assert copy(case) == (calendar_copy(case) if recorded else default_copy(case)), operations


@examples(max_examples=int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4")) * 10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entered=st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2035, 12, 31),
                            timezones=st.just(UTC)),
       days=st.integers(1, 365))
def test_the_default_due_date_in_the_database_is_the_calendars_default(entered, days, settings):
    """The default due date is written twice over, in SQL for the copy on the case
    (``models.default_due_expression``) and in Python for the calendar a case starts with
    (``selectors.default_calendar``): the same day for any time of entry (a time near
    midnight in the site's zone, whatever UTC says) and any default period."""
    settings.PMN_REVIEW_DAYS = days
    case = make_submission()
    Submission.objects.filter(pk=case.pk).update(created_at=entered)
    refresh_case_due(submission_ids=[case.pk])
    stored = Submission.objects.get(pk=case.pk)
    assert stored.due_on == default_calendar(stored).due_on == timezone.localdate(entered) + timedelta(days=days)
