"""The case's number fields take the ranges declared once in ``models.case_fields``
(``NumberRange``): the case form, the admin, the import and the service refuse the same
values with the same words, on the field at fault, and the database's check constraints
are built from the same declarations."""

from __future__ import annotations

import math

import pytest
from django.db import IntegrityError, transaction

from assessments import services, transfer
from assessments.models import (
    PCT_500_ABOVE_PCT_1000,
    NumberRange,
    Submission,
)
from assessments.models.case_fields import (
    MOLECULAR_WEIGHT,
    PCT_BELOW_500_DA,
    PCT_BELOW_1000_DA,
    PRODUCTION_VOLUME,
    TLV_PEL_VALUE,
    USE_CONCENTRATION,
    VAPOUR_PRESSURE,
    WATER_SOLUBILITY,
    tlv_pel_errors,
)
from tests.conftest import admin_case_post, make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db

#: (field, its range, a value outside it, a value inside it).
CASES = [
    ("production_volume_kg_yr", PRODUCTION_VOLUME, 0.0, 5000.0),
    ("production_volume_kg_yr", PRODUCTION_VOLUME, -5.0, 0.001),
    ("molecular_weight", MOLECULAR_WEIGHT, 0.0, 350.0),
    ("vapour_pressure_torr", VAPOUR_PRESSURE, -0.1, 0.0),
    ("water_solubility_g_l", WATER_SOLUBILITY, -2.0, 0.0),
    ("pct_below_500_da", PCT_BELOW_500_DA, 120.0, 0.0),
    ("pct_below_1000_da", PCT_BELOW_1000_DA, -1.0, 100.0),
    ("use_concentration", USE_CONCENTRATION, 15.0, 1.0),
    ("use_concentration", USE_CONCENTRATION, 0.0, 0.15),
]
IDS = [f"{field}={bad:g}" for field, _, bad, _ in CASES]


def test_every_range_is_a_field_validator_and_a_database_constraint():
    """Each declared range is on its field and builds its field's check constraint, so the
    two cannot say different things."""
    conditions = {str(c.condition) for c in Submission._meta.constraints if hasattr(c, "condition")}
    for field, rule, _, _ in CASES:
        model_field = Submission._meta.get_field(field)
        assert rule in model_field.validators, field
        assert str(rule.condition(field, null=model_field.null)) in conditions, field
    # The TLV/PEL value's range: its constraint, and the model's check (tlv_pel_errors), read it.
    assert str(TLV_PEL_VALUE.condition("tlv_pel_value", null=True)) in conditions
    assert tlv_pel_errors(1e-9, "ppm") == {} and "tlv_pel_value" in tlv_pel_errors(0.0, "ppm")


def test_the_message_names_the_range_in_words():
    assert PRODUCTION_VOLUME.message == "The production volume must be greater than 0 kg/yr."
    assert VAPOUR_PRESSURE.message == "The vapour pressure must be at least 0 torr."
    assert PCT_BELOW_1000_DA.message == "% < 1000 Da must be between 0 and 100."
    assert USE_CONCENTRATION.message == (
        "The concentration must be greater than 0 and at most 1, as a fraction (0.15 for 15 %).")


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_no_range_holds_a_value_that_is_no_finite_number(value):
    for _, rule, _, _ in CASES:
        assert not rule.contains(value)
        with pytest.raises(Exception, match="must be"):
            rule(value)


# Every way in --------------------------------------------------------------------------------------


@pytest.mark.parametrize("field,rule,bad,good", CASES, ids=IDS)
def test_the_case_form_refuses_with_the_ranges_words(client, reviewer, field, rule, bad, good):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: str(bad)})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [rule.message]
    assert not Submission.objects.exists()
    response = client.post("/cases/new/", {**VALID, field: str(good)})
    assert response.status_code == 302
    assert getattr(Submission.objects.get(), field) == good


@pytest.mark.parametrize("field,rule,bad,good", CASES, ids=IDS)
def test_the_service_refuses_with_the_ranges_words(reviewer, field, rule, bad, good):
    data = {"case_number": "P-26-0601", "submitter": "Acme", "chemical_name": "c", "generic_name": "g",
            "production_volume_kg_yr": 100.0, "use_description": "u", field: bad}
    with pytest.raises(services.ValidationError) as caught:
        services.submission_create(by=reviewer, data=data, cbi_claims=[])
    assert caught.value.message_dict == {field: [rule.message]}
    assert not Submission.objects.exists()


@pytest.mark.parametrize("field,rule,bad,good", CASES, ids=IDS)
def test_the_import_refuses_with_the_ranges_words(field, rule, bad, good):
    case = make_submission(case_number="P-26-0700")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"][field] = bad
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert str(caught.value) == f"case: {field}: {rule.message}"
    assert not Submission.objects.exists()


def test_the_admin_refuses_with_the_ranges_words(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    case = make_submission()
    client.force_login(admin)
    url, data = admin_case_post(client, case, use_concentration="15")
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["use_concentration"] == [USE_CONCENTRATION.message]
    case.refresh_from_db()
    assert case.use_concentration is None


# The cross-field rule and the case number -----------------------------------------------------------


def test_pct_500_above_pct_1000_is_refused_on_the_field_every_way_in(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "pct_below_500_da": "60", "pct_below_1000_da": "40"})
    assert response.context["form"].errors["pct_below_500_da"] == [PCT_500_ABOVE_PCT_1000]
    case = make_submission(case_number="P-26-0700")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"] |= {"pct_below_500_da": 60.0, "pct_below_1000_da": 40.0}
    with pytest.raises(transfer.TransferError, match=f"pct_below_500_da: {PCT_500_ABOVE_PCT_1000}"):
        transfer.case_import(document=document)
    assert not Submission.objects.exists()


def test_a_taken_case_number_is_said_with_the_number_on_the_form(client, reviewer):
    make_submission(case_number="P-26-0500")
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": " p-26-0500 "})
    assert response.context["form"].errors["case_number"] == [
        "A case with this case number already exists: P-26-0500."]


def test_the_database_refuses_what_the_ranges_refuse():
    case = make_submission()
    for field, _, bad, _ in CASES:
        with pytest.raises(IntegrityError), transaction.atomic():
            Submission.objects.filter(pk=case.pk).update(**{field: bad})


def test_a_range_survives_the_migrations_serialiser():
    rule = NumberRange("The x", lower=0, upper=5, lower_open=True, units="kg")
    path, args, kwargs = rule.deconstruct()
    assert path == "assessments.models.case_fields.NumberRange"
    assert NumberRange(*args, **kwargs) == rule and hash(NumberRange(*args, **kwargs)) == hash(rule)
