"""Reading a copy of the report (``irer_context(...)["document"]``) as the tests need it:
its header fields, its tables by class, its lists, its paragraphs by class."""

from __future__ import annotations

from assessments.reports.document import Fields, Heading, Items, Para, Table, text_of, walk


def document(context):
    return context["document"]


def field(context, label: str, occurrence: int = 0) -> str:
    """The text after ``label`` in the header's label/value lines (its ``occurrence``-th)."""
    found = [text_of(value) for b in walk(document(context).blocks) if isinstance(b, Fields)
             for name, value in b.rows if name == label]
    return found[occurrence]


def field_parts(context, label: str):
    return next(value for b in walk(document(context).blocks) if isinstance(b, Fields)
                for name, value in b.rows if name == label)


def paragraphs(context, cls: str) -> list[str]:
    return [text_of(b.content) for b in walk(document(context).blocks) if isinstance(b, Para) and b.cls == cls]


def headings(context, level: int) -> list[str]:
    return [text_of(b.content) for b in walk(document(context).blocks) if isinstance(b, Heading) and b.level == level]


def items(context, cls: str) -> list[list]:
    """Each list of class ``cls``: its items' parts."""
    return [list(b.items) for b in walk(document(context).blocks) if isinstance(b, Items) and b.cls == cls]


def tables(context, cls: str) -> list[Table]:
    return [b for b in walk(document(context).blocks) if isinstance(b, Table) and b.cls == cls]


def rows(table: Table) -> list[list[str]]:
    """A table's body rows as texts."""
    return [[text_of(c.content) for c in row] for body in table.bodies for row in body]


def cells(table: Table):
    return [list(row) for body in table.bodies for row in body]


def inputs(context, use: int = 0) -> dict[str, dict]:
    """A use's "inputs used" table by symbol (an input named by its label alone, as one the
    engine keys by a name of its own is: by its label): value, units, standing and the source
    it cites."""
    table = tables(context, "inputs")[use]
    sources = [text_of(item) for item in items(context, "sources")[use]]
    out = {}
    for row, parts in zip(rows(table), cells(table)):
        ref = int(row[4].strip("[]"))
        first = parts[0].content[0]
        key = first.text if getattr(first, "style", "") == "code" else row[0]
        out[key] = {"value": row[1], "units": row[2], "standing": row[3],
                    "source": sources[ref - 1].removeprefix(f"[{ref}] ")}
    return out


def release_blocks(context) -> list[dict]:
    """The release blocks, in print order: each one's lines by what they start with."""
    from assessments.reports.document import Group

    out = []
    for block in walk(document(context).blocks):
        if isinstance(block, Group) and block.cls == "block" and len(block.blocks) == 5:
            lines = [text_of(p.content) + (f"{p.detail_label} {text_of(p.detail)}" if p.detail else "")
                     for p in block.blocks]
            out.append({"rate": lines[0], "year": lines[1], "to": lines[2].removeprefix("to: "),
                        "from": lines[3].removeprefix("from: "), "basis": lines[4].removeprefix("basis: ")})
    return out


def use_titles(context) -> list[str]:
    """Each use's title, as its section prints it ("Use: ...")."""
    return [text_of(value) for b in walk(document(context).blocks) if isinstance(b, Fields)
            for name, value in b.rows if name == "Use:"]
