"""Look-alike input (issue 27). A case number is one of EPA's patterns for its case type
(``case_fields.CASE_NUMBER_PREFIXES``), NFKC-normalised with invisible characters removed
and every dash a hyphen, so no two stored numbers look alike; the case form, the service,
the admin and the import refuse the same numbers in the same words. Every typed number,
whole number and date, in the case form, the assessment's form, the calendar's forms and
the assignment, refuses full-width digits and other look-alikes instead of reading them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django import forms as django_forms
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from assessments import services, transfer
from assessments.forms import AssessmentNotesForm, SubmissionForm
from assessments.forms.cases import number_range
from assessments.forms.due_filter import DueFilterForm
from assessments.models import CaseType, Submission, normalise_case_number
from assessments.models.case_fields import (
    CASE_NUMBER_INVALID,
    CASE_NUMBER_PREFIXES,
    case_number_error,
    case_number_type,
)
from calendar_review import forms as calendar_forms
from calendar_review.forms import AssignForm
from tests.conftest import admin_case_post, make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db

FULL_WIDTH = str.maketrans("0123456789-", "０１２３４５６７８９－")

#: Spellings of P-26-0950 that look like it (or are it, invisibly): each is that number.
LOOK_ALIKES = [
    "P-26-0950".translate(FULL_WIDTH),  # full-width digits and hyphen
    "Ｐ-26-0950",  # a full-width letter
    "P\u201026\u20100950",  # Unicode hyphens
    "P\u201326\u22120950",  # an en dash, a minus sign
    "P-26-09\u200b50",  # a zero-width space
    "P-2\u00ad6-0950",  # a soft hyphen
    "\u00a0p-26-0950\u2060",  # a no-break space, a word joiner, lower case
]
#: Not a case number of any type, however it is spelled.
NOT_NUMBERS = ["anything", "P-26-95", "P-2026-0950", "P-26-09500", "PMN-26-0950", "Р-26-0950",  # Cyrillic Р
               "P 26 0950", "P-26-O950", "Q-26-0950", "P-26-0950 P-26-0951", "P-26-0950\t0"]


@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_every_look_alike_of_a_number_is_that_number(typed):
    assert normalise_case_number(typed) == "P-26-0950"


@given(st.text(max_size=14))
def test_a_normalised_number_either_matches_a_pattern_or_is_refused(typed):
    """A property: whatever is typed, the number stored is plain ASCII of one type's pattern
    (so no stored number looks like another), or the field's validator refuses it."""
    number = normalise_case_number(typed)
    case = Submission(case_number=typed)
    try:
        case.clean_fields(exclude=[f.name for f in Submission._meta.fields if f.name != "case_number"])
    except ValidationError as exc:
        assert exc.message_dict["case_number"] == [CASE_NUMBER_INVALID] or not number, exc
        return
    assert number.isascii() and case_number_type(number) is not None


@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_the_case_form_stores_a_look_alike_as_the_plain_number(client, reviewer, typed):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": typed})
    assert response.status_code == 302
    assert list(Submission.objects.values_list("case_number", flat=True)) == ["P-26-0950"]


@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_a_look_alike_of_a_taken_number_is_said_taken(client, reviewer, typed):
    make_submission(case_number="P-26-0950")
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": typed})
    assert response.status_code == 200
    assert response.context["form"].errors["case_number"] == ["A case with this case number already exists: P-26-0950."]
    assert Submission.objects.count() == 1


@pytest.mark.parametrize("typed", NOT_NUMBERS)
def test_the_case_form_refuses_what_is_no_case_number(client, reviewer, typed):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": typed})
    assert response.status_code == 200
    assert response.context["form"].errors["case_number"] == [CASE_NUMBER_INVALID]
    assert not Submission.objects.exists()


@pytest.mark.parametrize("typed", NOT_NUMBERS[:4])
def test_the_service_refuses_what_is_no_case_number(reviewer, typed):
    data = {name: value for name, value in VALID.items() if name in SubmissionForm.Meta.fields}
    form = SubmissionForm(data={**data, "case_number": "P-26-0951"}, user=reviewer)
    assert form.is_valid(), form.errors
    with pytest.raises(ValidationError) as refused:
        services.submission_create(by=reviewer, data={**form.model_data(), "case_number": typed}, cbi_claims=[])
    assert refused.value.message_dict["case_number"] == [CASE_NUMBER_INVALID]
    assert not Submission.objects.exists()


