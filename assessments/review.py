"""Reads for the review: the supervisors' queue and the assessment page's review panel.

Visibility is the selectors' rule (``selectors.visible_submissions``): the queue never
lists a CBI case for a user not cleared for it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from . import case_links, permissions, presentation, selectors
from .limits import TEXT_LIMITS
from .models import Assessment, DecisionAction, ReviewDecision, Scenario, Status
from .roles import is_supervisor

QUEUE_NOT_ALLOWED = "Only supervisors have a review queue."


def review_queue(*, user) -> QuerySet[Assessment]:
    """Submitted assessments awaiting a supervisor, oldest submission first, each with
    ``submitted_at`` (its latest submit decision) and ``submit_note``. Only cases the
    user may see; the user's own submitted work is listed too (flagged in the page:
    another supervisor must review it)."""
    if not is_supervisor(user):
        raise PermissionDenied(QUEUE_NOT_ALLOWED)
    latest_submit = ReviewDecision.objects.filter(
        assessment=OuterRef("pk"), action=DecisionAction.SUBMIT
    ).order_by("-at", "-id")
    return (
        Assessment.objects.filter(status=Status.SUBMITTED, submission__in=selectors.visible_submissions(user=user))
        .select_related("submission", "engineer")
        .annotate(
            submitted_at=Subquery(latest_submit.values("at")[:1]),
            submit_note=Subquery(latest_submit.values("comment")[:1]),
            scenario_count=Count("scenarios", filter=Q(scenarios__deleted_at__isnull=True)),
        )
        .order_by("submitted_at", "id")
    )


def review_queue_count(*, user) -> int:
    """How many assessments wait in ``user``'s queue (0 for anyone but a supervisor): the
    visible cases whose latest assessment is submitted by someone else.

    Read from the copy of the latest assessment on the case (``Submission.LATEST_FIELDS``;
    the partial index ``submission_awaiting_review`` holds all it reads): a submitted
    assessment is always its case's latest revision, as only an approved revision is
    copied into a new one (``workflow.assessment_revise``; ``transfer`` imports only such
    histories)."""
    if not is_supervisor(user):
        return 0
    return (
        selectors.visible_submissions(user=user)
        .filter(latest_status=Status.SUBMITTED)
        .exclude(latest_engineer=user)
        .count()
    )


def review_queue_notes(*, queue) -> dict[int, list[str]]:
    """What the supervisor should know, per assessment of ``queue`` (by id), of its uses
    against its case: a use not current, in words where an amendment of the case is why
    (``case_links.case_changes``), and a reason that quotes an older value of the case
    (``case_links.reason_flags``). Three queries, however long the queue."""
    assessments = list(queue)
    uses: dict[int, list[Scenario]] = {}
    for scenario in Scenario.objects.filter(assessment__in=[a.pk for a in assessments]).order_by("position", "id"):
        uses.setdefault(scenario.assessment_id, []).append(scenario)
    older = case_links.older_case_values({a.submission_id for a in assessments},
                                         case_links.case_fields(s for listed in uses.values() for s in listed))
    notes: dict[int, list[str]] = {}
    for assessment in assessments:
        case = assessment.case_data
        lines = []
        for scenario in uses.get(assessment.pk, []):
            if presentation.scenario_state(scenario) == presentation.STALE:
                changes = case_links.case_changes(scenario, case)
                lines += [f"“{scenario.title}”: {change.text}." for change in changes] or [
                    f"“{scenario.title}”: {presentation.NOT_CURRENT}."]
            lines += [f"“{scenario.title}”, {flag.label}: {flag.text}."
                      for flag in case_links.reason_flags(scenario, case, older).values()]
        if lines:
            notes[assessment.pk] = lines
    return notes


def review_queue_over_releases(*, queue) -> dict[int, list[str]]:
    """Per assessment of ``queue`` (by id), its uses whose stored result releases more than
    the use beyond whole-container rounding: ``“title”: the engine's warning``
    (:func:`presentation.over_release_warning`, issue 26). One query, however long the queue."""
    found: dict[int, list[str]] = {}
    uses = Scenario.objects.filter(assessment__in=[a.pk for a in queue]).order_by("position", "id")
    for scenario in uses.only("assessment_id", "title", "result"):
        warning = presentation.over_release_warning(scenario.result)
        if warning:
            found.setdefault(scenario.assessment_id, []).append(f"“{scenario.title}”: {warning}")
    return found


def result_problems(*, assessment: Assessment) -> dict[str, list[Scenario]]:
    """The scenarios that stop a submission: ``uncomputed`` (no result yet) and ``stale``
    (inputs changed since the result was computed)."""
    uncomputed, stale = [], []
    for scenario in assessment.scenarios.all():
        state = presentation.scenario_state(scenario)
        if state == presentation.UNCOMPUTED:
            uncomputed.append(scenario)
        elif state == presentation.STALE:
            stale.append(scenario)
    return {"uncomputed": uncomputed, "stale": stale}


def review_context(*, user, assessment: Assessment) -> dict[str, Any]:
    """What the assessment page needs for its review panel: the permission flags, the
    latest return comment (shown to the engineer while the assessment is returned),
    the submission note (shown while it is submitted), what stops a submission, and
    the other revisions of the case (for the comparison link)."""
    decisions = list(assessment.decisions.select_related("by").order_by("at", "id"))
    last = decisions[-1] if decisions else None
    latest_return = None
    if assessment.status == Status.RETURNED:
        latest_return = next((d for d in reversed(decisions) if d.action == DecisionAction.RETURN), None)
    approval = next((d for d in reversed(decisions) if d.action == DecisionAction.APPROVE), None)
    submit_note = last if assessment.status == Status.SUBMITTED and last and last.action == DecisionAction.SUBMIT else None
    can_submit = permissions.can_submit(user, assessment)
    problems = result_problems(assessment=assessment) if can_submit else {"uncomputed": [], "stale": []}
    others = list(
        assessment.submission.assessments.exclude(pk=assessment.pk).order_by("revision").values("pk", "revision")
    )
    return {
        "can_submit": can_submit,
        "can_review": permissions.can_review(user, assessment),
        "can_revise": permissions.can_revise(user, assessment),
        "can_withdraw": permissions.can_withdraw(user, assessment),
        "review_own_waiting": (
            is_supervisor(user) and assessment.status == Status.SUBMITTED and assessment.engineer_id == user.pk
        ),
        "review_decisions": decisions,
        "review_latest_return": latest_return,
        "review_submit_note": submit_note,
        "review_approval": approval if assessment.status == Status.APPROVED else None,
        "review_uncomputed": problems["uncomputed"],
        "review_stale": problems["stale"],
        "review_has_scenarios": assessment.scenarios.exists(),
        "review_volume": selectors.uses_volume(assessment=assessment) if can_submit else None,
        "comment_limit": TEXT_LIMITS["comment"],
        "review_other_revisions": others,
    }
