"""Cases: create, edit (with CBI claims), search, and starting an assessment."""

import pytest
from django.utils.html import escape

from assessments.models import Assessment, Status, Submission
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

VALID = {
    "case_number": "P-26-0500",
    "case_type": "PMN",
    "case_name": "New photoacid generator",
    "submitter": "Acme Photochemicals",
    "chemical_name": "Triphenylsulfonium perfluorobutanesulfonate",
    "generic_name": "Onium salt PAG",
    "cas_number": "144317-44-2",
    "production_volume_kg_yr": "5,000",
    "volume_qualifier": "import_only",
    "molecular_weight": "562.4",
    "vapour_pressure_torr": "1e-6",
    "vapour_pressure_temp_c": "20",
    "water_solubility_g_l": "",
    "water_solubility_temp_c": "",
    "physical_state": "solid",
    "pct_below_500_da": "",
    "pct_below_1000_da": "",
    "tlv_pel": "",
    "use_description": "Photoacid generator in a photoresist (3 %).",
    "use_concentration": "0.03",
    "other_uses": "",
    "consumer_use": "",
    "groundwater_migration": "",
    "groundwater_migration_other": "",
    "pbt_persistence": "2",
    "pbt_bioaccumulation": "1",
    "pbt_toxicity": "",
    "pbt_note": "",
    "sat_health": "",
    "sat_eco": "",
}


def test_reviewer_creates_a_case_with_cbi_claims(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "cbi_chemical_name": "on", "cbi_submitter": "on"})
    case = Submission.objects.get(case_number="P-26-0500")
    assert response.status_code == 302 and response["Location"] == f"/cases/{case.pk}/"
    assert case.production_volume_kg_yr == 5000 and case.volume_qualifier == "import_only" and case.use_concentration == 0.03
    assert case.cbi_claims == ["submitter", "chemical_name"] and case.is_cbi
    assert case.created_by == reviewer
    assert case.history.count() == 1


@pytest.mark.parametrize("field,value,message", [
    ("production_volume_kg_yr", "0", "The production volume must be greater than 0 kg/yr."),
    ("production_volume_kg_yr", "lots", "Enter a number."),
    ("use_concentration", "15", "The concentration must be greater than 0 and at most 1, as a fraction (0.15 for 15 %)."),
    ("pct_below_500_da", "120", "% < 500 Da must be between 0 and 100."),
    ("molecular_weight", "-5", "The molecular weight must be greater than 0 g/mol."),
])
def test_invalid_case_shows_error_on_the_field_and_saves_nothing(client, reviewer, field, value, message):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: value})
    assert response.status_code == 200
    assert message in response.context["form"].errors[field]
    assert escape(message) in response.content.decode()
    assert not Submission.objects.exists()


def test_duplicate_case_number_is_refused_on_the_form(client, reviewer):
    make_submission(case_number="P-26-0500")
    client.force_login(reviewer)
    response = client.post("/cases/new/", VALID)
    assert response.status_code == 200
    assert "A case with this case number already exists: P-26-0500." in response.content.decode()
    assert Submission.objects.count() == 1


def test_edit_changes_fields_and_claims_and_keeps_history(client, reviewer):
    case = make_submission(cbi_claims=["submitter"])
    client.force_login(reviewer)
    form = client.get(f"/cases/{case.pk}/edit/").context["form"]
    assert form["cbi_submitter"].value() is True
    response = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": case.case_number,
                                                        "version_seen": form["version_seen"].value()})
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.cbi_claims == [] and not case.is_cbi and case.submitter == "Acme Photochemicals"
    assert case.history.count() == 2


def test_edit_refused_when_someone_saved_in_between(client, reviewer):
    case = make_submission()
    client.force_login(reviewer)
    seen = client.get(f"/cases/{case.pk}/edit/").context["form"]["version_seen"].value()
    case.submitter = "Saved in another tab"
    case.save()
    response = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": case.case_number, "version_seen": seen})
    assert response.status_code == 200
    assert "Someone else saved this case after you opened it" in response.content.decode()
    assert response.context["form"]["submitter"].value() == "Acme Photochemicals"  # what was typed is kept
    case.refresh_from_db()
    assert case.submitter == "Saved in another tab"


def test_case_with_submitted_assessment_cannot_be_edited(client, reviewer):
    case = make_submission()
    make_assessment(case, reviewer, status=Status.SUBMITTED)
    client.force_login(reviewer)
    assert client.get(f"/cases/{case.pk}/edit/").status_code == 403
    assert client.post(f"/cases/{case.pk}/edit/", VALID).status_code == 403


def test_uncleared_user_gets_404_editing_a_cbi_case(client, uncleared_reviewer):
    case = make_submission(cbi_claims=["chemical_name"])
    client.force_login(uncleared_reviewer)
    assert client.get(f"/cases/{case.pk}/edit/").status_code == 404


@pytest.mark.parametrize("query,expected", [
    ("q=0123", {"P-18-0123"}),
    ("q=onium", {"P-26-0201"}),
    ("q=acme", {"P-26-0201"}),
    ("status=submitted", {"P-26-0201"}),
    ("status=none", {"P-26-0300"}),
    ("engineer=riley", {"P-18-0123", "P-26-0201"}),
])
def test_search_by_number_name_submitter_status_engineer(client, reviewer, query, expected):
    reviewer.first_name = "Riley"
    reviewer.save()
    a = make_submission(case_number="P-18-0123", generic_name="Amine", submitter="Beta Corp")
    b = make_submission(case_number="P-26-0201", generic_name="Onium salt", submitter="Acme Photochemicals")
    make_submission(case_number="P-26-0300", generic_name="Ester", submitter="Gamma")
    make_assessment(a, reviewer, status=Status.DRAFT)
    make_assessment(b, reviewer, status=Status.SUBMITTED)
    client.force_login(reviewer)
    found = {c.case_number for c in client.get(f"/?{query}").context["page"].object_list}
    assert found == expected


def test_search_never_reveals_a_cbi_case_to_an_uncleared_user(client, uncleared_reviewer):
    make_submission(case_number="P-26-0999", chemical_name="Secret amine", cbi_claims=["chemical_name"])
    client.force_login(uncleared_reviewer)
    assert list(client.get("/?q=Secret").context["page"].object_list) == []


def test_start_assessment_makes_revision_1_for_the_user(client, reviewer):
    case = make_submission()
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/assessments/new/")
    assessment = Assessment.objects.get()
    assert response["Location"] == f"/assessments/{assessment.pk}/"
    assert (assessment.revision, assessment.engineer, assessment.status) == (1, reviewer, Status.DRAFT)


def test_second_start_is_refused(client, reviewer):
    case = make_submission()
    make_assessment(case, reviewer)
    client.force_login(reviewer)
    assert client.post(f"/cases/{case.pk}/assessments/new/").status_code == 403
    assert Assessment.objects.count() == 1


def test_stale_edit_token_is_the_rows_version_not_a_clock_reading(client, reviewer):
    # A timestamp token is ambiguous in the autumn DST hour; the version counter is not.
    case = make_submission()
    client.force_login(reviewer)
    for expected in (1, 2):
        form = client.get(f"/cases/{case.pk}/edit/").context["form"]
        assert form["version_seen"].value() == expected
        response = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": case.case_number,
                                                            "version_seen": expected})
        assert response.status_code == 302
    case.refresh_from_db()
    assert case.version == 3


def test_case_number_is_stored_stripped_and_upper_case(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": "  p-26-0999 "})
    assert response.status_code == 302
    assert Submission.objects.filter(case_number="P-26-0999").exists()
