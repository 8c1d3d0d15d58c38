"""Who may have which copy of the report, and the report itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from ..models import Assessment, Status
from ..roles import is_cbi_cleared
from .cache import report_key, stored_pdf
from .context import irer_context
from .docx import irer_docx, irer_docx_filename
from .render import irer_filename, irer_html
from .seal import sealed_pdf
from .tasks import READY, RenderState, render_request, render_state

FULL_COPY_NOT_ALLOWED = "Only users cleared for CBI may have the full report of a CBI case; download the sanitised copy."


def _check_copy(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> None:
    # The claims the report prints: an approved revision's as approved and any made since.
    if assessment.case_data.is_cbi and not sanitised and not is_cbi_cleared(user):
        raise PermissionDenied(FULL_COPY_NOT_ALLOWED)


def _context_for(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> dict[str, Any]:
    _check_copy(user=user, assessment=assessment, sanitised=sanitised)
    return irer_context(assessment=assessment, sanitised=sanitised)


def _copy(sanitised: bool) -> str:
    return "sanitised" if sanitised else "full"


@dataclass(frozen=True)
class IrerDownload:
    """A download of the report: its file name, and either the PDF or, while it is being
    drawn (or could not be), where its task is."""

    filename: str
    pdf: bytes | None = None
    render: RenderState | None = None


def irer_download(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> IrerDownload:
    """The full or sanitised report for ``user``: an approved revision's copy as sealed at
    approval (``reports.seal``), byte for byte; else the PDF from the report cache
    (``reports.cache``) when it is stored under the report's key, else the task that draws
    it (``reports.tasks``), enqueued once per key. The CBI check comes first, so nothing is
    read, enqueued or told for a user who may not have the copy."""
    context = _context_for(user=user, assessment=assessment, sanitised=sanitised)
    filename = irer_filename(context, sanitised=sanitised)
    sealed = sealed_pdf(assessment=assessment, sanitised=sanitised)
    if sealed is not None:
        return IrerDownload(filename, pdf=sealed)
    key = report_key(context, approved=assessment.status == Status.APPROVED)
    pdf = stored_pdf(key=key)
    if pdf is not None:
        return IrerDownload(filename, pdf=pdf)
    state = render_request(key=key, html=irer_html(context, for_pdf=True), assessment_id=assessment.pk,
                           copy=_copy(sanitised))
    if state.state == READY:  # drawn already (a backend that runs tasks at once)
        pdf = stored_pdf(key=key)
        if pdf is not None:
            return IrerDownload(filename, pdf=pdf)
    return IrerDownload(filename, render=state)


def irer_render_state(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool,
                      task_id: str) -> RenderState | None:
    """Where task ``task_id`` drawing this copy of the report is, for ``user``, after the
    same CBI check as the download; None if it is not this copy's task."""
    _check_copy(user=user, assessment=assessment, sanitised=sanitised)
    return render_state(task_id=task_id, assessment_id=assessment.pk, copy=_copy(sanitised))


@dataclass(frozen=True)
class IrerDocx:
    """The report as an editable Word document, and its file name."""

    filename: str
    docx: bytes


def irer_docx_download(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> IrerDocx:
    """The full or sanitised report for ``user`` as .docx (``reports.docx``): the same
    context and the same CBI check as the PDF. Drawn at once (well under a second), so
    neither cached nor queued."""
    context = _context_for(user=user, assessment=assessment, sanitised=sanitised)
    return IrerDocx(irer_docx_filename(context, sanitised=sanitised), irer_docx(context))


def irer_preview(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool,
                 request: HttpRequest | None = None) -> str:
    """The same report as the application's preview page, after the same CBI check as the
    downloads (``request``: the page's navigation is the user's)."""
    context = _context_for(user=user, assessment=assessment, sanitised=sanitised)
    return irer_html(context, for_pdf=False, request=request)
