"""The report spells numbers with the application's one vocabulary: the production volume
as entered (as the case page prints it), a share of a release as the IRER prints a
percentage (``assessments.esd.text.irer_percent``), and the use concentration alike."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from assessments.reports.context import irer_context
from assessments.reports.releases import default_destination
from tests.conftest import make_assessment, make_submission
from tests.reports import reading

pytestmark = pytest.mark.django_db


def test_a_share_of_a_release_prints_to_four_figures_without_a_space():
    # A release split in three equal parts: 1/3 = 33.33 % to four significant figures.
    text = default_destination({"media": []}, ["landfill", "incineration"], 1 / 3, "per ESD")
    assert text == "Incineration or Landfill (33.33% of the release, per ESD)"


def test_the_production_volume_prints_as_entered_as_on_the_case_page(reviewer):
    submission = make_submission(production_volume_kg_yr=1234.5, use_concentration=0.125)
    context = irer_context(assessment=make_assessment(submission, reviewer))
    case_page = Template("{% load figures %}{{ pv|entered }}").render(Context({"pv": 1234.5}))
    assert reading.field(context, "PV (kg/yr):").split(" ")[0] == case_page == "1,234.5"  # not rounded to 1,235 kg/yr
    assert reading.field(context, "USE:").endswith("(concentration 12.5%)")
