"""Thin views of contact reports: parse the request, call one selector or service, render
or redirect. Visibility is the selectors' (a 404 for a report or case the user may not
see); who may act is the permissions', enforced by the services (a 403)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from assessments import selectors as case_selectors
from assessments.forms.binding import add_service_errors, posted
from assessments.views import report_download_response
from audit.services import What, cbi_access_record
from reviewer.http import AuthenticatedHttpRequest

from . import permissions, reports, selectors, services
from .forms import ContactReportForm
from .models import ContactReport


def _sanitised(request: HttpRequest) -> bool:
    return request.GET.get("copy") == "sanitised"


@require_http_methods(["GET", "POST"])
def contact_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    if not permissions.can_add(request.user, submission):
        raise PermissionDenied(services.ADD_NOT_ALLOWED)
    user = request.user
    form = ContactReportForm(
        posted(request),
        linkable=selectors.linkable_assessments(submission=submission),
        may_mark_cbi=permissions.can_mark_cbi(user),
        initial={"epa_name": selectors.person(user)},
    )
    if request.method == "POST" and form.is_valid():
        try:
            report = services.contact_report_create(
                submission=submission, by=user, data=form.model_data(), assessments=form.cleaned_data["assessments"]
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, form.saved_message("Contact recorded."))
            return redirect(report)
    return render(request, "contacts/contact_form.html", {"form": form, "submission": submission, "report": None})


@require_http_methods(["GET", "POST"])
def contact_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    report = selectors.contact_report_get(user=request.user, pk=pk)
    if not permissions.can_edit(request.user, report):
        raise PermissionDenied(services.EDIT_NOT_ALLOWED)
    submission = report.submission
    form = ContactReportForm(
        posted(request),
        instance=report,
        linkable=selectors.linkable_assessments(submission=submission),
        linked=list(report.assessments.all()),
        may_mark_cbi=permissions.can_mark_cbi(request.user),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.contact_report_update(
                report=report, by=request.user, data=form.model_data(),
                assessments=form.cleaned_data["assessments"], seen_version=form.cleaned_data.get("version_seen"),
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, form.saved_message("Contact report saved."))
            return redirect("contact-detail", pk=report.pk)
    return render(request, "contacts/contact_form.html", {"form": form, "submission": submission, "report": report})


@require_GET
def contact_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    report = selectors.contact_report_get(user=request.user, pk=pk)
    cbi_access_record(what=What.CONTACT_REPORT, request=request, submission=report.submission, detail=_which(report))
    return render(request, "contacts/contact_detail.html", selectors.report_detail(user=request.user, report=report))


def _which(report: ContactReport) -> str:
    return f"contact report {report.pk}"


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def contact_pdf(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    report = selectors.contact_report_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    printed = reports.contact_report_pdf(user=request.user, report=report, sanitised=sanitised)
    cbi_access_record(what=What.CONTACT_REPORT_PDF, request=request, submission=report.submission,
                      sanitised=sanitised, detail=_which(report))
    return _pdf_response(printed.pdf, printed.filename)


@require_GET
def case_contacts_pdf(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = case_selectors.submission_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    printed = reports.case_contacts_pdf(user=request.user, submission=submission, sanitised=sanitised)
    cbi_access_record(what=What.CONTACT_REPORTS_PDF, request=request, submission=submission, sanitised=sanitised)
    return _pdf_response(printed.pdf, printed.filename)


@require_GET
def irer_with_contacts_download(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """As ``assessments.views.irer_download``: the PDF when stored, else the page that
    follows its drawing (202) or says why it failed (503)."""
    assessment = case_selectors.assessment_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    download = reports.irer_with_contacts_download(user=request.user, assessment=assessment, sanitised=sanitised)
    return report_download_response(request, assessment, download, "irer-contacts-download", sanitised,
                                    what=What.IRER_CONTACTS_PDF)
