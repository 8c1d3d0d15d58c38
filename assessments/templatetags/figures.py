"""Number presentation: significant figures for pages, EPA's E-notation for reports.

The engine keeps full precision; rounding happens only here.
"""

from __future__ import annotations

import math

from django import template

register = template.Library()


def significant(value, digits: int = 3) -> str:
    """``value`` to ``digits`` significant figures, without a float tail.

    >>> significant(4.6018518), significant(2923.98), significant(0.0277778), significant(5000.0)
    ('4.6', '2,924', '0.0278', '5,000')
    >>> significant(1.0e-6), significant(0), significant(None), significant(3)
    ('1.00E-6', '0', '—', '3')
    """
    if value is None or value == "":
        return "—"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or (float(value).is_integer() and abs(value) >= 1):
        return f"{int(value):,}" if abs(value) < 1e15 else epa(value, digits)
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude < -4 or magnitude >= 15:
        return epa(value, digits)
    decimals = max(digits - 1 - magnitude, 0)
    text = f"{round(value, decimals):,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def epa(value, digits: int = 2) -> str:
    """E-notation with ``digits`` significant figures, as EPA's IRER prints numbers.

    >>> epa(0.1605), epa(57.78), epa(4.63), epa(5000), epa(0.0277778), epa(0)
    ('1.6E-1', '5.8E+1', '4.6E+0', '5.0E+3', '2.8E-2', '0.0E+0')
    """
    if value is None:
        return "—"
    mantissa, exponent = f"{float(value):.{digits - 1}E}".split("E")
    return f"{mantissa}E{int(exponent):+d}"


register.filter("sig", significant)
register.filter("epa", epa)


@register.filter
def get(mapping, key):
    """``{{ mapping|get:key }}``: a dictionary lookup with a variable key."""
    if mapping is None:
        return None
    return mapping.get(key)


@register.filter
def medium(value: str) -> str:
    """A medium key as a reviewer reads it: ``"water or incineration"`` -> ``Water or incineration``."""
    from ..selectors import medium_label

    return medium_label(value)
