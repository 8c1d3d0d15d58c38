"""Contact reports: the record of each contact with the submitter (ChemSTEER's "Contact
Report"): when, who called whom (or met, or wrote), the phone number, whether the contact
is confidential business information (CBI), what was said, and which assessments
(revisions) of the case it applies to.

Validation lives here, once: :meth:`ContactReport.clean` (no NUL character, the length of
each text, a contact time from :data:`EARLIEST_CONTACT_DATE` up to now and
:data:`FUTURE_TOLERANCE`) and :meth:`ContactReportAssessment.clean` (the revision belongs
to the report's case). The pages, the admin and the import all call ``full_clean()``.

Approved work is final (``assessments.models``): a contact report that applies to an
approved revision is printed with that revision's report, so it is locked as the revision
is. Saving or deleting such a report, and adding or removing a link to an approved
revision, raises ``assessments.models.ApprovedWorkLocked`` whoever calls it (``save()``,
a raw save, ``delete()``, ``QuerySet.delete()``, a cascade, the many-to-many manager's
``add``/``set``/``remove``/``clear``); see :func:`_refuse_locked_save` and the receivers
below. Bulk writes that send no signal (``QuerySet.update()``, ``bulk_create``) are not
covered here: nothing in the application uses them on these tables, and on PostgreSQL the
database's triggers refuse them with the same rule (migration ``0002``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from datetime import datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.signals import m2m_changed, pre_delete, pre_save
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from assessments.limits import text_error
from assessments.models import ApprovedWorkLocked, Assessment, Status, Submission
from assessments.models.case_fields import EARLIEST_DATE


class Direction(models.TextChoices):
    """How the contact was made, in ChemSTEER's words."""

    CALLED_TO = "called_to", "Called to (EPA called the submitter)"
    CALLED_BY = "called_by", "Called by (the submitter called EPA)"
    MEETING = "meeting", "Meeting"
    EMAIL = "email", "Email"


#: The range of a contact's date and time (:func:`contact_time_error`), from midnight of
#: :data:`EARLIEST_CONTACT_DATE` in the application's time zone (US Eastern, as the time is
#: typed) up to now plus :data:`FUTURE_TOLERANCE`.
#:
#: The earliest: the review's one earliest date (``case_fields.EARLIEST_DATE``, TSCA's
#: effective date); an earlier year is a typing error (``0226`` for ``2026``).
EARLIEST_CONTACT_DATE = EARLIEST_DATE
#: How far in the future a contact time may be: a clock a few minutes fast, a contact
#: recorded as it ends. Anything later is a typing error (a wrong year or month) or a contact
#: that has not happened yet.
FUTURE_TOLERANCE = timedelta(minutes=10)
#: Characters in the notes of one contact: several pages of the printed report.
NOTES_LIMIT = 10_000
#: A phone number as people write it: digits, spaces, ``+ ( ) - . /``, and an extension
#: (``ext. 123``, ``x123``).
PHONE_PATTERN = re.compile(r"^\+?[0-9 ().\-/]*[0-9][0-9 ().\-/]*(?:\s*(?:ext\.?|x)\s*[0-9]+)?$", re.IGNORECASE)

CONTACT_IN_FUTURE = (
    "The contact time {when} is in the future: give the date and time the contact took place, "
    "from {earliest} up to now ({now})."
)
CONTACT_TOO_EARLY = (
    "The contact time {when} is before {earliest}, when TSCA took effect: check the year "
    "(a contact time runs from {earliest} up to now)."
)
PHONE_INVALID = "Enter a phone number of digits, spaces and + ( ) - . /, with an extension as “ext. 123” if needed."
NAME_REQUIRED = "Give the name of {who}."
NOTES_REQUIRED = "Write what was discussed."
ASSESSMENT_OTHER_CASE = "Revision {revision} of case {case_number} is not an assessment of this case ({this_case})."
CONTACT_LOCKED = (
    "This contact report applies to approved revision {revisions} and is final, as the approved revision is: "
    "it cannot be changed or deleted. Record a new contact instead."
)
LINK_TO_APPROVED = (
    "Revision {revision} is approved and final: a contact report cannot be added to it or taken off it. "
    "Link the contact to the case's current revision instead."
)


