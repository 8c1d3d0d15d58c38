"""Contact reports carry the IRER's page furniture: the case, the CBI flag and "page N of
M" (the IRER's wording, as its Word copy's too) in the running header and footer of every
page, and none of it in the page's body.

Each page's text is read back from the PDF by region (``pdftotext -layout`` cropped to the
page's top margin, its bottom margin and what lies between), so a line counts as furniture
only where the margin boxes print it: the header's text written into the body is found."""

import re
import shutil
import subprocess
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from contacts import reports
from tests._review_support import add_computed_scenario, toy_engine
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import make_contact
from tests.reports.conftest import pdf_pages

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("toy_engine"),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils' pdftotext"),
]

CASE = "P-26-0610"
#: The claimed value (the submitter) as the case name spells it: the running header prints
#: the case name, so the sanitised copy's header must not.
CLAIMED = "Acme Photochemicals"
CASE_NAME = f"{CLAIMED} onium salt"
#: The page (US letter, points) and the print stylesheet's margins (irer.css: 0.9in top,
#: 0.8in bottom): the margin boxes print in the margins, the body between them.
PAGE_WIDTH, PAGE_HEIGHT = 612, 792
TOP_MARGIN, BOTTOM_MARGIN = 0.9 * 72, 0.8 * 72
#: What only the furniture may print.
FURNITURE_WORDS = ("Printed", "CBI: Yes", "CBI: No")
PAGE_OF = re.compile(r"\bpage (\d+) of (\d+)\b", re.IGNORECASE)
#: Long enough notes that a case's contact reports run over several pages.
LONG_NOTES = "\n".join(f"Line {n}: the submitter described the coater's cleaning cycle once more." for n in range(14))


@dataclass(frozen=True)
class Page:
    header: str
    body: str
    footer: str


def _region(pdf_path, page: int, *, top: float, height: float) -> str:
    out = subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-x", "0", "-y", str(int(top)),
         "-W", str(PAGE_WIDTH), "-H", str(int(height)), str(pdf_path), "-"],
        check=True, capture_output=True, text=True,
    ).stdout
    return " ".join(out.split())


def pages(pdf: bytes, tmp_path) -> list[Page]:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    body_top, body_bottom = TOP_MARGIN, PAGE_HEIGHT - BOTTOM_MARGIN
    return [
        Page(header=_region(path, n, top=0, height=body_top - 1),
             body=_region(path, n, top=body_top, height=body_bottom - body_top),
             footer=_region(path, n, top=body_bottom + 1, height=BOTTOM_MARGIN))
        for n in range(1, pdf_pages(pdf) + 1)
    ]


@pytest.fixture
def case(reviewer):
    submission = make_submission(case_number=CASE, case_name=CASE_NAME, submitter=CLAIMED, cbi_claims=["submitter"])
    assessment = make_assessment(submission, reviewer)
    add_computed_scenario(assessment)
    now = timezone.now()
    for n in range(4):
        make_contact(submission, reviewer, assessments=[assessment], contacted_at=now - timedelta(days=5 - n),
                     notes=f"Call {n + 1}.\n{LONG_NOTES}")
    make_contact(submission, reviewer, assessments=[assessment], is_cbi=True, submitter_name="Quinn Secret",
                 contacted_at=now - timedelta(hours=2))
    return assessment


def _single(user, assessment, sanitised):
    report = assessment.submission.contact_reports.order_by("contacted_at").last()
    return reports.contact_report_pdf(user=user, report=report, sanitised=sanitised).pdf


def _case(user, assessment, sanitised):
    return reports.case_contacts_pdf(user=user, submission=assessment.submission, sanitised=sanitised).pdf


def _combined(user, assessment, sanitised):
    return reports.irer_with_contacts_pdf(user=user, assessment=assessment, sanitised=sanitised)


KINDS = {"single": _single, "case": _case, "irer-with-contacts": _combined}
COPIES = {"full": False, "sanitised": True}


