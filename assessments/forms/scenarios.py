"""Wizard step forms, generated from the engine's parameter declarations.

For each ``Param`` of a step the form has the value field and a reason field
(``reason_<symbol>``). The value is parsed and range-checked by the declaration itself
(``Param.coerce``/``Param.check``), so the form, the command line and the API give the
same message; an override without a reason is refused by the same rule the service
applies (``services.clean_step_values``). Nothing about a parameter is typed here.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from .. import services
from ..esd import registry
from ..esd.parameters import CHOICE, INT, Param

REASON_PREFIX = "reason_"
PRESET_FIELD = "preset"
SEEN_FIELD = "seen"


def format_value(value: Any) -> str:
    """An input value as a reviewer types it: ``0.15``, ``5000``, ``1e-06``; exactly the
    stored number (the shortest text that reads back as it), so a step saved again
    unchanged keeps its inputs (ten significant digits would round 123.45678901234 to
    123.456789, and 1.7976931348623157e308 up to infinity).

    >>> format_value(0.15), format_value(5000.0), format_value(1e-06), format_value(123.45678901234)
    ('0.15', '5000', '1e-06', '123.45678901234')
    >>> float(format_value(1.7976931348623157e308)) == 1.7976931348623157e308
    True
    """
    if value is None:
        return ""
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def default_text(param: Param) -> str:
    if param.default is None:
        return "none: computed when left empty" if not param.required else "none: required"
    if param.kind == CHOICE:
        return dict(param.choices).get(param.default, str(param.default))
    return f"{format_value(param.default)} {param.units}".strip()


class StepForm(forms.Form):
    """Base class; ``step_form_class`` makes one subclass per (scenario, step)."""

    scenario_key: str = ""
    step_key: str = ""
    params: tuple[Param, ...] = ()

    def rows(self):
        """``[(param, value field, reason field, default text)]`` for the template."""
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["class"] = widget.attrs.get("class", "") + " is-invalid"
                widget.attrs["aria-invalid"] = "true"
        return [
            (p, self[p.symbol], self[REASON_PREFIX + p.symbol], default_text(p)) for p in self.params
        ]

    def preset_field(self):
        return self[PRESET_FIELD] if PRESET_FIELD in self.fields else None

    def clean(self):
        data = super().clean()
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
        try:
            inputs, kept = services.clean_step_values(list(self.params), values, reasons)
        except ValidationError as exc:
            for key, messages in exc.message_dict.items():
                self.add_error(key if key in self.fields else None, messages)
            return data
        self.step_values = values
        self.step_reasons = reasons
        self.step_inputs, self.step_kept_reasons = inputs, kept
        return data


def _blank_or_default(form: StepForm, symbol: str, raw: Any) -> bool:
    param = next(p for p in form.params if p.symbol == symbol)
    if raw in (None, ""):
        return True
    try:
        return param.coerce(raw) == param.default
    except ValueError:
        return False


def _value_field(param: Param) -> forms.Field:
    help_text = f"{param.units}. Allowed: {param.range_text()}." if param.units else f"Allowed: {param.range_text()}."
    if param.kind == CHOICE:
        choices = list(param.choices)
        if not param.required and param.default is None:
            choices = [("", "Not given")] + choices
        return forms.ChoiceField(
            label=param.label, choices=choices, required=param.required, help_text=help_text,
            widget=forms.Select(attrs={"class": "form-select"}),
        )
    attrs = {"inputmode": "numeric" if param.kind == INT else "decimal", "autocomplete": "off", "class": "form-control"}
    return forms.CharField(
        label=param.label, required=param.required, help_text=help_text, widget=forms.TextInput(attrs=attrs),
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
            label=f"Reason for {param.symbol}",
            required=False,
            max_length=500,
            help_text="Needed when the value differs from the default: the source of the value.",
            widget=forms.TextInput(attrs={"class": "form-control"}),
        )
    attrs = {"scenario_key": scenario_key, "step_key": step_key, "params": params, **fields}
    return type(f"StepForm_{scenario_key}_{step_key}".replace("-", "_"), (StepForm,), attrs)


def step_initial(params: tuple[Param, ...], inputs: dict, reasons: dict) -> dict[str, str]:
    """Initial form values: the saved override where there is one, else the default."""
    initial: dict[str, str] = {}
    for p in params:
        initial[p.symbol] = format_value(inputs.get(p.symbol, p.default))
        if p.symbol in reasons:
            initial[REASON_PREFIX + p.symbol] = reasons[p.symbol]
    return initial
