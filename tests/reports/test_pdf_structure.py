"""Every report PDF is tagged PDF/A-2a (docs/pdf-archival.md). Each kind of PDF is read back
with pikepdf and pdftotext beside the HTML it was drawn from: the structure tree (the
document's headings in its order, tables whose data cells name their header cells, lists),
the title and language, the embedded fonts, the PDF/A identification, the draft watermark
as an artifact, the running header and footer as pagination artifacts (every other marked
content referenced by the structure tree, the ParentTree naming only content that is
there), and the text in the order of the headings.

The six kinds are drawn once for the module, through the functions the downloads call: a
draft IRER, an approved IRER, the sanitised copy of a CBI case, one contact report, all of
a case's contact reports, and the IRER followed by its contact reports."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from io import BytesIO
from unittest import mock

import pikepdf
import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.django_db

KINDS = ("draft", "approved", "sanitised", "contact", "case_contacts", "irer_with_contacts")
#: The kinds drawn from a revision that is not approved: they carry the DRAFT watermark.
DRAFTS = ("draft", "sanitised", "irer_with_contacts")
#: The kinds that print the IRER, and with it its tables.
WITH_TABLES = ("draft", "approved", "sanitised", "irer_with_contacts")
#: The watermark's stroke, the draft's red (#a00000), as the PDF sets it.
WATERMARK_STROKE = b"0.627451 0 0 RG"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")
PAGE_OF = re.compile(r"\bpage (\d+) of (\d+)\b", re.IGNORECASE)
#: The case each kind prints (the contact reports are the draft's case's).
CASE_NUMBERS = {"draft": "P-18-0123", "approved": "P-18-0124", "sanitised": "P-26-0042",
                "contact": "P-18-0123", "case_contacts": "P-18-0123", "irer_with_contacts": "P-18-0123"}
#: The kinds whose first page is the IRER's, which has no running header (its title row
#: prints the case and the CBI flag).
IRER_FIRST = ("draft", "approved", "sanitised", "irer_with_contacts")
# Standard structure types (ISO 32000-1, 14.8.4) a custom tag may be role-mapped to.
HEADINGS = ("/H1", "/H2", "/H3", "/H4", "/H5", "/H6")


@dataclass
class Drawn:
    """One report PDF and the HTML it was drawn from."""

    pdf: bytes
    html: str
    outline: HtmlOutline = field(init=False)

    def __post_init__(self):
        self.outline = HtmlOutline.of(self.html)


class HtmlOutline(HTMLParser):
    """What the HTML promises the PDF: its language, title, headings (level and text, in
    order), and how many tables and lists it has."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.title = ""
        self.headings: list[tuple[int, str]] = []
        self.tables = 0
        self.lists = 0
        self._in: str | None = None
        self._text: list[str] = []

    @classmethod
    def of(cls, html: str) -> HtmlOutline:
        parser = cls()
        parser.feed(html)
        return parser

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang") or ""
        elif tag == "table":
            self.tables += 1
        elif tag in ("ul", "ol", "dl"):
            self.lists += 1
        elif tag == "title" or re.fullmatch(r"h[1-6]", tag):
            self._in, self._text = tag, []

    def handle_endtag(self, tag):
        if tag != self._in:
            return
        text = " ".join("".join(self._text).split())
        if tag == "title":
            self.title = text
        else:
            self.headings.append((int(tag[1]), text))
        self._in = None

    def handle_data(self, data):
        if self._in:
            self._text.append(data)


