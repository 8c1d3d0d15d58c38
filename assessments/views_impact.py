"""The supervisors' engine-change page: what the last change to the engine (or a proposed
default) moves in the team's work, measured on the report workers (``impact_runs``).

GET shows a run (the newest engine run, or ``?run=``), its progress while the workers replay
it, what it moved in the cases the supervisor may see (counts, the largest moves), filtered
by ``?status=``, ``?scenario=``, ``?engineer=`` and ``?crossed=1``. POST starts a run. The
progress endpoint answers the page's script in JSON. Every read and write is the service
layer's, which refuses anyone but a supervisor (403).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from reviewer.http import AuthenticatedHttpRequest

from . import impact_runs, presentation
from .esd import registry
from .esd.results import ENGINE_VERSION
from .models import ImpactRun

PAGE_ROWS = 50
STARTED = "Measuring: the report workers replay every stored use; this page shows their progress."


def _run(request: AuthenticatedHttpRequest) -> ImpactRun | None:
    wanted = request.GET.get("run", "")
    if not wanted:
        return impact_runs.latest_run(user=request.user)
    try:
        return impact_runs.run_get(user=request.user, pk=int(wanted))
    except (ValueError, ImpactRun.DoesNotExist):
        raise Http404("No such measure.") from None


def _progress_payload(run: ImpactRun, user: User | AnonymousUser) -> dict[str, Any]:
    shown = impact_runs.progress(run).shown_to(user)
    return {"finished": run.finished_at is not None, "failed": run.failed, "percent": shown.percent,
            "text": shown.text}


@require_GET
def engine_changes(request: AuthenticatedHttpRequest) -> HttpResponse:
    runs = impact_runs.recent_runs(user=request.user)
    run = _run(request)
    filters, filter_errors = impact_runs.read_filters(request.GET)
    context: dict[str, Any] = {
        "engine_version": ENGINE_VERSION, "runs": runs, "run": run, "filters": filters,
        "filter_errors": filter_errors, "status_filters": impact_runs.STATUS_FILTERS,
        "scenario_choices": [(s.key, presentation.method_title(s.key)) for s in registry.scenarios()],
        "engineers": impact_runs.engineer_choices(),
        "page_rows": PAGE_ROWS,
    }
    if run is not None:
        run = impact_runs.check_lost(run)
        rows = filters.apply(impact_runs.visible_uses(user=request.user, run=run))
        context.update(progress=_progress_payload(run, request.user), summary=impact_runs.summary(rows),
                       moves=[(row, impact_runs.move_lines(row.moves))
                              for row in impact_runs.largest_moves(rows, limit=PAGE_ROWS)])
    return render(request, "review/engine_changes.html", context)


@require_GET
def engine_change_progress(request: AuthenticatedHttpRequest, pk: int) -> JsonResponse:
    try:
        run = impact_runs.run_get(user=request.user, pk=pk)
    except ImpactRun.DoesNotExist:
        raise Http404("No such measure.") from None
    return JsonResponse(_progress_payload(impact_runs.check_lost(run), request.user))


@require_POST
def engine_change_start(request: AuthenticatedHttpRequest) -> HttpResponse:
    overrides = [line.strip() for line in request.POST.get("overrides", "").splitlines() if line.strip()]
    try:
        run = impact_runs.start_run(by=request.user, kind=request.POST.get("kind", ""), overrides=overrides)
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
        return redirect("engine-changes")
    messages.info(request, STARTED)
    return redirect(reverse("engine-changes") + f"?run={run.pk}")
