"""The case's TLV/PEL is a number and its unit (mg/m³ or ppm) beside a free-text note.
Every way in (the case form, the service behind it, the admin, the import, the database
itself) refuses the same things with the same model-level check
(``models.tlv_pel_errors`` from ``Submission.clean()``), each error naming the field at
fault: a value without a unit, a unit without a value, a value that is not a finite
number above 0."""

from __future__ import annotations

import math

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from assessments import services, transfer
from assessments.models import (
    TLV_PEL_UNIT_MISSING,
    TLV_PEL_VALUE_MISSING,
    TLV_PEL_VALUE_NOT_POSITIVE,
    Submission,
)
from tests.conftest import admin_case_post, make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db


def post_case(client, **fields):
    return client.post("/cases/new/", {**VALID, **fields})


# The case form ----------------------------------------------------------------------------------


def test_the_form_saves_a_value_and_its_unit_and_the_note(client, reviewer):
    client.force_login(reviewer)
    response = post_case(client, tlv_pel_value="5", tlv_pel_unit="mg/m3", tlv_pel="ACGIH TLV (2024)")
    assert response.status_code == 302
    case = Submission.objects.get(case_number=VALID["case_number"])
    assert (case.tlv_pel_value, case.tlv_pel_unit, case.tlv_pel) == (5.0, "mg/m3", "ACGIH TLV (2024)")


def test_the_form_offers_mg_m3_and_ppm(client, reviewer):
    client.force_login(reviewer)
    html = client.get("/cases/new/").content.decode()
    assert '<option value="mg/m3">mg/m³</option>' in html and '<option value="ppm">ppm</option>' in html


@pytest.mark.parametrize("fields,field,message", [
    ({"tlv_pel_value": "5", "tlv_pel_unit": ""}, "tlv_pel_unit", TLV_PEL_UNIT_MISSING),
    ({"tlv_pel_value": "", "tlv_pel_unit": "ppm"}, "tlv_pel_value", TLV_PEL_VALUE_MISSING),
    ({"tlv_pel_value": "0", "tlv_pel_unit": "ppm"}, "tlv_pel_value", TLV_PEL_VALUE_NOT_POSITIVE),
    ({"tlv_pel_value": "-2", "tlv_pel_unit": "mg/m3"}, "tlv_pel_value", TLV_PEL_VALUE_NOT_POSITIVE),
])
def test_the_form_shows_the_error_on_the_field_at_fault_and_saves_nothing(client, reviewer, fields, field, message):
    client.force_login(reviewer)
    response = post_case(client, **fields)
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    assert not Submission.objects.exists()


@pytest.mark.parametrize("text", ["nan", "inf", "-Infinity", "1e309"])
def test_the_form_refuses_a_value_that_is_no_finite_number(client, reviewer, text):
    client.force_login(reviewer)
    response = post_case(client, tlv_pel_value=text, tlv_pel_unit="ppm")
    assert response.status_code == 200 and "tlv_pel_value" in response.context["form"].errors
    assert not Submission.objects.exists()


def test_the_case_page_shows_the_value_with_its_unit_and_the_note(client, reviewer):
    case = make_submission(tlv_pel_value=0.5, tlv_pel_unit="ppm", tlv_pel="OSHA PEL")
    client.force_login(reviewer)
    html = client.get(f"/cases/{case.pk}/").content.decode()
    assert "<dt>TLV/PEL</dt>" in html and "<dd>0.5 ppm</dd>" in html
    assert "OSHA PEL" in html


# The service (every writer behind the pages): the model's own check ----------------------------


@pytest.mark.parametrize("value,unit,field", [
    (math.nan, "ppm", "tlv_pel_value"), (math.inf, "mg/m3", "tlv_pel_value"), (-1.0, "ppm", "tlv_pel_value"),
    (3.0, "", "tlv_pel_unit"), (None, "mg/m3", "tlv_pel_value"),
])
def test_the_service_refuses_through_the_models_own_validation(reviewer, value, unit, field):
    data = dict(make_submission_data().items()) | {"tlv_pel_value": value, "tlv_pel_unit": unit}
    with pytest.raises(ValidationError) as caught:
        services.submission_create(by=reviewer, data=data, cbi_claims=[])
    assert field in caught.value.message_dict
    assert not Submission.objects.exists()


def test_an_unknown_unit_is_refused(reviewer):
    data = make_submission_data() | {"tlv_pel_value": 5.0, "tlv_pel_unit": "mg/L"}
    with pytest.raises(ValidationError) as caught:
        services.submission_create(by=reviewer, data=data, cbi_claims=[])
    assert "tlv_pel_unit" in caught.value.message_dict


