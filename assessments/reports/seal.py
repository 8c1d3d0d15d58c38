"""The IRER sealed at approval, and the check of a PDF against the sealed copies.

When a revision is approved (``workflow.assessment_approve``, whose signal
``assessment_approved`` reaches :func:`seal_on_approval`, connected in ``apps.py``), :func:`seal_approval` draws
its report once, in the approval's transaction, and stores the bytes with their SHA-256
(``models.SealedReport``): the full copy always, and the sanitised copy too when the case
as approved has CBI claims (a case without claims has nothing to withhold: its sanitised
download is the full copy). The footer of a sealed copy names the approval (who and when,
as the status line prints it) and its seal (:func:`.header.sealed_footer`).

Every later download of the revision's approved report (``reports.services``) and
``manage.py irer`` give those bytes, never drawn again, while the case's CBI claims are
those it was approved with. A claim made since must never print unmarked
(``models.case_from_snapshot``), so the copies are then drawn as any other report is, and
are not sealed copies.

The copies are drawn as approved: with the CBI claims the case was approved with
(``case_snapshot``), not those made since (:func:`_as_approved`; at the approval they are
the same). An imported approved revision (``transfer``) reaches :func:`seal_on_approval`
the same way, so the copies sealed here are drawn by this code, from the rows as imported,
and never taken from the file; drawing is deterministic (same rows, same bytes: the
PDF's /ID is a hash of its content, and it has no creation date).

:func:`check_pdf` tells whether a file is byte for byte one of the sealed copies (by its
SHA-256), which case and revision, and, for a file that matches none but whose metadata
names a case and revision (the PDF's title, ``IRER P-18-0123 r2``), that it says it is that
revision yet differs from its sealed copy. A user is told of a case only when they may
see it (``permissions.may_see``); to anyone else the answer is the one for a file that
matches nothing, so the answer never confirms that a hidden case exists.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import io
import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import pikepdf
from django.contrib.auth.models import AnonymousUser, User
from django.utils import dateformat, timezone

from ..models import Assessment, ReviewDecision, SealedCopy, SealedReport, Status
from ..permissions import may_see
from .context import irer_context
from .header import sealed_footer
from .render import html_to_pdf, irer_html

#: How many hexadecimal characters of the printed content's SHA-256 the footer prints.
SEAL_CHARS = 12
#: The largest file the check reads (an IRER is well under 2 MB).
CHECK_MAX_BYTES = 20 * 1024 * 1024

SEALED = (
    "This file is the sealed {copy} copy of the IRER of case {case_number} revision {revision}, "
    "approved by {approver} on {approved_at}. It is unchanged: its SHA-256 is the one recorded at approval."
)
NOT_SEALED = (
    "This file matches no sealed IRER of this system: it is not an approved IRER of this system, "
    "or it was changed after approval."
)
NOT_SEALED_FOR_USER = (
    "This file matches no sealed IRER of this system that you may see: it is not an approved IRER "
    "of this system, or it was changed after approval."
)
CLAIMS_CHANGED = (
    "It says it is the IRER of case {case_number} revision {revision}, but it differs from that "
    "revision's sealed copy: it was changed."
)
CLAIMS_UNSEALED = "It says it is the IRER of case {case_number} revision {revision}, which has no sealed copy."

_TITLE = re.compile(r"^IRER (?P<case_number>\S+) r(?P<revision>\d+)(?P<sanitised> \(sanitised\))?$")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# Sealing -------------------------------------------------------------------------------------


def _as_approved(assessment: Assessment) -> Assessment:
    """``assessment`` with its case's CBI claims those it was approved with: a claim made
    since its approval (``models.case_from_snapshot`` joins it) is not in the report as
    approved. A copy when they differ (an imported case amended after the approval); at
    the approval itself they are the same, and ``assessment`` is returned."""
    approved = list((assessment.case_snapshot or {}).get("cbi_claims") or [])
    if assessment.status != Status.APPROVED or sorted(approved) == sorted(assessment.submission.cbi_claims or []):
        return assessment
    case = _copy.copy(assessment.submission)
    case.cbi_claims, case.is_cbi = approved, bool(approved)
    printed = _copy.copy(assessment)
    printed.submission = case
    return printed


def sealed_copies(assessment: Assessment) -> list[str]:
    """The copies an approval seals: the full one, and the sanitised one of a case whose
    CBI claims as approved are not empty."""
    if _as_approved(assessment).case_data.is_cbi:
        return [SealedCopy.FULL, SealedCopy.SANITISED]
    return [SealedCopy.FULL]


def sealed_pdf_bytes(assessment: Assessment, *, sanitised: bool) -> tuple[bytes, str]:
    """The PDF of an approved revision's copy as sealed, and its seal: the report with the
    seal in its footer, printed at the approval time, with the CBI claims as approved."""
    context = irer_context(assessment=_as_approved(assessment), sanitised=sanitised)
    context["printed_at"] = context["approved_at"]
    seal = sha256(irer_html(context, for_pdf=True).encode("utf-8"))[:SEAL_CHARS]
    document = context["document"]
    running = replace(document.running, status=sealed_footer(document.running.status, seal))
    pdf = html_to_pdf(irer_html({**context, "document": replace(document, running=running)}, for_pdf=True))
    return pdf, seal


def seal_approval(*, assessment: Assessment, decision: ReviewDecision) -> list[SealedReport]:
    """Draw and store the sealed copies of ``assessment``, just approved by ``decision``.
    Called in the approval's transaction: an approval whose report cannot be drawn or
    stored is not made."""
    rows = []
    for copy in sealed_copies(assessment):
        pdf, seal = sealed_pdf_bytes(assessment, sanitised=copy == SealedCopy.SANITISED)
        rows.append(SealedReport.objects.create(
            assessment=assessment, decision=decision, copy=copy, pdf=pdf, sha256=sha256(pdf), seal=seal,
        ))
    return rows


def seal_on_approval(sender: object, *, assessment: Assessment, decision: ReviewDecision,
                     **kwargs: Any) -> list[SealedReport]:
    """``workflow.assessment_approved``'s receiver: seal the report just approved (by the
    workflow, or written approved by an import: ``transfer.sealed``). Returns the rows."""
    return seal_approval(assessment=assessment, decision=decision)


# Reading -------------------------------------------------------------------------------------


def _claims_as_approved(assessment: Assessment) -> bool:
    """The case's CBI claims are those the revision was approved with (none made since)."""
    approved = set((assessment.case_snapshot or {}).get("cbi_claims") or [])
    return set(assessment.case_data.cbi_claims or []) == approved


