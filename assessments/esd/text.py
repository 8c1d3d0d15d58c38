"""Numbers in the sentences a reviewer reads (``basis``, notes, warnings).

The engine keeps full precision in every number field; only the prose rounds.
"""

from __future__ import annotations


def num(x: float, sig: int = 3) -> str:
    """A number for prose: whole numbers with thousands separators, else ``sig`` figures.

    >>> num(2924), num(360.0), num(4.6018519), num(0.0277778), num(5000.4), num(2.5566)
    ('2,924', '360', '4.60', '0.0278', '5,000', '2.56')
    >>> num(1.5e-7)
    '1.50e-07'
    """
    value = float(x)
    if value.is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    if abs(value) >= 1_000:
        return f"{value:,.0f}"
    text = f"{value:#.{sig}g}"
    if "e" in text:
        return f"{value:.{sig - 1}e}"
    return text.rstrip(".")


def given(x: float) -> str:
    """An input as entered (no padding zeros).

    >>> given(0.07), given(1.0), given(0.006)
    ('0.07', '1', '0.006')
    """
    return f"{float(x):g}"


def share(part: float, whole: float) -> str:
    """``part`` as a percentage of ``whole``, to four significant figures.

    >>> share(5030.18, 5000), share(5000, 5000), share(6176.3, 5000)
    ('100.6 %', '100 %', '123.5 %')
    """
    return f"{100 * part / whole:.4g} %"


def change(x: float) -> str:
    """A relative difference for prose: signed, and 0 for floating-point noise.

    >>> change(0.0060362), change(-0.006), change(-2.2e-16)
    ('+0.604 %', '-0.6 %', '0 %')
    """
    if abs(x) < 5e-9:
        return "0 %"
    return f"{100 * x:+.3g} %"


def figure(x: float) -> str:
    """A number for a sentence: three significant figures, thousands separated, no
    padding zeros (unlike :func:`num`); the CVD scenario's sentences print numbers so.

    >>> figure(2.8), figure(2.7777778), figure(1234.5), figure(0.52), figure(1.5e-7)
    ('2.8', '2.78', '1,234', '0.52', '1.5e-07')
    """
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"
