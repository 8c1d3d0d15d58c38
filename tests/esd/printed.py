"""How the tests compare a computed value with a figure a document prints."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def rounds_to(value: float, printed: str) -> bool:
    """``value`` rounded half-up to the decimals of ``printed`` reads as printed ("4.60", "2,924").

    Stricter than the method-validation page's ``verification.compare.matches``, which reads a
    whole number's trailing zeros as rounding ("290" for 294): here "290" is 290 exactly.

    >>> rounds_to(4.6018519, "4.60"), rounds_to(2923.977, "2,924"), rounds_to(294.0, "290")
    (True, True, False)
    """
    text = printed.replace(",", "")
    decimals = len(text.split(".")[1]) if "." in text else 0
    quantum = Decimal(1).scaleb(-decimals)
    return Decimal(repr(float(value))).quantize(quantum, rounding=ROUND_HALF_UP) == Decimal(text)
