"""The contact report form. It checks only what a browser can get wrong (a date and time
that is one, a choice that is offered) and reads the time typed as the clock showed it
(``contacts.local_time``: a time that happens twice the night the clocks go back is asked
about, with a second field offering its two readings; one that never happened is refused);
every rule of the contact itself is the model's ``clean()``, which the form runs
(ModelForm's model validation) and the service runs again for every other caller; its
errors come back on the field they name."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.forms.boundfield import BoundField
from django.forms.fields import BaseTemporalField
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from assessments.models import Assessment

from . import local_time
from .models import NOTES_LIMIT, ContactReport, Direction, report_field

TIME_INVALID = "Enter a date and time, e.g. 2026-03-02 14:30."

_F = TypeVar("_F", bound=forms.Field)


class WallClockField(forms.DateTimeField):
    """A date and time as typed, *naive*: which instant it names is the form's decision
    (:meth:`ContactReportForm.clean`), where Django's own field would refuse a time that
    happens twice. A time with its UTC offset (``2026-11-01T01:30-05:00``) is taken as
    given. Digits other than ASCII ones (fullwidth ``２０２６``) are refused, as look-alikes."""

    def to_python(self, value: Any) -> datetime | None:
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        if not isinstance(value, str) or not value.isascii():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        try:
            parsed = parse_datetime(value.strip())
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        return parsed or BaseTemporalField.to_python(self, value)


class RevisionChoiceField(forms.ModelMultipleChoiceField[Assessment]):
    def label_from_instance(self, obj: Assessment) -> str:
        return f"Revision {obj.revision} ({obj.get_status_display().lower()})"


class PageBoundField(BoundField):
    """A bound field with what the page (``templates/contacts/contact_form.html``) reads
    besides Django's own, set by :meth:`ContactReportForm.fieldsets`: the ids of the texts
    that describe its input, whether it is a group of radio buttons or check boxes, and
    whether it is marked required."""

    described_by = ""
    grouped = False
    required_mark = False


def _field(form: forms.BaseForm, name: str, kind: type[_F]) -> _F:
    """``form``'s field ``name``, of the class ``kind`` it is made as."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"The field {name} is a {type(field).__name__}, not a {kind.__name__}.")
    return field


