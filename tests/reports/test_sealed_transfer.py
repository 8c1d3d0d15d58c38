"""Sealed IRER copies travel with a case export (``assessments.transfer.sealed``), and the
import never vouches for bytes it did not draw.

The export carries each approved revision's sealed copies, the record complete. The import
checks them (bytes base64 hashing to the digest given; a copy ``SealedCopy`` names; none on
a revision not approved), then seals the revision as its approval does, drawing the report
here from the imported rows, and stores that drawing, never the file's bytes. What it says
of each copy is pinned here as it is:

- Drawing is deterministic (the PDF's /ID is a hash of its content; it has no creation
  date), so an export imported where its case is not (another installation: here, the
  case written and exported in a savepoint rolled back before the import) reproduces the
  exporting system's copy byte for byte, and a PDF handed out there verifies here.
- On the same installation the case must come in under a new number, which the report
  prints: the copy is drawn again, and the import says so with both digests and why.
- A forged PDF with a digest that matches it is never sealed here.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json

import pytest
from django.core.management import call_command
from django.db import transaction

from assessments import transfer, workflow
from assessments.models import Assessment, SealedReport, Submission
from assessments.reports.seal import CLAIMS_CHANGED, check_pdf, sealed_pdf_bytes
from assessments.transfer import (
    INVALID_VALUE,
    SEAL_DRAWN_AGAIN,
    SEAL_DRAWN_NEW,
    SEAL_SAME,
    SEAL_TAKEN,
    SEAL_WHY_OTHER,
    SEAL_WHY_RENUMBERED,
    SEALED_HASH_MISMATCH,
    SEALED_NOT_APPROVED,
    SEALED_NOT_DRAWN,
    SEALED_UNKNOWN_COPY,
    TransferError,
)
from tests.reports.conftest import build_sample_assessment
from tests.reports.test_sealed_irer import approve

pytestmark = pytest.mark.django_db

NEW_NUMBER = "P-26-0777"


def with_reason(assessment: Assessment) -> Assessment:
    """The sample revision with the reason for its chosen rating ("NR"): an import checks the
    revision before its uses are written, when any rating chosen counts as an override."""
    assessment.occupational_exposure_rating_reason = "Negligible exposure: the reviewer's judgement."
    assessment.save()
    return assessment


@pytest.fixture
def sample(sample_assessment) -> Assessment:
    return with_reason(sample_assessment)


@pytest.fixture
def approved(sample, reviewer, supervisor) -> Assessment:
    return approve(sample, reviewer, supervisor)


def exported(case_number: str, *, new_number: str | None = NEW_NUMBER) -> dict:
    """The case's export as ``import_case`` reads it (through JSON), under ``new_number``."""
    document = transfer.loads(transfer.dumps(transfer.case_export(case_number=case_number)), source="the export")
    if new_number:
        document["case"]["case_number"] = new_number
    return document


def sealed_entry(document: dict, revision: int = 1, copy_name: str = "full") -> dict:
    entry = next(a for a in document["assessments"] if a["revision"] == revision)
    return next(c for c in entry["sealed_reports"] if c["copy"] == copy_name)


def stored(case_number: str, copy_name: str = "full") -> SealedReport:
    return SealedReport.objects.get(assessment__submission__case_number=case_number, copy=copy_name)


def exported_elsewhere(reviewer, supervisor) -> dict:
    """The sample case approved and exported in a savepoint rolled back after: the file
    another installation (the same users, software and fonts) would hand over, its case
    not in this database."""
    with transaction.atomic():
        approve(with_reason(build_sample_assessment(reviewer)), reviewer, supervisor)
        document = exported("P-18-0123", new_number=None)
        transaction.set_rollback(True)
    assert not Submission.objects.filter(case_number="P-18-0123").exists()
    return document


def refused(document: dict) -> str:
    """The import's refusal; nothing written."""
    cases = Submission.objects.count()
    with pytest.raises(TransferError) as caught:
        transfer.case_import(document=document)
    assert Submission.objects.count() == cases and not Submission.objects.filter(case_number=NEW_NUMBER).exists()
    return str(caught.value)


# Export ----------------------------------------------------------------------------------------


def test_the_export_carries_each_sealed_copy_as_stored(approved):
    document = exported("P-18-0123", new_number=None)
    row = stored("P-18-0123")
    assert document["assessments"][0]["sealed_reports"] == [{
        "copy": "full", "sha256": row.sha256, "seal": row.seal,
        "pdf_base64": base64.b64encode(bytes(row.pdf)).decode("ascii"),
    }]


