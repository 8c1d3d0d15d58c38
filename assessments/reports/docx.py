"""The IRER as an editable Word document (python-docx), for engineers who finish the
report in Word as they did ChemSTEER's RTF.

It prints the same report as the PDF from the same context
(``reports.context.irer_context``): every number, every redaction and every sentence the
context composes is taken from it as it stands, never computed or redacted again here.
The order follows ``templates/reports/irer.html``, one small function per part of it, so
a change there is mirrored in the function of that part. Word's own styles carry the
structure (Heading 1/2/3/4, List Bullet, Table Grid, Caption), so the reader can restyle
it; the running header and footer print what the PDF's page margins print, with the
page numbers as Word fields and "DRAFT" in the header of a draft (no watermark image).

Who may have which copy is the caller's check (``reports.services``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from django.utils import dateformat, timezone
from docx import Document
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_TAB_ALIGNMENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt, RGBColor

from .render import irer_filename

DOCX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
TITLE = "INITIAL REVIEW ENGINEERING REPORT"
FONT = "Arial"
BODY_PT = 10
TABLE_PT = 8.5
BLOCK_INDENT = Inches(0.2)
CBI_RED = RGBColor(0xAA, 0x00, 0x00)


# --- The document ------------------------------------------------------------------


def irer_docx(context: dict) -> bytes:
    """The report as .docx bytes, from ``irer_context(...)``."""
    doc = _new_document(context)
    _running_header(doc, context)
    _running_footer(doc, context)
    _title(doc, context)
    _header_fields(doc, context)
    for number, use in enumerate(context["scenarios"], start=1):
        _use_section(doc, context, use, number)
    _all_uses_total(doc, context)
    _exposure_summary(doc, context["exposure_summary"])
    _appendix(doc, context)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def irer_docx_filename(context: dict, *, sanitised: bool) -> str:
    """The PDF's name with .docx: ``IRER-P-18-0123-r2.docx``, ``...-sanitised.docx``."""
    return irer_filename(context, sanitised=sanitised).removesuffix(".pdf") + ".docx"


def _new_document(context: dict):
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
    props.subject = TITLE
    props.author = props.last_modified_by = "PMN engineering review application"
    props.comments = props.keywords = props.category = ""
    props.created = props.modified = context["printed_at"]
    props.revision = 1
    return doc


# --- Small helpers -------------------------------------------------------------------


def _date(value: date | datetime | None, fmt: str) -> str:
    """As the template's ``|date:fmt`` prints it (in the current time zone)."""
    if not value:
        return ""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return dateformat.format(value, fmt)


def _para(doc_or_cell, text: str = "", *, style: str | None = None, bold: bool = False, italic: bool = False,
          indent=None):
    paragraph = doc_or_cell.add_paragraph(style=style)
    if text:
        _run(paragraph, text, bold=bold, italic=italic)
    if indent is not None:
        paragraph.paragraph_format.left_indent = indent
    return paragraph


def _run(paragraph, text: str, *, bold: bool = False, italic: bool = False, mono: bool = False):
    run = paragraph.add_run(text)
    run.bold = bold or None
    run.italic = italic or None
    if mono:
        run.font.name = "Courier New"
    return run


def _lines(paragraph, text: str) -> None:
    """``text`` with its line breaks kept (the template's ``|linebreaksbr``)."""
    for i, line in enumerate((text or "").splitlines()):
        if i:
            paragraph.add_run().add_break()
        paragraph.add_run(line)


def _field(paragraph, label: str, *parts: Any) -> None:
    """One ``<dt>label</dt><dd>...</dd>`` of the template: the label in bold, then the
    parts: plain text, or a header item ``{"text", "cbi"}`` (claimed items in bold, as
    the PDF's ``.cbi``)."""
    if label:
        _run(paragraph, f"{label} ", bold=True)
    for part in parts:
        if isinstance(part, dict):
            _run(paragraph, part["text"], bold=part["cbi"])
        elif part:
            _run(paragraph, str(part))


def _fields(doc, rows: Iterable[tuple]) -> None:
    for label, *parts in rows:
        paragraph = _para(doc)
        paragraph.paragraph_format.space_after = Pt(1)
        _field(paragraph, label, *parts)


def _bullets(doc, items: Iterable[str]) -> None:
    for item in items:
        _para(doc, item, style="List Bullet")


def _boxed(paragraph, color: str = "000000") -> None:
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


def _shade(cell, fill: str) -> None:
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shading)


