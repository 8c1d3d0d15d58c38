"""The IRER as one typed document, which every copy is drawn from.

The report is built once (:mod:`.context`) as a small tree: blocks (headings, paragraphs,
label/value fields, lists, tables, groups) holding inline parts of three kinds:

- :class:`Text`, the report's own wording ("kg/site-day over", "RELEASE TOTAL"), which
  never reveals anything;
- :class:`Value`, a figure or a sentence that may: it carries the case fields it derives
  from (``claims``: the claimed field itself, or a field an engine input carries
  and the figure moves with, :mod:`assessments.esd.provenance`);
- :class:`Words`, people's own words (notes, reasons, titles), which may quote anything.

A copy is the tree after :meth:`Report.copy`: the full copy brackets the claimed items of
the case; the sanitised copy prints ``[CBI]`` for every :class:`Value` whose claims meet
the case's claims, withholds each :class:`Withheld` block whose claims do, and applies
:class:`Redaction` to :class:`Words`. The writers (:mod:`.html` for the preview and the
PDF, :mod:`.docx` for Word) walk the copy and decide nothing about CBI: neither can print
what the other hides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

CBI_TEXT = "[CBI]"
#: Classes of a table cell that say nothing about its value (kept when the value is withheld).
KEPT_CELL_CLASSES = ("num",)


# --- Inline parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """The report's own words. ``style``: "" or "strong", "em", "code"."""

    text: str
    style: str = ""


@dataclass(frozen=True)
class Value:
    """A figure, or a sentence, that may reveal a claimed value.

    ``claims``: the case fields it derives from (empty: none). ``hidden``: what the
    sanitised copy prints in its place (``[CBI]``; for a unit that agrees with a count,
    e.g. "sites", the unit as declared). ``item``: a case field printed as such (the
    header's items): the full copy brackets it when claimed, as EPA marks CBI.
    """

    text: str
    claims: frozenset[str] = frozenset()
    hidden: str = CBI_TEXT
    style: str = ""
    item: bool = False


@dataclass(frozen=True)
class Words:
    """People's own words: printed as typed in the full copy; in the sanitised copy after
    :meth:`Redaction.words`. ``breaks``: keep the line breaks."""

    text: str
    style: str = ""
    breaks: bool = False


Part = Text | Value | Words
Inline = tuple[Part, ...]


def inline(*parts: Part | str) -> Inline:
    """Parts, a plain string read as :class:`Text`."""
    return tuple(Text(p) if isinstance(p, str) else p for p in parts if p != "")


# --- Blocks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    level: int
    content: Inline
    cls: str = ""


@dataclass(frozen=True)
class Para:
    """A paragraph; ``detail`` (with its ``detail_label``) follows the content in print and
    is folded under the label in the browser preview."""

    content: Inline
    cls: str = ""
    detail: Inline = ()
    detail_label: str = ""
    role: str = ""


@dataclass(frozen=True)
class Fields:
    """Label and value lines (the header's ``PV (kg/yr): 5,000``)."""

    rows: tuple[tuple[str, Inline], ...]


@dataclass(frozen=True)
class Items:
    items: tuple[Inline, ...]
    ordered: bool = False
    cls: str = ""


@dataclass(frozen=True)
class Cell:
    content: Inline
    header: bool = False
    scope: str = ""
    rowspan: int = 1
    colspan: int = 1
    cls: str = ""
    #: The sanitised copy prints the whole cell as [CBI] when any part of it is withheld.
    whole: bool = True


Row = tuple[Cell, ...]


@dataclass(frozen=True)
class Table:
    """A table: header cells, bodies of rows (one ``<tbody>`` each), a caption above, the
    columns' classes (their widths), and which rows are marked (an overridden input):
    ``(body, row, claims)``, the mark left out of a sanitised copy that hides ``claims``."""

    head: Row
    bodies: tuple[tuple[Row, ...], ...]
    caption: str = ""
    cls: str = ""
    columns: tuple[str, ...] = ()
    marked_rows: tuple[tuple[int, int, frozenset[str]], ...] = ()

    def marked(self, body: int, row: int) -> bool:
        return any(b == body and r == row for b, r, _ in self.marked_rows)


