"""The EPA 2018 update's sample IRER presents releases only (§7: "Occupational exposures are
outside of the scope of the ESD update and are not assessed in this sample IRER"): with
``include_exposures`` no, the report prints its releases unchanged, no exposure block, no
dose table, and "0" workers exposed via assessed routes, as the sample does."""

from __future__ import annotations

import re

import pytest

from assessments import services
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf
from tests.reports.conftest import build_sample_assessment, pdf_text

pytestmark = pytest.mark.django_db


def _text(assessment) -> str:
    return " ".join(pdf_text(irer_pdf(irer_context(assessment=assessment))).split())


def test_the_sample_as_printed_releases_only(reviewer):
    assessment = build_sample_assessment(reviewer)
    both = _text(assessment)
    scenario = assessment.scenarios.get()
    scenario.inputs |= {"include_exposures": "no"}
    scenario.reasons |= {"include_exposures": "EPA 2018 update §7: the sample IRER gives releases only."}
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    only = _text(assessment)

    assert "Tot. # of workers exposed via assessed routes: 198" in both  # 66 a site × 3 sites
    assert "Tot. # of workers exposed via assessed routes: 0" in only
    assert "releases only" in only
    # the release blocks are the same: every E-notation figure of them is still printed
    for figure in ("1.6E-1", "5.8E+1", "1.7E+2", "2.8E-2", "1.0E+1", "3.0E+1", "4.6E-2", "1.7E+1", "4.3E+0",
                   "1.5E+3", "4.6E+3", "5.0E+3"):
        assert figure in only
    # no dermal dose of 2010's Exposures A to E, and no dose rates
    assert "Change-out of liquid photoresist containers" in both
    assert "Change-out of liquid photoresist containers" not in only
    assert not re.search(r"\bAPDR\b", only)
