"""The due date's arithmetic (calendar_review.due): TSCA counts calendar days.
Every expected date is counted by hand in the comment beside it."""

from datetime import date, timedelta

from calendar_review.due import Span, days_left, due_date, suspended_days


def test_ninety_calendar_days_from_receipt():
    # Received 2 Jan 2026: 29 days to 31 Jan, +28 (Feb) = 57, +31 (Mar) = 88, +2 = 2 Apr.
    assert due_date(date(2026, 1, 2), today=date(2026, 1, 2)) == date(2026, 4, 2)


def test_weekends_do_not_matter():
    # Received on a Friday and on the Saturday after: due dates one day apart, the second
    # a Friday, and a Sunday receipt falls due on a Saturday (4 Apr 2026), not moved.
    friday, saturday, sunday = date(2026, 1, 2), date(2026, 1, 3), date(2026, 1, 4)
    assert saturday.weekday() == 5 and sunday.weekday() == 6
    assert due_date(saturday, today=saturday) - due_date(friday, today=friday) == timedelta(days=1)
    assert due_date(sunday, today=sunday) == date(2026, 4, 4)
    assert date(2026, 4, 4).weekday() == 5


def test_a_suspension_adds_its_days_both_ends_counted():
    # 1 to 10 Feb: 10 days; 2 Apr + 10 = 12 Apr.
    suspension = Span(date(2026, 2, 1), date(2026, 2, 10))
    assert suspended_days(suspension.starts_on, suspension.ends_on, today=date(2026, 6, 1)) == 10
    assert due_date(date(2026, 1, 2), suspensions=[suspension], today=date(2026, 6, 1)) == date(2026, 4, 12)


def test_an_extension_adds_its_days():
    # 2 Apr + 30 = 2 May; two extensions add up: + 30 + 15 = 17 May.
    assert due_date(date(2026, 1, 2), extension_days=[30], today=date(2026, 1, 2)) == date(2026, 5, 2)
    assert due_date(date(2026, 1, 2), extension_days=[30, 15], today=date(2026, 1, 2)) == date(2026, 5, 17)


def test_suspension_and_extension_together():
    # 90 + 30 + 10 = 130 days from 2 Jan: 2 Apr + 40 = 12 May.
    got = due_date(date(2026, 1, 2), extension_days=[30], suspensions=[Span(date(2026, 2, 1), date(2026, 2, 10))],
                   today=date(2026, 3, 1))
    assert got == date(2026, 5, 12)


def test_a_suspension_still_open_counts_up_to_today():
    # Open since 1 Mar: on 5 Mar 5 days so far (2 Apr + 5 = 7 Apr); on 10 Mar 10 (12 Apr).
    open_one = [Span(date(2026, 3, 1))]
    assert due_date(date(2026, 1, 2), suspensions=open_one, today=date(2026, 3, 5)) == date(2026, 4, 7)
    assert due_date(date(2026, 1, 2), suspensions=open_one, today=date(2026, 3, 10)) == date(2026, 4, 12)


def test_while_the_clock_is_stopped_the_days_left_stay_as_they_were():
    received, start = date(2026, 1, 2), date(2026, 3, 1)
    before = days_left(due_date(received, today=date(2026, 2, 28)), today=date(2026, 2, 28))
    for day in (date(2026, 3, 1), date(2026, 3, 7), date(2026, 3, 31)):
        assert days_left(due_date(received, suspensions=[Span(start)], today=day), today=day) == before == 33


def test_a_suspension_not_begun_yet_counts_nothing():
    assert suspended_days(date(2026, 3, 1), None, today=date(2026, 2, 1)) == 0


def test_a_shorter_period_from_settings_or_the_case():
    # 30 days from 2 Jan: 1 Feb.
    assert due_date(date(2026, 1, 2), period_days=30, today=date(2026, 1, 2)) == date(2026, 2, 1)


def test_days_left_is_negative_once_overdue():
    assert days_left(date(2026, 4, 2), today=date(2026, 4, 2)) == 0
    assert days_left(date(2026, 4, 2), today=date(2026, 4, 5)) == -3


def test_the_doctests_of_the_arithmetic_and_the_models_run_with_the_suite():
    """pytest.ini collects doctests under ``assessments`` only: run this app's here."""
    import doctest

    import calendar_review.due
    import calendar_review.models

    for module in (calendar_review.due, calendar_review.models):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, (module.__name__, result)
