"""The template filters of number presentation; the rule itself is ``assessments.numbers``.

``sig`` (a computed number, three significant figures), ``epa`` (EPA's E-notation, for
the report), ``entered`` (an input as entered), ``quantity`` (a number with its units,
``{{ value|quantity:"sites" }}``) and ``percent`` (a fraction as a percentage).
``significant`` and ``epa`` stay importable from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from ..numbers import entered, epa, percent, quantity, significant
from ..presentation import medium_label

__all__ = ["epa", "significant"]

register = template.Library()

register.filter("sig", significant)
register.filter("epa", epa)
register.filter("entered", entered)
register.filter("quantity", quantity)
register.filter("percent", percent)


@register.filter
def get(mapping: Mapping[Any, Any] | None, key: object) -> object:
    """``{{ mapping|get:key }}``: a dictionary lookup with a variable key."""
    if mapping is None:
        return None
    return mapping.get(key)


@register.filter
def medium(value: str) -> str:
    """A medium key as a reviewer reads it: ``"water or incineration"`` -> ``Water or incineration``."""
    return medium_label(value)
