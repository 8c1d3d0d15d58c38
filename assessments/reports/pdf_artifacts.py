"""The running header and footer of a tagged PDF as pagination artifacts.

WeasyPrint 70 draws the page's margin boxes (our running header and footer: the case, the
CBI flag, the status or print date, "page N of M") as marked content with a marked-content
id (``/Span <</MCID n>> BDC``), and builds structure elements for them that it leaves out of
the structure tree (``weasyprint/pdf/tags.py``, ``_build_box_tree``: "It could be included
in tree as Artifact, but that's only allowed in PDF 2.0"); only the ParentTree reaches them.
That text is then content of no structure element, which PDF/UA (ISO 14289-1, 7.1) and
PDF/A-2a (ISO 19005-2, 6.8) do not allow: content is either tagged, or an artifact.

:func:`mark_untagged_content_as_artifacts` rewrites each marked-content sequence whose id
no element of the structure tree references as a pagination artifact (ISO 32000-1,
14.8.2.2.2, ``/Artifact <</Type /Pagination /Subtype /Header>> BDC``; ``/Footer`` in the
lower half of the page, no subtype where it draws no text), and drops those ids from the
ParentTree, so the tree names only content that is there; the structure elements WeasyPrint
made for them, reached from nothing else, are not written. Nothing else of the file changes:
its other streams are copied as they were compressed, the XMP metadata's text (the PDF/A
identification) and the trailer's first /ID as they were (QPDF writes the metadata stream
uncompressed and the second /ID as a digest of the content); the same input gives the same
bytes. It takes about 10 to 15 ms a page, a sixth or less of WeasyPrint's own time.
"""

from __future__ import annotations

from io import BytesIO

import pikepdf
from pikepdf import Array, ContentStreamInlineImage, ContentStreamInstruction, Dictionary, Name, Operator

#: Operators that show text: where a sequence's text first lands gives its place on the page.
TEXT_SHOWING = frozenset({"Tj", "TJ", "'", '"'})
#: The operators :func:`_untagged` reads: marked content, and where text is drawn.
FOLLOWED = TEXT_SHOWING | {"BDC", "BMC", "EMC", "q", "Q", "cm", "BT", "Tm", "Td", "TD"}

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mark_untagged_content_as_artifacts(pdf_bytes: bytes) -> bytes:
    """The PDF with every marked-content sequence the structure tree does not reference made
    a pagination artifact, and the ParentTree without those ids; ``pdf_bytes`` itself when
    it is not tagged or has no such sequence."""
    with pikepdf.open(BytesIO(pdf_bytes)) as pdf:
        tree = pdf.Root.get("/StructTreeRoot")
        if not isinstance(tree, Dictionary):
            return pdf_bytes
        tagged = tagged_mcids(tree)
        parents = parent_tree_arrays(tree)
        changed = False
        for page in pdf.pages:
            instructions = list(pikepdf.parse_content_stream(page))
            untagged = _untagged(instructions, tagged.get(page.obj.objgen, set()))
            if not untagged:
                continue
            middle = _middle(page)
            for index, (_, text_y) in untagged.items():
                subtype = None if text_y is None else Name.Header if text_y > middle else Name.Footer
                instructions[index] = ContentStreamInstruction([Name.Artifact, pagination(subtype)], Operator("BDC"))
            _set_contents(pdf, page, pikepdf.unparse_content_stream(instructions))
            key = page.obj.get("/StructParents")
            if key is not None and int(key) in parents:
                _drop(parents[int(key)], {mcid for mcid, _ in untagged.values()})
            changed = True
        if not changed:
            return pdf_bytes
        out = BytesIO()
        # Streams copied as they are compressed (no decoding, no recompression) but the page
        # contents rewritten here, compressed anew; the XMP metadata's text as it was (no
        # metadata "fix"; QPDF stores that stream uncompressed, which PDF/A allows); /ID's
        # first string kept, its second a digest of the content: the same input, the same bytes.
        pdf.save(
            out,
            preserve_pdfa=True,
            fix_metadata_version=False,
            stream_decode_level=pikepdf.StreamDecodeLevel.none,
            object_stream_mode=pikepdf.ObjectStreamMode.preserve,
            deterministic_id=True,
        )
    return out.getvalue()


def pagination(subtype: Name | None) -> Dictionary:
    """A pagination artifact's property list (ISO 32000-1, 14.8.2.2.2, Table 330): its
    subtype, /Header or /Footer, where the sequence shows text."""
    if subtype is None:
        return Dictionary(Type=Name.Pagination)
    return Dictionary(Type=Name.Pagination, Subtype=subtype)


# The structure tree ----------------------------------------------------------------------------