@dataclass(frozen=True)
class Group:
    """Blocks kept together: a section, a release block, a folded part of the preview
    (``fold``: its summary; the heading of a folded appendix part goes into the summary)."""

    blocks: tuple[Block, ...]
    cls: str = ""
    tag: str = "div"
    fold: Inline = ()
    fold_heading: Heading | None = None
    role: str = ""


@dataclass(frozen=True)
class Withheld:
    """Blocks the sanitised copy leaves out when any of ``claims`` is claimed, printing
    ``notice`` instead (nothing when empty): where even their number or their presence
    would reveal a claimed value (a calculation trace whose steps move with it)."""

    claims: frozenset[str]
    blocks: tuple[Block, ...]
    notice: str = ""
    notice_cls: str = "withheld"


Block = Heading | Para | Fields | Items | Table | Group | Withheld


@dataclass(frozen=True)
class Running:
    """What the page margins print: the case number and name, the CBI label, the status and
    the engine that computed the figures with its conformance record's digest
    (``engine``: :func:`.header.engine_footer`; the same in the full and sanitised copies)."""

    case_number: str
    case: Inline
    cbi: str
    status: str
    draft: bool
    engine: str = ""


@dataclass(frozen=True)
class Report:
    """One report: its title, the margins' text and the body."""

    title: str
    running: Running
    blocks: tuple[Block, ...]
    lang: str = "en"

    def copy(self, redaction: Redaction | None) -> Report:
        """The full copy (``redaction`` None) or the sanitised one."""
        if redaction is None:
            return replace(self, blocks=tuple(_full(b) for b in self.blocks))
        return replace(
            self,
            running=replace(self.running, case=redaction.inline(self.running.case)),
            blocks=tuple(b for block in self.blocks for b in redaction.block(block)),
        )


# --- Copies ---------------------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?(?:\d[\d,.]*\d|\d)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Redaction:
    """The sanitised copy's rule for one case.

    ``claims``: the claimed case fields. ``texts``: the claimed values that are words (the
    submitter, the specific chemical name...), which people's words may quote.
    ``numbers``: a claimed field is a number (a figure may derive from it), so every number
    in people's words is withheld: a person may quote a figure computed from it, in any
    spelling. All three depend on which fields are claimed and on the claimed words; the
    claimed numbers themselves are never read here.
    """

    claims: frozenset[str]
    texts: tuple[str, ...] = ()
    numbers: bool = False
    _pattern: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        texts = sorted({t.strip() for t in self.texts if t and t.strip()}, key=len, reverse=True)
        if texts:
            alternatives = "|".join(re.escape(t) for t in texts)
            object.__setattr__(self, "_pattern", re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE))

    def hides(self, claims: frozenset[str]) -> bool:
        return bool(claims & self.claims)

    def words(self, text: str) -> str:
        """People's words with each claimed word value and, when a number is claimed, each
        number replaced by ``[CBI]``."""
        if self._pattern is not None:
            text = self._pattern.sub(CBI_TEXT, text)
        if self.numbers:
            text = _NUMBER.sub(CBI_TEXT, text)
        return text

    def part(self, part: Part) -> Part:
        if isinstance(part, Value):
            style = "cbi" if part.item and part.claims else part.style
            return Text(part.hidden if self.hides(part.claims) else part.text, style)
        if isinstance(part, Words):
            return replace(part, text=self.words(part.text))
        return part

    def inline(self, parts: Inline) -> Inline:
        return tuple(self.part(p) for p in parts)

    def _withholds(self, parts: Inline) -> bool:
        return any(isinstance(p, Value) and self.hides(p.claims) for p in parts)

    def cell(self, cell: Cell) -> Cell:
        """A cell of the copy. A withheld cell keeps only the classes that do not describe
        its value (a number's alignment, not "above the limit")."""
        if not self._withholds(cell.content):
            return replace(cell, content=self.inline(cell.content))
        cls = " ".join(c for c in cell.cls.split() if c in KEPT_CELL_CLASSES)
        if cell.whole and not cell.header and len(cell.content) > 1:
            return replace(cell, content=(Text(CBI_TEXT),), cls=cls)
        return replace(cell, content=self.inline(cell.content), cls=cls)

    def block(self, block: Block) -> Iterator[Block]:
        if isinstance(block, Withheld):
            if self.hides(block.claims):
                if block.notice:
                    yield Para((Text(block.notice),), cls=block.notice_cls)
                return
            for inner in block.blocks:
                yield from self.block(inner)
        elif isinstance(block, Heading):
            yield replace(block, content=self.inline(block.content))
        elif isinstance(block, Para):
            yield replace(block, content=self.inline(block.content), detail=self.inline(block.detail))
        elif isinstance(block, Fields):
            yield replace(block, rows=tuple((label, self.inline(value)) for label, value in block.rows))
        elif isinstance(block, Items):
            yield replace(block, items=tuple(self.inline(item) for item in block.items))
        elif isinstance(block, Table):
            yield replace(block, head=tuple(self.cell(c) for c in block.head),
                          bodies=tuple(tuple(tuple(self.cell(c) for c in row) for row in body) for body in block.bodies),
                          marked_rows=tuple(m for m in block.marked_rows if not self.hides(m[2])))
        elif isinstance(block, Group):
            heading = None if block.fold_heading is None else next(iter(self.block(block.fold_heading)))
            yield replace(block, blocks=tuple(b for inner in block.blocks for b in self.block(inner)),
                          fold=self.inline(block.fold),
                          fold_heading=heading)  # type: ignore[arg-type]  # a Heading's copy is a Heading  # a Heading's copy is a Heading


