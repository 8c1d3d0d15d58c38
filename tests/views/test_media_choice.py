"""The medium of a release the document leaves open, as the reviewer meets it: a choice on
the wizard step (with the listed media's names and the default's citation), the results
page and the report saying whether it was chosen, and the totals following the choice.
The 2018 Consortium presets and the adhesion range reach the wizard through the same
declarations."""

from __future__ import annotations

import pytest

from assessments import presentation, services
from assessments.models import Scenario
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.reports.conftest import pdf_text
from tests.views.wizard_helpers import post_step, step_url, walk

pytestmark = pytest.mark.django_db


def _scenario(reviewer, key="photoresist-2010", inputs=None) -> Scenario:
    case = make_submission(production_volume_kg_yr=5000.0, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    return Scenario.objects.create(assessment=assessment, scenario_key=key, title="Use",
                                   inputs={"Qchem_yr": 5000.0, "Fchem": 0.15, **(inputs or {})})


def test_the_wizard_offers_the_listed_media_by_name_with_the_default_cited(client, reviewer):
    scenario = _scenario(reviewer)
    client.force_login(reviewer)
    page = client.get(step_url(scenario, "containers")).content.decode()
    assert 'name="containers-medium_1"' in page
    for label in ("Water", "Incineration", "Landfill"):
        assert f">{label}<" in page
    assert "ESD 2010 §4.2" in page  # the default's source, shown as on every input


def test_a_chosen_medium_moves_the_totals_and_is_said_in_the_results_and_report(client, reviewer):
    scenario = _scenario(reviewer)
    client.force_login(reviewer)
    results = walk(client, scenario, {
        "production": ({}, {"Fchem": "PMN: 15 %"}),
        "containers": ({"medium_1": "landfill"}, {"medium_1": "Submitter: bottles go to landfill"}),
    })
    assert results.status_code == 200
    scenario.refresh_from_db()
    release_1 = scenario.result["releases"][0]
    assert (release_1["chosen_medium"], release_1["medium_chosen_by"]) == ("landfill", "reviewer")
    assert scenario.result["totals_by_medium"]["landfill"] == pytest.approx(release_1["estimates"][0]["kg_year_all_sites"])
    page = results.content.decode()
    assert "chosen by the reviewer among water, incineration or landfill" in page
    # Release 2 was not chosen: the page says it is one of those listed
    assert "one of those listed, not chosen by the reviewer: the totals count it under incineration" in page
    text = " ".join(pdf_text(irer_pdf(irer_context(assessment=scenario.assessment))).split())
    assert "chosen by the reviewer among water, incineration or landfill" in text
    assert "the totals count it under incineration, the default" in text


def test_no_medium_total_is_a_joint_name(reviewer):
    scenario = _scenario(reviewer, "photoresist-2018")
    services.scenario_compute(scenario=scenario, by=reviewer)
    scenario.refresh_from_db()
    media = set(scenario.result["totals_by_medium"])
    assert media <= {"air", "water", "incineration", "landfill", "fuel_blending", "destroyed"}
    assert all(" or " not in presentation.medium_label(m) for m in media)


def test_the_consortium_preset_fills_the_process_step(client, reviewer):
    scenario = _scenario(reviewer, "photoresist-2018")
    client.force_login(reviewer)
    page = client.get(step_url(scenario, "process")).content.decode()
    assert "Consortium: all of its estimates at once" in page
    assert "Fuel blending (the Consortium&#x27;s alternative)" in page or "Fuel blending (the Consortium's alternative)" in page
    response = post_step(client, scenario, "process",
                         {"Fphoto_wafer": "0.055", "medium_3": "fuel_blending"},
                         {"Fphoto_wafer": "Consortium, Table 1-1", "medium_3": "Consortium, Table 1-1"})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["medium_3"] == "fuel_blending" and scenario.inputs["Fphoto_wafer"] == 0.055
    services.scenario_compute(scenario=scenario, by=reviewer)
    scenario.refresh_from_db()
    assert scenario.result["totals_by_medium"]["fuel_blending"] > 0


def test_a_releases_only_use_prints_no_worker_exposure(client, reviewer):
    scenario = _scenario(reviewer, "photoresist-2018", {"include_exposures": "no"})
    services.scenario_compute(scenario=scenario, by=reviewer)
    scenario.refresh_from_db()
    assert scenario.result["exposures"] == []
    client.force_login(reviewer)
    page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "releases only" in page