def _table(doc, header: list[str] | None, rows: list[list[str]], *, caption: str = "", widths: list[float] | None = None,
           bold_cells: set[tuple[int, int]] = frozenset(), shaded_rows: set[int] = frozenset(),
           row_headers: bool = False):
    """A Table Grid table: a caption above, a shaded header row that repeats on each
    page, then ``rows`` of texts. Returns the table (for merging)."""
    if caption:
        _para(doc, caption, style="Caption")
    offset = 1 if header else 0
    columns = len(header) if header else max(len(r) for r in rows)
    table = doc.add_table(rows=len(rows) + offset, cols=columns)
    table.style = doc.styles["Table Grid"]
    table.alignment = WD_TABLE_ALIGNMENT.LEFT
    all_rows = table.rows
    if header:
        _header_row(all_rows[0], header)
    for r, texts in enumerate(rows):
        cells = all_rows[r + offset].cells
        for c, text in enumerate(texts):
            _cell_text(cells[c], text, bold=(r, c) in bold_cells or (row_headers and c == 0))
            if r in shaded_rows:
                _shade(cells[c], "FFF4D6")
    if widths:
        for row in all_rows:
            for cell, width in zip(row.cells, widths):
                cell.width = Inches(width)
    return table


def _header_row(row, texts: list[str]) -> None:
    row_pr = row._tr.get_or_add_trPr()
    repeat = OxmlElement("w:tblHeader")
    repeat.set(qn("w:val"), "true")
    row_pr.append(repeat)
    for cell, text in zip(row.cells, texts):
        _cell_text(cell, text, bold=True)
        _shade(cell, "EEEEEE")


def _cell_text(cell, text: str, *, bold: bool = False) -> None:
    paragraph = cell.paragraphs[0]
    paragraph.paragraph_format.space_after = Pt(0)
    run = _run(paragraph, "" if text is None else str(text), bold=bold)
    run.font.size = Pt(TABLE_PT)


def _page_field(paragraph, instruction: str, size: float) -> None:
    """A PAGE or NUMPAGES field, which Word fills in."""
    for kind, text in (("begin", None), (None, f" {instruction} "), ("separate", None), (None, "1"), ("end", None)):
        run = paragraph.add_run()
        run.font.size = Pt(size)
        if kind:
            char = OxmlElement("w:fldChar")
            char.set(qn("w:fldCharType"), kind)
            run._r.append(char)
        elif text.strip() == instruction:
            instr = OxmlElement("w:instrText")
            instr.set(qn("xml:space"), "preserve")
            instr.text = text
            run._r.append(instr)
        else:
            run.text = text


def _with_tabs(paragraph, section) -> None:
    """A centre and a right tab stop across the text width."""
    width = section.page_width - section.left_margin - section.right_margin
    stops = paragraph.paragraph_format.tab_stops
    stops.add_tab_stop(int(width / 2), WD_TAB_ALIGNMENT.CENTER)
    stops.add_tab_stop(width, WD_TAB_ALIGNMENT.RIGHT)


# --- Page margins (the PDF's @page boxes) ----------------------------------------------


def _running_header(doc, context: dict) -> None:
    """Left: the title; centre: DRAFT for a draft; right: case number · case name · CBI
    label. The first page, whose title row says as much, has only DRAFT (as the PDF,
    whose first page has no running header)."""
    section = doc.sections[0]
    section.different_first_page_header_footer = True
    paragraph = section.header.paragraphs[0]
    _with_tabs(paragraph, section)
    _run(paragraph, TITLE, bold=True).font.size = Pt(9)
    paragraph.add_run("\t")
    _draft_mark(paragraph, context)
    paragraph.add_run("\t")
    _run(paragraph, f"{context['case_number']} · {context['case_name']} · {context['cbi_label']}").font.size = Pt(9)
    first = section.first_page_header.paragraphs[0]
    first.alignment = WD_ALIGN_PARAGRAPH.CENTER
    _draft_mark(first, context)


def _draft_mark(paragraph, context: dict) -> None:
    if context["draft"]:
        draft = _run(paragraph, "DRAFT", bold=True)
        draft.font.size, draft.font.color.rgb = Pt(12), CBI_RED


