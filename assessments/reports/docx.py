"""The IRER as an editable Word document (python-docx), for engineers who finish the
report in Word as they did ChemSTEER's RTF.

It walks the same copy of the report as the PDF (``irer_context(...)["document"]``,
:class:`.document.Report`) block by block, and decides nothing about what is printed:
every figure, every redaction and every sentence is the document's. Word's own styles
carry the structure (Heading 1-4, List Bullet, Table Grid, Caption), so the reader can
restyle it; the running header and footer print what the PDF's page margins print, with
the page numbers as Word fields and "DRAFT" in the header of a draft (no watermark image).

Who may have which copy is the caller's check (``reports.services``).
"""

from __future__ import annotations

import io
from typing import Any

from docx import Document
from docx.blkcntnr import BlockItemContainer
from docx.document import Document as WordDocument
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_TAB_ALIGNMENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.section import Section
from docx.shared import Inches, Pt, RGBColor
from docx.table import Table as WordTable
from docx.table import _Cell
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from .document import Block, Cell, Fields, Group, Heading, Inline, Items, Para, Report, Table, Withheld
from .render import irer_filename

DOCX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
FONT = "Arial"
BODY_PT = 10
TABLE_PT = 8.5
BLOCK_INDENT = Inches(0.2)
CBI_RED = RGBColor(0xAA, 0x00, 0x00)
#: Paragraph classes drawn in a box, with the box's colour (the PDF's banners and notes).
BOXED = {"cbi-banner": "AA0000", "sanitised-note": "000000", "not-current": "8A4B00"}
#: Paragraph classes printed in italics (the PDF's notes).
ITALIC = {"note", "withheld"}

#: Where a block's paragraphs go: the document's body, or a container in it (a table's cell).
Where = WordDocument | BlockItemContainer


def irer_docx(context: dict[str, Any]) -> bytes:
    """The report as .docx bytes, from ``irer_context(...)``."""
    report: Report = context["document"]
    doc = _new_document(context, report)
    _running_header(doc, report)
    _running_footer(doc, report)
    writer = _Writer(doc)
    for block in report.blocks:
        writer.block(block)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def irer_docx_filename(context: dict[str, Any], *, sanitised: bool) -> str:
    """The PDF's name with .docx: ``IRER-P-18-0123-r2.docx``, ``...-sanitised.docx``."""
    return irer_filename(context, sanitised=sanitised).removesuffix(".pdf") + ".docx"


def _new_document(context: dict[str, Any], report: Report) -> WordDocument:
    doc = Document()
    section = doc.sections[0]
    section.page_width, section.page_height = Inches(8.5), Inches(11)  # letter, as the PDF
    section.top_margin, section.bottom_margin = Inches(0.9), Inches(0.8)
    section.left_margin = section.right_margin = Inches(0.8)
    normal = doc.styles["Normal"]
    normal.font.name, normal.font.size = FONT, Pt(BODY_PT)
    normal.paragraph_format.space_after = Pt(3)
    for name, size in (("Heading 1", 13), ("Heading 2", 11), ("Heading 3", 10), ("Heading 4", 10)):
        style = doc.styles[name]
        style.font.name, style.font.size, style.font.color.rgb = FONT, Pt(size), RGBColor(0, 0, 0)
        style.font.italic = False
    # The package's properties: nothing of the case but its number (the title bar and the
    # file's properties are seen where the document is not opened).
    props = doc.core_properties
    props.title = f"IRER {context['case_number']} r{context['revision']}" + (" (sanitised)" if context["sanitised"] else "")
    props.subject = report.title
    props.author = props.last_modified_by = "PMN engineering review application"
    props.comments = props.keywords = props.category = ""
    props.created = props.modified = context["printed_at"]
    props.revision = 1
    return doc


# --- Walking the document -----------------------------------------------------------------


