"""A copy of the report (:class:`.document.Report`) as HTML: the body of the PDF
(``reports/irer.html``, drawn by WeasyPrint) and of the browser preview
(``reports/irer_preview.html``), where the long parts are folded in ``<details>``.

It prints what the copy holds and nothing else: redaction happened before
(:meth:`.document.Report.copy`)."""

from __future__ import annotations

from django.utils.html import escape

from .document import (
    Block,
    Cell,
    Fields,
    Group,
    Heading,
    Inline,
    Items,
    Para,
    Part,
    Report,
    Table,
    Text,
    Withheld,
    Words,
)

_TAGS = {"strong": "strong", "em": "em", "code": "code"}


def _attrs(**attrs: str | int) -> str:
    """HTML attributes, those without a value (or a span of 1) left out; ``class_`` is ``class``."""
    return "".join(f' {name.rstrip("_")}="{escape(str(value))}"' for name, value in attrs.items()
                   if value != "" and not (name in {"rowspan", "colspan"} and value == 1))


def _part(part: Part) -> str:
    text: str = escape(part.text)
    if isinstance(part, (Text, Words)) and ("\n" in part.text):
        text = text.replace("\n", "<br>")
    style = getattr(part, "style", "")
    if style == "cbi":
        return f'<span class="cbi">{text}</span>'
    tag = _TAGS.get(style)
    return f"<{tag}>{text}</{tag}>" if tag else text


def inline_html(parts: Inline) -> str:
    return "".join(_part(p) for p in parts)


def _cell(cell: Cell) -> str:
    tag = "th" if cell.header else "td"
    return (f"<{tag}{_attrs(scope=cell.scope, rowspan=cell.rowspan, colspan=cell.colspan, class_=cell.cls)}>"
            f"{inline_html(cell.content)}</{tag}>")


def _table(table: Table) -> str:
    out = [f'<table{_attrs(class_=table.cls)}>']
    if table.caption:
        out.append(f"<caption>{escape(table.caption)}</caption>")
    if table.columns:
        out.append("<colgroup>" + "".join(f'<col{_attrs(class_=c)}>'
                                          for c in table.columns) + "</colgroup>")
    if table.head:
        out.append("<thead><tr>" + "".join(_cell(c) for c in table.head) + "</tr></thead>")
    for b, body in enumerate(table.bodies):
        rows = []
        for r, row in enumerate(body):
            marked = ' class="overridden"' if table.marked(b, r) else ""
            rows.append(f"<tr{marked}>" + "".join(_cell(c) for c in row) + "</tr>")
        out.append("<tbody>" + "".join(rows) + "</tbody>")
    out.append("</table>")
    return "".join(out)


def block_html(block: Block, *, preview: bool) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}{_cls(block.cls)}>{inline_html(block.content)}</h{block.level}>"
    if isinstance(block, Para):
        content = inline_html(block.content)
        if block.detail and preview:
            summary = escape(block.detail_label) or "more"
            details = f'<details class="irer-detail"><summary>{summary}</summary> {inline_html(block.detail)}</details>'
            if not content:
                return details
            return f'<div{_cls(block.cls)}{_attrs(role=block.role)}><p>{content}</p>{details}</div>'
        if block.detail:
            detail = " ".join(x for x in (escape(block.detail_label), inline_html(block.detail)) if x)
            content = f"{content} {detail}" if content else detail
        return f"<p{_cls(block.cls)}{_attrs(role=block.role)}>{content}</p>"
    if isinstance(block, Fields):
        rows = "".join(f"<dt>{escape(label)}</dt><dd>{inline_html(value)}</dd>" for label, value in block.rows)
        return f'<dl class="fields">{rows}</dl>'
    if isinstance(block, Items):
        tag = "ol" if block.ordered else "ul"
        items = "".join(f"<li>{inline_html(item)}</li>" for item in block.items)
        return f"<{tag}{_cls(block.cls)}>{items}</{tag}>"
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Withheld):  # a copy holds none; the document before a copy is made may
        return "".join(block_html(b, preview=preview) for b in block.blocks)
    return _group(block, preview=preview)


def _group(group: Group, *, preview: bool) -> str:
    inner = "".join(block_html(b, preview=preview) for b in group.blocks)
    folded = group.fold or group.fold_heading is not None
    if folded and preview:
        summary = (block_html(group.fold_heading, preview=preview) if group.fold_heading is not None
                   else inline_html(group.fold))
        return f'<details{_cls(group.cls)}><summary>{summary}</summary>{inner}</details>'
    if folded:
        heading = "" if group.fold_heading is None else block_html(group.fold_heading, preview=preview)
        return heading + inner
    if not group.cls and not group.role and group.tag == "div":
        return inner
    return f"<{group.tag}{_cls(group.cls)}{_attrs(role=group.role)}>{inner}</{group.tag}>"


def _cls(cls: str) -> str:
    return f' class="{escape(cls)}"' if cls else ""


def report_html(report: Report, *, preview: bool) -> str:
    """The report's body (what goes inside ``<div class="irer-sheet">``)."""
    return "".join(block_html(b, preview=preview) for b in report.blocks)


def running_case(report: Report) -> str:
    """The running header's case line as text (an attribute the print stylesheet reads)."""
    return f"{report.running.case_number} · " + "".join(p.text for p in report.running.case)
