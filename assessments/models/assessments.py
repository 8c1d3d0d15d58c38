"""An assessment (one revision of the engineering review of a case), its status changes
(ReviewDecision), and the copy of the latest assessment each case keeps
(:func:`refresh_latest_assessment`)."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.dispatch import Signal
from django.utils import timezone
from simple_history.models import HistoricalRecords

from ..exposure_rating import assessment_rating
from .case_fields import (
    ASSESSMENT_DATE,
    IRER_STATUS_OTHER_MISSING,
    IRER_STATUS_OTHER_NOT_OTHER,
    OCCUPATIONAL_EXPOSURE_RATING_CHOICES,
    OCCUPATIONAL_EXPOSURE_RATINGS,
    RATING_REASON_MISSING,
    IrerStatus,
)
from .cases import Submission, _count_save, case_from_snapshot
from .meta import is_saved
from .status import NO_ASSESSMENT, DecisionAction, Status


class IrerNote(models.TextChoices):
    """The IRER's note at the head of the releases (ChemSTEER v3.2's three wordings,
    frmWaterAndInhBasis): whether the daily releases of the sources may coincide."""

    MAY = "may", (
        "IRER Note: The daily releases listed for any source below may coincide with daily releases "
        "from the other sources to the same medium."
    )
    EXPECTED = "expected", (
        "IRER Note: The daily releases listed for any source below are expected to coincide with daily "
        "releases from the other sources to the same medium."
    )
    NOT_EXPECTED = "not_expected", (
        "IRER Note: The daily releases listed for any source below are not expected to coincide with "
        "daily releases from the other sources to the same medium."
    )


#: The reviewer's choice of the IRER's calculation appendix (``Assessment.irer_appendix``):
#: none made leaves it to the status (``reports.context.appendix_printed``).
IRER_APPENDIX_CHOICES = [
    (None, "As the status decides (drafts yes, approved copies no)"),
    (True, "Print the appendix"),
    (False, "Leave the appendix out"),
]

#: Said on the reason when a reason is given but no rating is chosen (the derived rating needs none).
RATING_REASON_WITHOUT_OVERRIDE = (
    "A reason for the occupational exposure rating goes with a rating you choose; the rating derived "
    "from the results needs none: choose a rating, or clear the reason."
)
#: What ``RATING_REASON_MISSING`` names as the derived rating when there is none.
NO_DERIVED_RATING = "none, no use computed"


class Assessment(models.Model):
    """One revision of the engineering review of a submission."""

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="assessments")
    revision = models.PositiveIntegerField(default=1)
    engineer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="assessments")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)

    notes = models.TextField("notes and key assumptions", blank=True)
    pollution_prevention = models.TextField("pollution prevention considerations", blank=True)
    occupational_exposure_rating = models.CharField(
        "occupational exposure rating (override)",
        max_length=40, choices=OCCUPATIONAL_EXPOSURE_RATING_CHOICES, blank=True,
        help_text="Empty: the rating derived from the results, as ChemSTEER v3.2 derives it, is printed. "
        "A rating chosen here overrides it in the IRER, with its reason.",
    )
    occupational_exposure_rating_reason = models.TextField(
        "reason for the rating chosen", blank=True,
        help_text="Why the rating chosen differs from the one derived from the results.",
    )
    irer_status = models.CharField(
        "status printed in the IRER", max_length=40, choices=IrerStatus.choices, default=IrerStatus.CEB_STAFF_DRAFT,
        help_text="ChemSTEER's list; printed at the head of the IRER with the assessment date.",
    )
    irer_status_other = models.CharField(
        "other IRER status", max_length=100, blank=True,
        help_text="The status in your words, when the status is \"Other\".",
    )
    assessment_date = models.DateField(
        "assessment date", default=timezone.localdate, validators=[ASSESSMENT_DATE],
        help_text="Printed beside the status at the head of the IRER. A new revision starts with the day it is made.",
    )
    exposure_based_review = models.BooleanField("exposure-based review", default=False)
    irer_note = models.CharField(
        "IRER note on the releases", max_length=20, choices=IrerNote.choices, default=IrerNote.MAY,
        help_text="Whether the daily releases of the sources may coincide, as ChemSTEER's IRER says it.",
    )
    irer_appendix = models.BooleanField(
        null=True, blank=True, choices=IRER_APPENDIX_CHOICES, verbose_name="calculation appendix in the IRER",
        help_text="Printed after the report: the releases as computed, the inputs used and the calculation trace.",
    )
    irer_combine_releases = models.BooleanField(
        "same-medium releases combined in the IRER", default=False,
        help_text="Prints the releases to one medium stacked in one block, as ChemSTEER's IrerComb does, "
        "instead of one block each.",
    )
    irer_sensitivity = models.BooleanField(
        "sensitivity appendix in the IRER", default=False,
        help_text="Prints, for each use, how far each input's documented range moves each release and exposure, "
        "and how the overridden inputs move them from the document's default case.",
    )
    irer_departures = models.BooleanField(
        "print the defaults against the case (appendix)", default=False,
        help_text="Prints, for each use, each input where the case departs from the document's default (its "
        "source and reason) and what that departure alone does to each release and exposure.",
    )
    chemsteer_v32 = models.BooleanField(
        "ChemSTEER v3.2 column", default=False,
        help_text="Shows on each use's results page, beside the engine's figures, the figures computed with "
        "ChemSTEER v3.2's own defaults where this engine deliberately differs, each difference cited. "
        "Never printed in the IRER.",
    )
    volume_excess_reason = models.TextField(
        "reason the uses exceed the production volume",
        blank=True,
        help_text="Given at submission when the uses together need more than the case's production volume.",
    )
    case_snapshot = models.JSONField(
        "case data as approved", null=True, blank=True, editable=False,
        help_text="The case's data (header items and CBI claims) when this revision was approved; "
        "its IRER prints these, whatever the case says now.",
    )

    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text="Counts the saves of this row: an edit form carries the version it showed."
    )

    history = HistoricalRecords()

    #: The reviewer's choices for this revision's IRER, in the order the notes page asks for
    #: them: the one list the notes form, the admin, ``services.assessment_update_notes``,
    #: the comparison of revisions and the new revision's copy (``workflow.assessment_revise``)
    #: read. A choice added here reaches all of them.
    IRER_CHOICE_FIELDS = (
        "assessment_date", "irer_status", "irer_status_other", "notes", "pollution_prevention",
        "occupational_exposure_rating", "occupational_exposure_rating_reason", "exposure_based_review",
        "irer_note", "irer_appendix", "irer_combine_releases", "irer_sensitivity", "irer_departures",
    )
    #: Of those, what a new revision starts afresh instead of copying: its date is the day it is made.
    IRER_CHOICES_NOT_COPIED = ("assessment_date",)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("review_assessment", "Can approve or return submitted assessments")]
        constraints = [
            models.UniqueConstraint(fields=["submission", "revision"], name="assessment_one_revision_number"),
            models.CheckConstraint(condition=Q(revision__gte=1), name="assessment_revision_positive"),
            models.CheckConstraint(condition=Q(status__in=Status.values), name="assessment_status_valid"),
            models.CheckConstraint(
                condition=Q(occupational_exposure_rating__in=["", *OCCUPATIONAL_EXPOSURE_RATINGS]),
                name="assessment_occupational_exposure_rating_valid",
            ),
            models.CheckConstraint(condition=Q(irer_status__in=IrerStatus.values), name="assessment_irer_status_valid"),
            models.CheckConstraint(
                condition=(Q(irer_status=IrerStatus.OTHER) & ~Q(irer_status_other=""))
                | (~Q(irer_status=IrerStatus.OTHER) & Q(irer_status_other="")),
                name="assessment_irer_status_other_text",
            ),
            models.CheckConstraint(
                condition=~Q(status=Status.APPROVED) | (Q(approved_by__isnull=False) & Q(approved_at__isnull=False)),
                name="assessment_approved_has_approver",
            ),
        ]
        indexes = [
            models.Index(fields=["status"]),
            # "My work": an engineer's revisions returned to them, last changed first (migration 0024).
            models.Index(fields=["engineer", "-updated_at", "-id"], condition=Q(status=Status.RETURNED),
                         name="assessment_returned_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.submission.case_number} r{self.revision}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        _count_save(self)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The rules of the reviewer's IRER choices, for every way in (the notes page, the
        admin, the import, each through ``full_clean``), each an error on the field to correct:

        - a rating chosen other than the one derived from the results (an override) needs its
          reason (:data:`RATING_REASON_MISSING`), and a reason needs a rating chosen
          (:data:`RATING_REASON_WITHOUT_OVERRIDE`); a rating chosen that is the derived one
          needs none. The derived rating is read for a saved revision only: an unsaved one has
          no uses, so any rating chosen on it is an override;
        - the status "Other" needs its words (:data:`IRER_STATUS_OTHER_MISSING`) and the words
          go only with "Other" (:data:`IRER_STATUS_OTHER_NOT_OTHER`), as the check constraint
          ``assessment_irer_status_other_text`` says; ``full_clean`` then leaves the constraint
          out, its field having an error already, so the rule is said once."""
        super().clean()
        errors: dict[str, str] = {}
        rating, reason = self.occupational_exposure_rating, (self.occupational_exposure_rating_reason or "").strip()
        if rating and not reason:
            derived = self.derived_rating()
            if rating != derived:
                errors["occupational_exposure_rating_reason"] = RATING_REASON_MISSING.format(
                    derived=derived or NO_DERIVED_RATING
                )
        elif reason and not rating:
            errors["occupational_exposure_rating_reason"] = RATING_REASON_WITHOUT_OVERRIDE
        if self.irer_status == IrerStatus.OTHER and not (self.irer_status_other or "").strip():
            errors["irer_status_other"] = IRER_STATUS_OTHER_MISSING
        elif self.irer_status != IrerStatus.OTHER and self.irer_status_other:
            errors["irer_status_other"] = IRER_STATUS_OTHER_NOT_OTHER
        if errors:
            raise ValidationError(errors)

    def derived_rating(self) -> str:
        """The occupational exposure rating derived from this revision's results
        (``exposure_rating.assessment_rating``); blank for an unsaved revision, or when
        none is derived."""
        if not is_saved(self):
            return ""
        return assessment_rating(assessment=self).rating

    @property
    def irer_status_label(self) -> str:
        """The IRER status as ChemSTEER shows it: its list's wording, or "Other: " and the
        reviewer's words (ChemSTEER v3.2, ``DBFuncs``: ``"Other: " + StatusOther``)."""
        if self.irer_status == IrerStatus.OTHER:
            return f"Other: {self.irer_status_other}"
        return self.irer_status

    @property
    def case_data(self) -> Submission:
        """The case as this revision's report prints it: for an approved revision the case
        as it was approved (:func:`case_from_snapshot`), otherwise the case as it is now."""
        if self.status != Status.APPROVED or not self.case_snapshot:
            return self.submission
        return case_from_snapshot(self.submission, self.case_snapshot)


