"""The ChemSTEER v3.2 switch of an assessment and its column on the results page (issue 42):
``services.assessment_set_chemsteer_v32`` (who may switch it, and when), the form that posts it
(``views_chemsteer``), the column (``presentation.chemsteer_v32_column`` through the
``chemsteer_v32_column`` tag), the demo's sample case on its page, and the IRER, which never
prints it."""

from __future__ import annotations

import io
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.http import Http404
from django.utils.html import escape

from assessments import presentation, services
from assessments.esd import chemsteer_v32
from assessments.models import Assessment, Scenario
from assessments.reports.context import irer_context
from assessments.reports.document import plain_text
from tests._review_support import draft_with_result, in_status, toy_engine
from tests.conftest import make_submission, make_user

pytestmark = pytest.mark.django_db

SECTION = 'id="chemsteer-v32"'
#: A row of the differences' table: the input, this engine's value, v3.2's, its standing for the use.
ROW = re.compile(r'<th scope="row" class="fw-normal">([^<]*)</th><td>([^<]*)</td><td>([^<]*)</td><td>(.*?)</td>')
FIGURES, DIFFERENCES = 'id="chemsteer-v32-figures"', 'id="chemsteer-v32-differences"'


def switch(client, assessment: Assessment, value: str, use: Scenario | None = None):
    data = {"chemsteer_v32": value} | ({"use": str(use.pk)} if use is not None else {})
    return client.post(f"/assessments/{assessment.pk}/chemsteer-v32/", data)


@pytest.fixture
def photoresist_use(reviewer) -> Scenario:
    """A draft of ``reviewer``'s with one photoresist-2010 use computed (the ESD 2010 §6 example:
    5,000 kg/yr at 15 %, from the case), through the services."""
    case = make_submission(production_volume_kg_yr=5000.0, use_concentration=0.15)
    assessment = services.assessment_start(submission=case, by=reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=use, by=reviewer)


# --- the service: who may switch it, and when ------------------------------------------------------


@pytest.mark.usefixtures("toy_engine")
@pytest.mark.parametrize("state", ["draft", "returned"])
def test_its_engineer_switches_it_on_and_off_with_a_reason_in_the_history(reviewer, supervisor, state):
    assessment = in_status(state, reviewer, supervisor)
    assert assessment.chemsteer_v32 is False  # off by default
    services.assessment_set_chemsteer_v32(assessment=assessment, by=reviewer, on=True)
    assessment.refresh_from_db()
    latest = assessment.history.latest()
    assert assessment.chemsteer_v32 is True
    assert (latest.history_user, latest.history_change_reason) == (reviewer, services.CHEMSTEER_V32_REASONS[True])
    records = assessment.history.count()
    services.assessment_set_chemsteer_v32(assessment=assessment, by=reviewer, on=True)  # already on: nothing written
    assert assessment.history.count() == records
    services.assessment_set_chemsteer_v32(assessment=assessment, by=reviewer, on=False)
    assessment.refresh_from_db()
    assert assessment.chemsteer_v32 is False
    assert assessment.history.latest().history_change_reason == services.CHEMSTEER_V32_REASONS[False]


@pytest.mark.usefixtures("toy_engine")
@pytest.mark.parametrize("state", ["submitted", "approved"])
def test_submitted_and_approved_work_is_refused(reviewer, supervisor, state):
    assessment = in_status(state, reviewer, supervisor)
    records = assessment.history.count()
    with pytest.raises(PermissionDenied, match=re.escape(services.EDIT_ASSESSMENT_NOT_ALLOWED)):
        services.assessment_set_chemsteer_v32(assessment=assessment, by=reviewer, on=True)
    assessment.refresh_from_db()
    assert assessment.chemsteer_v32 is False and assessment.history.count() == records


