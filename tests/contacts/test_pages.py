"""The contact reports' pages: the case page's section, recording a contact, its page,
editing it; the form's errors, named and linked for assistive technology."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from contacts.models import ContactReport
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import make_contact

pytestmark = [pytest.mark.django_db]


def form_data(**overrides) -> dict:
    when = timezone.localtime(timezone.now() - timedelta(hours=2))
    data = {
        "contacted_at": when.strftime("%Y-%m-%dT%H:%M"),
        "direction": "called_by",
        "epa_name": "Riley Reviewer",
        "epa_affiliation": "OPPT/CCD",
        "submitter_name": "Dana Chemist",
        "submitter_affiliation": "Acme Photochemicals",
        "phone": "(202) 555-0100",
        "notes": "The submitter called to say the resist is spin coated.",
    }
    data.update(overrides)
    return data


def test_case_page_lists_the_contacts_with_record_and_print(client, reviewer):
    case = make_submission()
    report = make_contact(case, reviewer, submitter_name="Dana Chemist")
    client.force_login(reviewer)
    html = client.get(f"/cases/{case.pk}/").content.decode()
    section = html[html.index('id="contact-reports"'):]
    assert "Dana Chemist" in section and f'href="/contacts/{report.pk}/"' in section
    assert f'href="/cases/{case.pk}/contacts/new/"' in section and "Record a contact" in section
    assert f'href="/cases/{case.pk}/contacts.pdf"' in section


def test_record_a_contact_from_the_form(client, reviewer):
    case = make_submission()
    assessment = make_assessment(case, reviewer)
    client.force_login(reviewer)
    page = client.get(f"/cases/{case.pk}/contacts/new/").content.decode()
    assert '<label class="form-label" for="id_epa_name">EPA person' in page
    assert "<legend" in page and "Revision 1 (draft)" in page
    response = client.post(f"/cases/{case.pk}/contacts/new/", form_data(assessments=[assessment.pk]))
    report = ContactReport.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/contacts/{report.pk}/"
    assert report.direction == "called_by" and report.created_by == reviewer
    assert list(report.assessments.all()) == [assessment]
    detail = client.get(response["Location"]).content.decode()
    assert "The submitter called to say the resist is spin coated." in detail
    assert "Called by (the submitter called EPA)" in detail and "Revision 1</a>" in detail


def test_errors_are_named_summarised_and_linked(client, reviewer):
    case = make_submission()
    client.force_login(reviewer)
    future = timezone.localtime(timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(f"/cases/{case.pk}/contacts/new/", form_data(contacted_at=future, notes="a\x00b", epa_name=""))
    assert response.status_code == 200
    html = response.content.decode()
    assert not ContactReport.objects.exists()
    summary = html[html.index('id="error-summary"'):html.index("</ul>", html.index('id="error-summary"'))]
    assert '<a href="#id_contacted_at">Date and time of the contact: The contact time' in summary
    assert '<a href="#id_notes">Notes: Notes must not contain NUL characters.</a>' in summary
    assert '<a href="#id_epa_name">EPA person: Give the name of the EPA person.</a>' in summary
    assert 'aria-describedby="error-summary"' in html
    notes_input = re.search(r"<textarea[^>]*id=\"id_notes\"[^>]*>", html).group(0)
    assert 'aria-invalid="true"' in notes_input and "id_notes_error" in notes_input
    assert 'id="id_notes_error"' in html


def test_edit_a_contact(client, reviewer, supervisor):
    case = make_submission()
    report = make_contact(case, reviewer)
    client.force_login(supervisor)
    page = client.get(f"/contacts/{report.pk}/edit/").content.decode()
    assert f'value="{report.version}"' in page and "Sam Submitter" in page
    data = form_data(notes="Corrected by the supervisor.", version_seen=report.version)
    response = client.post(f"/contacts/{report.pk}/edit/", data)
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.notes == "Corrected by the supervisor."
    detail = client.get(f"/contacts/{report.pk}/").content.decode()
    changed = re.search(r"<td>Changed: ([^<]*)</td>", detail).group(1)
    assert "notes" in changed.split(", ") and "type of contact" in changed.split(", ")


def test_uncleared_user_gets_404_for_a_cbi_contact_and_no_trace_on_the_case_page(client, reviewer, uncleared_reviewer):
    case = make_submission()
    secret = make_contact(case, reviewer, is_cbi=True, submitter_name="Hidden Person")
    client.force_login(uncleared_reviewer)
    assert client.get(f"/contacts/{secret.pk}/").status_code == 404
    assert client.get(f"/contacts/{secret.pk}/edit/").status_code == 404
    assert client.get(f"/contacts/{secret.pk}/report.pdf").status_code == 404
    assert "Hidden Person" not in client.get(f"/cases/{case.pk}/").content.decode()


def test_uncleared_user_cannot_tick_cbi(client, uncleared_reviewer):
    case = make_submission()
    client.force_login(uncleared_reviewer)
    page = client.get(f"/cases/{case.pk}/contacts/new/").content.decode()
    assert re.search(r'<input[^>]*name="is_cbi"[^>]*disabled', page)


def test_user_without_a_role_has_no_record_button_and_is_refused(client, django_user_model):
    from tests.conftest import make_user

    visitor = make_user(django_user_model, "visitor")
    case = make_submission()
    client.force_login(visitor)
    assert "Record a contact" not in client.get(f"/cases/{case.pk}/").content.decode()
    assert client.get(f"/cases/{case.pk}/contacts/new/").status_code == 403
    assert client.post(f"/cases/{case.pk}/contacts/new/", form_data()).status_code == 403
    assert not ContactReport.objects.exists()
