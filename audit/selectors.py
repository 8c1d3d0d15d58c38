"""Reads of the CBI custody log: a case's (for supervisors, ``permissions.can_read_case_log``)
and one's own ("My CBI access"), and the log as CSV rows."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet

from assessments.models import Submission
from assessments.roles import is_cbi_cleared

from .models import CbiAccess
from .permissions import CASE_LOG_NOT_ALLOWED, can_read_case_log

#: How many of a case's latest rows its page shows, above the link to the whole log.
RECENT_ON_CASE_PAGE = 5

CSV_HEADER = (
    "When (UTC)", "Kind", "What", "Case number", "Revision", "Detail", "User", "Operating-system user",
    "IP address", "User agent",
)
#: A cell a spreadsheet would read as a formula (a user agent is the client's own words).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def case_log(*, user: User | AnonymousUser, submission: Submission) -> QuerySet[CbiAccess]:
    """The custody log of ``submission`` (visible to ``user``), newest first; refused
    (``PermissionDenied``) unless ``user`` may read it."""
    if not can_read_case_log(user, submission):
        raise PermissionDenied(CASE_LOG_NOT_ALLOWED)
    return CbiAccess.objects.filter(submission_id=submission.pk).select_related("user")


def case_log_section(*, user: User | AnonymousUser, submission: Submission) -> dict[str, Any]:
    """What the case page shows of its log: nothing for a user who may not read it, and
    nothing for a case that was never CBI and has no row; else the latest rows and the count."""
    if not can_read_case_log(user, submission):
        return {"show": False}
    rows = CbiAccess.objects.filter(submission_id=submission.pk).select_related("user")
    recent = list(rows[:RECENT_ON_CASE_PAGE])
    if not recent and not submission.is_cbi:
        return {"show": False}
    return {"show": True, "recent": recent, "count": rows.count()}


def own_access(*, user: User | AnonymousUser) -> QuerySet[CbiAccess]:
    """``user``'s own views of full CBI data, newest first. A refused case number is not
    listed: it is for the supervisors' review, and listed here it would say the number is
    a CBI case's."""
    if not user.is_authenticated:
        return CbiAccess.objects.none()
    return CbiAccess.objects.filter(user=user, kind=CbiAccess.Kind.ACCESS)


def custody_rows_visible(rows: QuerySet[CbiAccess], *, user: User | AnonymousUser) -> QuerySet[CbiAccess]:
    """``rows`` without those of a case ``user`` may not see (the admin's list)."""
    if is_cbi_cleared(user):
        return rows
    return rows.exclude(submission_id__in=Submission.objects.filter(is_cbi=True).values("pk"))


def csv_cell(value: object) -> str:
    """A CSV cell that a spreadsheet reads as text, never as a formula (OWASP's CSV injection rule)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def csv_rows(rows: Iterable[CbiAccess]) -> Iterator[list[str]]:
    """The header, then one list of cells per row (times in UTC, ISO 8601)."""
    yield list(CSV_HEADER)
    for row in rows:
        yield [csv_cell(value) for value in (
            row.at.astimezone(UTC).isoformat(timespec="seconds"), row.get_kind_display(),
            row.get_what_display(), row.case_number, row.revision, row.detail, row.username, row.os_user, row.ip,
            row.user_agent,
        )]
