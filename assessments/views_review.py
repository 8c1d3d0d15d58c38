"""Thin views of the review: the supervisors' queue, the workflow actions (submit,
approve, return, new revision), the history page and the comparison of two revisions.

Each view parses the request, calls one selector or service and renders or redirects.
Visibility is the selectors' (a CBI case is a 404 for an uncleared user); who may act
is the services' (a refusal is ``PermissionDenied``, a 403). Bad input (a return without
a comment, a submission with uncomputed uses) comes back on the assessment page as an
error message.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from reviewer.http import AuthenticatedHttpRequest

from . import comparison, review, selectors, timeline, workflow
from .events import What, shown
from .limits import check_text

COMMENT_LABELS = {"note": "The note", "comment": "The comment", "volume_reason": "The reason"}


def _act(
    request: AuthenticatedHttpRequest, pk: int, service: Callable[..., object], success: str, **fields: str
) -> HttpResponse:
    """Run one workflow service on the visible assessment ``pk`` with the posted text
    ``fields`` (service argument -> form field); back to its page. Text with a NUL or
    over the limit is refused with a message, never cut short."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    try:
        kwargs = {
            argument: check_text(request.POST.get(name, ""), field="comment", label=COMMENT_LABELS[name])
            for argument, name in fields.items()
        }
        service(assessment=assessment, by=request.user, **kwargs)
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
    else:
        messages.success(request, success)
    return redirect("assessment-detail", pk=assessment.pk)


@require_GET
def review_queue(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The supervisors' queue, soonest due first, a page at a time (``?after=``/``?before=``
    a row's place), with how many wait in all (``review.review_queue_count``)."""
    page, problem = review.review_queue_page(user=request.user, params=request.GET)
    queue = page.object_list
    return render(request, "review/queue.html", {
        "queue": queue, "page": page, "page_problem": problem,
        "waiting": review.review_queue_count(user=request.user),
        "notes": review.review_queue_notes(queue=queue),
        "over_releases": review.review_queue_over_releases(queue=queue),
    })


@require_POST
def assessment_submit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _act(
        request, pk, workflow.assessment_submit, "Submitted for approval.", note="note", volume_reason="volume_reason"
    )


@require_POST
def assessment_approve(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, workflow.assessment_approve, "Approved.", comment="comment")


@require_POST
def assessment_return(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Return, with the general comment and any comments on single uses (``use-comment-<id>``
    fields), all in one transaction (``workflow.assessment_return``)."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    try:
        comment = check_text(request.POST.get("comment", ""), field="comment", label=COMMENT_LABELS["comment"])
        use_comments = {}
        for scenario in assessment.scenarios.all():
            text = request.POST.get(f"use-comment-{scenario.pk}", "")
            if text.strip():
                label = f"The comment on “{scenario.title}”"
                use_comments[scenario.pk] = check_text(text, field="comment", label=label, limit=workflow.USE_COMMENT_LIMIT)
        workflow.assessment_return(
            assessment=assessment, by=request.user, comment=comment, use_comments=use_comments
        )
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
    else:
        messages.success(request, "Returned to the engineer.")
    return redirect("assessment-detail", pk=assessment.pk)


@require_POST
def assessment_withdraw(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _act(
        request, pk, workflow.assessment_withdraw, "Withdrawn: the assessment is a draft again.", note="note"
    )


@require_POST
def assessment_revise(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    revision = workflow.assessment_revise(assessment=assessment, by=request.user)
    messages.success(request, f"Revision {revision.revision} started as a copy of revision {assessment.revision}.")
    return redirect("assessment-detail", pk=revision.pk)


@require_GET
def assessment_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    shown(what=What.HISTORY, request=request, assessment=assessment)
    return render(
        request,
        "review/history.html",
        {
            "assessment": assessment,
            "submission": assessment.submission,
            "entries": timeline.assessment_history(assessment=assessment),
        },
    )


@require_GET
def assessment_compare(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    other = request.GET.get("with", "")
    other_pk = int(other) if other.isdigit() and len(other) < 19 else None  # fits a bigint
    show_all = request.GET.get("all") == "1"  # else the differences only
    context = comparison.revision_comparison(user=request.user, pk=pk, other_pk=other_pk, show_all=show_all)
    if context["right"] is not None:  # two revisions shown side by side
        shown(what=What.COMPARE, request=request, assessment=context["assessment"],
              detail=f"with revision {context['other'].revision}")
    return render(request, "review/compare.html", context)