@pytest.fixture(scope="module")
def drawn(django_db_setup, django_db_blocker) -> dict[str, Drawn]:
    """Each kind of report PDF, drawn from cases built in a transaction rolled back after,
    with the HTML WeasyPrint was given for it."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    import contacts.reports as contact_reports
    from assessments import services
    from assessments.models import Status
    from assessments.reports import render
    from assessments.reports.context import irer_context
    from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
    from tests.conftest import make_assessment, make_submission, make_user
    from tests.contacts.factories import make_contact
    from tests.reports.conftest import build_sample_assessment

    given: list[str] = []
    real = render.html_to_pdf

    def html_to_pdf(html: str) -> bytes:
        given.append(html)
        return real(html)

    def kept(pdf: bytes) -> Drawn:
        return Drawn(pdf, given.pop())

    with (
        django_db_blocker.unblock(), transaction.atomic(),
        mock.patch.object(render, "html_to_pdf", html_to_pdf),
        mock.patch.object(contact_reports, "html_to_pdf", html_to_pdf),
    ):
        users = get_user_model()
        engineer = make_user(users, "structure-engineer", group=REVIEWER_GROUP, cbi=True,
                             first_name="Riley", last_name="Reviewer")
        approver = make_user(users, "structure-supervisor", group=SUPERVISOR_GROUP, cbi=True)

        draft = build_sample_assessment(engineer)
        first = make_contact(draft.submission, engineer, assessments=[draft],
                             notes="Asked how the resist is applied; spin coating confirmed.")
        make_contact(draft.submission, engineer, assessments=[draft], notes="The SDS will follow by mail.")

        approved = build_sample_assessment(engineer, case_number="P-18-0124")
        approved.status = Status.APPROVED
        approved.approved_by = approver
        approved.approved_at = timezone.now()
        approved.save()

        claimed = make_assessment(make_submission(
            case_number="P-26-0042", submitter="Deposition Materials Supplier Inc.",
            chemical_name="Tetrakis(ethylmethylamino)hafnium", generic_name="Hafnium amide CVD precursor",
            production_volume_kg_yr=1234, use_concentration=0.85, physical_state="liquid",
            cbi_claims=["chemical_name", "submitter", "production_volume_kg_yr", "use_concentration"],
        ), engineer)
        scenario = services.scenario_add(assessment=claimed, by=engineer, scenario_key="cvd-2015")
        services.scenario_compute(scenario=scenario, by=engineer)

        found = {
            "draft": kept(render.irer_pdf(irer_context(assessment=draft))),
            "approved": kept(render.irer_pdf(irer_context(assessment=approved))),
            "sanitised": kept(render.irer_pdf(irer_context(assessment=claimed, sanitised=True))),
            "contact": kept(contact_reports.contact_report_pdf(user=engineer, report=first, sanitised=False).pdf),
            "case_contacts": kept(contact_reports.case_contacts_pdf(
                user=engineer, submission=draft.submission, sanitised=False).pdf),
            "irer_with_contacts": kept(contact_reports.irer_with_contacts_pdf(
                user=engineer, assessment=draft, sanitised=False)),
        }
        transaction.set_rollback(True)
    assert not given
    return found


# Reading the PDF ---------------------------------------------------------------------------------


def _kids(element) -> list:
    kids = element.get("/K")
    if isinstance(kids, pikepdf.Array):
        return [kid for kid in kids if isinstance(kid, pikepdf.Dictionary)]
    return [kids] if isinstance(kids, pikepdf.Dictionary) else []


def elements(pdf: pikepdf.Pdf, under=None):
    """The structure elements under ``under`` (the root when ``None``), depth first: the
    tree's reading order."""
    stack = [under if under is not None else pdf.Root.StructTreeRoot]
    while stack:
        element = stack.pop()
        if "/S" in element:
            yield element
        stack.extend(reversed(_kids(element)))


def role(pdf: pikepdf.Pdf, element) -> str:
    """The element's standard structure type, through the tree's /RoleMap if it has one."""
    name = str(element.S)
    role_map = pdf.Root.StructTreeRoot.get("/RoleMap", {})
    seen = set()
    while name in role_map and name not in seen:
        seen.add(name)
        name = str(role_map[name])
    return name


def opened(kind_pdf: bytes) -> pikepdf.Pdf:
    return pikepdf.open(BytesIO(kind_pdf))


def xmp(pdf: pikepdf.Pdf) -> dict[str, str]:
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        return {key: str(value) for key, value in meta.items()}


def fonts(pdf: pikepdf.Pdf):
    """Every font dictionary of the file, composite fonts by their descendant."""
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
            if obj.get("/Subtype") == "/Type0":
                yield from obj.DescendantFonts
            else:
                yield obj


def _stream_draws_stroke(xobject, seen=None) -> bool:
    """Whether a form XObject (or one it draws) sets the watermark's stroke."""
    seen = seen if seen is not None else set()
    if xobject.objgen in seen:
        return False
    seen.add(xobject.objgen)
    if WATERMARK_STROKE in xobject.read_bytes():
        return True
    inner = xobject.get("/Resources", {}).get("/XObject", {})
    return any(_stream_draws_stroke(inner[name], seen) for name in inner)


