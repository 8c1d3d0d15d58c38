"""The demo's dates are placed relative to the day it is loaded (``load_demo.placed``):
every date of ``fixtures/demo_cases.json`` moves by the same whole number of days, the one
that brings the fixture's newest date to within the day before the load, so the review
clock of each demo case (received the day it was entered, the default 90-day period) runs
from the load day: on a first start the sample case is not overdue, whatever the day.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from pytest_django.fixtures import Settings

from assessments.models import Assessment, ReviewDecision, Scenario, Submission
from calendar_review.selectors import ON_TIME, case_due_state
from demo.management.commands import load_demo

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RECORDS = json.loads((FIXTURES / "demo_cases.json").read_text(encoding="utf-8"))
SAMPLE, CVD = "P-18-0123", "P-26-0042"


class Clock:
    """``django.utils.timezone.now`` on a chosen day: from ``start``, a millisecond later at
    each reading (so the records of one load keep their order)."""

    def __init__(self, start: datetime) -> None:
        self.start, self.readings = start, 0

    def __call__(self) -> datetime:
        self.readings += 1
        return self.start + timedelta(milliseconds=self.readings)


@pytest.fixture
def debug(settings: Settings) -> None:
    settings.DEBUG = True  # load_demo runs only on a development machine
    settings.PMN_REVIEW_DAYS = 90  # the default period the expected due dates count
    settings.TIME_ZONE = "America/New_York"  # the site's day, as reviewer/settings.py has it


def load_on(monkeypatch: pytest.MonkeyPatch, start: datetime, *args: str) -> str:
    monkeypatch.setattr(timezone, "now", Clock(start))
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue().strip()


def case(number: str) -> Submission:
    return Submission.objects.get(case_number=number)


def fixture_dates(model: str) -> Iterator[tuple[str, str, date]]:
    """``(case number, field, value)`` of every date the fixture gives rows of ``model``."""
    numbers = {r["pk"]: r["fields"]["case_number"] for r in RECORDS if r["model"] == "assessments.submission"}
    cases = {r["pk"]: numbers[r["fields"]["submission"]] for r in RECORDS if r["model"] == "assessments.assessment"}
    for record in RECORDS:
        if record["model"] != model:
            continue
        fields = record["fields"]
        number = (numbers[record["pk"]] if model == "assessments.submission"
                  else cases[record["pk"]] if model == "assessments.assessment"
                  else cases[fields["assessment"]])
        for name, value in fields.items():
            if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d(T.*)?", value):
                parsed = parse_datetime(value) if "T" in value else parse_date(value)
                assert parsed is not None, value
                yield number, name, parsed


def page_text(client: Client, url: str) -> str:
    """The page's text: tags dropped, entities decoded, blanks collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", client.get(url).content.decode())).split())


# Loaded today ------------------------------------------------------------------------------------


def test_loaded_today_the_demo_cases_are_within_their_review_period(debug: None) -> None:
    """The first start the issue saw showed the sample case "Overdue by 199 days"."""
    call_command("load_demo", stdout=io.StringIO())
    today = timezone.localdate()
    sample, cvd = case_due_state(case(SAMPLE)), case_due_state(case(CVD))
    assert (sample.state, cvd.state) == (ON_TIME, ON_TIME)
    # The newest date of the fixture (the CVD use, 15:36 UTC) lands within the day before
    # the load: the CVD case entered today or yesterday (89 or 90 days left); the sample
    # case entered 28 days and 1 h 36 min before it (61 or 62 days left).
    assert cvd.days_left in (89, 90) and cvd.due_on is not None and cvd.due_on > today
    assert sample.days_left in (61, 62) and sample.due_on is not None and sample.due_on > today
    assert timezone.now() - timedelta(days=1) < Scenario.history.get(
        assessment__submission__case_number=CVD, history_type="+").history_date <= timezone.now()


# On two days: the dates move with the day of the load ---------------------------------------------

#: Two days of the load, the days the fixture's dates move, and what they give, counted by hand. The fixture's newest date is
#: the CVD use's 2026-11-02 15:36 UTC; its sample case was entered 2026-10-05 14:00 UTC.
DAYS: dict[str, tuple[datetime, int, dict[str, tuple[datetime, date, str]]]] = {
    # 2026-11-02 15:36 to 2027-06-15 18:00: 225 days and 2 h 24 min (28 days left in
    # November, 31, 31, 28, 31, 30, 31, then 15), so 225 days later. The sample case:
    # 2026-10-05 + 225 = 2027-05-18, due 90 days on, 2027-08-16 (13 + 30 + 31 + 16), 62 days
    # after 2027-06-15 (15 + 31 + 16); the CVD case: 2027-06-15, due 2027-09-13, 90 days left.
    "a later day": (datetime(2027, 6, 15, 18, 0, tzinfo=UTC), 225, {
        SAMPLE: (datetime(2027, 5, 18, 14, 0, tzinfo=UTC), date(2027, 8, 16), "62 days left"),
        CVD: (datetime(2027, 6, 15, 15, 30, tzinfo=UTC), date(2027, 9, 13), "90 days left"),
    }),
    # 2025-01-20 04:00 UTC is 23:00 on 19 January in New York. 2025-01-20 to 2026-11-02 is
    # 365 + 286 days, and 15:36 is after 04:00: the newest date moves 652 days back, to
    # 2025-01-19 15:36 UTC, 12 h 24 min before the load. The sample case: 28 days before the
    # CVD case's 2025-01-19, 2024-12-22, due 2025-03-22 (9 + 31 + 28 + 22), 62 days after
    # 2025-01-19 (12 + 28 + 22); the CVD case: due 2025-04-19 (12 + 28 + 31 + 19), 90 days left.
    "an earlier day, late in the evening": (datetime(2025, 1, 20, 4, 0, tzinfo=UTC), -652, {
        SAMPLE: (datetime(2024, 12, 22, 14, 0, tzinfo=UTC), date(2025, 3, 22), "62 days left"),
        CVD: (datetime(2025, 1, 19, 15, 30, tzinfo=UTC), date(2025, 4, 19), "90 days left"),
    }),
}


