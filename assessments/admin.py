"""Admin: every model, with its history. CBI cases are hidden from uncleared staff
here as everywhere else (selectors.visible_submissions), history pages included.

The admin is an edit path like the pages, under the same rules (``assessments.permissions``),
superusers included:

- Only an assessment's engineer changes or deletes it and its uses (scenarios), and only
  while it is a draft or returned; everyone else sees it read-only. Submitted and approved
  work is read-only for all (no save button, a POST refused, no inline scenario added,
  changed or deleted), and so is a case whose latest revision is submitted or approved
  (``permissions.submission_is_frozen``); a change to a case with an approved revision is an
  amendment and asks its reason, as the case form does.
- What the workflow, the wizard and the engine write is read-only for everyone: an
  assessment's case, revision, engineer (so nobody takes over a draft), status and
  approval; a scenario's case link, key, inputs, reasons, last step, result and the inputs
  it was computed from (``services.scenario_compute`` alone writes a result; the wizard
  alone writes inputs, checking each and asking a reason for each override).
- Adding is the pages' adding: a new assessment is ``services.assessment_start`` (the
  user's own revision 1 of a case without one), a new use ``services.scenario_add``
  (under the user's own editable assessment, an engine scenario).
- The admin saves only the fields its form shows; every other field keeps its stored
  value, so django-simple-history's "revert to this version" reverts those fields only,
  and only where a change is allowed.

Review decisions are a record only the workflow service writes. Underneath, the models
refuse any write to approved work (``models.ApprovedWorkLocked``)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import ForeignKey, Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult
from simple_history.admin import SimpleHistoryAdmin as _SimpleHistoryAdmin

from reviewer.admin_records import ReadOnlyAdmin

from . import permissions, selectors, services
from .esd import registry
from .events import What, shown
from .forms.cases import CaseNumberRule
from .limits import TEXT_LIMITS
from .models import (
    Assessment,
    ReviewDecision,
    Scenario,
    Submission,
    case_snapshot,
    refresh_latest_assessment,
)
from .models.workers import ReportWorker
from .reports.heartbeat import silent_after

_M = TypeVar("_M", bound=Model)

if TYPE_CHECKING:

    class SimpleHistoryAdmin(admin.ModelAdmin[_M]):
        """django-simple-history's admin (``simple_history.admin.SimpleHistoryAdmin``, a
        ``ModelAdmin``), which ships no types: the history page this module overrides beside
        ``ModelAdmin.history_view``."""

        def history_form_view(
            self, request: HttpRequest, object_id: str, version_id: str, extra_context: dict[str, Any] | None = None
        ) -> HttpResponse: ...

else:
    SimpleHistoryAdmin = _SimpleHistoryAdmin


def _staff_user(request: HttpRequest) -> User:
    """The user of an admin page: logged in and staff (``AdminSite.admin_view`` lets no one
    else in)."""
    user = request.user
    assert isinstance(user, User), "the admin site serves logged-in staff only"
    return user


def _keep_stored_values(obj: Model, form: forms.BaseForm) -> None:
    """Give every field of ``obj`` that ``form`` does not edit its stored value back (a
    history "revert" hands the admin a whole old row; a read-only field is not posted)."""
    stored = type(obj)._default_manager.get(pk=obj.pk)
    for field in obj._meta.concrete_fields:
        if not field.primary_key and field.name not in form.fields:
            setattr(obj, field.attname, getattr(stored, field.attname))


def _become(obj: Model, created: Model) -> None:
    """Make the admin's unsaved ``obj`` the row a service ``created`` (for the admin's log
    and redirect)."""
    obj.pk = created.pk
    obj._state.adding = False
    obj.refresh_from_db()


def _deleting_assessments(submission_ids: Collection[int], delete: Callable[[], None]) -> None:
    """Run ``delete`` (of assessments of these cases), then bring each case's copy of its
    latest assessment up to date: a deleted draft may have been the latest revision. The
    cases are locked first, as the workflow locks a case before its assessment."""
    with transaction.atomic():
        list(Submission.objects.select_for_update().filter(pk__in=submission_ids).values_list("pk", flat=True))
        delete()
        refresh_latest_assessment(submission_ids=submission_ids)


class CbiFilteredAdmin(SimpleHistoryAdmin[_M]):
    """Limits the rows to those under a case the user may see, and changes and deletions
    to the rows the user may edit (:meth:`may_edit`)."""

    submission_path = ""  # lookup from this model to its Submission

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        queryset = super().get_queryset(request)
        visible = selectors.visible_submissions(user=request.user)
        if not self.submission_path:
            return queryset.filter(pk__in=visible.values("pk"))
        return queryset.filter(**{f"{self.submission_path}__in": visible.values("pk")})

    def may_edit(self, request: HttpRequest, obj: _M) -> bool:
        """True when the user may change or delete ``obj``, as on the pages."""
        return True

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        if obj is not None and not self.may_edit(request, obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        if obj is not None and not self.may_edit(request, obj):
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: _M, form: forms.ModelForm[_M], change: bool) -> None:
        if change:
            _keep_stored_values(obj, form)
        super().save_model(request, obj, form, change)

    def _visible_object(self, request: HttpRequest, object_id: str) -> _M:
        """The current row, if the user may see it; else 404 (history pages would
        otherwise fall back to the historical records of a hidden CBI case)."""
        try:
            return self.get_queryset(request).get(pk=unquote(object_id))
        except (ObjectDoesNotExist, ValidationError, ValueError):  # the model's DoesNotExist
            raise Http404("No such object.") from None

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        self._visible_object(request, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        current = self._visible_object(request, object_id)
        if request.method == "POST" and not self.has_change_permission(request, current):
            raise PermissionDenied  # "revert" is an edit of the current row
        return super().history_form_view(request, object_id, version_id, extra_context)


class SubmissionAdminForm(CaseNumberRule, forms.ModelForm[Submission]):
    """The admin's case form: a case number is said taken as the case form says it. A number
    held by a case the user may not see passes as free until the rest of the form is valid,
    then is refused as the case services refuse it (``services.CASE_NUMBER_REFUSED``, the
    attempt recorded), since the admin saves when its form is valid."""

    request: HttpRequest | None = None  # the requesting user's request, set by SubmissionAdmin.get_form

    def _post_clean(self) -> None:
        # django-stubs declares no BaseModelForm._post_clean (Django's hook after clean(),
        # where the model's own validation runs: django/forms/models.py).
        super()._post_clean()  # type: ignore[misc]
        hidden = None if self.errors else self.number_held_by_hidden_case()
        if hidden is not None:
            assert self.user is not None, "a case is hidden only from a given user (CaseNumberRule)"
            what = What.CASE_RENAME if self.instance.pk else What.NEW_CASE
            self.add_error(None, services.case_number_refused(  # {"case_number": [...]}
                by=self.user, typed=self.instance.case_number, case=hidden, what=what, request=self.request))


@admin.register(Submission)
class SubmissionAdmin(CbiFilteredAdmin[Submission]):
    list_display = ("case_number", "case_type", "generic_name", "submitter", "production_volume_kg_yr", "is_cbi", "created_at")
    list_filter = ("case_type", "is_cbi", "physical_state")
    search_fields = ("case_number", "generic_name", "chemical_name", "submitter")

    def may_edit(self, request: HttpRequest, obj: Submission) -> bool:
        return not permissions.submission_is_frozen(obj)

    def get_form(
        self, request: HttpRequest, obj: Submission | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Submission]]:
        """Once a revision of the case is approved, a change is an amendment: its reason is
        asked, as the case form asks it (``services.submission_update``)."""
        if kwargs.get("fields"):  # the admin's fieldsets list the field this adds
            kwargs["fields"] = [name for name in kwargs["fields"] if name != "amendment_reason"]
        kwargs["form"] = type("SubmissionAdminForm", (SubmissionAdminForm,), {"user": request.user, "request": request})
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None or not permissions.has_approved_revision(obj):
            return form
        reason = forms.CharField(
            label="Reason for the amendment", widget=forms.Textarea(attrs={"rows": 2}),
            max_length=TEXT_LIMITS["amendment_reason"],
            error_messages={"required": services.AMENDMENT_REASON_REQUIRED},
            help_text="Shown in the history. Approved revisions keep the case as they were approved with.",
        )
        # A subclass of ``form``: the same model form with the reason's field.
        return cast(type[forms.ModelForm[Submission]],
                    type(f"Amendment{form.__name__}", (form,), {"amendment_reason": reason}))

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The case's full data in the admin: recorded in the CBI custody log when the case is CBI."""
        if request.method == "GET":
            try:
                case = self.get_queryset(request).filter(pk=unquote(object_id)).first()
            except (ValidationError, ValueError):
                case = None
            if case is not None:
                shown(what=What.ADMIN_CASE, request=request, submission=case)
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(
        self, request: HttpRequest, obj: Submission, form: forms.ModelForm[Submission], change: bool
    ) -> None:
        reason = form.cleaned_data.get("amendment_reason", "").strip()
        if reason:
            obj._change_reason = reason  # type: ignore[attr-defined]  # django-simple-history reads it at save
        before = case_snapshot(Submission.objects.get(pk=obj.pk)) if change else None
        super().save_model(request, obj, form, change)
        if before is not None:  # the amendment reaches the uses, as the case form's does
            services.uses_follow_case(obj, before=before, by=_staff_user(request))


