"""Cases: the list (the case list page's filters and keyset paging), one case, its
revisions, and a case's export and import (``assessments.transfer``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, QueryDict
from django.urls import reverse
from django.utils import timezone
from ninja import Router
from ninja.params.functions import Query  # what ninja.Query calls, typed as a default value

from assessments import case_list as case_lists
from assessments import selectors, transfer
from assessments.case_list import CASES_PER_PAGE, CaseListRefused
from assessments.models import Assessment, Submission, case_snapshot
from assessments.roles import is_administrator
from audit.services import What
from calendar_review.selectors import case_due_state
from portfolio import figures

from ..auth import token_of
from ..core import acting, json, record_cbi_read
from . import schemas

router = Router(tags=["cases"])

DEFAULT_SIZE = CASES_PER_PAGE  # the case list page's
MAX_SIZE = 100
SIZE_OUT_OF_RANGE = f"size must be a whole number from 1 to {MAX_SIZE}."
IMPORT_NOT_ALLOWED = ("Only an administrator may import a case: an import writes revisions, approvals and "
                      "decisions as they were made elsewhere.")
MAP_USER_FORM = "map_user takes OLD=NEW (user names), not {pair!r}."
MAP_USER_PARAM = Query([], description="OLD=NEW: record the file's user OLD as this installation's NEW")
ERRORS = {400: schemas.Errors, 401: schemas.Errors, 404: schemas.Errors, 429: schemas.Errors}


def _form_errors(*forms: BaseForm) -> ValidationError | None:
    errors = {name: " ".join(str(m) for m in messages) for form in forms for name, messages in form.errors.items()}
    return ValidationError(errors) if errors else None


def _size(params: QueryDict) -> int:
    text = params.get("size", "")
    if not text:
        return DEFAULT_SIZE
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_SIZE:
        raise ValidationError({"size": SIZE_OUT_OF_RANGE})
    return int(text)


def case_url(case: Submission) -> str:
    return reverse("api:api-case-detail", kwargs={"case_id": case.pk})


def _summary(case: Submission) -> dict[str, Any]:
    due = case_due_state(case).due_on  # as the case list shows it: an open suspension's days counted
    return {
        "id": case.pk, "case_number": case.case_number, "case_type": case.case_type,
        "generic_name": case.generic_name, "submitter": case.submitter, "is_cbi": case.is_cbi,
        "cbi_claims": list(case.cbi_claims or []), "latest_status": case.latest_status,
        "latest_revision": case.latest_revision,
        "latest_engineer": case.latest_engineer.get_username() if case.latest_engineer else None,
        "created_at": case.created_at, "due_date": due, "url": case_url(case),
    }


@router.get("/cases", url_name="api-case-list", response={200: schemas.CasePage, **ERRORS},
            summary="The cases you may see, newest first, with the case list page's filters")
def case_list(
    request: HttpRequest,
    q: str = Query("", description="Case number, case name, chemical name, generic name or submitter contains"),
    status: str = Query("", description="The latest revision's status ('none': no revision)"),
    engineer: str = Query("", description="The latest revision's engineer: user name or part of the name"),
    has_approved: bool = Query(False, description="Any revision approved, not only the latest"),
    due: str = Query("", description="overdue, within, stopped or none"),
    within: int | None = Query(None, description="For due=within: days (the due-soon days, PMN_DUE_SOON_DAYS, when empty)"),
    after: str = Query("", description="The page after this place (a page's 'older')"),
    before: str = Query("", description="The page before this place (a page's 'newer')"),
    oldest: str = Query("", description="1: the oldest page"),
    size: int = Query(DEFAULT_SIZE, description=f"Cases a page, 1 to {MAX_SIZE}"),
) -> dict[str, Any]:
    """The case list page's list (``assessments.case_list``: its search, its due-date filter
    and its keyset paging), each filter validated by the page's own form. ``newer``/``older``: the places to pass as
    ``before``/``after`` for the next pages (null at either end)."""
    try:
        found = case_lists.case_list(user=token_of(request).owner, params=request.GET, size=_size(request.GET), strict=True)
    except CaseListRefused as refused:
        raise ValidationError(refused.errors) from None
    page = found.page
    return {"cases": [_summary(case) for case in page.object_list],
            "newer": str(page.newer) if page.newer else None, "older": str(page.older) if page.older else None}


def revision_summary(assessment: Assessment) -> dict[str, Any]:
    return {
        "id": assessment.pk, "revision": assessment.revision, "status": assessment.status,
        "engineer": assessment.engineer.get_username(),
        "approved_by": assessment.approved_by.get_username() if assessment.approved_by else None,
        "approved_at": assessment.approved_at, "created_at": assessment.created_at,
        "url": reverse("api:api-assessment-detail", kwargs={"assessment_id": assessment.pk}),
    }


@router.get("/cases/{int:case_id}", url_name="api-case-detail", response={200: schemas.CaseDetail, **ERRORS},
            summary="One case: its data, CBI claims and revisions")
def case_detail(request: HttpRequest, case_id: int) -> dict[str, Any]:
    """The case page's data (a CBI case: 404 for a token of a user not cleared for CBI; its
    read recorded in the case's custody log)."""
    submission = selectors.submission_get(user=token_of(request).owner, pk=case_id)
    record_cbi_read(request, what=What.CASE_PAGE, submission=submission)
    return {"id": submission.pk, "case": case_snapshot(submission), "is_cbi": submission.is_cbi,
            "revisions": [revision_summary(a) for a in selectors.assessments_for_submission(submission=submission)]}