def _running_footer(doc, context: dict) -> None:
    """Left: case number, CBI label and status; right: page N of M. On every page."""
    section = doc.sections[0]
    for footer in (section.footer, section.first_page_footer):
        paragraph = footer.paragraphs[0]
        _with_tabs(paragraph, section)
        _run(paragraph, f"{context['case_number']} · {context['cbi_label']} · {context['running_status']}").font.size = Pt(8)
        paragraph.add_run("\t\t")
        _run(paragraph, "page ").font.size = Pt(8)
        _page_field(paragraph, "PAGE", 8)
        _run(paragraph, " of ").font.size = Pt(8)
        _page_field(paragraph, "NUMPAGES", 8)


# --- First page ----------------------------------------------------------------------


def _title(doc, context: dict) -> None:
    """Title row with the CBI flag, banners, case line, status line, NOT CURRENT box."""
    heading = doc.add_heading(level=1)
    _with_tabs(heading, doc.sections[0])
    heading.add_run(TITLE)
    heading.add_run("\t\t")
    heading.add_run(context["cbi_label"])
    if context["cbi_banner"]:
        banner = _para(doc, context["cbi_banner"], bold=True)
        banner.alignment = WD_ALIGN_PARAGRAPH.CENTER
        banner.runs[0].font.color.rgb = CBI_RED
        _boxed(banner, "AA0000")
    if context["sanitised_note"]:
        _boxed(_para(doc, context["sanitised_note"], bold=True))
    case_line = _para(doc)
    _run(case_line, context["case_name"], bold=True)
    _run(case_line, f" · Case {context['case_number']} · Case type: {context['header']['case_type']}"
                    f" · Revision {context['revision']}")
    _para(doc, context["status_line"])
    _not_current(doc, context["not_current"])


def _not_current(doc, uses: list[dict]) -> None:
    if not uses:
        return
    box = _para(doc)
    _run(box, "NOT CURRENT:", bold=True)
    _run(box, " these uses' results do not follow from their inputs as they stand; do not rely on their figures.")
    _boxed(box, "8A4B00")
    _bullets(doc, (f"Use {u['number']}, {u['title']}: {u['text']}" for u in uses))


def _header_fields(doc, context: dict) -> None:
    """The case header: submission, CRSS, SAT, rating, notes, pollution prevention."""
    h = context["header"]
    _fields(doc, [
        ("PV (kg/yr):", h["pv"], f" {h['volume_qualifier']}"),
        ("ENGINEER:", h["engineer"]),
        ("SUBMITTER:", h["submitter"]),
        ("USE:", h["use"], *((" (concentration ", h["concentration"], ")") if h["concentration"]["text"] else ())),
        ("OTHER USES:", h["other_uses"]),
        ("MSDS:", f"{h['msds']}  Label: {h['label']}"),
        ("TLV/PEL:", h["tlv_pel"]),
    ])
    doc.add_heading("CRSS", level=2)
    _fields(doc, [
        ("Chemical Name:", h["chemical_name"]),
        ("CAS No.:", h["cas_number"]),
        ("S-H2O:", h["solubility"]),
        ("Physical State:", h["physical_state"]),
        ("MW:", h["mw"], f"  %<500: {h['pct_500']}  %<1000: {h['pct_1000']}"),
        ("VP:", h["vp"]),
        ("Consumer Use:", h["consumer_use"]),
    ])
    doc.add_heading("SAT (concerns)", level=2)
    _fields(doc, [
        ("Migration to groundwater:", h["sat_migration"]),
        ("PBT rating:", h["pbt_rating"]),
        ("Health:", h["sat_health"]),
        ("Eco:", h["sat_eco"]),
    ])
    _fields(doc, [("OCCUPATIONAL EXPOSURE RATING:", h["oer"])])
    _notes_and_assumptions(doc, context)
    doc.add_heading("Pollution prevention considerations", level=2)
    _lines(_para(doc), h["pollution_prevention"])
    _fields(doc, [("EXPOSURE-BASED REVIEW:", h["exposure_based_review"])])


def _method_note(s: dict) -> str:
    """After a use's method in the generated-by line: its default set, or that it is not computed."""
    if not s["computed"]:
        return " (not computed yet)"
    return f" ({s['default_set']})" if s["default_set"] else ""


def _notes_and_assumptions(doc, context: dict) -> None:
    doc.add_heading("Notes & key assumptions", level=2)
    generated = context["header"]["generated_by"]
    for s in context["scenarios"]:
        generated += f" {s['title']}: {s['method']}" + _method_note(s) + "."
    _para(doc, generated)
    if context["header"]["notes"]:
        _lines(_para(doc), context["header"]["notes"])
    if context["volume_excess"]:
        paragraph = _para(doc)
        _run(paragraph, "USES AND PRODUCTION VOLUME:", bold=True)
        reason = f" Engineer's reason: {context['volume_reason']}" if context["volume_reason"] else " No reason given yet."
        _run(paragraph, f" {context['volume_message']}{reason}")


