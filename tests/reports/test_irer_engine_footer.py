"""Every copy of the IRER names, in every page's footer, the engine that computed its figures
and the digest of that engine's conformance record (issue 42; ``header.engine_footer``):
``Engine 1.2.0 · conformance 9e7515794c28``, the first 12 hex characters of the SHA-256 of
docs/conformance.md as the engine prints it (``manage.py esd conformance | sha256sum``,
docs/reports.md). The same words in the PDF's footer, the Word copy's footer and the preview,
full and sanitised; a figure set stored by an older engine names that engine's version
alone (the installed engine's record is not its record).

The footer's lines are read back from the PDF with their boxes (``pdftotext -bbox-layout``),
so the test sees where each word is drawn: the engine's line is a line of its own under the
status and its CBI banner (and a sealed copy's seal), and no word of the footer touches
another, at US letter and at A4."""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from assessments.esd.results import ENGINE_VERSION
from assessments.models import Scenario, SealedReport
from assessments.reports import cache, header
from assessments.reports.context import irer_context
from assessments.reports.docx import irer_docx
from assessments.reports.render import html_to_pdf, irer_html, irer_pdf
from contacts import reports as contact_reports
from tests.contacts.factories import make_contact
from tests.reports.test_irer_docx import margin_texts, open_docx
from tests.reports.test_sealed_irer import approve

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils' pdftotext"),
]

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "docs" / "conformance.md"
#: The command docs/reports.md gives to check the footer's digest.
DOCUMENTED_COMMAND = "python manage.py esd conformance | sha256sum"
#: The print stylesheet's margins (irer.css): 0.8in at the sides and the bottom.
SIDE_MARGIN = BOTTOM_MARGIN = 0.8 * 72
#: How the IRER's PDF is drawn at A4 for the layout check: the same HTML, A4 pages.
A4 = "<style>@page { size: A4; }</style></head>"
PAGE_OF = re.compile(r"^page \d+ of \d+$")
CBI_BANNER = "CONFIDENTIAL BUSINESS INFORMATION"
#: An approver's name long enough that the sealed copy's status line fills most of the width.
LONG_NAME = {"first_name": "Maximiliana Alexandra", "last_name": "Montgomery-Featherstonehaugh"}


def installed_footer() -> str:
    return f"Engine {ENGINE_VERSION} · conformance {hashlib.sha256(RECORD.read_bytes()).hexdigest()[:12]}"


def flat(text: str) -> str:
    return " ".join(text.split())


# Reading the PDF's footer, word by word --------------------------------------------------------


@dataclass(frozen=True)
class Box:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, slack: float = 0.05) -> bool:
        return (self.x0 < other.x1 - slack and other.x0 < self.x1 - slack
                and self.y0 < other.y1 - slack and other.y0 < self.y1 - slack)


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    lines: tuple[tuple[Box, tuple[Box, ...]], ...]  # each line's box and its words

    def footer(self) -> list[tuple[Box, tuple[Box, ...]]]:
        """The lines drawn in the bottom margin."""
        return [(line, words) for line, words in self.lines if line.y0 >= self.height - BOTTOM_MARGIN]

    def footer_texts(self) -> list[str]:
        return [line.text for line, _ in self.footer()]

    def body_text(self) -> str:
        return " ".join(line.text for line, _ in self.lines if line.y0 < self.height - BOTTOM_MARGIN)


