"""Wizard step forms, generated from the engine's parameter declarations.

For each ``Param`` of a step the form has the value field and a reason field
(``reason_<symbol>``). The value is parsed and range-checked by the declaration itself
(``Param.coerce``/``Param.check``), so the form, the command line and the API give the
same message; an override without a reason is refused by the same rule the service
applies (``input_rules.clean_step_values``). Nothing about a parameter is typed here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.boundfield import BoundField, BoundWidget

from .. import input_rules
from ..esd import registry
from ..esd.parameters import CHOICE, INT, Param, cross_errors, each_input
from ..input_rules import default_text
from ..numbers import entered

REASON_PREFIX = "reason_"
PRESET_FIELD = "preset"
SEEN_FIELD = "seen"


def format_value(value: Any) -> str:
    """An input value as a form shows it for editing: as entered (:func:`numbers.entered`,
    ``0.15``, ``5,000``, ``1E-6``), every digit of the stored number, so a step saved again
    unchanged keeps its inputs (``parse_number`` reads the text back as the same number).

    >>> format_value(0.15), format_value(5000.0), format_value(1e-06), format_value(123.45678901234)
    ('0.15', '5,000', '1E-6', '123.45678901234')
    >>> from assessments.esd.parameters import parse_number
    >>> parse_number(format_value(1.7976931348623157e308)) == 1.7976931348623157e308
    True
    >>> format_value(None), format_value("liquid")
    ('', 'liquid')
    """
    return "" if value is None else entered(value)


def allowed_text(param: Param) -> str:
    """The allowed values as a step shows them: the range with its units; for a choice, a
    pointer to the listed choices (the field lists them by their labels)."""
    return param.allowed_text()


@dataclass(frozen=True)
class Row:
    """One input of a step as the template lays it out."""

    param: Param
    field: BoundField
    reason: BoundField
    default: str
    allowed: str
    applies: bool
    #: The ``applies_when`` condition as JSON for the browser (``""`` for an input that always applies).
    condition: str
    #: For a choice shown as radio buttons: ``[(radio, description)]``; else ``[]``.
    options: list[tuple[BoundWidget, str]]


class StepForm(forms.Form):
    """Base class; ``step_form_class`` makes one subclass per (scenario, step).

    ``saved_inputs``: the scenario's saved inputs, from which an input of another step
    that decides whether an input of this one applies is read (its default when not saved).
    An input that does not apply is shown hidden (the browser shows it when a choice on
    this step makes it apply) and, when the step is saved, neither checked nor changed.
    """

    scenario_key: str = ""
    step_key: str = ""
    params: tuple[Param, ...] = ()

    def __init__(self, *args: Any, saved_inputs: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.saved_inputs = dict(saved_inputs or {})

    def _values(self) -> dict[str, Any]:
        """This step's values as shown (posted, or the initial ones)."""
        return {p.symbol: self[p.symbol].value() for p in self.params}

    def applicable(self, values: Mapping[str, Any] | None = None) -> list[Param]:
        """This step's inputs that apply, with ``values`` (default: as shown) for this step."""
        return input_rules.applicable_step_params(
            scenario_key=self.scenario_key, step=self.step_key, inputs=self.saved_inputs,
            values=self._values() if values is None else values)

    def rows(self) -> list[Row]:
        """One :class:`Row` per input of the step, for the template."""
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["class"] = widget.attrs.get("class", "") + " is-invalid"
                widget.attrs["aria-invalid"] = "true"
        applying = {p.symbol for p in self.applicable()}
        rows = []
        for p in self.params:
            field = self[p.symbol]
            options: list[tuple[BoundWidget, str]] = []
            if isinstance(field.field.widget, forms.RadioSelect):
                descriptions = dict(p.choice_help)
                options = [(radio, descriptions.get(radio.data["value"], "")) for radio in field]
            rows.append(Row(
                param=p, field=field, reason=self[REASON_PREFIX + p.symbol], default=default_text(p),
                allowed=allowed_text(p), applies=p.symbol in applying,
                condition=json.dumps(p.applies_when.as_data()) if p.applies_when else "", options=options,
            ))
        return rows

    def saved_controls(self) -> str:
        """JSON of the saved values of the choices on other steps that decide whether an
        input of this step applies (only those that apply themselves), for the browser."""
        param_set = registry.get(self.scenario_key).params
        on_step = {p.symbol for p in self.params}
        wanted = {s for p in self.params if p.applies_when for s in p.applies_when.symbols} - on_step
        applying = param_set.applicable(self.saved_inputs)
        values = {}
        for symbol in sorted(wanted & applying):
            raw = self.saved_inputs.get(symbol)
            values[symbol] = param_set[symbol].default if raw in (None, "") else raw
        return json.dumps(values)

    def preset_field(self) -> BoundField | None:
        return self[PRESET_FIELD] if PRESET_FIELD in self.fields else None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None, "Form.clean returns the cleaned data"
        preset = registry.get(self.scenario_key).presets
        chosen = data.get(PRESET_FIELD)
        values = {p.symbol: self.data.get(self.add_prefix(p.symbol), "") for p in self.params}
        reasons = {p.symbol: data.get(REASON_PREFIX + p.symbol, "") for p in self.params}
        if chosen:
            chosen_preset = next(pr for pr in preset if pr.key == chosen)
            for symbol, value in chosen_preset.values.items():
                if symbol in values and _blank_or_default(self, symbol, values[symbol]):
                    values[symbol] = value
                    if not reasons.get(symbol):
                        reasons[symbol] = f"{chosen_preset.label} ({chosen_preset.source})"
        applying = self.applicable(values)
        for p in self.params:  # what was typed in a field that does not apply is ignored
            if p not in applying:
                for name in (p.symbol, REASON_PREFIX + p.symbol):
                    self.errors.pop(name, None)
        try:
            inputs, kept = input_rules.clean_step_values(applying, values, reasons)
        except ValidationError as exc:
            for key, messages in exc.message_dict.items():
                self.add_error(key if key in self.fields else None, messages)
            return data
        if self.errors:
            return data
        self._cross_check(applying, values)
        self.step_values = values
        self.step_reasons = reasons
        self.step_inputs, self.step_kept_reasons = inputs, kept
        return data

    def _cross_check(self, applying: list[Param], values: Mapping[str, Any]) -> None:
        """The scenario's checks spanning several inputs whose inputs are all on this step or
        the steps before it, each error on the field of this step it names, in words that
        name the inputs by their labels. A check that reads a later step's input, or whose
        error is on an earlier step's input, is left to the computation, which names the
        step to go back to."""
        param_set = registry.get(self.scenario_key).params
        on_step = {p.symbol: p for p in applying}
        merged = {k: v for k, v in self.saved_inputs.items() if k not in {p.symbol for p in self.params}}
        merged.update({k: v for k, v in values.items() if k in on_step})
        effective, problems = each_input(param_set, {k: v for k, v in merged.items() if k in param_set})
        if any(k in on_step for k in problems):
            return
        keys = [s.key for s in param_set.steps]
        upto = set(keys[:keys.index(self.step_key) + 1])
        within = {p.symbol for p in param_set.params if p.step in upto}
        for symbol, message in cross_errors(param_set, effective, within=within).items():
            if symbol in on_step:
                self.add_error(symbol, f"{on_step[symbol].label} {message}.")


