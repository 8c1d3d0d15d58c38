"""The IRER as a Word document (``reports.docx``), read back with python-docx: the same
report as the PDF from the same context, CBI redaction included, and its download."""

import io
import re
import zipfile
from html.parser import HTMLParser

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from docx import Document
from docx.table import Table
from docx.text.paragraph import Paragraph

from assessments.models import Status
from assessments.reports.context import irer_context
from assessments.reports.docx import DOCX_CONTENT_TYPE, irer_docx
from assessments.reports.render import irer_html
from assessments.reports.services import FULL_COPY_NOT_ALLOWED, irer_docx_download
from tests.reports import reading
from tests.reports.conftest import build_sample_assessment

pytestmark = pytest.mark.django_db


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _block_texts(parent) -> list[str]:
    """The texts of a body, cell, header or footer in document order, tables cell by cell
    (nested tables too)."""
    texts = []
    for child in parent.iter_inner_content():
        if isinstance(child, Paragraph):
            texts.append(child.text)
        elif isinstance(child, Table):
            for row in child.rows:
                for cell in row.cells:
                    texts += _block_texts(cell)
    return texts


def body_texts(document) -> list[str]:
    return [flat(t) for t in _block_texts(document) if t.strip()]


def margin_texts(document) -> list[str]:
    """Every header's and footer's text, of every section and kind (first page, even pages)."""
    texts = []
    for section in document.sections:
        for part in (section.header, section.first_page_header, section.even_page_header,
                     section.footer, section.first_page_footer, section.even_page_footer):
            if not part.is_linked_to_previous:
                texts += [flat(t) for t in _block_texts(part)]
    return texts


def package_text(data: bytes) -> str:
    """The text of every XML part of the package (document, headers, footers, properties,
    styles...), tags removed: what python-docx does not show is searched too."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        parts = [package.read(name).decode("utf-8") for name in package.namelist() if name.endswith((".xml", ".rels"))]
    return "\n".join(re.sub(r"<[^>]+>", " ", part) for part in parts)


def open_docx(data: bytes):
    return Document(io.BytesIO(data))


@pytest.fixture(scope="module")
def sample(django_db_setup, django_db_blocker) -> dict:
    """The sample report as DOCX and as the PDF's HTML, from one context, made once per
    module (in a transaction rolled back after)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tests.conftest import make_user

    with django_db_blocker.unblock(), transaction.atomic():
        user = make_user(get_user_model(), "sample-engineer", group="reviewer", first_name="Riley", last_name="Reviewer")
        context = irer_context(assessment=build_sample_assessment(user))
        data = irer_docx(context)
        html = irer_html(context, for_pdf=True)
        transaction.set_rollback(True)
    document = open_docx(data)
    body = body_texts(document)
    return {"context": context, "data": data, "html": html, "document": document, "body": body, "text": "\n".join(body),
            "margins": margin_texts(document)}


def test_the_file_is_a_word_document_with_the_report_title(sample):
    assert sample["data"].startswith(b"PK")
    document = sample["document"]
    assert document.paragraphs[0].style.name == "Heading 1"
    assert flat(document.paragraphs[0].text) == "INITIAL REVIEW ENGINEERING REPORT CBI: No"
    assert document.core_properties.title == "IRER P-18-0123 r1"


def test_header_block(sample):
    body = sample["body"]
    for expected in (
        "ENGINEER: Riley Reviewer", "SUBMITTER: Photoresist Application Company",
        "Chemical Name: Non-Volatile Photoresist Additive", "PBT rating: P2B1T", "OCCUPATIONAL EXPOSURE RATING: NR",
        "EXPOSURE-BASED REVIEW: No", "MSDS: No Label: No", "Physical State: Liquid",
    ):
        assert expected in body, expected
    assert any(line.startswith("PV (kg/yr): 5,000") and line.endswith("Import Only") for line in body)
    assert any(line.startswith("USE: PMN is a component of a photoresist formulation") and line.endswith("(concentration 15%)")
               for line in body)
    # The figures the document holds (the PDF prints the same document), line by line.
    context = sample["context"]
    for label in ("S-H2O:", "VP:", "Migration to groundwater:", "CAS No.:", "TLV/PEL:"):
        assert flat(f"{label} {reading.field(context, label)}") in body, label
    assert any(line.startswith(f"MW: {reading.field(context, 'MW:').split()[0]} %<500:") for line in body)
    assert "Example Photoresist Use IRER · Case P-18-0123 · Case type: PMN · Revision 1" in body
    assert reading.paragraphs(context, "status-line")[0] in body
    assert any(re.fullmatch(r"CEB Staff Draft \d{1,2}/\d{1,2}/\d{4}", line) for line in body)


