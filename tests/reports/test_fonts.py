"""The report needs no system font: its font is vendored (static/fonts/, "Reviewer Sans",
a Latin subset of Liberation Sans 2.1.5 under the SIL OFL) and reached through
@font-face. The sample IRER is rendered in a subprocess whose fontconfig lists no font
directory at all, so a font that is not vendored cannot be found; its text must still
come out and every font the PDF embeds must be the vendored one."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from pypdf import PdfReader

from assessments.reports.context import irer_context
from assessments.reports.render import irer_html
from tests.reports.conftest import build_sample_assessment, pdf_text

pytestmark = pytest.mark.django_db

FAMILY = "ReviewerSans"  # WeasyPrint names embedded fonts after Pango: Reviewer-Sans, Reviewer-Sans-Bold, ...

# Runs with no database: the HTML comes from the test, the PDF from render.html_to_pdf,
# which is what irer_pdf uses.
RENDER = """
import sys
import django
django.setup()
from assessments.reports.render import html_to_pdf
with open(sys.argv[1], encoding="utf-8") as handle:
    html = handle.read()
with open(sys.argv[2], "wb") as handle:
    handle.write(html_to_pdf(html))
"""


def embedded_fonts(pdf: bytes) -> set[str]:
    """The base names of the fonts the pages use, without the subset tag (``ABCDEF+``)
    and hyphens: ``ReviewerSans``, ``ReviewerSansBold``."""
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        fonts = page.get("/Resources", {}).get_object().get("/Font", {})
        for ref in fonts.get_object().values():
            name = re.sub(r"^[A-Z]{6}\+", "", str(ref.get_object()["/BaseFont"]).lstrip("/"))
            names.add(name.replace("-", ""))
    return names


def no_font_env(tmp_path: Path) -> dict:
    """The environment with a fontconfig that knows no font directory (nor any system
    configuration), so only the fonts the document brings are there."""
    cache = tmp_path / "fc-cache"
    config = tmp_path / "fonts.conf"
    config.write_text(f"<?xml version='1.0'?>\n<fontconfig><cachedir>{cache}</cachedir></fontconfig>\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("FONTCONFIG")}
    env |= {
        "FONTCONFIG_FILE": str(config),
        "DJANGO_SETTINGS_MODULE": "reviewer.settings_test",
        "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
        "HOME": str(tmp_path),  # no ~/.fonts either
    }
    return env


def test_fonts_are_vendored_with_their_licence():
    fonts = Path(settings.BASE_DIR) / "static" / "fonts"
    for style in ("Regular", "Bold", "Italic", "BoldItalic"):
        # TrueType, not WOFF2: WeasyPrint decompresses WOFF2 in Python on every render
        # (about 0.5 s for the four styles); browsers take TrueType as well.
        font = fonts / f"ReviewerSans-{style}.ttf"
        assert font.read_bytes()[:4] == b"\x00\x01\x00\x00" and font.stat().st_size < 120_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts / "OFL.txt").read_text()
    css = (fonts / "fonts.css").read_text()
    assert css.count("@font-face") == 4
    for stylesheet in ("irer.css", "app.css"):
        assert '@import url("../fonts/fonts.css");' in (Path(settings.BASE_DIR) / "static" / "css" / stylesheet).read_text()


def test_report_renders_without_system_fonts(reviewer, tmp_path):
    env = no_font_env(tmp_path)
    if shutil.which("fc-list"):  # the empty configuration really hides the system fonts
        listed = subprocess.run(["fc-list"], env=env, capture_output=True, text=True, timeout=30)
        assert listed.stdout.strip() == ""

    html = tmp_path / "irer.html"
    html.write_text(irer_html(irer_context(assessment=build_sample_assessment(reviewer)), for_pdf=True), encoding="utf-8")
    out = tmp_path / "irer.pdf"
    done = subprocess.run(
        [sys.executable, "-c", RENDER, str(html), str(out)],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    pdf = out.read_bytes()

    text = re.sub(r"\s+", " ", pdf_text(pdf))
    for expected in ("INITIAL REVIEW ENGINEERING REPORT", "RELEASE TOTAL", "Example Photoresist Use IRER", "P-18-0123"):
        assert expected in text, expected
    fonts = embedded_fonts(pdf)
    assert {FAMILY, f"{FAMILY}Bold", f"{FAMILY}Italic"} <= fonts, fonts
    assert all(name.startswith(FAMILY) for name in fonts), fonts
