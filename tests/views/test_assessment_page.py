"""The assessment page and a scenario's results page: what they show, and the actions."""

import pytest

from assessments import services
from assessments.esd import registry
from assessments.models import Scenario
from assessments.templatetags.figures import epa, significant
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

SAMPLE = {"stripping_process": "unknown", "daily_use_basis": "chemsteer"}


@pytest.fixture
def computed(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2018")
    scenario.inputs |= SAMPLE
    scenario.reasons |= {"stripping_process": "unknown", "daily_use_basis": "as ChemSTEER"}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=reviewer)


def test_results_page_shows_the_engines_numbers(client, reviewer, computed):
    client.force_login(reviewer)
    html = client.get(f"/scenarios/{computed.pk}/").content.decode()
    engine = registry.compute("photoresist-2018", computed.inputs).as_dict()
    for release in engine["releases"]:
        for e in release["estimates"]:
            for key in ("kg_site_day", "kg_site_year", "kg_year_all_sites"):
                assert f">{significant(e[key])}<" in html, (release["number"], key)
    for exposure in engine["exposures"]:
        for e in exposure["estimates"]:
            assert f">{significant(e['mg_day'])}<" in html


# spec/irer.md "The sample as numbers": kg/site-day, kg/site-yr, kg/yr all sites at 2 s.f.
IRER_SAMPLE = {4: ("1.6E-1", "5.8E+1", "1.7E+2"), 5: ("1.6E-1", "5.8E+1", "1.7E+2"), 1: ("2.8E-2", "1.0E+1", "3.0E+1"),
               2: ("4.6E-2", "1.7E+1", "5.0E+1"), 3: ("4.3E+0", "1.5E+3", "4.6E+3")}


def test_sample_case_reproduces_the_irer_figures_on_the_results_page(client, reviewer, computed):
    client.force_login(reviewer)
    context = client.get(f"/scenarios/{computed.pk}/").context
    for release in context["releases"]:
        e = release["estimates"][0]
        shown = (epa(e["kg_site_day"]), epa(e["kg_site_year"]), epa(e["kg_year_all_sites"]))
        assert shown == IRER_SAMPLE[release["number"]]
    assert epa(context["release_total"]["kg_yr"]) == "5.0E+3"


def test_results_page_lists_every_input_that_applied_with_its_standing_and_reason(client, reviewer, computed):
    client.force_login(reviewer)
    rows = {row["param"].symbol: row for row in client.get(f"/scenarios/{computed.pk}/").context["inputs_used"]}
    params = registry.get("photoresist-2018").params
    # the low end of the adhesion range applies only when both ends are estimated
    assert set(rows) == {p.symbol for p in params.params} - {"Fphoto_wafer_low"}
    assert rows["Fchem"]["overridden"] and rows["Fchem"]["reason"] == "Submission: concentration in the use formulation."
    assert not rows["Fequip_disp"]["overridden"] and rows["Fequip_disp"]["value"] == 0.01


def test_chart_bars_are_scaled_to_the_largest_medium(client, reviewer, computed):
    client.force_login(reviewer)
    chart = client.get(f"/scenarios/{computed.pk}/").context["chart"]
    assert chart[0]["percent"] == 100
    incineration, water = chart[0]["kg_yr"], next(b for b in chart if b["medium"] == "Water")["kg_yr"]
    assert next(b for b in chart if b["medium"] == "Water")["percent"] == pytest.approx(100 * water / incineration)


def test_assessment_page_totals_by_medium_across_uses(client, reviewer, computed):
    services.scenario_duplicate(scenario=computed, by=reviewer)
    client.force_login(reviewer)
    totals = dict(client.get(f"/assessments/{computed.assessment_id}/").context["totals"])
    one = computed.result["totals_by_medium"]
    assert totals == {medium: pytest.approx(2 * amount) for medium, amount in one.items()}


