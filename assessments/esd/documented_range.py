"""The range a document gives for one input: its low and high ends, with the citation.

An input whose document prints a range (``U_process`` 0.3 to 0.5) or a set of alternatives
(Table 3-2's rows, the residue fractions by container, the Consortium's 5.5 %) declares it
once, beside its default, as :attr:`~.parameters.Param.documented_range`; an input whose
documents give no range has none (none is invented). The sensitivity analysis
(:mod:`.sensitivity`) moves each such input to its ends, one at a time, and samples
within them; nothing else reads the range, and no value is ever clamped to it: a reviewer
may enter any value within the input's allowed bounds.

:func:`check_documented_range` is the declaration's check (run by ``Param``): both ends
within the input's allowed bounds (whole numbers for a count), the default (where there
is one) within the ends, and a citation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class DocumentedRange:
    """An input's range as its document prints it: ``low`` to ``high`` (on the input's own
    scale and units), and ``source``: the document and its table, section or paragraph.

    >>> DocumentedRange(0.3, 0.5, "ESD 2015 §4.3 ¶59-60, Table A-4").width
    0.2
    >>> DocumentedRange(0.5, 0.3, "doc")
    Traceback (most recent call last):
    ...
    ValueError: a documented range runs from low to high: 0.5 is above 0.3
    """

    low: float
    high: float
    source: str

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            raise ValueError("a documented range has finite ends")
        if not self.low < self.high:
            raise ValueError(f"a documented range runs from low to high: {self.low!r} is above {self.high!r}")
        if not self.source.strip():
            raise ValueError("a documented range cites its document (source)")

    @property
    def width(self) -> float:
        """``high − low``, on the input's scale."""
        return round(self.high - self.low, 12)

    def holds(self, value: float) -> bool:
        """Whether ``value`` lies within the ends (both included)."""
        return self.low <= value <= self.high


class _Declared(Protocol):
    """What the check reads of a :class:`~.parameters.Param`."""

    @property
    def symbol(self) -> str: ...

    @property
    def default(self) -> float | int | str | None: ...

    @property
    def kind(self) -> str: ...

    def check(self, value: float) -> str: ...


def check_documented_range(param: _Declared, documented: DocumentedRange, *, numeric_kinds: tuple[str, ...],
                           whole_kind: str) -> None:
    """Raise ``ValueError`` naming the input unless its range fits its declaration: a
    number input, ends within its allowed bounds (whole numbers for a count), and its
    default, where it has one, between the ends."""
    symbol = param.symbol
    if param.kind not in numeric_kinds:
        raise ValueError(f"{symbol}: only a number input has a documented range")
    for end in (documented.low, documented.high):
        if param.kind == whole_kind and end != int(end):
            raise ValueError(f"{symbol}: the documented range of a count has whole-number ends, not {end!r}")
        error = param.check(end)
        if error:
            raise ValueError(f"{symbol}: documented range end {end!r} is outside the allowed bounds: {error}")
    default = param.default
    if isinstance(default, (int, float)) and not documented.holds(default):
        raise ValueError(f"{symbol}: default {default!r} lies outside its documented range "
                         f"{documented.low!r} to {documented.high!r}")
