"""Contact reports in print: alone (one report, or all of a case's), and after the IRER
("IRER with contact reports": the revision's report followed by the case's contact reports
that apply to that revision). One section template (``contacts/_print_section.html``)
serves both, drawn by the IRER's WeasyPrint machinery (``assessments.reports.render``).

Their pages carry the IRER's page furniture (``static/css/page-furniture.css``): the case
and the CBI flag in the running header of every page ("CBI: No · sanitised copy" in the
sanitised copy), the status or the print date and "page N of M" in the running footer, all
given to the stylesheet in data attributes, so none of it is text in the page's body.

CBI, as the IRER prints it (``assessments.reports.cbi``):

- the full copy brackets every item of a CBI contact report, as the IRER brackets claimed
  items, and says at the head of the section that it contains CBI;
- the sanitised copy prints ``[CBI]`` for every item of a CBI contact report (its date,
  people, phone and notes alike: the contact itself is claimed) and, in the other
  reports, replaces each spelling of the case's claimed values in the text
  (``Cbi.scrub``), as in the IRER's free text.

Who may have which copy is checked first: the full copy of a CBI case only for users
cleared for CBI (``assessments.reports.services.FULL_COPY_NOT_ALLOWED``); and a CBI
contact report is not printed for a user who may not read it (it is not in their list).

The IRER with contact reports is downloaded as the IRER is: from the report cache when
stored, else drawn by a report worker (``assessments.reports.tasks``), the download page
following its task through the IRER's status endpoint. Contact reports alone are short (a page or two each) and are drawn in
the request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.template.loader import render_to_string
from django.utils import timezone

from assessments.models import Assessment, Status, Submission
from assessments.reports.cache import report_key, stored_pdf
from assessments.reports.cbi import CBI_TEXT, Cbi
from assessments.reports.context import SANITISED_NOTE, irer_context
from assessments.reports.render import STYLESHEET as IRER_STYLESHEET
from assessments.reports.render import html_to_pdf, irer_html
from assessments.reports.services import FULL_COPY_NOT_ALLOWED
from assessments.reports.tasks import READY, RenderState, render_request
from assessments.roles import is_cbi_cleared

from .models import ContactReport
from .selectors import contact_reports_for_assessment, contact_reports_for_case, person

SECTION_TEMPLATE = "contacts/_print_section.html"
DOCUMENT_TEMPLATE = "contacts/print.html"
STYLESHEET = "css/contact-reports.css"
#: The running header and footer the contact reports share with the IRER.
FURNITURE_STYLESHEET = "css/page-furniture.css"
#: The section's stylesheets, in order, after the IRER's (which the document alone reads first).
SECTION_STYLESHEETS = (FURNITURE_STYLESHEET, STYLESHEET)
#: Part of the combined report's cache key, beside the IRER's own key: raise it when the
#: same contact reports would now be drawn differently.
# 3: the running header and footer as pagination artifacts; 4: issue 41's layout; 5: the IRER's
# footer names the engine and its conformance record's digest (issue 42).
KEY_VERSION = "irer-with-contacts-5"

CBI_SECTION_NOTE = "CONTAINS CONFIDENTIAL BUSINESS INFORMATION: contact reports marked CBI are in [brackets]"
SANITISED_SECTION_NOTE = "SANITISED COPY: contact reports claimed as confidential business information (CBI) print [CBI] in place of every item."
NO_CONTACTS = "No contact with the submitter is recorded for this revision."
NO_CONTACTS_CASE = "No contact with the submitter is recorded for this case."
WHOLE_CASE = "The case as a whole"
#: The running footer of contact reports printed alone.
PRINTED = "Printed {date}"
CBI_STATUS = " · CONFIDENTIAL BUSINESS INFORMATION"
SANITISED_COPY = " · sanitised copy"


def _check_copy(*, user: User | AnonymousUser, submission: Submission, sanitised: bool) -> None:
    if submission.is_cbi and not sanitised and not is_cbi_cleared(user):
        raise PermissionDenied(FULL_COPY_NOT_ALLOWED)


def _when(value: datetime | None) -> str:
    return f"{timezone.localtime(value):%m/%d/%Y %I:%M %p %Z}" if value else ""


def _party(name: str, affiliation: str) -> str:
    return f"{name}, {affiliation}" if affiliation else name


def contact_entries(reports: Iterable[ContactReport], *, submission: Submission, sanitised: bool) -> list[dict[str, Any]]:
    """What the section prints for each report, CBI applied."""
    cbi = Cbi(submission, sanitised)
    entries = []
    for number, report in enumerate(reports, start=1):
        revisions = ", ".join(str(a.revision) for a in report.assessments.all())
        items = {
            "contacted_at": _when(report.contacted_at),
            "direction": report.get_direction_display(),
            "epa": _party(report.epa_name, report.epa_affiliation),
            "submitter": _party(report.submitter_name, report.submitter_affiliation),
            "phone": report.phone,
            "notes": report.notes,
        }
        if report.is_cbi and sanitised:
            items = dict.fromkeys(items, CBI_TEXT)
        elif report.is_cbi:
            items = {name: f"[{text}]" if text else "" for name, text in items.items()}
        else:
            items = {name: cbi.scrub(text) for name, text in items.items()}
        entries.append({
            "number": number,
            "cbi": report.is_cbi,
            "revisions": f"Revision {revisions}" if revisions else WHOLE_CASE,
            "recorded": f"{person(report.created_by)}, {_when(report.created_at)}" if report.created_by else _when(report.created_at),
            **items,
        })
    return entries


def section_context(reports: Iterable[ContactReport], *, submission: Submission, sanitised: bool, empty: str) -> dict[str, Any]:
    reports = list(reports)
    any_cbi = any(r.is_cbi for r in reports)
    claimed = any_cbi or submission.is_cbi
    return {
        "entries": contact_entries(reports, submission=submission, sanitised=sanitised),
        "empty": empty,
        "sanitised": sanitised,
        "section_note": (SANITISED_SECTION_NOTE if sanitised and any_cbi
                         else CBI_SECTION_NOTE if any_cbi else ""),
        # The CBI flag in the running header of the section's pages, as the IRER's: "CBI:
        # Yes" when the pages print CBI (never in the sanitised copy, which says what it is).
        "prints_cbi": claimed and not sanitised,
        "cbi_label": cbi_flag(prints_cbi=claimed, sanitised=sanitised),
    }


def cbi_flag(*, prints_cbi: bool, sanitised: bool) -> str:
    """The running header's CBI flag: the sanitised copy says what it is.

    >>> cbi_flag(prints_cbi=True, sanitised=False), cbi_flag(prints_cbi=False, sanitised=False)
    ('CBI: Yes', 'CBI: No')
    >>> cbi_flag(prints_cbi=True, sanitised=True)
    'CBI: No · sanitised copy'
    """
    if sanitised:
        return f"CBI: No{SANITISED_COPY}"
    return f"CBI: {'Yes' if prints_cbi else 'No'}"


def _stylesheets(names: Iterable[str]) -> list[str]:
    """Each stylesheet's text, for a ``<style>`` element of its own (so each keeps its own
    @import at its head); a deployment without one cannot draw the PDF."""
    texts = []
    for name in names:
        path = finders.find(name)
        if path is None:
            raise ImproperlyConfigured(f"The static file {name} the contact reports' PDF needs is not found.")
        with open(path, encoding="utf-8") as handle:
            texts.append(handle.read())
    return texts


# Contact reports alone -------------------------------------------------------------------------


@dataclass(frozen=True)
class ContactPdf:
    filename: str
    pdf: bytes


def _filename(*parts: str, sanitised: bool) -> str:
    name = "-".join(parts)
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
    return f"{safe}{'-sanitised' if sanitised else ''}.pdf"


def contacts_document_html(
    *, submission: Submission, reports: Iterable[ContactReport], sanitised: bool, for_pdf: bool, title: str
) -> str:
    cbi = Cbi(submission, sanitised)
    section = section_context(reports, submission=submission, sanitised=sanitised, empty=NO_CONTACTS_CASE)
    case_name = cbi.scrub(submission.case_name or submission.generic_name)
    names = (IRER_STYLESHEET, *SECTION_STYLESHEETS)
    context = {
        **section,
        "title": title,
        "document_title": f"{title.capitalize()} {submission.case_number}{' (sanitised)' if sanitised else ''}",
        "case_number": submission.case_number,
        "case_name": case_name,
        # The margins' text, as the IRER's (``assessments.reports.html.running_case``).
        "running_case": f"{submission.case_number} · {case_name}",
        "running_status": PRINTED.format(date=f"{timezone.localdate():%m/%d/%Y}") + (CBI_STATUS if section["prints_cbi"] else ""),
        "sanitised_note": SANITISED_NOTE if sanitised and submission.is_cbi else "",
        "for_pdf": for_pdf,
        "stylesheets": _stylesheets(names) if for_pdf else [],
        "stylesheet_names": names,
    }
    return render_to_string(DOCUMENT_TEMPLATE, context)


def contact_report_pdf(*, user: User | AnonymousUser, report: ContactReport, sanitised: bool) -> ContactPdf:
    """One contact report as PDF (``report`` as ``contacts.selectors.contact_report_get``
    gave it: one the user may read)."""
    _check_copy(user=user, submission=report.submission, sanitised=sanitised)
    html = contacts_document_html(
        submission=report.submission, reports=[report], sanitised=sanitised, for_pdf=True, title="CONTACT REPORT"
    )
    stamp = timezone.localtime(report.contacted_at).strftime("%Y%m%d-%H%M")
    return ContactPdf(_filename("Contact", report.submission.case_number, stamp, sanitised=sanitised), html_to_pdf(html))


def case_contacts_pdf(*, user: User | AnonymousUser, submission: Submission, sanitised: bool) -> ContactPdf:
    """All the case's contact reports ``user`` may read, oldest first, as PDF."""
    _check_copy(user=user, submission=submission, sanitised=sanitised)
    reports = contact_reports_for_case(user=user, submission=submission)
    html = contacts_document_html(
        submission=submission, reports=reports, sanitised=sanitised, for_pdf=True, title="CONTACT REPORTS"
    )
    return ContactPdf(_filename("Contacts", submission.case_number, sanitised=sanitised), html_to_pdf(html))


