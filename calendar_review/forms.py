"""The review calendar's forms. They check only what a browser can get wrong (a date that
is one, a whole number, a choice that is offered, each typed with plain characters:
``assessments.forms.plain``); every rule of the calendar itself is the models' ``clean()``,
run by the services, whose errors come back on the field they name."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from assessments.forms.plain import PlainDateField, PlainIntegerField, PlainModelChoiceField

from .models import EARLIEST_RECEIVED, MAX_PERIOD_DAYS, REASON_LIMIT, person

#: The calendar's dates' ranges in words, for a date typed with look-alike characters (the
#: models' ``clean()`` says the same of a date out of range).
RECEIVED_RANGE = f"from {EARLIEST_RECEIVED.isoformat()} to today"
ENTRY_RANGE = "from the day the notice was received to today"
SUSPENSION_END_RANGE = "from the suspension's first day, at most ten years ahead"


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


def _date(label: str, help_text: str = "", required: bool = True, *, subject: str, allowed: str) -> forms.DateField:
    return PlainDateField(
        label=label, required=required, help_text=help_text, widget=DateInput(),
        error_messages={"invalid": "Enter a date, e.g. 2026-03-02."}, subject=subject, allowed=allowed,
    )


def _reason(help_text: str) -> forms.CharField:
    return forms.CharField(
        label="Reason", max_length=REASON_LIMIT, strip=True, help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": str(REASON_LIMIT)}),
    )


class StyledForm(forms.Form):
    """Bootstrap's classes on every widget, ``is-invalid`` on those with errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            css = "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            field.widget.attrs["class"] = css

    def full_clean(self) -> None:
        super().full_clean()
        for name in self.errors:
            if name in self.fields:
                self.fields[name].widget.attrs["class"] += " is-invalid"


class CalendarForm(StyledForm):
    received_on = _date("Received", "The day EPA received the notice. Not in the future.",
                        subject="The received date", allowed=RECEIVED_RANGE)
    period_days = PlainIntegerField(
        subject="The review period (days)", label="Review period (days)", min_value=1, max_value=MAX_PERIOD_DAYS,
        help_text="Calendar days from receipt; weekends count. TSCA gives 90 days for a PMN.",
    )


class SuspensionForm(StyledForm):
    starts_on = _date("Suspended from", "The first day the clock is stopped. Not in the future.",
                      subject="The suspension's first day", allowed=ENTRY_RANGE)
    ends_on = _date(
        "Suspended to", "The last day the clock is stopped (counted). Leave empty while the suspension is open.",
        required=False, subject="The suspension's last day", allowed=SUSPENSION_END_RANGE,
    )
    reason = _reason("e.g. the submitter's request of 2026-03-01, to send test data.")


class SuspensionEndForm(StyledForm):
    ends_on = _date("Last day of the suspension", "The last day the clock was stopped (counted).",
                    subject="The suspension's last day", allowed=SUSPENSION_END_RANGE)


class ExtensionForm(StyledForm):
    granted_on = _date("Granted on", "The day the extension was granted. Not in the future.",
                       subject="The day the extension was granted", allowed=ENTRY_RANGE)
    days = PlainIntegerField(
        subject="An extension (days)", label="Days", min_value=1, max_value=MAX_PERIOD_DAYS, help_text="Calendar days added to the review period."
    )
    reason = _reason("e.g. TSCA 5(c) extension, notice to the submitter of 2026-03-01.")


class EngineerChoiceField(PlainModelChoiceField[User]):
    def label_from_instance(self, obj: User) -> str:
        return person(obj)


class AssignForm(StyledForm):
    engineer = EngineerChoiceField(
        subject="an engineer", label="Engineer", queryset=None, empty_label="Choose an engineer",
        help_text="Reviewers and supervisors (cleared for CBI when the case is CBI).",
    )
    reason = _reason("Kept in the case's history, e.g. workload, expertise in the use.")

    def __init__(self, *args: Any, engineers: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # self.fields holds copies of the fields declared above: "engineer" is an EngineerChoiceField.
        cast(EngineerChoiceField, self.fields["engineer"]).queryset = engineers
