"""The IRER as PDF (through the report queue: 202 with a status URL while it is drawn, then
the file) and as Word (drawn at once), full or sanitised, with the pages' rule of who may
have which copy (``assessments.reports.services``) and the custody log's row for a full
copy of a CBI case handed over."""

from __future__ import annotations

from typing import Any, Literal

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Router
from ninja.params.functions import Query  # what ninja.Query calls, typed as a default value

from assessments import selectors
from assessments.reports import services as report_services
from assessments.reports.docx import DOCX_CONTENT_TYPE
from assessments.reports.tasks import FAILED
from audit.services import What

from ..auth import token_of
from ..core import json, record_cbi_read
from . import schemas
from .cases import ERRORS

router = Router(tags=["reports"])
Copy = Literal["full", "sanitised"]
COPY_HELP = "full (claimed items bracketed; users cleared for CBI only on a CBI case) or sanitised ([CBI])"
FILE = {"200": {"description": "The file", "content": {"application/pdf": {}}}}
COPY_PARAM = Query("full", alias="copy", description=COPY_HELP)
NO_SUCH_TASK = "No such report task (for this revision and copy)."


def _urls(assessment_id: int, copy: str, task_id: str | None) -> dict[str, Any]:
    query = f"?copy={copy}"
    urls = {"file_url": reverse("api:api-report-pdf", kwargs={"assessment_id": assessment_id}) + query}
    if task_id:
        urls["status_url"] = reverse("api:api-report-status",
                                     kwargs={"assessment_id": assessment_id, "task_id": task_id}) + query
    return urls


def _attachment(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@router.get("/assessments/{int:assessment_id}/report.pdf", url_name="api-report-pdf",
            response={202: schemas.ReportState, 403: schemas.Errors, 503: schemas.ReportState, **ERRORS},
            openapi_extra={"responses": FILE},
            summary="The IRER PDF: the file when drawn (or sealed); else 202 and where to follow it")
def report_pdf(request: HttpRequest, assessment_id: int,
               copy_: Copy = COPY_PARAM) -> HttpResponse:
    """The page's download (``/assessments/<pk>/irer.pdf``): an approved revision's sealed
    copy, or the PDF from the report cache, or the report queue's task (enqueued once per
    report): 202 with ``status_url`` to poll and ``file_url`` to fetch when ready (503 when
    its drawing failed: fetch ``file_url`` again to retry)."""
    owner = token_of(request).owner
    assessment = selectors.assessment_get(user=owner, pk=assessment_id)
    copy, sanitised = copy_, copy_ == "sanitised"
    download = report_services.irer_download(user=owner, assessment=assessment, sanitised=sanitised)
    if download.pdf is not None:
        record_cbi_read(request, what=What.IRER_PDF, assessment=assessment, sanitised=sanitised)
        return _attachment(download.pdf, "application/pdf", download.filename)
    state = download.render
    assert state is not None, "a download without its PDF has its render state"
    urls = _urls(assessment.pk, copy, state.task_id)
    return json({"state": state.state, **urls, "detail": state.as_json()},
                status=503 if state.state == FAILED else 202, Location=urls["status_url"])


@router.get("/assessments/{int:assessment_id}/report-tasks/{task_id}", url_name="api-report-status",
            response={200: schemas.ReportState, 403: schemas.Errors, **ERRORS},
            summary="Where a report's drawing is: queued, rendering, ready, failed or no-worker")
def report_status(request: HttpRequest, assessment_id: int, task_id: str,
                  copy_: Copy = COPY_PARAM) -> dict[str, Any]:
    owner = token_of(request).owner
    assessment = selectors.assessment_get(user=owner, pk=assessment_id)
    copy = copy_
    state = report_services.irer_render_state(user=owner, assessment=assessment, sanitised=copy == "sanitised",
                                              task_id=task_id)
    if state is None:
        raise Http404(NO_SUCH_TASK)
    return {"state": state.state, **_urls(assessment.pk, copy, task_id), "detail": state.as_json()}


@router.get("/assessments/{int:assessment_id}/report.docx", url_name="api-report-docx",
            response={403: schemas.Errors, **ERRORS},
            openapi_extra={"responses": {"200": {"description": "The Word file",
                                                 "content": {DOCX_CONTENT_TYPE: {}}}}},
            summary="The IRER as an editable Word document, drawn at once")
def report_docx(request: HttpRequest, assessment_id: int,
                copy_: Copy = COPY_PARAM) -> HttpResponse:
    owner = token_of(request).owner
    assessment = selectors.assessment_get(user=owner, pk=assessment_id)
    sanitised = copy_ == "sanitised"
    download = report_services.irer_docx_download(user=owner, assessment=assessment, sanitised=sanitised)
    record_cbi_read(request, what=What.IRER_DOCX, assessment=assessment, sanitised=sanitised)
    return _attachment(download.docx, DOCX_CONTENT_TYPE, download.filename)
