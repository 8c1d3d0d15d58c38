"""Admin: every model, with its history. CBI cases are hidden from uncleared staff
here as everywhere else (selectors.visible_submissions), history pages included.

Submitted and approved work is read-only here as on every other edit path
(``permissions.assessment_is_frozen``/``submission_is_frozen``): the change form shows
it without a save button and a POST is refused, its scenarios cannot be added, changed
or deleted, and django-simple-history's "revert to this version" is refused too.
Review decisions are a record only the workflow service writes."""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from simple_history.admin import SimpleHistoryAdmin

from . import permissions, selectors
from .models import Assessment, ReviewDecision, Scenario, Submission


class CbiFilteredAdmin(SimpleHistoryAdmin):
    """Limits the rows to those under a case the user may see."""

    submission_path = ""  # lookup from this model to its Submission

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        visible = selectors.visible_submissions(user=request.user)
        if not self.submission_path:
            return queryset.filter(pk__in=visible.values("pk"))
        return queryset.filter(**{f"{self.submission_path}__in": visible.values("pk")})

    def is_frozen(self, obj) -> bool:
        """True when ``obj`` may no longer be changed or deleted."""
        return False

    def has_change_permission(self, request, obj=None):
        if obj is not None and self.is_frozen(obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and self.is_frozen(obj):
            return False
        return super().has_delete_permission(request, obj)

    def _visible_object(self, request, object_id):
        """The current row, if the user may see it; else 404 (history pages would
        otherwise fall back to the historical records of a hidden CBI case)."""
        try:
            return self.get_queryset(request).get(pk=unquote(object_id))
        except (self.model.DoesNotExist, ValidationError, ValueError):
            raise Http404("No such object.") from None

    def history_view(self, request, object_id, extra_context=None):
        self._visible_object(request, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        current = self._visible_object(request, object_id)
        if request.method == "POST" and not self.has_change_permission(request, current):
            raise PermissionDenied  # "revert" is an edit of the current row
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(Submission)
class SubmissionAdmin(CbiFilteredAdmin):
    list_display = ("case_number", "case_type", "generic_name", "submitter", "production_volume_kg_yr", "is_cbi", "created_at")
    list_filter = ("case_type", "is_cbi", "physical_state")
    search_fields = ("case_number", "generic_name", "chemical_name", "submitter")

    def is_frozen(self, obj) -> bool:
        return permissions.submission_is_frozen(obj)


class ScenarioInline(admin.TabularInline):
    model = Scenario
    extra = 0
    fields = ("position", "scenario_key", "title", "computed_at")
    readonly_fields = ("computed_at",)

    # ``obj`` is the parent assessment: a frozen one's scenarios are read-only.
    def has_add_permission(self, request, obj=None):
        return not (obj is not None and permissions.assessment_is_frozen(obj)) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not (obj is not None and permissions.assessment_is_frozen(obj)) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not (obj is not None and permissions.assessment_is_frozen(obj)) and super().has_delete_permission(request, obj)


@admin.register(Assessment)
class AssessmentAdmin(CbiFilteredAdmin):
    submission_path = "submission"
    list_display = ("submission", "revision", "status", "engineer", "updated_at")
    list_filter = ("status",)
    search_fields = ("submission__case_number", "engineer__username")
    list_select_related = ("submission", "engineer")
    readonly_fields = ("status", "approved_by", "approved_at")
    inlines = [ScenarioInline]

    def is_frozen(self, obj) -> bool:
        return permissions.assessment_is_frozen(obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "submission":
            kwargs["queryset"] = selectors.visible_submissions(user=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Scenario)
class ScenarioAdmin(CbiFilteredAdmin):
    submission_path = "assessment__submission"
    list_display = ("assessment", "position", "scenario_key", "title", "computed_at")
    list_filter = ("scenario_key",)
    list_select_related = ("assessment__submission",)

    def is_frozen(self, obj) -> bool:
        return permissions.assessment_is_frozen(obj.assessment)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "assessment":
            kwargs["queryset"] = Assessment.objects.filter(
                submission__in=selectors.visible_submissions(user=request.user),
                status__in=permissions.EDITABLE_STATUSES,
            ).select_related("submission")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(CbiFilteredAdmin):
    submission_path = "assessment__submission"
    list_display = ("assessment", "action", "from_status", "to_status", "by", "at")
    list_filter = ("action",)
    list_select_related = ("assessment__submission", "by")

    # Decisions are a record; only the workflow service (assessments.workflow) writes them.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
