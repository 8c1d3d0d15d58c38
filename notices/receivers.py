"""The notices of ``assessments.events``: each event of the review, told to the people it
concerns (``services.notify``), in the sender's transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.dispatch import receiver

from assessments import events
from assessments.models import Assessment, Submission

from .models import Verb
from .recipients import review_supervisors
from .services import notify, use_comments_add


@receiver(events.submitted, dispatch_uid="notices.submitted")
def on_submitted(sender: type, *, assessment: Assessment, by: User, note: str, **kwargs: Any) -> None:
    """To the supervisors the case concerns (``recipients``), with the engineer's note."""
    notify(verb=Verb.SUBMITTED, recipients=review_supervisors(assessment=assessment), submission=assessment.submission,
           assessment=assessment, by=by, comment=note)


@receiver(events.approved, dispatch_uid="notices.approved")
def on_approved(sender: type, *, assessment: Assessment, by: User, comment: str, **kwargs: Any) -> None:
    notify(verb=Verb.APPROVED, recipients=[assessment.engineer], submission=assessment.submission,
           assessment=assessment, by=by, comment=comment)


@receiver(events.returned, dispatch_uid="notices.returned")
def on_returned(sender: type, *, assessment: Assessment, by: User, comment: str, use_comments: dict[int, str],
                **kwargs: Any) -> None:
    """To the engineer; then the supervisor's comments on single uses, all or nothing."""
    notify(verb=Verb.RETURNED, recipients=[assessment.engineer], submission=assessment.submission,
           assessment=assessment, by=by, comment=comment)
    use_comments_add(assessment=assessment, by=by, use_comments=use_comments)


@receiver(events.assigned, dispatch_uid="notices.assigned")
def on_assigned(sender: type, *, submission: Submission, engineer: User, assessment: Assessment | None, by: User,
                **kwargs: Any) -> None:
    notify(verb=Verb.ASSIGNED, recipients=[engineer], submission=submission, assessment=assessment, by=by)