@pytest.mark.usefixtures("toy_engine")
def test_another_reviewer_and_a_supervisor_are_refused(reviewer, supervisor, django_user_model):
    assessment = draft_with_result(reviewer)
    other = make_user(django_user_model, "rev2", group="reviewer", cbi=True)
    for user in (other, supervisor):
        with pytest.raises(PermissionDenied):
            services.assessment_set_chemsteer_v32(assessment=assessment, by=user, on=True)
    assessment.refresh_from_db()
    assert assessment.chemsteer_v32 is False


@pytest.mark.usefixtures("toy_engine")
def test_an_uncleared_user_on_a_cbi_case_gets_404_from_the_service_and_the_page(client, reviewer, uncleared_reviewer):
    assessment = draft_with_result(reviewer, cbi_claims=["chemical_name"])
    with pytest.raises(Http404):
        services.assessment_set_chemsteer_v32(assessment=assessment, by=uncleared_reviewer, on=True)
    # Even as its engineer: a case the user may not see is a 404, never a 403.
    Assessment.objects.filter(pk=assessment.pk).update(engineer=uncleared_reviewer)
    with pytest.raises(Http404):
        services.assessment_set_chemsteer_v32(assessment=assessment, by=uncleared_reviewer, on=True)
    client.force_login(uncleared_reviewer)
    assert switch(client, assessment, "on").status_code == 404
    assessment.refresh_from_db()
    assert assessment.chemsteer_v32 is False


# --- the form -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("toy_engine")
def test_the_form_posts_only_on_or_off_and_goes_back_to_the_use(client, reviewer, django_user_model):
    assessment = draft_with_result(reviewer)
    use = assessment.scenarios.get()
    client.force_login(reviewer)
    assert client.get(f"/assessments/{assessment.pk}/chemsteer-v32/").status_code == 405
    assert switch(client, assessment, "yes").status_code == 400
    response = switch(client, assessment, "on", use)
    assert (response.status_code, response["Location"]) == (302, f"/scenarios/{use.pk}/")
    other_use = draft_with_result(reviewer).scenarios.get()  # a use of another assessment: back to this one
    response = switch(client, assessment, "off", other_use)
    assert (response.status_code, response["Location"]) == (302, f"/assessments/{assessment.pk}/")
    assessment.refresh_from_db()
    assert assessment.chemsteer_v32 is False
    client.force_login(make_user(django_user_model, "rev2", group="reviewer", cbi=True))
    assert switch(client, assessment, "on").status_code == 403


# --- the column ---------------------------------------------------------------------------------


def test_off_the_page_offers_the_switch_to_its_engineer_only(client, reviewer, photoresist_use, django_user_model):
    client.force_login(reviewer)
    page = client.get(f"/scenarios/{photoresist_use.pk}/").content.decode()
    assert SECTION in page and "Show a ChemSTEER v3.2 column" in page and FIGURES not in page
    assert presentation.chemsteer_v32_column(scenario=photoresist_use) is None
    client.force_login(make_user(django_user_model, "rev2", group="reviewer", cbi=True))
    assert SECTION not in client.get(f"/scenarios/{photoresist_use.pk}/").content.decode()


