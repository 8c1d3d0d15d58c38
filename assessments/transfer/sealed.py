"""An approved revision's sealed copies of its IRER (``models.SealedReport``) in a case
export, and what the import does with them.

The export writes each approved revision's copies as they are stored, the record complete
(:func:`export_rows`)::

    "sealed_reports": [{"copy": "full", "sha256": "<hex>", "seal": "<hex>", "pdf_base64": "<base64>"}, ...]

The import never stores those bytes, and never takes the file's word that they are sealed:
a file is not signed, and a forged one must never make this system answer "this PDF is
sealed" (``reports.seal.check_pdf``). It reads them (:func:`read_copies`: each entry's
fields, its copy one of ``SealedCopy``, its bytes base64 whose SHA-256 is the one given,
the key only on an approved revision), then, once the revision's rows are written, seals
the revision as an approval does (:func:`seal_imported`: ``workflow.assessment_approved``,
whose receiver is ``reports.seal``, the same code drawing from the imported rows), and
compares each copy drawn here with the file's:

- the same SHA-256: the copy is the exporting system's, byte for byte, so a PDF handed out
  there verifies here as sealed (:data:`SEAL_SAME`);
- another, or none in the file: the copy drawn here is the sealed one, and a PDF handed out
  before verifies here as not sealed; the import says so, with both digests and why, as far
  as it can tell (:data:`SEAL_DRAWN_AGAIN`, :data:`SEAL_DRAWN_NEW`). The report prints its
  case number, so a case imported under a new number is always drawn again.

Drawing is deterministic (same rows, same bytes), so an export imported into another
installation with the same users, software and fonts reproduces the exporting system's
copies; on the same installation the case number must differ, so it never does.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
from dataclasses import dataclass
from typing import Any

import pikepdf
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction

from ..engine_results import short as _short
from ..models import Assessment, ReviewDecision, SealedCopy, SealedReport, Status
from ..workflow import NO_SEALER, assessment_approved
from .document import expect_list, expect_object, name_list
from .errors import (
    BAD_STRUCTURE,
    INVALID_VALUE,
    SEAL_DRAWN_AGAIN,
    SEAL_DRAWN_NEW,
    SEAL_SAME,
    SEAL_TAKEN,
    SEAL_WHY_OTHER,
    SEAL_WHY_RENUMBERED,
    SEALED_COPY_TWICE,
    SEALED_FIELDS_MISSING,
    SEALED_HASH_MISMATCH,
    SEALED_NOT_APPROVED,
    SEALED_NOT_BASE64,
    SEALED_NOT_DRAWN,
    SEALED_NOT_SEAL,
    SEALED_NOT_SHA256,
    SEALED_UNKNOWN_COPY,
    UNKNOWN_FIELDS,
    TransferError,
)

#: The key of an approved revision's sealed copies in its entry of the file.
SEALED_REPORTS = "sealed_reports"
#: The fields of one sealed copy in the file, each text.
SEALED_KEYS = ("copy", "sha256", "seal", "pdf_base64")

_sha256_text = re.compile(r"[0-9a-f]{64}")
_seal_text = re.compile(r"[0-9a-f]{1,20}")  # SealedReport.seal holds 20 characters at most
_title_text = re.compile(r"^IRER (?P<case_number>\S+) r\d+")  # the title ``reports.render`` gives the PDF


# Export ----------------------------------------------------------------------------------------


def export_rows(assessment: Assessment) -> list[dict[str, str]]:
    """``assessment``'s sealed copies as the file carries them, full first."""
    return [
        {"copy": row.copy, "sha256": row.sha256, "seal": row.seal,
         "pdf_base64": base64.b64encode(bytes(row.pdf)).decode("ascii")}
        for row in SealedReport.objects.filter(assessment_id=assessment.pk).order_by("copy")
    ]


# Import: reading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileCopy:
    """One sealed copy as the file has it (``where``: its place in the file)."""

    copy: str
    sha256: str
    seal: str
    pdf: bytes
    where: str


def read_copies(row: dict[str, Any], assessment: Assessment, where: str) -> dict[str, FileCopy] | None:
    """The sealed copies the file gives for the revision ``assessment`` (built from ``row``,
    at ``where``), by copy; None when the entry has no ``sealed_reports`` (a file exported
    before they travelled). ``TransferError`` naming the place for anything the export does
    not write."""
    if SEALED_REPORTS not in row:
        return None
    at = f"{where}.{SEALED_REPORTS}"
    if assessment.status != Status.APPROVED:
        problem = SEALED_NOT_APPROVED.format(revision=assessment.revision, status=assessment.status)
        raise TransferError(INVALID_VALUE.format(where=at, problem=problem))
    copies: dict[str, FileCopy] = {}
    for j, entry in enumerate(expect_list(row[SEALED_REPORTS], at)):
        here = f"{at}[{j}]"
        entry = expect_object(entry, here)
        unknown = sorted(set(entry) - set(SEALED_KEYS))
        if unknown:
            raise TransferError(UNKNOWN_FIELDS.format(where=here, fields=name_list(unknown)))
        missing = [key for key in SEALED_KEYS if key not in entry]
        if missing:
            raise TransferError(BAD_STRUCTURE.format(where=here, problem=SEALED_FIELDS_MISSING.format(
                fields=name_list(missing))))
        for key in SEALED_KEYS:
            if not isinstance(entry[key], str):
                raise TransferError(INVALID_VALUE.format(where=f"{here}.{key}", problem="must be text"))
        copy, digest, seal = entry["copy"], entry["sha256"], entry["seal"]
        if copy not in SealedCopy.values:
            problem = SEALED_UNKNOWN_COPY.format(copies=", ".join(SealedCopy.values))
            raise TransferError(INVALID_VALUE.format(where=f"{here}.copy", problem=problem))
        if copy in copies:
            raise TransferError(INVALID_VALUE.format(where=f"{here}.copy", problem=SEALED_COPY_TWICE.format(copy=copy)))
        if not _sha256_text.fullmatch(digest):
            raise TransferError(INVALID_VALUE.format(where=f"{here}.sha256", problem=SEALED_NOT_SHA256))
        if not _seal_text.fullmatch(seal):
            raise TransferError(INVALID_VALUE.format(where=f"{here}.seal", problem=SEALED_NOT_SEAL))
        try:
            pdf = base64.b64decode(entry["pdf_base64"], validate=True)
        except (binascii.Error, ValueError) as exc:
            problem = SEALED_NOT_BASE64.format(error=_short(str(exc), 100))
            raise TransferError(INVALID_VALUE.format(where=f"{here}.pdf_base64", problem=problem)) from None
        found = hashlib.sha256(pdf).hexdigest()
        if found != digest:
            problem = SEALED_HASH_MISMATCH.format(found=found, given=digest)
            raise TransferError(INVALID_VALUE.format(where=f"{here}.pdf_base64", problem=problem))
        copies[copy] = FileCopy(copy, digest, seal, pdf, here)
    return copies


