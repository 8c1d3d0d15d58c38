"""The contact report form. It checks only what a browser can get wrong (a date and time
that is one, a choice that is offered); every rule of the contact itself is the model's
``clean()``, which the form runs (ModelForm's model validation) and the service runs again
for every other caller; its errors come back on the field they name."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from assessments.models import Assessment

from .models import NOTES_LIMIT, ContactReport


class RevisionChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Assessment) -> str:
        return f"Revision {obj.revision} ({obj.get_status_display().lower()})"


class ContactReportForm(forms.ModelForm):
    version_seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=2**31 - 1)
    contacted_at = forms.DateTimeField(
        label="Date and time of the contact",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        help_text="Local time (US Eastern). Not in the future.",
        error_messages={"invalid": "Enter a date and time, e.g. 2026-03-02 14:30."},
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
        ("The contact", ("contacted_at", "direction", "phone")),
        ("EPA", ("epa_name", "epa_affiliation")),
        ("Submitter", ("submitter_name", "submitter_affiliation")),
        ("What was discussed", ("notes", "is_cbi")),
        ("Revisions", ("assessments",)),
    )

    def __init__(self, *args, linkable=None, linked=(), may_mark_cbi: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["direction"].choices = list(self.fields["direction"].choices)[1:]  # no blank radio
        # The revisions offered: those a contact may be added to, and those it has already.
        ids = {a.pk for a in (linkable or [])} | {a.pk for a in linked}
        self.fields["assessments"].queryset = Assessment.objects.filter(pk__in=ids).order_by("revision")
        if self.instance.pk:
            self.fields["version_seen"].initial = self.instance.version
            self.fields["assessments"].initial = [a.pk for a in linked]
            if self.instance.contacted_at:
                self.initial["contacted_at"] = timezone.localtime(self.instance.contacted_at).strftime("%Y-%m-%dT%H:%M")
        if not may_mark_cbi:
            self.fields["is_cbi"].disabled = True
            self.fields["is_cbi"].help_text = "Only users cleared for CBI may mark a contact as CBI."
        for name in ContactReport.TEXT_FIELDS:
            # The model says what is wrong with a text (its clean()), in its own words:
            # the form field only carries the browser's hints.
            field = self.fields[name]
            model_field = ContactReport._meta.get_field(name)
            field.validators = []
            field.max_length = None
            if not model_field.blank:
                field.required = False
                field.widget.attrs["aria-required"] = "true"
                field.mark_required = True
            if name in ContactReport.ONE_LINE:
                field.widget.attrs["maxlength"] = str(model_field.max_length)
        self.fields["contacted_at"].mark_required = self.fields["direction"].mark_required = True

    def fieldsets(self) -> list[tuple[str, list]]:
        """``[(legend, [bound field, ...])]`` in the page's order, each input described by
        its help text and, when it has any, its errors (``aria-describedby``)."""
        groups = []
        for legend, names in self.FIELDSETS:
            fields = []
            for name in names:
                bound = self[name]
                described = [f"{bound.auto_id}_helptext"] if bound.help_text else []
                if bound.errors:
                    described.append(f"{bound.auto_id}_error")
                    bound.field.widget.attrs["aria-invalid"] = "true"
                if described and not self.is_grouped(bound):
                    bound.field.widget.attrs["aria-describedby"] = " ".join(described)
                bound.described_by = " ".join(described)
                bound.grouped = self.is_grouped(bound)
                bound.required_mark = getattr(bound.field, "mark_required", False)
                fields.append(bound)
            groups.append((legend, fields))
        return groups

    @staticmethod
    def is_grouped(bound) -> bool:
        """Radio buttons and check boxes of one field: a fieldset of their own."""
        return isinstance(bound.field.widget, (forms.RadioSelect, forms.CheckboxSelectMultiple))

    def model_data(self) -> dict:
        return {name: self.cleaned_data[name] for name in self._meta.fields}
