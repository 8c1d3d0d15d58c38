"""A service's refusal lands on the form that was posted (``forms.binding``): on the field
it names, or on the whole form when the form has no such field, never as a server error."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from assessments.forms.binding import add_service_errors, posted


class _Form(forms.Form):
    name = forms.CharField()


def test_an_error_on_a_field_the_form_has_lands_on_it():
    form = _Form({"name": "x"})
    assert form.is_valid()
    add_service_errors(form, ValidationError({"name": "Taken.", "cbi_claims": "Not claimable."}))
    assert form.errors["name"] == ["Taken."]
    assert form.non_field_errors() == ["Not claimable."]


def test_an_error_without_a_field_lands_on_the_form():
    form = _Form({"name": "x"})
    form.is_valid()
    add_service_errors(form, ValidationError("Someone else saved it."))
    assert form.non_field_errors() == ["Someone else saved it."]


def test_an_empty_post_is_bound_and_a_get_is_not():
    factory = RequestFactory()
    assert posted(factory.post("/", {})) is not None
    assert posted(factory.get("/")) is None
