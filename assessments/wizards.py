"""One step-by-step wizard per use (scenario): its steps generated from the engine's
declarations (``forms.scenarios.step_form_class``), then the optional "Submitter's site
data" step (``forms.site_data``: EIIP site-specific air releases, stored as the engine's
``site_specific`` entries; left at "No site data" it changes nothing).

A step is a plain view because the database already holds the reviewer's draft: each valid
step is saved to the use (``services.scenario_save_step``), every step's page starts from
what is saved, and the address names the step, so a closed tab, an expired session, a
second tab or the browser's Back button loses nothing, and no wizard state has to be kept
beside the draft. A GET shows the step's form; a POST checks the same form, saves it
through the service and goes to the next step, or computes the use from its saved inputs
(``services.scenario_compute``) when it is the last step or "Save and compute" was
pressed; a GET never computes. The session keeps one thing only: what was typed on a step
left with "Back" or a step link without saving, shown again when the reviewer comes back
to it. Each form carries its step's token, so a step changed in another tab since the form
was shown is refused rather than silently undone; a step the use does not have is a 404,
and a form that does not name the step of its address a 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.datastructures import MultiValueDict
from django.views.decorators.http import require_http_methods

from reviewer.http import AuthenticatedHttpRequest

from . import case_links, input_rules, permissions, selectors, services
from .esd import registry
from .esd.parameters import ALL, Step
from .esd.site_data import SITE_SPECIFIC
from .events import What, shown
from .forms.binding import add_service_errors
from .forms.scenarios import SEEN_FIELD, StepForm, step_form_class, step_initial
from .forms.site_data import ADD_BUTTON, SHOW_BUTTON, SiteDataForm, initial_from_post, site_initial
from .models import Scenario
from .site_data import SITE_STEP, SITE_STEP_INFO, release_choices

FINISH = "wizard_finish"
GOTO = "wizard_goto_step"
UNKNOWN_STEP = "This form names a step the wizard does not have; reload the page and try again."
NO_SUCH_STEP = "This use has no such step."


def wizard_steps(scenario_key: str) -> list[Step]:
    """The wizard's steps (``Step``: key, title, help), in order: the scenario's own, then
    "Submitter's site data" (every scenario accepts the engine's ``site_specific`` entries)."""
    steps = list(registry.get(scenario_key).params.steps)
    if any(step.key == SITE_STEP for step in steps):
        raise RuntimeError(f"{scenario_key}: a step named {SITE_STEP!r} would hide the site-data step")
    return steps + [SITE_STEP_INFO]


def step_field(scenario: Scenario) -> str:
    """The hidden field naming the step a form was shown for: it must be the address's step."""
    return f"scenario-wizard-{scenario.pk}-current_step"


def _step_url(scenario: Scenario, step: str) -> str:
    return reverse("scenario-wizard-step", kwargs={"pk": scenario.pk, "step": step})


def _typed_key(scenario: Scenario) -> str:
    """The session key of what was typed on the use's steps and left unsaved."""
    return f"scenario-wizard-{scenario.pk}-typed"


@require_http_methods(["GET", "POST"])
def scenario_wizard(request: AuthenticatedHttpRequest, pk: int, step: str | None = None) -> HttpResponse:
    """A step of the use's wizard; without a step, the step after the last one saved (the
    first when none is, or when the use has been computed since)."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if not permissions.can_edit_assessment(request.user, scenario.assessment):
        raise PermissionDenied(services.EDIT_ASSESSMENT_NOT_ALLOWED)
    steps = {s.key: s.title for s in wizard_steps(scenario.scenario_key)}
    keys = list(steps)
    if step is None:
        saved = scenario.current_step
        resume = keys[keys.index(saved) + 1] if saved in keys[:-1] and not scenario.result else keys[0]
        return redirect(_step_url(scenario, resume))
    if step not in keys:
        raise Http404(NO_SUCH_STEP)
    if request.method == "POST":
        return _post(request, scenario, keys, step)
    shown(what=What.USE_WIZARD, request=request, assessment=scenario.assessment,
          detail=f"{scenario.title}, step “{steps[step]}”")
    typed = request.session.get(_typed_key(scenario), {}).get(step)
    data = None
    if typed:  # what was typed, shown again: it continues from the step as saved now
        data = MultiValueDict(typed)
        data[f"{step}-{SEEN_FIELD}"] = input_rules.step_token(scenario, step)
    return _render(request, scenario, keys, step, step_form(scenario, step, data))


def _post(request: AuthenticatedHttpRequest, scenario: Scenario, keys: list[str], step: str) -> HttpResponse:
    goto = request.POST.get(GOTO)
    if request.POST.get(step_field(scenario)) != step or (goto and goto not in keys):
        return HttpResponseBadRequest(UNKNOWN_STEP)
    if step == SITE_STEP and (SHOW_BUTTON in request.POST or ADD_BUTTON in request.POST):
        # Shown again unsaved and unchecked: with the chosen method's inputs ("Show this
        # method's inputs", the no-JavaScript way) or with one more entry ("Add another entry").
        initial = initial_from_post(request.POST, step, add=ADD_BUTTON in request.POST)
        site_form = SiteDataForm(prefix=step, initial=initial, releases=release_choices(scenario))
        return _render(request, scenario, keys, step, site_form)
    if goto:  # "Back" or a step link: what was typed here is kept, valid or not, unsaved
        typed = request.session.get(_typed_key(scenario), {})
        typed[step] = {name: request.POST.getlist(name) for name in request.POST if name.startswith(f"{step}-")}
        request.session[_typed_key(scenario)] = typed
        return redirect(_step_url(scenario, goto))
    form = step_form(scenario, step, request.POST)
    if not form.is_valid():
        return _render(request, scenario, keys, step, form)
    seen = form.cleaned_data.get(SEEN_FIELD) or None
    try:
        if isinstance(form, SiteDataForm):  # the form of SITE_STEP
            scenario = services.scenario_save_site_data(
                scenario=scenario, by=request.user, entries=form.step_entries, seen_token=seen)
        else:
            scenario = services.scenario_save_step(
                scenario=scenario, by=request.user, step=step, values=form.step_values,
                reasons=form.step_reasons, seen_token=seen)
    except ValidationError as exc:  # refused by the service (e.g. the step changed since)
        add_service_errors(form, exc)
        return _render(request, scenario, keys, step, form)
    typed = request.session.get(_typed_key(scenario), {})
    if typed.pop(step, None) is not None:
        request.session[_typed_key(scenario)] = typed
    if FINISH in request.POST or step == keys[-1]:
        return _compute(request, scenario)
    return redirect(_step_url(scenario, keys[keys.index(step) + 1]))


def step_form(scenario: Scenario, step: str, data: Mapping[str, Any] | None = None) -> StepForm | SiteDataForm:
    """The step's form: bound to ``data`` when given, its initial values the saved draft."""
    if step == SITE_STEP:
        initial = site_initial(scenario.inputs.get(SITE_SPECIFIC))
        initial[SEEN_FIELD] = input_rules.step_token(scenario, step)
        return SiteDataForm(data, prefix=step, initial=initial, releases=release_choices(scenario))
    params = tuple(registry.get(scenario.scenario_key).params.for_step(step))
    initial = step_initial(params, scenario.inputs, scenario.reasons)
    initial[SEEN_FIELD] = input_rules.step_token(scenario, step)
    form_class = step_form_class(scenario.scenario_key, step)
    # The saved inputs decide which of the step's inputs apply (a choice on another step).
    return form_class(data, prefix=step, initial=initial, saved_inputs=scenario.inputs)


def _compute(request: AuthenticatedHttpRequest, scenario: Scenario) -> HttpResponse:
    """Compute the use from its saved inputs: to its results, or to the step of the first
    input that stops the computation, each problem named in a message."""
    try:
        services.scenario_compute(scenario=scenario, by=request.user)
    except ValidationError as exc:
        params = registry.get(scenario.scenario_key).params
        first_step = None
        for symbol, texts in exc.message_dict.items():
            label = params[symbol].label if symbol in params else (symbol if symbol != ALL else "Inputs")
            if symbol.startswith(f"{SITE_SPECIFIC}["):  # site_specific[0].replaces -> Site data entry 1, replaces
                place, _, name = symbol.partition(".")
                number = place[len(SITE_SPECIFIC) + 1:-1]
                label = f"{SITE_STEP_INFO.title}, entry {int(number) + 1 if number.isdigit() else number}" + (
                    f", {name}" if name else "")
                first_step = first_step or SITE_STEP
            elif symbol in params:
                first_step = first_step or params[symbol].step
            messages.error(request, f"{label}: {' '.join(texts)}")
        return redirect(_step_url(scenario, first_step or params.steps[0].key))
    request.session.pop(_typed_key(scenario), None)
    messages.success(request, f"{scenario.title}: computed.")
    return redirect("scenario-results", pk=scenario.pk)


def _render(
    request: AuthenticatedHttpRequest, scenario: Scenario, keys: list[str], step: str, form: StepForm | SiteDataForm
) -> HttpResponse:
    steps = wizard_steps(scenario.scenario_key)
    i = keys.index(step)
    position = SimpleNamespace(current=step, step1=i + 1, count=len(keys), prev=keys[i - 1] if i else None,
                               next=keys[i + 1] if i + 1 < len(keys) else None)
    return render(request, "assessments/wizard.html", {
        "wizard": {"form": form, "steps": position},
        "scenario": scenario,
        "assessment": scenario.assessment,
        "spec": registry.get(scenario.scenario_key),
        "step_list": [(s.key, s.title) for s in steps],
        "step_info": next(s for s in steps if s.key == step),
        "step_field": step_field(scenario),
        "goto_name": GOTO,
        "finish_name": FINISH,
        "site_step": SITE_STEP,
        "site_show": SHOW_BUTTON,
        "site_add": ADD_BUTTON,
        "reason_flags": case_links.scenario_reason_flags(scenario=scenario),
    })
