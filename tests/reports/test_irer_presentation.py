"""How the IRER reads, in the PDF and in the Word document alike: the approval said once,
every input as it was entered, a use-wide "no exposure" statement printed once, counts
that agree with their number, an uncomputed use that says so, and pages that fill."""

import io
import re
from datetime import UTC, date, datetime

import pytest
from django.utils import timezone
from docx import Document

from assessments import services
from assessments.models import Status
from assessments.reports import render
from assessments.reports.context import irer_context
from assessments.reports.docx import irer_docx
from assessments.reports.render import irer_html, irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.reports import reading
from tests.reports.conftest import build_sample_assessment, pdf_text

pytestmark = pytest.mark.django_db

# The CVD fab's use-wide statement (ESD 2015 §5.2): no worker exposure at the fab.
FAB_NO_EXPOSURE = "Occupational exposure at the fab: none"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def docx_text(assessment) -> str:
    """Every paragraph of the Word document's body and of its headers and footers, table
    cells included."""
    document = Document(io.BytesIO(irer_docx(irer_context(assessment=assessment))))
    texts = [p.text for p in document.paragraphs]
    texts += [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    for section in document.sections:
        for part in (section.header, section.first_page_header, section.footer, section.first_page_footer):
            texts += [p.text for p in part.paragraphs]
    return flat(" ".join(texts))


def cvd_use(reviewer, **inputs):
    """A CVD case with one use computed with ``inputs``."""
    case = make_submission(case_name="CVD precursor", production_volume_kg_yr=1200, physical_state="liquid",
                           molecular_weight=410.9, vapour_pressure_torr=0.05, vapour_pressure_temp_c=25)
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015",
                                     title="Precursor use in chemical vapour deposition")
    scenario.inputs |= inputs
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


# --- The approval, said once -----------------------------------------------------------


def test_the_approved_header_says_who_approved_and_when_once(sample_assessment, supervisor):
    supervisor.first_name, supervisor.last_name = "Sam", "Supervisor"
    supervisor.save()
    sample_assessment.assessment_date = date(2026, 11, 2)
    sample_assessment.status = Status.APPROVED
    sample_assessment.approved_by = supervisor
    sample_assessment.approved_at = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
    sample_assessment.save()
    approved_on = timezone.localtime(sample_assessment.approved_at).strftime("%-m/%-d/%Y")
    context = irer_context(assessment=sample_assessment)
    assert reading.paragraphs(context, "status-line") == [f"Approved {approved_on} by Sam Supervisor"]
    assert context["document"].running.status == f"Approved {approved_on} by Sam Supervisor"
    text = flat(pdf_text(irer_pdf(context)))
    assert f"Approved {approved_on} by Sam Supervisor" in text
    # once: no second "approved by ... on ..." beside it, in the header or the running footer
    assert "approved by" not in text
    word = docx_text(sample_assessment)
    assert f"Approved {approved_on} by Sam Supervisor" in word and "approved by" not in word


def test_a_draft_header_prints_its_assessment_date(sample_assessment):
    sample_assessment.assessment_date = date(2026, 11, 2)
    sample_assessment.save()
    assert reading.paragraphs(irer_context(assessment=sample_assessment), "status-line") == ["CEB Staff Draft 11/2/2026"]


# --- Inputs as entered -----------------------------------------------------------------


def test_every_input_prints_as_it_was_entered(reviewer):
    # V_molar's default is 24.45 L/mol (ESD 2015 Eqn D-1, 25 °C); Qchem_yr is typed with four decimals.
    assessment = cvd_use(reviewer, Qchem_yr=1234.5678, supplier_site="yes", VP_chem=0.05, MW_chem=410.9)
    [table] = reading.tables(irer_context(assessment=assessment), "inputs")
    inputs = {row[0].split(" ")[0]: row[1] for row in reading.rows(table)}
    assert inputs["V_molar"] == "24.45"
    assert inputs["Qchem_yr"] == "1,234.5678"
    assert inputs["VP_chem"] == "0.05"
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert "24.45 L/mol" in text and "24.4 L/mol" not in text
    assert "1,234.5678 kg/yr" in text
    # the trace names the inputs as given too, and keeps three figures for what it computed
    assert "V_molar = 24.45" in text and "Qchem_yr = 1,234.5678" in text
    assert "24.45" in docx_text(assessment)


def test_computed_figures_keep_epas_e_notation(reviewer):
    assessment = cvd_use(reviewer)
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    # 1,200 kg/yr × (1 − 0.1) / (2 sites × 360 days) = 1.5 kg/site-day; × (1 − 0.5) × (1 − 0.99) = 7.5E-3
    assert "Low End of Range: 7.5E-3 kg/site-day over 360 days/yr from 2 sites" in text


# --- Said once, where it belongs -------------------------------------------------------


def test_a_use_wide_no_exposure_statement_is_printed_once(reviewer):
    assessment = cvd_use(reviewer)
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert text.count(FAB_NO_EXPOSURE) == 1
    assert f"Inhalation and dermal: {FAB_NO_EXPOSURE}" in text
    assert docx_text(assessment).count(FAB_NO_EXPOSURE) == 1


