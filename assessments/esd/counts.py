"""Counts rounded up to whole numbers: sites, containers, lines, as every document asks.

ESD 2010 §3.5, footnote to Eqn 3-3 ("should be rounded up to the nearest integer value") and
§6.1.4 ("Round Nsites up to the next integer"); ESD 2015 §3.6 footnote 9 (N_sites "rounded up
to the nearest integer") and §6.1.4 (containers, 16.6 to 17, 18.5 to "~19"). One rule for
every scenario: the documents' counts are whole, and floating-point noise in an exact count
(3.0000000000000004 sites) must not add one.
"""

from __future__ import annotations

import math

#: Decimal places kept before rounding a count up (floating-point noise below 1e-9).
COUNT_TOLERANCE_DIGITS = 9


def round_up_count(value: float) -> int:
    """A count rounded up to a whole number, ignoring floating-point noise [-].

    ceil(x) after rounding x to :data:`COUNT_TOLERANCE_DIGITS` decimals, so
    3.0000000000000004 gives 3; a positive x is at least 1 (2e-12 sites is one site, not none).

    >>> round_up_count(2.5565843), round_up_count(3.0000000000000004), round_up_count(2923.977)
    (3, 3, 2924)
    >>> round_up_count(9.861), round_up_count(9.000000000001), round_up_count(16.5), round_up_count(4.5e-12)
    (10, 9, 17, 1)
    """
    whole = math.ceil(round(value, COUNT_TOLERANCE_DIGITS))
    return 1 if whole < 1 and value > 0 else whole