def test_a_revision_not_approved_carries_no_sealed_copies(sample):
    assert "sealed_reports" not in exported("P-18-0123")["assessments"][0]


# Import: what is stored is drawn here ----------------------------------------------------------


def test_an_export_imported_where_its_case_is_not_reproduces_the_sealed_copy(reviewer, supervisor):
    document = exported_elsewhere(reviewer, supervisor)
    file_copy = sealed_entry(document)
    imported = transfer.case_import_report(document=document)
    [outcome] = imported.seals
    assert outcome.same and outcome.message == SEAL_SAME.format(revision=1, copy="full", sha256=file_copy["sha256"])
    assert stored("P-18-0123").sha256 == file_copy["sha256"]
    check = check_pdf(data=base64.b64decode(file_copy["pdf_base64"]))  # the PDF handed out there
    assert check.sealed and "case P-18-0123 revision 1" in check.message


def test_an_import_under_a_new_number_draws_the_copy_again_and_says_why(approved):
    document = exported("P-18-0123")
    file_sha = sealed_entry(document)["sha256"]
    imported = transfer.case_import_report(document=document)
    row = stored(NEW_NUMBER)
    assert row.sha256 != file_sha and row.assessment.submission == imported.submission
    why = SEAL_WHY_RENUMBERED.format(file_case_number="P-18-0123", case_number=NEW_NUMBER)
    message = SEAL_DRAWN_AGAIN.format(revision=1, copy="full", file_sha256=file_sha, sha256=row.sha256, why=why)
    assert [(o.same, o.message) for o in imported.seals] == [(False, message)]
    check = check_pdf(data=bytes(row.pdf))
    assert check.sealed and f"case {NEW_NUMBER} revision 1" in check.message
    assert check_pdf(data=bytes(stored("P-18-0123").pdf)).report.assessment == approved  # the original's, unchanged
    first = imported.submission.history.earliest("history_date")
    assert first.history_change_reason.endswith(message)  # what the import records