def test_on_the_results_page_shows_each_difference_cited_and_both_columns(client, reviewer, photoresist_use):
    client.force_login(reviewer)
    response = switch(client, photoresist_use.assessment, "on", photoresist_use)
    page = client.get(response["Location"]).content.decode()
    assert "Hide the ChemSTEER v3.2 column" in page
    differences = page.split(DIFFERENCES, 1)[1].split("</table>", 1)[0]
    assert "<caption" in differences and "(4 applied to this use)" in differences
    applied = "<strong>Applied: the use leaves it at this engine&#x27;s default</strong>"
    assert ROW.findall(differences) == [
        ("Body weight of a worker", "80 kg", "70 kg", applied),
        ("Skin area contacted, one hand", "420 cm²", "535 cm²", applied),
        ("Skin area contacted, two hands", "840 cm²", "1,070 cm²", applied),
        ("Daily use after rounding the number of sites up",
         "The ESD&#x27;s rule: the chemical dispensed (container residue left out)",
         "ChemSTEER&#x27;s rule: the whole production volume, as its IRERs print it", applied),
    ]
    for difference in chemsteer_v32.differences("photoresist-2010"):
        assert escape(difference.citation) in differences, difference.key
    figures = page.split(FIGURES, 1)[1].split("</table>", 1)[0]
    assert '<th scope="col" class="text-end">This engine</th><th scope="col" class="text-end">ChemSTEER v3.2</th>' \
        in figures
    # Exposure A, one hand, low end: 420 × 0.7 × 0.15 = 44.1 mg/day; 535 × 0.7 × 0.15 = 56.2 (+27.4 %).
    assert re.search(r'<tr class="table-warning"><th scope="row" class="fw-normal">Exposure A: [^<]*</th><td>Low end'
                     r"</td><td>mg/day</td><td class=\"text-end\">44.1</td><td class=\"text-end\">56.2</td>"
                     r"<td>\+27.4 %</td></tr>", figures)
    assert "ChemSTEER v3.2 column" in page and "Never printed in the IRER" in page


def test_the_irer_never_prints_the_column(reviewer, photoresist_use):
    """The same report, appendix and all, with the switch on as off."""
    assessment = photoresist_use.assessment

    def report() -> str:
        fresh = Assessment.objects.get(pk=assessment.pk)
        return plain_text(irer_context(assessment=fresh, appendix=True)["document"])

    before = report()
    services.assessment_set_chemsteer_v32(assessment=assessment, by=reviewer, on=True)
    after = report()
    assert after == before
    assert "side by side" not in after and "v3.2 column" not in after and "535 cm²" not in after


# --- the demo's sample case -------------------------------------------------------------------------


def test_the_sample_cases_v32_column_shows_the_documented_differences_only(client, demo_data):
    """P-18-0123 (the EPA 2018 update's §7 sample, on ChemSTEER's daily use rule, releases only):
    the v3.2 column lists its method's two declared differences, neither applied (the body weight
    applies to no figure of a releases-only use; the daily use rule is ChemSTEER's already), and
    every release figure is the engine's. Revision 1, approved, cannot be switched; revision 2,
    the reviewer's draft, can."""
    first, second = (Assessment.objects.get(submission__case_number="P-18-0123", revision=n) for n in (1, 2))
    reviewer = second.engineer
    with pytest.raises(PermissionDenied):
        services.assessment_set_chemsteer_v32(assessment=first, by=reviewer, on=True)
    use = second.scenarios.get()
    client.force_login(reviewer)
    page = client.get(switch(client, second, "on", use)["Location"]).content.decode()
    differences = page.split(DIFFERENCES, 1)[1].split("</table>", 1)[0]
    assert ROW.findall(differences) == [
        ("Body weight of a worker", "80 kg", "70 kg", "Not applied: the input does not apply to this use (it applies "
         "when “Estimate worker exposures” is “Yes: releases and worker exposures”)"),
        ("Daily use after rounding the number of sites up", "The ESD&#x27;s rule: the chemical dispensed (container "
         "residue left out)", "ChemSTEER&#x27;s rule: the whole production volume, as its IRERs print it",
         "Not applied: the use sets it (ChemSTEER&#x27;s rule: the whole production volume, as its IRERs print it), "
         "and the reviewer&#x27;s value stands"),
    ]
    assert "(0 applied to this use)" in differences
    figures = page.split(FIGURES, 1)[1].split("</table>", 1)[0]
    assert 'class="table-warning"' not in figures and figures.count("<td>same</td>") == 10  # 5 releases × 2
    assert "10 release and exposure figures: 0 differ with ChemSTEER v3.2's defaults" in page
    column = presentation.chemsteer_v32_column(scenario=Scenario.objects.get(pk=use.pk))
    assert [r["v32"] for r in column["rows"]] == [r["engine"] for r in column["rows"]]