class ContactReportForm(forms.ModelForm[ContactReport]):
    bound_field_class = PageBoundField
    version_seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=2**31 - 1)
    contacted_at = WallClockField(
        label="Date and time of the contact",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        help_text="Local time (US Eastern). Not in the future.",
        error_messages={"invalid": TIME_INVALID},
    )
    # Shown (in "The contact") only when the time entered, or stored, happens twice.
    contacted_at_reading = forms.ChoiceField(
        label=local_time.READING_LABEL, required=False, help_text=local_time.READING_HELP,
        choices=[("", "Choose one"), (local_time.FIRST, "The first"), (local_time.SECOND, "The second")],
    )
    assessments = RevisionChoiceField(
        label="Applies to revisions",
        queryset=Assessment.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The revisions whose report this contact is printed with. Approved revisions are final and "
        "are not offered. Leave all unticked for a contact about the case as a whole.",
    )

    class Meta:
        model = ContactReport
        fields = [
            "contacted_at", "direction", "epa_name", "epa_affiliation", "submitter_name",
            "submitter_affiliation", "phone", "is_cbi", "notes",
        ]
        widgets = {
            "direction": forms.RadioSelect,
            "notes": forms.Textarea(attrs={"rows": 8, "maxlength": str(NOTES_LIMIT)}),
            "phone": forms.TextInput(attrs={"autocomplete": "off", "inputmode": "tel"}),
        }

    # Field sets of the page: (legend, field names).
    FIELDSETS = (
        ("The contact", ("contacted_at", "contacted_at_reading", "direction", "phone")),
        ("EPA", ("epa_name", "epa_affiliation")),
        ("Submitter", ("submitter_name", "submitter_affiliation")),
        ("What was discussed", ("notes", "is_cbi")),
        ("Revisions", ("assessments",)),
    )

    def __init__(
        self, *args: Any, linkable: Iterable[Assessment] | None = None, linked: Collection[Assessment] = (),
        may_mark_cbi: bool = True, **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The model's choices without the blank one its form field adds (no blank radio).
        _field(self, "direction", forms.ChoiceField).choices = Direction.choices
        # The revisions offered: those a contact may be added to, and those it has already.
        ids = {a.pk for a in (linkable or [])} | {a.pk for a in linked}
        offered = _field(self, "assessments", RevisionChoiceField)
        offered.queryset = Assessment.objects.filter(pk__in=ids).order_by("revision")
        if self.instance.pk:
            self.fields["version_seen"].initial = self.instance.version
            self.fields["assessments"].initial = [a.pk for a in linked]
            if self.instance.contacted_at:
                self.initial["contacted_at"] = timezone.localtime(self.instance.contacted_at).strftime("%Y-%m-%dT%H:%M")
                self.initial["contacted_at_reading"] = local_time.reading_of(self.instance.contacted_at)
        self._offer_readings()
        if not may_mark_cbi:
            self.fields["is_cbi"].disabled = True
            self.fields["is_cbi"].help_text = "Only users cleared for CBI may mark a contact as CBI."
        # The fields the page marks required (the model's clean() requires them).
        self.marked_required: set[str] = set()
        for name in ContactReport.TEXT_FIELDS:
            # The model says what is wrong with a text (its clean()), in its own words:
            # the form field only carries the browser's hints.
            field = _field(self, name, forms.CharField)
            model_field = report_field(name)
            field.validators = []
            field.max_length = None
            if not model_field.blank:
                field.required = False
                field.widget.attrs["aria-required"] = "true"
                self.marked_required.add(name)
            if name in ContactReport.ONE_LINE:
                field.widget.attrs["maxlength"] = str(model_field.max_length)
        self.marked_required |= {"contacted_at", "direction"}

    def _wall_clock(self) -> datetime | None:
        """The time the form shows: as posted, else as stored; ``None`` if it is not one."""
        raw = self.data.get(self.add_prefix("contacted_at")) if self.is_bound else self.initial.get("contacted_at")
        try:
            value = self.fields["contacted_at"].to_python(raw)
        except ValidationError:
            return None
        return value if isinstance(value, datetime) and timezone.is_naive(value) else None

    def _offer_readings(self) -> None:
        """Label the two readings of a time that happens twice; note whether to show them."""
        naive = self._wall_clock()
        choices = local_time.reading_choices(naive) if naive else []
        self.asks_reading = bool(choices)
        if choices:
            _field(self, "contacted_at_reading", forms.ChoiceField).choices = [("", "Choose one"), *choices]

    def clean(self) -> dict[str, Any]:
        """The time typed, read in the application's time zone (``local_time.contact_instant``)
        before the model's own checks see it."""
        super().clean()
        cleaned = self.cleaned_data
        value = cleaned.get("contacted_at")
        if isinstance(value, datetime) and timezone.is_naive(value):
            try:
                cleaned["contacted_at"] = local_time.contact_instant(value, reading=cleaned.get("contacted_at_reading", ""))
            except ValidationError as exc:
                self.add_error("contacted_at", exc)
        return cleaned

    def saved_message(self, saved: str) -> str:
        """The page's message after a save: ``saved``, and for a time that happens twice,
        which of its readings was stored."""
        value = self.cleaned_data.get("contacted_at")
        note = local_time.stored_note(value) if value else ""
        return f"{saved} {note}" if note else saved

    def fieldsets(self) -> list[tuple[str, list[PageBoundField]]]:
        """``[(legend, [bound field, ...])]`` in the page's order, each input described by
        its help text and, when it has any, its errors (``aria-describedby``)."""
        groups = []
        for legend, names in self.FIELDSETS:
            fields = []
            for name in names:
                if name == "contacted_at_reading" and not self.asks_reading:
                    continue
                bound = self[name]
                assert isinstance(bound, PageBoundField), "the form's bound_field_class makes every bound field"
                described = [f"{bound.auto_id}_helptext"] if bound.help_text else []
                if bound.errors:
                    described.append(f"{bound.auto_id}_error")
                    bound.field.widget.attrs["aria-invalid"] = "true"
                if described and not self.is_grouped(bound):
                    bound.field.widget.attrs["aria-describedby"] = " ".join(described)
                bound.described_by = " ".join(described)
                bound.grouped = self.is_grouped(bound)
                bound.required_mark = name in self.marked_required
                fields.append(bound)
            groups.append((legend, fields))
        return groups

    @staticmethod
    def is_grouped(bound: BoundField) -> bool:
        """Radio buttons and check boxes of one field: a fieldset of their own."""
        return isinstance(bound.field.widget, (forms.RadioSelect, forms.CheckboxSelectMultiple))

    def model_data(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}