class _Writer:
    def __init__(self, doc: WordDocument) -> None:
        self.doc = doc
        self.indent = 0

    def block(self, block: Block, container: BlockItemContainer | None = None) -> None:
        where = container if container is not None else self.doc
        if isinstance(block, Heading):
            if container is not None:
                _inline(_para(where), block.content, bold=True)
            else:
                _inline(self.doc.add_heading(level=min(block.level, 4)), block.content)
        elif isinstance(block, Para):
            self.para(block, where)
        elif isinstance(block, Fields):
            for label, value in block.rows:
                paragraph = _para(where)
                paragraph.paragraph_format.space_after = Pt(1)
                if label:
                    _run(paragraph, f"{label} ", bold=True)
                _inline(paragraph, value)
        elif isinstance(block, Items):
            self.items(block, where)
        elif isinstance(block, Table):
            _table(self.doc, block)
        elif isinstance(block, Withheld):
            for inner in block.blocks:
                self.block(inner, container)
        else:
            self.group(block, container)

    def para(self, block: Para, where: Where) -> None:
        paragraph = _para(where)
        if self.indent or block.cls == "block":
            paragraph.paragraph_format.left_indent = BLOCK_INDENT
        if self.indent:
            paragraph.paragraph_format.space_after = Pt(0)
            paragraph.paragraph_format.keep_with_next = True
        italic = block.cls in ITALIC
        bold = block.cls in {"cbi-banner", "sanitised-note"}
        _inline(paragraph, block.content, italic=italic, bold=bold)
        if block.detail:
            if block.content:
                paragraph.add_run(" ")
            if block.detail_label:
                _run(paragraph, f"{block.detail_label} ", italic=italic)
            _inline(paragraph, block.detail, italic=italic)
        if block.cls == "cbi-banner":
            paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
            for run in paragraph.runs:
                run.font.color.rgb = CBI_RED
        if block.cls in BOXED:
            _boxed(paragraph, BOXED[block.cls])
        if block.cls == "cbi-flag":
            paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT

    def items(self, block: Items, where: Where) -> None:
        for number, item in enumerate(block.items, start=1):
            if block.ordered and block.cls != "sources":
                paragraph = _para(where)
                _run(paragraph, f"{number}. ")
            else:
                paragraph = _para(where, style=None if block.ordered else "List Bullet")
            _inline(paragraph, item)
            if block.cls in {"sources", "trace"}:
                paragraph.paragraph_format.space_after = Pt(1)
                for run in paragraph.runs:
                    run.font.size = Pt(8.5 if block.cls == "trace" else 8)

    def group(self, group: Group, container: BlockItemContainer | None) -> None:
        if group.cls == "title-row":  # the title and the CBI flag on one line, as the PDF's title row
            heading = self.doc.add_heading(level=1)
            _with_tabs(heading, self.doc.sections[0])
            for i, inner in enumerate(group.blocks):
                if i:
                    heading.add_run("\t\t")
                if isinstance(inner, (Heading, Para)):
                    _inline(heading, inner.content)
            return
        if group.fold_heading is not None:
            self.block(group.fold_heading, container)
        if group.cls == "not-current":
            for inner in group.blocks:
                if isinstance(inner, Para):
                    paragraph = _para(self.doc)
                    _inline(paragraph, inner.content)
                    _boxed(paragraph, BOXED["not-current"])
                else:
                    self.block(inner)
            return
        if group.cls == "block":  # EPA's release and exposure blocks: indented, kept on one page
            self.indent += 1
            for inner in group.blocks:
                self.block(inner, container)
            self.indent -= 1
            last = (container or self.doc).paragraphs[-1] if (container or self.doc).paragraphs else None
            if last is not None:
                last.paragraph_format.keep_with_next = False
                last.paragraph_format.space_after = Pt(7)
            return
        for inner in group.blocks:
            self.block(inner, container)


# --- Small helpers -----------------------------------------------------------------------


def _para(doc_or_cell: Where, *, style: str | None = None) -> Paragraph:
    return doc_or_cell.add_paragraph(style=style)


def _run(paragraph: Paragraph, text: str, *, bold: bool = False, italic: bool = False, mono: bool = False) -> Run:
    run = paragraph.add_run(text)
    run.bold = bold or None
    run.italic = italic or None
    if mono:
        run.font.name = "Courier New"
    return run


def _inline(paragraph: Paragraph, parts: Inline, *, bold: bool = False, italic: bool = False) -> None:
    """The parts as runs: strong and claimed items in bold, code in a fixed-width font,
    line breaks kept."""
    for part in parts:
        style = getattr(part, "style", "")
        for i, line in enumerate(part.text.split("\n")):
            if i:
                paragraph.add_run().add_break()
            if line:
                _run(paragraph, line, bold=bold or style in {"strong", "cbi"}, italic=italic or style == "em",
                     mono=style == "code")


def _boxed(paragraph: Paragraph, color: str = "000000") -> None:
    """A border round the paragraph (the PDF's boxed banners and notes)."""
    borders = OxmlElement("w:pBdr")
    for side in ("top", "left", "bottom", "right"):
        edge = OxmlElement(f"w:{side}")
        edge.set(qn("w:val"), "single")
        edge.set(qn("w:sz"), "8")
        edge.set(qn("w:space"), "4")
        edge.set(qn("w:color"), color)
        borders.append(edge)
    paragraph._p.get_or_add_pPr().append(borders)


def _shade(cell: _Cell, fill: str) -> None:
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shading)


def _table(doc: WordDocument, table: Table) -> None:
    """A Table Grid table: the caption above, a shaded header row that repeats on each page,
    the bodies' rows; a cell spanning rows or columns is merged."""
    if table.caption:
        doc.add_paragraph(table.caption, style="Caption")
    body_rows = [(b, r, row) for b, body in enumerate(table.bodies) for r, row in enumerate(body)]
    columns = sum(c.colspan for c in table.head) or max((sum(c.colspan for c in row) for _, _, row in body_rows),
                                                         default=1)
    offset = 1 if table.head else 0
    grid = doc.add_table(rows=len(body_rows) + offset, cols=max(columns, 1))
    grid.style = doc.styles["Table Grid"]
    grid.alignment = WD_TABLE_ALIGNMENT.LEFT
    if table.head:
        row_pr = grid.rows[0]._tr.get_or_add_trPr()
        repeat = OxmlElement("w:tblHeader")
        repeat.set(qn("w:val"), "true")
        row_pr.append(repeat)
        starts = [sum(c.colspan for c in table.head[:i]) for i in range(len(table.head))]
        _fill_row(grid, 0, list(zip(table.head, starts)), header=True)
    occupied: dict[int, set[int]] = {}
    for i, (b, r, row) in enumerate(body_rows):
        line = i + offset
        taken = occupied.get(line, set())
        placed = []
        column = 0
        for cell in row:
            while column in taken:
                column += 1
            placed.append((cell, column))
            for extra in range(1, cell.rowspan):
                occupied.setdefault(line + extra, set()).update(range(column, column + cell.colspan))
            column += cell.colspan
        _fill_row(grid, line, placed, header=False, marked=table.marked(b, r))


