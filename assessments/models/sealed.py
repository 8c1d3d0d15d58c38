"""The IRER as approved: the PDF drawn once when a revision is approved, kept byte for
byte (:class:`SealedReport`), with its SHA-256. Every later download of the revision's
approved report is these bytes, and a PDF handed around later is checked against them
(``reports.seal``).

A sealed report is approved work, so it is final: saving a stored row again or deleting
one (a cascade from its assessment or decision included) raises
:class:`~.status.ApprovedWorkLocked` naming its assessment, whoever calls it; on PostgreSQL a trigger refuses
the same UPDATE and DELETE to every client (migration 0018) and refuses a row for a
revision that is not approved.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q
from django.db.models.signals import pre_delete, pre_save

from .assessments import Assessment, ReviewDecision
from .status import APPROVED_WORK_LOCKED, ApprovedWorkLocked


class SealedCopy(models.TextChoices):
    FULL = "full", "full"
    SANITISED = "sanitised", "sanitised"


class SealedReport(models.Model):
    """One copy (full or sanitised) of an approved revision's IRER as approved."""

    # CASCADE, so that deleting an approved assessment reaches the guard below (and the
    # assessment's own) and is refused as approved work, not as a protected reference.
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="sealed_reports")
    decision = models.ForeignKey(
        ReviewDecision, on_delete=models.CASCADE, related_name="sealed_reports",
        help_text="The approval this copy was drawn at.",
    )
    copy = models.CharField(max_length=10, choices=SealedCopy.choices)
    pdf = models.BinaryField("PDF", editable=False)
    sha256 = models.CharField("SHA-256 of the PDF", max_length=64, unique=True, editable=False)
    seal = models.CharField(
        "seal", max_length=20, editable=False,
        help_text="The seal printed in the copy's footer: the first characters of the SHA-256 of what it prints.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["assessment", "copy"]
        constraints = [
            models.UniqueConstraint(fields=["assessment", "copy"], name="sealed_report_one_per_copy"),
            models.CheckConstraint(condition=Q(copy__in=SealedCopy.values), name="sealed_report_copy_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.assessment} {self.copy} {self.sha256[:12]}"


def _locked(instance: SealedReport) -> ApprovedWorkLocked:
    assessment = Assessment.objects.select_related("submission").get(pk=instance.assessment_id)
    return ApprovedWorkLocked(APPROVED_WORK_LOCKED.format(assessment=assessment))


def _refuse_sealed_save(sender: type[SealedReport], instance: SealedReport, **kwargs: Any) -> None:
    if instance.pk is not None and SealedReport._base_manager.filter(pk=instance.pk).exists():
        raise _locked(instance)


def _refuse_sealed_delete(sender: type[SealedReport], instance: SealedReport, **kwargs: Any) -> None:
    raise _locked(instance)


pre_save.connect(_refuse_sealed_save, sender=SealedReport, dispatch_uid="sealed_report_save")
pre_delete.connect(_refuse_sealed_delete, sender=SealedReport, dispatch_uid="sealed_report_delete")