class ContactReport(models.Model):
    """One contact with the submitter about a case."""

    submission = models.ForeignKey(
        Submission, verbose_name="case", on_delete=models.PROTECT, related_name="contact_reports"
    )
    assessments = models.ManyToManyField(
        Assessment, through="ContactReportAssessment", related_name="contact_reports", blank=True,
        verbose_name="applies to revisions",
        help_text="The assessments (revisions) of the case this contact applies to; none for the case as a whole.",
    )
    contacted_at = models.DateTimeField("date and time of the contact")
    direction = models.CharField("type of contact", max_length=12, choices=Direction.choices)
    epa_name = models.CharField("EPA person", max_length=200, help_text="Who at EPA called, was called, met or wrote.")
    epa_affiliation = models.CharField(
        "EPA person's affiliation", max_length=200, blank=True, help_text="e.g. OPPT/CCD/Engineering Branch."
    )
    submitter_name = models.CharField(
        "submitter's contact", max_length=200, help_text="The person on the submitter's side."
    )
    submitter_affiliation = models.CharField(
        "submitter's contact's affiliation", max_length=200, blank=True,
        help_text="The company or consultant the contact works for.",
    )
    phone = models.CharField("phone number", max_length=40, blank=True)
    is_cbi = models.BooleanField(
        "CBI contact", default=False,
        help_text="The contact itself is confidential business information: only users cleared for CBI see it, "
        "and the sanitised report prints [CBI] in its place.",
    )
    notes = models.TextField("notes", help_text="What was asked, answered and agreed.")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="recorded by", on_delete=models.PROTECT, related_name="+",
        null=True, blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text="Counts the saves of this row: an edit form carries the version it showed."
    )

    history = HistoricalRecords()
    #: Who makes the next save or deletion, for its history record: django-simple-history
    #: reads it from the instance; the services set it.
    _history_user: User

    # The one-line and multi-line texts and their limits (the one-line ones are max_length).
    ONE_LINE = ("epa_name", "epa_affiliation", "submitter_name", "submitter_affiliation", "phone")
    TEXT_FIELDS = (*ONE_LINE, "notes")

    class Meta:
        ordering = ["contacted_at", "id"]
        indexes = [models.Index(fields=["submission", "contacted_at"], name="contact_case_by_time")]
        constraints = [
            models.CheckConstraint(condition=Q(direction__in=Direction.values), name="contact_direction_valid"),
            models.CheckConstraint(condition=~Q(epa_name=""), name="contact_epa_name_not_blank"),
            models.CheckConstraint(condition=~Q(submitter_name=""), name="contact_submitter_name_not_blank"),
            models.CheckConstraint(condition=~Q(notes=""), name="contact_notes_not_blank"),
        ]

    def __str__(self) -> str:
        when = timezone.localtime(self.contacted_at) if self.contacted_at else None
        stamp = f"{when:%Y-%m-%d %H:%M}" if when else "(no time)"
        return f"Contact {stamp} with {self.submitter_name}"

    def get_absolute_url(self) -> str:
        return reverse("contact-detail", args=[self.pk])

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        # Surrounding blanks are not part of a name; a name of blanks only is no name.
        for name in self.TEXT_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                setattr(self, name, value.strip() if name in self.ONE_LINE else value.rstrip())
        super().clean_fields(exclude)

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        for name in self.TEXT_FIELDS:
            value = getattr(self, name) or ""
            field = report_field(name)
            limit = NOTES_LIMIT if name == "notes" else field.max_length
            assert limit is not None, f"{name} is a CharField: its max_length is its limit"
            message = text_error(value, label=str(field.verbose_name).capitalize(), limit=limit)
            if message:
                errors[name] = message
        if "epa_name" not in errors and not self.epa_name:
            errors["epa_name"] = NAME_REQUIRED.format(who="the EPA person")
        if "submitter_name" not in errors and not self.submitter_name:
            errors["submitter_name"] = NAME_REQUIRED.format(who="the submitter's contact")
        if "notes" not in errors and not self.notes.strip():
            errors["notes"] = NOTES_REQUIRED
        if "phone" not in errors and self.phone and not PHONE_PATTERN.match(self.phone):
            errors["phone"] = PHONE_INVALID
        message = contact_time_error(self.contacted_at)
        if message:
            errors["contacted_at"] = message
        if errors:
            raise ValidationError(errors)

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            self.version += 1
        super().save(*args, **kwargs)

    def approved_revisions(self) -> list[int]:
        """The revision numbers of the approved assessments this report applies to, as stored."""
        return _stored_lock(self.pk)

    @property
    def is_locked(self) -> bool:
        return bool(self.approved_revisions())


