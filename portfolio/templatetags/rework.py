"""The portfolio's part of the case page: each revision's rework as the ledger records it
(returns, amendments, recomputes after submission, days in each status), so the case page's
view reads no table of this app (``docs/architecture.md``, "Events")."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from assessments.models import Status, Submission
from assessments.numbers import significant

from .. import rework
from ..models import RevisionRecord

register = template.Library()

DAY = 86400


def _days(seconds: int) -> str:
    return significant(seconds / DAY, 3) if seconds else "0"


@register.inclusion_tag("portfolio/_case_rework.html")
def rework_section(submission: Submission) -> dict[str, Any]:
    now = timezone.now()
    rows = []
    for record in RevisionRecord.objects.filter(case_id=submission.pk).order_by("revision"):
        seconds = rework.seconds_in(record, now)
        rows.append({"revision": record.revision, "status": Status(record.status).label.lower(), "returns": record.returns,
                     "amendments": record.amendments, "recomputes": record.recomputes,
                     "days": [_days(seconds[str(status)]) for status in rework.TIMED],
                     "departures": len(record.departures)})
    return {"rows": rows}
