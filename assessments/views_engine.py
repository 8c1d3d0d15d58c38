"""The recompute of a use computed by an older engine (issue 42, "After a change lands"):
GET shows the difference the installed engine makes, POST (Accept) stores its result.

The rules are ``assessments/engine_marks.py``'s (what is older, beside "not current") and
``assessments/engine_refresh.py``'s (the difference, who may accept); the write is
``services.scenario_recompute``, which computes again on the server and refuses a use that
changed since the difference was shown.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from reviewer.http import AuthenticatedHttpRequest

from . import engine_refresh, selectors, services
from .esd.results import ENGINE_VERSION
from .events import What, shown

#: The field Accept posts: the fingerprint of the use the difference was made from.
SEEN = "seen"


@require_http_methods(["GET", "POST"])
def scenario_recompute(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: the stored figures and the installed engine's side by side, for every output
    that moves (or "no figure changes"), then Accept and Cancel; POST: Accept. A use the
    installed engine computed already goes back to its results, saying so."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if not scenario.result:
        messages.info(request, "This use has not been computed yet: finish its wizard first.")
        return redirect("scenario-wizard", pk=scenario.pk)
    if request.method == "POST":
        try:
            services.scenario_recompute(scenario=scenario, by=request.user, seen=request.POST.get(SEEN, ""))
        except ValidationError as exc:
            for text in exc.messages:
                messages.error(request, text)
            return redirect("scenario-recompute", pk=scenario.pk)
        messages.success(request, engine_refresh.RECOMPUTED.format(title=scenario.title, installed=ENGINE_VERSION))
        return redirect("scenario-results", pk=scenario.pk)
    preview = engine_refresh.recompute_preview(scenario=scenario, user=request.user)
    if preview.older is None:
        messages.info(request, engine_refresh.RECOMPUTE_NOT_OLDER.format(title=scenario.title, installed=ENGINE_VERSION))
        return redirect("scenario-results", pk=scenario.pk)
    shown(what=What.USE_RESULTS, request=request, assessment=scenario.assessment,
          detail=f"{scenario.title}: the installed engine's difference")
    return render(request, "assessments/engine_recompute.html", {
        "scenario": scenario,
        "assessment": scenario.assessment,
        "preview": preview,
        "seen_field": SEEN,
    })