def test_headings_use_word_styles(sample):
    headings = {(p.style.name, flat(p.text)) for p in sample["document"].paragraphs if p.style.name.startswith("Heading")}
    for expected in (
        ("Heading 2", "CRSS"), ("Heading 2", "SAT (concerns)"), ("Heading 2", "Example Photoresist Use IRER: Use 1"),
        ("Heading 3", "ENVIRONMENTAL RELEASES ESTIMATE SUMMARY"), ("Heading 3", "OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY"),
        ("Heading 4", "Water"), ("Heading 4", "Water or Incineration"), ("Heading 4", "Incineration or Landfill"),
    ):
        assert expected in headings, expected
    assert any(style == "Heading 2" and text.startswith("Appendix:") and text.endswith("inputs used and calculation trace")
               for style, text in headings)
    assert all(t.style.name == "Table Grid" for t in sample["document"].tables)


# The numbers of tests/reports/test_irer_pdf.py (spec/irer.md, EPA 2018 update, Section 7);
# each block's label ("Output", "High End"...) is the context's, so it is not pinned here.
SAMPLE_BLOCKS = [
    ("1.6E-1", "360", "3", "5.8E+1", "1.7E+2", 2),  # Releases 4 and 5
    ("2.8E-2", "360", "3", "1.0E+1", "3.0E+1", 1),
    ("4.6E-2", "360", "3", "1.7E+1", "5.0E+1", 1),
    ("4.3E+0", "360", "3", "1.5E+3", "4.6E+3", 1),
]


@pytest.mark.parametrize("day,days,sites,site_yr,all_sites,count", SAMPLE_BLOCKS)
def test_sample_release_blocks(sample, day, days, sites, site_yr, all_sites, count):
    """Each block: the label and rate line, the "or" line, then to:, from: and basis:
    (their words are the context's; test_every_release_and_exposure_line_is_the_pdfs
    compares them with the PDF's)."""
    body = sample["body"]
    first = re.compile(rf"^[A-Z][^:]*: {re.escape(day)} kg/site-day over {days} days/yr from {sites} sites$")
    second = f"or {site_yr} kg/site-yr from {sites} sites or {all_sites} kg/yr-all sites"
    starts = [i for i, line in enumerate(body) if first.match(line) and body[i + 1] == second]
    assert len(starts) == count, (day, starts)
    for i in starts:
        to, source, basis = body[i + 2:i + 5]
        assert to.startswith("to: ") and source.startswith("from: ") and basis.startswith("basis: "), body[i:i + 5]


def test_release_total_and_exposures(sample):
    body = sample["body"]
    assert "RELEASE TOTAL 5.0E+3 kg/yr - all sites" in body
    assert "Number of Sites/Location: 3" in body and "Days/yr: 360" in body
    text = sample["text"]
    assert "Tot. # of workers exposed via assessed routes: 198" in text  # 66 a site × 3 sites
    assert any(line.startswith("A. Change-out of liquid photoresist containers") for line in body)
    assert any(line.startswith("Low End of Range: 5.6E+1 mg/day") for line in body)
    assert any(line.startswith("High End of Range: 1.7E+2 mg/day") for line in body)
    assert "--> Application (spin-coat) --> Soft Bake -->" in text
    assert any(line.startswith("[1] Qphoto_day = 36 kg photoresist/site-day") for line in body)


class _Lines(HTMLParser):
    """The text of each <p> and <li> the template prints inside (or as) an element of one
    of ``classes``: the release and exposure blocks, the computed bases of the appendix."""

    VOID = {"br", "img", "col", "meta", "link", "input", "hr"}

    def __init__(self, classes):
        super().__init__()
        self.classes, self.stack, self.line, self.lines = set(classes), [], None, []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        own = set((dict(attrs).get("class") or "").split())
        inside = any(self.classes & c for _, c in self.stack) or bool(self.classes & own)
        self.stack.append((tag, own))
        if tag in ("p", "li") and inside:
            self.line = []

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass
        if tag in ("p", "li") and self.line is not None:
            self.lines.append(flat("".join(self.line)))
            self.line = None

    def handle_data(self, data):
        if self.line is not None:
            self.line.append(data)


