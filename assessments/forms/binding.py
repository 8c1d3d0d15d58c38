"""Binding a form on a page, for every app's views: the data to bind it to, and a service's
refusal shown on it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, QueryDict


def posted(request: HttpRequest) -> QueryDict | None:
    """The form data of a POST, else None. Not ``request.POST or None``: a POST with no
    fields is empty, hence falsy, and would show a blank form without its errors."""
    return request.POST if request.method == "POST" else None


def add_service_errors(form: forms.BaseForm, exc: ValidationError) -> None:
    """A service's refusal on the form: each error on the field it names when the form has
    that field, any other on the whole form (``Form.add_error`` would raise on a name the
    form lacks, such as ``cbi_claims`` or a model field the page does not show)."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc)
