"""The review period's arithmetic: pure functions of dates, no Django.

TSCA section 5(a)(1) gives EPA 90 days from receipt of a notice to review it (40 CFR
720.75(a)); the period may be extended (TSCA 5(c), 40 CFR 720.75(c)) and suspended at the
submitter's request (40 CFR 720.75(b)). The days are calendar days: weekends and holidays
count like any other day. So

    due = received + period + extension days + suspended days

A suspension "from" a date "to" a date stops the clock on both days and every day between
(inclusive). A suspension with no end yet (still open) stops the clock up to and including
``today``: while it stays open the due date moves one day later each day and the days left
stay as they were on the day before it began.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

#: TSCA 5(a)(1): the review period, in calendar days (settings.PMN_REVIEW_DAYS by default).
TSCA_REVIEW_DAYS = 90


@dataclass(frozen=True)
class Span:
    """A suspension's dates: the first day the clock is stopped and the last (``None``:
    still open)."""

    starts_on: date
    ends_on: date | None = None


def suspended_days(starts_on: date, ends_on: date | None, *, today: date) -> int:
    """Days a suspension stops the clock [days], counting both ends.

    >>> suspended_days(date(2026, 3, 1), date(2026, 3, 10), today=date(2026, 6, 1))
    10
    >>> suspended_days(date(2026, 3, 1), date(2026, 3, 1), today=date(2026, 6, 1))
    1

    Still open: counted up to and including ``today``; none before it begins.

    >>> suspended_days(date(2026, 3, 1), None, today=date(2026, 3, 5))
    5
    >>> suspended_days(date(2026, 3, 1), None, today=date(2026, 2, 20))
    0
    """
    last = ends_on if ends_on is not None else today
    return max(0, (last - starts_on).days + 1)


def due_date(
    received_on: date,
    *,
    period_days: int = TSCA_REVIEW_DAYS,
    extension_days: Iterable[int] = (),
    suspensions: Iterable[Span] = (),
    today: date,
) -> date:
    """The last day of the review period [date].

    due = received + period + sum(extension days) + sum(suspended days)

    Parameters
    ----------
    received_on : the day EPA received the notice [date]
    period_days : the review period [calendar days] (TSCA 5(a)(1): 90)
    extension_days : each extension's length [calendar days]
    suspensions : each suspension's first and last day (last ``None``: still open)
    today : the day to count an open suspension up to [date]

    Notes
    -----
    TSCA section 5(a)(1), 5(c); 40 CFR 720.75(a)-(c). Calendar days: weekends count.

    Received Friday 2 January 2026 (by hand: 29 days to 31 January, 28 in February, 31 in
    March, 2 in April: 90), due Thursday 2 April; a Saturday receipt counts from the
    Saturday, and its due date falls where it falls, even on a weekend.

    >>> due_date(date(2026, 1, 2), today=date(2026, 1, 2))
    datetime.date(2026, 4, 2)
    >>> due_date(date(2026, 1, 3), today=date(2026, 1, 3))
    datetime.date(2026, 4, 3)
    >>> due_date(date(2026, 1, 4), today=date(2026, 1, 4)).strftime("%A %d %B")
    'Saturday 04 April'

    A 10-day suspension (1 to 10 February) and a 30-day extension: 2 April + 40 days.

    >>> due_date(date(2026, 1, 2), extension_days=[30],
    ...          suspensions=[Span(date(2026, 2, 1), date(2026, 2, 10))], today=date(2026, 3, 1))
    datetime.date(2026, 5, 12)

    A suspension still open since 1 March, on 5 March: 5 days stopped so far.

    >>> due_date(date(2026, 1, 2), suspensions=[Span(date(2026, 3, 1))], today=date(2026, 3, 5))
    datetime.date(2026, 4, 7)
    """
    days = period_days + sum(extension_days)
    days += sum(suspended_days(s.starts_on, s.ends_on, today=today) for s in suspensions)
    return received_on + timedelta(days=days)


def days_left(due_on: date, *, today: date) -> int:
    """Calendar days from ``today`` to the due date [days]; 0 on the due date, negative
    once it has passed.

    >>> days_left(date(2026, 4, 2), today=date(2026, 3, 31))
    2
    >>> days_left(date(2026, 4, 2), today=date(2026, 4, 4))
    -2
    """
    return (due_on - today).days
