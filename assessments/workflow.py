"""The review workflow: the only code that changes an assessment's status.

``draft -> submitted -> approved``, or ``submitted -> returned -> (edited) -> submitted``;
:data:`TRANSITIONS` is the whole table. Each service locks the assessment row
(``select_for_update``) inside one transaction, checks the table, then who may act
(``assessments.permissions``), then the input, and only then writes: the new status
and one :class:`ReviewDecision`. A refusal raises ``PermissionDenied`` (who or when)
or ``ValidationError`` (bad input) with one of the messages below and writes nothing.

Approval freezes the stored result snapshots as they are, and stores the case's data as
approved (``Assessment.case_snapshot``): the case may be amended for a later revision, and
the approved revision's report still prints the case it was approved with.
Submission is refused while any scenario has no result or its inputs changed since its
result was computed, and both submission and approval recompute each scenario from the
inputs its result was computed from and refuse a stored result that is not what the
engine computes (an edited or forged one, or one from an engine that has changed since),
so what the supervisor approves is what the engine computes from the inputs shown.
Approval also seals the report: its PDF is drawn once and stored with its SHA-256, in the
approval's transaction, by the receiver of :data:`assessment_approved` (``reports.seal``,
connected when the application starts: the workflow does not import the report layer),
and every later download gives those bytes.
Approved work is final (``models.ApprovedWorkLocked``); a new revision copies an
approved assessment into a new draft, reading the approved one only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured, PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Max
from django.dispatch import Signal
from django.utils import timezone

from . import events, permissions, selectors, services
from .engine_results import engine_result_difference
from .limits import TEXT_LIMITS
from .models import (
    Assessment,
    DecisionAction,
    ReviewDecision,
    Scenario,
    Status,
    Submission,
    case_snapshot,
    refresh_latest_assessment,
)
from .review import result_problems
from .roles import is_supervisor

# (from status, action) -> to status. Anything not listed is refused.
TRANSITIONS: dict[tuple[str, str], str] = {
    (Status.DRAFT, DecisionAction.SUBMIT): Status.SUBMITTED,
    (Status.RETURNED, DecisionAction.SUBMIT): Status.SUBMITTED,
    (Status.SUBMITTED, DecisionAction.APPROVE): Status.APPROVED,
    (Status.SUBMITTED, DecisionAction.RETURN): Status.RETURNED,
    (Status.SUBMITTED, DecisionAction.WITHDRAW): Status.DRAFT,
}

TRANSITION_NOT_ALLOWED = "This assessment is {status}: it cannot be {action} now."
SUBMIT_NOT_ALLOWED = "Only the assessment's engineer can submit it."
WITHDRAW_NOT_ALLOWED = "Only the assessment's engineer can withdraw it."
REVIEW_NOT_ALLOWED = "Only a supervisor can approve or return an assessment."
SELF_REVIEW_NOT_ALLOWED = "You cannot approve or return your own assessment: another supervisor must review it."
RETURN_COMMENT_REQUIRED = "Say what must change: a comment is required to return an assessment."
#: The longest comment on one use of a returned revision (``events.returned``'s ``use_comments``).
USE_COMMENT_LIMIT = TEXT_LIMITS["comment"]
NO_SCENARIOS = "Add at least one use (scenario) before submitting."
NOT_COMPUTED = "Compute every use before submitting. Not computed: {titles}."
STALE_RESULTS = "Inputs changed since these uses were computed; compute them again before submitting: {titles}."
STALE_RESULTS_AT_APPROVAL = "Inputs changed since these uses were computed; return the assessment instead: {titles}."
NOT_ENGINE_RESULTS = (
    "The stored results of {titles} are not what the engine computes from {its} inputs; compute {it} again."
)
NOT_ENGINE_RESULTS_AT_APPROVAL = (
    "The stored results of {titles} are not what the engine computes from {its} inputs; "
    "return the assessment instead."
)
VOLUME_REASON_REQUIRED = "{message} Say why (e.g. the volumes are alternatives, not additive) to submit."
REVISE_NOT_APPROVED = "Only an approved assessment can be copied into a new revision."
REVISE_NOT_LATEST = "Revision {revision} is not the latest revision of this case: start from the latest one."
REVISE_NOT_ALLOWED = "You may not start a new revision."

NO_SEALER = "No receiver of workflow.assessment_approved is connected: the approved report would not be sealed."

#: Sent inside the approval's transaction, after the status change and the approve decision
#: (``assessment``, ``decision``): its receiver seals the report (``reports.seal``). A
#: receiver's exception undoes the approval. The case import sends it too, for each approved
#: revision it writes, in the import's transaction (``transfer.sealed``): the import seals
#: what this system draws, never the file's bytes.
assessment_approved = Signal()

STATUS_WORDS: dict[str, str] = {
    Status.DRAFT: "a draft",
    Status.SUBMITTED: "submitted",
    Status.RETURNED: "returned",
    Status.APPROVED: "approved",
}
ACTION_WORDS: dict[str, str] = {
    DecisionAction.SUBMIT: "submitted",
    DecisionAction.APPROVE: "approved",
    DecisionAction.RETURN: "returned",
    DecisionAction.WITHDRAW: "withdrawn",
}


@transaction.atomic
def assessment_submit(*, assessment: Assessment, by: User, note: str = "", volume_reason: str = "") -> Assessment:
    """The engineer hands the assessment to the supervisors, with an optional note.

    When the uses together need more than the case's production volume, the engineer's
    ``volume_reason`` is required; it is stored on the assessment and printed in the IRER."""
    assessment = _lock(assessment)
    _check_transition(assessment, DecisionAction.SUBMIT)
    if not permissions.can_submit(by, assessment):
        raise PermissionDenied(SUBMIT_NOT_ALLOWED)
    _check_results(assessment, not_computed=NOT_COMPUTED, stale=STALE_RESULTS)
    _check_engine_results(assessment, message=NOT_ENGINE_RESULTS)
    volume = selectors.uses_volume(assessment=assessment)
    volume_reason = (volume_reason or "").strip() if volume["excess"] else ""
    if volume["excess"] and not volume_reason:
        raise ValidationError({"volume_reason": VOLUME_REASON_REQUIRED.format(message=volume["message"])})
    if assessment.volume_excess_reason != volume_reason:
        assessment.volume_excess_reason = volume_reason
        assessment.full_clean()
    assessment = _transition(assessment, action=DecisionAction.SUBMIT, by=by, comment=note)
    events.submitted.send(sender=Assessment, assessment=assessment, by=by, note=note)
    return assessment


@transaction.atomic
def assessment_withdraw(*, assessment: Assessment, by: User, note: str = "") -> Assessment:
    """The engineer takes a submitted assessment back before any decision: it is a draft
    again, editable, and the supervisors' queue no longer lists it."""
    assessment = _lock(assessment)
    _check_transition(assessment, DecisionAction.WITHDRAW)
    if not permissions.can_withdraw(by, assessment):
        raise PermissionDenied(WITHDRAW_NOT_ALLOWED)
    return _transition(assessment, action=DecisionAction.WITHDRAW, by=by, comment=note)


