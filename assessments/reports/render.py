"""The IRER as HTML (browser preview) and as PDF (WeasyPrint), from one template and
one context (``reports.context.irer_context``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

TEMPLATE = "reports/irer.html"
STYLESHEET = "css/irer.css"


def irer_html(context: dict, *, for_pdf: bool) -> str:
    """The report's HTML. For the PDF the print stylesheet is inlined, so WeasyPrint
    reads nothing over the network or from the static URL space."""
    css = ""
    if for_pdf:
        path = finders.find(STYLESHEET)
        with open(path, encoding="utf-8") as handle:
            css = handle.read()
    return render_to_string(TEMPLATE, {**context, "for_pdf": for_pdf, "inline_css": css})


def irer_pdf(context: dict) -> bytes:
    """The report as PDF bytes."""
    from weasyprint import HTML  # imported here: Pango loads only when a PDF is made

    html = irer_html(context, for_pdf=True)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


def irer_filename(context: dict, *, sanitised: bool) -> str:
    """``IRER-P-18-0123-r2.pdf``; the sanitised copy ends ``-sanitised.pdf``."""
    name = f"IRER-{context['case_number']}-r{context['revision']}"
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
    return f"{safe}{'-sanitised' if sanitised else ''}.pdf"
