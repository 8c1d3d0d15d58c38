"""The validation table: every declared figure run through the engine and compared.

:func:`table` evaluates the declarations of the document modules once per process (the
engine is pure, so the table cannot change while the process runs) and is what the
``esd verify`` command and the "Method validation" page show; :func:`validation` groups it
by document with the counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import cvd_2015, eiip, photoresist_2004, photoresist_2010, photoresist_2018
from .compare import matches
from .sources import Document, Figure, Results


@dataclass(frozen=True)
class Row:
    """One printed figure and the engine's number for it (spec INTERFACE.md, "Self-verification").

    ``match`` is computed (:func:`.compare.matches`); ``note`` is the document's reason for
    a figure that does not match; ``remark`` how the figure was read; ``method`` how the
    engine computed it; ``error`` the engine's message when it failed on the inputs.
    """

    document: str
    section: str
    quantity: str
    printed: str
    computed: float | int | None
    match: bool
    note: str
    remark: str
    method: str
    error: str = ""

    @property
    def explained(self) -> bool:
        """A match, or a difference the note explains."""
        return self.match or bool(self.note)

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "section": self.section,
            "quantity": self.quantity,
            "printed": self.printed,
            "computed": self.computed,
            "match": self.match,
            "note": self.note,
            "remark": self.remark,
            "method": self.method,
            "error": self.error,
        }


#: The engine's number in the table, on the page and from ``esd verify`` alike: six
#: significant figures by the application's one number rule (``assessments.numbers.significant``,
#: applied outside the engine), or :data:`UNCOMPUTED_TEXT`.
COMPUTED_DIGITS = 6
UNCOMPUTED_TEXT = "not computed"


def evaluate(figures: Iterable[Figure]) -> list[Row]:
    """Each figure's row; the runs one table shares are computed once."""
    results: Results = {}
    rows = []
    for figure in figures:
        error = ""
        try:
            computed = figure.source.value(results)
        except Exception as exc:  # a row must say what failed, never take the table down
            computed, error = None, f"{type(exc).__name__}: {exc}"
        rows.append(Row(
            document=figure.document.name,
            section=figure.section,
            quantity=figure.quantity,
            printed=figure.printed,
            computed=computed,
            match=matches(figure.printed, computed, count=figure.count),
            note=figure.note,
            remark=figure.remark,
            method=figure.source.how,
            error=error,
        ))
    return rows


def documents() -> tuple[tuple[Document, tuple[Figure, ...]], ...]:
    """The documents in the table's order, each with its declared figures."""
    modules = (photoresist_2004, photoresist_2010, photoresist_2018, cvd_2015, eiip)
    return tuple((m.DOCUMENT, m.FIGURES) for m in modules)


def figures() -> tuple[Figure, ...]:
    return tuple(f for _, declared in documents() for f in declared)


@cache
def table() -> tuple[Row, ...]:
    """Every declared figure's row, computed once per process."""
    return tuple(evaluate(figures()))


@dataclass(frozen=True)
class Summary:
    figures: int
    matches: int
    explained: int  # figures that differ, each with a note
    unexplained: int  # figures that differ with no note

    @property
    def differ(self) -> int:
        return self.figures - self.matches

    @property
    def text(self) -> str:
        """The closing count.

        >>> Summary(202, 193, 9, 0).text
        '202 figures: 193 match; 9 differ, each explained in its note.'
        >>> Summary(202, 192, 9, 1).text
        '202 figures: 192 match; 10 differ, 9 explained in their notes and 1 with no note.'
        >>> Summary(1, 1, 0, 0).text, Summary(2, 1, 1, 0).text, Summary(3, 1, 1, 1).text
        ('1 figure: all match.', '2 figures: 1 matches; 1 differs, each explained in its note.', '3 figures: 1 matches; 2 differ, 1 explained in its note and 1 with no note.')
        """
        figures = f"{self.figures} figure{'' if self.figures == 1 else 's'}"
        head = f"{figures}: {self.matches} match{'es' if self.matches == 1 else ''}; {self.differ} differ{'s' if self.differ == 1 else ''}"
        if not self.unexplained:
            return f"{head}, each explained in its note." if self.differ else f"{figures}: all match."
        explained = f"{self.explained} explained in {'its note' if self.explained == 1 else 'their notes'}"
        return f"{head}, {explained} and {self.unexplained} with no note."


def summarise(rows: Iterable[Row]) -> Summary:
    rows = list(rows)
    matched = sum(r.match for r in rows)
    explained = sum(1 for r in rows if not r.match and r.note)
    return Summary(len(rows), matched, explained, len(rows) - matched - explained)


@dataclass(frozen=True)
class DocumentRows:
    document: Document
    rows: tuple[Row, ...]
    summary: Summary


@dataclass(frozen=True)
class Validation:
    rows: tuple[Row, ...]
    documents: tuple[DocumentRows, ...]
    summary: Summary


def validation() -> Validation:
    """The table (:func:`table`), grouped by document in the table's order, with the counts:
    what the ``esd verify`` command and the "Method validation" page show."""
    rows = table()
    groups = []
    for document, _ in documents():
        mine = tuple(r for r in rows if r.document == document.name)
        groups.append(DocumentRows(document, mine, summarise(mine)))
    return Validation(rows, tuple(groups), summarise(rows))