@transaction.atomic
def assessment_approve(*, assessment: Assessment, by: User, comment: str = "") -> Assessment:
    """A supervisor (never the engineer) approves: the stored results become final, and
    the report is drawn once and sealed (``reports.seal``: its PDF and SHA-256 stored with
    the approval, in this transaction)."""
    assessment = _lock(assessment)
    _check_transition(assessment, DecisionAction.APPROVE)
    _check_reviewer(assessment, by)
    _check_results(assessment, not_computed=STALE_RESULTS_AT_APPROVAL, stale=STALE_RESULTS_AT_APPROVAL)
    _check_engine_results(assessment, message=NOT_ENGINE_RESULTS_AT_APPROVAL)
    if not assessment_approved.has_listeners(Assessment):
        raise ImproperlyConfigured(NO_SEALER)
    assessment = _transition(assessment, action=DecisionAction.APPROVE, by=by, comment=comment)
    approval = assessment.decisions.filter(action=DecisionAction.APPROVE).order_by("-id").first()
    assessment_approved.send(sender=Assessment, assessment=assessment, decision=approval)
    events.approved.send(sender=Assessment, assessment=assessment, by=by, comment=comment)
    return assessment


@transaction.atomic
def assessment_return(*, assessment: Assessment, by: User, comment: str,
                      use_comments: Mapping[int, str] | None = None) -> Assessment:
    """A supervisor (never the engineer) sends the assessment back, saying why, with any
    comments on its single uses (``use_comments``: scenario id -> text), all or nothing: the
    comments are written by the receivers of ``events.returned`` (``notices``), in this
    transaction."""
    assessment = _lock(assessment)
    _check_transition(assessment, DecisionAction.RETURN)
    _check_reviewer(assessment, by)
    if not (comment or "").strip():
        raise ValidationError({"comment": RETURN_COMMENT_REQUIRED})
    assessment = _transition(assessment, action=DecisionAction.RETURN, by=by, comment=comment)
    events.returned.send(sender=Assessment, assessment=assessment, by=by, comment=comment,
                         use_comments=dict(use_comments or {}))
    return assessment


