"""``{% use_comments scenario %}``: the open comments on a use, on its results page and wizard."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context

from assessments.models import Scenario

from .. import selectors, services

register = template.Library()


@register.inclusion_tag("notices/_use_comments.html", takes_context=True)
def use_comments(context: Context, scenario: Scenario) -> dict[str, Any]:
    user = context["request"].user
    comments = selectors.open_use_comments(scenario=scenario)
    return {
        "comments": comments,
        "can_resolve": bool(comments) and services.can_resolve(user, comments[0]),
        "csrf_token": context.get("csrf_token"),
    }
