"""The review actions: submit, return, approve, through the workflow's services (the same
rules, refusals and messages as the pages: approved work is refused, a supervisor never
approves their own work, a return needs a comment). Each needs an ``Idempotency-Key``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router

from assessments import selectors, workflow
from assessments.limits import check_text
from assessments.models import Assessment
from assessments.views_review import COMMENT_LABELS

from ..auth import token_of
from ..core import acting, json
from . import schemas
from .assessments import assessment_url
from .cases import ERRORS

router = Router(tags=["review"])
ACTION_ERRORS = {403: schemas.Errors, 409: schemas.Errors, 422: schemas.Errors, **ERRORS}


def _done(assessment: Assessment) -> dict[str, Any]:
    return {"id": assessment.pk, "status": assessment.status, "revision": assessment.revision,
            "url": assessment_url(assessment)}


def _text(value: str, name: str) -> str:
    """The pages' check of a comment (no NUL, at most the limit), keyed by the field."""
    return check_text(value, field="comment", label=COMMENT_LABELS[name])


@router.post("/assessments/{int:assessment_id}/submit", url_name="api-assessment-submit",
             response={200: schemas.StatusOut, **ACTION_ERRORS}, summary="Submit for approval (the engineer)")
def submit(request: HttpRequest, assessment_id: int, payload: schemas.SubmitIn) -> HttpResponse:
    def act() -> HttpResponse:
        owner = token_of(request).owner
        assessment = selectors.assessment_get(user=owner, pk=assessment_id)
        done = workflow.assessment_submit(assessment=assessment, by=owner, note=_text(payload.note, "note"),
                                          volume_reason=_text(payload.volume_reason, "volume_reason"))
        return json(_done(done))

    return acting(request, act)


@router.post("/assessments/{int:assessment_id}/return", url_name="api-assessment-return",
             response={200: schemas.StatusOut, **ACTION_ERRORS},
             summary="Return to the engineer with a comment (a supervisor; comments on single uses optional)")
def return_(request: HttpRequest, assessment_id: int, payload: schemas.ReturnIn) -> HttpResponse:
    def act() -> HttpResponse:
        owner = token_of(request).owner
        assessment = selectors.assessment_get(user=owner, pk=assessment_id)
        comment = _text(payload.comment, "comment")
        use_comments = {}
        for pk, text in payload.use_comments.items():
            if text.strip():
                use_comments[pk] = check_text(text, field="comment", label=f"The comment on use {pk}",
                                              limit=workflow.USE_COMMENT_LIMIT)
        done = workflow.assessment_return(assessment=assessment, by=owner, comment=comment,
                                          use_comments=use_comments)
        return json(_done(done))

    return acting(request, act)


@router.post("/assessments/{int:assessment_id}/approve", url_name="api-assessment-approve",
             response={200: schemas.StatusOut, **ACTION_ERRORS},
             summary="Approve (a supervisor, never their own work): the report is sealed")
def approve(request: HttpRequest, assessment_id: int, payload: schemas.ApproveIn) -> HttpResponse:
    def act() -> HttpResponse:
        owner = token_of(request).owner
        assessment = selectors.assessment_get(user=owner, pk=assessment_id)
        done = workflow.assessment_approve(assessment=assessment, by=owner, comment=_text(payload.comment, "comment"))
        return json(_done(done))

    return acting(request, act)