@router.get("/cases/{int:case_id}/rework", url_name="api-case-rework", response={200: schemas.CaseRework, **ERRORS},
            summary="A case's rework, revision by revision, and the days left on its review clock")
def case_rework(request: HttpRequest, case_id: int) -> dict[str, Any]:
    """What the case page's Rework section shows (docs/portfolio.md): each revision's returns,
    amendments and recomputes after submission, its seconds in each status up to now and the
    departures of its computed uses from the documents' defaults. A CBI case: 404 for a token
    of a user not cleared for CBI, as every case route."""
    submission = selectors.submission_get(user=token_of(request).owner, pk=case_id)
    due = case_due_state(submission)
    return {"case_number": submission.case_number, "due_date": due.due_on, "days_left": due.days_left,
            "clock_stopped_since": due.clock_stopped_on,
            "revisions": [{"revision": r.revision, "status": r.status, "returns": r.returns, "amendments": r.amendments,
                           "recomputes_after_submission": r.recomputes, "seconds_in_status": r.seconds,
                           "departures": r.departures} for r in figures.case_rework(submission, now=timezone.now())]}


@router.get("/cases/{int:case_id}/revisions", url_name="api-case-revisions",
            response={200: list[schemas.RevisionSummary], **ERRORS}, summary="A case's revisions, newest first")
def case_revisions(request: HttpRequest, case_id: int) -> list[dict[str, Any]]:
    submission = selectors.submission_get(user=token_of(request).owner, pk=case_id)
    return [revision_summary(a) for a in selectors.assessments_for_submission(submission=submission)]


@router.get("/cases/{int:case_id}/export", url_name="api-case-export", response={200: dict, **ERRORS},
            summary="The case as export_case writes it (every revision, use, decision, sealed copy)")
def case_export(request: HttpRequest, case_id: int) -> HttpResponse:
    """``manage.py export_case``'s document, for a case the token's user may see; a CBI case's
    export is recorded in its custody log."""
    submission = selectors.submission_get(user=token_of(request).owner, pk=case_id)
    document = transfer.case_export(case_number=submission.case_number)
    record_cbi_read(request, what=What.EXPORT, submission=submission)
    return json(document)


def _user_map(pairs: list[str]) -> dict[str, str]:
    mapping = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValidationError({"map_user": MAP_USER_FORM.format(pair=pair)})
        mapping[old.strip()] = new.strip()
    return mapping


@router.post("/cases/import", url_name="api-case-import", response={201: schemas.ImportOut, 403: schemas.Errors,
                                                                     **ERRORS},
             summary="Import a case export (administrators); the body is the export document",
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": {"type": "object", "additionalProperties": True}}}}})
def case_import(request: HttpRequest, map_user: list[str] = MAP_USER_PARAM) -> HttpResponse:
    """``manage.py import_case`` over HTTP: the body is the export document, read by the same
    checks (size, UTF-8, JSON, no key twice, finite numbers) and imported by the same rules:
    all or nothing. Needs an ``Idempotency-Key``: a retry does not import twice."""
    owner = token_of(request).owner

    def act() -> HttpResponse:
        if not is_administrator(owner):
            raise PermissionDenied(IMPORT_NOT_ALLOWED)
        user_map = _user_map(map_user)
        try:
            document = transfer.loads(request.body, source="the request body")
            imported = transfer.case_import_report(document=document, user_map=user_map)
        except transfer.TransferError as exc:
            raise ValidationError(str(exc)) from None
        case = imported.submission
        return json({"id": case.pk, "case_number": case.case_number, "url": case_url(case),
                     "seals": imported.summary()}, status=201, Location=case_url(case))

    return acting(request, act)

