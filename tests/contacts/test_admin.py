"""The contact reports' admin under the pages' rules: CBI hidden from uncleared staff,
locked reports read-only, additions and changes through the service."""

import pytest
from django.contrib.auth.models import Permission

from assessments import workflow
from contacts.models import ContactReport
from tests._review_support import add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission, make_user
from tests.contacts.factories import contact_data, make_contact

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.fixture
def uncleared_staff(django_user_model):
    user = make_user(django_user_model, "staff", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="contacts"))
    return user


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")


def test_uncleared_staff_do_not_see_cbi_contacts(client, reviewer, uncleared_staff):
    case = make_submission()
    public = make_contact(case, reviewer, submitter_name="Pat Public")
    secret = make_contact(case, reviewer, is_cbi=True, submitter_name="Quinn Secret")
    on_cbi_case = make_contact(make_submission(cbi_claims=["submitter"]), reviewer, submitter_name="Casey Claimed")
    client.force_login(uncleared_staff)
    listing = client.get("/admin/contacts/contactreport/").content.decode()
    assert "Pat Public" in listing and "Quinn Secret" not in listing and "Casey Claimed" not in listing
    assert client.get(f"/admin/contacts/contactreport/{public.pk}/change/").status_code == 200
    for hidden in (secret, on_cbi_case):
        assert client.get(f"/admin/contacts/contactreport/{hidden.pk}/history/").status_code == 404


def test_a_locked_contact_is_read_only_in_the_admin(client, reviewer, other_supervisor, admin_user):
    assessment = make_assessment(make_submission(), reviewer)
    add_computed_scenario(assessment)
    report = make_contact(assessment.submission, reviewer, assessments=[assessment])
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=assessment, by=other_supervisor, comment="Fine.")
    client.force_login(admin_user)
    page = client.get(f"/admin/contacts/contactreport/{report.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    data = {**contact_data(notes="Changed in the admin."), "contacted_at_0": "2026-01-05", "contacted_at_1": "10:00"}
    assert client.post(f"/admin/contacts/contactreport/{report.pk}/change/", data).status_code == 403
    report.refresh_from_db()
    assert report.notes != "Changed in the admin."


def test_adding_in_the_admin_runs_the_models_rules(client, admin_user):
    case = make_submission()
    client.force_login(admin_user)
    data = {**contact_data(notes="Added in the admin.", phone="call me"), "submission": case.pk,
            "contacted_at_0": "2026-01-05", "contacted_at_1": "10:00",
            "links-TOTAL_FORMS": "0", "links-INITIAL_FORMS": "0"}
    data.pop("contacted_at")
    response = client.post("/admin/contacts/contactreport/add/", data)
    assert response.status_code == 200 and "Enter a phone number of digits" in response.content.decode()
    data["phone"] = "202 555 0100"
    response = client.post("/admin/contacts/contactreport/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    report = ContactReport.objects.get()
    assert report.created_by == admin_user and report.history.get().history_user == admin_user
