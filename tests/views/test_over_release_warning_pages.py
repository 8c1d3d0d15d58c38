"""The over-release warning (issue 26) where a reviewer and a supervisor read a use: the results
page, the assessment page beside the use, the supervisors' review queue and the IRER, in the
engine's words; the sanitised IRER withholds it when the production volume is claimed.

Reached within the bounds (no stored result needed): the ESD 2010 §6 use (5,000 kg/yr at
15 %, three sites) shipped in rail cars of 75,708 L, the largest container of ESD 2010
Appendix B Table B-3, one a site a year: 5,174 kg/yr released from 5,000 used, 84 kg/yr
beyond what whole containers explain (by hand in tests/esd/test_over_release_warning.py).
"""

from __future__ import annotations

import html
import re

import pytest

from assessments import services, workflow
from assessments.models import Assessment, Scenario
from assessments.reports.context import irer_context
from assessments.reports.document import Group, Para, walk
from assessments.reports.document import text_of as parts_text
from assessments.reports.use_report import OVER_RELEASE_WITHHELD
from tests.conftest import make_assessment, make_submission
from tests.reports.reading import paragraphs

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"
WARNING = (
    "Releases (5,174 kg/yr) exceed the chemical used (5,000 kg/yr) beyond what whole-container rounding and the "
    "documents' other conventions explain (at most 90 kg/yr here); check “Volume of photoresist per container” "
    "(Vcont = 75708 L/container)."
)


def text_of(content: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", content.decode())))


def add_use(assessment: Assessment, title: str, **inputs) -> Scenario:
    engineer = assessment.engineer
    scenario = services.scenario_add(assessment=assessment, by=engineer, scenario_key=KEY, title=title)
    scenario.inputs = {**scenario.inputs, **inputs}
    scenario.reasons = {**scenario.reasons, **dict.fromkeys(inputs, "Shipped by rail (submitter's letter).")}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=engineer)


@pytest.fixture
def assessment(reviewer) -> Assessment:
    """A draft with two uses of the §6 case: one in rail cars (over the use), one in bottles."""
    case = make_submission(case_number="P-26-2601", production_volume_kg_yr=5000.0, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    add_use(assessment, "Rail-car resist", Vcont=75_708.0)
    add_use(assessment, "Bottled resist")
    return assessment


def use(assessment: Assessment, title: str) -> Scenario:
    return assessment.scenarios.get(title=title)


def test_the_result_stores_the_warning_once_in_its_mass_balance(assessment):
    result = use(assessment, "Rail-car resist").result
    assert result["mass_balance"]["over_release_warning"] == WARNING
    assert WARNING not in result["warnings"]
    assert use(assessment, "Bottled resist").result["mass_balance"]["over_release_warning"] == ""


def test_the_results_page_shows_the_warning(client, reviewer, assessment):
    client.force_login(reviewer)
    text = text_of(client.get(f"/scenarios/{use(assessment, 'Rail-car resist').pk}/").content)
    assert f"Releases beyond the use: {WARNING}" in text
    other = text_of(client.get(f"/scenarios/{use(assessment, 'Bottled resist').pk}/").content)
    assert "Releases beyond the use" not in other


def test_the_assessment_page_shows_it_beside_the_use(client, reviewer, assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{assessment.pk}/")
    page = response.content.decode()
    row = re.search(r"<tr>(?:(?!</tr>).)*Rail-car resist(?:(?!</tr>).)*</tr>", page, re.S).group(0)
    assert f"Releases beyond the use: {WARNING}" in text_of(row.encode())
    bottled = re.search(r"<tr>(?:(?!</tr>).)*Bottled resist(?:(?!</tr>).)*</tr>", page, re.S).group(0)
    assert "Releases beyond the use" not in text_of(bottled.encode())


def test_the_review_queue_shows_it_for_the_supervisor(client, reviewer, supervisor, assessment):
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Rail cars, per the submitter.",
                               volume_reason="The two uses are alternatives, not additive.")
    client.force_login(supervisor)
    text = text_of(client.get("/review/").content)
    assert f"Releases beyond the use: “Rail-car resist”: {WARNING}" in text
    assert "“Bottled resist”: Releases" not in text


def test_the_irer_prints_it_under_the_use(client, reviewer, assessment):
    context = irer_context(assessment=assessment)
    assert paragraphs(context, "over-release") == [f"Warning: {WARNING}"]
    client.force_login(reviewer)
    text = text_of(client.get(f"/assessments/{assessment.pk}/irer/").content)
    assert f"Warning: {WARNING}" in text
    # under the use it belongs to, not the other
    sections = [b for b in walk(context["document"].blocks) if isinstance(b, Group) and b.cls == "use"]
    said = [[parts_text(p.content) for p in walk(section.blocks) if isinstance(p, Para) and p.cls == "over-release"]
            for section in sections]
    assert said == [[f"Warning: {WARNING}"], []]


def test_the_sanitised_irer_withholds_it_when_the_volume_is_claimed(client, reviewer, assessment):
    case = assessment.submission
    services.submission_update(submission=case, by=reviewer, data={}, cbi_claims=["production_volume_kg_yr"])
    assessment.refresh_from_db()
    sanitised = irer_context(assessment=assessment, sanitised=True)
    assert paragraphs(sanitised, "over-release") == []
    client.force_login(reviewer)
    text = text_of(client.get(f"/assessments/{assessment.pk}/irer/?copy=sanitised").content)
    assert WARNING not in text and "5,174" not in text
    # said for both uses alike: whether a use has the warning moves with the claimed volume too
    assert text.count(OVER_RELEASE_WITHHELD) == 2
    full = text_of(client.get(f"/assessments/{assessment.pk}/irer/").content)
    assert WARNING in full