def test_every_release_and_exposure_line_is_the_pdfs(sample):
    """Each line of the PDF's release and exposure blocks (and of the appendix's computed
    bases), as the template prints it from the same context, is a line of the Word
    document: the two cannot drift apart when the blocks' keys or wording change."""
    parser = _Lines({"block", "computed-bases"})
    parser.feed(sample["html"])
    assert len(parser.lines) > 20
    body = set(sample["body"])
    missing = [line for line in parser.lines if line not in body]
    assert not missing, missing


def test_doses_and_appendix_are_tables(sample):
    document = sample["document"]
    headers = [[flat(c.text) for c in t.rows[0].cells] for t in document.tables]
    assert ["Activity", "Route", "Estimate", "mg/day", "APDR", "ADD", "LADD"] in headers
    assert ["Input", "Value", "Units", "Standing", "Source or reason"] in headers
    # The calculation trace: numbered steps, as the PDF's list.
    assert any(line.startswith("1. Qphoto_day = Napply × TIMEapply_hours × Qapply / 1,000 mL/L × RHOphoto")
               for line in sample["body"])
    assert "Fchem" in sample["text"] and "Submission: concentration in the use formulation." in sample["text"]


def test_draft_header_and_footer_carry_case_cbi_and_page_numbers(sample):
    section = sample["document"].sections[0]
    header = flat(section.header.paragraphs[0].text)
    assert header == "INITIAL REVIEW ENGINEERING REPORT DRAFT P-18-0123 · Example Photoresist Use IRER · CBI: No"
    assert flat(section.first_page_header.paragraphs[0].text) == "DRAFT"  # the title row says the rest
    for footer in (section.footer, section.first_page_footer):
        assert flat(footer.paragraphs[0].text).startswith("P-18-0123 · CBI: No · CEB Staff Draft")
        xml = footer._element.xml
        assert " PAGE " in xml and " NUMPAGES " in xml


def test_approved_report_has_no_draft_and_names_the_approver(sample_assessment, supervisor):
    sample_assessment.status = Status.APPROVED
    sample_assessment.approved_by = supervisor
    sample_assessment.approved_at = timezone.now()
    sample_assessment.save()
    document = open_docx(irer_docx(irer_context(assessment=sample_assessment)))
    text = "\n".join(body_texts(document) + margin_texts(document))
    assert "DRAFT" not in text
    approved_on = timezone.localtime(sample_assessment.approved_at)
    assert f"Approved {approved_on.month}/{approved_on.day}/{approved_on.year} by sup" in text


CLAIMED = ["Tetrakis", "ethylmethylamino", "352535-01-4", "Deposition Materials Supplier", "1,234", "1234",
           "1.2E+3", "0.85", "85%", "85 %"]


def test_full_cbi_copy_brackets_each_claimed_item(cbi_assessment):
    document = open_docx(irer_docx(irer_context(assessment=cbi_assessment)))
    text = "\n".join(body_texts(document))
    assert "CONTAINS CONFIDENTIAL BUSINESS INFORMATION" in text and "CBI: Yes" in " ".join(margin_texts(document))
    for item in ("[Tetrakis(ethylmethylamino)hafnium]", "[352535-01-4]", "[Deposition Materials Supplier Inc.]", "[1,234]"):
        assert item in text, item


def test_sanitised_copy_contains_no_claimed_value_anywhere(cbi_assessment):
    data = irer_docx(irer_context(assessment=cbi_assessment, sanitised=True))
    document = open_docx(data)
    body, margins = body_texts(document), margin_texts(document)
    props = document.core_properties
    properties = " ".join(str(getattr(props, name) or "") for name in (
        "title", "subject", "author", "last_modified_by", "comments", "keywords", "category", "identifier"))
    everywhere = {"body": "\n".join(body), "margins": "\n".join(margins), "properties": properties,
                  "package": package_text(data)}
    for where, text in everywhere.items():
        for value in CLAIMED:
            assert value not in text and value not in flat(text), (where, value)
    assert "[CBI]" in everywhere["body"] and "SANITISED COPY" in everywhere["body"]
    assert "Chemical Name: Hafnium amide CVD precursor" in body
    assert "SUBMITTER: [CBI]" in body and "CAS No.: [CBI]" in body
    assert any(line.startswith("PV (kg/yr): [CBI]") for line in body)
    assert "CBI: No" in everywhere["margins"] and "P-26-0042" in everywhere["margins"]