def make_submission_data() -> dict:
    return {
        "case_number": "P-26-0601", "submitter": "Acme", "chemical_name": "c", "generic_name": "g",
        "production_volume_kg_yr": 100.0, "use_description": "u",
    }


# The admin ---------------------------------------------------------------------------------------


def test_the_admin_refuses_a_value_without_its_unit(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    case = make_submission()
    client.force_login(admin)
    url, data = admin_case_post(client, case, tlv_pel_value="5", tlv_pel_unit="")
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["tlv_pel_unit"] == [TLV_PEL_UNIT_MISSING]
    case.refresh_from_db()
    assert case.tlv_pel_value is None

    response = client.post(url, data | {"tlv_pel_unit": "mg/m3"})
    assert response.status_code == 302
    case.refresh_from_db()
    assert (case.tlv_pel_value, case.tlv_pel_unit) == (5.0, "mg/m3")


# The import ---------------------------------------------------------------------------------------


def exported(**tlv) -> dict:
    case = make_submission(case_number="P-26-0700")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"].update(tlv)
    return document


def test_an_export_carries_the_limit_and_the_import_keeps_it():
    case = make_submission(case_number="P-26-0701", tlv_pel_value=2.5, tlv_pel_unit="ppm", tlv_pel="ACGIH")
    document = transfer.case_export(case_number=case.case_number)
    assert (document["case"]["tlv_pel_value"], document["case"]["tlv_pel_unit"]) == (2.5, "ppm")
    case.delete()
    imported = transfer.case_import(document=document)
    assert (imported.tlv_pel_value, imported.tlv_pel_unit, imported.tlv_pel) == (2.5, "ppm", "ACGIH")


def test_an_export_from_before_the_structured_limit_imports_with_none():
    document = exported()
    for name in ("tlv_pel_value", "tlv_pel_unit"):
        del document["case"][name]
    imported = transfer.case_import(document=document)
    assert (imported.tlv_pel_value, imported.tlv_pel_unit) == (None, "")


@pytest.mark.parametrize("tlv,field,message", [
    ({"tlv_pel_value": 5.0, "tlv_pel_unit": ""}, "tlv_pel_unit", TLV_PEL_UNIT_MISSING),
    ({"tlv_pel_value": None, "tlv_pel_unit": "ppm"}, "tlv_pel_value", TLV_PEL_VALUE_MISSING),
    ({"tlv_pel_value": -5.0, "tlv_pel_unit": "ppm"}, "tlv_pel_value", TLV_PEL_VALUE_NOT_POSITIVE),
    ({"tlv_pel_value": 0, "tlv_pel_unit": "mg/m3"}, "tlv_pel_value", TLV_PEL_VALUE_NOT_POSITIVE),
])
def test_the_import_refuses_naming_the_field(tlv, field, message):
    document = exported(**tlv)
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert f"{field}: {message}" in str(caught.value)
    assert not Submission.objects.exists()


def test_the_import_refuses_a_non_finite_value():
    document = exported(tlv_pel_value=math.nan, tlv_pel_unit="ppm")
    with pytest.raises(transfer.TransferError, match="tlv_pel_value"):
        transfer.case_import(document=document)
    assert not Submission.objects.exists()


# The database: for every writer that skips the model's validation ----------------------------


def refused(write) -> bool:
    try:
        with transaction.atomic():
            write()
    except IntegrityError:
        return True
    return False


@pytest.mark.parametrize("value,unit", [(5.0, ""), (None, "ppm"), (0.0, "ppm"), (-1.0, "mg/m3"), (5.0, "mg/L")])
def test_the_database_refuses_what_the_model_refuses(value, unit):
    case = make_submission()
    assert refused(lambda: Submission.objects.filter(pk=case.pk).update(tlv_pel_value=value, tlv_pel_unit=unit))
    assert make_submission(tlv_pel_value=5.0, tlv_pel_unit="ppm").pk


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="DATABASE_URL is not PostgreSQL")
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_postgresql_refuses_nan_and_infinity(value):
    """PostgreSQL stores NaN and Infinity in a float column, and NaN compares above every
    number: the constraint's upper bound refuses both."""
    case = make_submission()
    assert refused(lambda: Submission.objects.filter(pk=case.pk).update(tlv_pel_value=value, tlv_pel_unit="ppm"))
