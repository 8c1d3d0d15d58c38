"""One step-by-step wizard per scenario key, its steps generated from the engine's
declarations (``forms.scenarios.step_form_class``).

The database, not the session, holds the reviewer's work: each valid step is saved to
the scenario (``services.scenario_save_step``) and the forms start from what is saved
(``get_form_initial``), so a closed tab or an expired session loses nothing and the
wizard resumes after the last step saved. The session only keeps what was typed on a
step the reviewer left with "Back" or a step link, so going back keeps it. Finishing (the
last step's POST, or "Save and compute" on any step) computes the scenario from the saved
inputs (``services.scenario_compute``) in that POST; a GET never computes. A POST naming
a step the wizard does not have is a bad request (400).

Every wizard ends with the optional step "Submitter's site data" (``forms.site_data``):
EIIP site-specific air releases, stored as the engine's ``site_specific`` entries
(``services.scenario_save_site_data``); left at "No site data" it changes nothing.
"""

from __future__ import annotations

from collections import OrderedDict

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from formtools.wizard.views import NamedUrlSessionWizardView

from . import permissions, selectors, services
from .esd import registry
from .esd.parameters import ALL
from .esd.site_data import SITE_SPECIFIC
from .forms.scenarios import SEEN_FIELD, step_form_class, step_initial
from .forms.site_data import ADD_BUTTON, SHOW_BUTTON, SiteDataForm, initial_from_post, site_initial
from .site_data import SITE_STEP, SITE_STEP_INFO, release_choices

FINISH = "wizard_finish"
DONE = "done"
UNKNOWN_STEP = "This form names a step the wizard does not have; reload the page and try again."
COMPUTE_ON_POST = "Nothing was computed: use “Save and compute” to compute the use."


def wizard_form_list(scenario_key: str) -> OrderedDict:
    """The scenario's steps, then the optional "Submitter's site data" step (every scenario
    accepts the engine's ``site_specific`` entries)."""
    steps = registry.get(scenario_key).params.steps
    forms = OrderedDict((step.key, step_form_class(scenario_key, step.key)) for step in steps)
    if SITE_STEP in forms:
        raise RuntimeError(f"{scenario_key}: a step named {SITE_STEP!r} would hide the site-data step")
    forms[SITE_STEP] = SiteDataForm
    return forms


def wizard_steps(scenario_key: str) -> list:
    """The wizard's steps (``Step``: key, title, help), in order."""
    return list(registry.get(scenario_key).params.steps) + [SITE_STEP_INFO]


