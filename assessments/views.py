"""Thin views: parse the request, call one selector or service, render or redirect.

Permission and visibility rules live in ``permissions``/``selectors`` and are enforced
by the services; views only translate their exceptions into pages.
"""

from __future__ import annotations

from typing import Protocol

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from reviewer.http import AuthenticatedHttpRequest

from . import case_links, departures, permissions, presentation, review, selectors, services
from .case_list import CASES_PER_PAGE as CASES_PER_PAGE
from .case_list import case_list
from .esd import registry
from .esd.parameters import EngineValidationError
from .events import What, shown
from .exposure_rating import MISSING_RATING, MISSING_RATING_TITLE, printed_rating, rating_help
from .forms import AssessmentNotesForm, SubmissionForm
from .forms.binding import add_service_errors, posted
from .models import SCENARIO_UNDO_MINUTES, Assessment
from .reports import services as report_services
from .reports.docx import DOCX_CONTENT_TYPE
from .reports.tasks import FAILED, RenderState
from .sensitivity_view import use_sensitivity


@require_GET
def home(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The cases the user may see, newest first, with status and engineer; searchable.
    Paged by place (``?after=``/``?before=`` a case's place, ``?oldest=1``), never by
    number: a link the list did not make shows the newest page and says so. "My work"
    heads the home page itself (no search, filter or page asked for), not every page of
    the list."""
    found = case_list(user=request.user, params=request.GET)
    query = request.GET.copy()
    for name in selectors.PAGE_PARAMETERS:
        query.pop(name, None)
    return render(
        request,
        "assessments/home.html",
        {
            "page": found.page,
            "page_problem": found.page_problem,
            "show_my_work": not request.GET,
            "search_note": selectors.SHORT_SEARCH if found.short_search else "",
            "search": found.search,
            "due_filter": found.due_filter,
            "query": query.urlencode(),
            "can_create": permissions.can_create_submission(request.user),
        },
    )


@require_GET
def submission_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = selectors.submission_get(user=request.user, pk=pk)
    shown(what=What.CASE_PAGE, request=request, submission=submission)
    return render(
        request,
        "assessments/submission_detail.html",
        {
            "submission": submission,
            "header_groups": selectors.submission_header_groups(submission=submission),
            "assessments": selectors.assessments_for_submission(submission=submission),
            "can_edit": permissions.can_edit_submission(request.user, submission),
            "can_start": permissions.can_start_assessment(request.user, submission),
        },
    )


@require_http_methods(["GET", "POST"])
def submission_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not permissions.can_create_submission(request.user):
        raise PermissionDenied(services.CREATE_NOT_ALLOWED)
    form = SubmissionForm(posted(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            submission = services.submission_create(
                by=request.user, data=form.model_data(), cbi_claims=form.cbi_claims(), request=request
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Case {submission.case_number} created.")
            return redirect(submission)
    return render(request, "assessments/submission_form.html", {"form": form, "submission": None})


@require_http_methods(["GET", "POST"])
def submission_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = selectors.submission_get(user=request.user, pk=pk)
    if not permissions.can_edit_submission(request.user, submission):
        raise PermissionDenied(services.EDIT_CASE_NOT_ALLOWED)
    amendment = permissions.has_approved_revision(submission)
    if request.method == "GET":
        shown(what=What.CASE_FORM, request=request, submission=submission)
    form = SubmissionForm(posted(request), instance=submission, amendment=amendment, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.submission_update(
                submission=submission,
                by=request.user,
                data=form.model_data(),
                cbi_claims=form.cbi_claims(),
                seen_version=form.cleaned_data.get("version_seen"),
                reason=form.change_reason(),
                request=request,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Case {submission.case_number} {'amended' if amendment else 'saved'}.")
            return redirect(submission)
    return render(request, "assessments/submission_form.html",
                  {"form": form, "submission": submission, "amendment": amendment})


@require_POST
def assessment_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    submission = selectors.submission_get(user=request.user, pk=pk)
    assessment = services.assessment_start(submission=submission, by=request.user)
    messages.success(request, "Assessment started: add a use (scenario) to assess.")
    return redirect("assessment-detail", pk=assessment.pk)


@require_GET
def assessment_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    shown(what=What.ASSESSMENT_PAGE, request=request, assessment=assessment)
    user = request.user
    overview = selectors.assessment_overview(assessment=assessment)
    return render(
        request,
        "assessments/assessment_detail.html",
        {
            "assessment": assessment,
            "submission": assessment.submission,
            # An approved revision shows the case as it was approved (later amendments aside).
            "header_groups": selectors.submission_header_groups(submission=assessment.case_data),
            # Current editions first, earlier ones under their heading; the newest current selected.
            "scenario_choices": [(heading, [(s.key, s.full_title) for s in group])
                                 for heading, group in registry.offered()],
            "scenario_default": registry.default_key(),
            "can_edit": permissions.can_edit_assessment(user, assessment),
            "deleted_uses": selectors.recently_deleted_uses(assessment=assessment),
            **overview,
            "rating": rating_help(assessment=assessment, scenarios=[s for s, _ in overview["scenarios"]]),
            **review.review_context(user=user, assessment=assessment),
        },
    )


@require_http_methods(["GET", "POST"])
def assessment_notes(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    if not permissions.can_edit_assessment(request.user, assessment):
        raise PermissionDenied(services.EDIT_ASSESSMENT_NOT_ALLOWED)
    form = AssessmentNotesForm(posted(request), instance=assessment)
    if request.method == "POST" and form.is_valid():
        fields = form._meta.fields
        assert fields is not None, "AssessmentNotesForm.Meta names the fields it edits"
        data = {name: form.cleaned_data[name] for name in fields}
        try:
            services.assessment_update_notes(
                assessment=assessment, by=request.user, data=data,
                seen_version=form.cleaned_data.get("version_seen"),
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, "Notes saved.")
            return redirect("assessment-detail", pk=assessment.pk)
    return render(
        request, "assessments/assessment_notes.html",
        {"form": form, "assessment": assessment, "rating": rating_help(assessment=assessment)},
    )


@require_POST
def scenario_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    key = request.POST.get("scenario_key", "")
    try:
        scenario = services.scenario_add(
            assessment=assessment, by=request.user, scenario_key=key, title=request.POST.get("title", "")
        )
    except EngineValidationError as exc:
        messages.error(request, " ".join(exc.errors.values()))
        return redirect("assessment-detail", pk=assessment.pk)
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
        return redirect("assessment-detail", pk=assessment.pk)
    return redirect("scenario-wizard", pk=scenario.pk)


@require_GET
def scenario_results(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if not scenario.result:
        messages.info(request, "This use has not been computed yet: finish its wizard first.")
        return redirect("scenario-wizard", pk=scenario.pk)
    shown(what=What.USE_RESULTS, request=request, assessment=scenario.assessment, detail=scenario.title)
    return render(
        request,
        "assessments/scenario_results.html",
        {
            "scenario": scenario,
            "assessment": scenario.assessment,
            **presentation.scenario_results(scenario=scenario),
            "reason_flags": case_links.scenario_reason_flags(scenario=scenario),
            "can_edit": permissions.can_edit_assessment(request.user, scenario.assessment),
            "sensitivity": use_sensitivity(scenario=scenario),
            "departures": departures.use_page(scenario=scenario),
        },
    )


@require_POST
def scenario_duplicate(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    copy = services.scenario_duplicate(scenario=scenario, by=request.user)
    messages.success(request, f"Copied as “{copy.title}”: change its inputs to try a what-if.")
    return redirect("scenario-wizard", pk=copy.pk)


@require_http_methods(["GET", "POST"])
def scenario_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting the use takes away, and a button that deletes it (no script
    needed); POST: delete it. The assessment page then offers to undo the delete."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if request.method == "POST":
        services.scenario_delete(scenario=scenario, by=request.user)
        # To the uses, where the undo is offered.
        return redirect(reverse("assessment-detail", args=[scenario.assessment_id]) + "#uses-title")
    if not permissions.can_edit_assessment(request.user, scenario.assessment):
        raise PermissionDenied(services.EDIT_ASSESSMENT_NOT_ALLOWED)
    return render(
        request,
        "assessments/scenario_confirm_delete.html",
        {
            "scenario": scenario,
            "assessment": scenario.assessment,
            "submission": scenario.assessment.submission,
            "contents": selectors.scenario_contents(scenario=scenario),
            "undo_minutes": SCENARIO_UNDO_MINUTES,
        },
    )


@require_POST
def scenario_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Undo a use's delete (the button the assessment page shows after it)."""
    scenario = selectors.scenario_get(user=request.user, pk=pk, deleted_too=True)
    services.scenario_restore(scenario=scenario, by=request.user)
    messages.success(request, f"“{scenario.title}” restored, with its inputs, reasons, results and report text.")
    return redirect("assessment-detail", pk=scenario.assessment_id)


def _sanitised(request: HttpRequest) -> bool:
    return request.GET.get("copy") == "sanitised"


@require_GET
def irer_preview(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The report inside the application's page: the navigation, the way back to the
    revision and the downloads around it."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    html = report_services.irer_preview(user=request.user, assessment=assessment, sanitised=sanitised, request=request)
    shown(what=What.REPORT_PREVIEW, request=request, assessment=assessment, sanitised=sanitised)
    return HttpResponse(html)


@require_GET
def irer_download(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The PDF when it is stored; else the page that follows its drawing (202), or says
    why it failed (503), and fetches it when ready."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    download = report_services.irer_download(user=request.user, assessment=assessment, sanitised=sanitised)
    return report_download_response(request, assessment, download, "irer-download", sanitised, what=What.IRER_PDF)


class ReportDownload(Protocol):
    """A queued report's download (the IRER's, or the IRER's with its contact reports): its
    file name, and either the PDF or the task drawing it."""

    @property
    def filename(self) -> str: ...

    @property
    def pdf(self) -> bytes | None: ...

    @property
    def render(self) -> RenderState | None: ...


def report_download_response(
    request: AuthenticatedHttpRequest, assessment: Assessment, download: ReportDownload, url_name: str,
    sanitised: bool, *, what: str,
) -> HttpResponse:
    """A queued report's download (the IRER, or the IRER with its contact reports): the PDF
    when it is stored, its handing over recorded in the custody log (``what``: which
    report); else the page that follows its drawing (202) or says why it failed (503),
    warning when the occupational exposure rating is blank."""
    if download.pdf is not None:
        shown(what=what, request=request, assessment=assessment, sanitised=sanitised)
        response = HttpResponse(download.pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{download.filename}"'
        return response
    state = download.render
    assert state is not None, "a download without its PDF names the task drawing it"
    copy = "?copy=sanitised" if sanitised else ""
    return render(
        request,
        "reports/irer_preparing.html",
        {
            "assessment": assessment,
            "submission": assessment.submission,
            "filename": download.filename,
            "render": state,
            "download_url": reverse(url_name, args=[assessment.pk]) + copy,
            "status_url": reverse("irer-status", args=[assessment.pk, state.task_id]) + copy,
            "rating_missing": not printed_rating(assessment),
            "can_edit": permissions.can_edit_assessment(request.user, assessment),
            "missing_title": MISSING_RATING_TITLE,
            "missing_text": MISSING_RATING,
        },
        status=503 if state.state == FAILED else 202,
    )


@require_GET
def irer_docx(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The report as an editable Word document, drawn now."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    sanitised = _sanitised(request)
    download = report_services.irer_docx_download(user=request.user, assessment=assessment, sanitised=sanitised)
    shown(what=What.IRER_DOCX, request=request, assessment=assessment, sanitised=sanitised)
    response = HttpResponse(download.docx, content_type=DOCX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{download.filename}"'
    return response


@require_GET
def irer_status(request: AuthenticatedHttpRequest, pk: int, task_id: str) -> HttpResponse:
    """The state of a report's task as JSON, for the page above (static/js/irer-progress.js)."""
    assessment = selectors.assessment_get(user=request.user, pk=pk)
    state = report_services.irer_render_state(
        user=request.user, assessment=assessment, sanitised=_sanitised(request), task_id=task_id
    )
    if state is None:
        raise Http404("No such report task.")
    return JsonResponse(state.as_json())
