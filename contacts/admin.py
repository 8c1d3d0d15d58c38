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

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db.models import ForeignKey, QuerySet
from django.http import HttpRequest

from assessments import selectors as case_selectors
from assessments.admin import CbiFilteredAdmin, _become, _staff_user
from assessments.roles import is_cbi_cleared
from reviewer.admin_records import ReadOnlyAdmin

from . import permissions, services
from .models import ContactReport, ContactReportAssessment


class LinkInline(ReadOnlyAdmin, admin.TabularInline[ContactReportAssessment, ContactReport]):
    """The revisions a contact applies to: shown, changed on the contact's own page."""

    model = ContactReportAssessment
    extra = 0
    fields = ("assessment",)
    readonly_fields = ("assessment",)
    verbose_name_plural = "Applies to revisions (change them on the contact's page on the site)"


class ContactReportAdminForm(forms.ModelForm[ContactReport]):
    """The model's own validation (``full_clean``, run by the ModelForm) shows its errors on
    the form; the service (``save_model``) checks them again with the permission."""

    user: User | AnonymousUser | None = None  # the requesting user, set by ContactReportAdmin.get_form

    class Meta:
        model = ContactReport
        fields = list(services.FIELDS)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("is_cbi"):
            assert self.user is not None, "ContactReportAdmin.get_form sets the requesting user"
            if not is_cbi_cleared(self.user):
                raise ValidationError({"is_cbi": services.CBI_NOT_CLEARED})
        return cleaned


@admin.register(ContactReport)
class ContactReportAdmin(CbiFilteredAdmin[ContactReport]):
    submission_path = "submission"
    list_display = ("submission", "contacted_at", "direction", "epa_name", "submitter_name", "is_cbi", "created_by")
    list_filter = ("direction", "is_cbi")
    search_fields = ("submission__case_number", "epa_name", "submitter_name", "submitter_affiliation")
    list_select_related = ("submission", "created_by")
    readonly_fields = ("created_by", "created_at", "updated_at")
    inlines = [LinkInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ContactReport]:
        queryset = super().get_queryset(request)
        return queryset if is_cbi_cleared(request.user) else queryset.filter(is_cbi=False)

    def may_edit(self, request: HttpRequest, obj: ContactReport) -> bool:
        return permissions.can_edit(request.user, obj)

    def has_delete_permission(self, request: HttpRequest, obj: ContactReport | None = None) -> bool:
        # A contact is a record of what was said: deleted (superusers only: no group has
        # the permission) only while it is not locked.
        return super().has_delete_permission(request, obj) and (obj is None or not obj.is_locked)

    def get_fields(self, request: HttpRequest, obj: ContactReport | None = None) -> tuple[str, ...]:
        if obj is None:
            return ("submission", *services.FIELDS)
        return (*services.FIELDS, *self.readonly_fields)

    def get_form(
        self, request: HttpRequest, obj: ContactReport | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[ContactReport]]:
        attrs: dict[str, Any] = {"user": request.user}
        if obj is None:
            attrs["Meta"] = type("Meta", (), {"model": ContactReport, "fields": ["submission", *services.FIELDS]})
        kwargs["form"] = type("ContactReportAdminForm", (ContactReportAdminForm,), attrs)
        return super().get_form(request, obj, change=change, **kwargs)

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField[Any] | None:
        if db_field.name == "submission":
            kwargs["queryset"] = case_selectors.visible_submissions(user=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(
        self, request: HttpRequest, obj: ContactReport, form: forms.ModelForm[ContactReport], change: bool
    ) -> None:
        by = _staff_user(request)
        data = {name: form.cleaned_data[name] for name in services.FIELDS if name in form.cleaned_data}
        if change:
            stored = ContactReport.objects.get(pk=obj.pk)
            services.contact_report_update(
                report=stored, by=by, data=data, assessments=list(stored.assessments.all())
            )
            obj.refresh_from_db()
        else:
            _become(obj, services.contact_report_create(submission=obj.submission, by=by, data=data))
