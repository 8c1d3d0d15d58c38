"""The use's sensitivity page (every output's tornado chart and table) and the button that asks
the report workers for its Monte Carlo band (``band_tasks``): for whoever may see the use's
results."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from reviewer.http import AuthenticatedHttpRequest

from . import band_tasks, selectors
from .events import What, shown
from .sensitivity_view import use_sensitivity

#: Where the band's button goes back to: the results page (default) or the sensitivity page.
BAND_BACK = {"results": ("scenario-results", "#sensitivity"), "charts": ("scenario-sensitivity", "")}


@require_GET
def scenario_sensitivity(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Every release and exposure's tornado chart, with its table, for a computed use."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)  # a case the user may not see: 404
    if not scenario.result:
        messages.info(request, "This use has not been computed yet: finish its wizard first.")
        return redirect("scenario-wizard", pk=scenario.pk)
    shown(what=What.USE_RESULTS, request=request, assessment=scenario.assessment,
          detail=f"{scenario.title} (sensitivity)")
    return render(request, "assessments/scenario_sensitivity.html", {
        "scenario": scenario,
        "assessment": scenario.assessment,
        "sensitivity": use_sensitivity(scenario=scenario, charts=True),
        "band_back": "charts",
    })


@require_POST
def scenario_sensitivity_band(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Enqueue the band of the use's current inputs (once per key) and go back to its results
    (or its sensitivity page, ``back=charts``), saying whether the band is there, being
    computed, or why it cannot be."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)  # a case the user may not see: 404
    try:
        found = band_tasks.band_request(scenario=scenario)
    except band_tasks.BandRefused as refused:
        messages.error(request, str(refused))
    else:
        getattr(messages, found.level)(request, found.message)
    name, anchor = BAND_BACK.get(request.POST.get("back", ""), BAND_BACK["results"])
    return redirect(reverse(name, args=[scenario.pk]) + anchor)
