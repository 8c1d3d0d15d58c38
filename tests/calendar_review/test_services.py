"""The services: the due date kept up to date, the calendar made on demand, the
assignment (supervisors only) with its history, and each role's permissions."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from assessments.models import Status
from calendar_review import selectors, services
from calendar_review.models import ReviewCalendar
from tests.conftest import make_assessment, make_submission, make_user

from .conftest import received

pytestmark = pytest.mark.django_db


def test_the_calendar_is_made_on_demand_with_the_settings_period(case, reviewer, settings, today):
    settings.PMN_REVIEW_DAYS = 60
    assert not ReviewCalendar.objects.exists()
    services.extension_add(submission=case, by=reviewer, granted_on=today, days=5, reason="TSCA 5(c)")
    calendar = ReviewCalendar.objects.get(submission=case)
    assert calendar.period_days == 60
    assert calendar.received_on == today  # the case was entered today
    assert calendar.due_on == today + timedelta(days=65)


def test_the_stored_due_date_follows_every_entry(case, reviewer, today):
    calendar = received(case, days_ago=30, by=reviewer)
    start = calendar.received_on
    assert calendar.due_on == start + timedelta(days=90)
    services.extension_add(submission=case, by=reviewer, granted_on=today, days=30, reason="TSCA 5(c)")
    suspension = services.suspension_add(submission=case, by=reviewer, starts_on=today - timedelta(days=3),
                                         ends_on=None, reason="Submitter's request")
    calendar.refresh_from_db()
    # The open suspension is kept apart: the stored due date counts the extension only.
    assert (calendar.due_on, calendar.clock_stopped_on) == (start + timedelta(days=120), today - timedelta(days=3))
    state = selectors.due_state(calendar, latest_status="none", today=today)
    assert state.state == selectors.STOPPED
    assert state.due_on == start + timedelta(days=124)  # 4 days stopped so far, today included
    services.suspension_end(suspension=suspension, by=reviewer, ends_on=today + timedelta(days=6))
    calendar.refresh_from_db()
    assert (calendar.due_on, calendar.clock_stopped_on) == (start + timedelta(days=130), None)


def test_history_records_each_change_with_its_reason(case, reviewer, today):
    received(case, days_ago=30, by=reviewer)
    services.suspension_add(submission=case, by=reviewer, starts_on=today, ends_on=None, reason="Data")
    calendar = ReviewCalendar.objects.get(submission=case)
    reasons = list(calendar.history.order_by("history_id").values_list("history_change_reason", flat=True))
    assert reasons == ["Review calendar started", "Received date or review period changed", "Suspension recorded"]
    assert calendar.suspensions.get().history.get().history_change_reason == "Suspension recorded"


# Permissions per role -------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["reviewer", "supervisor"])
def test_reviewers_and_supervisors_record_the_calendar(request, case, who, today):
    user = request.getfixturevalue(who)
    services.extension_add(submission=case, by=user, granted_on=today, days=5, reason="TSCA 5(c)")
    assert ReviewCalendar.objects.get(submission=case).extensions.count() == 1


def test_a_user_without_a_role_records_nothing(case, django_user_model, today):
    nobody = make_user(django_user_model, "visitor")
    with pytest.raises(PermissionDenied, match=services.RECORD_NOT_ALLOWED):
        services.extension_add(submission=case, by=nobody, granted_on=today, days=5, reason="x")
    assert not ReviewCalendar.objects.exists()


def test_an_uncleared_user_cannot_record_on_a_cbi_case(cbi_case, uncleared_reviewer, today):
    with pytest.raises(PermissionDenied):
        services.extension_add(submission=cbi_case, by=uncleared_reviewer, granted_on=today, days=5, reason="x")
    assert not ReviewCalendar.objects.exists()


def test_only_a_supervisor_assigns(case, reviewer, other_reviewer, supervisor):
    with pytest.raises(PermissionDenied, match=services.ASSIGN_NOT_ALLOWED):
        services.engineer_assign(submission=case, engineer=other_reviewer, by=reviewer, reason="Workload")
    assert not ReviewCalendar.objects.exists()
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="Workload")
    assert ReviewCalendar.objects.get(submission=case).assigned_engineer == other_reviewer


def test_an_uncleared_supervisor_cannot_assign_a_cbi_case(cbi_case, uncleared_supervisor, reviewer):
    with pytest.raises(PermissionDenied):
        services.engineer_assign(submission=cbi_case, engineer=reviewer, by=uncleared_supervisor, reason="x")


def test_a_cbi_case_is_not_assigned_to_an_uncleared_engineer(cbi_case, supervisor, uncleared_reviewer):
    with pytest.raises(ValidationError) as info:
        services.engineer_assign(submission=cbi_case, engineer=uncleared_reviewer, by=supervisor, reason="x")
    assert "engineer" in info.value.message_dict
    assert uncleared_reviewer not in selectors.assignable_engineers(submission=cbi_case)
    assert not ReviewCalendar.objects.exists()


def test_a_user_without_a_role_is_not_assignable(case, supervisor, django_user_model):
    nobody = make_user(django_user_model, "visitor")
    with pytest.raises(ValidationError):
        services.engineer_assign(submission=case, engineer=nobody, by=supervisor, reason="x")
    assert nobody not in selectors.assignable_engineers(submission=case)


def test_assigning_needs_a_reason(case, supervisor, other_reviewer):
    with pytest.raises(ValidationError) as info:
        services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="  ")
    assert info.value.message_dict["reason"] == ["Give the reason."]


@pytest.mark.parametrize("status", [Status.DRAFT, Status.RETURNED])
def test_reassigning_gives_the_latest_open_revision_to_the_engineer(case, reviewer, other_reviewer, supervisor, status):
    make_assessment(case, reviewer, revision=1, status=status)
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="Reviewer on leave")
    latest = case.assessments.get()
    assert latest.engineer == other_reviewer
    case.refresh_from_db()
    assert case.latest_engineer == other_reviewer
    assert latest.history.latest().history_change_reason == "Engineer reassigned by sup: Reviewer on leave"


@pytest.mark.parametrize("status", [Status.SUBMITTED])
def test_a_submitted_revision_keeps_its_engineer(case, reviewer, other_reviewer, supervisor, status):
    make_assessment(case, reviewer, revision=1, status=status)
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="Next revision")
    assert case.assessments.get().engineer == reviewer
    assert ReviewCalendar.objects.get(submission=case).assigned_engineer == other_reviewer


def test_the_assignment_history_keeps_who_when_and_why(case, reviewer, other_reviewer, supervisor):
    services.engineer_assign(submission=case, engineer=reviewer, by=supervisor, reason="First")
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="x" * 300)
    rows = selectors.assignment_history(calendar=ReviewCalendar.objects.get(submission=case))
    assert [(r["engineer"], r["by"], r["reason"]) for r in rows] == [("Rita Okafor", "sup", "x" * 300), ("rev", "sup", "First")]


def test_full_names_are_shown_where_known(other_reviewer, reviewer):
    assert selectors.person(other_reviewer) == "Rita Okafor"
    assert selectors.person(reviewer) == "rev"
    assert selectors.person(None) == "—"


def test_the_case_engineer_is_the_assigned_one_else_the_latest_revisions(reviewer, other_reviewer, supervisor):
    case = make_submission()
    make_assessment(case, reviewer, revision=1, status=Status.SUBMITTED)
    listed = type(case).objects.get(pk=case.pk)
    assert selectors.case_engineer(listed) == reviewer
    services.engineer_assign(submission=case, engineer=other_reviewer, by=supervisor, reason="Next")
    listed = type(case).objects.get(pk=case.pk)
    assert selectors.case_engineer(listed) == other_reviewer
