"""Confidential business information (CBI) in the printed copies: the sanitised copy's rule
for one case.

What the sanitised copy hides is decided by where each part comes from, not by how it is
spelled (:mod:`.document`, :mod:`.derivation`):

- a case item that is claimed prints ``[CBI]`` (the specific chemical name: the generic
  name);
- a figure or a sentence of the engine prints ``[CBI]`` when it derives from a claimed
  value: it moves when the value moves (:mod:`assessments.esd.provenance`), e.g. the
  number of sites, each daily and annual release, the totals and the mass balance of a
  case whose production volume is claimed;
- a list whose entries or order move with a claimed value (a calculation trace whose
  steps depend on it) is withheld whole, with a line saying so;
- people's words (notes, reasons, titles, the engineer's report text) print with each
  claimed word value (a name, a CAS number) replaced and, when a claimed field is a
  number, every number replaced: a person may quote a figure computed from it in any
  spelling.

So two cases that differ only in their claimed values print the same sanitised copy
(``tests/contract/test_sanitised_copy_property.py``).

The claims are those of the case the report is given. For an approved revision the report
gives it the case as approved (``models.as_printed``, ``Assessment.case_data``): the claims
made when it was approved and any made since, so a claim withdrawn after the approval
stays redacted in that revision's sanitised copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import Submission
from .derivation import NUMERIC_CLAIMS
from .document import CBI_TEXT, Redaction

__all__ = ["CBI_TEXT", "Cbi", "redaction_for"]


def redaction_for(submission: Submission) -> Redaction:
    """The sanitised copy's rule for ``submission``'s claims."""
    claims = frozenset(submission.cbi_claims or [])
    texts = []
    for name in claims - set(NUMERIC_CLAIMS):
        value = getattr(submission, name, None)
        if value in (None, ""):
            continue
        if name == "chemical_name" and str(value).strip() == (submission.generic_name or "").strip():
            continue  # the name printed in its place
        texts.append(str(value))
    return Redaction(claims, tuple(texts), numbers=bool(claims & set(NUMERIC_CLAIMS)))


@dataclass
class Cbi:
    """The same rule for the pages printed beside the report (contact reports): a case
    item bracketed (full copy) or replaced (sanitised), people's words redacted."""

    submission: Submission
    sanitised: bool

    def __post_init__(self) -> None:
        self.redaction = redaction_for(self.submission) if self.sanitised else None

    def item(self, name: str, text: Any) -> dict[str, Any]:
        """A header item: ``{"text", "cbi"}``; claimed items bracketed or replaced."""
        text = "" if text is None else str(text)
        if not self.submission.is_claimed(name):
            return {"text": self.scrub(text), "cbi": False}
        if self.sanitised:
            replacement = self.submission.generic_name if name == "chemical_name" else CBI_TEXT
            return {"text": replacement, "cbi": True}
        return {"text": f"[{text}]" if text else "", "cbi": True}

    def scrub(self, text: str) -> str:
        """People's words as the copy prints them."""
        if self.redaction is None or not text:
            return text
        return self.redaction.words(text)
