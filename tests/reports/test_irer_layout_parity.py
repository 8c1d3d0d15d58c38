"""The IRER's layout as ChemSTEER's (issue 28, item 3): the models under ChemSTEER's names,
the doses printed once, counts per site said so, same-medium releases stacked as ChemSTEER's
``Save_Irer`` stacks them on the reviewer's choice, and the trace appendix printed for drafts
and where the reviewer asks, so that the approved sample prints in about the seed's length
(EPA 2018 photoresist update, §7: three pages)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from assessments.models import Assessment
from assessments.reports.context import irer_context
from assessments.reports.document import plain_text
from assessments.reports.releases import ReleaseRow, combine
from assessments.reports.render import irer_pdf
from tests.contract import sanitised
from tests.reports import reading

pytestmark = pytest.mark.django_db

APPENDIX = "Appendix: releases as computed, inputs used and calculation trace"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def text_of(context) -> str:
    return flat(plain_text(context["document"]))


@pytest.fixture
def demo(db, settings) -> Assessment:
    """The demo sample case P-18-0123's approved revision 1 (load_demo)."""
    settings.DEBUG = True
    call_command("load_demo")
    return Assessment.objects.get(submission__case_number="P-18-0123", revision=1)


@pytest.fixture
def exposures(sample_assessment) -> Assessment:
    """The sample case with its worker exposures computed (tests/reports/conftest.py)."""
    assert sample_assessment.scenarios.get().result["exposures"]
    return sample_assessment


# --- The appendix ----------------------------------------------------------------------


def test_the_approved_sample_without_its_appendix_prints_in_at_most_four_pages(demo):
    assert demo.status == "approved"
    pdf = irer_pdf(irer_context(assessment=demo))
    assert len(PdfReader(io.BytesIO(pdf)).pages) <= 4
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
        assert int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1)) <= 4


def test_the_approved_copy_prints_no_appendix_unless_the_reviewer_asks(demo):
    assert APPENDIX not in text_of(irer_context(assessment=demo))
    demo.irer_appendix = True
    assert APPENDIX in text_of(irer_context(assessment=demo))


def test_a_draft_prints_the_appendix_unless_the_reviewer_says_no(demo):
    draft = demo.submission.assessments.get(revision=2)
    assert APPENDIX in text_of(irer_context(assessment=draft))
    draft.irer_appendix = False
    text = text_of(irer_context(assessment=draft))
    assert APPENDIX not in text and "calculation trace" in text  # the basis says where the trace is


def test_the_approval_is_named_with_or_without_the_appendix(demo):
    for appendix in (False, True):
        assert "Approved by Sam Supervisor on " in text_of(irer_context(assessment=demo, appendix=appendix))


# --- ChemSTEER's model names -------------------------------------------------------------


def test_release_models_print_under_chemsteers_basis_text(demo):
    text = text_of(irer_context(assessment=demo))
    # Seed 002, p. 7-5; ChemSTEER's ListOfModels, ModelID 4: "EPA/OPPT Single Vessel Residual
    # Model, CEB standard 1% residual."
    assert "basis: EPA/OPPT Single Vessel Residual Model, CEB standard 1% residual." in text
    assert "Single Process Vessel Residual Model, CEB" not in text


def test_a_result_stored_with_the_documents_name_prints_chemsteers(demo):
    draft = demo.submission.assessments.get(revision=2)
    scenario = draft.scenarios.get()
    result = dict(scenario.result)
    result["releases"] = [{**r, "standard_basis": r["standard_basis"].replace("Single Vessel", "Single Process Vessel")}
                          for r in result["releases"]]
    type(scenario).objects.filter(pk=scenario.pk).update(result=result)
    text = text_of(irer_context(assessment=draft))
    assert "basis: EPA/OPPT Single Vessel Residual Model, CEB standard 1% residual." in text


def test_exposure_models_print_under_chemsteers_names(exposures):
    text = text_of(irer_context(assessment=exposures))
    # ListOfModels, ModelID 25 and 26: "... Dermal Contact with Liquids Model."
    assert "(EPA/OPPT 1-Hand Dermal Contact with Liquids Model, ESD 2010 Eqn 5-3)" in text
    assert "(EPA/OPPT 2-Hand Dermal Contact with Liquids Model, ESD 2010 Eqn 5-4)" in text


# --- Doses once, counts per site ---------------------------------------------------------


def test_doses_print_once_under_the_irers_labels(exposures):
    context = irer_context(assessment=exposures)
    text = text_of(context)
    # Exposure A, low end: APDR 56.175 / 80 = 0.702; ADD 56.175 × 250 × 40 / (80 × 40 × 365) = 0.481;
    # LADD 0.481 × 40/70 = 0.275 (tests/reports/test_irer_doses.py).
    assert text.count("7.0E-1") == 1 and text.count("4.8E-1") == 1 and text.count("2.7E-1") == 1
    assert "Occupational exposure summary" not in text
    [table] = reading.tables(context, "doses")
    assert {row[2] for row in reading.rows(table)} == {"Low End of Range", "High End of Range"}
    assert not reading.tables(context, "summary")


