"""Contact reports in a case export (``assessments.transfer``, which asks for them through
``assessments.events.case_exporting`` and ``case_importing``: ``receivers``): the top-level list
``"contact_reports"``, each a contact report's fields (users by user name, dates ISO 8601
with their offset) and ``"revisions"``, the numbers of the revisions it applies to::

    "contact_reports": [{"contacted_at": "2026-03-02T14:30:00-05:00", "direction": "called_to",
                         "epa_name": "...", ..., "created_by": "jsmith", "revisions": [1]}]

The list is optional (an export made before contact reports existed has none). On import
each report is checked as the pages check it: the JSON type of each field, then the
model's ``full_clean()`` (NUL characters, lengths, a contact time not in the future, the
choices, the database constraints); ``revisions`` must name revisions in the file; no
date and time is later than the export (``assessments.transfer.approved.check_times``). A
report is written before the revisions it applies to are approved, as the workflow would
have had it (an approved revision takes no new contact), so the models' lock holds
during the import too; and a report that applies to an approved revision was made,
contacted and last saved before that approval (:data:`AFTER_APPROVAL`): from then on it is
final (``ContactReport.is_locked``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from assessments.models import Assessment, Status, Submission
from assessments.transfer.approved import check_times, latest_time
from assessments.transfer.checks import set_fields
from assessments.transfer.document import expect_list, expect_object, is_user_link, name_list
from assessments.transfer.errors import BAD_STRUCTURE, INVALID_ROW, INVALID_VALUE, UNKNOWN_FIELDS, TransferError
from assessments.transfer.writing import save_raw

from .models import ContactReport, ContactReportAssessment

KEY = "contact_reports"
REVISIONS = "revisions"
NOT_A_REVISION = "names revision {revision}, which is not in the file's assessments"
REVISIONS_NOT_NUMBERS = "must be a list of revision numbers"
REVISION_TWICE = "names revision {revision} twice"
AFTER_APPROVAL = (
    "is {found}, after revision {revision}, which it applies to, was approved ({approved}): a contact report of "
    "an approved revision is final"
)
#: The times of a report that precede the approval of each revision it applies to.
BEFORE_APPROVAL = ("contacted_at", "created_at", "updated_at")


def _fields() -> list[models.Field[Any, Any]]:
    return [f for f in ContactReport._meta.concrete_fields if not f.primary_key and f.name != "submission"]


def export_rows(submission: Submission) -> list[dict[str, Any]]:
    """The case's contact reports (all of them, CBI included: an export is the whole case),
    oldest contact first."""
    rows = []
    reports = submission.contact_reports.select_related("created_by").order_by("contacted_at", "id")
    for report in reports.prefetch_related("assessments"):
        row: dict[str, Any] = {}
        for field in _fields():
            if is_user_link(field):
                user = getattr(report, field.name)
                row[field.name] = user.get_username() if user else None
            elif isinstance(field, models.DateTimeField):
                value = field.value_from_object(report)
                row[field.name] = value.isoformat() if value else None
            else:
                row[field.name] = field.value_from_object(report)
        row[REVISIONS] = sorted(a.revision for a in report.assessments.all())
        rows.append(row)
    return rows


class ContactImport:
    """The contact reports of one import: read from the document, written with the case."""

    def __init__(self, value: Any):
        self.rows = [
            expect_object(row, f"{KEY}[{i}]") for i, row in enumerate(expect_list(value if value is not None else [], KEY))
        ]
        self.reports: list[tuple[ContactReport, list[int], str]] = []
        self.saved: list[models.Model] = []

    def user_names(self) -> set[str]:
        names = set()
        for i, row in enumerate(self.rows):
            for field in _fields():
                if is_user_link(field) and row.get(field.name) is not None:
                    if not isinstance(row[field.name], str):
                        raise TransferError(BAD_STRUCTURE.format(where=f"{KEY}[{i}].{field.name}", problem="expected a user name"))
                    names.add(row[field.name])
        return names

    def write(self, submission: Submission, users: dict[str, Any], *,
              latest: tuple[datetime, str] | None = None) -> None:
        """Build, check and save each report of ``submission`` (links come with :meth:`link`);
        ``latest``: the latest time a report may hold (``approved.latest_time``, now if not given)."""
        allowed = {f.name for f in _fields()} | {REVISIONS}
        for i, row in enumerate(self.rows):
            where = f"{KEY}[{i}]"
            unknown = sorted(set(row) - allowed)
            if unknown:
                raise TransferError(UNKNOWN_FIELDS.format(where=where, fields=name_list(unknown)))
            revisions = row.get(REVISIONS, [])
            if not isinstance(revisions, list) or any(type(n) is not int for n in revisions):
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{REVISIONS}", problem=REVISIONS_NOT_NUMBERS))
            twice = sorted({n for n in revisions if revisions.count(n) > 1})
            if twice:
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{REVISIONS}",
                                                         problem=REVISION_TWICE.format(revision=twice[0])))
            report = ContactReport(submission=submission)
            set_fields(report, _fields(), row, where, users)
            try:
                report.full_clean(exclude=["submission"])
            except ValidationError as exc:
                errors = "; ".join(f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
                                   for name, messages in exc.message_dict.items())
                raise TransferError(INVALID_ROW.format(where=where, errors=errors)) from None
            check_times(report, where, latest or latest_time(None))
            self.saved.append(save_raw(report))
            self.reports.append((report, revisions, where))

    def link(self, assessment: Assessment) -> None:
        """Link ``assessment`` to the reports that name its revision: called once it is
        saved and before it is approved."""
        for report, revisions, _ in self.reports:
            if assessment.revision in revisions:
                link = ContactReportAssessment(contact_report=report, assessment=assessment)
                self.saved.append(save_raw(link))

    def finish(self, assessments: list[Assessment]) -> list[models.Model]:
        """Refuse a report naming a revision the file does not have, or dated after the
        approval of one it applies to; the rows written, for their first history record."""
        by_number = {a.revision: a for a in assessments}
        for report, revisions, where in self.reports:
            missing = [n for n in revisions if n not in by_number]
            if missing:
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{REVISIONS}",
                                                         problem=NOT_A_REVISION.format(revision=missing[0])))
            for number in sorted(revisions):
                revision = by_number[number]
                if revision.status != Status.APPROVED:
                    continue
                approved_at = revision.approved_at
                assert approved_at is not None, "an approved revision has its approval time (its check constraint)"
                for name in BEFORE_APPROVAL:
                    value = getattr(report, name)
                    if value > approved_at:
                        problem = AFTER_APPROVAL.format(found=value.isoformat(), revision=number,
                                                        approved=approved_at.isoformat())
                        raise TransferError(INVALID_VALUE.format(where=f"{where}.{name}", problem=problem))
        return self.saved


def export_part(*, submission: Submission) -> tuple[str, list[dict[str, Any]]]:
    """The case's contact reports, under :data:`KEY` (``events.case_exporting``'s answer)."""
    return KEY, export_rows(submission)


def import_part(*, document: Mapping[str, Any]) -> ContactImport:
    """The file's contact reports, read (``events.case_importing``'s answer); the list is
    optional (an export made before contact reports existed has none)."""
    return ContactImport(document.get(KEY))
