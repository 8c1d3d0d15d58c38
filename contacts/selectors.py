"""Reads of contact reports, with the visibility rules of ``permissions.may_read``: a
contact report on a case the user may not see, or a CBI contact report for a user not
cleared for CBI, is filtered out of every list and ``get`` raises ``Http404``, so an
uncleared user cannot learn that it exists."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from assessments.models import Assessment, Status, Submission
from assessments.roles import is_cbi_cleared
from assessments.selectors import visible_submissions

from . import permissions
from .models import ContactReport, report_field


def visible_contact_reports(*, user: User | AnonymousUser) -> QuerySet[ContactReport]:
    """The contact reports ``user`` may read, oldest contact first, with what the lists show."""
    queryset = ContactReport.objects.filter(submission__in=visible_submissions(user=user))
    if not is_cbi_cleared(user):
        queryset = queryset.filter(is_cbi=False)
    return queryset.select_related("submission", "created_by").prefetch_related(
        Prefetch("assessments", queryset=Assessment.objects.order_by("revision"))
    )


def contact_reports_for_case(*, user: User | AnonymousUser, submission: Submission) -> QuerySet[ContactReport]:
    return visible_contact_reports(user=user).filter(submission=submission)


def contact_reports_for_assessment(*, user: User | AnonymousUser, assessment: Assessment) -> QuerySet[ContactReport]:
    """The case's contact reports that apply to ``assessment``, as ``user`` may read them."""
    return visible_contact_reports(user=user).filter(submission_id=assessment.submission_id, assessments=assessment)


def contact_report_get(*, user: User | AnonymousUser, pk: int) -> ContactReport:
    """The contact report ``pk`` if ``user`` may read it; otherwise ``Http404``."""
    try:
        return visible_contact_reports(user=user).get(pk=pk)
    except ContactReport.DoesNotExist:
        raise Http404("No such contact report.") from None


def linkable_assessments(*, submission: Submission) -> QuerySet[Assessment]:
    """The revisions of the case a contact may be added to: those not approved."""
    return submission.assessments.exclude(status=Status.APPROVED).order_by("revision")


def case_section(*, user: User | AnonymousUser, submission: Submission) -> dict[str, Any]:
    """What the case page's "Contact reports" section shows."""
    reports = list(contact_reports_for_case(user=user, submission=submission))
    return {
        "submission": submission,
        "contact_reports": reports,
        "can_add_contact": permissions.can_add(user, submission),
        "offer_sanitised": submission.is_cbi or any(r.is_cbi for r in reports),
        "assessments_with_contacts": sorted(
            {a for r in reports for a in r.assessments.all()}, key=lambda a: a.revision
        ),
    }


def offer_sanitised(*, user: User | AnonymousUser, submission: Submission) -> bool:
    """Whether a sanitised copy differs from the full one for ``user``: the case is CBI,
    or a contact report ``user`` reads is."""
    return submission.is_cbi or contact_reports_for_case(user=user, submission=submission).filter(is_cbi=True).exists()


def report_detail(*, user: User | AnonymousUser, report: ContactReport) -> dict[str, Any]:
    """What a contact report's own page shows, besides the report."""
    locked_revisions = report.approved_revisions()
    return {
        "report": report,
        "submission": report.submission,
        "can_edit": permissions.can_edit(user, report),
        "locked_revisions": locked_revisions,
        "offer_sanitised": report.is_cbi or report.submission.is_cbi,
        "history": contact_history(report=report),
    }


def contact_history(*, report: ContactReport) -> list[dict[str, Any]]:
    """Each saved version of the report, newest first: when, by whom, and which fields
    changed from the version before (django-simple-history's diff), with the revisions
    linked or unlinked since."""
    records = list(report.history.select_related("history_user").order_by("-history_date", "-history_id"))
    entries = []
    for newer, older in zip(records, records[1:] + [None]):
        changed = []
        if older is not None:
            delta = newer.diff_against(older, excluded_fields=["version", "updated_at"])
            changed = [str(report_field(c.field).verbose_name) for c in delta.changes]
        entries.append({
            "at": newer.history_date,
            "by": _person(newer.history_user),
            "kind": {"+": "Recorded", "~": "Changed", "-": "Deleted"}[newer.history_type],
            "changed": changed,
            "reason": newer.history_change_reason or "",
        })
    links = report.links.model.history.filter(contact_report_id=report.pk).select_related("history_user").order_by("-history_date", "-history_id")
    for record in links:
        revision = Assessment.objects.filter(pk=record.assessment_id).values_list("revision", flat=True).first()
        entries.append({
            "at": record.history_date,
            "by": _person(record.history_user),
            "kind": "Linked to revision" if record.history_type == "+" else "Unlinked from revision",
            "changed": [f"revision {revision}" if revision else "a deleted revision"],
            "reason": record.history_change_reason or "",
        })
    entries.sort(key=lambda e: e["at"], reverse=True)
    return entries


def _person(user: User | None) -> str:
    if user is None:
        return "(unknown)"
    return user.get_full_name() or user.get_username()


def person(user: User | None) -> str:
    """A user as the pages and the report name them."""
    return _person(user)
