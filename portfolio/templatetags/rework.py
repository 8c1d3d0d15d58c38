"""The portfolio's part of the case page: each revision's rework as the ledger records it
(returns, amendments, recomputes after submission, days in each status), so the case page's
view reads no table of this app (``docs/architecture.md``, "Events")."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from assessments.models import Status, Submission
from assessments.numbers import significant

from .. import figures, rework

register = template.Library()

DAY = 86400


def _days(seconds: int) -> str:
    return significant(seconds / DAY, 3) if seconds else "0"


@register.inclusion_tag("portfolio/_case_rework.html")
def rework_section(submission: Submission) -> dict[str, Any]:
    rows = [{"revision": found.revision, "status": Status(found.status).label.lower(), "returns": found.returns,
             "amendments": found.amendments, "recomputes": found.recomputes,
             "days": [_days(found.seconds[str(status)]) for status in rework.TIMED],
             "departures": len(found.departures)}
            for found in figures.case_rework(submission, now=timezone.now())]
    return {"rows": rows}
