"""A recorded measure of a change to the engine over the stored assessments (``assessments.impact_runs``).

A run (:class:`ImpactRun`) replays one change over every assessment on the report workers,
in parts (:class:`ImpactPart`: a range of assessments each, so two workers share a run and
the page shows the run's progress as the parts' counts). Each use whose numbers move, or
whose inputs the changed engine refuses, is one :class:`ImpactUse` row: its moves and
refusals as ``esd impact --json`` prints them (docs/interface.md), and the figures the
supervisor's page sorts and filters by (the largest relative move, whether a review
threshold is crossed). A row names its assessment and its case; who may see it is read
from the case at the time of reading (a CBI case's rows are in no uncleared person's page,
count or download), never copied here.

A run of kind :attr:`ImpactRun.Kind.ENGINE` measures the installed engine against results
stored by an earlier one: its rows for approved revisions are the notes their history and
their case page show ("the engine of release N would print X instead of Y"); nothing in the
approved revision changes. A run of kind :attr:`ImpactRun.Kind.OVERRIDE` measures a
proposed default (``esd impact --override``) and notes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .assessments import Assessment
from .cases import Submission
from .scenarios import Scenario


class ImpactRun(models.Model):
    """One change measured over the stored assessments."""

    class Kind(models.TextChoices):
        ENGINE = "engine", "the installed engine against results stored by an earlier one"
        OVERRIDE = "override", "a changed default"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    change = models.JSONField(
        default=dict, blank=True,
        help_text='The change as esd impact --json prints it: {"overrides": [...]} and, for an engine run, '
        '{"stored_by": [the earlier engine versions]}.')
    engine_version = models.CharField(max_length=20, help_text="The installed engine's version when the run began.")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", help_text="Empty for a run started from the command line.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    failed = models.TextField(blank=True, help_text="Why the run stopped before its end; empty otherwise.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["kind", "-created_at", "-id"], name="impact_run_latest")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.engine_version}, {self.created_at:%Y-%m-%d %H:%M})"


class ImpactPart(models.Model):
    """A range of assessments (by id, both ends included) one report worker replays for a run."""

    run = models.ForeignKey(ImpactRun, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField()
    first_id = models.PositiveBigIntegerField()
    last_id = models.PositiveBigIntegerField()
    uses = models.PositiveIntegerField(help_text="The computed uses in the range when the run began.")
    done = models.PositiveIntegerField(default=0, help_text="The uses replayed so far.")
    finished_at = models.DateTimeField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True, help_text="The report workers' task that replays it.")

    class Meta:
        ordering = ["run", "number"]
        constraints = [
            models.UniqueConstraint(fields=["run", "number"], name="impact_part_once"),
            models.CheckConstraint(condition=Q(done__lte=models.F("uses")), name="impact_part_done_le_uses"),
        ]


class ImpactUse(models.Model):
    """One use whose numbers move with the run's change (or which the changed engine refuses)."""

    run = models.ForeignKey(ImpactRun, on_delete=models.CASCADE, related_name="uses")
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="+")
    scenario = models.ForeignKey(Scenario, null=True, on_delete=models.SET_NULL, related_name="+")
    scenario_key = models.CharField(max_length=40)
    position = models.PositiveIntegerField(help_text="The use's number in its assessment.")
    title = models.CharField(max_length=200)
    status = models.CharField(max_length=12, help_text="The assessment's status when the run replayed it.")
    action = models.CharField(max_length=12, help_text='"recompute", or "note only" for an approved revision.')
    stored_by = models.CharField(max_length=20, blank=True, help_text="The engine version of the stored result.")
    moves = models.JSONField(default=list, blank=True, help_text="esd impact's moves of this use.")
    refused = models.JSONField(default=dict, blank=True, help_text="The changed engine's errors, by input.")
    largest = models.FloatField(null=True, blank=True,
                                help_text="The largest |relative| move; empty where a figure appears or goes.")
    crossed = models.BooleanField(default=False, help_text="A move crosses a review threshold.")

    class Meta:
        ordering = ["run", "submission", "assessment", "position"]
        indexes = [
            # The supervisor's page: a run's rows by the largest move first.
            models.Index(fields=["run", "-largest", "id"], name="impact_use_largest"),
            # The case page's notes: an assessment's rows, newest run first.
            models.Index(fields=["assessment", "-run"], name="impact_use_assessment"),
        ]
