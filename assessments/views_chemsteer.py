"""The switch of an assessment's ChemSTEER v3.2 column (issue 42): POST only, from the form
on a use's results page (``templates/assessments/_chemsteer_v32.html``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from reviewer.http import AuthenticatedHttpRequest

from . import selectors, services

#: The form's values of the switch.
SWITCH = {"on": True, "off": False}
SWITCH_REFUSED = "The ChemSTEER v3.2 switch is “on” or “off”."
SHOWN = "The ChemSTEER v3.2 column is shown on every use of this revision (never in the IRER)."
HIDDEN = "The ChemSTEER v3.2 column is hidden."


@require_POST
def assessment_chemsteer_v32(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show or hide the column (``services.assessment_set_chemsteer_v32``: its engineer, while a
    draft or returned; a case the user may not see is a 404), then back to the use the form
    was on (``use``), or to the assessment."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    choice = request.POST.get("chemsteer_v32", "")
    if choice not in SWITCH:
        return HttpResponseBadRequest(SWITCH_REFUSED)
    services.assessment_set_chemsteer_v32(assessment=assessment, by=request.user, on=SWITCH[choice])
    messages.success(request, SHOWN if SWITCH[choice] else HIDDEN)
    use = request.POST.get("use", "")
    if use.isdigit():
        try:
            scenario = selectors.scenario_get(user=request.user, pk=int(use))
        except Http404:
            scenario = None
        if scenario is not None and scenario.assessment_id == assessment.pk:
            return redirect("scenario-results", pk=scenario.pk)
    return redirect("assessment-detail", pk=assessment.pk)
