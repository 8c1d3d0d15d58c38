"""The IRER's PDF, read back as text: header, release blocks, totals, exposures, CBI."""

import io
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from pypdf import PdfReader

from assessments.models import Status
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf
from assessments.reports.services import FULL_COPY_NOT_ALLOWED, irer_download
from tests.reports.conftest import pdf_pages, pdf_text

pytestmark = pytest.mark.django_db


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def sample_text(sample_pdf):
    return flat(pdf_text(sample_pdf))


def test_header_block(sample_text):
    for expected in (
        "INITIAL REVIEW ENGINEERING REPORT", "CBI: No", "Example Photoresist Use IRER", "P-18-0123",
        "PV (kg/yr): 5,000 Import Only", "SUBMITTER: Photoresist Application Company",
        "Chemical Name: Non-Volatile Photoresist Additive", "MW: 200 ", "VP: 1E-6 torr @ 20 °C",
        "S-H2O: 1E-6 g/L (temperature not given)", "PBT rating: P2B1T", "OCCUPATIONAL EXPOSURE RATING: NR",
        "EXPOSURE-BASED REVIEW: No", "MSDS: No Label: No", "Staff Draft", "ENGINEER: Riley Reviewer",
    ):
        assert expected in sample_text, expected


# spec/irer.md "The sample as numbers" (EPA 2018 update, Section 7, pages 7-4 to 7-6): the
# label as ChemSTEER prints it and the source's name ("from:").
SAMPLE_BLOCKS = [
    ("Output 2", "1.6E-1", "360", "3", "5.8E+1", "1.7E+2", "Waste Developer Solution"),
    ("Output 2", "1.6E-1", "360", "3", "5.8E+1", "1.7E+2", "Etching and Stripping Waste"),
    ("High End", "2.8E-2", "360", "3", "1.0E+1", "3.0E+1", "Cleaning Liquid Residuals from Bottles"),
    ("Conservative", "4.6E-2", "360", "3", "1.7E+1", "5.0E+1", "Equipment Cleaning Losses"),  # printed "5E+1"
    ("Output 2", "4.3E+0", "360", "3", "1.5E+3", "4.6E+3", "Spin-Off"),
]


@pytest.mark.parametrize("label,day,days,sites,site_yr,all_sites,source", SAMPLE_BLOCKS)
def test_sample_release_blocks_reproduce_the_printed_irer(sample_text, label, day, days, sites, site_yr, all_sites, source):
    block = (f"{label}: {day} kg/site-day over {days} days/yr from {sites} sites "
             f"or {site_yr} kg/site-yr from {sites} sites or {all_sites} kg/yr-all sites")
    followers = [sample_text[m.end():m.end() + 200] for m in re.finditer(re.escape(block), sample_text)]
    assert any(f"from: {source}" in after for after in followers), followers


def test_sample_media_and_release_total(sample_text):
    # Printed: Water; Water or Incineration; Incineration; Incineration or Landfill.
    for heading in ("Water Output 2", "Water or Incineration Output 2", "Incineration High End",
                    "Incineration or Landfill Conservative"):
        assert heading in sample_text
    assert "RELEASE TOTAL 5.0E+3 kg/yr - all sites" in sample_text  # printed 5.0E+3
    assert "Number of Sites/Location: 3" in sample_text and "Days/yr: 360" in sample_text


def test_exposure_blocks(sample_text):
    assert "OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY" in sample_text
    # ChemSTEER counts the workers over all sites: 66 per site × 3 sites
    assert "Tot. # of workers exposed via assessed routes: 198 Basis: 66 workers per site × 3 sites;" in sample_text
    assert "Inhalation: Inhalation: not assessed, negligible for nonvolatile chemicals (VP < 0.001 torr" in sample_text
    # Exposure A, EPA 2013 hand area: 0.7 × 535 × 1 × 0.15 = 56.2 and 2.1 × 535 × 0.15 = 168.5 mg/day
    assert "A. Change-out of liquid photoresist containers" in sample_text
    assert "Low End of Range: 5.6E+1 mg/day" in sample_text and "High End of Range: 1.7E+2 mg/day" in sample_text


