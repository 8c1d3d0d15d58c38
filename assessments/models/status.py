"""An assessment's status and what approval makes final: the four statuses, the actions
that change them (``assessments.workflow`` alone changes a status, by its table of allowed
transitions) and the refusal of any write to approved work (``guards``)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import models


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    RETURNED = "returned", "Returned"
    APPROVED = "approved", "Approved"


# What a case's ``latest_status`` holds when no assessment of it has been started (the case
# list's status filter offers it as "No assessment yet").
NO_ASSESSMENT = "none"
LATEST_STATUS_CHOICES = [(NO_ASSESSMENT, "No assessment yet"), *Status.choices]


class DecisionAction(models.TextChoices):
    SUBMIT = "submit", "Submitted"
    APPROVE = "approve", "Approved"
    RETURN = "return", "Returned"
    WITHDRAW = "withdraw", "Withdrawn"


APPROVED_WORK_LOCKED = (
    "Assessment {assessment} is approved and final: it, its uses and its review decisions cannot be "
    "changed or deleted. Start a new revision to change it."
)


class ApprovedWorkLocked(PermissionDenied):
    """A write to approved work. A ``PermissionDenied`` (a refusal of "when", as in
    ``assessments.workflow``), so that one reaching a view is a 403, never a 500."""