def report_field(name: str) -> models.Field[Any, Any]:
    """The contact report's own field ``name`` (a column or the revisions, never a relation
    from another model)."""
    field = ContactReport._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise LookupError(f"{name} is a relation from another model, not a field of a contact report")
    return field


def contact_time_error(value: datetime | None, *, now: datetime | None = None) -> str:
    """What is wrong with ``value`` as a contact time (``""``: nothing): outside the range
    from :data:`EARLIEST_CONTACT_DATE` (local midnight) up to ``now`` and
    :data:`FUTURE_TOLERANCE`.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)
    >>> contact_time_error(datetime(2026, 3, 2, 9, 30, tzinfo=timezone.utc), now=now)
    ''
    >>> contact_time_error(datetime(2026, 3, 2, 12, 5, tzinfo=timezone.utc), now=now)  # within the tolerance
    ''
    >>> contact_time_error(datetime(2026, 3, 3, 9, 30, tzinfo=timezone.utc), now=now)
    'The contact time 2026-03-03 04:30 EST is in the future: give the date and time the contact took place, from 1977-01-01 up to now (2026-03-02 07:00 EST).'
    >>> contact_time_error(datetime(1977, 1, 1, 4, 59, tzinfo=timezone.utc), now=now)  # 23:59 EST the day before
    'The contact time 1976-12-31 23:59 EST is before 1977-01-01, when TSCA took effect: check the year (a contact time runs from 1977-01-01 up to now).'
    >>> contact_time_error(datetime(1, 1, 1, tzinfo=timezone.utc), now=now)[:40]
    'The contact time 0001-01-01 00:00 UTC is'
    """
    if value is None:
        return ""  # the field's own "This field is required."
    now = now or timezone.now()
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    earliest = timezone.make_aware(datetime.combine(EARLIEST_CONTACT_DATE, time.min))
    if value > now + FUTURE_TOLERANCE:
        return CONTACT_IN_FUTURE.format(when=shown_time(value), earliest=EARLIEST_CONTACT_DATE, now=shown_time(now))
    if value < earliest:
        return CONTACT_TOO_EARLY.format(when=shown_time(value), earliest=EARLIEST_CONTACT_DATE)
    return ""


def shown_time(value: datetime) -> str:
    """``value`` as messages give it: local date and time with the zone's abbreviation (which
    tells the two 01:30s of the night the clocks go back apart); in its own zone where the
    local one cannot hold it (year 1 in UTC is year 0 in US Eastern).

    >>> from datetime import datetime, timezone
    >>> shown_time(datetime(2026, 11, 1, 6, 30, tzinfo=timezone.utc))
    '2026-11-01 01:30 EST'
    """
    try:
        local = timezone.localtime(value)
    except OverflowError:
        local = value
    return f"{local.year:04d}-{local:%m-%d %H:%M} {local.tzname()}"


class ContactReportAssessment(models.Model):
    """That a contact report applies to one assessment (revision) of its case."""

    contact_report = models.ForeignKey(ContactReport, on_delete=models.CASCADE, related_name="links")
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="contact_links")

    history = HistoricalRecords()
    #: As ``ContactReport._history_user``.
    _history_user: User

    class Meta:
        verbose_name = "revision a contact applies to"
        verbose_name_plural = "revisions the contact applies to"
        ordering = ["assessment__revision", "id"]
        constraints = [
            models.UniqueConstraint(fields=["contact_report", "assessment"], name="contact_link_once"),
        ]

    def __str__(self) -> str:
        return f"{self.contact_report} applies to {self.assessment}"

    def clean(self) -> None:
        super().clean()
        message = other_case_error(self.contact_report, self.assessment)
        if message:
            raise ValidationError({"assessment": message})


def other_case_error(report: ContactReport, assessment: Assessment) -> str:
    """The message when ``assessment`` is not of ``report``'s case (``""``: it is)."""
    if assessment.submission_id == report.submission_id:
        return ""
    return ASSESSMENT_OTHER_CASE.format(
        revision=assessment.revision, case_number=assessment.submission.case_number,
        this_case=report.submission.case_number,
    )


# Approved work is final, and a link stays within its case --------------------------------------


def _stored_lock(report_id: int | None) -> list[int]:
    if report_id is None:
        return []
    return sorted(
        ContactReportAssessment.objects.filter(contact_report_id=report_id, assessment__status=Status.APPROVED)
        .values_list("assessment__revision", flat=True)
    )


def _locked(revisions: list[int]) -> ApprovedWorkLocked:
    return ApprovedWorkLocked(CONTACT_LOCKED.format(revisions=", ".join(str(r) for r in revisions)))


