"""Compare lists the case-data and CBI-claim differences between two revisions first
(issue 26), each revision's case as its report reads it (an approved revision's as it was
approved, ``Assessment.case_data``; a draft's as the case is now), in words: field labels
(the case fields' verbose names), values as the pages print them, claims by their labels;
never a raw field name or a JSON list."""

from __future__ import annotations

import html
import re

import pytest

from assessments import services, workflow
from assessments.models import Assessment
from tests._review_support import TOY_KEY, toy_engine
from tests.conftest import make_assessment, make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

AMENDMENT = "Amended PMN of 2026-03-02."


def two_revisions(reviewer, supervisor, *, amended: dict, claims: list[str], **case) -> Assessment:
    """Revision 1 (one use) approved with ``case``; revision 2 started; the case amended
    with ``amended`` and its claims set to ``claims``. Revision 2."""
    first = make_assessment(make_submission(**case), reviewer)
    scenario = services.scenario_add(assessment=first, by=reviewer, scenario_key=TOY_KEY, title="Coating")
    services.scenario_compute(scenario=scenario, by=reviewer)
    workflow.assessment_submit(assessment=first, by=reviewer)
    workflow.assessment_approve(assessment=first, by=supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    services.submission_update(submission=second.submission, by=reviewer, data=amended, cbi_claims=claims,
                               reason=AMENDMENT)
    return second


def page(client, user, assessment: Assessment, query: str = ""):
    client.force_login(user)
    response = client.get(f"/assessments/{assessment.pk}/compare/{query}")
    assert response.status_code == 200
    return response


def differing(section) -> dict[str, tuple[str, str]]:
    return {row.label: (row.left, row.right) for row in section.rows if row.differs}


def text_of(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_the_case_data_and_claims_come_first_in_words(client, reviewer, supervisor):
    second = two_revisions(reviewer, supervisor, production_volume_kg_yr=2400.0, physical_state="liquid",
                           amended={"production_volume_kg_yr": 3000.0, "physical_state": "solid"},
                           claims=["production_volume_kg_yr"])
    response = page(client, reviewer, second)
    sections = response.context["sections"]
    assert [s.title for s in sections[:3]] == ["Case data", "CBI claims", "Assessment"]
    assert differing(sections[0]) == {
        "Production volume (kg/yr)": ("2,400", "3,000"),
        "Physical state": ("Liquid", "Solid"),
    }
    assert differing(sections[1]) == {"Production volume (kg/yr)": ("Not claimed", "Claimed as CBI")}
    assert sections[0].note == "Revision 1: the case as approved; revision 2: the case as it is now."
    text = text_of(response)
    # Before the uses' inputs, on the page too.
    assert text.index("Case data") < text.index("CBI claims") < text.index("Use: Coating")
    assert "Production volume (kg/yr) 2,400 3,000" in text
    assert "Production volume (kg/yr) Not claimed Claimed as CBI" in text
    for raw in ("production_volume_kg_yr", "physical_state", "cbi_claims", '["', "[]"):
        assert raw not in text


def test_the_uses_input_that_followed_the_amendment_is_listed_after_the_case(client, reviewer, supervisor):
    second = two_revisions(reviewer, supervisor, production_volume_kg_yr=2400.0,
                           amended={"production_volume_kg_yr": 3000.0}, claims=[])
    sections = page(client, reviewer, second).context["sections"]
    use = next(s for s in sections if s.title == "Use: Coating")
    assert differing(use)["Annual volume (Qchem_yr)"] == ("2,400 kg/yr", "3,000 kg/yr")
    assert sections.index(use) > 1


def test_a_withdrawn_claim_shows_as_a_difference_of_the_claims(client, reviewer, supervisor):
    second = two_revisions(reviewer, supervisor, molecular_weight=410.9, cbi_claims=["molecular_weight"],
                           amended={"molecular_weight": 250.0}, claims=[])
    sections = page(client, reviewer, second).context["sections"]
    assert differing(sections[0]) == {"Molecular weight (g/mol)": ("410.9", "250")}
    assert differing(sections[1]) == {"Molecular weight (g/mol)": ("Claimed as CBI", "Not claimed")}


def test_an_uncleared_user_sees_a_claimed_value_of_either_revision_as_cbi(client, reviewer, supervisor,
                                                                        uncleared_reviewer):
    """The claim was withdrawn after revision 1's approval: the case is no longer CBI, so a
    user not cleared for CBI may see it; revision 1's claimed value stays withheld, as the
    sanitised copy of its report withholds it."""
    second = two_revisions(reviewer, supervisor, molecular_weight=410.9, cbi_claims=["molecular_weight"],
                           amended={"molecular_weight": 250.0}, claims=[])
    response = page(client, uncleared_reviewer, second, "?all=1")
    rows = {row.label: (row.left, row.right) for row in response.context["sections"][0].rows}
    assert rows["Molecular weight (g/mol)"] == ("[CBI]", "[CBI]")
    assert differing(response.context["sections"][1]) == {
        "Molecular weight (g/mol)": ("Claimed as CBI", "Not claimed")}
    assert "410.9" not in response.content.decode()


def test_a_cbi_case_is_404_for_an_uncleared_user(client, reviewer, supervisor, uncleared_reviewer):
    second = two_revisions(reviewer, supervisor, amended={"production_volume_kg_yr": 6000.0},
                           claims=["production_volume_kg_yr"])
    client.force_login(uncleared_reviewer)
    assert client.get(f"/assessments/{second.pk}/compare/").status_code == 404
