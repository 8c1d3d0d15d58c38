"""The models' clean(): every way in (the services, hence the pages) refuses the same
things, with the exact messages, and writes nothing."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from calendar_review import models, services
from calendar_review.models import Extension, ReviewCalendar, Suspension

from .conftest import received

pytestmark = pytest.mark.django_db


def errors_of(call) -> dict:
    with pytest.raises(ValidationError) as info:
        call()
    return info.value.message_dict


def test_a_reason_with_a_nul_character_is_refused(case, reviewer, today):
    received(case, days_ago=20, by=reviewer)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=today, ends_on=None, reason="a\x00b"))
    assert errors["reason"] == ["The reason must not contain NUL characters."]
    errors = errors_of(lambda: services.extension_add(
        submission=case, by=reviewer, granted_on=today, days=5, reason="\x00"))
    assert errors["reason"] == ["The reason must not contain NUL characters."]
    assert not Suspension.objects.exists() and not Extension.objects.exists()


@pytest.mark.parametrize("reason", ["", "   "])
def test_reasons_are_required(case, reviewer, today, reason):
    received(case, days_ago=20, by=reviewer)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=today, ends_on=None, reason=reason))
    assert models.REASON_REQUIRED in errors["reason"]
    errors = errors_of(lambda: services.extension_add(
        submission=case, by=reviewer, granted_on=today, days=5, reason=reason))
    assert models.REASON_REQUIRED in errors["reason"]


def test_a_suspension_ending_before_it_begins_is_refused(case, reviewer, today):
    received(case, days_ago=20, by=reviewer)
    start = today - timedelta(days=5)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=start, ends_on=start - timedelta(days=1), reason="Test data"))
    assert errors["ends_on"] == [models.SUSPENSION_ENDS_BEFORE_START.format(end=start - timedelta(days=1), start=start)]


def test_a_suspension_before_receipt_is_refused(case, reviewer, today):
    calendar = received(case, days_ago=20, by=reviewer)
    day = calendar.received_on - timedelta(days=1)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=day, ends_on=None, reason="Test data"))
    assert errors["starts_on"] == [models.SUSPENSION_BEFORE_RECEIPT.format(day=day, received=calendar.received_on)]


def test_a_suspension_beginning_in_the_future_is_refused(case, reviewer, today):
    received(case, days_ago=20, by=reviewer)
    day = today + timedelta(days=1)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=day, ends_on=None, reason="Test data"))
    assert errors["starts_on"] == [models.SUSPENSION_IN_FUTURE.format(day=day)]


@pytest.mark.parametrize("start, end", [(8, 2), (12, 8), (5, 5), (12, None)])
def test_overlapping_suspensions_are_refused(case, reviewer, today, start, end):
    """An existing suspension from 10 to 5 days ago; the new one shares a day with it."""
    received(case, days_ago=30, by=reviewer)
    first = services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=10),
                                    ends_on=today - timedelta(days=5), reason="First")
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=today - timedelta(days=start),
        ends_on=None if end is None else today - timedelta(days=end), reason="Second"))
    assert errors["starts_on"] == [models.SUSPENSION_OVERLAPS.format(start=first.starts_on, to=f"to {first.ends_on}")]
    assert Suspension.objects.count() == 1


def test_an_open_suspension_overlaps_any_later_one(case, reviewer, today):
    received(case, days_ago=30, by=reviewer)
    services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=10), ends_on=None,
                            reason="Open")
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=today, ends_on=None, reason="Another"))
    assert "(still open)" in errors["starts_on"][0]


def test_adjacent_suspensions_are_accepted(case, reviewer, today):
    received(case, days_ago=30, by=reviewer)
    services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=10),
                            ends_on=today - timedelta(days=6), reason="First")
    services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=5),
                            ends_on=today - timedelta(days=1), reason="Second")
    calendar = ReviewCalendar.objects.get(submission=case)
    assert calendar.due_on == calendar.received_on + timedelta(days=90 + 10)


def test_a_suspension_after_the_due_date_is_refused(case, reviewer, today):
    calendar = received(case, days_ago=40, period=30, by=reviewer)
    errors = errors_of(lambda: services.suspension_add(
        submission=case, by=reviewer, starts_on=today, ends_on=None, reason="Late"))
    assert errors["starts_on"] == [models.SUSPENSION_AFTER_DUE.format(day=today, due=calendar.due_on)]


@pytest.mark.parametrize("days", [0, -3, 366])
def test_extension_days_must_be_positive_and_at_most_a_year(case, reviewer, today, days):
    received(case, days_ago=20, by=reviewer)
    errors = errors_of(lambda: services.extension_add(
        submission=case, by=reviewer, granted_on=today, days=days, reason="TSCA 5(c)"))
    assert "days" in errors
    assert not Extension.objects.exists()


def test_an_extension_before_receipt_is_refused(case, reviewer, today):
    calendar = received(case, days_ago=20, by=reviewer)
    day = calendar.received_on - timedelta(days=1)
    errors = errors_of(lambda: services.extension_add(
        submission=case, by=reviewer, granted_on=day, days=30, reason="TSCA 5(c)"))
    assert errors["granted_on"] == [models.EXTENSION_BEFORE_RECEIPT.format(day=day, received=calendar.received_on)]


def test_a_received_date_in_the_future_is_refused(case, reviewer, today):
    day = today + timedelta(days=1)
    errors = errors_of(lambda: services.calendar_update(submission=case, by=reviewer, received_on=day, period_days=90))
    assert errors["received_on"] == [models.RECEIVED_IN_FUTURE.format(day=day)]


@pytest.mark.parametrize("period", [0, 366])
def test_the_review_period_is_one_day_to_a_year(case, reviewer, today, period):
    errors = errors_of(lambda: services.calendar_update(
        submission=case, by=reviewer, received_on=today, period_days=period))
    assert "period_days" in errors


def test_the_received_date_cannot_move_after_a_recorded_suspension(case, reviewer, today):
    received(case, days_ago=30, by=reviewer)
    start = today - timedelta(days=10)
    services.suspension_add(submission=case, by=reviewer, starts_on=start, ends_on=None, reason="Data")
    errors = errors_of(lambda: services.calendar_update(
        submission=case, by=reviewer, received_on=today - timedelta(days=5), period_days=90))
    assert errors["received_on"] == [models.RECEIVED_AFTER_ENTRY.format(
        day=today - timedelta(days=5), kind="suspension", first=start)]


def test_the_database_refuses_a_suspension_ending_before_it_begins(case, reviewer, today):
    from django.db import IntegrityError, transaction

    calendar = received(case, days_ago=30, by=reviewer)
    with pytest.raises(IntegrityError), transaction.atomic():
        Suspension.objects.create(calendar=calendar, starts_on=today, ends_on=today - timedelta(days=1), reason="x")
