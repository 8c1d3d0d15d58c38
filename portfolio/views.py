"""The portfolio page (``/portfolio/``) and its CSV: the rework and the open workload a person
may see (``portfolio.figures`` decides: a reviewer their own, a supervisor the team's; a
person not cleared for CBI no CBI case), filtered by ``?engineer=``, ``?scenario=`` and
``?period=``. A cleared person's CSV that lists a CBI case is in that case's custody log."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from assessments import events
from assessments.impact_runs import engineer_choices
from assessments.roles import is_supervisor
from reviewer.http import AuthenticatedHttpRequest

from . import figures, page

CSV_NAME = "portfolio.csv"


@require_GET
def portfolio(request: AuthenticatedHttpRequest) -> HttpResponse:
    filters, errors = figures.read_filters(request.GET, user=request.user)
    shown = page.portfolio(filters, request.user, now=timezone.now())
    return render(request, "portfolio/portfolio.html", {
        "page": shown, "filters": filters, "filter_errors": errors, "periods": figures.PERIODS,
        "methods": figures.method_choices(), "supervisor": is_supervisor(request.user),
        "engineers": engineer_choices() if is_supervisor(request.user) else [],
        "query": request.GET.urlencode(),
    })


@require_GET
def portfolio_csv(request: AuthenticatedHttpRequest) -> HttpResponse:
    filters, _ = figures.read_filters(request.GET, user=request.user)
    shown = page.portfolio(filters, request.user, now=timezone.now())
    for row in shown.open_cases:
        events.shown(what=events.What.PORTFOLIO_CSV, request=request, submission=row.case, detail=CSV_NAME)
    response = HttpResponse(page.as_csv(shown), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{CSV_NAME}"'
    return response
