"""Approved work is final: saving or deleting an approved assessment, or adding, saving or
deleting a scenario or review decision of one, raises :class:`ApprovedWorkLocked` whoever
calls it (``save()``, a raw save, ``delete()``, ``QuerySet.delete()``, a cascade). The save
that approves (submitted -> approved) changes a row that was not approved yet, and the
approval's own decision is the one row added after it. On PostgreSQL, triggers refuse the
same writes to every client, ``QuerySet.update()``, ``bulk_create`` and raw SQL included
(migration 0006). Approved rows stay readable: copying one into a new revision only reads it.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q
from django.db.models.signals import pre_delete, pre_save

from .assessments import Assessment, ReviewDecision
from .meta import is_saved
from .scenarios import Scenario
from .status import APPROVED_WORK_LOCKED, ApprovedWorkLocked, DecisionAction, Status


def _approved_parent(instance: Assessment | Scenario | ReviewDecision, *, saving: bool) -> Assessment | None:
    """The approved assessment, as stored, that ``instance`` is, or that holds it now, or
    (``saving``) that it is being put under; None when there is none. One query, on the
    stored rows: the instance in memory may be stale or forged."""
    stored = instance.pk is not None
    if isinstance(instance, Assessment):
        if not stored:
            return None
        where = Q(pk=instance.pk)
    else:
        where = Q(pk=instance.assessment_id) if saving else Q(pk__in=[])
        if stored:
            where |= Q(pk__in=type(instance)._base_manager.filter(pk=instance.pk).values("assessment_id"))
    return Assessment.objects.filter(where, status=Status.APPROVED).select_related("submission").first()


def _is_the_approval(decision: models.Model, assessment: Assessment) -> bool:
    """The approve decision ``assessments.workflow`` writes just after the status change:
    a new row, and the assessment's first approval (approved is final: there is one)."""
    return (
        isinstance(decision, ReviewDecision)
        and not is_saved(decision)
        and decision.action == DecisionAction.APPROVE
        and not assessment.decisions.filter(action=DecisionAction.APPROVE).exists()
    )


def _refuse_approved_save(sender: type[models.Model], instance: Assessment | Scenario | ReviewDecision,
                          **kwargs: Any) -> None:
    locked = _approved_parent(instance, saving=True)
    if locked is not None and not _is_the_approval(instance, locked):
        raise ApprovedWorkLocked(APPROVED_WORK_LOCKED.format(assessment=locked))


def _refuse_approved_delete(sender: type[models.Model], instance: Assessment | Scenario | ReviewDecision,
                            **kwargs: Any) -> None:
    locked = _approved_parent(instance, saving=False)
    if locked is not None:
        raise ApprovedWorkLocked(APPROVED_WORK_LOCKED.format(assessment=locked))


# Signals rather than save()/delete() overrides: they are sent for raw saves (loaddata,
# imports) and for each row of a QuerySet.delete() and of a cascade too.
for _model in (Assessment, Scenario, ReviewDecision):
    pre_save.connect(_refuse_approved_save, sender=_model, dispatch_uid=f"approved_work_save_{_model.__name__}")
    pre_delete.connect(_refuse_approved_delete, sender=_model, dispatch_uid=f"approved_work_delete_{_model.__name__}")
