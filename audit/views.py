"""Thin views of the CBI custody log: a case's log (page and CSV, for supervisors) and
"My CBI access" (every user, their own rows). Who may read a case's log is
``audit.permissions``, asked by the selectors (a 403); a case the user may not see is a 404."""

from __future__ import annotations

import csv

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from assessments import selectors as case_selectors
from reviewer.http import AuthenticatedHttpRequest

from . import selectors
from .models import CbiAccess

ROWS_PER_PAGE = 50


def _page(request: HttpRequest, rows: QuerySet[CbiAccess]) -> Page[CbiAccess]:
    return Paginator(rows, ROWS_PER_PAGE).get_page(request.GET.get("page"))


@require_GET
def case_log(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    rows = selectors.case_log(user=request.user, submission=submission)
    return render(request, "audit/case_log.html", {"submission": submission, "page": _page(request, rows)})


@require_GET
def case_log_csv(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    rows = selectors.case_log(user=request.user, submission=submission)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in submission.case_number)
    response["Content-Disposition"] = f'attachment; filename="CBI-custody-{name}.csv"'
    writer = csv.writer(response)
    for cells in selectors.csv_rows(rows.iterator()):
        writer.writerow(cells)
    return response


@require_GET
def my_access(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = selectors.own_access(user=request.user)
    return render(request, "audit/my_access.html", {"page": _page(request, rows)})
