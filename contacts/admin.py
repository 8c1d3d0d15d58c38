"""Admin for contact reports, under the pages' rules (``contacts.permissions``), as
``assessments.admin`` is under the assessments':

- Rows of a case the user may not see, and CBI contact reports for staff not cleared for
  CBI, are not listed and their pages (history included) are a 404.
- A contact report that applies to an approved revision is read-only for everyone (no
  save button, a POST refused); so are the revisions it applies to, which are changed on
  its page on the site.
- Adding and changing go through ``contacts.services`` (permission, the model's
  validation, the CBI clearance to mark a contact CBI), so the admin cannot write what the
  pages would refuse. Underneath, the models refuse any write to a locked report.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from assessments import selectors as case_selectors
from assessments.admin import CbiFilteredAdmin, _become
from assessments.roles import is_cbi_cleared
from reviewer.admin_records import ReadOnlyAdmin

from . import permissions, services
from .models import ContactReport, ContactReportAssessment


class LinkInline(ReadOnlyAdmin, admin.TabularInline):
    """The revisions a contact applies to: shown, changed on the contact's own page."""

    model = ContactReportAssessment
    extra = 0
    fields = ("assessment",)
    readonly_fields = ("assessment",)
    verbose_name_plural = "Applies to revisions (change them on the contact's page on the site)"


class ContactReportAdminForm(forms.ModelForm):
    """The model's own validation (``full_clean``, run by the ModelForm) shows its errors on
    the form; the service (``save_model``) checks them again with the permission."""

    user = None  # the requesting user, set by ContactReportAdmin.get_form

    class Meta:
        model = ContactReport
        fields = list(services.FIELDS)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("is_cbi") and not is_cbi_cleared(self.user):
            raise ValidationError({"is_cbi": services.CBI_NOT_CLEARED})
        return cleaned


@admin.register(ContactReport)
class ContactReportAdmin(CbiFilteredAdmin):
    submission_path = "submission"
    list_display = ("submission", "contacted_at", "direction", "epa_name", "submitter_name", "is_cbi", "created_by")
    list_filter = ("direction", "is_cbi")
    search_fields = ("submission__case_number", "epa_name", "submitter_name", "submitter_affiliation")
    list_select_related = ("submission", "created_by")
    readonly_fields = ("created_by", "created_at", "updated_at")
    inlines = [LinkInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset if is_cbi_cleared(request.user) else queryset.filter(is_cbi=False)

    def may_edit(self, request, obj) -> bool:
        return permissions.can_edit(request.user, obj)

    def has_delete_permission(self, request, obj=None):
        # A contact is a record of what was said: deleted (superusers only: no group has
        # the permission) only while it is not locked.
        return super().has_delete_permission(request, obj) and (obj is None or not obj.is_locked)

    def get_fields(self, request, obj=None):
        fields = ["submission", *services.FIELDS] if obj is None else list(services.FIELDS)
        return fields if obj is None else [*fields, *self.readonly_fields]

    def get_form(self, request, obj=None, change=False, **kwargs):
        base = type("ContactReportAdminForm", (ContactReportAdminForm,), {"user": request.user})
        if obj is None:
            base.Meta = type("Meta", (), {"model": ContactReport, "fields": ["submission", *services.FIELDS]})
        kwargs["form"] = base
        return super().get_form(request, obj, change=change, **kwargs)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "submission":
            kwargs["queryset"] = case_selectors.visible_submissions(user=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data[name] for name in services.FIELDS if name in form.cleaned_data}
        if change:
            stored = ContactReport.objects.get(pk=obj.pk)
            services.contact_report_update(
                report=stored, by=request.user, data=data, assessments=list(stored.assessments.all())
            )
            obj.refresh_from_db()
        else:
            _become(obj, services.contact_report_create(submission=obj.submission, by=request.user, data=data))