def test_the_statement_stays_under_the_route_it_explains_and_out_of_the_notes(reviewer):
    # The supplier site's inhalation exposure is estimated; at the fab no one is exposed.
    assessment = cvd_use(reviewer, supplier_site="yes", VP_chem=0.05, MW_chem=410.9)
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert text.count(FAB_NO_EXPOSURE) == 1
    assert f"Dermal: {FAB_NO_EXPOSURE}" in text


# --- Counts agree with their number ----------------------------------------------------


def test_one_site_reads_site(reviewer):
    # 500 kg/yr × (1 − 0.1) / (1,000 kg/site-yr) = 0.45, rounded up to 1 site (ESD 2015 Eqn 3-2, §3.6)
    assessment = cvd_use(reviewer, Qchem_yr=500)
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert "from 1 site " in text and "from 1 site or" in text
    # the releases, the use's basis lines and the trace; the inputs table's units column names the unit
    assert not re.search(r"(from|=|→) 1 sites", text)
    assert "Nsites = 1 site (" in text
    assert not re.search(r"(from|=|→) 1 sites", docx_text(assessment))


def test_several_sites_read_sites(reviewer):
    assessment = cvd_use(reviewer, Nsites=3)
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert "from 3 sites or" in text


# --- An uncomputed use -----------------------------------------------------------------


def test_an_uncomputed_use_says_it_is_not_computed_yet(reviewer):
    case = make_submission(case_name="Not computed")
    assessment = make_assessment(case, reviewer)
    services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="Fab use")
    text = flat(pdf_text(irer_pdf(irer_context(assessment=assessment))))
    assert "Fab use: Chemical vapour deposition" in text and "(not computed yet)." in text
    assert not re.search(r"\(engines? \)", text)
    assert "(not computed yet)" in docx_text(assessment)


# --- Pages fill ------------------------------------------------------------------------


def page_fills(html: str) -> list[float]:
    """How far down its text area each page of the PDF is written: the bottom of the last
    line of text in the page's content area, as a share of that area's height (the running
    header and footer, in the margins, are not counted)."""
    from pathlib import Path

    from django.contrib.staticfiles import finders
    from weasyprint import HTML
    from weasyprint.formatting_structure.boxes import TextBox

    base_url = Path(finders.find(render.STYLESHEET)).resolve().as_uri()
    document = HTML(string=html, base_url=base_url).render(font_config=render._font_config())
    fills = []
    for page in document.pages:
        box = page._page_box
        top, height = box.content_box_y(), box.height
        bottoms = [b.position_y + b.height for b in box.descendants()
                   if isinstance(b, TextBox) and top <= b.position_y < top + height]
        fills.append((max(bottoms) - top) / height if bottoms else 0.0)
    return fills


def test_every_page_but_the_last_is_filled(reviewer):
    fills = page_fills(irer_html(irer_context(assessment=build_sample_assessment(reviewer)), for_pdf=True))
    assert len(fills) > 3
    assert all(fill > 0.75 for fill in fills[:-1]), [round(f, 2) for f in fills]


def test_an_uncomputed_use_does_not_leave_a_page_nearly_empty(reviewer):
    case = make_submission(case_name="Not computed")
    assessment = make_assessment(case, reviewer)
    services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="Fab use")
    fills = page_fills(irer_html(irer_context(assessment=assessment), for_pdf=True))
    assert all(fill > 0.75 for fill in fills[:-1]), [round(f, 2) for f in fills]


def test_the_word_document_forces_no_page_break(sample_assessment):
    document = Document(io.BytesIO(irer_docx(irer_context(assessment=sample_assessment))))
    assert "pageBreakBefore" not in document.element.xml and 'w:type="page"' not in document.element.xml


# --- The preview, a page of the application --------------------------------------------


def test_the_preview_is_a_page_of_the_application_and_the_pdf_is_not(client, reviewer, sample_assessment):
    client.force_login(reviewer)
    page = client.get(f"/assessments/{sample_assessment.pk}/irer/").content.decode()
    assert 'rel="icon"' in page and 'aria-label="Main"' in page  # base.html: no request for /favicon.ico
    assert f'href="/assessments/{sample_assessment.pk}/"' in page  # the way back to the revision
    assert f'href="/assessments/{sample_assessment.pk}/irer.pdf"' in page
    assert f'href="/assessments/{sample_assessment.pk}/irer.docx"' in page
    assert page.count("<details") > 10 and "<details open" not in page
    pdf_html = irer_html(irer_context(assessment=sample_assessment), for_pdf=True)
    assert "<details" not in pdf_html and "<nav" not in pdf_html and 'aria-label="Main"' not in pdf_html


def test_the_sanitised_preview_offers_the_sanitised_downloads(client, reviewer, cbi_assessment):
    client.force_login(reviewer)
    page = client.get(f"/assessments/{cbi_assessment.pk}/irer/?copy=sanitised").content.decode()
    assert f'href="/assessments/{cbi_assessment.pk}/irer.pdf?copy=sanitised"' in page
    assert f'href="/assessments/{cbi_assessment.pk}/irer.docx?copy=sanitised"' in page
    assert "Tetrakis" not in page
