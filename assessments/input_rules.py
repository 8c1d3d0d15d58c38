"""The wizard's input rules: which inputs of a step apply, how each typed value is read and
checked, when a value needs a reason, the words for a default, and the fingerprint of what a
step holds. Read by the services that save a step (``services.scenario_save_step``), the
wizard's forms, the case links, the import and the API: every way in checks an input with
this code. Nothing here writes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from .esd import registry
from .esd.parameters import CHOICE, EngineValidationError, Param
from .esd.site_data import SITE_SPECIFIC, parse_entries
from .esd.site_data import STEP as SITE_STEP
from .models import Scenario
from .numbers import NOT_GIVEN, entered, unit_for

REASON_REQUIRED = "Give a reason for changing the default ({default})."
REASON_REQUIRED_NO_DEFAULT = "Give the source of this value (left empty: {if_empty})."


def needs_reason(param: Param, value: Any) -> bool:
    """An input needs a reason when it differs from the document's default, or when it
    replaces a quantity the document would compute (an optional input given)."""
    if value is None:
        return False
    if param.default is None:
        return not param.required
    return bool(value != param.default)


def clean_step_values(
    params: list[Param], values: Mapping[str, Any], reasons: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Validate one wizard step: each value against its declaration, and a reason for
    each override. Returns ``(inputs, reasons)``: the inputs that differ from the
    defaults, and every reason given (one typed beside a default, a required input or a
    value from the case is kept too); raises ``ValidationError`` keyed by symbol
    (``reason_SYMBOL`` for a missing reason)."""
    errors: dict[str, str] = {}
    inputs: dict[str, Any] = {}
    kept_reasons: dict[str, str] = {}
    for param in params:
        typed = (reasons.get(param.symbol) or "").strip()
        if typed:
            kept_reasons[param.symbol] = typed
        raw = values.get(param.symbol)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if param.required:
                errors[param.symbol] = f"This input is required ({param.allowed_text()})."
            continue
        try:
            value = param.coerce(raw)
        except ValueError as exc:
            errors[param.symbol] = f"{param.label} {exc}."
            continue
        message = param.check(value)
        if message:
            errors[param.symbol] = f"{param.label} {message}."
            continue
        if param.default is not None and value == param.default:
            continue  # left at (or returned to) the default: stays linked to it
        inputs[param.symbol] = param.as_input(value)  # a confirmed 0.9 % stays "0.9%": read again alike
        if needs_reason(param, value) and not typed:
            errors[f"reason_{param.symbol}"] = (
                REASON_REQUIRED.format(default=default_text(param))
                if param.default is not None
                else REASON_REQUIRED_NO_DEFAULT.format(if_empty=param.if_empty or NOT_GIVEN)
            )
    if errors:
        raise ValidationError(errors)
    return inputs, kept_reasons


def default_text(param: Param) -> str:
    """An input's default in words: the value as entered with its units, a choice's label,
    or, for an input without one, that it is required or what happens when it is left empty.

    >>> from assessments.esd.parameters import Param
    >>> default_text(Param("N", "Sites", "sites", None, "doc", "s", if_empty="computed by Eqn 3-3"))
    'none: computed by Eqn 3-3'
    >>> default_text(Param("Q", "Volume", "kg/yr", None, "doc", "s", required=True))
    'none: required'
    >>> default_text(Param("F", "Fraction", "kg/kg", 0.4, "doc", "s")), default_text(Param("V", "Volume", "L", 5000.0, "doc", "s"))
    ('0.4 kg/kg', '5,000 L')
    """
    if param.default is None:
        if param.required:
            return "none: required"
        return f"none: {param.if_empty}" if param.if_empty else "none"
    if param.kind == CHOICE:
        return param.choice_label(param.default)
    return f"{entered(param.default)} {unit_for(param.default, param.units)}".strip()


def applicable_step_params(
    *, scenario_key: str, step: str, inputs: Mapping[str, Any], values: Mapping[str, Any]
) -> list[Param]:
    """The inputs of one wizard step that apply (``Param.applies_when``): decided by the
    step's ``values`` and, for a choice on another step, the saved ``inputs``."""
    param_set = registry.get(scenario_key).params
    step_params = param_set.for_step(step)
    on_step = {p.symbol for p in step_params}
    merged = {k: v for k, v in inputs.items() if k not in on_step} | {k: v for k, v in values.items() if k in on_step}
    applying = param_set.applicable(merged)
    return [p for p in step_params if p.symbol in applying]


def step_token(scenario: Scenario, step: str) -> str:
    """A fingerprint of what one wizard step holds (its inputs and reasons). A form
    carries the token it was shown with; if the step changed since (another tab, another
    session), saving the form would silently undo that change, so it is refused."""
    if step == SITE_STEP:  # the "Submitter's site data" step holds the site_specific entries
        state: dict[str, Any] = {SITE_SPECIFIC: scenario.inputs.get(SITE_SPECIFIC)}
    else:
        symbols = sorted(p.symbol for p in registry.get(scenario.scenario_key).params.for_step(step))
        state = {s: [scenario.inputs.get(s), scenario.reasons.get(s)] for s in symbols}
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:32]


def clean_site_entries(entries: Any) -> list[dict[str, Any]]:
    """The "Submitter's site data" as stored: each entry validated by the engine
    (``esd.site_data.parse_entries``, so the messages are the command line's and the
    import's, keyed ``site_specific[i].SYMBOL``), its inputs as the engine reads them, an
    input at its default left out (it stays linked to the default), a blank activity left
    out. A percentage between 0 and 1 % is stored as the text confirmed (``"0.9%"``,
    ``Param.as_input``), so the computation reads it again as 0.9 %, not asking.
    Raises ``ValidationError`` keyed as the engine keys its errors."""
    try:
        parsed = parse_entries(entries)
    except EngineValidationError as exc:
        raise ValidationError(exc.errors) from None
    stored = []
    for raw, entry in zip(entries or [], parsed):
        given = [p for p in entry.method.params.params if p.symbol in raw.get("inputs", {})]
        row: dict[str, Any] = {
            "method": entry.method.key,
            "inputs": {p.symbol: p.as_input(entry.inputs[p.symbol]) for p in given
                       if entry.inputs[p.symbol] is not None and entry.inputs[p.symbol] != p.default},
            "replaces": entry.replaces,
            "source": entry.source,
        }
        if entry.activity and entry.activity.strip():
            row["activity"] = entry.activity.strip()
        stored.append(row)
    return stored
