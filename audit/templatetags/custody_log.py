"""The custody log's part of the case page, from one selector, so the case page's view
stays the case's (``assessments.views.submission_detail``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context

from assessments.models import Submission

from .. import selectors

register = template.Library()


@register.inclusion_tag("audit/_case_section.html", takes_context=True)
def custody_log_section(context: Context, submission: Submission) -> dict[str, Any]:
    """The latest rows of the case's log and their count, for a user who may read it
    (``selectors.case_log_section``); the view has just recorded its own row."""
    return {
        "custody": selectors.case_log_section(user=context["request"].user, submission=submission),
        "submission": submission,
    }
