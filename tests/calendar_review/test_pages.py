"""The pages: the case page's "Review calendar" section and its forms, the case list's
due column and filter, the due-date list, and the home page's "my work"."""

from datetime import timedelta

import pytest
from django.utils import timezone

from assessments.models import Status
from calendar_review import services
from calendar_review.models import ReviewCalendar
from tests.conftest import make_assessment, make_submission

from .conftest import received

pytestmark = pytest.mark.django_db


def listed(response) -> list[str]:
    return [case.case_number for case in response.context["page"].object_list]


# The case page --------------------------------------------------------------------------------


def test_the_case_page_shows_the_calendar_and_the_reviewers_forms(client, case, reviewer, today):
    calendar = received(case, days_ago=10, by=reviewer)
    services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=2), ends_on=None,
                            reason="Waiting for test data")
    client.force_login(reviewer)
    html = client.get(f"/cases/{case.pk}/").content.decode()
    assert 'id="review-calendar"' in html and "Review calendar" in html
    assert calendar.received_on.isoformat() in html and "90 days" in html
    assert "Waiting for test data" in html and "Still open" in html and "Clock stopped since" in html
    assert "Record a suspension" in html and "Record an extension" in html
    assert "Assign engineer" not in html  # a reviewer does not assign


def test_a_supervisor_sees_assign_engineer(client, case, supervisor):
    client.force_login(supervisor)
    html = client.get(f"/cases/{case.pk}/").content.decode()
    assert f'href="/cases/{case.pk}/assign/"' in html


def test_recording_through_the_pages(client, case, reviewer, today):
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/calendar/extensions/new/",
                           {"granted_on": today.isoformat(), "days": "30", "reason": "TSCA 5(c)"})
    assert response.status_code == 302 and response["Location"].endswith("#review-calendar")
    assert ReviewCalendar.objects.get(submission=case).due_on == today + timedelta(days=120)


def test_an_invalid_entry_comes_back_with_its_message_on_the_field(client, case, reviewer, today):
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/calendar/suspensions/new/",
                           {"starts_on": (today + timedelta(days=3)).isoformat(), "reason": "Data"})
    assert response.status_code == 200
    assert "is in the future" in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    assert not ReviewCalendar.objects.exists()


def test_ending_the_open_suspension_through_the_page(client, case, reviewer, today):
    calendar = received(case, days_ago=10, by=reviewer)
    services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=4), ends_on=None, reason="x")
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/calendar/suspensions/end/", {"ends_on": (today - timedelta(days=1)).isoformat()})
    assert response.status_code == 302
    calendar.refresh_from_db()
    assert (calendar.clock_stopped_on, calendar.due_on) == (None, calendar.received_on + timedelta(days=94))
    response = client.get(f"/cases/{case.pk}/calendar/suspensions/end/")  # none open now
    assert response.status_code == 302 and response["Location"].endswith("#review-calendar")


@pytest.mark.parametrize("url", [
    "/cases/{pk}/calendar/", "/cases/{pk}/calendar/suspensions/new/", "/cases/{pk}/calendar/extensions/new/",
    "/cases/{pk}/assign/", "/cases/{pk}/calendar/suspensions/end/",
])
def test_an_uncleared_user_never_sees_a_cbi_cases_calendar(client, cbi_case, uncleared_reviewer, uncleared_supervisor, url):
    for user in (uncleared_reviewer, uncleared_supervisor):
        client.force_login(user)
        assert client.get(url.format(pk=cbi_case.pk)).status_code == 404
        assert client.post(url.format(pk=cbi_case.pk), {}).status_code == 404


def test_an_uncleared_user_cannot_end_a_cbi_cases_suspension(client, cbi_case, reviewer, uncleared_reviewer, today):
    received(cbi_case, days_ago=10, by=reviewer)
    suspension = services.suspension_add(submission=cbi_case, by=reviewer, starts_on=today, ends_on=None, reason="x")
    client.force_login(uncleared_reviewer)
    assert client.get(f"/cases/{cbi_case.pk}/calendar/suspensions/end/").status_code == 404
    client.force_login(reviewer)
    assert client.get(f"/cases/{cbi_case.pk}/calendar/suspensions/end/").status_code == 200
    assert suspension.ends_on is None


