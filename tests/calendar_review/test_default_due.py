"""A case with no review calendar recorded is due on its default date (entered + the
default review period, settings.PMN_REVIEW_DAYS), as its page shows, and every list,
filter, sort and flag counts that date, labelled as the default, until a calendar is
recorded (issue 26). Before, the case list and the home page said "No review calendar yet"
and no due-soon or overdue flag fired for such a case."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assessments.due_dates import WITHIN_MAX_DAYS
from assessments.models import Submission
from calendar_review import selectors
from calendar_review.models import refresh_case_due
from tests.conftest import make_assessment, make_submission

from .conftest import received


def entered(days_ago: int, **fields) -> Submission:
    """A case entered ``days_ago`` days ago (at noon, site time), with no calendar."""
    case = make_submission(**fields)
    noon = timezone.make_aware(datetime.combine(timezone.localdate() - timedelta(days=days_ago), time(12)))
    Submission.objects.filter(pk=case.pk).update(created_at=noon)  # test set-up: the entry date
    refresh_case_due(submission_ids=[case.pk])  # and its default due date, as if entered that day
    case.refresh_from_db()
    return case


def listed(response) -> list[str]:
    return [c.case_number for c in response.context["page"].object_list]


def test_the_case_list_shows_the_default_due_date_labelled(client, reviewer, today):
    case = entered(0, case_number="P-26-5001")
    client.force_login(reviewer)
    html = client.get("/").content.decode()
    due = today + timedelta(days=90)
    assert f"{due:%Y-%m-%d}</span> <span class=\"small text-muted due-basis\">(default 90-day period)</span>" in html
    assert "No review calendar yet" not in html
    assert case.case_number in html


def test_the_default_period_is_the_settings(client, reviewer, today, settings):
    settings.PMN_REVIEW_DAYS = 60
    case = entered(50, case_number="P-26-5002")
    state = selectors.case_due_state(Submission.objects.get(pk=case.pk))
    assert (state.due_on, state.days_left, state.basis) == (today + timedelta(days=10), 10, "default 60-day period")
    assert state.flagged
    client.force_login(reviewer)
    assert listed(client.get("/?due=within")) == ["P-26-5002"]


def test_a_case_with_no_calendar_is_flagged_due_soon_and_overdue(client, reviewer):
    entered(80, case_number="P-26-5003")  # due in 10 days
    entered(95, case_number="P-26-5004")  # 5 days past its default due date
    entered(10, case_number="P-26-5005")  # due in 80 days
    client.force_login(reviewer)
    html = client.get("/").content.decode()
    assert "Due soon: 10 days left" in html and "Overdue by 5 days" in html and "80 days left" in html
    assert listed(client.get("/?due=within")) == ["P-26-5003"]
    assert listed(client.get("/?due=overdue")) == ["P-26-5004"]
    assert sorted(listed(client.get("/?due=none"))) == ["P-26-5003", "P-26-5004", "P-26-5005"]


def test_a_recorded_calendar_replaces_the_default(client, reviewer):
    case = entered(95, case_number="P-26-5006")
    received(case, days_ago=20, by=reviewer)  # received later than entered: due in 70 days
    client.force_login(reviewer)
    assert listed(client.get("/?due=overdue")) == []
    html = client.get("/").content.decode()
    assert "70 days left" in html and "default 90-day period" not in html


def test_sort_by_due_date_lists_cases_with_no_calendar_by_their_default_date(client, reviewer):
    recorded = make_submission(case_number="P-26-5010")
    received(recorded, days_ago=85, by=reviewer)  # due in 5 days
    entered(88, case_number="P-26-5011")  # due in 2 days, by default
    entered(20, case_number="P-26-5012")  # due in 70 days, by default
    client.force_login(reviewer)
    response = client.get("/due/")
    rows = response.context["rows"]
    assert [r["case"].case_number for r in rows] == ["P-26-5011", "P-26-5010", "P-26-5012"]
    assert [r["due"].basis for r in rows] == ["default 90-day period", "", "default 90-day period"]


def test_my_work_flags_my_case_with_no_calendar(client, reviewer):
    mine = entered(85, case_number="P-26-5020")
    make_assessment(mine, reviewer)  # I am its latest revision's engineer
    client.force_login(reviewer)
    response = client.get("/")
    assert [r["case"].case_number for r in response.context["due_soon"]["rows"]] == ["P-26-5020"]
    assert response.context["due_soon"]["rows"][0]["due"].basis == "default 90-day period"


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("url", ["/", "/due/", "/?due=within&within=100"])
def test_the_default_due_date_costs_no_query_per_row(client, reviewer, url):
    client.force_login(reviewer)
    entered(30, case_number="P-26-5030")
    one = _queries(client, url)
    for i in range(10):
        entered(30 + i, case_number=f"P-26-504{i}")
    assert _queries(client, url) == one


def test_the_due_filter_says_the_due_soon_days_in_force_and_takes_its_range_from_the_form(client, reviewer, settings):
    """The help beside N is the setting's, not a copy of its default; the input's range is
    the form field's (``due_dates.WITHIN_MAX_DAYS``)."""
    settings.PMN_DUE_SOON_DAYS = 21
    client.force_login(reviewer)
    html = client.get("/").content.decode()
    assert "For “Due within N days”; 21 when empty." in html
    assert f'type="number" min="0" max="{WITHIN_MAX_DAYS}"' in html