class ScenarioInline(admin.TabularInline[Scenario, Assessment]):
    """The uses of an assessment: their order and titles, for the engineer of a draft or
    returned assessment; added through ``services.scenario_add`` only (the scenario admin
    or the pages), so never here."""

    model = Scenario
    extra = 0
    fields = ("position", "scenario_key", "title", "computed_at")
    readonly_fields = ("scenario_key", "computed_at")

    def has_add_permission(self, request: HttpRequest, obj: Assessment | None = None) -> bool:
        return False

    # ``obj`` is the parent assessment.
    def has_change_permission(self, request: HttpRequest, obj: Assessment | None = None) -> bool:
        return (obj is None or permissions.can_edit_assessment(request.user, obj)) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Assessment | None = None) -> bool:
        return (obj is None or permissions.can_edit_assessment(request.user, obj)) and super().has_delete_permission(request, obj)


class AssessmentAddForm(forms.ModelForm[Assessment]):
    """Starting an assessment: the case only; refused as ``services.assessment_start``
    refuses it."""

    user: User | AnonymousUser | None = None  # the requesting user, set by AssessmentAdmin.get_form

    class Meta:
        model = Assessment
        fields = ("submission",)

    def clean_submission(self) -> Submission:
        submission: Submission = self.cleaned_data["submission"]
        assert self.user is not None, "AssessmentAdmin.get_form gives the form its user"
        if not permissions.can_start_assessment(self.user, submission):
            raise ValidationError(services.START_NOT_ALLOWED)
        return submission


