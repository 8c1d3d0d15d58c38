"""The marks of a use computed by an older engine on the use's results page and the
assessment page (issue 42): ``{% older_engine_banner scenario %}``,
``{% older_engine_uses scenarios %}`` and ``{% older_engine_badge scenario %}``, each from
``engine_marks.older_engine`` (the rule) and ``engine_refresh.recompute_refusal`` (whether
the user may recompute, else what they do instead), so the pages' views and their shared
templates stay as they are but for one line each. They read the rows the page holds: no query."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from ..engine_marks import older_engine
from ..engine_refresh import recompute_refusal
from ..esd.results import ENGINE_VERSION
from ..models import Scenario

register = template.Library()


@register.inclusion_tag("assessments/_older_engine.html", takes_context=True)
def older_engine_banner(context: template.Context, scenario: Scenario) -> dict[str, Any]:
    """The results page's banner: "Computed by engine X; this installation runs Y", and
    Recompute (its engineer, while a draft or returned), else the way to it and the difference."""
    older = older_engine(scenario)
    if older is None:
        return {"older": None}
    return {"older": older, "scenario": scenario,
            "refusal": recompute_refusal(context["request"].user, scenario.assessment)}


@register.inclusion_tag("assessments/_older_engine_uses.html", takes_context=True)
def older_engine_uses(context: template.Context, rows: Iterable[Any]) -> dict[str, Any]:
    """The assessment page's banner over its uses (``rows``: the page's ``(scenario,
    summary)`` pairs, or scenarios): each use computed by an older engine with its Recompute."""
    scenarios = [row[0] if isinstance(row, tuple) else row for row in rows]
    uses = [(scenario, older) for scenario in scenarios if (older := older_engine(scenario)) is not None]
    if not uses:
        return {"uses": []}
    return {"uses": uses, "installed": ENGINE_VERSION,
            "refusal": recompute_refusal(context["request"].user, uses[0][0].assessment)}


@register.inclusion_tag("assessments/_older_engine_badge.html")
def older_engine_badge(scenario: Scenario) -> dict[str, Any]:
    """A use's mark in the assessment page's table of uses."""
    return {"older": older_engine(scenario)}