def _fill_row(grid: WordTable, line: int, placed: list[tuple[Cell, int]], *, header: bool, marked: bool = False) -> None:
    cells = grid.rows[line].cells
    for cell, column in placed:
        target = cells[column]
        if cell.colspan > 1:
            target = target.merge(cells[column + cell.colspan - 1])
        if cell.rowspan > 1:
            target = target.merge(grid.rows[line + cell.rowspan - 1].cells[column + cell.colspan - 1])
        paragraph = target.paragraphs[0]
        paragraph.paragraph_format.space_after = Pt(0)
        _inline(paragraph, cell.content, bold=header or cell.header or cell.cls == "above")
        for run in paragraph.runs:
            run.font.size = Pt(TABLE_PT)
        if header:
            _shade(target, "EEEEEE")
        elif marked:
            _shade(target, "FFF4D6")


def _page_field(paragraph: Paragraph, instruction: str, size: float) -> None:
    """A PAGE or NUMPAGES field, which Word fills in."""
    for kind, text in (("begin", None), (None, f" {instruction} "), ("separate", None), (None, "1"), ("end", None)):
        run = paragraph.add_run()
        run.font.size = Pt(size)
        if kind:
            char = OxmlElement("w:fldChar")
            char.set(qn("w:fldCharType"), kind)
            run._r.append(char)
        elif text is not None and text.strip() == instruction:
            instr = OxmlElement("w:instrText")
            instr.set(qn("xml:space"), "preserve")
            instr.text = text
            run._r.append(instr)
        elif text is not None:
            run.text = text


def _with_tabs(paragraph: Paragraph, section: Section) -> None:
    """A centre and a right tab stop across the text width."""
    page, left, right = section.page_width, section.left_margin, section.right_margin
    # Every report's one section has its letter page and margins (:func:`_new_document`).
    assert page is not None and left is not None and right is not None, "the section's page size is not set"
    width = page - left - right
    stops = paragraph.paragraph_format.tab_stops
    stops.add_tab_stop(int(width / 2), WD_TAB_ALIGNMENT.CENTER)
    stops.add_tab_stop(width, WD_TAB_ALIGNMENT.RIGHT)


def _running_header(doc: WordDocument, report: Report) -> None:
    """Left: the title; centre: DRAFT for a draft; right: case number · case name · CBI
    label. The first page, whose title row says as much, has only DRAFT (as the PDF,
    whose first page has no running header)."""
    section = doc.sections[0]
    section.different_first_page_header_footer = True
    paragraph = section.header.paragraphs[0]
    _with_tabs(paragraph, section)
    _run(paragraph, report.title, bold=True).font.size = Pt(9)
    paragraph.add_run("\t")
    _draft_mark(paragraph, report)
    paragraph.add_run("\t")
    case = "".join(p.text for p in report.running.case)
    _run(paragraph, f"{report.running.case_number} · {case} · {report.running.cbi}").font.size = Pt(9)
    first = section.first_page_header.paragraphs[0]
    first.alignment = WD_ALIGN_PARAGRAPH.CENTER
    _draft_mark(first, report)


def _draft_mark(paragraph: Paragraph, report: Report) -> None:
    if report.running.draft:
        draft = _run(paragraph, "DRAFT", bold=True)
        draft.font.size, draft.font.color.rgb = Pt(12), CBI_RED


def _running_footer(doc: WordDocument, report: Report) -> None:
    """Left: case number, CBI label and status; right: page N of M; under them, the engine
    that computed the figures and its conformance record's digest, in the PDF's words
    (``report.running.engine``). On every page."""
    section = doc.sections[0]
    case_number = report.running.case_number
    for footer in (section.footer, section.first_page_footer):
        paragraph = footer.paragraphs[0]
        _with_tabs(paragraph, section)
        _run(paragraph, f"{case_number} · {report.running.cbi} · {report.running.status}").font.size = Pt(8)
        paragraph.add_run("\t\t")
        _run(paragraph, "page ").font.size = Pt(8)
        _page_field(paragraph, "PAGE", 8)
        _run(paragraph, " of ").font.size = Pt(8)
        _page_field(paragraph, "NUMPAGES", 8)
        if report.running.engine:
            paragraph.paragraph_format.space_after = Pt(0)
            engine = footer.add_paragraph()
            engine.paragraph_format.space_after = Pt(0)
            _run(engine, report.running.engine).font.size = Pt(8)
