"""A "submitted" notice goes to the supervisors the case concerns (issue 27): the one who
assigned its engineer and those who reviewed an earlier revision, else every supervisor
who may act on it; never to a superuser for being one, never to a user who may not see
the case, never to the engineer. One test per role (``notices.recipients``)."""

from __future__ import annotations

import pytest

from assessments import workflow
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from calendar_review import services as calendar_services
from notices.models import Notice, Verb
from tests._review_support import draft_with_result
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

CLAIMED = {"chemical_name": "Secret-ethyl photoacid", "cbi_claims": ["chemical_name"]}


@pytest.fixture
def admin(django_user_model):
    """A superuser with no role: the demo's ``admin``."""
    return django_user_model.objects.create_superuser("admin", "admin@example.gov", "pw-for-tests-only")


@pytest.fixture
def boss2(django_user_model):
    return make_user(django_user_model, "boss2", group=SUPERVISOR_GROUP, cbi=True, email="boss2@example.gov")


def told(assessment) -> set[str]:
    """The usernames given a "submitted" notice of ``assessment``."""
    return set(Notice.objects.filter(verb=Verb.SUBMITTED, assessment=assessment)
               .values_list("recipient__username", flat=True))


def submit(assessment):
    Notice.objects.filter(verb=Verb.SUBMITTED).delete()
    return workflow.assessment_submit(assessment=assessment, by=assessment.engineer)


def test_a_superuser_without_the_supervisor_role_is_not_told(engineer, boss, admin):
    assessment = submit(draft_with_result(engineer))
    assert told(assessment) == {"boss"}


def test_a_superuser_who_is_a_supervisor_is_told_as_a_supervisor(engineer, boss, admin, django_user_model):
    from django.contrib.auth.models import Group

    admin.groups.add(Group.objects.get(name=SUPERVISOR_GROUP))
    assessment = submit(draft_with_result(engineer))
    assert told(assessment) == {"boss", "admin"}


def test_a_user_granted_the_review_permission_alone_is_a_supervisor(engineer, boss, django_user_model):
    from django.contrib.auth.models import Permission

    lead = make_user(django_user_model, "lead", group=REVIEWER_GROUP, cbi=True)
    lead.user_permissions.add(Permission.objects.get(codename="review_assessment"))
    assessment = submit(draft_with_result(engineer))
    assert told(assessment) == {"boss", "lead"}


def test_reviewers_and_the_engineer_are_not_told(engineer, boss, other_reviewer_cbi):
    assessment = submit(draft_with_result(engineer))
    assert told(assessment) == {"boss"}


def test_a_supervisor_engineering_the_revision_is_not_told_of_their_own(boss, boss2):
    assessment = submit(draft_with_result(boss))
    assert told(assessment) == {"boss2"}


def test_a_supervisor_without_clearance_is_not_told_of_a_cbi_case(engineer, boss, boss_uncleared):
    assert told(submit(draft_with_result(engineer, **CLAIMED))) == {"boss"}
    assert told(submit(draft_with_result(engineer))) == {"boss", "boss-nocbi"}


def test_an_inactive_supervisor_is_not_told(engineer, boss, boss2):
    boss2.is_active = False
    boss2.save()
    assert told(submit(draft_with_result(engineer))) == {"boss"}


def test_the_supervisor_who_assigned_the_case_is_told_and_no_other(engineer, boss, boss2, admin):
    assessment = draft_with_result(engineer)
    calendar_services.engineer_assign(submission=assessment.submission, engineer=engineer, by=boss2,
                                      reason="Workload.")
    assert told(submit(assessment)) == {"boss2"}


def test_a_reassignment_makes_its_supervisor_the_one_told(engineer, boss, boss2, other_reviewer_cbi):
    assessment = draft_with_result(engineer)
    case = assessment.submission
    calendar_services.engineer_assign(submission=case, engineer=other_reviewer_cbi, by=boss2, reason="Workload.")
    calendar_services.engineer_assign(submission=case, engineer=engineer, by=boss, reason="Back from leave.")
    assessment.refresh_from_db()
    assert told(submit(assessment)) == {"boss"}


def test_a_case_assigned_by_a_superuser_goes_to_the_supervisors(engineer, boss, boss2, admin):
    assessment = draft_with_result(engineer)
    calendar_services.engineer_assign(submission=assessment.submission, engineer=engineer, by=admin,
                                      reason="Workload.")
    assert told(submit(assessment)) == {"boss", "boss2"}


def test_the_supervisor_who_returned_a_revision_is_told_of_its_resubmission(engineer, boss, boss2):
    assessment = submit(draft_with_result(engineer))
    assert told(assessment) == {"boss", "boss2"}
    workflow.assessment_return(assessment=assessment, by=boss2, comment="Check Fchem.")
    assert told(submit(assessment)) == {"boss2"}


def test_a_reviewer_of_the_case_who_lost_clearance_gives_way_to_the_supervisors_who_may(engineer, boss, boss2):
    from django.contrib.auth.models import Permission

    assessment = submit(draft_with_result(engineer, **CLAIMED))
    workflow.assessment_return(assessment=assessment, by=boss2, comment="Check Fchem.")
    boss2.user_permissions.remove(Permission.objects.get(codename="view_cbi"))
    boss2 = type(boss2).objects.get(pk=boss2.pk)  # permissions are cached per instance
    assert told(submit(assessment)) == {"boss"}
