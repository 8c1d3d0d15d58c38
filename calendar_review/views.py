"""Thin views of the review calendar: parse the request, call one selector or service,
render or redirect. Visibility is the selectors' (a 404 for a case the user may not see);
who may act is the permissions', enforced by the services (a 403)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from assessments import selectors as case_selectors
from assessments.due_dates import due_page, due_soon_days
from assessments.forms.binding import add_service_errors, posted
from assessments.models import Submission
from reviewer.http import AuthenticatedHttpRequest

from . import permissions, selectors, services
from .forms import AssignForm, CalendarForm, ExtensionForm, StyledForm, SuspensionEndForm, SuspensionForm
from .models import person

DUE_PER_PAGE = 50
NO_OPEN_SUSPENSION = "No suspension of this case is open."


def _form_page(request: AuthenticatedHttpRequest, *, submission: Submission, form: StyledForm, title: str,
               intro: str = "", submit: str = "Save") -> HttpResponse:
    return render(request, "calendar_review/form.html", {
        "submission": submission, "form": form, "title": title, "intro": intro, "submit": submit,
    })


def _record(request: AuthenticatedHttpRequest, pk: int, *, form_class: type[StyledForm], title: str, intro: str,
            initial: Callable[[Submission], dict[str, Any]], save: Callable[[Submission, dict[str, Any]], object],
            done: str) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    if not permissions.can_record(request.user, submission):
        raise PermissionDenied(services.RECORD_NOT_ALLOWED)
    form = form_class(posted(request), initial=initial(submission))
    if request.method == "POST" and form.is_valid():
        try:
            save(submission, form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect(submission.get_absolute_url() + "#review-calendar")
    return _form_page(request, submission=submission, form=form, title=title, intro=intro)


@require_http_methods(["GET", "POST"])
def calendar_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def initial(submission: Submission) -> dict[str, Any]:
        calendar = selectors.calendar_or_defaults(submission)
        return {"received_on": calendar.received_on, "period_days": calendar.period_days}

    return _record(
        request, pk, form_class=CalendarForm, title="Received date and review period",
        intro="The due date is received + period + extensions + suspended days, in calendar days.",
        initial=initial, done="Review calendar saved.",
        save=lambda s, d: services.calendar_update(submission=s, by=request.user, **d),
    )


@require_http_methods(["GET", "POST"])
def suspension_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _record(
        request, pk, form_class=SuspensionForm, title="Record a suspension",
        intro="The clock stops on the first and the last day and every day between.",
        initial=lambda s: {}, done="Suspension recorded.",
        save=lambda s, d: services.suspension_add(submission=s, by=request.user, **d),
    )


@require_http_methods(["GET", "POST"])
def extension_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _record(
        request, pk, form_class=ExtensionForm, title="Record an extension",
        intro="The days are added to the review period.",
        initial=lambda s: {}, done="Extension recorded.",
        save=lambda s, d: services.extension_add(submission=s, by=request.user, **d),
    )


@require_http_methods(["GET", "POST"])
def suspension_end(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """End the case's open suspension (a case has at most one)."""
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    if not permissions.can_record(request.user, submission):
        raise PermissionDenied(services.RECORD_NOT_ALLOWED)
    suspension = selectors.open_suspension(submission=submission)
    if suspension is None:
        messages.info(request, NO_OPEN_SUSPENSION)
        return redirect(submission.get_absolute_url() + "#review-calendar")
    form = SuspensionEndForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.suspension_end(suspension=suspension, by=request.user, ends_on=form.cleaned_data["ends_on"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, "Suspension ended.")
            return redirect(submission.get_absolute_url() + "#review-calendar")
    return _form_page(
        request, submission=submission, form=form, title="End the suspension",
        intro=f"Suspended since {suspension.starts_on:%Y-%m-%d}: {suspension.reason}",
    )


@require_http_methods(["GET", "POST"])
def engineer_assign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    if not permissions.can_assign(request.user, submission):
        raise PermissionDenied(services.ASSIGN_NOT_ALLOWED)
    form = AssignForm(posted(request), engineers=selectors.assignable_engineers(submission=submission))
    if request.method == "POST" and form.is_valid():
        try:
            services.engineer_assign(submission=submission, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Case assigned to {person(form.cleaned_data['engineer'])}.")
            return redirect(submission.get_absolute_url() + "#review-calendar")
    return _form_page(
        request, submission=submission, form=form, title="Assign engineer", submit="Assign",
        intro="The case's latest revision, if it is a draft or returned, is given to the engineer too.",
    )


@require_GET
def due_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Open cases with a running clock, soonest due first (the case list itself stays
    newest first: its keyset paging is by received time). ``?mine=1``: my cases only."""
    mine = request.GET.get("mine") == "1"
    cases = selectors.due_cases(user=request.user, mine=mine)
    page, problem = due_page(cases, params=request.GET, size=DUE_PER_PAGE)
    rows = [selectors.due_row(case) for case in selectors.with_page_calendars(page.object_list)]
    return render(request, "calendar_review/due_list.html", {
        "page": page, "rows": rows, "problem": problem, "mine": mine,
        "soon_days": due_soon_days(),
    })