def _refuse_locked_save(sender: type[ContactReport], instance: ContactReport, **kwargs: Any) -> None:
    revisions = _stored_lock(instance.pk)
    if revisions:
        raise _locked(revisions)


def _refuse_locked_delete(sender: type[ContactReport], instance: ContactReport, **kwargs: Any) -> None:
    revisions = _stored_lock(instance.pk)
    if revisions:
        raise _locked(revisions)


def _approved(assessment_ids: Iterable[int]) -> Assessment | None:
    return Assessment.objects.filter(pk__in=list(assessment_ids), status=Status.APPROVED).order_by("revision").first()


def _check_link_save(sender: type[ContactReportAssessment], instance: ContactReportAssessment, **kwargs: Any) -> None:
    """A link is added or moved only to an unapproved revision of the report's own case,
    and only on a report that is not locked; the stored rows decide (the instance may be stale)."""
    ids = {instance.assessment_id}
    if instance.pk is not None:
        ids |= set(ContactReportAssessment.objects.filter(pk=instance.pk).values_list("assessment_id", flat=True))
    approved = _approved(ids)
    if approved is not None:
        raise ApprovedWorkLocked(LINK_TO_APPROVED.format(revision=approved.revision))
    revisions = _stored_lock(instance.contact_report_id)
    if revisions:
        raise _locked(revisions)
    same_case = Assessment.objects.filter(
        pk=instance.assessment_id, submission__contact_reports__pk=instance.contact_report_id
    ).exists()
    if not same_case:
        assessment = Assessment.objects.select_related("submission").get(pk=instance.assessment_id)
        report = ContactReport.objects.select_related("submission").get(pk=instance.contact_report_id)
        raise ValidationError({"assessment": other_case_error(report, assessment)})


def _check_link_delete(sender: type[ContactReportAssessment], instance: ContactReportAssessment, **kwargs: Any) -> None:
    stored = ContactReportAssessment.objects.filter(pk=instance.pk).values_list("assessment_id", flat=True)
    approved = _approved(set(stored) | {instance.assessment_id})
    if approved is not None:
        raise ApprovedWorkLocked(LINK_TO_APPROVED.format(revision=approved.revision))


def _check_m2m(
    sender: type[ContactReportAssessment], instance: ContactReport | Assessment, action: str, reverse: bool,
    model: type[ContactReport | Assessment], pk_set: set[int] | None, **kwargs: Any,
) -> None:
    """``report.assessments.add/set/remove/clear`` (and the reverse managers) write the links
    with ``bulk_create`` or a bulk delete: refused here as the link's own save is."""
    if action not in ("pre_add", "pre_remove", "pre_clear"):
        return
    if reverse:  # assessment.contact_reports.<action>(reports)
        assessment_ids = {instance.pk}
        report_ids = set(pk_set or ()) if action != "pre_clear" else set(
            ContactReportAssessment.objects.filter(assessment_id=instance.pk).values_list("contact_report_id", flat=True)
        )
    else:
        report_ids = {instance.pk}
        assessment_ids = set(pk_set or ()) if action != "pre_clear" else set(
            ContactReportAssessment.objects.filter(contact_report_id=instance.pk).values_list("assessment_id", flat=True)
        )
    approved = _approved(assessment_ids)
    if approved is not None:
        raise ApprovedWorkLocked(LINK_TO_APPROVED.format(revision=approved.revision))
    for report_id in report_ids:
        revisions = _stored_lock(report_id)
        if revisions:
            raise _locked(revisions)
    if action == "pre_add":
        cases = set(Submission.objects.filter(
            Q(contact_reports__pk__in=report_ids) | Q(assessments__pk__in=assessment_ids)
        ).values_list("pk", flat=True).distinct())
        if len(cases) > 1:
            raise ValidationError({"assessments": "A contact report applies only to revisions of its own case."})


pre_save.connect(_refuse_locked_save, sender=ContactReport, dispatch_uid="contact_locked_save")
pre_delete.connect(_refuse_locked_delete, sender=ContactReport, dispatch_uid="contact_locked_delete")
pre_save.connect(_check_link_save, sender=ContactReportAssessment, dispatch_uid="contact_link_save")
pre_delete.connect(_check_link_delete, sender=ContactReportAssessment, dispatch_uid="contact_link_delete")
m2m_changed.connect(_check_m2m, sender=ContactReport.assessments.through, dispatch_uid="contact_link_m2m")
