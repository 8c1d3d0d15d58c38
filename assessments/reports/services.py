"""Who may have which copy of the report, and the report itself."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from ..models import Assessment, Status
from ..roles import is_cbi_cleared
from .cache import cached_pdf, report_key
from .context import irer_context
from .render import irer_filename, irer_html, irer_pdf

FULL_COPY_NOT_ALLOWED = "Only users cleared for CBI may have the full report of a CBI case; download the sanitised copy."


def _context_for(*, user, assessment: Assessment, sanitised: bool) -> dict:
    if assessment.submission.is_cbi and not sanitised and not is_cbi_cleared(user):
        raise PermissionDenied(FULL_COPY_NOT_ALLOWED)
    return irer_context(assessment=assessment, sanitised=sanitised)


def irer_document(*, user, assessment: Assessment, sanitised: bool) -> tuple[str, bytes]:
    """``(file name, PDF bytes)`` of the full or sanitised report, for ``user``: drawn once
    and then served from the report cache (``reports.cache``) while nothing it prints
    changes. The CBI check comes first, so the cache is never read for a user who may not
    have the copy."""
    context = _context_for(user=user, assessment=assessment, sanitised=sanitised)
    key = report_key(context, approved=assessment.status == Status.APPROVED)
    return irer_filename(context, sanitised=sanitised), cached_pdf(key=key, render=lambda: irer_pdf(context))


def irer_preview(*, user, assessment: Assessment, sanitised: bool) -> str:
    """The same report as HTML for the browser."""
    return irer_html(_context_for(user=user, assessment=assessment, sanitised=sanitised), for_pdf=False)
