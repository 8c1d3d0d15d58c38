"""Physically impossible values and implausible dates are refused (issue 27): a case's
temperatures are above absolute zero (-273.15 °C), and every date of the review lies from
1977-01-01 (TSCA in force) to ten years ahead (``case_fields.DateRange``), in the forms,
the admin, the services and the import alike, with errors naming the field and the range;
nothing is clamped."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from assessments import transfer
from assessments.models import Assessment, Submission
from assessments.models.case_fields import (
    ABSOLUTE_ZERO_C,
    ASSESSMENT_DATE,
    EARLIEST_DATE,
    VAPOUR_PRESSURE_TEMPERATURE,
    WATER_SOLUBILITY_TEMPERATURE,
    DateRange,
    NumberRange,
)
from calendar_review import services as calendar_services
from calendar_review.models import Suspension
from tests.conftest import admin_case_post, make_assessment, make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db

TEMPERATURES = [("vapour_pressure_temp_c", VAPOUR_PRESSURE_TEMPERATURE),
                ("water_solubility_temp_c", WATER_SOLUBILITY_TEMPERATURE)]


def test_every_temperature_of_the_case_has_absolute_zero_as_its_floor():
    """A property over the case's fields: every one in °C is bounded below by absolute zero."""
    in_celsius = [f for f in Submission._meta.concrete_fields if "(°C)" in str(f.verbose_name)]
    assert {f.name for f in in_celsius} == {name for name, _ in TEMPERATURES}
    for field in in_celsius:
        rule = next(v for v in field.validators if isinstance(v, NumberRange))
        assert (rule.lower, rule.lower_open) == (ABSOLUTE_ZERO_C, True), field.name


@pytest.mark.parametrize(("field", "rule"), TEMPERATURES)
@pytest.mark.parametrize("value", ["-273.15", "-300", "-1e6", "-5,000"])
def test_the_case_form_refuses_a_temperature_at_or_below_absolute_zero(client, reviewer, field, rule, value):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: value})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [rule.message]
    assert rule.message.endswith("must be greater than -273.15 °C (absolute zero).")
    assert not Submission.objects.exists()


@pytest.mark.parametrize(("field", "rule"), TEMPERATURES)
def test_a_temperature_just_above_absolute_zero_is_taken(client, reviewer, field, rule):
    client.force_login(reviewer)
    assert client.post("/cases/new/", {**VALID, field: "-273.14"}).status_code == 302
    assert getattr(Submission.objects.get(), field) == -273.14


@pytest.mark.parametrize(("field", "rule"), TEMPERATURES)
def test_the_import_and_the_admin_refuse_it_alike(client, django_user_model, field, rule):
    case = make_submission(case_number="P-26-0710")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"][field] = -300.0
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert str(caught.value) == f"case: {field}: {rule.message}"

    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    case = make_submission(case_number="P-26-0711")
    client.force_login(admin)
    url, data = admin_case_post(client, case, **{field: "-300"})
    response = client.post(url, data)
    assert response.context["adminform"].form.errors[field] == [rule.message]


# --- dates ------------------------------------------------------------------------------------

def _date_fields():
    """Every date a person enters in the review's apps (not the ones computed)."""
    for app in ("assessments", "calendar_review"):
        for model in apps.get_app_config(app).get_models():
            if model.__name__.startswith("Historical"):
                continue
            for field in model._meta.concrete_fields:
                if type(field) is models.DateField and field.editable:
                    yield model, field


#: The date fields whose own rules are narrower (not in the future, not before the notice's
#: receipt) and said by the model's ``clean()`` in their own words.
NARROWER = {("ReviewCalendar", "received_on"), ("Suspension", "starts_on"), ("Extension", "granted_on")}


def test_every_date_field_has_the_plausible_range_or_a_narrower_rule():
    """A property over every entered date of the review: a new date field gets a range."""
    found = set()
    for model, field in _date_fields():
        found.add((model.__name__, field.name))
        if (model.__name__, field.name) in NARROWER:
            continue
        assert any(isinstance(v, DateRange) for v in field.validators), (model.__name__, field.name)
    assert found >= {("Assessment", "assessment_date"), ("Suspension", "ends_on")} | NARROWER


