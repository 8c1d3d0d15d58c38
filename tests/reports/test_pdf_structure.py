"""Every report PDF is tagged PDF/A-2a (docs/pdf-archival.md). Each kind of PDF is read back
with pikepdf and pdftotext beside the HTML it was drawn from: the structure tree (the
document's headings in its order, tables whose data cells name their header cells, lists),
the title and language, the embedded fonts, the PDF/A identification, the draft watermark
as an artifact, and the text in the order of the headings.

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

