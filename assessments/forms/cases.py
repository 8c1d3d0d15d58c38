"""The case form: every field of the submission, grouped as the IRER header groups
them, with a CBI checkbox beside each field a submitter may claim."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any, cast, overload

from django import forms
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.forms.boundfield import BoundField
from django.utils import timezone
from django.utils.functional import Promise

from ..case_numbers import hidden_case
from ..esd.number_text import ASCII_DIGITS, PLAIN_CHARACTERS
from ..esd.parameters import NumberTextError, parse_number
from ..limits import TEXT_LIMITS
from ..models import (
    LATEST_STATUS_CHOICES,
    TLV_PEL_KIND_INVALID,
    Assessment,
    ExposureLimitKind,
    ExposureLimitUnit,
    IrerNote,
    Submission,
    own_field,
)
from ..models.case_fields import (
    ASSESSMENT_DATE,
    TLV_PEL_VALUE,
    IrerStatus,
    NumberRange,
)
from ..selectors import HEADER_GROUPS
from ..services import AMENDMENT_REASON_REQUIRED
from .plain import PlainDateField, PlainIntegerField

CBI_PREFIX = "cbi_"


class GroupedFloatField(forms.FloatField):
    """A number as a person types it, read as the engine reads it
    (:func:`~assessments.esd.parameters.parse_number`): ``5,000`` and ``1.5`` are
    numbers; ``1,5`` is refused, saying to use a decimal point, as the wizard and
    ``esd compute`` say it. A number refused for its size (``1e-400``, which a double
    holds as 0; ``1e309``) or its characters (``１２``) is refused naming the field's
    range (``number_range``, the model field's :class:`NumberRange`)."""

    number_range: NumberRange | None = None

    # A FloatField's to_python (django-stubs types FloatField's own with the same ignore).
    def to_python(self, value: Any | None) -> float | None:  # type: ignore[override]
        if not isinstance(value, str):
            return super().to_python(value)
        if not value.strip():
            return None
        try:
            return parse_number(value)
        except NumberTextError as exc:
            raise forms.ValidationError(self._message(exc, value), code="invalid") from None

    def _message(self, exc: NumberTextError, value: str) -> str:
        allowed = f" {self.number_range.allowed}" if self.number_range is not None else ""
        if exc.tiny:
            return f"Enter a number{allowed}: {value.strip()[:40]} is {exc.hint}."
        if exc.infinite:
            return f"Enter a number{allowed}: it must be finite (at most 1.8E+308 in size)."
        if exc.hint in (ASCII_DIGITS, PLAIN_CHARACTERS):
            return f"Enter a number{allowed}: {exc.hint}."
        return f"Enter a number: {exc.hint}." if exc.hint else str(self.error_messages["invalid"])


_NUMBER_FIELDS = [
    f.name for f in Submission._meta.get_fields() if f.get_internal_type() == "FloatField"
]


def number_range(name: str) -> NumberRange | None:
    """The range of the case's number field ``name``: its validator's (the TLV/PEL value's
    is checked by ``Submission.clean()``, with the same declaration)."""
    if name == "tlv_pel_value":
        return TLV_PEL_VALUE
    field = own_field(Submission, name)
    return next((v for v in field.validators if isinstance(v, NumberRange)), None)


class AssessmentDateField(PlainDateField):
    """The assessment date, typed with the digits 0-9 (its range: ``case_fields.ASSESSMENT_DATE``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(subject=ASSESSMENT_DATE.subject, **kwargs)


def _version_seen() -> forms.IntegerField:
    return PlainIntegerField(subject="The version seen", widget=forms.HiddenInput, required=False, min_value=1,
                             max_value=2**31 - 1)


def limit_text_fields(form: forms.BaseForm) -> None:
    """Give each free-text field of ``form`` its limit (``limits.TEXT_LIMITS``): the
    browser stops at it and the form says so when it is exceeded."""
    for name, limit in TEXT_LIMITS.items():
        field = form.fields.get(name)
        if isinstance(field, forms.CharField):
            field.max_length = limit
            field.validators.append(MaxLengthValidator(limit))
            field.widget.attrs["maxlength"] = str(limit)


def error_summary(form: forms.BaseForm, order: list[str] | None = None) -> list[dict[str, Any]]:
    """The form's errors for the summary at the top of its page: the form's own errors
    first (no field to link to), then each field's, in ``order`` (the names as the page
    shows the fields; the form's order when None), as ``{"href": "#<its input's id>",
    "label": "Production volume (kg/yr)", "message": ...}``. A hidden field's error has no
    input to go to: it is listed with the form's own."""
    names = [name for name in (order or []) if name in form.fields]
    names += [name for name in form.fields if name not in names]
    own = [{"href": "", "label": "", "message": message} for message in form.non_field_errors()]
    fields = []
    for bound in (form[name] for name in names):
        for message in bound.errors:
            if bound.is_hidden:
                own.append({"href": "", "label": "", "message": message})
                continue
            label = str(bound.label or bound.name)
            fields.append({"href": f"#{bound.id_for_label}", "label": label[:1].upper() + label[1:],
                           "message": message})
    return own + fields