def contact_pages(kind: str, all_pages: list[Page]) -> list[Page]:
    """The pages printing contact reports: all of them, or the IRER's pages after it from
    the one where the contact reports' section begins."""
    if kind != "irer-with-contacts":
        return all_pages
    start = next(n for n, p in enumerate(all_pages) if "Contact reports: revision" in p.body
                 or "CONTACT REPORTS: REVISION" in p.body)
    return all_pages[start:]


@pytest.mark.parametrize("copy", COPIES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_page_numbers_itself_in_the_footer(kind, copy, reviewer, case, tmp_path):
    printed = pages(KINDS[kind](reviewer, case, COPIES[copy]), tmp_path)
    if kind == "case":
        assert len(printed) > 1, "the case's contact reports run over several pages"
    for number, page in enumerate(printed, start=1):
        assert PAGE_OF.findall(page.footer) == [(str(number), str(len(printed)))], page.footer
        assert not PAGE_OF.search(page.header + page.body)


@pytest.mark.parametrize("copy", COPIES)
@pytest.mark.parametrize("kind", KINDS)
def test_contact_pages_print_case_and_cbi_flag_in_the_header_only(kind, copy, reviewer, case, tmp_path):
    sanitised = COPIES[copy]
    flag = "CBI: No" if sanitised else "CBI: Yes"
    for page in contact_pages(kind, pages(KINDS[kind](reviewer, case, sanitised), tmp_path)):
        for word in FURNITURE_WORDS:
            assert word not in page.body, (word, page.body)
        assert CASE in page.header and flag in page.header, page.header


@pytest.mark.parametrize("kind", KINDS)
def test_sanitised_copy_says_so_and_prints_no_claimed_value_in_the_furniture(kind, reviewer, case, tmp_path):
    for page in contact_pages(kind, pages(KINDS[kind](reviewer, case, True), tmp_path)):
        furniture = f"{page.header} {page.footer}"
        assert "sanitised" in furniture.lower(), furniture
        assert CLAIMED not in furniture and "Quinn Secret" not in furniture and "CBI: Yes" not in furniture


@pytest.mark.parametrize("kind", ["single", "case"])
def test_full_copy_header_names_the_case_as_the_irer_does(kind, reviewer, case, tmp_path):
    for page in pages(KINDS[kind](reviewer, case, False), tmp_path):
        assert f"{CASE} · {CASE_NAME} · CBI: Yes" in page.header, page.header
        assert "sanitised" not in f"{page.header} {page.footer}".lower()


def test_the_irer_pages_keep_their_furniture_beside_the_contact_reports(reviewer, case, tmp_path):
    """The IRER's own pages as the IRER prints them: its first page names the case and the
    flag in its title row, the others in the running header."""
    printed = pages(_combined(reviewer, case, False), tmp_path)
    first_contact_page = len(printed) - len(contact_pages("irer-with-contacts", printed))
    assert first_contact_page >= 1
    assert "INITIAL REVIEW ENGINEERING REPORT" in printed[0].body
    for page in printed[1:first_contact_page]:
        assert "INITIAL REVIEW ENGINEERING REPORT" in page.header and f"{CASE} · {CASE_NAME} · CBI: Yes" in page.header
    for page in printed[first_contact_page:]:
        assert "CONTACT REPORTS" in page.header
    # One wording of the page numbers, the IRER's, on its pages and the contact reports' alike.
    for number, page in enumerate(printed, start=1):
        assert f"page {number} of {len(printed)}" in page.footer, page.footer


def test_contact_pages_flag_cbi_contact_reports_after_an_irer_without_cbi(reviewer, tmp_path):
    submission = make_submission(case_number="P-26-0611")
    assessment = make_assessment(submission, reviewer)
    add_computed_scenario(assessment)
    make_contact(submission, reviewer, assessments=[assessment], is_cbi=True, submitter_name="Quinn Secret")
    printed = pages(_combined(reviewer, assessment, False), tmp_path)
    contact = contact_pages("irer-with-contacts", printed)
    assert all("CBI: No" in p.header for p in printed[1:len(printed) - len(contact)])
    assert contact and all("P-26-0611" in p.header and "CBI: Yes" in p.header for p in contact)
