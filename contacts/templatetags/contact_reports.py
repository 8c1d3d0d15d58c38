"""The contact reports' parts of the case and assessment pages, each from one selector,
so the case page's view stays the case's (``assessments.views.submission_detail``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone

from assessments.models import Assessment, Submission

from .. import selectors

register = template.Library()


@register.filter
def contact_time(value: datetime | None) -> str:
    """A contact's date and time for its page, ``Sunday, November 2, 2025, 01:30 EST``: always
    with the zone's abbreviation, which tells apart the two 01:30s of the night the clocks go
    back and which Django's ``date`` filter (``"l, F j, Y, H:i T"``) leaves out for them."""
    if not value:
        return ""
    local = timezone.localtime(value)
    return f"{local:%A, %B} {local.day}, {local.year}, {local:%H:%M %Z}"


@register.inclusion_tag("contacts/_case_section.html", takes_context=True)
def contact_reports_section(context: template.Context, submission: Submission) -> dict[str, Any]:
    return selectors.case_section(user=context["request"].user, submission=submission)


@register.inclusion_tag("contacts/_irer_links.html", takes_context=True)
def irer_with_contacts_links(context: template.Context, assessment: Assessment) -> dict[str, Any]:
    return {"assessment": assessment, "offer_sanitised": selectors.offer_sanitised(
        user=context["request"].user, submission=assessment.submission)}