def as_printed(assessment: Assessment) -> Assessment:
    """``assessment`` with the case as its report prints it (:attr:`Assessment.case_data`):
    an approved revision reads the case as it was approved (header, figures, production
    volume, CBI claims) wherever its report, or a check of it, reads ``.submission``. A
    copy; the caller's instance is left as it is."""
    case = assessment.case_data
    if case is assessment.submission:
        return assessment
    printed = copy.copy(assessment)
    printed.submission = case
    return printed


#: The copies on the cases (``Submission.DERIVED_FIELDS``) were written in one UPDATE, which
#: sends no model signal. Keyword arguments: ``submission_ids`` (None: every case) and
#: ``what``: :data:`LATEST_COPIED` (by :func:`refresh_latest_assessment`, which bulk loads call
#: after writing revisions and uses without ``save()``) or :data:`DUE_COPIED` (by the review
#: calendar's ``refresh_case_due``). The portfolio's ledger follows them (``portfolio.receivers``).
case_rows_refreshed = Signal()
LATEST_COPIED, DUE_COPIED = "latest", "due"


def refresh_latest_assessment(*, submission_ids: Iterable[int] | None = None) -> None:
    """Copy each case's latest assessment (its highest revision: status, revision number,
    engineer) onto the case (``Submission.LATEST_FIELDS``); ``NO_ASSESSMENT`` and nulls
    for a case without one. ``submission_ids=None`` refreshes every case.

    The one writer of those fields, called wherever an assessment is started, copied into a
    new revision, changes status, is deleted or is loaded (``services.assessment_start``,
    ``workflow``, ``transfer``, ``load_demo``, the admin's deletions, ``benchmarks/seed.py``).
    One UPDATE that reads the assessments in the same statement, so the copy is right
    whatever the caller's instance of the case holds. ``QuerySet.update()`` writes no
    history record: these fields are derived, like ``is_cbi``, and left out of the case's
    history. Approved work is not touched: only the case's row is written.
    """
    ids = None if submission_ids is None else list(submission_ids)
    latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
    cases = Submission.objects.all()
    if ids is not None:
        cases = cases.filter(pk__in=ids)
    cases.update(
        latest_status=Coalesce(Subquery(latest.values("status")[:1]), Value(NO_ASSESSMENT)),
        latest_revision=Subquery(latest.values("revision")[:1]),
        latest_engineer=Subquery(latest.values("engineer")[:1]),
    )
    case_rows_refreshed.send(sender=Submission, submission_ids=ids, what=LATEST_COPIED)


class ReviewDecision(models.Model):
    """A status change of an assessment: who, when, what, and the comment given."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="decisions")
    action = models.CharField(max_length=10, choices=DecisionAction.choices)
    from_status = models.CharField(max_length=10, choices=Status.choices)
    to_status = models.CharField(max_length=10, choices=Status.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="review_decisions")
    at = models.DateTimeField(auto_now_add=True)
    comment = models.TextField(blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(action__in=DecisionAction.values), name="decision_action_valid"),
            models.CheckConstraint(condition=~Q(from_status=models.F("to_status")), name="decision_changes_status"),
        ]

    def __str__(self) -> str:
        return f"{self.assessment} {self.action} by {self.by} at {self.at:%Y-%m-%d %H:%M}"
