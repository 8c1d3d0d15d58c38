"""Confidential business information (CBI) in the report: what is claimed, and how each
copy prints it.

The full copy brackets each claimed header item, as EPA marks CBI. The sanitised copy
replaces every claimed item with the generic name or ``[CBI]``, wherever it prints:

- header items, by the case field's name;
- engine inputs, by their declaration: an input whose ``Param.from_case`` names a
  claimed field is redacted in the inputs table and in every trace line that uses it;
- any number in the trace equal to a claimed value (an equation may name its argument
  differently from the scenario's input);
- free text (basis sentences, notes, warnings, the process description, the engineer's
  notes), by every spelling of each claimed value that the engine or a person writes;
- the all-site annual totals when the production volume is claimed, since they add up
  to it.

Nothing here knows a scenario: the claimed inputs come from the engine's declarations.

The claims are those of the case ``Cbi`` is given. For an approved revision the report
gives it the case as approved (``models.as_printed``, ``Assessment.case_data``):
the claims made when it was approved and any made since, so a claim withdrawn after the
approval stays redacted in that revision's sanitised copy.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..esd import registry
from ..esd.parameters import EngineValidationError
from ..models import Submission

CBI_TEXT = "[CBI]"


def claimed_symbols(*, scenario_key: str, claims: list[str] | tuple[str, ...]) -> frozenset[str]:
    """The inputs of ``scenario_key`` that carry a claimed case field (``Param.from_case``)."""
    try:
        params = registry.get(scenario_key).params.params
    except EngineValidationError:  # a scenario no longer registered: nothing is known to carry a claim
        return frozenset()
    return frozenset(p.symbol for p in params if p.from_case and p.from_case in claims)


@dataclass
class Cbi:
    """Applies a case's CBI claims to what the report prints."""

    submission: Submission
    sanitised: bool
    words: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.sanitised:
            self.words = sorted(_claimed_words(self.submission), key=len, reverse=True)

    @cached_property
    def _pattern(self) -> re.Pattern | None:
        if not self.words:
            return None
        alternatives = "|".join(re.escape(word) for word in self.words)
        return re.compile(rf"(?<![\w.]){'(?:' + alternatives + ')'}(?![\w]|\.\d)", re.IGNORECASE)

    @cached_property
    def _claimed_values(self) -> tuple[float, ...]:
        values = []
        for name in self.submission.cbi_claims or []:
            value = getattr(self.submission, name, None)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values.append(float(value))
        return tuple(values)

    def item(self, name: str, text: Any) -> dict:
        """A header item: ``{"text", "cbi"}``; claimed items bracketed or replaced."""
        text = "" if text is None else str(text)
        if not self.submission.is_claimed(name):
            return {"text": self.scrub(text), "cbi": False}
        if self.sanitised:
            replacement = self.submission.generic_name if name == "chemical_name" else CBI_TEXT
            return {"text": replacement, "cbi": True}
        return {"text": f"[{text}]" if text else "", "cbi": True}

    def symbols(self, scenario_key: str) -> frozenset[str]:
        """The inputs of a scenario this copy redacts."""
        if not self.sanitised:
            return frozenset()
        return claimed_symbols(scenario_key=scenario_key, claims=self.submission.cbi_claims or [])

    def reveals(self, value: Any) -> bool:
        """True when ``value`` is a number equal to a claimed value (sanitised copy only)."""
        if not self.sanitised or isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return any(math.isclose(float(value), claimed, rel_tol=1e-12) for claimed in self._claimed_values)

    def number(self, symbols: frozenset[str], symbol: str, value: Any, text: str) -> str:
        """``text`` (a number as printed), or ``[CBI]`` when ``symbol`` carries a claimed
        field or ``value`` equals a claimed value."""
        if self.sanitised and (symbol in symbols or self.reveals(value)):
            return CBI_TEXT
        return text

    @property
    def hides_ppm(self) -> bool:
        """A concentration in ppm with its mg/m³ beside it gives the molecular weight: hidden
        with it."""
        return self.sanitised and self.submission.is_claimed("molecular_weight")

    @property
    def hides_annual_totals(self) -> bool:
        """All-site annual totals add up to the production volume: hidden with it."""
        return self.sanitised and self.submission.is_claimed("production_volume_kg_yr")

    def scrub(self, text: str) -> str:
        """Replace every claimed value's spellings in free text (sanitised copy only)."""
        if not self.sanitised or not text or self._pattern is None:
            return text
        return self._pattern.sub(CBI_TEXT, text)


def _claimed_words(submission: Submission) -> set[str]:
    words: set[str] = set()
    for name in submission.cbi_claims or []:
        value = getattr(submission, name, None)
        if value in (None, ""):
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            words |= number_spellings(float(value), percent=name == "use_concentration")
        else:
            text = str(value).strip()
            if text and not (name == "chemical_name" and text == submission.generic_name):
                words.add(text)
    return words


def number_spellings(value: float, *, percent: bool = False) -> set[str]:
    """Every way the engine's prose, the report's figures or a person may print ``value``:
    plain and with thousands separators, to 2 to 8 significant figures, in E-notation
    (EPA's ``1.6E-1`` and Python's ``1.6e-01``); and as a percent for a fraction.

    Spellings of fewer than two significant figures are left out unless exact (``2`` for
    2.4 would redact every 2 in the report and reveals little).

    >>> {"473", "473.2", "473.21", "4.73E+2", "4.732e+02"} <= number_spellings(473.21)
    True
    >>> {"98,765.4", "98765", "9.88E+4"} <= number_spellings(98765.4)
    True
    >>> {"15%", "15 %", "0.15"} <= number_spellings(0.15, percent=True)
    True
    """
    from ..templatetags.figures import epa, significant

    spellings = _plain_spellings(value)
    if percent:
        pct = value * 100
        for text in _plain_spellings(pct):
            spellings |= {f"{text}%", f"{text} %", f"{text} percent"}
    for digits in range(2, 9):
        spellings |= {epa(value, digits), f"{value:.{digits - 1}e}", significant(value, digits)}
    return {s for s in spellings if s and s not in {"0", "1", "0.0", "1.0"}}


def _plain_spellings(value: float) -> set[str]:
    spellings = {f"{value:g}", repr(value)}
    if value.is_integer():
        whole = int(value)
        spellings |= {f"{whole}", f"{whole:,}", f"{value:.1f}", f"{whole:,}.0"}
    magnitude = math.floor(math.log10(abs(value))) if value else 0
    for digits in range(2, 9):
        decimals = max(digits - 1 - magnitude, 0)
        text = f"{value:.{decimals}f}"
        spellings |= {text, text.rstrip("0").rstrip(".") if "." in text else text}
        grouped = f"{value:,.{decimals}f}"
        spellings |= {grouped, grouped.rstrip("0").rstrip(".") if "." in grouped else grouped}
        spellings |= {f"{value:.{digits}g}", f"{value:#.{digits}g}".rstrip(".")}
    return spellings