# --- Each use ------------------------------------------------------------------------


def _use_section(doc, context: dict, s: dict, number: int) -> None:
    doc.add_heading(f"{context['case_name']}: Use {number}", level=2)
    _fields(doc, [
        ("Use:", s["title"]),
        ("", "site(s) as reported by the submitter" if s["sites_given"] else "unknown site(s)"),
        ("Number of Sites/Location:", s["sites"]),
        ("Days/yr:", s["days"]),
    ])
    if s["not_current"]:
        _boxed(_para(doc, s["not_current"], bold=True), "8A4B00")
    if not s["computed"]:
        _para(doc, "This use has not been computed.", bold=True)
        return
    _use_basis(doc, s)
    _releases(doc, context, s)
    _occupational(doc, s, number)
    if s["notes"]:
        doc.add_heading("Notes", level=3)
        _bullets(doc, s["notes"])


def _use_basis(doc, s: dict) -> None:
    paragraph = _para(doc)
    _run(paragraph, "Basis:", bold=True)
    _run(paragraph, f" Per the {s['method']} ({s['source']}); each estimate's equation and inputs are in the appendix's "
                    "calculation trace, at the step in brackets:")
    _bullets(doc, (f"[{line['step']}] {line['text']}" for line in s["basis"]))
    paragraph = _para(doc)
    _run(paragraph, "Process Description:", bold=True)
    _run(paragraph, f" {s['process']}")
    for warning in s["warnings"]:
        paragraph = _para(doc)
        _run(paragraph, "Warning:", bold=True)
        _run(paragraph, f" {warning}")


def _releases(doc, context: dict, s: dict) -> None:
    """ENVIRONMENTAL RELEASES ESTIMATE SUMMARY: each medium, its blocks, the use's total."""
    doc.add_heading("ENVIRONMENTAL RELEASES ESTIMATE SUMMARY", level=3)
    _para(doc, f"IRER Note: {context['release_note']}", italic=True)
    for group in s["release_groups"]:
        doc.add_heading(group["medium"], level=4)
        for block in group["blocks"]:
            _release_block(doc, block)
    _total(doc, "RELEASE TOTAL", f"{s['release_total']} kg/yr - all sites")


def _release_block(doc, b: dict) -> None:
    """EPA's five-line block, indented, kept on one page."""
    lines = [_block_line(doc, indent=BLOCK_INDENT) for _ in range(5)]
    _release_rate_line(lines[0], b)
    _run(lines[1], _release_year_text(b))
    _run(lines[2], _release_to_text(b))
    _run(lines[3], _release_from_text(b))
    _run(lines[4], _release_basis_text(b))
    for line in lines[:-1]:
        line.paragraph_format.keep_with_next = True
    lines[-1].paragraph_format.space_after = Pt(7)


def _block_line(doc, *, indent):
    paragraph = _para(doc, indent=indent)
    paragraph.paragraph_format.space_after = Pt(0)
    return paragraph


def _release_rate_line(paragraph, b: dict) -> None:
    label = b["label"] + (", site-specific data" if b.get("site_specific") else "")
    _run(paragraph, f"{label}:", bold=True)
    _run(paragraph, f" {b['kg_site_day']} kg/site-day over {b['days']} days/yr from {b['sites']} {b['sites_word']}")


def _release_year_text(b: dict) -> str:
    return (f"or {b['kg_site_year']} kg/site-yr from {b['sites']} {b['sites_word']} or {b['kg_year_all_sites']} "
            "kg/yr-all sites")


def _release_to_text(b: dict) -> str:
    return f"to: {b['to']}"


def _release_from_text(b: dict) -> str:
    return f"from: {b['from']}"


def _release_basis_text(b: dict) -> str:
    return f"basis: {b['basis']}"


def _total(doc, heading: str, text: str) -> None:
    paragraph = _para(doc, heading, bold=True)
    paragraph.add_run().add_break()
    _run(paragraph, text, bold=True)


