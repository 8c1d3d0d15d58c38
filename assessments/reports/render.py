"""The IRER as HTML (browser preview) and as PDF (WeasyPrint), from one copy of the report
(``reports.context.irer_context``'s ``document``).

The report's body is written by :mod:`.html` into ``reports/_irer_sheet.html``. The PDF
draws it in a document of its own (``reports/irer.html``, the print stylesheets inlined);
the browser preview shows it inside a page of the application (``reports/irer_preview.html``:
the navigation, the way back to the revision, the downloads), its long parts (the
appendix's inputs and trace, each estimate's basis) folded in ``<details>``, which the PDF
never has."""

from __future__ import annotations

import atexit
import base64
import gc
import threading
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from .html import report_html, running_case
from .pdf_artifacts import mark_untagged_content_as_artifacts

TEMPLATE = "reports/irer.html"
PREVIEW_TEMPLATE = "reports/irer_preview.html"
STYLESHEET = "css/irer.css"
#: The running header and footer every printed report shares (the contact reports too).
FURNITURE_STYLESHEET = "css/page-furniture.css"
#: The PDF's stylesheets, in order, each inlined in a ``<style>`` of its own (so each keeps
#: its own @import at its head): the page furniture, then the report's own, which names
#: the report in the header's left box and leaves the first page's header to its title row.
PDF_STYLESHEETS = (FURNITURE_STYLESHEET, STYLESHEET)
WATERMARK_TEMPLATE = "reports/_draft_watermark.svg"
# Every report and contact report PDF is tagged PDF/A-2a (ISO 19005-2, level A): a structure
# tree of headings, tables, lists and paragraphs in reading order, the title shown as the
# window title, the language, every font embedded, the sRGB output intent, the conformance
# in the XMP metadata. Why this level and what is checked: docs/pdf-archival.md.
PDF_VARIANT = "pdf/a-2a"


def irer_html(context: dict[str, Any], *, for_pdf: bool, request: HttpRequest | None = None) -> str:
    """The report's HTML, from the copy in ``context["document"]`` (:mod:`.html` writes its
    body). For the PDF, the report alone with its print stylesheets (:data:`PDF_STYLESHEETS`)
    inlined, so WeasyPrint reads nothing over the network or from the static URL space, and
    what they print is part of the HTML the report cache's key is made of; else the preview
    page of the application (``request``: the user the page's navigation is for)."""
    document = context["document"]
    page = {
        **context,
        "sheet": mark_safe(report_html(document, preview=not for_pdf)),
        "running_case": running_case(document),
        "running": document.running,
        "title": f"IRER {context['case_number']} r{context['revision']}" + (" (sanitised)" if context["sanitised"] else ""),
    }
    if not for_pdf:
        return render_to_string(PREVIEW_TEMPLATE, {**page, "preview": True}, request=request)
    stylesheets = []
    for name in PDF_STYLESHEETS:
        with open(_static_file(name), encoding="utf-8") as handle:
            stylesheets.append(handle.read())
    watermark = _watermark_url() if context.get("draft") else ""
    return render_to_string(TEMPLATE, {**page, "stylesheets": stylesheets, "watermark": watermark})


def _static_file(name: str) -> str:
    """The path of static file ``name`` (``css/irer.css``); a deployment without it cannot
    draw the PDF."""
    path = finders.find(name)
    if path is None:
        raise ImproperlyConfigured(f"The static file {name} the report's PDF needs is not found.")
    return path


def _watermark_url() -> str:
    """The draft's watermark (``reports/_draft_watermark.svg``) as a ``data:`` URL, for the
    PDF's page background."""
    svg = render_to_string(WATERMARK_TEMPLATE).strip().encode("utf-8")
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def irer_pdf(context: dict[str, Any]) -> bytes:
    """The report as PDF bytes."""
    return html_to_pdf(irer_html(context, for_pdf=True))


_fonts = threading.local()
# Dropped before the interpreter tears down the modules its finaliser calls.
atexit.register(lambda: _fonts.__dict__.pop("config", None))


def _font_config() -> Any:
    """This thread's WeasyPrint font configuration, made once and kept: it holds the
    vendored fonts, already handed to fontconfig, and Pango's font map with its shaping
    caches. A new one per render costs a third of a 10-page report's time, and more as a
    process ages; one per thread, because Pango's font map is not shared across threads."""
    if getattr(_fonts, "config", None) is None:
        from weasyprint.text.fonts import FontConfiguration

        _fonts.config = FontConfiguration()
    return _fonts.config


def html_to_pdf(html: str) -> bytes:
    """PDF bytes (tagged PDF/A-2a, :data:`PDF_VARIANT`) from ``irer_html(..., for_pdf=True)``
    or a contact report's document. Relative URLs resolve as in the browser preview,
    against the stylesheet's own file: its @import of ../fonts/fonts.css and that file's
    font URLs reach the vendored fonts in static/fonts/, so no system font is needed. The
    document's ``<title>`` and ``<html lang>`` become the PDF's title and language. The
    running header and footer, which WeasyPrint leaves as marked content of no structure
    element, become pagination artifacts (:mod:`.pdf_artifacts`)."""
    from weasyprint import HTML  # imported here: Pango loads only when a PDF is made

    base_url = Path(_static_file(STYLESHEET)).resolve().as_uri()
    # Python's cyclic garbage collector is paused while WeasyPrint lays the report out: the
    # layout allocates hundreds of thousands of short-lived objects, and each collection
    # they trigger walks the whole heap of a Django process (about 15 % of a 10-page
    # report's time). What the render leaves is collected at the next ordinary collection.
    # The pause is process-wide; report workers draw one report at a time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        drawn = HTML(string=html, base_url=base_url).write_pdf(font_config=_font_config(), pdf_variant=PDF_VARIANT)
    finally:
        if collecting:
            gc.enable()
    return mark_untagged_content_as_artifacts(drawn)


def irer_filename(context: dict[str, Any], *, sanitised: bool) -> str:
    """``IRER-P-18-0123-r2.pdf``; the sanitised copy ends ``-sanitised.pdf``."""
    name = f"IRER-{context['case_number']}-r{context['revision']}"
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
    return f"{safe}{'-sanitised' if sanitised else ''}.pdf"
