"""Admin: every model, with its history. CBI cases are hidden from uncleared staff
here as everywhere else (selectors.visible_submissions)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from . import selectors
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


@admin.register(Submission)
class SubmissionAdmin(CbiFilteredAdmin):
    list_display = ("case_number", "case_type", "generic_name", "submitter", "production_volume_kg_yr", "is_cbi", "created_at")
    list_filter = ("case_type", "is_cbi", "physical_state")
    search_fields = ("case_number", "generic_name", "chemical_name", "submitter")


class ScenarioInline(admin.TabularInline):
    model = Scenario
    extra = 0
    fields = ("position", "scenario_key", "title", "computed_at")
    readonly_fields = ("computed_at",)


@admin.register(Assessment)
class AssessmentAdmin(CbiFilteredAdmin):
    submission_path = "submission"
    list_display = ("submission", "revision", "status", "engineer", "updated_at")
    list_filter = ("status",)
    search_fields = ("submission__case_number", "engineer__username")
    list_select_related = ("submission", "engineer")
    readonly_fields = ("status", "approved_by", "approved_at")
    inlines = [ScenarioInline]


@admin.register(Scenario)
class ScenarioAdmin(CbiFilteredAdmin):
    submission_path = "assessment__submission"
    list_display = ("assessment", "position", "scenario_key", "title", "computed_at")
    list_filter = ("scenario_key",)
    list_select_related = ("assessment__submission",)


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(CbiFilteredAdmin):
    submission_path = "assessment__submission"
    list_display = ("assessment", "action", "from_status", "to_status", "by", "at")
    list_filter = ("action",)
    list_select_related = ("assessment__submission", "by")

    def has_change_permission(self, request, obj=None):
        return False  # decisions are a record; only the workflow service writes them
