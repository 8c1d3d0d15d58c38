"""A contact time typed as the clock showed it (the application's time zone,
``settings.TIME_ZONE``: US Eastern) read as the one instant it names.

Twice a year the wall clock is not one-to-one with instants:

- in autumn the clocks go back (02:00 EDT becomes 01:00 EST), so every time from 01:00 to
  01:59 happens twice: first in daylight time, then in standard time;
- in spring they go forward (02:00 EST becomes 03:00 EDT), so no clock shows 02:00 to 02:59.

The rule: a time that happens twice is *asked about*. The form offers the two readings
(:data:`FIRST`, :data:`SECOND`, labelled with the zone's abbreviation and UTC offset) and
stores the one chosen; nothing is guessed. A time that never happened is refused, naming the
field and the times that do exist; it is never shifted to the next hour. Every other time
has one reading, and a reading sent with it is ignored.

Error messages are module constants, so tests assert their exact text.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

FIRST, SECOND = "first", "second"
#: How each time zone is named in messages; a zone not listed is named by its key.
ZONE_NAMES = {"America/New_York": "US Eastern time"}

TIME_TWICE = (
    "The contact time {day} {time} happens twice in {zone}: the clocks went back {shift} that night, so "
    "{start} to {end} came first in {first} and again in {second}. Choose which {time} it was under “{label}”."
)
TIME_NEVER = (
    "The contact time {day} {time} does not exist in {zone}: the clocks went forward {shift} that night, from "
    "{start} {before} straight to {after_start} {after}, so no clock showed {start} to {end}. "
    "Check the time: give one before {start} or from {after_start}."
)
READING_LABEL = "Daylight or standard time"
READING_HELP = "The time entered happened twice the night the clocks went back: which one it was."
READING_CHOICE = "{time} {abbreviation} ({offset}), the {which}, {when} the clocks went back"
READING_STORED = "The contact time {day} {time} happens twice; it was recorded as {time} {abbreviation} ({offset})."

_MINUTE = timedelta(minutes=1)


def _zone(zone: tzinfo | None) -> tzinfo:
    return zone or timezone.get_current_timezone()


def zone_name(zone: tzinfo | None = None) -> str:
    zone = _zone(zone)
    key = str(getattr(zone, "key", zone))
    return ZONE_NAMES.get(key, f"the {key} time zone")


def never_happened(naive: datetime, zone: tzinfo | None = None) -> bool:
    """No clock in ``zone`` showed ``naive`` (the spring-forward gap).

    >>> from zoneinfo import ZoneInfo
    >>> eastern = ZoneInfo("America/New_York")
    >>> never_happened(datetime(2026, 3, 8, 2, 30), eastern), never_happened(datetime(2026, 3, 8, 3, 0), eastern)
    (True, False)
    """
    zone = _zone(zone)
    try:
        return naive.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive
    except OverflowError:  # the first or last hours of year 1 or 9999: no clock change there
        return False


def happens_twice(naive: datetime, zone: tzinfo | None = None) -> bool:
    """Clocks in ``zone`` showed ``naive`` twice (the autumn repeat).

    >>> from zoneinfo import ZoneInfo
    >>> eastern = ZoneInfo("America/New_York")
    >>> [happens_twice(datetime(2026, 11, 1, h, m), eastern) for h, m in ((0, 59), (1, 0), (1, 59), (2, 0))]
    [False, True, True, False]
    """
    zone = _zone(zone)
    if never_happened(naive, zone):
        return False
    return naive.replace(tzinfo=zone, fold=0).utcoffset() != naive.replace(tzinfo=zone, fold=1).utcoffset()


def _span(naive: datetime, inside: Callable[[datetime], bool]) -> tuple[datetime, datetime]:
    """The first and last whole minute around ``naive`` for which ``inside`` holds."""
    start = end = naive.replace(second=0, microsecond=0)
    while inside(start - _MINUTE):
        start -= _MINUTE
    while inside(end + _MINUTE):
        end += _MINUTE
    return start, end


def _offset(aware: datetime) -> timedelta:
    """``aware``'s offset from UTC (an aware datetime always has one)."""
    offset = aware.utcoffset()
    if offset is None:
        raise ValueError(f"{aware!r} is naive: it has no offset from UTC")
    return offset


