"""The ChemSTEER v3.2 column of a use's results page (issue 42): ``{% chemsteer_v32_column
scenario %}`` renders ``assessments/_chemsteer_v32.html`` from
``presentation.chemsteer_v32_column`` (the figures, the differences and their citations, all
named by the engine) and, for whoever may edit the assessment, the switch that shows or hides
the column for every use of the revision (``services.assessment_set_chemsteer_v32``). The
page's view and its shared template stay as they are but for one line."""

from __future__ import annotations

from typing import Any

from django import template

from ..models import Scenario
from ..permissions import can_edit_assessment
from ..presentation import chemsteer_v32_column as column

register = template.Library()


@register.inclusion_tag("assessments/_chemsteer_v32.html", takes_context=True)
def chemsteer_v32_column(context: template.Context, scenario: Scenario) -> dict[str, Any]:
    """The column (None while the switch is off) and whether the user may switch it."""
    assessment = scenario.assessment
    return {
        "v32": column(scenario=scenario),
        "scenario": scenario,
        "assessment": assessment,
        "can_switch": can_edit_assessment(context["request"].user, assessment),
        "csrf_token": context.get("csrf_token"),
    }
