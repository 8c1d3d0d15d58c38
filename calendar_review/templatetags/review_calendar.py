"""The review calendar's parts of the case list, the case page and the home page, each
from one selector, so those pages' views stay theirs (``assessments.views``)."""

from django import template

from .. import selectors

register = template.Library()


@register.filter
def person(user) -> str:
    """A user by full name (the user name when none is recorded): ``{{ user|person }}``."""
    return selectors.person(user)


@register.filter
def case_engineer(case) -> str:
    """The case's engineer (assigned, else the latest revision's), by full name."""
    return selectors.person(selectors.case_engineer(case))


@register.inclusion_tag("calendar_review/_due.html")
def due_cell(case):
    return {"due": selectors.case_due_state(case)}


@register.inclusion_tag("calendar_review/_due.html")
def due_badge(due):
    return {"due": due}


@register.inclusion_tag("calendar_review/_case_section.html", takes_context=True)
def review_calendar_section(context, submission):
    return selectors.case_calendar(user=context["request"].user, submission=submission)


@register.inclusion_tag("calendar_review/_my_work.html", takes_context=True)
def my_work(context):
    return selectors.my_work(user=context["request"].user)


@register.inclusion_tag("calendar_review/_due_filter.html")
def due_filter(form):
    return {"form": form}
