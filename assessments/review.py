"""Reads for the review: the supervisors' queue and the assessment page's review panel.

Visibility is the selectors' rule (``selectors.visible_submissions``): the queue never
lists a CBI case for a user not cleared for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Count, DateField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from . import case_links, permissions, presentation, selectors
from .limits import TEXT_LIMITS
from .models import Assessment, DecisionAction, ReviewDecision, Scenario, Status
from .roles import is_supervisor

QUEUE_NOT_ALLOWED = "Only supervisors have a review queue."


def review_queue(*, user) -> QuerySet[Assessment]:
    """Submitted assessments awaiting a supervisor, soonest due first (their case's due
    date, ``calendar_review.selectors.DUE``: the calendar's, else the default one), then by
    id, each with ``submitted_at`` (its latest submit decision), ``submit_note`` and
    ``scenario_count`` (uses not deleted). Only cases the user may see; the user's own
    submitted work is listed too (flagged in the page: another supervisor must review it).
    The page reads it a page at a time (:func:`review_queue_page`)."""
    latest_submit = ReviewDecision.objects.filter(
        assessment=OuterRef("pk"), action=DecisionAction.SUBMIT
    ).order_by("-at", "-id")
    return _queue_in_due_order(user=user).select_related("submission", "engineer").annotate(
        submitted_at=Subquery(latest_submit.values("at")[:1]),
        submit_note=Subquery(latest_submit.values("comment")[:1]),
        scenario_count=Count("scenarios", filter=Q(scenarios__deleted_at__isnull=True)),
    )


def _queue_in_due_order(*, user) -> QuerySet[Assessment]:
    """The queue's assessments and their due dates only: what a page is chosen from, read
    from the submitted assessments' index (each case's calendar through its key)."""
    if not is_supervisor(user):
        raise PermissionDenied(QUEUE_NOT_ALLOWED)
    from calendar_review.models import ReviewCalendar
    from calendar_review.selectors import DUE, default_due_expression

    calendar = ReviewCalendar.objects.filter(submission=OuterRef("submission"))
    due = Coalesce(Subquery(calendar.values("due_on")[:1]), default_due_expression("submission__created_at"),
                   output_field=DateField())
    return (
        Assessment.objects.filter(selectors.visible_to(user=user, case="submission__"), status=Status.SUBMITTED)
        .annotate(**{DUE: due}).order_by(DUE, "id")
    )


#: Assessments per page of the review queue.
QUEUE_PER_PAGE = 50


def review_queue_page(*, user, params: Mapping[str, str], size: int | None = None):
    """One page (``size`` rows, :data:`QUEUE_PER_PAGE` unless given) of :func:`review_queue`
    by place (``after``/``before`` a row's due date and id, as the due-date list pages:
    ``calendar_review.selectors.due_page``), and a problem with the link (``""``: none).
    The page is chosen from the due dates alone; what its rows show is read for them only."""
    from calendar_review.selectors import due_page

    page, problem = due_page(_queue_in_due_order(user=user), params=params, size=size or QUEUE_PER_PAGE,
                             calendars_too=False)
    shown = review_queue(user=user).filter(pk__in=[a.pk for a in page.object_list]).in_bulk()
    page.object_list = [shown[a.pk] for a in page.object_list if a.pk in shown]  # unless it left the queue since
    return page, problem


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