def test_a_cbi_cases_due_date_is_not_listed_for_an_uncleared_user(client, cbi_case, reviewer, uncleared_supervisor):
    received(cbi_case, days_ago=85, by=reviewer)
    client.force_login(uncleared_supervisor)
    assert cbi_case.case_number not in client.get("/").content.decode()
    assert cbi_case.case_number not in client.get("/due/").content.decode()
    assert cbi_case.case_number not in client.get("/?due=within").content.decode()


def test_a_reviewer_may_not_assign(client, case, reviewer, other_reviewer):
    client.force_login(reviewer)
    assert client.get(f"/cases/{case.pk}/assign/").status_code == 403
    assert client.post(f"/cases/{case.pk}/assign/", {"engineer": other_reviewer.pk, "reason": "x"}).status_code == 403
    assert not ReviewCalendar.objects.exists()


def test_a_supervisor_assigns_through_the_page(client, case, supervisor, other_reviewer):
    client.force_login(supervisor)
    page = client.get(f"/cases/{case.pk}/assign/").content.decode()
    assert ">Rita Okafor</option>" in page
    response = client.post(f"/cases/{case.pk}/assign/", {"engineer": other_reviewer.pk, "reason": "Workload"})
    assert response.status_code == 302
    html = client.get(f"/cases/{case.pk}/").content.decode()
    assert "Rita Okafor" in html and "Workload" in html


# The case list --------------------------------------------------------------------------------


@pytest.fixture
def dated(reviewer, supervisor, today):
    """Cases due in 40 days, 10 days, overdue by 5, one stopped, one approved and overdue,
    one without a calendar."""
    cases = {}
    for name, days_ago in (("later", 50), ("soon", 80), ("late", 95), ("stopped", 60), ("done", 95)):
        cases[name] = make_submission(case_number=f"P-26-9{len(cases):03d}")
        received(cases[name], days_ago=days_ago, by=reviewer)
    services.suspension_add(submission=cases["stopped"], by=reviewer, starts_on=today - timedelta(days=5),
                            ends_on=None, reason="Data")
    make_assessment(cases["done"], reviewer, status=Status.APPROVED, approved_by=supervisor, approved_at=timezone.now())
    cases["blank"] = make_submission(case_number="P-26-9999")
    return cases


@pytest.mark.parametrize("query, expected", [
    ("due=overdue", ["late"]),
    ("due=within", ["soon"]),
    ("due=within&within=45", ["later", "soon"]),
    ("due=stopped", ["stopped"]),
    ("due=none", ["blank"]),
    ("", ["blank", "done", "stopped", "late", "soon", "later"]),
])
def test_the_case_list_filters_by_due_date(client, reviewer, dated, query, expected):
    client.force_login(reviewer)
    response = client.get("/?" + query)
    assert response.status_code == 200
    assert sorted(listed(response)) == sorted(dated[name].case_number for name in expected)


def test_the_case_list_flags_due_soon_and_overdue_in_words(client, reviewer, dated):
    client.force_login(reviewer)
    html = client.get("/").content.decode()
    assert '<th scope="col">Due</th>' in html
    assert "Overdue by 5 days" in html
    assert "Due soon: 10 days left" in html
    assert "40 days left" in html
    assert "(default 90-day period)" in html  # the case with no calendar: its default due date
    assert "No review calendar yet" not in html
    assert "Review approved" in html


def test_the_case_list_pages_by_keyset_with_the_due_filter(client, reviewer, today):
    for i in range(30):
        received(make_submission(case_number=f"P-27-{i:04d}"), days_ago=80, by=reviewer)
    client.force_login(reviewer)
    first = client.get("/?due=within")
    assert len(listed(first)) == 25
    older = first.context["page"].older
    second = client.get("/", {"due": "within", "after": str(older)})
    assert len(listed(second)) == 5 and not set(listed(first)) & set(listed(second))


