"""Free text: a NUL character or text over the field's limit is refused with a message
naming the field and the limit, in every way in; nothing is cut short, nothing written."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from assessments import services, workflow
from assessments.limits import NUL_NOT_ALLOWED, TEXT_LIMITS, TOO_LONG
from assessments.models import Scenario, Submission
from tests._review_support import add_computed_scenario, toy_engine
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def assessment(reviewer):
    return make_assessment(make_submission(), reviewer)


@pytest.mark.parametrize("title", ["x" * 201, "Spin\x00coating"])
def test_use_title_too_long_or_with_nul_is_refused_on_the_page(client, reviewer, assessment, title):
    client.force_login(reviewer)
    response = client.post(f"/assessments/{assessment.pk}/scenarios/new/",
                           {"scenario_key": "cvd-2015", "title": title}, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "The title of the use" in text and ("at most 200" in text or "NUL" in text)
    assert not Scenario.objects.exists()


def test_rename_refuses_rather_than_cuts_a_long_title(reviewer, assessment):
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="Fab")
    with pytest.raises(ValidationError) as error:
        services.scenario_rename(scenario=scenario, by=reviewer, title="y" * 250)
    assert error.value.message_dict["title"] == [TOO_LONG.format(label="The title of the use", length=250, limit=200)]
    scenario.refresh_from_db()
    assert scenario.title == "Fab"


def test_duplicate_of_a_full_length_title_fits(reviewer, assessment):
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="z" * 200)
    copy = services.scenario_duplicate(scenario=scenario, by=reviewer)
    assert len(copy.title) <= 200 and copy.title.endswith("… (copy)")
    copy.full_clean()


@pytest.mark.usefixtures("toy_engine")
@pytest.mark.parametrize(("url", "field"), [("submit", "note"), ("return", "comment"), ("approve", "comment")])
def test_review_text_with_nul_or_too_long_is_refused(client, reviewer, supervisor, assessment, url, field):
    add_computed_scenario(assessment)
    if url != "submit":
        workflow.assessment_submit(assessment=assessment, by=reviewer)
    client.force_login(supervisor if url != "submit" else reviewer)
    assessment.refresh_from_db()
    status = assessment.status
    for text in ("bad\x00text", "w" * (TEXT_LIMITS["comment"] + 1)):
        page = client.post(f"/assessments/{assessment.pk}/{url}/", {field: text}, follow=True).content.decode()
        assert "NUL characters" in page or "at most 4,000" in page
        assessment.refresh_from_db()
        assert assessment.status == status


def test_notes_over_the_limit_are_refused_by_the_form(client, reviewer, assessment):
    client.force_login(reviewer)
    response = client.post(f"/assessments/{assessment.pk}/notes/",
                           {"notes": "n" * (TEXT_LIMITS["notes"] + 1), "version_seen": assessment.version})
    assert response.status_code == 200 and "20000" in response.content.decode().replace(",", "")
    assessment.refresh_from_db()
    assert assessment.notes == ""


def test_notes_service_refuses_nul(reviewer, assessment):
    with pytest.raises(ValidationError) as error:
        services.assessment_update_notes(assessment=assessment, by=reviewer, data={"notes": "a\x00b"})
    assert error.value.message_dict["notes"] == [NUL_NOT_ALLOWED.format(label="Notes and key assumptions")]


def test_case_number_race_gives_the_second_a_form_error(monkeypatch, reviewer):
    make_submission(case_number="P-26-0500")
    # Both requests pass the uniqueness check before either saves: the database decides.
    monkeypatch.setattr(Submission, "validate_unique", lambda self, exclude=None: None)
    data = {"case_number": "P-26-0500", "submitter": "S", "chemical_name": "C", "generic_name": "G",
            "production_volume_kg_yr": 10.0, "use_description": "U"}
    with pytest.raises(ValidationError) as error:
        services.submission_create(by=reviewer, data=data, cbi_claims=[])
    assert error.value.message_dict["case_number"] == [services.CASE_NUMBER_TAKEN.format(case_number="P-26-0500")]
    assert Submission.objects.filter(case_number="P-26-0500").count() == 1


@pytest.mark.usefixtures("toy_engine")
def test_the_review_forms_stop_at_the_services_limit(client, reviewer, assessment):
    add_computed_scenario(assessment)
    client.force_login(reviewer)
    page = client.get(f"/assessments/{assessment.pk}/").content.decode()
    assert f'name="note" rows="2" maxlength="{TEXT_LIMITS["comment"]}"' in page