def test_the_range_is_tsca_to_ten_years_ahead():
    rule = DateRange("The day")
    today = timezone.localdate()
    assert date(1977, 1, 1) == EARLIEST_DATE
    assert rule.contains(EARLIEST_DATE) and not rule.contains(EARLIEST_DATE - timedelta(days=1))
    assert rule.contains(date(today.year + 10, today.month, min(today.day, 28)))
    assert not rule.contains(today + timedelta(days=3660))
    assert DateRange("x").latest(date(2024, 2, 29)) == date(2034, 2, 28)


IMPLAUSIBLE = [date(1, 1, 1), date(1976, 12, 31), date(9999, 12, 31)]


@pytest.mark.parametrize("day", IMPLAUSIBLE)
def test_the_assessment_form_refuses_an_implausible_date(client, reviewer, day):
    from assessments.forms import AssessmentNotesForm

    assessment = make_assessment(make_submission(), reviewer)
    form = AssessmentNotesForm(data={"assessment_date": day.isoformat(), "notes": "", "irer_note": "may"},
                               instance=assessment)
    assert not form.is_valid()
    assert form.errors["assessment_date"] == [ASSESSMENT_DATE.message()]
    assert "from 1977-01-01 (TSCA in force) to" in ASSESSMENT_DATE.message()


@pytest.mark.parametrize("day", IMPLAUSIBLE)
def test_the_model_refuses_an_implausible_assessment_date_for_every_writer(reviewer, day):
    """The admin, the import and the services run ``full_clean``: the field's validator."""
    assessment = make_assessment(make_submission(), reviewer)
    assessment.assessment_date = day
    with pytest.raises(ValidationError) as refused:
        assessment.full_clean()
    assert refused.value.message_dict["assessment_date"] == [ASSESSMENT_DATE.message()]
    assert Assessment.objects.get(pk=assessment.pk).assessment_date != day


def test_the_import_refuses_an_implausible_assessment_date(reviewer):
    assessment = make_assessment(make_submission(case_number="P-26-0720"), reviewer)
    document = transfer.case_export(case_number="P-26-0720")
    Assessment.objects.filter(pk=assessment.pk).delete()
    Submission.objects.filter(case_number="P-26-0720").delete()
    document["assessments"][0]["assessment_date"] = "0001-01-01"
    with pytest.raises(transfer.TransferError, match="assessment_date: The assessment date must be a date from 1977-01-01"):
        transfer.case_import(document=document)
    assert not Submission.objects.exists()


@pytest.mark.parametrize("day", [date(9999, 12, 31), date(2200, 1, 1)])
def test_a_suspension_cannot_end_beyond_the_range(supervisor, day):
    case = make_submission()
    today = timezone.localdate()
    calendar_services.calendar_update(submission=case, by=supervisor, received_on=today - timedelta(days=10),
                                      period_days=90)
    with pytest.raises(ValidationError) as refused:
        calendar_services.suspension_add(submission=case, by=supervisor, starts_on=today, ends_on=day,
                                         reason="the submitter's request")
    assert refused.value.message_dict["ends_on"] == [DateRange("The suspension's last day").message()]
    assert not Suspension.objects.exists()


def test_an_old_date_stored_before_the_range_is_kept_and_said_on_its_field(reviewer):
    """Not clamped: an assessment stored with 0001-01-01 before the range keeps it until the
    reviewer gives a date; validation says why on the field."""
    assessment = make_assessment(make_submission(), reviewer)
    Assessment.objects.filter(pk=assessment.pk).update(assessment_date=date(1, 1, 1))  # as stored before
    assessment.refresh_from_db()
    assert assessment.assessment_date == date(1, 1, 1)
    with pytest.raises(ValidationError) as refused:
        assessment.full_clean()
    assert refused.value.message_dict["assessment_date"] == [ASSESSMENT_DATE.message()]
