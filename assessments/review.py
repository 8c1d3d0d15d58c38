"""Reads for the review: the supervisors' queue and the assessment page's review panel.

Visibility is the selectors' rule (``selectors.visible_submissions``): the queue never
lists a CBI case for a user not cleared for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from . import case_links, permissions, presentation, selectors
from .due_dates import DuePage, due_page
from .engine_marks import older_engine
from .limits import TEXT_LIMITS
from .models import Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission
from .roles import is_supervisor

QUEUE_NOT_ALLOWED = "Only supervisors have a review queue."


def review_queue(*, user: User | AnonymousUser) -> QuerySet[Assessment]:
    """Submitted assessments awaiting a supervisor, soonest due first (their case's due
    date: the copy of its calendar on the case, ``Submission.due_on``), then by case, each
    with ``submitted_at`` (its latest submit decision), ``submit_note`` and
    ``scenario_count`` (uses not deleted). Only cases the user may see; the user's own
    submitted work is listed too (flagged in the page: another supervisor must review it).
    The page reads it a page at a time (:func:`review_queue_page`)."""
    if not is_supervisor(user):
        raise PermissionDenied(QUEUE_NOT_ALLOWED)
    latest_submit = ReviewDecision.objects.filter(
        assessment=OuterRef("pk"), action=DecisionAction.SUBMIT
    ).order_by("-at", "-id")
    return (
        Assessment.objects.filter(selectors.visible_to(user=user, case="submission__"), status=Status.SUBMITTED)
        .select_related("submission", "engineer")
        .annotate(
            submitted_at=Subquery(latest_submit.values("at")[:1]),
            submit_note=Subquery(latest_submit.values("comment")[:1]),
            scenario_count=Count("scenarios", filter=Q(scenarios__deleted_at__isnull=True)),
        )
        .order_by("submission__due_on", "submission_id")
    )


def _cases_awaiting_review(*, user: User | AnonymousUser) -> QuerySet[Submission]:
    """The cases of the queue (their latest revision submitted: a submitted assessment is
    always its case's latest, :func:`review_queue_count`), what a page is chosen from: read
    from their index in due-date order (``submission_review_due_first``)."""
    if not is_supervisor(user):
        raise PermissionDenied(QUEUE_NOT_ALLOWED)
    return selectors.visible_submissions(user=user).filter(latest_status=Status.SUBMITTED)


#: Assessments per page of the review queue.
QUEUE_PER_PAGE = 50


def review_queue_page(*, user: User | AnonymousUser, params: Mapping[str, str],
                      size: int | None = None) -> tuple[DuePage[Assessment], str]:
    """One page (``size`` rows, :data:`QUEUE_PER_PAGE` unless given) of :func:`review_queue`
    by place (``after``/``before`` a case's due date and id, as the due-date list pages:
    ``due_dates.due_page``), and a problem with the link (``""``: none). The page is chosen
    from the cases' due dates alone; what its rows show is read for them only."""
    cases, problem = due_page(_cases_awaiting_review(user=user), params=params, size=size or QUEUE_PER_PAGE)
    ids = [case.pk for case in cases.object_list]
    shown = {a.submission_id: a for a in review_queue(user=user).filter(submission_id__in=ids)}
    rows = [shown[pk] for pk in ids if pk in shown]  # unless it left the queue since
    return DuePage(rows, cases.earlier, cases.later), problem


def review_queue_count(*, user: User | AnonymousUser) -> int:
    """How many assessments wait in ``user``'s queue (0 for anyone but a supervisor): the
    visible cases whose latest assessment is submitted by someone else.

    Read from the copy of the latest assessment on the case (``Submission.LATEST_FIELDS``;
    the partial index ``submission_awaiting_review`` holds all it reads): a submitted
    assessment is always its case's latest revision, as only an approved revision is
    copied into a new one (``workflow.assessment_revise``; ``transfer`` imports only such
    histories)."""
    if not user.is_authenticated or not is_supervisor(user):  # a supervisor has logged in
        return 0
    return (
        selectors.visible_submissions(user=user)
        .filter(latest_status=Status.SUBMITTED)
        .exclude(latest_engineer=user)
        .count()
    )


def review_queue_notes(*, queue: Iterable[Assessment]) -> dict[int, list[str]]:
    """What the supervisor should know, per assessment of ``queue`` (by id), of its uses
    against its case: a use not current, in words where an amendment of the case is why
    (``case_links.case_changes``), a reason that quotes an older value of the case
    (``case_links.reason_flags``), and a use computed by an older engine
    (``engine_marks.older_engine``). Three queries, however long the queue."""
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
            computed_by = older_engine(scenario, assessment=assessment)
            if computed_by is not None:  # the installed engine may compute other figures: see the difference
                lines.append(f"“{scenario.title}”: {computed_by.text}.")
        if lines:
            notes[assessment.pk] = lines
    return notes


def review_queue_over_releases(*, queue: Iterable[Assessment]) -> dict[int, list[str]]:
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


def review_context(*, user: User | AnonymousUser, assessment: Assessment) -> dict[str, Any]:
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