def _full_part(part: Part) -> Part:
    if isinstance(part, Value):
        marked = part.item and part.claims and part.text
        return Text(f"[{part.text}]" if marked else part.text, "cbi" if part.item and part.claims else part.style)
    return part


def _full_inline(parts: Inline) -> Inline:
    return tuple(_full_part(p) for p in parts)


def _full(block: Block) -> Block:
    """The full copy of a block: values as they are, the case's claimed items bracketed."""
    if isinstance(block, Withheld):
        return Group(tuple(_full(b) for b in block.blocks))
    if isinstance(block, Heading):
        return replace(block, content=_full_inline(block.content))
    if isinstance(block, Para):
        return replace(block, content=_full_inline(block.content), detail=_full_inline(block.detail))
    if isinstance(block, Fields):
        return replace(block, rows=tuple((label, _full_inline(value)) for label, value in block.rows))
    if isinstance(block, Items):
        return replace(block, items=tuple(_full_inline(item) for item in block.items))
    if isinstance(block, Table):
        def cell(c: Cell) -> Cell:
            return replace(c, content=_full_inline(c.content))
        return replace(block, head=tuple(cell(c) for c in block.head),
                       bodies=tuple(tuple(tuple(cell(c) for c in row) for row in body) for body in block.bodies))
    heading = None if block.fold_heading is None else _full(block.fold_heading)
    return replace(block, blocks=tuple(_full(b) for b in block.blocks), fold=_full_inline(block.fold),
                   fold_heading=heading)  # type: ignore[arg-type]


# --- Reading a copy -------------------------------------------------------------------


def text_of(parts: Iterable[Part]) -> str:
    """The parts of a copy as plain text."""
    return "".join(p.text for p in parts)


def walk(blocks: Iterable[Block]) -> Iterator[Block]:
    """Every block, depth first, groups before what they hold."""
    for block in blocks:
        yield block
        if isinstance(block, (Group, Withheld)):
            if isinstance(block, Group) and block.fold_heading is not None:
                yield block.fold_heading
            yield from walk(block.blocks)


def plain_text(report: Report) -> str:
    """A copy as lines of text, in reading order (what a reader of any writer's output reads)."""
    lines: list[str] = []
    for block in walk(report.blocks):
        if isinstance(block, Heading):
            lines.append(text_of(block.content))
        elif isinstance(block, Para):
            lines.append(" ".join(x for x in (text_of(block.content), block.detail_label, text_of(block.detail)) if x))
        elif isinstance(block, Fields):
            lines += [f"{label} {text_of(value)}".strip() for label, value in block.rows]
        elif isinstance(block, Items):
            lines += [text_of(item) for item in block.items]
        elif isinstance(block, Table):
            if block.caption:
                lines.append(block.caption)
            for row in (block.head, *(r for body in block.bodies for r in body)):
                lines.append(" | ".join(text_of(c.content) for c in row))
        elif isinstance(block, Group) and block.fold:
            lines.append(text_of(block.fold))
    return "\n".join(lines)
