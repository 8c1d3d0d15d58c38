"""Across uses: when the uses together need more than the case's production volume, the
assessment page, the submit step and the IRER say so, and submitting needs a reason,
which is stored and printed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from assessments import services, workflow
from assessments.models import Status
from assessments.reports.context import irer_context
from assessments.reports.render import irer_html
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

MESSAGE = "The uses add up to 10,000 kg/yr, more than the case's production volume of 5,000 kg/yr (200 % of it)."


@pytest.fixture
def two_uses(reviewer):
    """Two uses, each assessed with the whole production volume (5,000 kg/yr)."""
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    for title in ("Fab A", "Fab B"):
        scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010",
                                         title=title)
        services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


def test_assessment_page_says_the_uses_exceed_the_volume(client, reviewer, two_uses):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{two_uses.pk}/").content.decode()
    assert MESSAGE.replace("'", "&#x27;") in html
    assert 'name="volume_reason"' in html  # the submit step asks for the reason


def test_submit_without_a_reason_is_refused_and_writes_nothing(reviewer, two_uses):
    with pytest.raises(ValidationError) as error:
        workflow.assessment_submit(assessment=two_uses, by=reviewer)
    assert error.value.message_dict["volume_reason"] == [workflow.VOLUME_REASON_REQUIRED.format(message=MESSAGE)]
    two_uses.refresh_from_db()
    assert two_uses.status == Status.DRAFT and not two_uses.decisions.exists()


def test_submit_with_a_reason_stores_it_and_the_report_prints_it(reviewer, two_uses):
    reason = "Fab A and Fab B are alternative customers; only one will buy."
    workflow.assessment_submit(assessment=two_uses, by=reviewer, volume_reason=f"  {reason} ")
    two_uses.refresh_from_db()
    assert two_uses.status == Status.SUBMITTED and two_uses.volume_excess_reason == reason
    assert two_uses.history.first().volume_excess_reason == reason
    html = irer_html(irer_context(assessment=two_uses), for_pdf=False)
    assert "USES AND PRODUCTION VOLUME:" in html and reason in html


def test_uses_within_the_volume_need_no_reason(reviewer, two_uses):
    two_uses.scenarios.last().delete()
    workflow.assessment_submit(assessment=two_uses, by=reviewer, volume_reason="ignored")
    two_uses.refresh_from_db()
    assert two_uses.status == Status.SUBMITTED and two_uses.volume_excess_reason == ""
    assert "USES AND PRODUCTION VOLUME" not in irer_html(irer_context(assessment=two_uses), for_pdf=False)


def test_sanitised_report_does_not_print_the_volume_when_it_is_claimed(reviewer, two_uses):
    case = two_uses.submission
    case.cbi_claims = ["production_volume_kg_yr"]
    case.save()
    html = irer_html(irer_context(assessment=two_uses, sanitised=True), for_pdf=False)
    # Whether the uses exceed the volume moves with the volume: the paragraph is not printed at all.
    assert "USES AND PRODUCTION VOLUME" not in html and "production volume." not in html
    # (with their units: an input's source may cite a bound of 10,000 sites, which is no volume)
    assert "10,000 kg" not in html and "5,000 kg" not in html
    full = irer_html(irer_context(assessment=two_uses), for_pdf=False)
    assert "USES AND PRODUCTION VOLUME" in full