def watermark_marks(page) -> list[list[str]]:
    """For each place the page draws the watermark's stroke (in its own content or in a
    form it draws), the marked-content tags open there: ``"/Artifact"``, or
    ``"/Span#3"`` for a tag with a marked-content id (content of a structure element)."""
    open_tags: list[str] = []
    found = []
    xobjects = page.Resources.get("/XObject", {})
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op in ("BMC", "BDC"):
            tag = str(operands[0])
            if op == "BDC" and isinstance(operands[1], pikepdf.Dictionary) and "/MCID" in operands[1]:
                tag += f"#{int(operands[1].MCID)}"
            open_tags.append(tag)
        elif op == "EMC":
            open_tags.pop()
        elif _draws_stroke(op, operands, xobjects):
            found.append(list(open_tags))
    return found


def _draws_stroke(op: str, operands, xobjects) -> bool:
    """Whether the operator sets the watermark's stroke, or draws a form that does."""
    if op == "RG":
        return [round(float(value), 6) for value in operands] == [0.627451, 0, 0]
    return op == "Do" and str(operands[0]) in xobjects and _stream_draws_stroke(xobjects[str(operands[0])])


def tagged_mcids(pdf: pikepdf.Pdf) -> dict[tuple[int, int], set[int]]:
    """The marked-content ids the structure tree's elements reference (integer kids under
    the nearest /Pg, marked-content references on theirs), by page ``objgen``."""
    found: dict[tuple[int, int], set[int]] = {}
    for element in elements(pdf):
        page = element.get("/Pg")
        kids = element.get("/K")
        for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
            if isinstance(kid, int) and page is not None:
                found.setdefault(page.objgen, set()).add(int(kid))
            elif isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/MCR":
                found.setdefault(kid.get("/Pg", page).objgen, set()).add(int(kid.MCID))
    return found


def marked_content(page) -> list[tuple[str, str, int | None]]:
    """Each marked-content sequence the page's content opens: operator, tag and id."""
    found = []
    for operands, operator in pikepdf.parse_content_stream(page, "BMC BDC"):
        properties = operands[1] if str(operator) == "BDC" else None
        mcid = properties.get("/MCID") if isinstance(properties, pikepdf.Dictionary) else None
        found.append((str(operator), str(operands[0]), None if mcid is None else int(mcid)))
    return found


def parent_tree(pdf: pikepdf.Pdf) -> dict[int, pikepdf.Array]:
    """The ParentTree's entries that are arrays (a page's, indexed by marked-content id),
    by key (the page's /StructParents)."""
    nums = pdf.Root.StructTreeRoot.ParentTree.Nums
    return {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2) if isinstance(nums[i + 1], pikepdf.Array)}


def artifact_text(pdf: bytes) -> list[dict[str, list[str]]]:
    """For each page, the text pypdf reads inside artifacts, by the artifact's /Subtype
    (``"/Header"``, ``"/Footer"``; ``""`` for none), and as ``"tagged"`` the rest."""
    pages = []
    for page in PdfReader(BytesIO(pdf)).pages:
        open_marks: list[tuple[str, str]] = []
        texts: dict[str, list[str]] = {}

        def before(operator, operands, cm, tm, open_marks=open_marks):
            if operator == b"BDC":
                properties = operands[1] if len(operands) > 1 and hasattr(operands[1], "get") else {}
                open_marks.append((str(operands[0]), str(properties.get("/Subtype", ""))))
            elif operator == b"BMC":
                open_marks.append((str(operands[0]), ""))
            elif operator == b"EMC" and open_marks:
                open_marks.pop()

        def text(found, cm, tm, font, size, open_marks=open_marks, texts=texts):
            if found.strip():
                artifacts = [subtype for tag, subtype in open_marks if tag == "/Artifact"]
                texts.setdefault(artifacts[-1] if artifacts else "tagged", []).append(" ".join(found.split()))

        page.extract_text(visitor_operand_before=before, visitor_text=text)
        pages.append(texts)
    return pages