def test_basis_and_process_description_and_appendix(sample_text):
    assert "Qphoto_day = Napply × TIMEapply_hours × Qapply / 1,000 mL/L × RHOphoto" in sample_text
    # The use section gives each facility estimate's value and the trace step that derives it.
    assert "[1] Qphoto_day = 36 kg photoresist/site-day (ESD 2010 Eqn 3-1" in sample_text
    assert "[4] Nsites = 3 sites" in sample_text
    assert "--> Application (spin-coat) --> Soft Bake -->" in sample_text
    assert "(liquid, 15%)" in sample_text
    assert "Appendix: releases as computed, inputs used and calculation trace".upper() in sample_text.upper()
    assert "Fchem" in sample_text and "Submission: concentration in the use formulation." in sample_text


def test_draft_has_watermark_and_page_numbers(sample_pdf):
    text = pdf_text(sample_pdf)
    pages = pdf_pages(sample_pdf)
    # the watermark is drawn in the draft's red (#a00000), not written: no letters in the text
    assert all(draws_watermark(page) for page in PdfReader(io.BytesIO(sample_pdf)).pages)
    assert "Staff Draft" in text
    assert f"page 1 of {pages}" in text and f"page {pages} of {pages}" in text


WATERMARK_STROKE = b"0.627451 0 0 RG"


def draws_watermark(page) -> bool:
    """The page paints the draft's red: the watermark is the page's background, a form the
    page draws, so the forms it draws are read as well as its own content."""
    content = page.get_contents().get_data()
    xobjects = page["/Resources"].get_object().get("/XObject", {})
    drawn = [name.decode() for name in re.findall(rb"/([^\s/]+) Do", content)]
    return WATERMARK_STROKE in content or any(
        WATERMARK_STROKE in xobjects[f"/{name}"].get_object().get_data() for name in drawn)


def test_approved_report_names_approver_and_date_without_watermark(sample_assessment, supervisor):
    sample_assessment.status = Status.APPROVED
    sample_assessment.approved_by = supervisor
    sample_assessment.approved_at = timezone.now()
    sample_assessment.save()
    pdf = irer_pdf(irer_context(assessment=sample_assessment))
    text = flat(pdf_text(pdf))
    assert "DRAFT" not in text
    assert not any(draws_watermark(page) for page in PdfReader(io.BytesIO(pdf)).pages)
    approved_on = timezone.localtime(sample_assessment.approved_at)
    assert f"Approved {approved_on.month}/{approved_on.day}/{approved_on.year} by sup" in text


CLAIMED = ["Tetrakis(ethylmethylamino)hafnium", "352535-01-4", "Deposition Materials Supplier", "1,234", "1234",
           "1.2E+3", "0.85", "85%", "85 %"]


def test_full_cbi_report_brackets_each_claimed_item(cbi_assessment):
    text = flat(pdf_text(irer_pdf(irer_context(assessment=cbi_assessment))))
    assert "CBI: Yes" in text and "CONTAINS CONFIDENTIAL BUSINESS INFORMATION" in text
    for item in ("[Tetrakis(ethylmethylamino)hafnium]", "[352535-01-4]", "[Deposition Materials Supplier Inc.]", "[1,234]"):
        assert item in text


def test_sanitised_report_contains_no_claimed_value(cbi_assessment):
    text = pdf_text(irer_pdf(irer_context(assessment=cbi_assessment, sanitised=True)))
    flat_text = flat(text)
    assert "SANITISED COPY" in flat_text
    assert "Chemical Name: Hafnium amide CVD precursor" in flat_text
    for value in CLAIMED:
        assert value not in text and value not in flat_text, value
    assert "[CBI]" in flat_text


def test_uncleared_user_cannot_have_the_full_copy_of_a_cbi_case(cbi_assessment, uncleared_reviewer):
    with pytest.raises(PermissionDenied, match=FULL_COPY_NOT_ALLOWED):
        irer_download(user=uncleared_reviewer, assessment=cbi_assessment, sanitised=False)


def test_five_uses_render_each_section(sample_assessment, reviewer):
    from assessments import services

    first = sample_assessment.scenarios.get()
    for _ in range(4):
        copy = services.scenario_duplicate(scenario=first, by=reviewer)
    assert sample_assessment.scenarios.count() == 5
    text = flat(pdf_text(irer_pdf(irer_context(assessment=sample_assessment))))
    for n in range(1, 6):
        assert f"EXAMPLE PHOTORESIST USE IRER: USE {n}" in text.upper()
    assert "ALL USES: RELEASE TOTAL 2.5E+4 kg/yr" in text
    assert copy.title.endswith("(copy)")