def _occupational(doc, s: dict, number: int) -> None:
    """OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY: workers, each route's blocks, the doses."""
    doc.add_heading("OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY", level=3)
    paragraph = _para(doc, f"Tot. # of workers exposed via assessed routes: {s['workers']}")
    paragraph.add_run().add_break()
    paragraph.add_run(f"Basis: {s['workers_basis']}.")
    for route in s["routes"]:
        _para(doc, f"{route['title']}:", bold=True)
        if route["blocks"]:
            for block in route["blocks"]:
                _exposure_block(doc, block)
        else:
            _para(doc, route["statement"], indent=BLOCK_INDENT)
    _dose_table(doc, s["doses"], number)


def _exposure_block(doc, x: dict) -> None:
    first = _block_line(doc, indent=BLOCK_INDENT)
    first.paragraph_format.keep_with_next = True
    _run(first, f"{x['letter']}. {x['activity']}", bold=True)
    _run(first, f" ({x['model']}, {x['equation']}): {x['workers']} {x['workers_word']}, {x['days']} days/yr"
                + (f"; {x['basis']}" if x["basis"] else "") + ".")
    for e in x["estimates"]:
        line = _block_line(doc, indent=BLOCK_INDENT)
        line.paragraph_format.keep_with_next = True
        _run(line, f"{e['label']}: {e['mg_day']} mg/day" + (f". basis: {e['basis']}" if e["basis"] else "") + ".")
    _para(doc).paragraph_format.space_after = Pt(2)


def _dose_table(doc, d: dict, number: int) -> None:
    if not d["rows"]:
        return
    if not d["computed"]:
        _para(doc, f"Doses (APDR, ADD, LADD) and airborne concentrations: {d['basis']}.", italic=True)
        return
    header = ["Activity", "Route", "Estimate", "mg/day"]
    header += ["mg/m³", "ppm"] if d["show_concentrations"] else []
    header += ["APDR", "ADD", "LADD"] + (["TLV/PEL"] if d["show_limit"] else [])
    rows, bold = [], set()
    for i, r in enumerate(d["rows"]):
        row = [r["letter"], r["route"], r["label"], r["mg_day"]]
        row += [r["mg_m3"], r["ppm"]] if d["show_concentrations"] else []
        row += list(r["doses"])
        if d["show_limit"]:
            row.append(r["limit"] or "—")
            if r["above"]:
                bold.add((i, len(row) - 1))
        rows.append(row)
    caption = f"Use {number}: doses (mg/kg-day)"
    caption += " and airborne concentrations (8-h TWA)" if d["show_concentrations"] else ""
    _table(doc, header, rows, caption=caption, bold_cells=bold, row_headers=True)
    _para(doc, f"Dose basis: {d['basis']}.", italic=True)


def _all_uses_total(doc, context: dict) -> None:
    if len(context["scenarios"]) > 1:
        _para(doc, f"ALL USES: RELEASE TOTAL {context['all_uses_total']} kg/yr - all sites", bold=True)


# --- Exposure summary ----------------------------------------------------------------


def _exposure_summary(doc, xs: dict) -> None:
    """One table: a group of rows per use, activity and route; the first two columns merged
    down the group, a span row merged across the characterisations."""
    if not xs["groups"]:
        return
    doc.add_heading("Occupational exposure summary", level=2)
    note = f"All uses. TLV/PEL: {xs['limit'] or 'no value given'}. Workers, all sites = workers a site × sites."
    if xs["not_computed"]:
        note += f" Not computed, so not summarised: {'; '.join(xs['not_computed'])}."
    _para(doc, note, italic=True)
    labels = xs["labels"]
    header = ["Use, activity, route", "Workers; days/yr", "Quantity", *labels]
    rows, bold, spans, groups = [], set(), [], []
    for g in xs["groups"]:
        start = len(rows)
        for k, row in enumerate(g["rows"]):
            first = k == 0
            head = _summary_group_texts(g) if first else ("", "")
            if row["span"]:
                cells = [row["cells"][0]["text"]] + [""] * (len(labels) - 1)
                spans.append(len(rows))
            else:
                cells = [c["text"] for c in row["cells"]]
                bold |= {(len(rows), 3 + i) for i, c in enumerate(row["cells"]) if c["above"]}
            bold.add((len(rows), 2))
            rows.append([*head, row["quantity"], *cells])
        groups.append((start, len(rows) - 1))
    table = _table(
        doc, header, rows, bold_cells=bold | {(r, 0) for r, _ in groups},
        caption="By use, activity and route: potential dose rate (mg/day), airborne concentration (8-h TWA) and doses "
                "(APDR, ADD, LADD in mg/kg-day) for each characterisation",
    )
    _merge_summary(table, groups, spans, len(labels))