def test_service_refuses_the_full_copy_to_an_uncleared_user(cbi_assessment, uncleared_reviewer):
    with pytest.raises(PermissionDenied, match=FULL_COPY_NOT_ALLOWED):
        irer_docx_download(user=uncleared_reviewer, assessment=cbi_assessment, sanitised=False)


# --- The download ------------------------------------------------------------------


def test_download_is_a_word_document_named_after_case_and_revision(client, reviewer, sample_assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{sample_assessment.pk}/irer.docx")
    assert response.status_code == 200 and response["Content-Type"] == DOCX_CONTENT_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-18-0123-r1.docx"'
    assert "PV (kg/yr): 5,000 Import Only" in body_texts(open_docx(response.content))


def test_sanitised_download_has_its_own_name_and_no_claimed_value(client, reviewer, cbi_assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{cbi_assessment.pk}/irer.docx?copy=sanitised")
    assert response.status_code == 200 and response["Content-Type"] == DOCX_CONTENT_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-26-0042-r1-sanitised.docx"'
    text = package_text(response.content)
    assert "[CBI]" in text and not any(value in text for value in CLAIMED)


def test_cleared_user_gets_the_full_copy_of_a_cbi_case(client, reviewer, cbi_assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{cbi_assessment.pk}/irer.docx")
    assert response.status_code == 200
    assert "SUBMITTER: [Deposition Materials Supplier Inc.]" in body_texts(open_docx(response.content))


def test_uncleared_user_gets_404_for_any_copy_of_a_cbi_report(client, uncleared_reviewer, cbi_assessment):
    client.force_login(uncleared_reviewer)
    for url in ("irer.docx", "irer.docx?copy=sanitised"):
        assert client.get(f"/assessments/{cbi_assessment.pk}/{url}").status_code == 404


def test_uncleared_user_may_download_a_public_case(client, uncleared_reviewer, sample_assessment):
    client.force_login(uncleared_reviewer)
    assert client.get(f"/assessments/{sample_assessment.pk}/irer.docx").status_code == 200


def test_anonymous_user_is_sent_to_log_in(client, sample_assessment):
    response = client.get(f"/assessments/{sample_assessment.pk}/irer.docx")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_download_is_get_only(client, reviewer, sample_assessment):
    client.force_login(reviewer)
    assert client.post(f"/assessments/{sample_assessment.pk}/irer.docx").status_code == 405


def test_assessment_page_offers_the_word_downloads(client, reviewer, cbi_assessment, sample_assessment):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{cbi_assessment.pk}/").content.decode()
    assert f'href="/assessments/{cbi_assessment.pk}/irer.docx"' in html and "Download IRER (Word)" in html
    assert f'href="/assessments/{cbi_assessment.pk}/irer.docx?copy=sanitised"' in html
    html = client.get(f"/assessments/{sample_assessment.pk}/").content.decode()
    assert "Download IRER (Word)" in html and "irer.docx?copy=sanitised" not in html


def test_a_case_of_two_uses_prints_both_and_the_all_uses_total(cbi_assessment):
    context = irer_context(assessment=cbi_assessment)
    body = body_texts(open_docx(irer_docx(context)))
    assert any(re.fullmatch(r"ALL USES: RELEASE TOTAL \d\.\dE[+-]\d+ kg/yr - all sites", line) for line in body)
    for number in (1, 2):
        assert f"Hafnium amide CVD precursor: Use {number}" in body
    assert len([line for line in body if re.fullmatch(r"RELEASE TOTAL \d\.\dE[+-]\d+ kg/yr - all sites", line)]) == 2


def test_a_use_changed_since_computed_is_marked_not_current(sample_assessment):
    scenario = sample_assessment.scenarios.get()
    scenario.inputs |= {"stripping_process": "aqueous"}
    scenario.save()
    context = irer_context(assessment=sample_assessment)
    body = body_texts(open_docx(irer_docx(context)))
    assert any(line.startswith("NOT CURRENT: these uses' results do not follow") for line in body)
    assert f"Use 1, {scenario.title}: NOT CURRENT: inputs changed since this use was computed" in body
