"""Writes of the notices app.

:func:`notify` is the one way a notice is made: on the events of ``assessments.events``
(``receivers``): a revision submitted (to the supervisors, ``recipients``), returned or
approved (to the engineer), a case assigned (to the new engineer). It stores the in-app notice and, once the
transaction commits, sends an email through Django's email framework to a recipient with
an address. Nobody is told about a case they may not see (a CBI case and a user without
clearance), and an email about a CBI case says "a CBI case" and its number, nothing more.

The comments on single uses (:class:`UseComment`) are written by a supervisor returning
a revision (``workflow.assessment_return``'s ``use_comments``, :func:`use_comments_add`)
and marked resolved by the revision's engineer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from assessments.limits import text_error
from assessments.models import Assessment, Scenario, Status, Submission
from assessments.permissions import may_see
from assessments.roles import is_supervisor
from assessments.workflow import USE_COMMENT_LIMIT

from .models import NOTICE_TEXT_LIMIT, Notice, UseComment, Verb

logger = logging.getLogger(__name__)

USE_COMMENT_NOT_ALLOWED = "Only a supervisor returning this revision may comment on its uses."
USE_COMMENT_OTHER_REVISION = "That use is not part of this revision."
RESOLVE_NOT_ALLOWED = "Only the revision's engineer may mark a comment on a use resolved, while it is editable."
ALREADY_RESOLVED = "This comment is already marked resolved."

SUBJECTS: dict[str, str] = {
    Verb.SUBMITTED: "{case} submitted for approval",
    Verb.RETURNED: "{case} returned to you",
    Verb.APPROVED: "{case} approved",
    Verb.ASSIGNED: "{case} assigned to you",
}
TEXTS: dict[str, str] = {
    Verb.SUBMITTED: "Revision {revision} of {case} was submitted for approval by {by}.",
    Verb.RETURNED: "Revision {revision} of {case} was returned to you by {by}.",
    Verb.APPROVED: "Revision {revision} of {case} was approved by {by}.",
    Verb.ASSIGNED: "{case} was assigned to you by {by}.",
}


def _name(user: User) -> str:
    return user.get_full_name() or user.get_username()


def notify(
    *, verb: str, recipients: Iterable[User], submission: Submission, by: User, assessment: Assessment | None = None, comment: str = ""
) -> list[Notice]:
    """Tell each of ``recipients`` (except ``by``, inactive users and users who may not see
    the case) that ``by`` did ``verb``: an in-app notice, and an email when they have an
    address. ``comment`` is added to the email of a case without CBI only."""
    cbi = submission.is_cbi
    words = {"revision": assessment.revision if assessment else "", "by": _name(by)}
    text = TEXTS[verb].format(case=submission.case_number, **words)[:NOTICE_TEXT_LIMIT]
    notices: list[Notice] = []
    seen: set[int] = set()
    for user in recipients:
        if user.pk in seen or user.pk == by.pk or not user.is_active or not may_see(user, submission):
            continue
        seen.add(user.pk)
        notice = Notice.objects.create(
            recipient=user, verb=verb, submission=submission, assessment=assessment, text=text
        )
        notices.append(notice)
        if user.email:
            subject, body = _email(notice, cbi=cbi, comment=comment)
            transaction.on_commit(partial(_send, subject, body, user.email))
    return notices


def _email(notice: Notice, *, cbi: bool, comment: str) -> tuple[str, str]:
    """Subject and body. For a CBI case: "a CBI case", its number and the link, nothing else."""
    link = getattr(settings, "PMN_SITE_URL", "").rstrip("/") + notice.get_absolute_url()
    case = notice.submission.case_number
    if cbi:
        subject = f"PMN review: {notice.get_verb_display().lower()}: a CBI case, {case}"
        body = (
            f"{notice.get_verb_display()}: a CBI case, {case}.\n\n"
            f"Sign in to the PMN review application to read it: {link}\n"
        )
        return subject, body
    subject = "PMN review: " + SUBJECTS[notice.verb].format(case=case)
    body = notice.text + "\n\n"
    if comment.strip():
        body += f"Comment:\n{comment.strip()}\n\n"
    body += f"Open it in the PMN review application: {link}\n"
    return subject, body


def _send(subject: str, body: str, to: str) -> None:
    """Send after the commit; a mail server that fails is logged, never undoes the review."""
    try:
        send_mail(subject, body, None, [to], fail_silently=False)
    except Exception:
        logger.exception("Could not send the notice email to %s", to)


@transaction.atomic
def notice_mark_read(*, notice: Notice, by: User) -> Notice:
    if notice.recipient_id != by.pk:
        raise PermissionDenied("This notice is not yours.")
    if notice.read_at is None:
        notice.read_at = timezone.now()
        notice.save(update_fields=["read_at"])
    return notice


@transaction.atomic
def notices_mark_all_read(*, by: User) -> int:
    return Notice.objects.filter(recipient=by, read_at__isnull=True).update(read_at=timezone.now())


# Comments on single uses ------------------------------------------------------------------


def can_comment_on_uses(user: User, assessment: Assessment) -> bool:
    """A supervisor, never the engineer, who may see the case, on a returned revision."""
    return (
        is_supervisor(user)
        and assessment.status == Status.RETURNED
        and assessment.engineer_id != user.pk
        and may_see(user, assessment.submission)
    )


def can_resolve(user: User, comment: UseComment) -> bool:
    assessment = comment.scenario.assessment
    return (
        user.is_authenticated
        and assessment.engineer_id == user.pk
        and assessment.status in (Status.DRAFT, Status.RETURNED)
        and may_see(user, assessment.submission)
    )


@transaction.atomic
def use_comment_add(*, scenario: Scenario, by: User, text: str) -> UseComment:
    """A supervisor's comment on one use of a returned revision."""
    assessment = Assessment.objects.select_related("submission").get(pk=scenario.assessment_id)
    if not can_comment_on_uses(by, assessment):
        raise PermissionDenied(USE_COMMENT_NOT_ALLOWED)
    label = f"The comment on “{scenario.title}”"
    message = text_error(text or "", label=label, limit=USE_COMMENT_LIMIT)
    if message or not (text or "").strip():
        raise ValidationError({"text": message or f"{label} is empty."})
    return UseComment.objects.create(scenario=scenario, author=by, text=text.strip())


@transaction.atomic
def use_comment_resolve(*, comment: UseComment, by: User) -> UseComment:
    comment = UseComment.objects.select_for_update().select_related("scenario__assessment__submission").get(
        pk=comment.pk
    )
    if not can_resolve(by, comment):
        raise PermissionDenied(RESOLVE_NOT_ALLOWED)
    if comment.resolved_at is not None:
        raise ValidationError(ALREADY_RESOLVED)
    comment.resolved_at, comment.resolved_by = timezone.now(), by
    comment.save(update_fields=["resolved_at", "resolved_by"])
    return comment


def use_comments_add(*, assessment: Assessment, by: User, use_comments: dict[int, str]) -> list[UseComment]:
    """Attach the comments on the uses of the revision just returned (scenario id -> text),
    in the return's transaction: a use of another revision, or a refused comment, undoes
    the return."""
    scenarios = {s.pk: s for s in assessment.scenarios.all()}
    added = []
    for scenario_id, text in use_comments.items():
        if scenario_id not in scenarios:
            raise ValidationError(USE_COMMENT_OTHER_REVISION)
        added.append(use_comment_add(scenario=scenarios[scenario_id], by=by, text=text))
    return added