@pytest.mark.parametrize("day", DAYS)
def test_the_demo_cases_are_entered_relative_to_the_day_of_the_load(
        debug: None, monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    start, _, expected = DAYS[day]
    load_on(monkeypatch, start)
    for number, (entered, due_on, text) in expected.items():
        state = case_due_state(case(number))
        assert (case(number).created_at, state.due_on, state.state, state.text) == (entered, due_on, ON_TIME, text)


@pytest.mark.parametrize("day", DAYS)
def test_every_fixture_date_moves_by_the_same_whole_days(debug: None, monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    """The rows as received (their first historical records, which hold them as loaded)
    hold each date of the fixture moved by the day's offset; each record is dated as its
    row was made."""
    start, days, _ = DAYS[day]
    load_on(monkeypatch, start)
    received: dict[str, dict[str, Any]] = {
        "assessments.submission": {r.case_number: r for r in Submission.history.filter(history_type="+")},
        "assessments.assessment": {
            r.submission.case_number: r for r in Assessment.history.filter(history_type="+", revision=1)},
        "assessments.scenario": {
            r.assessment.submission.case_number: r
            for r in Scenario.history.filter(history_type="+", assessment__revision=1)},
    }
    moved = 0
    for model, records in received.items():
        for number, name, value in fixture_dates(model):
            assert getattr(records[number], name) == value + timedelta(days=days), (model, number, name)
            moved += 1
        for record in records.values():
            assert record.history_date == record.created_at, (model, record)
    assert moved == 14  # created_at and updated_at of 2 cases, 2 revisions and 2 uses; 2 assessment dates


@pytest.mark.parametrize("day", DAYS)
def test_the_review_is_taken_at_the_load_after_every_fixture_date(
        debug: None, monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    start, _, _ = DAYS[day]
    load_on(monkeypatch, start)
    received = [
        *Submission.history.filter(history_type="+").values_list("created_at", flat=True),
        *Assessment.history.filter(history_type="+", revision=1).values_list("created_at", flat=True),
        *Scenario.history.filter(history_type="+", assessment__revision=1).values_list("created_at", flat=True),
    ]
    first = Assessment.objects.get(submission__case_number=SAMPLE, revision=1)
    assert first.approved_at is not None
    steps = [first.approved_at, *ReviewDecision.objects.values_list("at", flat=True)]
    assert max(received) <= start < min(steps) < start + timedelta(minutes=1)


def test_the_due_date_list_shows_the_demo_cases_days_left(
        debug: None, monkeypatch: pytest.MonkeyPatch, client: Client) -> None:
    start, _, _ = DAYS["a later day"]
    load_on(monkeypatch, start)
    client.force_login(get_user_model().objects.get(username="reviewer"))
    page = page_text(client, "/due/")
    assert "62 days left" in page and "90 days left" in page
    assert "Overdue" not in page


def test_a_second_load_on_a_later_day_still_knows_its_demo_data(debug: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case keeps the dates of the day it was loaded; --force on a later day finds
    nothing missing, and a demo case deleted meanwhile comes back placed on that day."""
    start, _, expected = DAYS["a later day"]
    load_on(monkeypatch, start)
    later = start + timedelta(days=40)
    assert load_on(monkeypatch, later, "--force") == load_demo.NOTHING_MISSING

    cvd = case(CVD)
    Scenario.objects.filter(assessment__submission=cvd).delete()
    Assessment.objects.filter(submission=cvd).delete()
    cvd.delete()
    assert load_on(monkeypatch, later, "--force") == (
        "Demo data loaded: 0 user(s), 1 case(s), every use computed: P-26-0042 (revision 1 a draft)."
    )
    assert case(SAMPLE).created_at == expected[SAMPLE][0]
    assert case(CVD).created_at == expected[CVD][0] + timedelta(days=40)
    assert case_due_state(case(CVD)).text == "90 days left"
    assert load_on(monkeypatch, later + timedelta(days=1), "--force") == load_demo.NOTHING_MISSING


# The offset ----------------------------------------------------------------------------------------


def test_the_offset_keeps_every_date_at_or_before_the_load(debug: None) -> None:
    """A date without a time counts in the site's day: at 23:00 in New York on 19 January
    (04:00 UTC on the 20th), a day of 19 January is the newest a date may land on."""
    records: list[dict[str, Any]] = [
        {"model": "assessments.assessment", "fields": {"assessment_date": "2026-11-03",
                                                       "created_at": "2026-11-02T15:36:00Z"}},
    ]
    now = datetime(2025, 1, 20, 4, 0, tzinfo=UTC)
    (moved,) = load_demo.placed(records, now=now)
    # 2025-01-19 - 2026-11-03 = -653 days; the moment alone would move 652 days back
    assert moved["fields"] == {"assessment_date": "2025-01-19", "created_at": "2025-01-18T15:36:00+00:00"}
    assert records[0]["fields"]["assessment_date"] == "2026-11-03"  # the fixture itself is left as it is
