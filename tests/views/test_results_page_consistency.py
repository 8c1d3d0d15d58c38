"""The results page agrees with itself (issue 41): a releases-only use counts no worker as
exposed anywhere on it (summary, facility estimates, notes), for every scenario that offers
releases only; and the mass balance says, where its figures stand, that "released" adds each
medium's conservative set and why a difference below zero is not a release beyond the use."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from assessments import presentation, services
from assessments.esd import registry
from assessments.esd.options import INCLUDE_EXPOSURES, NO
from benchmarks._sample import SAMPLE_CASE, add_sample_use
from tests.conftest import make_assessment, make_submission
from tests.reports.consistency import html_text

pytestmark = pytest.mark.django_db

RELEASES_ONLY = [s.key for s in registry.scenarios() if INCLUDE_EXPOSURES in s.params]


def _page(client, user, scenario) -> str:
    client.force_login(user)
    response = client.get(reverse("scenario-results", args=[scenario.pk]))
    assert response.status_code == 200
    return html_text(response.content.decode())


@pytest.mark.parametrize("key", RELEASES_ONLY)
def test_a_releases_only_use_counts_no_worker_as_exposed_anywhere_on_its_page(client, reviewer, key):
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000.0, vapour_pressure_torr=None), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    scenario.inputs = {**scenario.inputs, INCLUDE_EXPOSURES: NO}
    scenario.reasons = {**scenario.reasons, INCLUDE_EXPOSURES: "Releases only."}
    scenario.save()
    scenario = services.scenario_compute(scenario=scenario, by=reviewer)
    text = _page(client, reviewer, scenario)
    assert "Workers exposed per site via the assessed routes 0 workers" in text
    assert not re.search(r"\d+ (?:distinct )?workers? per site (?:is|are) exposed", text)
    assert "Distinct workers exposed per site" not in text


def test_the_mass_balance_says_what_released_adds_and_why_the_difference_is_below_zero(client, reviewer):
    assessment = make_assessment(make_submission(case_number="P-18-0123", **SAMPLE_CASE), reviewer)
    scenario = add_sample_use(assessment, reviewer)  # ChemSTEER's daily use: 30.2 kg/yr beyond the use
    text = _page(client, reviewer, scenario)
    line = re.search(r"Used 5,000 kg/yr; released .*? \(all sites\)\. (.*?) Mass balance by medium", text)
    assert line, text[:2000]
    assert f"(the summary's total: {presentation.RELEASED_IS})" in line.group(0)
    assert "difference −30.2 kg/yr" in line.group(0) or "difference -30.2 kg/yr" in line.group(0)
    assert line.group(1).startswith(presentation.BELOW_ZERO.split("{why}")[0])
    assert "ChemSTEER's daily use counts the container residue again" in line.group(1)
