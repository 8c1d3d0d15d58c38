"""The IRER sealed at approval (assessments.reports.seal): approving draws the report once
and stores its bytes and SHA-256 with the approval; the footer names the approval and the
seal; History shows the digest; every later download, the download view and
``manage.py irer --revision N`` give those same bytes, never drawn again; the sealed rows
are final; a file with one byte changed is no longer a sealed copy."""

import hashlib

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from assessments import workflow
from assessments.models import ApprovedWorkLocked, DecisionAction, SealedReport
from assessments.reports.seal import CLAIMS_CHANGED, NOT_SEALED, SEAL_CHARS, check_pdf, sealed_pdf
from assessments.reports.services import irer_download
from assessments.timeline import SEALED_COPY_LABEL, assessment_history
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def approve(assessment, reviewer, supervisor):
    workflow.assessment_submit(assessment=assessment, by=reviewer, volume_reason="The uses are alternatives.")
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    assessment.refresh_from_db()
    return assessment


@pytest.fixture
def approved(sample_assessment, reviewer, supervisor):
    return approve(sample_assessment, reviewer, supervisor)


def flipped(pdf: bytes, at: int | None = None) -> bytes:
    """``pdf`` with one byte changed (in the middle of the file unless ``at``)."""
    at = len(pdf) // 2 if at is None else at
    return pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]


def test_approval_stores_the_full_copy_with_its_sha256_and_the_approval(approved, supervisor):
    row = SealedReport.objects.get(assessment=approved)
    pdf = bytes(row.pdf)
    assert row.copy == "full" and pdf.startswith(b"%PDF-")
    assert row.sha256 == hashlib.sha256(pdf).hexdigest()
    assert (row.decision.action, row.decision.by) == (DecisionAction.APPROVE, supervisor)
    assert len(row.seal) == SEAL_CHARS


def test_a_case_without_cbi_claims_seals_only_the_full_copy_and_serves_it_for_either_copy(approved, reviewer):
    assert list(SealedReport.objects.filter(assessment=approved).values_list("copy", flat=True)) == ["full"]
    full = bytes(SealedReport.objects.get(assessment=approved).pdf)
    assert irer_download(user=reviewer, assessment=approved, sanitised=True).pdf == full


def test_the_footer_names_the_approver_the_approval_date_and_the_seal(approved):
    row = SealedReport.objects.get(assessment=approved)
    text = " ".join(pdf_text(bytes(row.pdf)).split())
    approved_on = timezone.localtime(approved.approved_at)
    assert f"{approved_on:%-m/%-d/%Y} by sup · Seal {row.seal}" in text  # the supervisor fixture has no full name


def test_stored_pdf_verifies_and_one_flipped_byte_fails(approved):
    pdf = bytes(SealedReport.objects.get(assessment=approved).pdf)
    check = check_pdf(data=pdf)
    assert check.sealed and "case P-18-0123 revision 1" in check.message and "unchanged" in check.message
    changed = check_pdf(data=flipped(pdf))
    assert not changed.sealed and changed.message == NOT_SEALED


def test_a_changed_file_that_names_its_revision_is_told_it_differs_from_the_sealed_copy(approved):
    pdf = bytes(SealedReport.objects.get(assessment=approved).pdf)
    changed = pdf.replace(b"%%EOF", b"%%EOF\n% appended\n")  # the title in its metadata still reads
    check = check_pdf(data=changed)
    assert not check.sealed
    assert check.claim == CLAIMS_CHANGED.format(case_number="P-18-0123", revision=1)


def test_later_downloads_give_the_sealed_bytes_without_drawing(approved, reviewer, renders, report_cache):
    sealed = bytes(SealedReport.objects.get(assessment=approved).pdf)
    assert [irer_download(user=reviewer, assessment=approved, sanitised=False).pdf for _ in range(2)] == [sealed] * 2
    assert renders.call_count == 0
    assert not [p for p in report_cache.rglob("*") if p.is_file()]  # nothing drawn into the cache


def test_the_download_view_serves_the_sealed_bytes(client, approved, reviewer, renders):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{approved.pk}/irer.pdf")
    assert response.status_code == 200
    assert response.content == bytes(SealedReport.objects.get(assessment=approved).pdf)
    assert renders.call_count == 0


def test_irer_command_writes_the_sealed_bytes(approved, tmp_path, capsys, renders):
    out = tmp_path / "IRER.pdf"
    call_command("irer", "P-18-0123", "--revision", "1", "-o", str(out))
    row = SealedReport.objects.get(assessment=approved)
    assert out.read_bytes() == bytes(row.pdf) and renders.call_count == 0
    assert f"sealed at approval, SHA-256 {row.sha256}" in capsys.readouterr().out


def test_history_shows_the_digest_with_the_approval(approved, client, reviewer):
    row = SealedReport.objects.get(assessment=approved)
    entry = next(e for e in assessment_history(assessment=approved) if e.kind == DecisionAction.APPROVE)
    assert [(c.field, c.new) for c in entry.changes][1] == (
        SEALED_COPY_LABEL.format(copy="full"), f"SHA-256 {row.sha256} · seal {row.seal}")
    client.force_login(reviewer)
    assert row.sha256 in client.get(f"/assessments/{approved.pk}/history/").content.decode()


def test_a_cbi_case_seals_the_sanitised_copy_too(cbi_assessment, reviewer, supervisor):
    approved = approve(cbi_assessment, reviewer, supervisor)
    rows = {r.copy: r for r in SealedReport.objects.filter(assessment=approved)}
    assert sorted(rows) == ["full", "sanitised"]
    sanitised_text = pdf_text(bytes(rows["sanitised"].pdf))
    assert "Tetrakis(ethylmethylamino)hafnium" not in sanitised_text and "[CBI]" in sanitised_text
    assert sealed_pdf(assessment=approved, sanitised=True) == bytes(rows["sanitised"].pdf)


def test_a_claim_made_since_approval_is_never_served_from_the_sealed_copy(approved):
    case = approved.submission
    case.cbi_claims = ["submitter"]
    case.save()
    approved.refresh_from_db()
    assert sealed_pdf(assessment=approved, sanitised=True) is None
    assert sealed_pdf(assessment=approved, sanitised=False) is None


def test_a_sealed_report_cannot_be_changed_or_deleted(approved):
    row = SealedReport.objects.get(assessment=approved)
    row.pdf = b"%PDF-forged"
    with pytest.raises(ApprovedWorkLocked), transaction.atomic():
        row.save()
    with pytest.raises(ApprovedWorkLocked), transaction.atomic():
        row.delete()
    assert SealedReport.objects.filter(pk=row.pk).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's (migration 0018)")
def test_the_database_refuses_to_change_or_delete_a_sealed_report(approved):
    for statement in ("UPDATE assessments_sealedreport SET sha256 = repeat('0', 64)",
                      "DELETE FROM assessments_sealedreport"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert SealedReport.objects.filter(assessment=approved).count() == 1


def test_an_approval_whose_report_cannot_be_drawn_is_not_made(sample_assessment, reviewer, supervisor, monkeypatch):
    from assessments.reports import seal

    workflow.assessment_submit(assessment=sample_assessment, by=reviewer)

    def fail(*args, **kwargs):
        raise OSError("no fonts")

    monkeypatch.setattr(seal, "html_to_pdf", fail)
    with pytest.raises(OSError):
        workflow.assessment_approve(assessment=sample_assessment, by=supervisor)
    sample_assessment.refresh_from_db()
    assert sample_assessment.status == "submitted" and not SealedReport.objects.exists()
