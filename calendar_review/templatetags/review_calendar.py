"""The review calendar's parts of the case list, the case page and the home page, each
from one selector, so those pages' views stay theirs (``assessments.views``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from assessments.forms.due_filter import DueFilterForm
from assessments.models import Submission

from .. import models, selectors

register = template.Library()


@register.filter
def person(user: User | None) -> str:
    """A user by full name (the user name when none is recorded): ``{{ user|person }}``."""
    return models.person(user)


@register.filter
def case_engineer(case: Submission) -> str:
    """The case's engineer (assigned, else the latest revision's), by full name."""
    return models.person(selectors.case_engineer(case))


@register.inclusion_tag("calendar_review/_due.html")
def due_cell(case: Submission) -> dict[str, Any]:
    return {"due": selectors.case_due_state(case)}


@register.inclusion_tag("calendar_review/_due.html")
def due_badge(due: selectors.DueState) -> dict[str, Any]:
    return {"due": due}


@register.inclusion_tag("calendar_review/_case_section.html", takes_context=True)
def review_calendar_section(context: template.Context, submission: Submission) -> dict[str, Any]:
    return selectors.case_calendar(user=context["request"].user, submission=submission)


@register.inclusion_tag("calendar_review/_my_work.html", takes_context=True)
def my_work(context: template.Context) -> dict[str, Any]:
    return selectors.my_work(user=context["request"].user)


@register.inclusion_tag("calendar_review/_due_filter.html")
def due_filter(form: DueFilterForm) -> dict[str, Any]:
    return {"form": form}