@admin.register(Assessment)
class AssessmentAdmin(CbiFilteredAdmin[Assessment]):
    submission_path = "submission"
    list_display = ("submission", "revision", "status", "engineer", "updated_at")
    list_filter = ("status",)
    search_fields = ("submission__case_number", "engineer__username")
    list_select_related = ("submission", "engineer")
    # Written by services.assessment_start, the workflow and the submission (the reason
    # the uses exceed the production volume), never here.
    WORKFLOW_FIELDS = ("submission", "revision", "engineer", "status", "approved_by", "approved_at", "volume_excess_reason")
    # The reviewer's choices for the IRER, checked as every way in checks them (Assessment.clean).
    NOTES_FIELDS = Assessment.IRER_CHOICE_FIELDS
    inlines = [ScenarioInline]

    def may_edit(self, request: HttpRequest, obj: Assessment) -> bool:
        # A returned assessment's decisions are the review's record: deleting it is refused
        # because nobody may delete those (ReviewDecisionAdmin), so only a draft is deleted.
        return permissions.can_edit_assessment(request.user, obj)

    def get_fields(self, request: HttpRequest, obj: Assessment | None = None) -> tuple[str, ...]:
        return ("submission",) if obj is None else (*self.WORKFLOW_FIELDS, *self.NOTES_FIELDS)

    def get_readonly_fields(self, request: HttpRequest, obj: Assessment | None = None) -> tuple[str, ...]:
        return () if obj is None else self.WORKFLOW_FIELDS

    def get_inlines(
        self, request: HttpRequest, obj: Assessment | None
    ) -> list[type[InlineModelAdmin[Any, Any]]] | tuple[type[InlineModelAdmin[Any, Any]], ...]:
        return self.inlines if obj is not None else []

    def get_form(
        self, request: HttpRequest, obj: Assessment | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Assessment]]:
        if obj is None:
            kwargs["form"] = type("AssessmentAddForm", (AssessmentAddForm,), {"user": request.user})
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(
        self, request: HttpRequest, obj: Assessment, form: forms.ModelForm[Assessment], change: bool
    ) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:
            _become(obj, services.assessment_start(submission=obj.submission, by=_staff_user(request)))

    def delete_model(self, request: HttpRequest, obj: Assessment) -> None:
        _deleting_assessments([obj.submission_id], lambda: super(AssessmentAdmin, self).delete_model(request, obj))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Assessment]) -> None:
        cases = set(queryset.values_list("submission_id", flat=True))
        _deleting_assessments(cases, lambda: super(AssessmentAdmin, self).delete_queryset(request, queryset))

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField[Any] | None:
        if db_field.name == "submission":
            kwargs["queryset"] = selectors.visible_submissions(user=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ScenarioAddForm(forms.ModelForm[Scenario]):
    """Adding a use: an engine scenario under one of the user's editable assessments."""

    scenario_key = forms.ChoiceField(label="Scenario", choices=())

    class Meta:
        model = Scenario
        fields = ("assessment", "scenario_key", "title")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["scenario_key"]
        assert isinstance(field, forms.ChoiceField), "scenario_key is the choice field declared above"
        field.choices = [(s.key, f"{s.title} ({s.key})") for s in registry.scenarios()]


@admin.register(Scenario)
class ScenarioAdmin(CbiFilteredAdmin[Scenario]):
    submission_path = "assessment__submission"
    list_display = ("assessment", "position", "scenario_key", "title", "computed_at")
    list_filter = ("scenario_key",)
    list_select_related = ("assessment__submission",)
    # The wizard writes the inputs, reasons and step; services.scenario_compute alone the result.
    WRITTEN_ELSEWHERE = ("assessment", "scenario_key", "current_step", "inputs", "reasons",
                         "computed_inputs", "result", "computed_at")

    def may_edit(self, request: HttpRequest, obj: Scenario) -> bool:
        return permissions.can_edit_assessment(request.user, obj.assessment)

    def get_fields(self, request: HttpRequest, obj: Scenario | None = None) -> tuple[str, ...]:
        if obj is None:
            return ("assessment", "scenario_key", "title")
        return ("assessment", "scenario_key", "title", "position", "current_step", "inputs", "reasons",
                "computed_inputs", "result", "computed_at")

    def get_readonly_fields(self, request: HttpRequest, obj: Scenario | None = None) -> tuple[str, ...]:
        return () if obj is None else self.WRITTEN_ELSEWHERE

    def get_form(
        self, request: HttpRequest, obj: Scenario | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Scenario]]:
        if obj is None:
            kwargs["form"] = ScenarioAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Scenario, form: forms.ModelForm[Scenario], change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:
            created = services.scenario_add(
                assessment=obj.assessment, by=_staff_user(request), scenario_key=obj.scenario_key, title=obj.title
            )
            _become(obj, created)

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField[Any] | None:
        if db_field.name == "assessment":
            kwargs["queryset"] = Assessment.objects.filter(
                submission__in=selectors.visible_submissions(user=request.user),
                engineer=request.user,
                status__in=permissions.EDITABLE_STATUSES,
            ).select_related("submission")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(ReadOnlyAdmin, CbiFilteredAdmin[ReviewDecision]):
    """Decisions are a record; only the workflow service (assessments.workflow) writes them."""

    submission_path = "assessment__submission"
    list_display = ("assessment", "action", "from_status", "to_status", "by", "at")
    list_filter = ("action",)
    list_select_related = ("assessment__submission", "by")


