"""The report's words for each release: the engineer's "to:" (an NPDES permit, a named
POTW) and basis, edited on their own page, checked by the one rule every way in uses,
printed in the IRER, locked with the assessment, copied into a new revision."""

from __future__ import annotations

import pytest

from assessments import services
from assessments.models import Scenario, Status
from assessments.reports.context import irer_context
from tests.conftest import make_assessment, make_submission
from tests.reports import reading

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(reviewer) -> Scenario:
    case = make_submission(production_volume_kg_yr=5000.0, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    s = Scenario.objects.create(assessment=assessment, scenario_key="photoresist-2010", title="Use",
                                inputs={"Qchem_yr": 5000.0, "Fchem": 0.15})
    services.scenario_compute(scenario=s, by=reviewer)
    s.refresh_from_db()
    return s


def url(scenario) -> str:
    return f"/scenarios/{scenario.pk}/report-text/"


def _blocks(assessment, number):
    """The report's blocks of release ``number`` (found by its source's name)."""
    release = next(r for r in assessment.scenarios.get().result["releases"] if r["number"] == number)
    name = release.get("irer_source") or release["source"]
    return [b for b in reading.release_blocks(irer_context(assessment=assessment)) if b["from"] == name]


def test_the_page_lists_each_release_with_its_default(client, reviewer, scenario):
    client.force_login(reviewer)
    page = client.get(url(scenario)).content.decode()
    assert 'name="to_4"' in page and 'name="basis_4"' in page
    assert "Leave empty to print: On-Site Wastewater Treatment (per ESD)" in page
    assert "Waste Developer Solution" in page


def test_the_engineers_words_print_in_the_block(client, reviewer, scenario):
    client.force_login(reviewer)
    response = client.post(url(scenario), {"to_4": "Springfield POTW (NPDES permit IL0012345)",
                                           "basis_4": "Submitter's letter of 3/2: developer goes to the POTW."})
    assert response.status_code == 302
    (block,) = _blocks(scenario.assessment, 4)
    assert block["to"] == "Springfield POTW (NPDES permit IL0012345)"
    assert block["basis"] == ("User-Defined Loss Rate Model. Submitter's letter of 3/2: developer goes to the POTW.")
    # emptied again, the default prints
    client.post(url(scenario), {"to_4": "", "basis_4": ""})
    scenario.refresh_from_db()
    assert scenario.release_texts == {}
    assert _blocks(scenario.assessment, 4)[0]["to"] == "On-Site Wastewater Treatment (per ESD)"


def test_bad_text_is_refused_naming_the_field(client, reviewer, scenario):
    client.force_login(reviewer)
    response = client.post(url(scenario), {"to_4": "x" * 301})
    assert response.status_code == 200
    assert "Release 4: to" in response.content.decode()
    response = client.post(url(scenario), {"basis_4": "a\x00b"})
    assert "Null characters are not allowed" in response.content.decode()
    scenario.refresh_from_db()
    assert scenario.release_texts == {}


def test_only_the_drafts_engineer_edits_and_approved_work_is_locked(client, reviewer, supervisor, scenario):
    client.force_login(supervisor)
    assert client.post(url(scenario), {"to_4": "x"}).status_code == 403
    client.force_login(reviewer)
    services.scenario_update_release_texts(scenario=scenario, by=reviewer, texts={"4": {"to": "Springfield POTW"}})
    from assessments.models import Assessment
    Assessment.objects.filter(pk=scenario.assessment_id).update(status=Status.SUBMITTED)
    assert client.post(url(scenario), {"to_4": "other"}).status_code == 403
    scenario.refresh_from_db()
    assert scenario.release_texts == {"4": {"to": "Springfield POTW"}}


def test_the_service_refuses_what_the_model_refuses(reviewer, scenario):
    from django.core.exceptions import ValidationError

    for texts in ({"4": {"to": "a\x00b"}}, {"0": {"to": "x"}}, {"4": {"via": "x"}}, {"4": {"basis": "x" * 2001}}):
        with pytest.raises(ValidationError):
            services.scenario_update_release_texts(scenario=scenario, by=reviewer, texts=texts)
    scenario.refresh_from_db()
    assert scenario.release_texts == {}


def test_the_irer_note_is_chosen_on_the_notes_page(client, reviewer, scenario):
    from assessments.models import IrerNote

    assessment = scenario.assessment
    client.force_login(reviewer)
    page = client.get(f"/assessments/{assessment.pk}/notes/").content.decode()
    assert "are expected to coincide" in page and "are not expected to coincide" in page
    data = {"notes": "", "pollution_prevention": "", "occupational_exposure_rating": "", "irer_note": "expected",
            "version_seen": assessment.version}
    assert client.post(f"/assessments/{assessment.pk}/notes/", data).status_code == 302
    assessment.refresh_from_db()
    assert assessment.irer_note == IrerNote.EXPECTED
    assert reading.paragraphs(irer_context(assessment=assessment), "note")[0].removeprefix("IRER Note: ").startswith(
        "The daily releases listed for any source below are expected to coincide")
