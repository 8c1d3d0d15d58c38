"""The case form's structured SAT fields and volume qualifier, and the notes form's rating
and date: ChemSTEER's lists, errors that name the field, nothing saved when refused."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from assessments import services
from assessments.models import (
    GROUNDWATER_OTHER_MISSING,
    GROUNDWATER_OTHER_NOT_OTHER,
    OCCUPATIONAL_EXPOSURE_RATINGS,
    Assessment,
    GroundwaterMigration,
    Submission,
)
from assessments.selectors import submission_header_groups
from tests.conftest import make_assessment, make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db


def test_chemsteers_lists_in_its_order():
    assert [label for _, label in GroundwaterMigration.choices] == [
        "Negligible", "Negligible to slow", "Slow", "Slow to moderate", "Moderate", "Moderate to Rapid", "Rapid",
        "Other (please specify)",
    ]
    assert OCCUPATIONAL_EXPOSURE_RATINGS == (
        "1A", "1-2A", "2A", "2-3A", "1B", "1-2B", "2B", "2-3B", "1C", "1-2C", "2C", "2-3C", "1D", "1-2D", "2D", "2-3D",
        "NR", "0-1",
    )
    assert [value for value, _ in Submission._meta.get_field("pbt_persistence").choices] == ["", "1", "1-2", "2", "2-3", "3"]


def post_case(client, reviewer, **changes):
    client.force_login(reviewer)
    return client.post("/cases/new/", {**VALID, **changes})


def test_the_case_form_saves_the_structured_fields(client, reviewer):
    response = post_case(client, reviewer, groundwater_migration="negligible_to_slow", pbt_persistence="2",
                         pbt_bioaccumulation="1", pbt_toxicity="", volume_qualifier="manufacture_and_import")
    assert response.status_code == 302
    case = Submission.objects.get(case_number=VALID["case_number"])
    assert (case.groundwater_migration_text, case.pbt_rating, case.get_volume_qualifier_display()) == (
        "Negligible to slow", "P2B1T", "Manufacturing and Import")
    shown = {f["label"]: f["value"] for group in submission_header_groups(submission=case) for f in group["fields"]}
    assert shown["Migration to groundwater"] == "Negligible to slow"
    assert shown["Production volume is for"] == "Manufacturing and Import"


def test_other_needs_its_text_and_the_error_names_the_field(client, reviewer):
    response = post_case(client, reviewer, groundwater_migration="other", groundwater_migration_other="")
    assert response.status_code == 200
    assert response.context["form"].errors["groundwater_migration_other"] == [GROUNDWATER_OTHER_MISSING]
    assert not Submission.objects.filter(case_number=VALID["case_number"]).exists()


def test_other_text_without_other_is_refused(client, reviewer):
    response = post_case(client, reviewer, groundwater_migration="slow", groundwater_migration_other="Fast")
    assert response.context["form"].errors["groundwater_migration_other"] == [GROUNDWATER_OTHER_NOT_OTHER]


@pytest.mark.parametrize("name,value,words", [
    ("pbt_persistence", "4", "Choose the PBT rating's P score from the list, or leave it blank."),
    ("groundwater_migration", "Fast", "Choose the migration to groundwater from the list, or leave it blank."),
    ("volume_qualifier", "export", "Choose the production volume's use (manufacture, import only, or both) from the list."),
])
def test_a_value_off_the_list_is_refused_naming_the_field(client, reviewer, name, value, words):
    response = post_case(client, reviewer, **{name: value})
    assert response.context["form"].errors[name] == [words]


def test_the_database_refuses_values_off_the_lists(reviewer):
    case = make_submission()
    with pytest.raises(ValidationError) as caught:
        case.pbt_toxicity = "4"
        case.full_clean()
    assert "pbt_toxicity" in caught.value.message_dict
    assessment = make_assessment(case, reviewer)
    with pytest.raises(ValidationError) as caught:
        services.assessment_update_notes(assessment=assessment, by=reviewer, data={"occupational_exposure_rating": "L"})
    assert "occupational_exposure_rating" in caught.value.message_dict
    assert Assessment.objects.get(pk=assessment.pk).occupational_exposure_rating == ""


def test_the_notes_form_sets_the_rating_and_the_date(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    client.force_login(reviewer)
    url = f"/assessments/{assessment.pk}/notes/"
    page = client.get(url).content.decode()
    assert 'aria-describedby="id_occupational_exposure_rating_helptext rating-derived rating-criteria"' in page
    assert '<option value="1-2B">1-2B</option>' in page and 'type="date"' in page
    # A rating chosen overrides the one derived from the results, with its reason.
    response = client.post(url, {"assessment_date": "2018-02-15", "occupational_exposure_rating": "1-2B",
                                 "occupational_exposure_rating_reason": "Submitter's monitoring data."})
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert (assessment.assessment_date, assessment.occupational_exposure_rating) == (datetime.date(2018, 2, 15), "1-2B")


def test_the_notes_form_refuses_a_rating_off_the_list_and_a_blank_date_is_the_start_day(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer, assessment_date=datetime.date(2018, 2, 15))
    client.force_login(reviewer)
    url = f"/assessments/{assessment.pk}/notes/"
    response = client.post(url, {"occupational_exposure_rating": "L"})
    assert response.status_code == 200
    assert response.context["form"].errors["occupational_exposure_rating"] == [
        "Choose the occupational exposure rating from the list, or leave it blank."]
    assert client.post(url, {"assessment_date": "", "occupational_exposure_rating": "NR",
                             "occupational_exposure_rating_reason": "No exposure."}).status_code == 302
    assessment.refresh_from_db()
    assert assessment.assessment_date == timezone.localdate(assessment.created_at)
