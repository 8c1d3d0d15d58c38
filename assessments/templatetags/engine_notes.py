"""The case page's notes of its approved revisions (issue 42): ``{% engine_notes_section submission %}``
lists, per approved revision, what a later engine would print instead of its approved figures
(``impact_runs.case_notes``, measured by the supervisors' engine runs). The case page's view
has checked who may see the case; the section reads its rows only."""

from __future__ import annotations

from typing import Any

from django import template

from ..impact_runs import case_notes
from ..models import Submission

register = template.Library()


@register.inclusion_tag("assessments/_engine_notes.html")
def engine_notes_section(submission: Submission) -> dict[str, Any]:
    return {"notes": case_notes(submission=submission)}
