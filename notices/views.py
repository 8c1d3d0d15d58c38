"""Thin views: the list of one's notices, marking them read, resolving a comment on a use."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from assessments import selectors as assessment_selectors
from reviewer.http import AuthenticatedHttpRequest

from . import selectors, services
from .models import Notice, UseComment


@require_GET
def notice_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "notices/list.html", {"notices": selectors.notice_list(user=request.user)})


@require_POST
def notice_read(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    notice = get_object_or_404(Notice, pk=pk, recipient=request.user)
    services.notice_mark_read(notice=notice, by=request.user)
    if request.POST.get("open"):
        return redirect(notice.get_absolute_url())
    return redirect("notice-list")


@require_POST
def notices_read_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    count = services.notices_mark_all_read(by=request.user)
    messages.success(request, f"{count} notice{'' if count == 1 else 's'} marked read.")
    return redirect("notice-list")


@require_POST
def use_comment_resolve(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    comment = get_object_or_404(UseComment, pk=pk)
    # A case the user may not see is a 404, as on every page of the case.
    scenario = assessment_selectors.scenario_get(user=request.user, pk=comment.scenario_id)
    try:
        services.use_comment_resolve(comment=comment, by=request.user)
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
    else:
        messages.success(request, "Comment marked resolved.")
    return redirect("scenario-results", pk=scenario.pk)