def test_uncomputed_use_is_flagged_on_the_assessment_page(client, reviewer, computed):
    services.scenario_add(assessment=computed.assessment, by=reviewer, scenario_key="cvd-2015", title="CVD use")
    client.force_login(reviewer)
    response = client.get(f"/assessments/{computed.assessment_id}/")
    assert [s.title for s in response.context["uncomputed"]] == ["CVD use"]
    assert "not computed" in response.content.decode()


def test_duplicate_copies_inputs_reasons_and_result(client, reviewer, computed):
    client.force_login(reviewer)
    response = client.post(f"/scenarios/{computed.pk}/duplicate/")
    copy = Scenario.objects.exclude(pk=computed.pk).get()
    assert response["Location"] == f"/scenarios/{copy.pk}/wizard/"
    assert (copy.inputs, copy.reasons, copy.result) == (computed.inputs, computed.reasons, computed.result)
    assert copy.title == f"{computed.title} (copy)" and copy.position == computed.position + 1


def test_delete_removes_the_use(client, reviewer, computed):
    client.force_login(reviewer)
    assert client.get(f"/scenarios/{computed.pk}/delete/").status_code == 200  # asks first
    assert Scenario.objects.exists()
    response = client.post(f"/scenarios/{computed.pk}/delete/")
    assert response["Location"] == f"/assessments/{computed.assessment_id}/#uses-title"
    assert not Scenario.objects.exists()


def test_unknown_scenario_key_is_a_message_not_an_error(client, reviewer, computed):
    client.force_login(reviewer)
    response = client.post(f"/assessments/{computed.assessment_id}/scenarios/new/", {"scenario_key": "nope"}, follow=True)
    assert "unknown scenario &#x27;nope&#x27;" in response.content.decode()
    assert Scenario.objects.count() == 1


def test_uncomputed_results_page_sends_to_the_wizard(client, reviewer, computed):
    scenario = services.scenario_add(assessment=computed.assessment, by=reviewer, scenario_key="photoresist-2010")
    client.force_login(reviewer)
    assert client.get(f"/scenarios/{scenario.pk}/")["Location"] == f"/scenarios/{scenario.pk}/wizard/"


def test_engineer_edits_the_report_notes(client, reviewer, computed):
    client.force_login(reviewer)
    url = f"/assessments/{computed.assessment_id}/notes/"
    seen = client.get(url).context["form"]["version_seen"].value()
    response = client.post(url, {"notes": "Per the 2018 update.", "pollution_prevention": "Recycle solvent.",
                                 "occupational_exposure_rating": "NR",
                                 "occupational_exposure_rating_reason": "Closed system.", "exposure_based_review": "on",
                                 "version_seen": seen})
    assert response["Location"] == f"/assessments/{computed.assessment_id}/"
    computed.assessment.refresh_from_db()
    a = computed.assessment
    assert (a.notes, a.pollution_prevention, a.occupational_exposure_rating, a.exposure_based_review) == (
        "Per the 2018 update.", "Recycle solvent.", "NR", True)
    assert a.history.count() == 2


def test_notes_saved_in_another_tab_are_not_overwritten(client, reviewer, computed):
    client.force_login(reviewer)
    url = f"/assessments/{computed.assessment_id}/notes/"
    seen = client.get(url).context["form"]["version_seen"].value()
    services.assessment_update_notes(assessment=computed.assessment, by=reviewer, data={"notes": "Other tab"})
    response = client.post(url, {"notes": "This tab", "version_seen": seen})
    assert response.status_code == 200
    assert "Someone else saved this assessment after you opened it" in response.content.decode()
    assert response.context["form"]["notes"].value() == "This tab"
    computed.assessment.refresh_from_db()
    assert computed.assessment.notes == "Other tab"


def test_only_the_engineer_edits_notes(client, supervisor, computed):
    client.force_login(supervisor)
    assert client.get(f"/assessments/{computed.assessment_id}/notes/").status_code == 403