def _blank_or_default(form: StepForm, symbol: str, raw: Any) -> bool:
    param = next(p for p in form.params if p.symbol == symbol)
    if raw in (None, ""):
        return True
    try:
        return param.coerce(raw) == param.default
    except ValueError:
        return False


#: A choice with descriptions is shown as radio buttons up to this many choices; a select beyond.
MAX_RADIOS = 6
#: The option of a choice input that may be left empty.
NOT_GIVEN = "Not given"


def _value_field(param: Param) -> forms.Field:
    """The form field of one input: a select (or radio buttons, for a short list of choices
    with descriptions) whose options read the choices' labels, grouped as the declaration
    groups them; a text field for a number. An input that applies only sometimes is never
    required by the field: the step's ``clean`` requires it when it applies."""
    help_text = f"Allowed: {allowed_text(param)}." + (f" Scale: {param.share_text}." if param.share_text else "")
    required = param.required and param.applies_when is None
    if param.kind == CHOICE:
        choices: list[tuple[Any, Any]] = (
            [(label, list(group)) for label, group in param.choice_groups] or list(param.choices)
        )
        if not param.required and param.default is None:
            choices = [("", NOT_GIVEN)] + choices
        if param.choice_help and len(param.choices) <= MAX_RADIOS and not param.choice_groups:
            widget: forms.Widget = forms.RadioSelect(attrs={"class": "form-check-input"})
        else:
            widget = forms.Select(attrs={"class": "form-select"})
        return forms.ChoiceField(label=param.label, choices=choices, required=required, help_text=help_text,
                                 widget=widget)
    attrs = {"inputmode": "numeric" if param.kind == INT else "decimal", "autocomplete": "off", "class": "form-control"}
    return forms.CharField(
        label=param.label, required=required, help_text=help_text, widget=forms.TextInput(attrs=attrs),
        max_length=40,
    )


@cache
def step_form_class(scenario_key: str, step_key: str) -> type[StepForm]:
    """The form class for one step of one scenario's wizard."""
    scenario = registry.get(scenario_key)
    params = tuple(scenario.params.for_step(step_key))
    fields: dict[str, forms.Field] = {SEEN_FIELD: forms.CharField(required=False, widget=forms.HiddenInput)}
    symbols = {p.symbol for p in params}
    presets = [pr for pr in scenario.presets if symbols & set(pr.values)]
    if presets:
        fields[PRESET_FIELD] = forms.ChoiceField(
            label="Parameter set",
            required=False,
            choices=[("", "Keep the values below")] + [(pr.key, pr.label) for pr in presets],
            help_text="Fills the inputs of this step that are at their defaults with a consistent set "
            + "of values from the document; values you typed are kept.",
            widget=forms.Select(attrs={"class": "form-select"}),
        )
    for param in params:
        fields[param.symbol] = _value_field(param)
        fields[REASON_PREFIX + param.symbol] = forms.CharField(
            label=f"Reason for {param.label}",
            required=False,
            max_length=500,
            help_text="Needed when the value differs from the default: the source of the value. "
                      "A reason given for any value is kept.",
            widget=forms.TextInput(attrs={"class": "form-control"}),
        )
    attrs = {"scenario_key": scenario_key, "step_key": step_key, "params": params, **fields}
    return type(f"StepForm_{scenario_key}_{step_key}".replace("-", "_"), (StepForm,), attrs)


def step_initial(params: tuple[Param, ...], inputs: dict[str, Any], reasons: dict[str, Any]) -> dict[str, str]:
    """Initial form values: the saved override where there is one, else the default."""
    initial: dict[str, str] = {}
    for p in params:
        initial[p.symbol] = format_value(inputs.get(p.symbol, p.default))
        if p.symbol in reasons:
            initial[REASON_PREFIX + p.symbol] = reasons[p.symbol]
    return initial