def test_the_case_list_shows_full_names(client, case, reviewer, other_reviewer, supervisor):
    make_assessment(case, other_reviewer, status=Status.DRAFT)
    client.force_login(reviewer)
    assert "<td>Rita Okafor</td>" in client.get("/").content.decode()


def test_the_due_list_is_soonest_first_and_pages(client, reviewer, dated, settings):
    client.force_login(reviewer)
    response = client.get("/due/")
    order = [row["case"].case_number for row in response.context["rows"]]
    # the case with no calendar is due on its default date, 90 days after it was entered
    assert order == [dated[n].case_number for n in ("late", "soon", "later", "blank")]
    from calendar_review import views
    views.DUE_PER_PAGE, old = 2, views.DUE_PER_PAGE
    try:
        first = client.get("/due/")
        assert [r["case"].case_number for r in first.context["rows"]] == order[:2]
        second = client.get("/due/", {"after": str(first.context["page"].later)})
        assert [r["case"].case_number for r in second.context["rows"]] == order[2:4]
        back = client.get("/due/", {"before": str(second.context["page"].earlier)})
        assert [r["case"].case_number for r in back.context["rows"]] == order[:2]
    finally:
        views.DUE_PER_PAGE = old
    assert client.get("/due/?after=nonsense").status_code == 200


# Home: my work --------------------------------------------------------------------------------


def test_home_shows_my_assigned_cases_returned_revisions_and_due_soon(client, reviewer, other_reviewer, supervisor):
    mine = make_submission(case_number="P-26-8001")
    received(mine, days_ago=80, by=reviewer)
    services.engineer_assign(submission=mine, engineer=reviewer, by=supervisor, reason="Workload")
    theirs = make_submission(case_number="P-26-8002")
    received(theirs, days_ago=85, by=reviewer)
    services.engineer_assign(submission=theirs, engineer=other_reviewer, by=supervisor, reason="Workload")
    returned_case = make_submission(case_number="P-26-8003")
    returned = make_assessment(returned_case, reviewer, status=Status.RETURNED)
    client.force_login(reviewer)
    response = client.get("/")
    work = response.context["assigned"]
    assert [r["case"].case_number for r in work["rows"]] == ["P-26-8001", "P-26-8003"]
    assert [r["case"].case_number for r in response.context["due_soon"]["rows"]] == ["P-26-8001"]
    assert list(response.context["returned"]) == [returned]
    html = response.content.decode()
    assert "My work" in html and "Cases assigned to me" in html and "Revisions returned to me" in html
    assert "Team:" not in html  # a reviewer sees no team list


def test_a_supervisor_also_sees_the_teams_due_soon_and_overdue(client, reviewer, other_reviewer, supervisor):
    soon, late, later = (make_submission(case_number=f"P-26-700{i}") for i in range(3))
    received(soon, days_ago=80, by=reviewer)
    received(late, days_ago=95, by=reviewer)
    received(later, days_ago=10, by=reviewer)
    services.engineer_assign(submission=soon, engineer=other_reviewer, by=supervisor, reason="x")
    client.force_login(supervisor)
    response = client.get("/")
    assert [r["case"].case_number for r in response.context["team_due"]["rows"]] == ["P-26-7001", "P-26-7000"]
    html = response.content.decode()
    assert "Team: cases due within 14 days or overdue" in html and "Overdue by 5 days" in html


def test_the_teams_list_hides_cbi_cases_from_an_uncleared_supervisor(client, reviewer, uncleared_supervisor):
    cbi = make_submission(case_number="P-26-6001", cbi_claims=["submitter"])
    received(cbi, days_ago=95, by=reviewer)
    client.force_login(uncleared_supervisor)
    response = client.get("/")
    assert response.context["team_due"]["rows"] == []
    assert "P-26-6001" not in response.content.decode()
