"""How a stored value and an input read on the pages: a field's value (:func:`value_text`),
an input by its label (:func:`input_label`), the reason given for it (:func:`reason_label`)
and its value (:func:`input_text`), by the engine's declarations of the scenario's inputs
(:func:`declared_params`). The change history (``assessments.timeline``), the comparison of
two revisions (``assessments.comparison``) and the inputs linked to the case
(``assessments.case_links``) read them alike.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import timezone

from .esd import registry
from .esd.parameters import ParamSet
from .esd.site_data import SITE_SPECIFIC
from .numbers import entered
from .site_data import SITE_STEP_TITLE, entries_text


def value_text(value: object) -> str:
    """A stored field's value as the page shows it: numbers as entered (with separators,
    E-notation by the one rule), times in the site's time zone to the minute."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float)):
        return entered(value)
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if timezone.is_aware(value) else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return ", ".join(value_text(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key}: {value_text(item)}" for key, item in sorted(value.items(), key=lambda kv: str(kv[0])))
    return str(value)


def input_label(params: ParamSet | None, symbol: str) -> str:
    """An input as a reviewer reads it: its label and, after it, its symbol
    (``<label> (<symbol>)``); the symbol alone when the engine does not declare it."""
    if params is not None and symbol in params:
        param = params[symbol]
        return f"{param.label} ({param.shown_symbol})" if param.shown_symbol else param.label
    if symbol == SITE_SPECIFIC:
        return f"{SITE_STEP_TITLE} (EIIP)"
    return f"Input {symbol}"


def reason_label(params: ParamSet | None, symbol: str) -> str:
    """The reason given for an input: ``Reason: <label> (<symbol>)``."""
    return f"Reason: {input_label(params, symbol).removeprefix('Input ')}"


def input_text(key: str, value: Any, params: ParamSet | None = None) -> str:
    """A stored input as text: a number as entered with its units, a choice by its name, the
    submitter's site data (a list of entries) as sentences; an input not stored (``None``)
    is its declared default, said so (``250 days/yr (default)``)."""
    if key == SITE_SPECIFIC and value is not None:
        return entries_text(value)
    param = params[key] if params is not None and key in params else None
    if value is None:
        if param is not None and param.default is not None:
            return f"{input_text(key, param.default, params)} (default)"
        return ""
    if param is not None and param.choices and not isinstance(value, (list, dict)):
        return str(dict(param.choices).get(value, value))
    if param is not None and param.units and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{entered(value)} {param.units}"
    return value_text(value)


def declared_params(scenario_key: str) -> ParamSet | None:
    """The engine's declarations of a scenario's inputs, or ``None`` when this
    installation's engine does not know the key (an imported case, an old method)."""
    try:
        return registry.get(scenario_key).params
    except Exception:  # unknown key, or an engine module that fails to load
        return None