def sealed_report(*, assessment: Assessment, sanitised: bool) -> SealedReport | None:
    """The sealed copy a download of ``assessment``'s report gives, or None: not approved,
    approved before reports were sealed, or CBI claims made since its approval. Who may
    have which copy is the caller's check (``reports.services``)."""
    if assessment.status != Status.APPROVED or not _claims_as_approved(assessment):
        return None
    rows = {row.copy: row for row in SealedReport.objects.filter(assessment_id=assessment.pk)}
    if sanitised and SealedCopy.SANITISED in rows:
        return rows[SealedCopy.SANITISED]
    if sanitised and assessment.case_data.is_cbi:
        return None
    return rows.get(SealedCopy.FULL)


def sealed_pdf(*, assessment: Assessment, sanitised: bool) -> bytes | None:
    """The bytes of :func:`sealed_report`, or None."""
    row = sealed_report(assessment=assessment, sanitised=sanitised)
    return None if row is None else bytes(row.pdf)


def approval_digests(*, decision: ReviewDecision) -> list[SealedReport]:
    """The sealed copies an approval drew (for History), full first."""
    return list(SealedReport.objects.filter(decision=decision).defer("pdf").order_by("copy"))


# Checking ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SealCheck:
    """The answer about one file: ``sealed`` when it is byte for byte a sealed copy the
    asker may see (``report``); ``message`` says so or not, and ``claim`` what its metadata
    says it is, when that is a revision the asker may see."""

    sealed: bool
    sha256: str
    message: str
    claim: str = ""
    report: SealedReport | None = None


def _visible(user: User | AnonymousUser | None, assessment: Assessment) -> bool:
    return user is None or may_see(user, assessment.submission)


def _claimed(data: bytes) -> tuple[str, int] | None:
    """The case number and revision the PDF's title names, or None (no title, or a file
    pikepdf cannot read)."""
    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            title = pdf.docinfo.get("/Title")
            text = "" if title is None else str(title)
    except Exception:  # a damaged or hostile file: it names nothing
        return None
    match = _TITLE.match(text.strip())
    return (match["case_number"], int(match["revision"])) if match else None


def _when(value: datetime) -> str:
    return dateformat.format(timezone.localtime(value), "F j, Y, H:i T")


def check_pdf(*, data: bytes, user: User | AnonymousUser | None = None) -> SealCheck:
    """Whether ``data`` is a sealed copy (``user``: who asks, told only of cases they may
    see; None: the command line, which sees every case)."""
    digest = sha256(data)
    row = (SealedReport.objects.filter(sha256=digest).defer("pdf")
           .select_related("assessment__submission", "decision__by").first())
    if row is not None and _visible(user, row.assessment):
        approver = row.decision.by
        approved_at = row.assessment.approved_at
        # A sealed copy's revision is approved, and an approved revision has its approval's
        # time (the constraint assessment_approved_has_approver).
        assert approved_at is not None, "a sealed copy's revision has no approval time"
        return SealCheck(True, digest, SEALED.format(
            copy=row.copy, case_number=row.assessment.submission.case_number, revision=row.assessment.revision,
            approver=approver.get_full_name() or approver.get_username(), approved_at=_when(approved_at),
        ), report=row)
    message = NOT_SEALED if user is None else NOT_SEALED_FOR_USER
    claimed = _claimed(data)
    if claimed is None:
        return SealCheck(False, digest, message)
    case_number, revision = claimed
    assessment = (Assessment.objects.filter(submission__case_number=case_number, revision=revision)
                  .select_related("submission").first())
    if assessment is None or not _visible(user, assessment):
        return SealCheck(False, digest, message)
    sealed = SealedReport.objects.filter(assessment=assessment).exists()
    claim = (CLAIMS_CHANGED if sealed else CLAIMS_UNSEALED).format(case_number=case_number, revision=revision)
    return SealCheck(False, digest, message, claim=claim)