class ScenarioWizard(NamedUrlSessionWizardView):
    """The wizard of one scenario key; ``scenario_wizard`` picks it by the scenario."""

    template_name = "assessments/wizard.html"

    def dispatch(self, request, *args, **kwargs):
        self.scenario = selectors.scenario_get(user=request.user, pk=kwargs["pk"])
        if not permissions.can_edit_assessment(request.user, self.scenario.assessment):
            raise PermissionDenied(services.EDIT_ASSESSMENT_NOT_ALLOWED)
        return super().dispatch(request, *args, **kwargs)

    def get_prefix(self, request, *args, **kwargs):
        # Two open wizards (two scenarios) must not share session storage.
        return f"scenario-wizard-{kwargs['pk']}"

    def get_step_url(self, step):
        return reverse(self.url_name, kwargs={"pk": self.scenario.pk, "step": step})

    def get(self, *args, **kwargs):
        if kwargs.get("step") is None:
            return redirect(self.get_step_url(self.resume_step()))
        return super().get(*args, **kwargs)

    def resume_step(self) -> str:
        """The step after the last one saved (the first when none is, or all are)."""
        steps = list(self.get_form_list())
        saved = self.scenario.current_step
        if saved in steps and steps.index(saved) + 1 < len(steps) and not self.scenario.result:
            return steps[steps.index(saved) + 1]
        return steps[0]

    def get_form_initial(self, step):
        if step == SITE_STEP:
            initial = site_initial(self.scenario.inputs.get(SITE_SPECIFIC))
            initial[SEEN_FIELD] = services.step_token(self.scenario, step)
            return initial
        params = registry.get(self.scenario.scenario_key).params.for_step(step)
        initial = step_initial(tuple(params), self.scenario.inputs, self.scenario.reasons)
        initial[SEEN_FIELD] = services.step_token(self.scenario, step)
        return initial

    def get_form_kwargs(self, step=None):
        if step == SITE_STEP:
            if not hasattr(self, "_site_releases"):  # one engine run per request
                self._site_releases = release_choices(self.scenario)
            return {"releases": self._site_releases}
        # The saved inputs decide which of the step's inputs apply (a choice on another step).
        return {**super().get_form_kwargs(step), "saved_inputs": self.scenario.inputs}

    def get_form(self, step=None, data=None, files=None):
        step = step or self.steps.current
        if data is not None and self.request.method == "GET":
            # What was typed, shown again: it continues from the step as saved now.
            data = data.copy()
            data[f"{self.get_form_prefix(step)}-{SEEN_FIELD}"] = services.step_token(self.scenario, step)
        return super().get_form(step=step, data=data, files=files)

    def post(self, *args, **kwargs):
        posted_step = self.request.POST.get(f"{self.prefix}-current_step")
        goto = self.request.POST.get("wizard_goto_step")
        steps = self.get_form_list()
        if posted_step not in steps or (goto and goto not in steps):
            return HttpResponseBadRequest(UNKNOWN_STEP)
        # The step posted is the step saved, even when this session's wizard storage has
        # none (ended by a compute, or a second tab): formtools would take the first step.
        self.storage.current_step = posted_step
        if posted_step == SITE_STEP and (SHOW_BUTTON in self.request.POST or ADD_BUTTON in self.request.POST):
            return self.render_site_data_again()
        try:
            return super().post(*args, **kwargs)
        except ValidationError as exc:  # refused by the service (e.g. the step changed since)
            form = self.get_form(data=self.request.POST, files=self.request.FILES)
            form.is_valid()
            form.add_error(None, exc)
            return self.render(form)

    def render_site_data_again(self):
        """The site-data step shown again with what was typed, unsaved and unchecked: with the
        chosen method's inputs ("Show this method's inputs", the no-JavaScript way) or with
        one more entry ("Add another entry")."""
        prefix = self.get_form_prefix(SITE_STEP, SiteDataForm)
        initial = initial_from_post(self.request.POST, prefix, add=ADD_BUTTON in self.request.POST)
        form = SiteDataForm(prefix=prefix, initial=initial, **self.get_form_kwargs(SITE_STEP))
        return self.render(form)

    def render_goto_step(self, goto_step, **kwargs):
        # Keep what was typed on the step being left, valid or not; it is shown again
        # (with its errors) when the reviewer comes back to it.
        current = self.storage.current_step
        if current in self.get_form_list():
            self.storage.set_step_data(current, self.request.POST)
        return super().render_goto_step(goto_step, **kwargs)

    def process_step(self, form):
        if self.steps.current == SITE_STEP:
            self.scenario = services.scenario_save_site_data(
                scenario=self.scenario,
                by=self.request.user,
                entries=form.step_entries,
                seen_token=form.cleaned_data.get(SEEN_FIELD) or None,
            )
            return super().process_step(form)
        self.scenario = services.scenario_save_step(
            scenario=self.scenario,
            by=self.request.user,
            step=self.steps.current,
            values=form.step_values,
            reasons=form.step_reasons,
            seen_token=form.cleaned_data.get(SEEN_FIELD) or None,
        )
        return super().process_step(form)

    def render_next_step(self, form, **kwargs):
        if FINISH in self.request.POST:
            return self.render_done(form, **kwargs)
        return super().render_next_step(form, **kwargs)

    def render_done(self, form, **kwargs):
        """Compute the scenario: only in a POST (the last step, or "Save and compute");
        the ``done`` URL opened with GET goes back to the wizard."""
        if self.request.method != "POST":
            messages.info(self.request, COMPUTE_ON_POST)
            return redirect(self.get_step_url(self.resume_step()))
        try:
            services.scenario_compute(scenario=self.scenario, by=self.request.user)
        except ValidationError as exc:
            return self._compute_failed(exc)
        self.storage.reset()
        messages.success(self.request, f"{self.scenario.title}: computed.")
        return redirect("scenario-results", pk=self.scenario.pk)

    def _compute_failed(self, exc: ValidationError):
        params = registry.get(self.scenario.scenario_key).params
        first_step = None
        for symbol, texts in exc.message_dict.items():
            label = params[symbol].label if symbol in params else (symbol if symbol != ALL else "Inputs")
            if symbol.startswith(f"{SITE_SPECIFIC}["):  # site_specific[0].replaces -> Site data entry 1, replaces
                place, _, name = symbol.partition(".")
                number = place[len(SITE_SPECIFIC) + 1:-1]
                label = f"{SITE_STEP_INFO.title}, entry {int(number) + 1 if number.isdigit() else number}" + (
                    f", {name}" if name else "")
            messages.error(self.request, f"{label}: {' '.join(texts)}")
            if first_step is None and symbol in params:
                first_step = params[symbol].step
            elif first_step is None and symbol.startswith(f"{SITE_SPECIFIC}["):
                first_step = SITE_STEP
        return redirect(self.get_step_url(first_step or self.steps.first))

    def get_context_data(self, form, **kwargs):
        context = super().get_context_data(form=form, **kwargs)
        steps = wizard_steps(self.scenario.scenario_key)
        context.update(
            scenario=self.scenario,
            assessment=self.scenario.assessment,
            spec=registry.get(self.scenario.scenario_key),
            step_list=[(s.key, s.title) for s in steps],
            step_info=next(s for s in steps if s.key == self.steps.current),
            finish_name=FINISH,
            site_step=SITE_STEP,
            site_show=SHOW_BUTTON,
            site_add=ADD_BUTTON,
        )
        return context


_VIEWS: dict[str, object] = {}


def _view_for(scenario_key: str):
    if scenario_key not in _VIEWS:
        _VIEWS[scenario_key] = ScenarioWizard.as_view(
            form_list=list(wizard_form_list(scenario_key).items()),
            url_name="scenario-wizard-step",
            done_step_name=DONE,
        )
    return _VIEWS[scenario_key]


def scenario_wizard(request, pk: int, step: str | None = None):
    """Route to the wizard of the scenario's key."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    return _view_for(scenario.scenario_key)(request, pk=pk, step=step)
