"""Writes of contact reports: record one, correct one. Each service checks the permission
(``contacts.permissions``), validates with the model's own code (``full_clean``), and runs
in one transaction, so a refused or invalid call writes nothing. The case's row is locked
first, as the review workflow locks it before changing an assessment's status: a contact
being linked and a revision being approved wait for each other instead of crossing.
Error messages are module constants so tests can assert the exact text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from assessments.esd.parameters import ALL
from assessments.models import ApprovedWorkLocked, Assessment, Submission

from . import permissions
from .models import CONTACT_LOCKED, LINK_TO_APPROVED, ContactReport, ContactReportAssessment, other_case_error

ADD_NOT_ALLOWED = "You may not record contacts on this case."
EDIT_NOT_ALLOWED = "You may not change this contact report."
CBI_NOT_CLEARED = "Only users cleared for CBI may mark a contact as CBI."
STALE_EDIT = "Someone else saved this contact report after you opened it. Reload to see their changes, then make yours again."
FIELDS = (
    "contacted_at", "direction", "epa_name", "epa_affiliation", "submitter_name", "submitter_affiliation",
    "phone", "is_cbi", "notes",
)


@transaction.atomic
def contact_report_create(
    *, submission: Submission, by: User, data: Mapping[str, Any], assessments: Iterable[Assessment] = ()
) -> ContactReport:
    """Record a contact on ``submission`` that applies to ``assessments`` (revisions of it)."""
    submission = Submission.objects.select_for_update().get(pk=submission.pk)
    if not permissions.can_add(by, submission):
        raise PermissionDenied(ADD_NOT_ALLOWED)
    report = ContactReport(submission=submission, created_by=by)
    _apply(report, by=by, data=data)
    wanted = _check_assessments(report, assessments, already=set())
    report._history_user = by
    report.save()
    _link(report, wanted, by=by)
    return report


@transaction.atomic
def contact_report_update(
    *, report: ContactReport, by: User, data: Mapping[str, Any], assessments: Iterable[Assessment] = (),
    seen_version: int | None = None,
) -> ContactReport:
    """Correct a contact report. ``seen_version`` is the ``version`` the editor loaded; if
    the row was saved since, the save is refused rather than silently overwriting. A report
    that applies to an approved revision is final (``ApprovedWorkLocked``)."""
    Submission.objects.select_for_update().filter(pk=report.submission_id).values_list("pk").first()
    report = ContactReport.objects.select_for_update().select_related("submission").get(pk=report.pk)
    if report.is_locked:
        raise ApprovedWorkLocked(_locked_message(report))
    if not permissions.can_edit(by, report):
        raise PermissionDenied(EDIT_NOT_ALLOWED)
    if seen_version is not None and report.version != seen_version:
        raise ValidationError({ALL: STALE_EDIT})
    _apply(report, by=by, data=data)
    current = set(report.links.values_list("assessment_id", flat=True))
    wanted = _check_assessments(report, assessments, already=current)
    report._history_user = by
    report.save()
    for link in report.links.exclude(assessment_id__in=[a.pk for a in wanted]):
        link._history_user = by
        link.delete()
    _link(report, [a for a in wanted if a.pk not in current], by=by)
    return report


def _locked_message(report: ContactReport) -> str:
    return CONTACT_LOCKED.format(revisions=", ".join(str(r) for r in report.approved_revisions()))


def _apply(report: ContactReport, *, by: User, data: Mapping[str, Any]) -> None:
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ValueError(f"Not fields of a contact report: {', '.join(unknown)}")
    for name, value in data.items():
        setattr(report, name, value)
    if report.is_cbi and not permissions.can_mark_cbi(by):
        raise ValidationError({"is_cbi": CBI_NOT_CLEARED})
    report.full_clean(exclude=["submission", "created_by"])


def _check_assessments(report: ContactReport, assessments: Iterable[Assessment], *, already: set[int]) -> list[Assessment]:
    """The revisions asked for, each of the report's case and, unless linked already (and
    so unchanged), not approved; ``ValidationError`` on ``assessments`` otherwise. A link to
    an approved revision cannot be taken off either: the report would be locked."""
    wanted = {a.pk: a for a in assessments}
    fresh = {a.pk: a for a in Assessment.objects.filter(pk__in=list(wanted)).select_related("submission")}
    errors = []
    for pk in wanted:
        assessment = fresh.get(pk)
        if assessment is None:
            errors.append("A revision chosen no longer exists.")
            continue
        message = other_case_error(report, assessment)
        if message:
            errors.append(message)
        elif pk not in already and not permissions.can_link(assessment):
            errors.append(LINK_TO_APPROVED.format(revision=assessment.revision))
    if errors:
        raise ValidationError({"assessments": errors})
    return sorted(fresh.values(), key=lambda a: a.revision)


def _link(report: ContactReport, assessments: Iterable[Assessment], *, by: User) -> None:
    for assessment in assessments:
        link = ContactReportAssessment(contact_report=report, assessment=assessment)
        link.full_clean(validate_unique=False)
        link._history_user = by
        link.save()