def tagged_mcids(tree: Dictionary) -> dict[tuple[int, int], set[int]]:
    """The marked-content ids the structure tree's elements reference, by page (the page
    object's ``objgen``): integer kids under the nearest /Pg, and marked-content references
    (``/Type /MCR``) on their own /Pg or the element's. Content of form XObjects (``/Stm``)
    is not counted: WeasyPrint tags none."""
    found: dict[tuple[int, int], set[int]] = {}
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Dictionary, pikepdf.Object | None]] = [(tree, None)]
    while stack:
        element, page = stack.pop()
        if element.is_indirect:
            if element.objgen in seen:
                continue
            seen.add(element.objgen)
        page = element.get("/Pg", page)
        for kid in _kids(element):
            if isinstance(kid, int):
                if page is not None:
                    found.setdefault(page.objgen, set()).add(int(kid))
            elif isinstance(kid, Dictionary):
                if kid.get("/Type") == "/MCR":
                    on = kid.get("/Pg", page)
                    if on is not None and "/Stm" not in kid:
                        found.setdefault(on.objgen, set()).add(int(kid.MCID))
                elif kid.get("/Type") != "/OBJR":
                    stack.append((kid, page))
    return found


def _kids(element: Dictionary) -> list[object]:
    kids = element.get("/K")
    if isinstance(kids, Array):
        return list(kids)
    return [] if kids is None else [kids]


def parent_tree_arrays(tree: Dictionary) -> dict[int, Array]:
    """The ParentTree's arrays (each a page's, indexed by marked-content id), by key (the
    page's /StructParents): its /Nums, and its /Kids' down to the leaves."""
    arrays: dict[int, Array] = {}
    stack: list[pikepdf.Object | None] = [tree.get("/ParentTree")]
    while stack:
        node = stack.pop()
        if not isinstance(node, Dictionary):
            continue
        nums: pikepdf.Object = node.get("/Nums", Array())
        for position in range(0, len(nums) - 1, 2):
            entries = nums[position + 1]
            if isinstance(entries, Array):
                arrays[int(nums[position])] = entries
        stack.extend(node.get("/Kids", Array()))
    return arrays


def _drop(entries: Array, mcids: set[int]) -> None:
    """No parent for these ids: trailing entries removed, any other made null (an entry's
    place in the array is its id)."""
    for mcid in mcids:
        if mcid < len(entries):
            entries[mcid] = None
    while len(entries) and entries[len(entries) - 1] is None:
        del entries[len(entries) - 1]


# The page's content ----------------------------------------------------------------------------


def _untagged(
    instructions: list[ContentStreamInstruction | ContentStreamInlineImage], tagged: set[int]
) -> dict[int, tuple[int, float | None]]:
    """For each BDC whose marked-content id the tree does not reference, its index in
    ``instructions``: the id, and the height in the page's default user space where its
    text first lands (``None`` if it shows none), the graphics state's matrix and the text
    matrix followed through q/Q, cm, BT, Tm, Td and TD."""
    found: dict[int, tuple[int, float | None]] = {}
    waiting: list[int] = []  # open untagged sequences that have shown no text yet
    opened: list[int | None] = []  # the open sequences: their index when untagged
    ctm: Matrix = IDENTITY
    saved: list[Matrix] = []
    line: Matrix = IDENTITY
    for index, instruction in enumerate(instructions):
        operator = str(instruction.operator)
        if operator not in FOLLOWED:
            continue
        if operator == "q":
            saved.append(ctm)
        elif operator == "Q":
            ctm = saved.pop() if saved else IDENTITY
        elif operator == "cm":
            ctm = _multiply(_matrix(instruction.operands), ctm)
        elif operator == "BT":
            line = IDENTITY
        elif operator == "Tm":
            line = _matrix(instruction.operands)
        elif operator in ("Td", "TD"):
            x, y = (float(value) for value in instruction.operands)
            line = _multiply((1.0, 0.0, 0.0, 1.0, x, y), line)
        elif operator in TEXT_SHOWING:
            if waiting:
                text_y = _multiply(line, ctm)[5]
                for open_index in waiting:
                    found[open_index] = (found[open_index][0], text_y)
                waiting.clear()
        elif operator == "BDC":
            properties = instruction.operands[1] if len(instruction.operands) > 1 else None
            mcid = properties.get("/MCID") if isinstance(properties, Dictionary) else None
            if mcid is not None and int(mcid) not in tagged:
                found[index] = (int(mcid), None)
                waiting.append(index)
                opened.append(index)
            else:
                opened.append(None)
        elif operator == "BMC":
            opened.append(None)
        elif operator == "EMC" and opened:
            closed = opened.pop()
            if closed in waiting:
                waiting.remove(closed)
    return found


def _matrix(operands: pikepdf._core._ObjectList) -> Matrix:
    a, b, c, d, e, f = (float(value) for value in operands)
    return (a, b, c, d, e, f)


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (ISO 32000-1, 8.3.4: row vectors, m × n)."""
    return (
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    )


def _middle(page: pikepdf.Page) -> float:
    box = [float(value) for value in page.mediabox]
    return (box[1] + box[3]) / 2


def _set_contents(pdf: pikepdf.Pdf, page: pikepdf.Page, data: bytes) -> None:
    """The page's content, in its own stream object when it has one."""
    contents = page.obj.get("/Contents")
    if isinstance(contents, pikepdf.Stream):
        contents.write(data)
    else:
        page.obj.Contents = pdf.make_stream(data)
