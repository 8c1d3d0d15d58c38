"""Notices and their emails on submit, return, approve and assignment (issue 16, item 4)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from assessments import workflow
from calendar_review import services as calendar_services
from notices.models import Notice, Verb
from notices.selectors import unread_count
from tests._review_support import draft_with_result, submitted
from tests.conftest import make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

CBI_NAME = "Secret-ethyl photoacid"


def test_submit_tells_the_supervisors_by_notice_and_email(engineer, boss, boss_no_email, mail_on_commit):
    assessment = draft_with_result(engineer)
    mail_on_commit(lambda: workflow.assessment_submit(assessment=assessment, by=engineer, note="Ready."))
    notices = Notice.objects.filter(verb=Verb.SUBMITTED)
    assert {n.recipient for n in notices} == {boss, boss_no_email}
    assert [m.to for m in mail.outbox] == [["boss@example.gov"]]  # nobody without an address
    assert assessment.submission.case_number in mail.outbox[0].subject
    assert "Ready." in mail.outbox[0].body


def test_return_and_approve_tell_the_engineer(engineer, boss, mail_on_commit):
    assessment = submitted(engineer)
    mail.outbox.clear()
    mail_on_commit(lambda: workflow.assessment_return(assessment=assessment, by=boss, comment="Check Fchem."))
    notice = Notice.objects.get(verb=Verb.RETURNED)
    assert notice.recipient == engineer and notice.assessment == assessment
    assert [m.to for m in mail.outbox] == [["eng@example.gov"]]
    assert "Check Fchem." in mail.outbox[0].body

    mail.outbox.clear()
    workflow.assessment_submit(assessment=assessment, by=engineer)
    mail_on_commit(lambda: workflow.assessment_approve(assessment=assessment, by=boss, comment="Fine."))
    assert Notice.objects.get(verb=Verb.APPROVED).recipient == engineer
    assert [m.to for m in mail.outbox] == [["eng@example.gov"]]


def test_a_refused_transition_tells_nobody(engineer, boss, mail_on_commit):
    assessment = submitted(engineer)
    Notice.objects.all().delete()
    with pytest.raises(ValidationError, match="comment"):
        mail_on_commit(lambda: workflow.assessment_return(assessment=assessment, by=boss, comment=""))
    assert not Notice.objects.exists() and mail.outbox == []


def test_assignment_tells_the_new_engineer(engineer, boss, mail_on_commit):
    case = make_submission()
    mail_on_commit(lambda: calendar_services.engineer_assign(submission=case, engineer=engineer, by=boss,
                                                               reason="Workload."))
    notice = Notice.objects.get(verb=Verb.ASSIGNED)
    assert notice.recipient == engineer and notice.submission == case
    assert notice.get_absolute_url() == reverse("submission-detail", args=[case.pk])
    assert [m.to for m in mail.outbox] == [["eng@example.gov"]]


def test_cbi_case_emails_hold_no_cbi_and_skip_uncleared_users(engineer, boss, boss_uncleared, mail_on_commit):
    assessment = draft_with_result(engineer, chemical_name=CBI_NAME, cbi_claims=["chemical_name"])
    assert assessment.submission.is_cbi
    mail_on_commit(lambda: workflow.assessment_submit(assessment=assessment, by=engineer, note=CBI_NAME))
    assert not Notice.objects.filter(recipient=boss_uncleared).exists()
    assert [m.to for m in mail.outbox] == [["boss@example.gov"]]
    mail_on_commit(lambda: workflow.assessment_return(assessment=assessment, by=boss, comment=f"{CBI_NAME} is wrong"))
    assert len(mail.outbox) == 2
    case = assessment.submission.case_number
    for message in mail.outbox:
        assert CBI_NAME not in message.subject + message.body
        assert "a CBI case" in message.subject and case in message.subject
        assert "Secret" not in message.body and "wrong" not in message.body
    for notice in Notice.objects.all():
        assert CBI_NAME not in notice.text


def test_unread_count_in_the_navigation_and_marking_read(client, engineer, boss):
    assessment = submitted(engineer)
    workflow.assessment_return(assessment=assessment, by=boss, comment="Again.")
    workflow.assessment_submit(assessment=assessment, by=engineer)
    workflow.assessment_approve(assessment=assessment, by=boss)
    assert unread_count(user=engineer) == 2
    client.force_login(engineer)
    page = client.get(reverse("home")).content.decode()
    assert "Notices <span class=\"badge text-bg-light\">2<span class=\"visually-hidden\"> unread</span>" in page

    listing = client.get(reverse("notice-list")).content.decode()
    assert "was returned to you by Bea Boss" in listing and "was approved by Bea Boss" in listing
    first = Notice.objects.filter(recipient=engineer).first()
    response = client.post(reverse("notice-read", args=[first.pk]), {"open": "1"})
    assert response.url == reverse("assessment-detail", args=[assessment.pk])
    assert unread_count(user=engineer) == 1

    client.post(reverse("notices-read-all"))
    assert unread_count(user=engineer) == 0
    assert "badge" not in client.get(reverse("notice-list")).content.decode().split("<main")[0].split("Notices")[1][:40]


def test_a_notice_of_someone_else_cannot_be_marked_read(client, engineer, boss):
    assessment = submitted(engineer)
    notice = Notice.objects.get(recipient=boss)
    client.force_login(engineer)
    assert client.post(reverse("notice-read", args=[notice.pk])).status_code == 404
    notice.refresh_from_db()
    assert notice.read_at is None and assessment


def test_the_unread_count_is_one_query(engineer, rf, django_assert_num_queries):
    from notices.context_processors import notice_nav

    request = rf.get("/")
    request.user = engineer
    with django_assert_num_queries(1):
        assert notice_nav(request) == {"unread_notices": 0}
