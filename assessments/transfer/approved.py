"""Approved work in a case export, checked against the rest of the file: the case as each
approved revision keeps it (``Assessment.case_snapshot``, which its IRER prints), and the
times that say when work was done (no row later than the export, no use computed after its
revision went to review).

How the application writes the case as approved: once, at approval
(``workflow.assessment_approve``), as ``models.case_snapshot`` of the case at that moment.
It is never written again; the case may then be amended (``services.submission_update``,
the admin's case form), and every amendment saves the case row, stamping its
``updated_at``.

What an export carries of the case's history: only the case as it is now (with that
``updated_at``). The field-by-field history stays in the installation that wrote it, and
an import starts the case's history here with one record of the case as imported.

So the case as approved is *checked*, not rebuilt:

- Rebuilding it from the imported case would be wrong for every case amended after an
  approval: revision 1 approved at 5,000 kg/yr and the case amended to 6,000 kg/yr for
  revision 2 would print 6,000 kg/yr beside the 5,000 its uses were computed with,
  rewriting an approved report on its way between installations. The file holds no
  earlier state of the case to rebuild from.
- Checking it is exact wherever the file can tell: a revision approved at or after the
  case's last save (``approved_at >= case.updated_at``) was approved with the case as the
  file has it, so its snapshot must equal the case, field by field, the CBI claims
  included (a field the snapshot lacks counts as what the report prints for it, the
  field's default). The refusal names the revision, the field and the value expected.
- Where the case was saved after the approval, the file cannot say what the case was then,
  and the snapshot is taken as a case row (``checks.check_case_snapshot``: the case's own
  validation and text limits). Its report still marks every claim made since
  (``models.case_from_snapshot`` joins the snapshot's claims with the case's).
- The case number is the case's identity here, not a figure of the report: every
  snapshot takes the number the case is imported under, so an export imported under a new
  number (its ``case.case_number`` changed) is headed with the new number everywhere, and
  no approved report here is headed with the number of another case.

A file is not signed: a file edited consistently everywhere (the case's ``updated_at``
moved past the approval as well as the snapshot) cannot be told from one the application
wrote. What the import guarantees is that nothing comes in that the application could not
have written, and that what it cannot recompute it says so.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import models
from django.utils import timezone

from ..engine_results import show as _show
from ..models import CASE_SNAPSHOT_FIELDS, Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission
from ..models import case_snapshot as snapshot_of
from .errors import (
    COMPUTED_AFTER_SUBMISSION,
    EXPORTED_IN_THE_FUTURE,
    INVALID_VALUE,
    LATER_THAN_EXPORT,
    LATER_THAN_IMPORT,
    SNAPSHOT_NOT_THE_CASE,
    TransferError,
)

#: How far ahead of this installation's clock the exporting installation's may run: an
#: ``exported_at`` later than now by more than this is refused.
CLOCK_TOLERANCE = timedelta(minutes=5)


# The case as approved ------------------------------------------------------------------------


def check_case_as_approved(assessment: Assessment, case: Submission, where: str) -> None:
    """An approved revision's snapshot (already read as a case row, its number the case's:
    ``checks.check_case_snapshot``) against the case of the file. Call after the review
    trail is checked (``approved_at`` is then that of the approval)."""
    if assessment.status != Status.APPROVED:
        return
    snapshot, approved_at = assessment.case_snapshot, assessment.approved_at
    # check_case_snapshot made the snapshot a case's data, and check_row's full_clean held an
    # approved revision to its constraint assessment_approved_has_approver.
    assert isinstance(snapshot, dict), "an approved revision's snapshot is read before this check"
    assert approved_at is not None, "an approved revision has its approval time"
    if case.updated_at <= approved_at:  # not amended since: the snapshot is the case
        now = snapshot_of(case)
        for name in CASE_SNAPSHOT_FIELDS:
            expected, found = now.get(name), snapshot.get(name)
            if name == "cbi_claims":
                expected, found = sorted(expected or []), sorted(found or [])
            if expected != found:
                problem = SNAPSHOT_NOT_THE_CASE.format(
                    revision=assessment.revision, approved_at=approved_at.isoformat(),
                    updated_at=case.updated_at.isoformat(), expected=_show(expected), found=_show(found),
                )
                raise TransferError(INVALID_VALUE.format(where=f"{where}.case_snapshot.{name}", problem=problem))


# Times -----------------------------------------------------------------------------------------


def latest_time(exported_at: datetime | None) -> tuple[datetime, str]:
    """The latest time any row of the file may hold, and what it is: the export's time, or
    (a file that does not say when it was made) now. ``TransferError`` for an export
    dated later than now."""
    now = timezone.now()
    if exported_at is None:
        return now, LATER_THAN_IMPORT
    if exported_at > now + CLOCK_TOLERANCE:
        problem = EXPORTED_IN_THE_FUTURE.format(found=exported_at.isoformat(), now=now.isoformat())
        raise TransferError(INVALID_VALUE.format(where="exported_at", problem=problem))
    return exported_at, LATER_THAN_EXPORT


def check_times(instance: models.Model, where: str, latest: tuple[datetime, str]) -> None:
    """No date and time of the row later than ``latest`` (:func:`latest_time`): nothing in
    an export happened after it was made."""
    limit, message = latest
    for field in type(instance)._meta.concrete_fields:
        if not isinstance(field, models.DateTimeField):
            continue
        value = getattr(instance, field.attname)
        if value is not None and value > limit:
            problem = message.format(found=value.isoformat(), latest=limit.isoformat())
            raise TransferError(INVALID_VALUE.format(where=f"{where}.{field.name}", problem=problem))


def check_computed_before_review(
    assessment: Assessment, scenarios: list[Scenario], decisions: list[ReviewDecision], where: str
) -> None:
    """A submitted or approved revision's uses were computed before it was last submitted:
    under review, a use is not computed again (the workflow refuses to submit a use that is
    not current, and a submitted revision is not editable). Call after the trail is checked."""
    if assessment.status not in (Status.SUBMITTED, Status.APPROVED):
        return
    submitted = [d.at for d in decisions if d.action == DecisionAction.SUBMIT][-1]
    for j, scenario in enumerate(scenarios):
        if scenario.computed_at is not None and scenario.computed_at > submitted:
            problem = COMPUTED_AFTER_SUBMISSION.format(
                found=scenario.computed_at.isoformat(), revision=assessment.revision, submitted=submitted.isoformat()
            )
            raise TransferError(INVALID_VALUE.format(where=f"{where}.scenarios[{j}].computed_at", problem=problem))
