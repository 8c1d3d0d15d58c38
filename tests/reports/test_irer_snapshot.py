"""An approved revision's IRER prints the case as it was approved (``Assessment.case_snapshot``),
whatever the case is amended to for a later revision: the header, and the CBI marking and
redaction as claimed at approval (a claim withdrawn since stays redacted in that
revision's sanitised copy; a claim made since is honoured too). The PDF, the preview and
the Word document share one context (``irer_context``), so each is checked once here."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core.exceptions import PermissionDenied
from docx import Document

from assessments import services, workflow
from assessments.models import Assessment
from assessments.reports.context import irer_context
from assessments.reports.docx import irer_docx
from assessments.reports.render import irer_html, irer_pdf
from assessments.reports.services import FULL_COPY_NOT_ALLOWED, irer_docx_download, irer_preview
from tests._review_support import approved, toy_engine
from tests.reports import reading
from tests.reports.conftest import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

REASON = "Amended notice: new production volume and MW."


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def printed(assessment, *, sanitised=False) -> str:
    """The report's HTML as a reader sees it: tags dropped, entities read, spaces joined."""
    page = irer_html(irer_context(assessment=assessment, sanitised=sanitised), for_pdf=False)
    return flat(html.unescape(re.sub(r"<[^>]+>", " ", page)))


def amend(case, by, **changes):
    claims = changes.pop("cbi_claims", case.cbi_claims)
    return services.submission_update(submission=case, by=by, data=changes, cbi_claims=claims, reason=REASON)


@pytest.fixture
def amended(reviewer, supervisor) -> tuple[Assessment, Assessment]:
    """Revision 1 approved with PV 5,000 kg/yr, MW 200 and submitter Acme; revision 2
    started; the case amended to PV 6,000 kg/yr, MW 250, submitter Acme Europe."""
    first = approved(reviewer, supervisor, molecular_weight=200.0)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    amend(first.submission, reviewer, production_volume_kg_yr=6000.0, molecular_weight=250.0,
          submitter="Acme Europe")
    return Assessment.objects.get(pk=first.pk), Assessment.objects.get(pk=second.pk)


def test_the_approved_revision_prints_the_header_it_was_approved_with(amended):
    first, _ = amended
    text = printed(first)
    assert "PV (kg/yr): 5,000 Manufacture" in text and "MW: 200 " in text and "Acme Photochemicals" in text
    assert "6,000" not in text and "MW: 250" not in text and "Acme Europe" not in text


def test_the_draft_revision_prints_the_amended_header(amended):
    _, second = amended
    text = printed(second)
    assert "PV (kg/yr): 6,000 Manufacture" in text and "MW: 250 " in text and "Acme Europe" in text


def test_the_approved_pdf_prints_the_original_production_volume(amended):
    first, second = amended
    assert "PV (kg/yr): 5,000" in flat(pdf_text(irer_pdf(irer_context(assessment=first))))
    assert "PV (kg/yr): 6,000" in flat(pdf_text(irer_pdf(irer_context(assessment=second))))


def test_the_approved_word_document_prints_the_original_header(amended):
    first, _ = amended
    document = Document(io.BytesIO(irer_docx(irer_context(assessment=first))))
    text = flat(" ".join(
        [p.text for p in document.paragraphs]
        + [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    ))
    assert "5,000" in text and "MW: 200 " in text and "6,000" not in text and "MW: 250" not in text


def test_the_preview_page_prints_the_original_header(client, reviewer, amended):
    first, _ = amended
    client.force_login(reviewer)
    page = flat(html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/assessments/{first.pk}/irer/").content.decode())))
    assert "PV (kg/yr): 5,000" in page and "6,000" not in page


def test_the_case_page_and_the_case_itself_hold_the_amendment(amended):
    first, _ = amended
    first.submission.refresh_from_db()
    assert first.submission.production_volume_kg_yr == 6000.0  # the case moved on; the report did not


# CBI claims as approved -----------------------------------------------------------------------


@pytest.fixture
def claim_withdrawn(reviewer, supervisor) -> tuple[Assessment, Assessment]:
    """Revision 1 approved with the molecular weight (410.9) claimed CBI; the claim withdrawn
    for revision 2."""
    first = approved(reviewer, supervisor, molecular_weight=410.9, cbi_claims=["molecular_weight"])
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    amend(first.submission, reviewer, cbi_claims=[])
    return Assessment.objects.get(pk=first.pk), Assessment.objects.get(pk=second.pk)


def test_a_claim_withdrawn_after_approval_stays_redacted_in_the_approved_sanitised_copy(claim_withdrawn):
    first, _ = claim_withdrawn
    text = printed(first, sanitised=True)
    assert "MW: [CBI]" in text and "410.9" not in text
    assert "SANITISED COPY" in text


def test_a_claim_withdrawn_after_approval_stays_marked_in_the_approved_full_copy(claim_withdrawn):
    first, _ = claim_withdrawn
    context = irer_context(assessment=first)
    mw = reading.field_parts(context, "MW:")[0]
    assert (mw.text, mw.style) == ("[410.9]", "cbi")
    assert context["cbi_case"] and reading.paragraphs(context, "cbi-flag") == ["CBI: Yes"]


def test_the_next_revision_prints_the_withdrawn_claim_in_the_clear(claim_withdrawn):
    _, second = claim_withdrawn
    text = printed(second, sanitised=True)
    assert "MW: 410.9 " in text and "[CBI]" not in text


def test_the_approved_sanitised_pdf_redacts_the_withdrawn_claim(claim_withdrawn):
    first, _ = claim_withdrawn
    text = flat(pdf_text(irer_pdf(irer_context(assessment=first, sanitised=True))))
    assert "MW: [CBI]" in text and "410.9" not in text


def test_the_full_copy_of_the_approved_revision_still_needs_cbi_clearance(claim_withdrawn, uncleared_reviewer):
    """The case is no longer CBI, so an uncleared reviewer sees it; revision 1's full copy
    prints the claim as approved and stays theirs to refuse. The sanitised copy is theirs."""
    first, _ = claim_withdrawn
    first.submission.refresh_from_db()
    assert not first.submission.is_cbi
    with pytest.raises(PermissionDenied) as refused:
        irer_docx_download(user=uncleared_reviewer, assessment=first, sanitised=False)
    assert str(refused.value) == FULL_COPY_NOT_ALLOWED
    page = flat(html.unescape(re.sub(r"<[^>]+>", " ", irer_preview(user=uncleared_reviewer, assessment=first,
                                                                    sanitised=True))))
    assert "MW: [CBI]" in page and "410.9" not in page


def test_a_claim_made_after_approval_is_redacted_in_the_approved_sanitised_copy_too(reviewer, supervisor):
    first = approved(reviewer, supervisor, molecular_weight=410.9)
    workflow.assessment_revise(assessment=first, by=reviewer)
    amend(first.submission, reviewer, cbi_claims=["molecular_weight"])
    first.refresh_from_db()
    assert first.case_snapshot["cbi_claims"] == []
    text = printed(first, sanitised=True)
    assert "MW: [CBI]" in text and "410.9" not in text


def test_the_approved_report_of_a_revision_without_snapshot_prints_the_case(reviewer, supervisor):
    """A revision approved before snapshots gets one from migration 0012 (or an import);
    without one the report falls back to the case as it is."""
    first = approved(reviewer, supervisor)
    first.case_snapshot = None  # in memory only: approved rows are final
    assert first.case_data is first.submission