def _box(element, text: str) -> Box:
    return Box(text, *(float(element.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")))


def pdf_pages(pdf: bytes, tmp_path) -> list[Page]:
    """Every page's lines of text with their boxes (points, from the page's top left)."""
    path = tmp_path / "drawn.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-bbox-layout", str(path), "-"], check=True, capture_output=True).stdout
    root = ET.fromstring(out)
    ns = {"x": "http://www.w3.org/1999/xhtml"}
    pages = []
    for page in root.iterfind(".//x:page", ns):
        lines = []
        for line in page.iterfind(".//x:line", ns):
            words = tuple(_box(w, w.text or "") for w in line.iterfind("x:word", ns))
            lines.append((_box(line, " ".join(w.text for w in words)), words))
        pages.append(Page(float(page.get("width")), float(page.get("height")), tuple(lines)))
    return pages


def check_footer_layout(pages: list[Page], expected: str, *, cbi: bool) -> None:
    """On every page: the footer's words lie within the page's side margins and bottom
    margin, none touches another; the engine's line is ``expected``, a line of its own under
    the status (with the CBI banner when ``cbi``), and "page N of M" is beside them."""
    assert pages
    for number, page in enumerate(pages, start=1):
        footer = page.footer()
        texts = [line.text for line, _ in footer]
        assert expected in texts, (number, texts)
        assert expected not in page.body_text(), number
        words = [w for _, ws in footer for w in ws]
        for word in words:
            assert word.x0 >= SIDE_MARGIN - 0.5 and word.x1 <= page.width - SIDE_MARGIN + 0.5, (number, word)
            assert page.height - BOTTOM_MARGIN <= word.y0 and word.y1 <= page.height, (number, word)
        for i, word in enumerate(words):
            for other in words[i + 1:]:
                assert not word.overlaps(other), (number, word, other)
        engine = next(line for line, _ in footer if line.text == expected)
        status = [line for line, _ in footer if line.text != expected and not PAGE_OF.match(line.text)]
        assert status, (number, texts)
        assert all(line.y1 <= engine.y0 + 0.5 for line in status), (number, texts)  # under the status
        status_text = " ".join(line.text for line in status)
        assert (CBI_BANNER in status_text) is cbi, (number, status_text)
        assert any(PAGE_OF.match(t) for t in texts), (number, texts)


def a4_pdf(context) -> bytes:
    return html_to_pdf(irer_html(context, for_pdf=True).replace("</head>", A4, 1))


# The words ----------------------------------------------------------------------------------------


def test_the_digest_is_the_checked_in_records_and_the_engines_output():
    digest = header.installed_conformance_digest()
    assert digest == hashlib.sha256(RECORD.read_bytes()).hexdigest()
    assert header.engine_footer([ENGINE_VERSION]) == installed_footer()
    assert header.engine_footer([]) == installed_footer()  # nothing computed yet: the installed engine


def test_the_documented_command_prints_the_bytes_the_footer_cites():
    """docs/reports.md's check, run as it reads: ``manage.py esd conformance | sha256sum``."""
    assert DOCUMENTED_COMMAND in (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    done = subprocess.run([sys.executable, "manage.py", "esd", "conformance"], cwd=ROOT, env=env,
                          capture_output=True, check=True, timeout=120)
    digest = hashlib.sha256(done.stdout).hexdigest()
    assert digest == header.installed_conformance_digest()
    assert installed_footer().endswith(f"conformance {digest[:header.CONFORMANCE_CHARS]}")


def test_an_older_engines_figures_name_its_version_alone():
    assert header.engine_footer(["1.1.0"]) == "Engine 1.1.0"
    digest = header.installed_conformance_digest()[:12]
    assert header.engine_footer(["1.1.0", ENGINE_VERSION]) == (
        f"Engines 1.1.0 and {ENGINE_VERSION} · conformance {digest} (engine {ENGINE_VERSION})")


def test_the_report_caches_are_keyed_anew_for_the_footer():
    """Copies drawn before the footer (and cached) are not served: the keys' layout versions
    were raised for it (sealed copies are stored bytes and never drawn again)."""
    assert int(cache.KEY_VERSION.removeprefix("irer-pdf-")) >= 5
    assert int(contact_reports.KEY_VERSION.removeprefix("irer-with-contacts-")) >= 5


# Every copy of the sample case ------------------------------------------------------------------


def copies_text(assessment, *, sanitised: bool) -> dict[str, str]:
    context = irer_context(assessment=assessment, sanitised=sanitised)
    return {
        "pdf html": irer_html(context, for_pdf=True),
        "preview": flat(html.unescape(re.sub(r"<[^>]+>", " ", irer_html(context, for_pdf=False)))),
        "word footer": "\n".join(margin_texts(open_docx(irer_docx(context)))),
    }


@pytest.mark.parametrize("sanitised", [False, True], ids=["full", "sanitised"])
def test_the_sample_case_prints_the_footer_in_every_copy(sample_assessment, sanitised, tmp_path):
    expected = installed_footer()
    texts = copies_text(sample_assessment, sanitised=sanitised)
    assert f'data-engine="{html.escape(expected)}"' in texts["pdf html"]
    assert expected in texts["preview"]
    word = open_docx(irer_docx(irer_context(assessment=sample_assessment, sanitised=sanitised)))
    for footer in (word.sections[0].footer, word.sections[0].first_page_footer):
        assert [p.text for p in footer.paragraphs][1:] == [expected]
    pages = pdf_pages(irer_pdf(irer_context(assessment=sample_assessment, sanitised=sanitised)), tmp_path)
    check_footer_layout(pages, expected, cbi=False)


def test_a_result_of_an_older_engine_prints_that_version(sample_assessment, tmp_path):
    for scenario in Scenario.objects.filter(assessment=sample_assessment):
        Scenario.objects.filter(pk=scenario.pk).update(result={**scenario.result, "engine_version": "1.1.0"})
    digest = header.installed_conformance_digest()[:header.CONFORMANCE_CHARS]
    texts = copies_text(sample_assessment, sanitised=False)
    for name, text in texts.items():
        assert "Engine 1.1.0" in text and ENGINE_VERSION not in text.replace("Engine 1.1.0", ""), name
        assert digest not in text, name  # the installed engine's record is not 1.1.0's
    pages = pdf_pages(irer_pdf(irer_context(assessment=sample_assessment)), tmp_path)
    check_footer_layout(pages, "Engine 1.1.0", cbi=False)


# The CBI case: the banner, the sanitised copy, the seal, A4 ---------------------------------------


@pytest.fixture
def approved_cbi(cbi_assessment, reviewer, supervisor):
    """The CBI case approved by a supervisor whose name makes the longest status line: its
    sealed copies' footers print the approval, the CBI banner (the full copy) and the seal."""
    for name, value in LONG_NAME.items():
        setattr(supervisor, name, value)
    supervisor.save()
    return approve(cbi_assessment, reviewer, supervisor)


def test_a_cbi_drafts_copies_print_the_footer_beside_the_banner_at_letter_and_a4(cbi_assessment, tmp_path):
    expected = installed_footer()
    for sanitised in (False, True):
        context = irer_context(assessment=cbi_assessment, sanitised=sanitised)
        for pdf in (irer_pdf(context), a4_pdf(context)):
            check_footer_layout(pdf_pages(pdf, tmp_path), expected, cbi=not sanitised)
        assert expected in "\n".join(margin_texts(open_docx(irer_docx(context))))


def test_the_sealed_copies_print_the_footer_under_the_approval_and_the_seal(approved_cbi, tmp_path):
    expected = installed_footer()
    for copy, sanitised in (("full", False), ("sanitised", True)):
        row = SealedReport.objects.get(assessment=approved_cbi, copy=copy)
        letter = pdf_pages(bytes(row.pdf), tmp_path)
        check_footer_layout(letter, expected, cbi=not sanitised)
        status = " ".join(t for t in letter[0].footer_texts() if t != expected and not PAGE_OF.match(t))
        assert "Montgomery-Featherstonehaugh" in status and f"Seal {row.seal}" in status, status
        assert (CBI_BANNER in status) is not sanitised, status  # the sanitised copy: no CBI in its footer
        # The same sealed copy drawn at A4 (as seal.sealed_pdf_bytes draws it, on A4 pages).
        context = irer_context(assessment=approved_cbi, sanitised=sanitised)
        context["printed_at"] = context["approved_at"]
        document = context["document"]
        running = replace(document.running, status=header.sealed_footer(document.running.status, row.seal))
        a4 = pdf_pages(a4_pdf({**context, "document": replace(document, running=running)}), tmp_path)
        assert a4[0].width < letter[0].width
        check_footer_layout(a4, expected, cbi=not sanitised)


def test_contact_reports_alone_print_no_engine_line(cbi_assessment, reviewer, tmp_path):
    """The page furniture the contact reports share prints the engine's line only where the
    document names an engine (the IRER), so a contact report's footer stays one line."""
    make_contact(cbi_assessment.submission, reviewer, assessments=[cbi_assessment])
    pdf = contact_reports.case_contacts_pdf(user=reviewer, submission=cbi_assessment.submission, sanitised=False).pdf
    for page in pdf_pages(pdf, tmp_path):
        texts = page.footer_texts()
        assert not [t for t in texts if t.startswith("Engine")], texts
        assert any(t.startswith("Printed") for t in texts), texts