@transaction.atomic
def assessment_revise(*, assessment: Assessment, by: User) -> Assessment:
    """Copy the latest, approved revision (notes, scenarios with their inputs, reasons
    and stored results) into a new draft numbered after the latest, engineered by ``by``.
    A copied input linked to the case (``case_links.is_linked``, against the case as the
    source was approved) takes the case's value as it is now, and its use is then not
    current until computed again."""
    # The case row is the lock two concurrent "new revision" requests queue on.
    Submission.objects.select_for_update().get(pk=assessment.submission_id)
    source = _lock(assessment)
    if not permissions.can_revise(by, source):
        if source.status != Status.APPROVED:
            raise PermissionDenied(REVISE_NOT_APPROVED)
        latest = source.submission.assessments.aggregate(latest=Max("revision"))["latest"]
        if latest != source.revision:
            raise PermissionDenied(REVISE_NOT_LATEST.format(revision=source.revision))
        raise PermissionDenied(REVISE_NOT_ALLOWED)
    reason = f"New revision copied from approved revision {source.revision}."
    copy = Assessment(
        submission=source.submission,
        revision=source.revision + 1,
        engineer=by,
        status=Status.DRAFT,
        volume_excess_reason=source.volume_excess_reason,
        # The reviewer's choices for the IRER, every one (its date aside: the day the revision is made).
        **{name: getattr(source, name) for name in Assessment.IRER_CHOICE_FIELDS
           if name not in Assessment.IRER_CHOICES_NOT_COPIED},
    )
    _save_with_history(copy, by=by, reason=reason)
    refresh_latest_assessment(submission_ids=[copy.submission_id])
    # The copied inputs linked to the case take its values as they are now, where they differ
    # from the case as the source was approved (case_links.follow): saved again, said in the history.
    as_approved, now = source.case_snapshot or {}, case_snapshot(source.submission)
    for scenario in source.scenarios.all():
        copied = services.scenario_copy(scenario, assessment=copy, title=scenario.title, position=scenario.position)
        _save_with_history(copied, by=by, reason=reason)
        services.scenario_follow_case(copied, before=as_approved, after=now, by=by,
                                      reason=services.REVISION_FOLLOWED_REASON)
    return copy


# Internals -----------------------------------------------------------------------------------


def _lock(assessment: Assessment) -> Assessment:
    """The assessment's row, locked until the transaction ends, read fresh. Its case's row
    is locked first, as ``assessment_revise`` and ``services.assessment_start`` lock it:
    a transition then writes the case's copy of the latest status
    (``models.refresh_latest_assessment``), and every writer taking the case before the
    assessment is what keeps two of them from waiting on each other (a deadlock)."""
    Submission.objects.select_for_update().filter(pk=assessment.submission_id).values_list("pk").first()
    return Assessment.objects.select_for_update().get(pk=assessment.pk)


def _check_transition(assessment: Assessment, action: str) -> None:
    if (assessment.status, action) not in TRANSITIONS:
        raise PermissionDenied(
            TRANSITION_NOT_ALLOWED.format(status=STATUS_WORDS[assessment.status], action=ACTION_WORDS[action])
        )


def _check_reviewer(assessment: Assessment, by: User) -> None:
    if permissions.can_review(by, assessment):
        return
    if is_supervisor(by) and assessment.engineer_id == by.pk:
        raise PermissionDenied(SELF_REVIEW_NOT_ALLOWED)
    raise PermissionDenied(REVIEW_NOT_ALLOWED)


def _check_results(assessment: Assessment, *, not_computed: str, stale: str) -> None:
    if not assessment.scenarios.exists():
        raise ValidationError(NO_SCENARIOS)
    problems = result_problems(assessment=assessment)
    if problems["uncomputed"]:
        raise ValidationError(not_computed.format(titles=_titles(problems["uncomputed"])))
    if problems["stale"]:
        raise ValidationError(stale.format(titles=_titles(problems["stale"])))


def _check_engine_results(assessment: Assessment, *, message: str) -> None:
    """Refuse (naming them) the scenarios whose stored result is not what the engine
    computes from the inputs it was computed from (``computed_inputs``)."""
    wrong = [s for s in assessment.scenarios.all() if not _is_engine_result(s)]
    if wrong:
        one = len(wrong) == 1
        raise ValidationError(message.format(titles=_titles(wrong), its="its" if one else "their",
                                             it="it" if one else "them"))


def _is_engine_result(scenario: Scenario) -> bool:
    """The stored result is what the engine computes today from ``computed_inputs``
    (:mod:`assessments.engine_results`, the rule the import applies too)."""
    return not engine_result_difference(
        scenario_key=scenario.scenario_key, computed_inputs=scenario.computed_inputs, stored=scenario.result
    )


def _titles(scenarios: Iterable[Scenario]) -> str:
    return ", ".join(f"“{scenario.title}”" for scenario in scenarios)


def _transition(assessment: Assessment, *, action: str, by: User, comment: str) -> Assessment:
    from_status = assessment.status
    to_status = TRANSITIONS[(from_status, action)]
    assessment.status = to_status
    if to_status == Status.APPROVED:
        assessment.approved_by = by
        assessment.approved_at = timezone.now()
        # The case as approved: its report prints this, whatever the case is amended to later.
        assessment.case_snapshot = case_snapshot(assessment.submission)
    _save_with_history(assessment, by=by, reason=f"{DecisionAction(action).label} by {by.get_username()}.")
    refresh_latest_assessment(submission_ids=[assessment.submission_id])
    decision = ReviewDecision(
        assessment=assessment,
        action=action,
        from_status=from_status,
        to_status=to_status,
        by=by,
        comment=(comment or "").strip(),
    )
    _save_with_history(decision, by=by)
    return assessment


def _save_with_history(instance: models.Model, *, by: User, reason: str = "") -> None:
    """Save, recording ``by`` (and ``reason``) in the historical record even outside a
    request (``services.history_note``)."""
    services.history_note(instance, by=by, reason=reason)
    instance.save()