def _summary_group_texts(g: dict) -> tuple[str, str]:
    activity = f"Use {g['use']}" + (" (NOT CURRENT)" if g["not_current"] else "") + f": {g['activity']} ({g['route']})"
    workers = f"{g['workers']} a site × {g['sites']} {g['sites_word']} = {g['workers_all_sites']}; {g['days']} days/yr"
    return activity, workers


def _merge_summary(table, groups: list[tuple[int, int]], spans: list[int], labels: int) -> None:
    rows = table.rows  # row 0 is the header
    for first, last in groups:
        if last > first:
            for column in (0, 1):
                rows[first + 1].cells[column].merge(rows[last + 1].cells[column])
    for r in spans:
        if labels > 1:
            cells = rows[r + 1].cells
            cells[3].merge(cells[3 + labels - 1])


# --- Appendix ------------------------------------------------------------------------


def _appendix(doc, context: dict) -> None:
    # No page break before it: the pages fill, as the PDF's (Word's headings keep with what follows).
    doc.add_heading("Appendix: releases as computed, inputs used and calculation trace", level=2)
    for number, s in enumerate(context["scenarios"], start=1):
        if not s["computed"]:
            continue
        if s["mass_balance"]:
            _mass_balance(doc, s, number)
        if s.get("computed_bases"):
            _computed_bases(doc, s, number)
        _inputs(doc, s, number)
        _trace(doc, s, number)
    if context["approved_by"]:
        _para(doc, f"Approved by {context['approved_by']} on {_date(context['approved_at'], 'F j, Y')}.")


def _mass_balance(doc, s: dict, number: int) -> None:
    mb = s["mass_balance"]
    doc.add_heading(f"Use {number}: {s['title']}: mass balance (kg/yr, all sites)", level=3)
    if s["not_current"]:
        _boxed(_para(doc, s["not_current"], bold=True), "8A4B00")
    rows = [["Used", mb["used"]]]
    rows += [[f"Released: {label}", amount] for label, amount in mb["rows"]]
    rows += [
        ["Released in all", mb["released"]],
        ["Consumed or destroyed in the process", mb["consumed"]],
        ["Difference (used − released − consumed)", mb["difference"]],
    ]
    _table(doc, None, rows, widths=[3.6, 1.2])
    note = mb["basis"]
    if mb["allowance"]:
        note += f" The documents' conventions release up to {mb['allowance']} kg/yr beyond the use: {mb['allowance_basis']}"
    _para(doc, note, italic=True)


def _computed_bases(doc, s: dict, number: int) -> None:
    """Each release estimate's computed narrative (the blocks' "basis:" is the IRER's)."""
    doc.add_heading(f"Use {number}: {s['title']}: releases as computed", level=3)
    _bullets(doc, (
        f"Release {c['number']}, {c['source']} ({c['model']}, {c['equation']}), {c['label']}: {c['basis']}"
        + (f" Medium: {c['medium']}." if c["medium"] else "")
        for c in s["computed_bases"]
    ))


def _inputs(doc, s: dict, number: int) -> None:
    doc.add_heading(f"Use {number}: {s['title']}: inputs", level=3)
    rows = [[f"{row['symbol']} {row['label']}", row["value"], row["units"], row["standing"], f"[{row['source_ref']}]"]
            for row in s["inputs"]]
    shaded = {i for i, row in enumerate(s["inputs"]) if row["overridden"]}
    _table(doc, ["Input", "Value", "Units", "Standing", "Source or reason"], rows, shaded_rows=shaded,
           widths=[2.7, 0.9, 1.1, 1.5, 0.7])
    for i, source in enumerate(s["sources"], start=1):
        paragraph = _para(doc, f"[{i}] {source}")
        paragraph.paragraph_format.space_after = Pt(1)
        paragraph.runs[0].font.size = Pt(8)


def _trace(doc, s: dict, number: int) -> None:
    doc.add_heading(f"Use {number}: {s['title']}: calculation trace", level=3)
    rows = []
    for step, t in enumerate(s["trace"], start=1):
        calculation = f"{t['symbol']} = {t['equation']}" + (f" with {t['inputs']}" if t["inputs"] else "")
        citation = t["citation"] + (f"; {t['note']}" if t["note"] else "")
        rows.append([str(step), calculation, f"{t['value']} {t['units']}".strip(), citation])
    bold = {(i, 2) for i in range(len(rows))}
    _table(doc, ["Step", "Calculation", "Result", "Citation"], rows, bold_cells=bold, widths=[0.4, 3.4, 1.2, 1.9])