# The IRER followed by its contact reports --------------------------------------------------------


def section_html(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> str:
    """The contact reports of ``assessment`` as ``user`` may read them: a section for the
    end of the IRER's HTML, with its own stylesheet."""
    reports = contact_reports_for_assessment(user=user, assessment=assessment)
    context = section_context(reports, submission=assessment.case_data, sanitised=sanitised, empty=NO_CONTACTS)
    return render_to_string(SECTION_TEMPLATE, {**context, "stylesheets": _stylesheets(SECTION_STYLESHEETS),
                                               "in_irer": True, "revision": assessment.revision})


def combined_html(irer: str, section: str) -> str:
    """The IRER's HTML with the section placed last in its body."""
    head, body_end, tail = irer.rpartition("</body>")
    if not body_end:
        return irer + section
    return f"{head}{section}\n{body_end}{tail}"


@dataclass(frozen=True)
class CombinedDownload:
    filename: str
    pdf: bytes | None = None
    render: RenderState | None = None


def _copy(sanitised: bool) -> str:
    """The task's name for the copy, as the IRER's: its download page follows the task
    through the IRER's own status endpoint (``irer-status``), which asks for this name."""
    return "sanitised" if sanitised else "full"


def _combined(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> tuple[str, str, str]:
    """(file name, HTML, cache key) of the IRER with contact reports for ``user``."""
    _check_copy(user=user, submission=assessment.case_data, sanitised=sanitised)  # claims as the IRER prints them
    context = irer_context(assessment=assessment, sanitised=sanitised)
    section = section_html(user=user, assessment=assessment, sanitised=sanitised)
    html = combined_html(irer_html(context, for_pdf=True), section)
    # The IRER's own key (its HTML, the print date fixed for an approved revision, the
    # fonts) and the section's HTML: whatever changes what either prints changes the key.
    digest = hashlib.sha256(KEY_VERSION.encode())
    digest.update(b"\0" + report_key(context, approved=assessment.status == Status.APPROVED).encode() + b"\0")
    digest.update(section.encode("utf-8"))
    filename = _filename("IRER", context["case_number"], f"r{context['revision']}", "with-contacts", sanitised=sanitised)
    return filename, html, digest.hexdigest()


def irer_with_contacts_download(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> CombinedDownload:
    """The IRER followed by its contact reports, as ``reports.services.irer_download``
    serves the IRER: stored PDF, or the task drawing it (enqueued once per key)."""
    filename, html, key = _combined(user=user, assessment=assessment, sanitised=sanitised)
    pdf = stored_pdf(key=key)
    if pdf is not None:
        return CombinedDownload(filename, pdf=pdf)
    state = render_request(key=key, html=html, assessment_id=assessment.pk, copy=_copy(sanitised))
    if state.state == READY:
        pdf = stored_pdf(key=key)
        if pdf is not None:
            return CombinedDownload(filename, pdf=pdf)
    return CombinedDownload(filename, render=state)


def irer_with_contacts_pdf(*, user: User | AnonymousUser, assessment: Assessment, sanitised: bool) -> bytes:
    """The same PDF drawn at once (the command line, the tests)."""
    _, html, _ = _combined(user=user, assessment=assessment, sanitised=sanitised)
    return html_to_pdf(html)
