"""The report's words for a use's releases: the page that edits Scenario.release_texts."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from reviewer.http import AuthenticatedHttpRequest

from . import permissions, selectors, services
from .forms.binding import add_service_errors, posted
from .forms.release_texts import ReleaseTextsForm
from .reports.releases import release_groups_texts


@require_http_methods(["GET", "POST"])
def scenario_release_texts(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if not permissions.can_edit_assessment(request.user, scenario.assessment):
        raise PermissionDenied(services.EDIT_ASSESSMENT_NOT_ALLOWED)
    if not scenario.result:
        messages.info(request, "This use has not been computed yet: finish its wizard first.")
        return redirect("scenario-wizard", pk=scenario.pk)
    releases, defaults = release_groups_texts(scenario)
    form = ReleaseTextsForm(posted(request), releases=releases,
                            texts=scenario.release_texts or {}, defaults=defaults)
    if form.is_valid():
        try:
            services.scenario_update_release_texts(scenario=scenario, by=request.user, texts=form.texts())
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, "The report's words for the releases are saved.")
            return redirect("scenario-results", pk=scenario.pk)
    return render(request, "assessments/release_texts.html",
                  {"scenario": scenario, "assessment": scenario.assessment, "form": form,
                   "rows": [(r, [form[f"to_{r['number']}"], form[f"basis_{r['number']}"]]) for r in releases]})