def test_the_command_prints_what_became_of_each_sealed_copy(approved, tmp_path, capsys):
    path = tmp_path / "case.json"
    call_command("export_case", "P-18-0123", output=str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["assessments"][0]["sealed_reports"][0]["sha256"] == stored("P-18-0123").sha256
    document["case"]["case_number"] = NEW_NUMBER
    path.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    call_command("import_case", str(path))
    out = capsys.readouterr().out
    assert f"Imported case {NEW_NUMBER} with 1 revision(s)." in out
    assert f"Revision 1's sealed full copy was drawn again on import: the file's SHA-256 is {document['assessments'][0]['sealed_reports'][0]['sha256']}, this system's {stored(NEW_NUMBER).sha256}." in out


def test_a_forged_pdf_with_a_matching_digest_is_never_sealed(reviewer, supervisor):
    document = exported_elsewhere(reviewer, supervisor)
    entry = sealed_entry(document)
    forged = base64.b64decode(entry["pdf_base64"]).replace(b"%%EOF", b"%%EOF\n% forged\n")
    entry["pdf_base64"], entry["sha256"] = base64.b64encode(forged).decode("ascii"), hashlib.sha256(forged).hexdigest()
    imported = transfer.case_import_report(document=document)
    row = stored("P-18-0123")
    assert row.sha256 != entry["sha256"] and bytes(row.pdf) != forged
    message = SEAL_DRAWN_AGAIN.format(revision=1, copy="full", file_sha256=entry["sha256"], sha256=row.sha256,
                                      why=SEAL_WHY_OTHER)
    assert [o.message for o in imported.seals] == [message]
    check = check_pdf(data=forged)
    assert not check.sealed and check.claim == CLAIMS_CHANGED.format(case_number="P-18-0123", revision=1)
    assert check_pdf(data=bytes(row.pdf)).sealed


def test_a_file_without_sealed_copies_is_sealed_on_import(approved):
    document = exported("P-18-0123")
    del document["assessments"][0]["sealed_reports"]  # exported before sealed copies travelled
    imported = transfer.case_import_report(document=document)
    row = stored(NEW_NUMBER)
    assert [o.message for o in imported.seals] == [SEAL_DRAWN_NEW.format(revision=1, copy="full", sha256=row.sha256)]
    assert check_pdf(data=bytes(row.pdf)).sealed


def test_a_cbi_case_brings_both_copies_and_seals_both(cbi_assessment, reviewer, supervisor):
    approve(cbi_assessment, reviewer, supervisor)
    document = exported("P-26-0042")
    assert [c["copy"] for c in document["assessments"][0]["sealed_reports"]] == ["full", "sanitised"]
    imported = transfer.case_import_report(document=document)
    assert [(o.copy, o.same) for o in imported.seals] == [("full", False), ("sanitised", False)]
    for name in ("full", "sanitised"):
        check = check_pdf(data=bytes(stored(NEW_NUMBER, name).pdf))
        assert check.sealed and f"sealed {name} copy of the IRER of case {NEW_NUMBER}" in check.message


# Import: refused, nothing written --------------------------------------------------------------


def test_bytes_that_are_not_the_digest_given_are_refused(approved):
    document = exported("P-18-0123")
    entry = sealed_entry(document)
    pdf = bytearray(base64.b64decode(entry["pdf_base64"]))
    pdf[len(pdf) // 2] ^= 0x01
    entry["pdf_base64"] = base64.b64encode(bytes(pdf)).decode("ascii")
    problem = SEALED_HASH_MISMATCH.format(found=hashlib.sha256(bytes(pdf)).hexdigest(), given=entry["sha256"])
    assert refused(document) == INVALID_VALUE.format(where="assessments[0].sealed_reports[0].pdf_base64",
                                                     problem=problem)


def test_bytes_that_are_not_base64_are_refused(approved):
    document = exported("P-18-0123")
    sealed_entry(document)["pdf_base64"] = "JVBERi0x*"
    assert refused(document).startswith("assessments[0].sealed_reports[0].pdf_base64: must be the PDF's bytes in base64")


def test_a_copy_sealed_copy_does_not_name_is_refused(approved):
    document = exported("P-18-0123")
    sealed_entry(document)["copy"] = "redacted"
    assert refused(document) == INVALID_VALUE.format(where="assessments[0].sealed_reports[0].copy",
                                                     problem=SEALED_UNKNOWN_COPY.format(copies="full, sanitised"))


def test_a_sanitised_copy_of_a_case_approved_without_claims_is_refused(approved):
    document = exported("P-18-0123")
    entries = document["assessments"][0]["sealed_reports"]
    entries.append({**copy.deepcopy(entries[0]), "copy": "sanitised"})
    assert refused(document) == INVALID_VALUE.format(where="assessments[0].sealed_reports[1].copy",
                                                     problem=SEALED_NOT_DRAWN.format(revision=1, copy="sanitised"))


def test_sealed_copies_on_a_draft_are_refused(sample):
    document = exported("P-18-0123")
    pdf = b"%PDF-1.7 not drawn here"
    document["assessments"][0]["sealed_reports"] = [{
        "copy": "full", "sha256": hashlib.sha256(pdf).hexdigest(), "seal": "0123456789ab",
        "pdf_base64": base64.b64encode(pdf).decode("ascii"),
    }]
    problem = SEALED_NOT_APPROVED.format(revision=1, status="draft")
    assert refused(document) == INVALID_VALUE.format(where="assessments[0].sealed_reports", problem=problem)


def test_an_export_of_a_case_here_under_another_number_is_refused(reviewer, supervisor):
    document = exported_elsewhere(reviewer, supervisor)
    transfer.case_import(document=document)  # the case is here now, as P-18-0123
    case = Submission.objects.get(case_number="P-18-0123")
    case.case_number = "P-18-9999"  # renamed: its sealed copies still print P-18-0123
    case.save()
    message = SEAL_TAKEN.format(revision=1, copy="full", case_number="P-18-9999", other=1,
                                sha256=sealed_entry(document)["sha256"])
    cases = Submission.objects.count()
    with pytest.raises(TransferError) as caught:
        transfer.case_import(document=document)
    assert str(caught.value) == message and Submission.objects.count() == cases


# Drawing as approved ---------------------------------------------------------------------------


def test_drawing_again_gives_the_sealed_bytes_after_a_claim_and_a_new_revision(approved, reviewer):
    workflow.assessment_revise(assessment=approved, by=reviewer)
    case = approved.submission
    case.cbi_claims = ["submitter"]  # made since the approval: not in the report as approved
    case.save()
    approved.refresh_from_db()
    pdf, seal = sealed_pdf_bytes(approved, sanitised=False)
    row = stored("P-18-0123")
    assert (pdf, seal) == (bytes(row.pdf), row.seal)
