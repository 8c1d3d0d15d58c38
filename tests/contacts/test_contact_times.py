"""A contact time is typed as the clock showed it, in US Eastern time (settings.TIME_ZONE,
America/New_York), and stored as the one instant it names (``contacts.local_time``):

- 2025-11-02 01:00 to 01:59 happened twice (the clocks went back from 02:00 EDT to 01:00
  EST): the form asks which, offering both readings, and stores the one chosen;
- 2025-03-09 02:00 to 02:59 never happened (the clocks went forward from 02:00 EST to 03:00
  EDT): the form refuses it, naming the field and the times that exist, never shifting it.

And a contact's date lies from 1977-01-01 (TSCA took effect), in local time, up to now.

The dates are those of 2025, so that "not in the future" holds whenever the tests run; the
offsets are the Energy Policy Act of 2005's (first Sunday of November, second of March)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError

from contacts import local_time
from contacts.forms import TIME_INVALID, ContactReportForm
from contacts.models import ContactReport
from contacts.reports import contact_entries
from contacts.templatetags.contact_reports import contact_time
from tests.conftest import make_submission
from tests.contacts.factories import make_contact
from tests.contacts.test_pages import form_data

pytestmark = [pytest.mark.django_db]

TWICE = "2025-11-02T01:30"  # first 05:30 UTC (EDT, UTC-04:00), then 06:30 UTC (EST, UTC-05:00)
NEVER = "2025-03-09T02:30"

TWICE_MESSAGE = (
    "The contact time 2025-11-02 01:30 happens twice in US Eastern time: the clocks went back an hour that "
    "night, so 01:00 to 01:59 came first in EDT (UTC-04:00) and again in EST (UTC-05:00). Choose which 01:30 "
    "it was under “Daylight or standard time”."
)
NEVER_MESSAGE = (
    "The contact time 2025-03-09 02:30 does not exist in US Eastern time: the clocks went forward an hour "
    "that night, from 02:00 EST straight to 03:00 EDT, so no clock showed 02:00 to 02:59. "
    "Check the time: give one before 02:00 or from 03:00."
)


@pytest.fixture
def case():
    return make_submission()


def post(client, case, **data):
    return client.post(f"/cases/{case.pk}/contacts/new/", form_data(**data))


def summary(html: str) -> str:
    start = html.index('id="error-summary"')
    return html[start:html.index("</ul>", start)]


def form_errors(**data) -> dict:
    form = ContactReportForm(data=form_data(**data))
    assert not form.is_valid()
    return form.errors


# The night the clocks go back --------------------------------------------------------------------


def test_a_time_that_happens_twice_is_asked_about_not_refused_for_good(client, reviewer, case):
    client.force_login(reviewer)
    response = post(client, case, contacted_at=TWICE)
    assert response.status_code == 200 and not ContactReport.objects.exists()
    html = response.content.decode()
    assert f'<a href="#id_contacted_at">Date and time of the contact: {TWICE_MESSAGE}</a>' in summary(html)
    offered = re.search(r'<select name="contacted_at_reading".*?</select>', html, re.S).group(0)
    assert '<option value="first">01:30 EDT (UTC-04:00), the first, before the clocks went back</option>' in offered
    assert '<option value="second">01:30 EST (UTC-05:00), the second, after the clocks went back</option>' in offered


@pytest.mark.parametrize(("reading", "stored", "shown"), [
    (local_time.FIRST, datetime(2025, 11, 2, 5, 30, tzinfo=UTC), "01:30 EDT (UTC-04:00)"),
    (local_time.SECOND, datetime(2025, 11, 2, 6, 30, tzinfo=UTC), "01:30 EST (UTC-05:00)"),
])
def test_the_reading_chosen_is_stored_and_said(client, reviewer, case, reading, stored, shown):
    client.force_login(reviewer)
    response = post(client, case, contacted_at=TWICE, contacted_at_reading=reading)
    report = ContactReport.objects.get()
    assert response.status_code == 302 and report.contacted_at == stored
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert said == [f"Contact recorded. The contact time 2025-11-02 01:30 happens twice; it was recorded as {shown}."]
    printed = contact_entries([report], submission=case, sanitised=False)[0]["contacted_at"]
    assert printed == f"11/02/2025 01:30 AM {shown[6:9]}"
    assert contact_time(report.contacted_at) == f"Sunday, November 2, 2025, 01:30 {shown[6:9]}"


def test_editing_keeps_the_reading_stored(client, reviewer, case):
    """The edit form shows 01:30 and which 01:30 it is; saved unchanged, the contact stays
    at the instant it was (no silent move to the first 01:30)."""
    report = make_contact(case, reviewer, contacted_at=datetime(2025, 11, 2, 6, 30, tzinfo=UTC))
    client.force_login(reviewer)
    html = client.get(f"/contacts/{report.pk}/edit/").content.decode()
    assert 'value="2025-11-02T01:30"' in html
    assert '<option value="second" selected>01:30 EST (UTC-05:00)' in html
    response = client.post(f"/contacts/{report.pk}/edit/", form_data(
        contacted_at=TWICE, contacted_at_reading=local_time.SECOND, version_seen=report.version, notes="Corrected.",
    ))
    assert response.status_code == 302
    report.refresh_from_db()
    assert (report.contacted_at, report.notes) == (datetime(2025, 11, 2, 6, 30, tzinfo=UTC), "Corrected.")


@pytest.mark.parametrize(("typed", "twice"), [
    ("2025-11-02T00:59", False), ("2025-11-02T01:00", True), ("2025-11-02T01:59", True), ("2025-11-02T02:00", False),
])
def test_only_the_repeated_hour_is_asked_about(typed, twice):
    form = ContactReportForm(data=form_data(contacted_at=typed))
    assert form.is_valid() is not twice
    assert form.asks_reading is twice


def test_a_reading_sent_with_a_time_that_happens_once_is_ignored():
    form = ContactReportForm(data=form_data(contacted_at="2025-07-01T01:30", contacted_at_reading=local_time.SECOND))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["contacted_at"] == datetime(2025, 7, 1, 5, 30, tzinfo=UTC)
    assert not form.asks_reading


def test_the_reading_field_is_not_shown_for_an_ordinary_time(client, reviewer, case):
    client.force_login(reviewer)
    assert "contacted_at_reading" not in client.get(f"/cases/{case.pk}/contacts/new/").content.decode()


# The night the clocks go forward -----------------------------------------------------------------


def test_a_time_that_never_happened_is_refused_naming_the_field(client, reviewer, case):
    client.force_login(reviewer)
    response = post(client, case, contacted_at=NEVER)
    assert response.status_code == 200 and not ContactReport.objects.exists()
    assert f'<a href="#id_contacted_at">Date and time of the contact: {NEVER_MESSAGE}</a>' in summary(
        response.content.decode()
    )


@pytest.mark.parametrize("reading", [local_time.FIRST, local_time.SECOND])
def test_a_reading_does_not_make_a_missing_time_exist(reading):
    assert form_errors(contacted_at=NEVER, contacted_at_reading=reading)["contacted_at"] == [NEVER_MESSAGE]


def test_the_times_around_the_gap_are_stored_as_typed():
    for typed, stored in (("2025-03-09T01:59", datetime(2025, 3, 9, 6, 59, tzinfo=UTC)),
                          ("2025-03-09T03:00", datetime(2025, 3, 9, 7, 0, tzinfo=UTC))):
        form = ContactReportForm(data=form_data(contacted_at=typed))
        assert form.is_valid(), form.errors
        assert form.cleaned_data["contacted_at"] == stored


def test_the_rule_is_the_time_zones_not_the_forms():
    with pytest.raises(ValidationError) as caught:
        local_time.contact_instant(datetime(2025, 11, 2, 1, 30))
    assert caught.value.messages == [TWICE_MESSAGE]


# The range of a contact's date -------------------------------------------------------------------


def test_contact_dates_start_on_1_january_1977_in_local_time():
    """23:59 EST on 31 December 1976 is 04:59 UTC on 1 January 1977: still too early."""
    assert form_errors(contacted_at="1976-12-31T23:59")["contacted_at"] == [
        "The contact time 1976-12-31 23:59 EST is before 1977-01-01, when TSCA took effect: check the year "
        "(a contact time runs from 1977-01-01 up to now)."
    ]
    form = ContactReportForm(data=form_data(contacted_at="1977-01-01T00:00"))
    assert form.is_valid(), form.errors


@pytest.mark.parametrize("typed", ["0001-01-01T00:00", "9999-12-31T23:59"])
def test_the_ends_of_the_calendar_are_refused_with_the_range(typed):
    message = form_errors(contacted_at=typed)["contacted_at"][0]
    assert message.startswith(f"The contact time {typed.replace('T', ' ')} ")
    assert "from 1977-01-01 up to now" in message


def test_year_one_from_another_caller_is_refused_not_a_server_error(case):
    report = ContactReport(submission=case, contacted_at=datetime(1, 1, 1, tzinfo=UTC), direction="meeting",
                           epa_name="Riley Reviewer", submitter_name="Sam Submitter", notes="Met.")
    with pytest.raises(ValidationError) as caught:
        report.full_clean()
    assert caught.value.message_dict["contacted_at"][0].startswith("The contact time 0001-01-01 00:00 UTC is before")


def test_look_alike_digits_are_refused():
    assert form_errors(contacted_at="２０２５-03-02T14:30")["contacted_at"] == [TIME_INVALID]
