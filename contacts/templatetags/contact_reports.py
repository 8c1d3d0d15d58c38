"""The contact reports' parts of the case and assessment pages, each from one selector,
so the case page's view stays the case's (``assessments.views.submission_detail``)."""

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("contacts/_case_section.html", takes_context=True)
def contact_reports_section(context, submission):
    return selectors.case_section(user=context["request"].user, submission=submission)


@register.inclusion_tag("contacts/_irer_links.html", takes_context=True)
def irer_with_contacts_links(context, assessment):
    return {"assessment": assessment, "offer_sanitised": selectors.offer_sanitised(
        user=context["request"].user, submission=assessment.submission)}