class CaseNumberRule(forms.models.BaseModelForm[Submission]):
    """Mixed into a case's model form, before it: the number's uniqueness as ``user`` may be
    told it. A number held by a case ``user`` may not see (``case_numbers.hidden_case``)
    passes here as a free number does; the save refuses it, naming no case
    (``services.CASE_NUMBER_REFUSED``). Without a user, every case's number is said taken."""

    user: User | AnonymousUser | None = None

    def number_held_by_hidden_case(self) -> Submission | None:
        """The case ``user`` may not see whose number the form holds, or None."""
        if self.user is None:
            return None
        return hidden_case(user=self.user, case_number=self.instance.case_number, exclude_pk=self.instance.pk)

    def validate_unique(self) -> None:
        # BaseModelForm.validate_unique with the one exclusion more; its helpers are not in django-stubs.
        exclude = self._get_validation_exclusions()  # type: ignore[attr-defined]  # Django's, not in the stubs
        if "case_number" not in exclude and self.number_held_by_hidden_case() is not None:
            exclude.add("case_number")
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as exc:
            self._update_errors(exc)  # type: ignore[attr-defined]  # Django's, not in the stubs


class SubmissionForm(CaseNumberRule, forms.ModelForm[Submission]):
    """The case. Its rules are the model's (``Submission``'s field validators, ``clean()``
    and uniqueness), which the form runs before the service saves; the admin and the import
    run the same ``full_clean``. ``user``: who fills it in (:class:`CaseNumberRule`)."""

    version_seen = _version_seen()

    class Meta:
        model = Submission
        fields = [name for _, names in HEADER_GROUPS for name in names]
        field_classes = dict.fromkeys(_NUMBER_FIELDS, GroupedFloatField)
        widgets = {name: forms.TextInput(attrs={"inputmode": "decimal"}) for name in _NUMBER_FIELDS} | {
            "use_description": forms.Textarea(attrs={"rows": 3}),
            "other_uses": forms.Textarea(attrs={"rows": 2}),
            "consumer_use": forms.Textarea(attrs={"rows": 2}),
            "sat_health": forms.Textarea(attrs={"rows": 2}),
            "sat_eco": forms.Textarea(attrs={"rows": 2}),
        }
        error_messages = {
            name: {"invalid_choice": f"Choose the {label} from the list{blank}."}
            for name, label, blank in (
                ("volume_qualifier", "production volume's use (manufacture, import only, or both)", ""),
                ("groundwater_migration", "migration to groundwater", ", or leave it blank"),
                ("pbt_persistence", "PBT rating's P score", ", or leave it blank"),
                ("pbt_bioaccumulation", "PBT rating's B score", ", or leave it blank"),
                ("pbt_toxicity", "PBT rating's T score", ", or leave it blank"),
            )
        } | {"tlv_pel_kind": {"invalid_choice": TLV_PEL_KIND_INVALID}}  # as the model field says it (the import)

    def __init__(self, *args: Any, amendment: bool = False, user: User | AnonymousUser | None = None,
                 **kwargs: Any) -> None:
        """``amendment``: a revision of the case is approved, so a change is an amendment
        and the form asks its reason (the view asks ``permissions.has_approved_revision``)."""
        super().__init__(*args, **kwargs)
        self.user = user
        if amendment:
            self.fields["amendment_reason"] = forms.CharField(
                label="Reason for the amendment",
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text="Why the case changes (e.g. the submitter's amended notice of 2026-03-02). "
                "Shown in the history. Approved revisions keep the case as they were approved with.",
                error_messages={"required": AMENDMENT_REASON_REQUIRED},
            )
        for name in Submission.CBI_CLAIMABLE:
            self.fields[CBI_PREFIX + name] = forms.BooleanField(
                required=False,
                label=f"Claimed CBI: {self.fields[name].label}",
                initial=self.instance.is_claimed(name) if self.instance.pk else False,
            )
        if self.instance.pk:
            self.fields["version_seen"].initial = self.instance.version
        for name in _NUMBER_FIELDS:
            number_field = self.fields[name]
            assert isinstance(number_field, GroupedFloatField), "Meta.field_classes makes each number field one"
            number_field.number_range = number_range(name)
        # The TLV/PEL's value and unit go together (Submission.clean() says so when one is missing).
        unit = self.fields["tlv_pel_unit"]
        assert isinstance(unit, forms.ChoiceField), "a model field with choices has a choice field"
        unit.choices = [("", "No value given"), *ExposureLimitUnit.choices]
        # A post without the kind (a page opened before the kind existed) means what such a
        # limit always meant, an 8-hour TWA; a kind not in the list is refused (TLV_PEL_KIND_INVALID).
        self.fields["tlv_pel_kind"].required = False
        limit_text_fields(self)

    def clean_tlv_pel_kind(self) -> str:
        return self.cleaned_data.get("tlv_pel_kind") or ExposureLimitKind.TWA_8H

    def cbi_claims(self) -> list[str]:
        return [name for name in Submission.CBI_CLAIMABLE if self.cleaned_data.get(CBI_PREFIX + name)]

    def change_reason(self) -> str:
        reason: str = self.cleaned_data.get("amendment_reason", "")
        return reason

    def model_data(self) -> dict[str, Any]:
        names = self._meta.fields
        assert names is not None, "Meta.fields names the case's fields"
        return {name: self.cleaned_data[name] for name in names}

    def groups(self) -> list[tuple[str, list[tuple[BoundField, BoundField | None]]]]:
        """``[(title, [(bound field, bound CBI checkbox or None)])]`` for the template."""
        out = []
        for title, names in HEADER_GROUPS:
            rows: list[tuple[BoundField, BoundField | None]] = []
            for name in names:
                cbi = self[CBI_PREFIX + name] if name in Submission.CBI_CLAIMABLE else None
                rows.append((self[name], cbi))
            out.append((title, rows))
        return out

    def error_summary(self) -> list[dict[str, Any]]:
        """:func:`error_summary`, in the page's order: the header groups, each field
        followed by its CBI box, then the amendment reason."""
        order = [name for _, names in HEADER_GROUPS for field in names for name in (field, CBI_PREFIX + field)]
        return error_summary(self, order + ["amendment_reason"])


