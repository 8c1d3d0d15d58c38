"""The lists as issue 33 left them: "My work" on the home page only, a search of one or
two characters for the start of a case number (said on the page), and the review queue
soonest due first, a page at a time, with how many wait in all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assessments import review, selectors
from assessments.models import Submission
from calendar_review import services as calendar_services
from tests._review_support import other_reviewer, submitted, toy_engine
from tests.conftest import make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.mark.parametrize("url", ["/?q=acme", "/?oldest=1", "/?due=overdue", "/?status=draft"])
def test_my_work_heads_the_home_page_only(client, reviewer, url):
    make_submission()
    client.force_login(reviewer)
    home = client.get("/")
    assert "My work" in home.content.decode() and "due_soon" in home.context
    with CaptureQueriesContext(connection) as listed:
        response = client.get(url)
    assert response.status_code == 200 and response.context["page"].object_list is not None
    assert "My work" not in response.content.decode() and "due_soon" not in response.context
    assert not [q for q in listed.captured_queries if "assessments_assessment" in q["sql"] and "'returned'" in q["sql"]]


def test_a_search_of_one_or_two_characters_finds_case_numbers_that_start_with_it(client, reviewer):
    make_submission(case_number="L-26-0001", submitter="Lakeside Fine Chemicals")
    make_submission(case_number="P-26-0002", submitter="Acme L-Chem")  # "L-" inside: not a prefix
    client.force_login(reviewer)
    response = client.get("/?q=l-")
    assert [c.case_number for c in response.context["page"].object_list] == ["L-26-0001"]
    assert selectors.SHORT_SEARCH in response.content.decode()
    longer = client.get("/?q=L-Ch")  # three characters and more: anywhere in the searched fields
    assert [c.case_number for c in longer.context["page"].object_list] == ["P-26-0002"]
    assert selectors.SHORT_SEARCH not in longer.content.decode()


def test_a_short_search_is_the_same_through_the_selector(reviewer):
    make_submission(case_number="P-26-0003")
    make_submission(case_number="J-26-0004", chemical_name="P-toluidine")
    assert [c.case_number for c in selectors.submission_search(user=reviewer, q=" p ")] == ["P-26-0003"]


def _due_in(case: Submission, days: int, by) -> None:
    """Record ``case``'s calendar so that it is due in ``days`` days."""
    from django.utils import timezone

    calendar_services.calendar_update(submission=case, by=by, period_days=90,
                                      received_on=timezone.localdate() - timedelta(days=90 - days))


def test_the_review_queue_is_soonest_due_first(client, reviewer, other_reviewer, supervisor):
    later = submitted(reviewer)
    sooner = submitted(other_reviewer)
    _due_in(later.submission, 30, supervisor)
    _due_in(sooner.submission, 5, supervisor)
    client.force_login(supervisor)
    response = client.get("/review/")
    assert [a.pk for a in response.context["queue"]] == [sooner.pk, later.pk]
    assert "2 submitted by others wait" in response.content.decode()


def test_the_review_queue_is_read_a_page_at_a_time_by_place(client, reviewer, supervisor, monkeypatch):
    waiting = [submitted(reviewer) for _ in range(5)]
    for days, assessment in enumerate(waiting):
        _due_in(assessment.submission, 10 + days, supervisor)
    client.force_login(supervisor)
    monkeypatch.setattr(review, "QUEUE_PER_PAGE", 2)
    seen, url = [], "/review/"
    while url:
        response = client.get(url)
        seen += [a.pk for a in response.context["queue"]]
        later = response.context["page"].later
        url = f"/review/?after={later}" if later else ""
    assert seen == [a.pk for a in waiting]
    back = client.get(f"/review/?before={response.context['page'].earlier}")
    assert [a.pk for a in back.context["queue"]] == [a.pk for a in waiting[2:4]]


def test_the_review_queue_page_costs_the_same_queries_however_long_the_queue(client, reviewer, supervisor):
    submitted(reviewer)
    client.force_login(supervisor)
    client.get("/review/")
    with CaptureQueriesContext(connection) as one:
        client.get("/review/")
    for _ in range(4):
        submitted(reviewer)
    with CaptureQueriesContext(connection) as five:
        client.get("/review/")
    assert len(five) == len(one)
