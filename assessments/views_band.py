"""The results page's button that asks the report workers for a use's Monte Carlo band
(``band_tasks``): POST only, for whoever may see the use's results."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from . import band_tasks, selectors


@require_POST
def scenario_sensitivity_band(request, pk: int):
    """Enqueue the band of the use's current inputs (once per key) and go back to its results,
    saying whether the band is there, being computed, or why it cannot be."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)  # a case the user may not see: 404
    try:
        found = band_tasks.band_request(scenario=scenario)
    except band_tasks.BandRefused as refused:
        messages.error(request, str(refused))
    else:
        getattr(messages, found.level)(request, found.message)
    return redirect(reverse("scenario-results", args=[scenario.pk]) + "#sensitivity")