class CaseSearchForm(forms.Form):
    q = forms.CharField(
        label="Search", required=False,
        help_text="Case number, case name, chemical name, generic name or submitter.",
    )
    status = forms.ChoiceField(
        label="Latest revision",
        required=False,
        choices=[("", "Any status"), *LATEST_STATUS_CHOICES],
        help_text="The status of each case's latest revision.",
        widget=forms.Select(attrs={"class": "form-select", "aria-describedby": "status-help"}),
    )
    has_approved = forms.BooleanField(
        label="Has an approved revision",
        required=False,
        help_text="Any revision approved, not only the latest.",
    )
    engineer = forms.CharField(label="Engineer", required=False, help_text="User name or part of the name.")


#: Characters in the reason for an occupational exposure rating override (as the reason the
#: uses exceed the production volume, ``limits.TEXT_LIMITS``).
RATING_REASON_LIMIT = TEXT_LIMITS["occupational_exposure_rating_reason"]


class AssessmentNotesForm(forms.ModelForm[Assessment]):
    """The reviewer's choices for the IRER of an assessment (``Assessment.IRER_CHOICE_FIELDS``).

    The rules are the model's (``Assessment.clean``, run by ``full_clean`` after this form's
    own cleaning), so the admin and the import say the same; the form only tidies what was
    typed: the words are stripped, and the rating derived from the results, chosen, is no
    override (the rating and its reason are cleared: the rating follows the results)."""

    version_seen = _version_seen()

    class Meta:
        model = Assessment
        field_classes = {"assessment_date": AssessmentDateField}
        fields = list(Assessment.IRER_CHOICE_FIELDS)
        widgets = {
            "assessment_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "notes": forms.Textarea(attrs={"rows": 4}),
            "irer_note": forms.RadioSelect,
            "irer_appendix": forms.RadioSelect,
            "pollution_prevention": forms.Textarea(attrs={"rows": 3}),
            "occupational_exposure_rating_reason": forms.Textarea(attrs={"rows": 2}),
        }
        help_texts = {
            "assessment_date": "Printed beside the status at the head of the IRER. Leave it blank for the day this "
            "revision was started.",
        }
        error_messages = {
            "assessment_date": {
                "invalid": "Enter the assessment date as a date, e.g. 2018-02-15.",
            },
            "occupational_exposure_rating": {
                "invalid_choice": "Choose the occupational exposure rating from the list, or leave it blank.",
            },
            "irer_status": {
                "invalid_choice": "Choose the IRER status from ChemSTEER's list.",
            },
            "irer_appendix": {
                "invalid_choice": "Choose whether the IRER prints its calculation appendix from the three choices.",
            },
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["version_seen"].initial = self.instance.version
        self.fields["assessment_date"].required = False  # blank: the day the revision was started
        self.fields["irer_note"].required = False  # left out: the wording the assessment has
        # The rating's help: its own text and the criteria counted beside it (rating-criteria).
        rating = self.fields["occupational_exposure_rating"]
        assert isinstance(rating, forms.ChoiceField), "a model field with choices has a choice field"
        rating.widget.attrs["aria-describedby"] = (
            "id_occupational_exposure_rating_helptext rating-derived rating-criteria"
        )
        # A ChoiceField keeps its choices as the list of pairs the model field gave it.
        rating.choices = [("", "Derived from the results"), *cast("list[tuple[Any, Any]]", rating.choices)[1:]]
        self.fields["irer_status"].required = False  # left out: the status the assessment has
        limit_text_fields(self)  # the rating's reason too: RATING_REASON_LIMIT, once

    def clean_irer_status(self) -> str:
        return self.cleaned_data.get("irer_status") or self.instance.irer_status or IrerStatus.CEB_STAFF_DRAFT

    def clean_irer_status_other(self) -> str:
        return (self.cleaned_data.get("irer_status_other") or "").strip()

    def clean_occupational_exposure_rating_reason(self) -> str:
        return (self.cleaned_data.get("occupational_exposure_rating_reason") or "").strip()

    def clean(self) -> dict[str, Any]:
        """The rating derived from the results, chosen, is no override: the rating and its
        reason are cleared, so the rating follows the results. Whether an override has its
        reason, and "Other" its words, is the model's rule (``Assessment.clean``)."""
        cleaned = super().clean()
        assert cleaned is not None, "ModelForm.clean returns the cleaned data"
        if "occupational_exposure_rating" in cleaned:
            rating = cleaned["occupational_exposure_rating"]
            if not rating or rating == self.instance.derived_rating():
                cleaned["occupational_exposure_rating"] = ""
                if "occupational_exposure_rating_reason" in cleaned:
                    cleaned["occupational_exposure_rating_reason"] = ""
        return cleaned

    @overload
    def add_error(self, field: None, error: Mapping[str, Any]) -> None: ...
    @overload
    def add_error(self, field: str | None, error: ValidationError | str | Promise | Sequence[Any]) -> None: ...
    def add_error(self, field: str | None, error: Any) -> None:
        """One message a field: the model's rules (``Assessment.clean``) add none to a field
        this form has refused already (an over-long reason is not also a missing one)."""
        if field is None and isinstance(error, forms.ValidationError) and hasattr(error, "error_dict"):
            error = forms.ValidationError(
                {name: e for name, e in error.error_dict.items() if name not in self.errors}
            )
        super().add_error(field, error)

    def clean_irer_note(self) -> str:
        return self.cleaned_data.get("irer_note") or self.instance.irer_note or IrerNote.MAY

    def clean_assessment_date(self) -> datetime.date:
        """Blank: the day this revision was started (the default ChemSTEER's date has too)."""
        value = self.cleaned_data.get("assessment_date")
        if value is None:
            created = self.instance.created_at if self.instance.pk else None
            value = timezone.localdate(created) if created else timezone.localdate()
        return value