def _shift(earlier: datetime, later: datetime) -> str:
    minutes = abs(int((_offset(later) - _offset(earlier)).total_seconds() // 60))
    return "an hour" if minutes == 60 else f"{minutes} minutes"


def offset_text(aware: datetime) -> str:
    """``UTC-05:00``: ``aware``'s offset from UTC."""
    minutes = int(_offset(aware).total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _day_time(naive: datetime) -> dict[str, Any]:
    return {"day": f"{naive.year:04d}-{naive:%m-%d}", "time": f"{naive:%H:%M}"}


def readings(naive: datetime, zone: tzinfo | None = None) -> dict[str, datetime]:
    """The instants ``naive`` can name: ``{FIRST: ..., SECOND: ...}`` when it happens twice,
    ``{FIRST: ...}`` otherwise (none when it never happened)."""
    zone = _zone(zone)
    if never_happened(naive, zone):
        return {}
    first = naive.replace(tzinfo=zone, fold=0)
    if not happens_twice(naive, zone):
        return {FIRST: first}
    return {FIRST: first, SECOND: naive.replace(tzinfo=zone, fold=1)}


def reading_choices(naive: datetime, zone: tzinfo | None = None) -> list[tuple[str, str]]:
    """The two readings of a time that happens twice, as the form offers them."""
    found = readings(naive, zone)
    return [
        (key, READING_CHOICE.format(
            time=f"{naive:%H:%M}", abbreviation=aware.tzname(), offset=offset_text(aware),
            which="first" if key == FIRST else "second", when="before" if key == FIRST else "after",
        ))
        for key, aware in found.items()
    ] if len(found) == 2 else []


def reading_of(aware: datetime, zone: tzinfo | None = None) -> str:
    """Which reading a stored instant is of its local time: ``""`` when that time happens once."""
    local = timezone.localtime(aware, _zone(zone))
    if not happens_twice(local.replace(tzinfo=None), zone):
        return ""
    return SECOND if local.fold else FIRST


def stored_note(aware: datetime, zone: tzinfo | None = None) -> str:
    """What the page says after storing a time that happens twice (``""`` otherwise)."""
    if not reading_of(aware, zone):
        return ""
    local = timezone.localtime(aware, _zone(zone))
    return READING_STORED.format(
        **_day_time(local), abbreviation=local.tzname(), offset=offset_text(local)
    )


def contact_instant(naive: datetime, *, reading: str = "", zone: tzinfo | None = None) -> datetime:
    """The instant (in UTC where it can be) of the wall-clock time ``naive`` in ``zone``, taking ``reading``
    (:data:`FIRST` or :data:`SECOND`) when it happens twice; ``ValidationError`` when it
    never happened, or happens twice and ``reading`` is not given.

    >>> from zoneinfo import ZoneInfo
    >>> eastern = ZoneInfo("America/New_York")
    >>> contact_instant(datetime(2026, 11, 1, 1, 30), reading=SECOND, zone=eastern).isoformat()
    '2026-11-01T06:30:00+00:00'
    >>> contact_instant(datetime(2026, 7, 1, 1, 30), reading=SECOND, zone=eastern).isoformat()  # happens once
    '2026-07-01T05:30:00+00:00'
    """
    zone = _zone(zone)
    found = readings(naive, zone)
    if not found:
        start, end = _span(naive, lambda t: never_happened(t, zone))
        before, after = (start - _MINUTE).replace(tzinfo=zone), (end + _MINUTE).replace(tzinfo=zone)
        raise ValidationError(TIME_NEVER.format(
            **_day_time(naive), zone=zone_name(zone), shift=_shift(before, after), start=f"{start:%H:%M}",
            end=f"{end:%H:%M}", before=before.tzname(), after_start=f"{end + _MINUTE:%H:%M}", after=after.tzname(),
        ), code="time_never")
    if len(found) == 2 and reading not in found:
        start, end = _span(naive, lambda t: happens_twice(t, zone))
        first, second = found[FIRST], found[SECOND]
        raise ValidationError(TIME_TWICE.format(
            **_day_time(naive), zone=zone_name(zone), shift=_shift(second, first), start=f"{start:%H:%M}",
            end=f"{end:%H:%M}", first=f"{first.tzname()} ({offset_text(first)})",
            second=f"{second.tzname()} ({offset_text(second)})", label=READING_LABEL,
        ), code="time_twice")
    chosen = found.get(reading, found[FIRST])
    try:
        return chosen.astimezone(UTC)
    except OverflowError:  # late on 9999-12-31: kept in its zone, for the range check to refuse
        return chosen
