"""Every event of ``assessments.events`` reaches its app once the apps are ready: an event
with no receiver would be announced to nobody (a CBI case's view with no custody row, a
return with no notice, an export without its contact reports), and nothing would say so."""

from __future__ import annotations

from django.dispatch import Signal

from assessments import events
from assessments.models import Assessment, Submission
from calendar_review.models import ReviewCalendar

#: Each event, its sender, and the module of the app that receives it.
RECEIVED_BY = {
    "submitted": (Assessment, "notices.receivers"),
    "approved": (Assessment, "notices.receivers"),
    "returned": (Assessment, "notices.receivers"),
    "assigned": (ReviewCalendar, "notices.receivers"),
    "case_exporting": (Submission, "contacts.receivers"),
    "case_importing": (Submission, "contacts.receivers"),
    "case_data_shown": (Submission, "audit.receivers"),
    "case_number_refused": (Submission, "audit.receivers"),
}


def _receivers(signal: Signal, sender: type) -> list[object]:
    sync, asynchronous = signal._live_receivers(sender)  # Django's own list of a sender's receivers
    return [*sync, *asynchronous]


def test_every_event_is_listed_here():
    declared = {name for name, value in vars(events).items() if isinstance(value, Signal)}
    assert declared == set(RECEIVED_BY)


def test_every_event_has_its_apps_receiver_and_no_other():
    for name, (sender, module) in RECEIVED_BY.items():
        receivers = _receivers(getattr(events, name), sender)
        assert receivers, f"{name}: no receiver"
        assert {r.__module__ for r in receivers} == {module}, name
