"""Writing an imported case: every row built, checked and saved as it was exported, in the
order that keeps approved work locked; then each approved revision sealed as its approval
seals it (:mod:`.sealed`: its IRER drawn here, never taken from the file); then one
"created" history record for each row, the case's saying what became of each sealed copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from django.db import models
from django.db.models.functions import Trim, Upper

from ..events import ImportedPart
from ..models import (
    Assessment,
    ReviewDecision,
    Scenario,
    Status,
    Submission,
    as_printed,
    normalise_case_number,
    refresh_latest_assessment,
)
from .approved import check_case_as_approved, check_computed_before_review, check_times, latest_time
from .checks import (
    build,
    check_case_snapshot,
    check_reviewed_uses,
    check_revisions,
    check_row,
    check_scenario,
    check_trail,
)
from .document import children
from .errors import CASE_EXISTS, TransferError
from .sealed import SealOutcome, read_copies, seal_imported

_Row = TypeVar("_Row", bound=models.Model)


def write(case: dict[str, Any], assessments: list[dict[str, Any]], users: dict[str, Any], reason: str,
          parts: Sequence[ImportedPart] = (), *,
          latest: tuple[datetime, str] | None = None) -> tuple[Submission, list[SealOutcome]]:
    """Build, check and save every row (inside the caller's transaction: a refusal at any
    row rolls back the rows saved before it). ``latest``: the latest time a row may hold
    (``approved.latest_time``; now when not given).

    Approved work is final (``models.ApprovedWorkLocked``; on PostgreSQL, triggers): no
    use or decision may be added under an approved revision, except the approval's own
    decision. An approved revision is therefore written as the workflow writes it:
    submitted, with its uses and its decisions up to the submission; then approved; then
    the approve decision. Once every row is written, each approved revision is sealed
    (:func:`.sealed.seal_imported`); returns the case and what became of each sealed copy."""
    latest = latest or latest_time(None)
    submission = build(Submission, case, "case", users)
    submission.case_number = normalise_case_number(submission.case_number)
    if submission.case_number and (
        Submission.objects.annotate(normalised=Upper(Trim("case_number")))
        .filter(normalised=submission.case_number)
        .exists()
    ):
        raise TransferError(CASE_EXISTS.format(case_number=submission.case_number))
    submission.is_cbi = bool(submission.cbi_claims)
    check_row(submission, "case")
    check_times(submission, "case", latest)
    saved: list[models.Model] = [save_raw(submission)]
    for part in parts:  # the apps' rows (contact reports), linked to each revision below, before its approval
        part.write(submission, users, latest=latest)
    revisions = []
    approvals = []  # (revision, its approve decision, its sealed copies in the file)
    for i, row in enumerate(assessments):
        where = f"assessments[{i}]"
        assessment = build(Assessment, row, where, users, submission=submission)
        check_row(assessment, where)
        check_times(assessment, where, latest)
        check_case_snapshot(assessment, submission, where, in_file="case_snapshot" in row)
        approved = assessment.status == Status.APPROVED
        final = (assessment.status, assessment.approved_by, assessment.approved_at)
        if approved:
            assessment.status, assessment.approved_by, assessment.approved_at = Status.SUBMITTED, None, None
        saved.append(save_raw(assessment))
        for part in parts:
            part.link(assessment)
        assessment.status, assessment.approved_by, assessment.approved_at = final
        revisions.append(assessment)
        scenarios = []
        for j, scenario_row in enumerate(children(row, where, "scenarios")):
            at = f"{where}.scenarios[{j}]"
            scenario = build(Scenario, scenario_row, at, users, assessment=assessment)
            check_row(scenario, at)
            check_times(scenario, at, latest)
            check_scenario(scenario, at)
            saved.append(save_raw(scenario))
            scenarios.append(scenario)
        decisions = []
        for j, decision_row in enumerate(children(row, where, "decisions")):
            at = f"{where}.decisions[{j}]"
            decision = build(ReviewDecision, decision_row, at, users, assessment=assessment)
            check_row(decision, at)
            check_times(decision, at, latest)
            decisions.append(decision)
        check_trail(assessment, decisions, where)  # an approved revision's last decision is its approval
        check_case_as_approved(assessment, submission, where)
        check_computed_before_review(assessment, scenarios, decisions, where)
        check_reviewed_uses(as_printed(assessment), scenarios, where)  # against the case as approved
        in_file = read_copies(row, assessment, where)  # the status is the trail's: sealed copies if approved
        saved.extend(save_raw(decision) for decision in (decisions[:-1] if approved else decisions))
        if approved:
            save_raw(assessment)  # submitted -> approved
            saved.append(save_raw(decisions[-1]))
            approvals.append((assessment, decisions[-1], in_file))
    check_revisions(revisions)
    for part in parts:
        saved.extend(part.finish(revisions))
    refresh_latest_assessment(submission_ids=[submission.pk])
    seals = [
        outcome for assessment, approval, in_file in approvals
        for outcome in seal_imported(assessment=assessment, decision=approval, in_file=in_file)
    ]
    # The case's record says what became of each sealed copy (its reason is text; a
    # revision's holds 100 characters).
    submission._change_reason = " ".join(  # type: ignore[attr-defined]  # django-simple-history reads _change_reason at run time
        [reason, *(outcome.message for outcome in seals)]
    )
    _start_history(saved, reason)
    return submission, seals


def save_raw(instance: _Row) -> _Row:
    """Save exactly the values given: a raw save (as ``loaddata`` does) leaves the
    ``auto_now``/``auto_now_add`` timestamps as exported. A raw save writes no history
    record; :func:`_start_history` writes one for every row."""
    instance.save_base(raw=True)
    return instance


def _start_history(instances: Iterable[models.Model], reason: str) -> None:
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for instance in instances:
        by_model.setdefault(type(instance), []).append(instance)
    for model, rows in by_model.items():
        model.history.bulk_history_create(  # type: ignore[attr-defined]  # django-simple-history adds .history at run time
            rows, default_change_reason=reason
        )