def test_the_admin_refuses_what_is_no_case_number(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    case = make_submission(case_number="P-26-0960")
    client.force_login(admin)
    url, data = admin_case_post(client, case, case_number="P-26-09\u200b6O")
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["case_number"] == [CASE_NUMBER_INVALID]
    case.refresh_from_db()
    assert case.case_number == "P-26-0960"


@pytest.mark.parametrize(("typed", "refused"), [("p\u201026\u20130970", False), ("P-26-097O", True)])
def test_the_import_reads_case_numbers_as_the_form_does(typed, refused):
    case = make_submission(case_number="P-26-0970")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"]["case_number"] = typed
    if refused:
        with pytest.raises(transfer.TransferError) as caught:
            transfer.case_import(document=document)
        assert str(caught.value) == f"case: case_number: {CASE_NUMBER_INVALID}"
        assert not Submission.objects.exists()
    else:
        transfer.case_import(document=document)
        assert list(Submission.objects.values_list("case_number", flat=True)) == ["P-26-0970"]


@pytest.mark.parametrize("case_type", CaseType.values)
def test_every_case_type_takes_its_own_pattern_and_no_other(client, reviewer, case_type):
    """A property over the case types: each type's own number is taken; every other type's
    is refused, saying the type's pattern."""
    client.force_login(reviewer)
    for other, prefix in CASE_NUMBER_PREFIXES.items():
        number = f"{prefix}-26-0980"
        response = client.post("/cases/new/", {**VALID, "case_type": case_type, "case_number": number})
        if other == case_type:
            assert response.status_code == 302, response.context["form"].errors
        else:
            assert response.context["form"].errors["case_number"] == [case_number_error(number, case_type)]
            assert f"{CASE_NUMBER_PREFIXES[case_type]}-YY-NNNN" in response.context["form"].errors["case_number"][0]
    assert list(Submission.objects.values_list("case_type", "case_number")) == [
        (case_type, f"{CASE_NUMBER_PREFIXES[case_type]}-26-0980")]


def test_the_demo_cases_numbers_match_their_types():
    """The fixtures (and so every demo installation) hold numbers of their types' patterns."""
    numbers = []
    for path in Path("fixtures").glob("*.json"):
        document = json.loads(path.read_text(encoding="utf-8"))
        for row in document if isinstance(document, list) else []:
            if row.get("model") == "assessments.submission":
                numbers.append(row["fields"]["case_number"])
                fields = row["fields"]
                assert case_number_error(fields["case_number"], fields.get("case_type", "PMN")) == "", path
    assert numbers

def test_a_case_stored_with_a_number_of_no_pattern_stays_editable(client, reviewer):
    """A number stored before the patterns (any text was taken then) is kept while the case
    is edited; a new number for it is checked."""
    case = make_submission(case_number="PMN 2019/17", case_type="LVE")
    client.force_login(reviewer)
    edited = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": "PMN 2019/17", "case_type": "LVE",
                                                     "case_name": "Renamed", "version_seen": case.version})
    assert edited.status_code == 302
    case.refresh_from_db()
    assert (case.case_number, case.case_name) == ("PMN 2019/17", "Renamed")
    renumbered = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": "PMN 2019/18", "case_type": "LVE",
                                                         "version_seen": case.version})
    assert renumbered.context["form"].errors["case_number"] == [CASE_NUMBER_INVALID]
    retyped = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": "PMN 2019/17", "case_type": "PMN",
                                                      "version_seen": case.version})
    assert retyped.context["form"].errors["case_number"] == [CASE_NUMBER_INVALID]


# --- numbers, whole numbers and dates: look-alikes refused everywhere ---------------------------

NUMBER_FIELDS = [name for name in SubmissionForm.base_fields if isinstance(
    SubmissionForm.base_fields[name], django_forms.FloatField)]


@pytest.mark.parametrize("field", NUMBER_FIELDS)
@pytest.mark.parametrize("text", ["１２", "1e-400", "1e309", "\u22125"])
def test_every_case_number_field_refuses_look_alikes_and_what_a_double_cannot_hold(client, reviewer, field, text):
    """A property over every number field of the case: the message names the range."""
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: text})
    assert response.status_code == 200
    message = response.context["form"].errors[field][0]
    assert message.startswith("Enter a number " + number_range(field).allowed + ":"), message
    assert not Submission.objects.exists()


def _plain_fields(form_class, **kwargs):
    """Every date and whole-number field of ``form_class``, with a valid value."""
    form = form_class(**kwargs)
    for name, field in form.fields.items():
        if isinstance(field, django_forms.DateField):
            yield name, "2020-03-02"
        elif isinstance(field, django_forms.IntegerField) and not isinstance(field, django_forms.FloatField):
            yield name, str(field.min_value if field.min_value is not None else 1)


FORM_CLASSES = [calendar_forms.CalendarForm, calendar_forms.SuspensionForm, calendar_forms.SuspensionEndForm,
                calendar_forms.ExtensionForm, DueFilterForm, AssessmentNotesForm, SubmissionForm]


@pytest.mark.parametrize("form_class", FORM_CLASSES, ids=[c.__name__ for c in FORM_CLASSES])
def test_every_date_and_whole_number_field_refuses_full_width_digits(form_class):
    """A property over every date and whole-number field of every form: the plain value
    reads, its full-width twin (which Django's own fields read as the same) is refused
    with a message naming the field."""
    fields = list(_plain_fields(form_class))
    assert fields, form_class
    for name, plain in fields:
        field = form_class().fields[name]
        assert field.clean(plain) is not None
        with pytest.raises(ValidationError) as refused:
            field.clean(plain.translate(FULL_WIDTH))
        assert refused.value.code == "not_plain", (form_class, name)
        assert "digits 0-9" in refused.value.messages[0]


def test_the_assign_form_refuses_an_engineer_chosen_by_a_full_width_key(reviewer):
    from django.contrib.auth import get_user_model

    engineers = get_user_model().objects.filter(pk=reviewer.pk)
    plain = AssignForm(data={"engineer": str(reviewer.pk), "reason": "workload"}, engineers=engineers)
    assert plain.is_valid(), plain.errors
    full_width = AssignForm(data={"engineer": str(reviewer.pk).translate(FULL_WIDTH), "reason": "workload"},
                            engineers=engineers)
    assert not full_width.is_valid()
    assert full_width.errors["engineer"] == ["Choose an engineer from the list."]


def test_the_calendar_page_refuses_a_full_width_received_date(client, supervisor):
    from calendar_review.models import ReviewCalendar

    case = make_submission()
    client.force_login(supervisor)
    response = client.post(f"/cases/{case.pk}/calendar/", {"received_on": "２０２６-01-05", "period_days": "90"})
    assert response.status_code == 200
    assert response.context["form"].errors["received_on"] == [
        "The received date must be a date from 1977-01-01 to today, typed with the digits 0-9 and hyphens, "
        "e.g. 2026-03-02."]
    assert not ReviewCalendar.objects.filter(submission=case).exists()