def test_every_count_of_workers_says_per_site(exposures):
    text = text_of(irer_context(assessment=exposures))
    # ESD 2010 Eqn 5-1 and 5-2: 48 operators and 18 technicians a site, 66 in all, at 3 sites.
    assert "Tot. # of workers exposed via assessed routes: 198 Basis: 66 workers per site × 3 sites;" in text
    assert text.count(": 48 workers per site, 250 days/yr") == 1
    assert text.count(": 18 workers per site, 250 days/yr") == 4
    assert not re.search(r"\b\d+ workers, ", text)
    assert " a site × " not in text


# --- Same-medium releases combined -------------------------------------------------------


def test_releases_print_one_block_each_by_default(demo):
    context = irer_context(assessment=demo)
    assert reading.headings(context, 4).count("Incineration") == 2
    assert len(reading.release_blocks(context)) == 5


def test_combined_same_medium_releases_stack_as_chemsteer_does(demo):
    context = irer_context(assessment=demo, combine=True)
    assert reading.headings(context, 4) == ["Water", "Water or Incineration", "Incineration", "Incineration or Landfill"]
    blocks = reading.release_blocks(context)
    [incineration] = [b for b in blocks if "Spin-Off" in b["from"]]
    # Bottles 4.66 × 0.006 = 0.0280 and spin-off 4.63 × 0.9207 = 4.26 kg/site-day, both over
    # 360 days: 4.29 kg/site-day; × 360 = 1,545 kg/site-yr; × 3 sites = 4,634 kg/yr.
    assert incineration["rate"] == "Output 2: 4.3E+0 kg/site-day over 360 days/yr from 3 sites"
    assert incineration["year"] == "or 1.5E+3 kg/site-yr from 3 sites or 4.6E+3 kg/yr-all sites"
    assert incineration["from"] == "Cleaning Liquid Residuals from Bottles Used to Transport the Raw Material; Spin-Off"
    assert incineration["basis"].startswith("EPA/OPPT Small Container Residual Model, CEB standard 0.6% residual. ")
    assert "; User-Defined Loss Rate Model. " in incineration["basis"]
    # the release total is the same sum
    assert "RELEASE TOTAL 5.0E+3 kg/yr - all sites" in text_of(context)


def _row(number: int, rate: float, days: float, source: str) -> ReleaseRow:
    return ReleaseRow(number - 1, 0, number, "Output 2", False, rate, days, 3, rate * days, rate * days * 3,
                      "Incineration (per ESD)", False, source, "User-Defined Loss Rate Model.", "")


def test_stacked_releases_peel_by_days_shortest_first():
    # Save_Irer: bottles 0.028 kg/site-day over 360 days and a cleaning 0.5 over 12 days
    # stack into 0.528 over 12 days, then 0.028 over the 348 left; 0.528 × 12 + 0.028 × 348
    # = 16.08 = 0.028 × 360 + 0.5 × 12 kg/site-yr.
    [(heading, rows)] = combine([("Incineration", [_row(1, 0.028, 360, "Bottles"), _row(2, 0.5, 12, "Cleaning")])])
    assert heading == "Incineration"
    assert [(round(r.kg_site_day, 6), r.days) for r in rows] == [(0.528, 12), (0.028, 348)]
    assert [[m.source for m in r.members] for r in rows] == [["Bottles", "Cleaning"], ["Bottles"]]
    assert sum(r.kg_site_year for r in rows) == pytest.approx(16.08)
    assert sum(r.kg_year_all_sites for r in rows) == pytest.approx(16.08 * 3)


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018", "cvd-2015"])
def test_the_sanitised_combined_copy_is_the_same_for_other_claimed_values(key, reviewer):
    # tests/contract/sanitised.py: two cases that differ only in their claimed values.
    claims = ["production_volume_kg_yr", "use_concentration", "molecular_weight"]
    copies = []
    for values in ({}, {"production_volume_kg_yr": 7321.0, "use_concentration": 0.35, "molecular_weight": 310.0}):
        assessment = sanitised.build(key, {**sanitised.PLAIN, **values}, claims, branch={}, site_data=False,
                                     reviewer=reviewer)
        assert assessment is not None
        assert len(reading.release_blocks(irer_context(assessment=assessment, combine=True))) < len(
            reading.release_blocks(irer_context(assessment=assessment))) or key == "cvd-2015"
        text = plain_text(irer_context(assessment=assessment, sanitised=True, combine=True)["document"])
        copies.append(sanitised._case_free(text, assessment))
    assert "7,321" not in copies[1] and "5,000" not in copies[0]
    assert copies[0] == copies[1], sanitised.first_difference(*copies)