# The report queue's table (django-tasks-db): its own admin page lists the tasks (useful to
# see a failed or waiting report), but a queued report task's arguments hold the report's
# HTML, CBI included, until a worker has drawn it (reports.tasks). Re-registered without
# the arguments and the return value, so no admin user reads a report through it.
admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class ReportTaskAdmin(DBTaskResultAdmin):
    HIDDEN = ("args_kwargs", "return_value")

    def get_readonly_fields(self, request: HttpRequest, obj: DBTaskResult[..., Any] | None = None) -> list[str]:
        return [name for name in super().get_readonly_fields(request, obj) if name not in self.HIDDEN]


# The report workers (reports.heartbeat): each ``manage.py report_worker`` process, its last
# heartbeat and the task it is drawing; written by the workers alone.


@admin.register(ReportWorker)
class ReportWorkerAdmin(ReadOnlyAdmin, admin.ModelAdmin[ReportWorker]):
    """The report workers with their heartbeat: alive (beaten within the silence limit,
    30 s) or not; a worker killed mid-draw shows here as not alive, its report put back
    in the queue."""

    list_display = ("worker_id", "host", "pid", "current_task", "beat_age", "alive", "started_at", "stopped_at")
    list_filter = ("host",)
    search_fields = ("worker_id", "host")
    ordering = ("-beat_at",)

    @admin.display(description="current task")
    def current_task(self, worker: ReportWorker) -> str:
        if worker.current_task_id is None:
            return self.get_empty_value_display()
        url = reverse("admin:django_tasks_database_dbtaskresult_change", args=[worker.current_task_id])
        return format_html('<a href="{}">{}</a>', url, worker.current_task_id)

    @admin.display(description="last heartbeat", ordering="beat_at")
    def beat_age(self, worker: ReportWorker) -> str:
        seconds = max(0, int((timezone.now() - worker.beat_at).total_seconds()))
        return f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"

    @admin.display(description="alive", boolean=True)
    def alive(self, worker: ReportWorker) -> bool:
        return worker.stopped_at is None and worker.beat_at >= timezone.now() - silent_after()