def flat(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


# The structure tree ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_structure_tree_has_the_documents_headings_in_its_order(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    assert pdf.Root.MarkInfo.Marked is True
    levels = [int(name[2]) for element in elements(pdf) if (name := role(pdf, element)) in HEADINGS]
    assert levels == [level for level, _ in drawn[kind].outline.headings]
    assert {1, 2, 3} <= set(levels)


@pytest.mark.parametrize("kind", KINDS)
def test_tables_have_header_cells_that_each_data_cell_names(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    tables = [element for element in elements(pdf) if role(pdf, element) == "/Table"]
    # A table split across pages is one element a page, so never fewer than in the HTML.
    assert len(tables) >= drawn[kind].outline.tables
    assert bool(tables) == (kind in WITH_TABLES)
    for table in tables:
        cells = list(elements(pdf, table))
        header_ids = {str(cell.ID) for cell in cells if role(pdf, cell) == "/TH"}
        data = [cell for cell in cells if role(pdf, cell) == "/TD"]
        assert header_ids and data
        for cell in data:
            named = [str(header) for header in cell.get("/A", {}).get("/Headers", [])]
            assert named and set(named) <= header_ids


@pytest.mark.parametrize("kind", KINDS)
def test_lists_are_tagged_as_lists_of_items(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    lists = [element for element in elements(pdf) if role(pdf, element) == "/L"]
    assert drawn[kind].outline.lists and len(lists) >= drawn[kind].outline.lists
    for found in lists:
        items = [kid for kid in _kids(found) if role(pdf, kid) == "/LI"]
        assert items and all(any(role(pdf, part) == "/LBody" for part in _kids(item)) for item in items)


# The document: title, language, fonts, PDF/A -----------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_title_is_the_html_title_and_shown_as_the_window_title(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    title = drawn[kind].outline.title
    assert title
    assert str(pdf.docinfo["/Title"]) == title
    assert xmp(pdf)["{http://purl.org/dc/elements/1.1/}title"] == title
    assert pdf.Root.ViewerPreferences.DisplayDocTitle is True


@pytest.mark.parametrize("kind", KINDS)
def test_language_is_english(drawn, kind):
    assert drawn[kind].outline.lang == "en"
    assert str(opened(drawn[kind].pdf).Root.Lang) == "en"


@pytest.mark.parametrize("kind", KINDS)
def test_every_font_is_embedded_and_vendored(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    found = list(fonts(pdf))
    assert found
    for font in found:
        if font.get("/Subtype") == "/Type3":  # glyphs drawn in the file itself
            continue
        assert any(key in font.FontDescriptor for key in FONT_FILES), font.get("/BaseFont")
        # WeasyPrint names an embedded subset "ABCDEF+Reviewer-Sans-Bold"
        assert re.sub(r"^[A-Z]{6}\+", "", str(font.BaseFont).lstrip("/")).replace("-", "").startswith("ReviewerSans")


@pytest.mark.parametrize("kind", KINDS)
def test_identifies_itself_as_pdf_a_2a(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    meta = xmp(pdf)
    assert (meta[f"{PDFAID}part"], meta[f"{PDFAID}conformance"]) == ("2", "A")
    assert pdf.pdf_version == "1.7" and not pdf.is_encrypted
    (intent,) = pdf.Root.OutputIntents
    assert intent.S == "/GTS_PDFA1" and "/DestOutputProfile" in intent
    assert len(pdf.trailer.ID) == 2


# The watermark and the reading order -------------------------------------------------------------


@pytest.mark.parametrize("kind", DRAFTS)
def test_draft_watermark_is_an_artifact_on_every_page(drawn, kind):
    pdf = opened(drawn[kind].pdf)
    for page in pdf.pages:
        marks = watermark_marks(page)
        assert marks, "no watermark on a page"
        for tags in marks:
            assert "/Artifact" in tags and not any("#" in tag for tag in tags), tags
    # nor is it a figure of the structure: the report has no image
    assert not any(role(pdf, element) == "/Figure" for element in elements(pdf))


@pytest.mark.parametrize("kind", ("approved", "contact", "case_contacts"))
def test_no_watermark_where_nothing_is_a_draft(drawn, kind):
    assert not any(watermark_marks(page) for page in opened(drawn[kind].pdf).pages)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("kind", KINDS)
def test_text_extracts_with_the_headings_in_the_documents_order(drawn, kind):
    text = flat(subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=drawn[kind].pdf,
                               capture_output=True, check=True).stdout.decode("utf-8"))
    position = 0
    for level, heading in drawn[kind].outline.headings:
        found = text.find(flat(heading), position)
        assert found >= 0, (level, heading, text[position:position + 300])
        position = found + len(flat(heading))



# The running header and footer: pagination artifacts ------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_all_marked_content_is_in_the_structure_tree_or_an_artifact(drawn, kind):
    """PDF/UA (ISO 14289-1, 7.1), PDF/A-2a: content is either tagged or an artifact.
    WeasyPrint 70 leaves the margin boxes' text as marked content of no element."""
    pdf = opened(drawn[kind].pdf)
    tagged = tagged_mcids(pdf)
    for number, page in enumerate(pdf.pages, start=1):
        for operator, tag, mcid in marked_content(page):
            assert tag == "/Artifact" or mcid in tagged.get(page.obj.objgen, set()), (number, operator, tag, mcid)


@pytest.mark.parametrize("kind", KINDS)
def test_the_parent_tree_names_only_marked_content_that_is_there(drawn, kind):
    """Each page's ParentTree array maps each marked-content id of its content, and no
    other, to the structure element that references it."""
    pdf = opened(drawn[kind].pdf)
    tagged = tagged_mcids(pdf)
    in_tree = {element.objgen for element in elements(pdf)}
    arrays = parent_tree(pdf)
    for number, page in enumerate(pdf.pages, start=1):
        content = [mcid for _, _, mcid in marked_content(page) if mcid is not None]
        assert len(content) == len(set(content)), number
        entries = arrays[int(page.obj.StructParents)]
        named = {mcid for mcid in range(len(entries)) if entries[mcid] is not None}
        assert named == set(content) == tagged.get(page.obj.objgen, set()), number
        for mcid in named:
            parent = entries[mcid]
            assert parent.objgen in in_tree and mcid in list(parent.K if isinstance(parent.K, pikepdf.Array) else [parent.K])


@pytest.mark.parametrize("kind", KINDS)
def test_running_header_and_footer_are_pagination_artifacts(drawn, kind):
    """The footer's "page N of M" on every page and the header's case line on every page
    that has one are text of /Header and /Footer pagination artifacts, never of the
    structure; and they are all the artifacts' text."""
    pdf = opened(drawn[kind].pdf)
    pages = artifact_text(drawn[kind].pdf)
    for number, (page, texts) in enumerate(zip(pdf.pages, pages, strict=True), start=1):
        assert f"page {number} of {len(pages)}" in texts.get("/Footer", []), (number, texts)
        header = " ".join(texts.get("/Header", []))
        if number == 1 and kind in IRER_FIRST:
            assert not header
        else:
            assert CASE_NUMBERS[kind] in header and "CBI:" in header, (number, header)
        assert not PAGE_OF.search(" ".join(texts.get("tagged", []))), number
        assert set(texts) <= {"/Header", "/Footer", "tagged"}, texts
        for operands, _ in pikepdf.parse_content_stream(page, "BDC"):
            if str(operands[0]) == "/Artifact" and "/Subtype" in operands[1]:
                assert operands[1].Type == "/Pagination"


@pytest.mark.parametrize("kind", KINDS)
def test_text_extracts_with_the_running_header_and_footer_once_a_page(drawn, kind):
    """Artifacts are still text: pypdf reads the case line and "page N of M" once a page."""
    reader = PdfReader(BytesIO(drawn[kind].pdf))
    for number, (page, texts) in enumerate(zip(reader.pages, artifact_text(drawn[kind].pdf), strict=True), start=1):
        text = " ".join(page.extract_text().split())
        assert [int(n) for n in PAGE_OF.findall(text)[0]] == [number, len(reader.pages)], number
        assert len(PAGE_OF.findall(text)) == 1, number
        # the header's case line (the report's name and the status may also be the body's)
        for line in texts.get("/Header", []):
            if CASE_NUMBERS[kind] in line:
                assert text.count(line) == 1, (number, line)


def test_the_same_html_draws_the_same_bytes(drawn):
    """Deterministic output: the report cache and the sealed IRER's digest rely on it."""
    from assessments.reports import pdf_artifacts, render

    assert render.html_to_pdf(drawn["contact"].html) == drawn["contact"].pdf
    # and a file with no untagged content is left as it is
    assert pdf_artifacts.mark_untagged_content_as_artifacts(drawn["contact"].pdf) == drawn["contact"].pdf