# Import: sealing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SealOutcome:
    """One sealed copy of an imported revision: the SHA-256 of the copy drawn and stored
    here, the file's (None: the file has none), and what the import says of it."""

    revision: int
    copy: str
    sha256: str
    file_sha256: str | None
    message: str

    @property
    def same(self) -> bool:
        """The copy drawn here is the exporting system's, byte for byte."""
        return self.sha256 == self.file_sha256


def seal_imported(*, assessment: Assessment, decision: ReviewDecision,
                  in_file: dict[str, FileCopy] | None) -> list[SealOutcome]:
    """Seal the imported approved revision ``assessment`` (its rows all written; ``decision``
    its approval) as its approval does, in the import's transaction, and compare each copy
    drawn with the file's (``in_file``, :func:`read_copies`)."""
    if not assessment_approved.has_listeners(Assessment):
        raise ImproperlyConfigured(NO_SEALER)
    # As the workflow sends it: the revision as stored (its case read from the database).
    stored = Assessment.objects.select_related("submission").get(pk=assessment.pk)
    in_file = in_file or {}
    try:
        with transaction.atomic():  # a savepoint: PostgreSQL's transaction stays usable for the refusal
            assessment_approved.send(sender=Assessment, assessment=stored, decision=decision)
    except IntegrityError:
        taken = _taken_by(in_file)
        if taken is None:
            raise
        other, copy = taken
        raise TransferError(SEAL_TAKEN.format(
            revision=stored.revision, copy=copy.copy, case_number=other.assessment.submission.case_number,
            other=other.assessment.revision, sha256=copy.sha256,
        )) from None
    drawn = {row.copy: row for row in SealedReport.objects.filter(assessment_id=stored.pk).defer("pdf")}
    for name, copy in in_file.items():
        if name not in drawn:
            problem = SEALED_NOT_DRAWN.format(revision=stored.revision, copy=name)
            raise TransferError(INVALID_VALUE.format(where=f"{copy.where}.copy", problem=problem))
    outcomes = []
    for name in SealedCopy.values:
        if name not in drawn:
            continue
        row, given = drawn[name], in_file.get(name)
        words = {"revision": stored.revision, "copy": name, "sha256": row.sha256}
        if given is None:
            message = SEAL_DRAWN_NEW.format(**words)
        elif given.sha256 == row.sha256:
            message = SEAL_SAME.format(**words)
        else:
            message = SEAL_DRAWN_AGAIN.format(**words, file_sha256=given.sha256,
                                              why=_why_not_the_same(given, stored.submission.case_number))
        outcomes.append(SealOutcome(stored.revision, name, row.sha256, given.sha256 if given else None, message))
    return outcomes


def _taken_by(in_file: dict[str, FileCopy]) -> tuple[SealedReport, FileCopy] | None:
    """A sealed copy of this installation with the SHA-256 of one of the file's copies:
    drawn here again, that copy could not be stored (one file is the sealed copy of one
    revision)."""
    for copy in in_file.values():
        row = (SealedReport.objects.filter(sha256=copy.sha256).defer("pdf")
               .select_related("assessment__submission").first())
        if row is not None:
            return row, copy
    return None


def _why_not_the_same(copy: FileCopy, case_number: str) -> str:
    """Why the copy drawn here differs from the file's, as far as the file tells: the case
    number its title names (a case imported under a new number), or else not known."""
    named = _title_case_number(copy.pdf)
    if named is not None and named != case_number:
        return SEAL_WHY_RENUMBERED.format(file_case_number=named, case_number=case_number)
    return SEAL_WHY_OTHER


def _title_case_number(pdf: bytes) -> str | None:
    """The case number the PDF's title names (``IRER P-18-0123 r2``), or None."""
    try:
        with pikepdf.open(io.BytesIO(pdf)) as document:
            title = document.docinfo.get("/Title")
            text = "" if title is None else str(title)
    except Exception:  # a damaged or hostile file: it names nothing
        return None
    match = _title_text.match(text.strip())
    return match["case_number"] if match else None
