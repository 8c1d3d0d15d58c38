"""A case (Submission): the submitter's notice as the IRER header block presents it, and
the copy of it an approved revision keeps (``Assessment.case_snapshot``).

A case keeps a copy of its latest assessment's status, revision and engineer
(``Submission.LATEST_FIELDS``) for the case list and the review queue;
:func:`~assessments.models.assessments.refresh_latest_assessment` alone writes it. It keeps
its review calendar's due date, stopped clock and assigned engineer too
(``Submission.CALENDAR_FIELDS``), written by the calendar app alone.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from simple_history.models import HistoricalRecords

from .case_fields import (
    CASE_NUMBER_FORMAT,
    CASE_NUMBER_INVALID,
    CASE_NUMBER_TAKEN,
    GROUNDWATER_MIGRATION_CHOICES,
    GROUNDWATER_OTHER_MISSING,
    GROUNDWATER_OTHER_NOT_OTHER,
    MOLECULAR_WEIGHT,
    PBT_CHOICES,
    PBT_SCORES,
    PCT_500_ABOVE_PCT_1000,
    PCT_BELOW_500_DA,
    PCT_BELOW_1000_DA,
    PRODUCTION_VOLUME,
    TLV_PEL_KIND_INVALID,
    TLV_PEL_VALUE,
    TLV_PEL_VALUE_NOT_POSITIVE,
    USE_CONCENTRATION,
    VAPOUR_PRESSURE,
    VAPOUR_PRESSURE_TEMPERATURE,
    WATER_SOLUBILITY,
    WATER_SOLUBILITY_TEMPERATURE,
    CaseType,
    ExposureLimitKind,
    ExposureLimitUnit,
    GroundwaterMigration,
    PhysicalState,
    VolumeQualifier,
    case_number_error,
    normalise_case_number,
    pbt_rating_text,
    tlv_pel_errors,
)
from .status import LATEST_STATUS_CHOICES, NO_ASSESSMENT, ApprovedWorkLocked, Status

if TYPE_CHECKING:  # the assessment reads the case: imported for the type only
    from .assessments import Assessment

#: Said, at the save, to a user who gives a case the number of a case they may not see (a
#: CBI case, for a user not cleared for CBI; ``case_numbers.hidden_case``): unlike
#: ``CASE_NUMBER_TAKEN`` it names no case, so it confirms none exists.
CASE_NUMBER_REFUSED = "This case number cannot be used; ask a supervisor."


class Submission(models.Model):
    """A case: the submitter's notice, as the IRER header block presents it."""

    # Fields a submitter may claim as confidential business information (CBI).
    CBI_CLAIMABLE = (
        "submitter",
        "chemical_name",
        "cas_number",
        "production_volume_kg_yr",
        "molecular_weight",
        "use_description",
        "other_uses",
        "use_concentration",
        "consumer_use",
    )

    case_number = models.CharField(
        max_length=40, unique=True, validators=[CASE_NUMBER_FORMAT],
        help_text="EPA case number, e.g. P-18-0123 (L- for an LVE, X- a LoREX, SN- a SNUN, T- a TMEA).",
    )
    case_type = models.CharField(max_length=8, choices=CaseType.choices, default=CaseType.PMN)
    case_name = models.CharField(
        max_length=200, blank=True, help_text="Short title printed on the report, e.g. 'Example Photoresist Use IRER'."
    )
    submitter = models.CharField(max_length=200)

    # Chemical identity
    chemical_name = models.CharField("specific chemical name", max_length=500)
    generic_name = models.CharField(
        max_length=500, help_text="Name printed in place of the specific name where that is claimed CBI."
    )
    cas_number = models.CharField("CAS number", max_length=20, blank=True)

    # Volume
    production_volume_kg_yr = models.FloatField(
        "production volume (kg/yr)", help_text="Maximum annual production or import volume.",
        validators=[PRODUCTION_VOLUME],
    )
    volume_qualifier = models.CharField(
        "production volume is for", max_length=24, choices=VolumeQualifier.choices,
        default=VolumeQualifier.MANUFACTURE,
        help_text="Printed after the production volume: Manufacture, Import Only, or Manufacturing and Import.",
    )

    # Physical-chemical properties (CRSS)
    molecular_weight = models.FloatField("molecular weight (g/mol)", null=True, blank=True,
                                         validators=[MOLECULAR_WEIGHT])
    vapour_pressure_torr = models.FloatField("vapour pressure (torr)", null=True, blank=True,
                                             validators=[VAPOUR_PRESSURE])
    vapour_pressure_temp_c = models.FloatField("vapour pressure temperature (°C)", null=True, blank=True,
                                               validators=[VAPOUR_PRESSURE_TEMPERATURE])
    water_solubility_g_l = models.FloatField("water solubility (g/L)", null=True, blank=True,
                                             validators=[WATER_SOLUBILITY])
    water_solubility_temp_c = models.FloatField("water solubility temperature (°C)", null=True, blank=True,
                                                validators=[WATER_SOLUBILITY_TEMPERATURE])
    physical_state = models.CharField(max_length=10, choices=PhysicalState.choices, default=PhysicalState.UNKNOWN)
    pct_below_500_da = models.FloatField("% < 500 Da", null=True, blank=True, help_text="Polymers: percent by weight.",
                                         validators=[PCT_BELOW_500_DA])
    pct_below_1000_da = models.FloatField("% < 1000 Da", null=True, blank=True, help_text="Polymers: percent by weight.",
                                          validators=[PCT_BELOW_1000_DA])

    # Hazard communication
    tlv_pel_value = models.FloatField(
        "TLV/PEL value", null=True, blank=True,
        help_text="The occupational exposure limit as a number; give its unit and kind beside it.",
    )
    tlv_pel_unit = models.CharField(
        "TLV/PEL unit", max_length=8, choices=ExposureLimitUnit.choices, blank=True,
        help_text="mg/m³ or ppm. Airborne concentrations above the limit are flagged on the results and the report.",
    )
    tlv_pel_kind = models.CharField(
        "TLV/PEL kind", max_length=12, choices=ExposureLimitKind.choices, default=ExposureLimitKind.TWA_8H,
        error_messages={"invalid_choice": TLV_PEL_KIND_INVALID},
        help_text="What the limit limits: the 8-hour TWA (compared with each inhalation estimate's 8-hour TWA), "
                  "a 15-minute STEL (with the highest 15-minute average of the task) or a ceiling (with the "
                  "concentration during the task).",
    )
    tlv_pel = models.CharField(
        "TLV/PEL note", max_length=200, blank=True,
        help_text="Which limit and whose (e.g. ACGIH TLV 2024, OSHA PEL), or 'none established'.",
    )
    msds = models.BooleanField("MSDS provided", default=False)
    label = models.BooleanField("label provided", default=False)

    # Uses
    use_description = models.TextField(
        "use", help_text="The use as the submitter describes it, printed under USE on the report."
    )
    use_concentration = models.FloatField(
        "concentration in the use formulation (fraction)",
        null=True,
        blank=True,
        help_text="Mass fraction of the chemical in the formulation, 0 to 1 (e.g. 0.15 for 15 %).",
        validators=[USE_CONCENTRATION],
    )
    other_uses = models.TextField(blank=True)
    consumer_use = models.TextField(blank=True)

    # Structure-activity team (SAT) and PBT notes
    groundwater_migration = models.CharField(
        "migration to groundwater", max_length=20, choices=GROUNDWATER_MIGRATION_CHOICES, blank=True,
    )
    groundwater_migration_other = models.CharField(
        "other migration to groundwater", max_length=200, blank=True,
        help_text="Only with \"Other (please specify)\": the migration to groundwater in words.",
    )
    pbt_persistence = models.CharField(
        "PBT rating: P (persistence)", max_length=3, choices=PBT_CHOICES, blank=True,
        help_text="Printed with B and T as ChemSTEER prints them, e.g. P2B1T.",
    )
    pbt_bioaccumulation = models.CharField(
        "PBT rating: B (bioaccumulation)", max_length=3, choices=PBT_CHOICES, blank=True
    )
    pbt_toxicity = models.CharField("PBT rating: T (toxicity)", max_length=3, choices=PBT_CHOICES, blank=True)
    pbt_note = models.CharField(
        "PBT note", max_length=200, blank=True,
        help_text="Printed after the PBT rating. Holds a rating typed before P, B and T were choices.",
    )
    sat_health = models.TextField("SAT health concerns", blank=True)
    sat_eco = models.TextField("SAT eco concerns", blank=True)

    # Confidential business information: the names of the claimed fields.
    cbi_claims = models.JSONField(
        "CBI claims", default=list, blank=True, help_text="Names of the fields the submitter claims as CBI."
    )
    is_cbi = models.BooleanField(
        "CBI case", default=False, editable=False, help_text="True when any field is claimed CBI."
    )

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text="Counts the saves of this row: an edit form carries the version it showed."
    )

    # The latest assessment (highest revision), copied here so that the case list, its
    # status filter and the review queue's count read one indexed row per case instead of
    # a subquery over the assessments per case. Written only by refresh_latest_assessment;
    # no edit form shows them and Submission.save() leaves them as stored.
    latest_status = models.CharField(
        "status of the latest assessment", max_length=10, choices=LATEST_STATUS_CHOICES,
        default=NO_ASSESSMENT, editable=False,
    )
    latest_revision = models.PositiveIntegerField("latest revision", null=True, blank=True, editable=False)
    latest_engineer = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="engineer of the latest assessment", on_delete=models.SET_NULL,
        related_name="+", null=True, blank=True, editable=False,
    )
    LATEST_FIELDS = ("latest_status", "latest_revision", "latest_engineer")

    # The case's review calendar, copied here so that the case list's due filters, the
    # due-date list, the review queue and "My work" read the case's own indexed row (and
    # this app reads no table of the calendar app, which builds on it). Written only by
    # ``calendar_review.services.refresh_case_due`` (when the case is entered and whenever
    # its calendar is written); left out of the case's history, like the copy above.
    due_on = models.DateField(
        "due", null=True, editable=False,
        help_text="The calendar's due date (without an open suspension), else the default one.",
    )
    clock_stopped_on = models.DateField("clock stopped since", null=True, editable=False)
    calendar_recorded = models.BooleanField("review calendar recorded", default=False, editable=False)
    assigned_engineer = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="assigned engineer", on_delete=models.SET_NULL,
        related_name="+", null=True, blank=True, editable=False,
    )
    CALENDAR_FIELDS = ("due_on", "clock_stopped_on", "calendar_recorded", "assigned_engineer")
    DERIVED_FIELDS = (*LATEST_FIELDS, *CALENDAR_FIELDS)

    # The fields the case list's text search looks in (selectors.submission_search). On
    # PostgreSQL each has a trigram index on UPPER(field), the expression ``icontains``
    # compiles to (migration 0007; not declared in Meta.indexes, which SQLite would refuse).
    SEARCHED_FIELDS = ("case_number", "chemical_name", "generic_name", "submitter", "case_name")

    # The change reason is text, not simple-history's 100 characters: an amendment's reason
    # (services.submission_update) is the engineer's own words.
    history = HistoricalRecords(
        excluded_fields=list(DERIVED_FIELDS), history_change_reason_field=models.TextField(null=True)
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("view_cbi", "Cleared for confidential business information (CBI)")]
        # The case list's order: each page is read from the first index (forwards from a
        # case's place for older cases, backwards for newer ones and the oldest page), and
        # a status-filtered page from the second, instead of sorting every case
        # (selectors.case_page; benchmarks/pages.py; README "Performance"). The third holds
        # what the review queue's count reads, so it counts index entries, not table rows
        # (review.review_queue_count). The fourth holds the open cases (not approved), the
        # ones a due date binds: the due-date list, the due filters and "My work" read the
        # team's open work from it, not every case ever received (migration 0024). The case
        # numbers' prefix index (1-2 character searches) is PostgreSQL's only (0024).
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="submission_newest_first"),
            models.Index(fields=["latest_status", "-created_at", "-id"], name="submission_status_newest_first"),
            models.Index(
                fields=["latest_engineer", "is_cbi"], condition=Q(latest_status=Status.SUBMITTED),
                name="submission_awaiting_review",
            ),
            models.Index(
                fields=["-created_at", "-id"], condition=~Q(latest_status=Status.APPROVED),
                name="submission_open_newest_first",
            ),
            # The calendar's copy (migration 0025): the open cases whose clock runs, soonest
            # due first (the due-date list, the team's urgent cases, the due filters); each
            # engineer's open cases soonest due first ("My work": the assigned engineer, else
            # the latest revision's, ``due_dates.RESPONSIBLE``); the cases awaiting review,
            # soonest due first (the review queue's pages).
            models.Index(
                fields=["due_on", "id"], condition=~Q(latest_status=Status.APPROVED) & Q(clock_stopped_on__isnull=True),
                name="submission_open_due_first",
            ),
            models.Index(
                Coalesce("assigned_engineer", "latest_engineer"), "due_on", F("created_at").desc(), F("id").desc(),
                condition=~Q(latest_status=Status.APPROVED), name="submission_engineer_due_first",
            ),
            models.Index(
                fields=["due_on", "id"], condition=Q(latest_status=Status.SUBMITTED), name="submission_review_due_first",
            ),
            # The few open cases whose clock is stopped, newest first (the "Clock stopped" filter).
            models.Index(
                fields=["-created_at", "-id"],
                condition=~Q(latest_status=Status.APPROVED) & Q(clock_stopped_on__isnull=False),
                name="submission_clock_stopped",
            ),
        ]
        constraints = [
            # The number fields' ranges, from the validators' declarations (case_fields).
            *(
                models.CheckConstraint(condition=rule.condition(field, null=null), name=name)
                for name, field, rule, null in (
                    ("submission_pv_positive", "production_volume_kg_yr", PRODUCTION_VOLUME, False),
                    ("submission_mw_positive", "molecular_weight", MOLECULAR_WEIGHT, True),
                    ("submission_vp_not_negative", "vapour_pressure_torr", VAPOUR_PRESSURE, True),
                    ("submission_solubility_not_negative", "water_solubility_g_l", WATER_SOLUBILITY, True),
                    ("submission_pct_500_within_0_100", "pct_below_500_da", PCT_BELOW_500_DA, True),
                    ("submission_pct_1000_within_0_100", "pct_below_1000_da", PCT_BELOW_1000_DA, True),
                    ("submission_concentration_fraction", "use_concentration", USE_CONCENTRATION, True),
                )
            ),
            models.CheckConstraint(
                condition=Q(pct_below_500_da__isnull=True)
                | Q(pct_below_1000_da__isnull=True)
                | Q(pct_below_500_da__lte=models.F("pct_below_1000_da")),
                name="submission_pct_500_not_above_pct_1000",
                violation_error_message=PCT_500_ABOVE_PCT_1000,
            ),
            # NaN and infinity are refused too: on PostgreSQL NaN compares above every number.
            models.CheckConstraint(
                condition=TLV_PEL_VALUE.condition("tlv_pel_value", null=True),
                name="submission_tlv_pel_value_positive_finite",
                violation_error_message=TLV_PEL_VALUE_NOT_POSITIVE,
            ),
            models.CheckConstraint(
                condition=(Q(tlv_pel_value__isnull=True) & Q(tlv_pel_unit=""))
                | (Q(tlv_pel_value__isnull=False) & Q(tlv_pel_unit__in=ExposureLimitUnit.values)),
                name="submission_tlv_pel_value_with_unit",
                violation_error_message="The TLV/PEL needs both a value and its unit (mg/m³ or ppm), or neither.",
            ),
            models.CheckConstraint(
                condition=Q(tlv_pel_kind__in=ExposureLimitKind.values), name="submission_tlv_pel_kind_valid",
                violation_error_message=TLV_PEL_KIND_INVALID,
            ),
            models.CheckConstraint(condition=~Q(case_number=""), name="submission_case_number_not_blank"),
            models.CheckConstraint(
                condition=Q(case_type__in=CaseType.values), name="submission_case_type_valid"
            ),
            models.CheckConstraint(
                condition=Q(physical_state__in=PhysicalState.values), name="submission_physical_state_valid"
            ),
            models.CheckConstraint(
                condition=Q(volume_qualifier__in=VolumeQualifier.values), name="submission_volume_qualifier_valid"
            ),
            models.CheckConstraint(
                condition=Q(groundwater_migration__in=["", *GroundwaterMigration.values]),
                name="submission_groundwater_migration_valid",
            ),
            models.CheckConstraint(
                condition=Q(pbt_persistence__in=["", *PBT_SCORES])
                & Q(pbt_bioaccumulation__in=["", *PBT_SCORES])
                & Q(pbt_toxicity__in=["", *PBT_SCORES]),
                name="submission_pbt_scores_valid",
            ),
            models.CheckConstraint(
                condition=Q(latest_status__in=[value for value, _ in LATEST_STATUS_CHOICES]),
                name="submission_latest_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.case_number} {self.generic_name}"

    def get_absolute_url(self) -> str:
        return reverse("submission-detail", args=[self.pk])

    #: The number and type the row was read with (:meth:`from_db`); none for a case not read.
    _stored_number: tuple[str | None, str | None] = (None, None)
    #: An approved revision's copy of the case (:func:`case_from_snapshot`): never saved.
    _as_approved: bool = False

    @classmethod
    def from_db(cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any) -> Self:
        # ``kwargs``: what a later Django passes (6.0's ``fetch_mode``), passed on.
        case = super().from_db(db, field_names, values, **kwargs)
        # The number and type as stored, for _number_as_stored.
        case._stored_number = (case.__dict__.get("case_number"), case.__dict__.get("case_type"))
        return case

    def _number_as_stored(self) -> bool:
        """Whether the number (and the type) are those the row was read with. A number
        stored before the case types' patterns were checked (CaseNumberFormat), or a type
        changed by a bulk load, is kept as it is, so such a case stays editable; a changed
        number, or a changed type, is checked."""
        stored, stored_type = getattr(self, "_stored_number", (None, None))
        if stored is None or stored_type != self.case_type:
            return False
        return self.case_number in (stored, normalise_case_number(stored))

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        stored = self._stored_number[0]
        if stored is not None and self._number_as_stored():  # never as stored when none was read
            self.case_number = stored
            exclude = {*(exclude or ()), "case_number"}
        else:
            # Normalised before the length check: "ß".upper() is "SS", so upper-casing can lengthen it.
            self.case_number = normalise_case_number(self.case_number)
        super().clean_fields(exclude)

    def clean(self) -> None:
        super().clean()
        claims = self.cbi_claims
        if not isinstance(claims, list) or any(c not in self.CBI_CLAIMABLE for c in claims):
            raise ValidationError(
                {"cbi_claims": "CBI claims must be a list of these fields: " + ", ".join(self.CBI_CLAIMABLE)}
            )
        errors = tlv_pel_errors(self.tlv_pel_value, self.tlv_pel_unit)
        if isinstance(self.case_number, str) and not self._number_as_stored():
            # A number of no type's pattern is the field validator's to say (CaseNumberFormat).
            message = case_number_error(self.case_number, self.case_type)
            if message and message != CASE_NUMBER_INVALID:
                errors["case_number"] = message
        low, high = self.pct_below_500_da, self.pct_below_1000_da
        if isinstance(low, float | int) and isinstance(high, float | int) and low > high:
            errors["pct_below_500_da"] = PCT_500_ABOVE_PCT_1000
        other = (self.groundwater_migration_other or "").strip()
        if self.groundwater_migration == GroundwaterMigration.OTHER and not other:
            errors["groundwater_migration_other"] = GROUNDWATER_OTHER_MISSING
        elif other and self.groundwater_migration != GroundwaterMigration.OTHER:
            errors["groundwater_migration_other"] = GROUNDWATER_OTHER_NOT_OTHER
        if errors:
            raise ValidationError(errors)

    def unique_error_message(self, model_class: type[models.Model], unique_check: Sequence[str]) -> ValidationError:
        # Said with the number (Django's own message names the model: "Submission with this ...").
        # Only to a user who may see the case holding it: the case form and the services
        # skip this check for a number held by a case the user may not see (CASE_NUMBER_REFUSED).
        if tuple(unique_check) == ("case_number",):
            return ValidationError(CASE_NUMBER_TAKEN.format(case_number=self.case_number), code="unique")
        return super().unique_error_message(model_class, unique_check)

    def save(self, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_as_approved", False):  # an approved revision's copy (Assessment.case_data)
            raise ApprovedWorkLocked(CASE_AS_APPROVED_NOT_SAVED)
        # Denormalised so that visibility is one indexed filter (selectors.visible_submissions).
        self.is_cbi = bool(self.cbi_claims)
        _count_save(self)
        updating = not self._state.adding and not args and not kwargs.get("force_insert")
        if updating and kwargs.get("update_fields") is None:
            # An instance read before an assessment or the calendar changed must not write
            # its stale copies back: refresh_latest_assessment and the calendar app's
            # refresh_case_due alone write those.
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in self.DERIVED_FIELDS
            ]
        super().save(*args, **kwargs)

    def is_claimed(self, field_name: str) -> bool:
        return field_name in (self.cbi_claims or [])

    @property
    def groundwater_migration_text(self) -> str:
        """As the IRER prints it: the choice's words, or the engineer's for "Other"."""
        if self.groundwater_migration == GroundwaterMigration.OTHER:
            return self.groundwater_migration_other
        return self.get_groundwater_migration_display() if self.groundwater_migration else ""

    @property
    def pbt_rating(self) -> str:
        """The PBT rating as ChemSTEER prints it (``P2B1T``), without the note."""
        return pbt_rating_text(self.pbt_persistence, self.pbt_bioaccumulation, self.pbt_toxicity)


#: The case's data an approved revision keeps (``Assessment.case_snapshot``): every field a
#: person enters on the case (every item the IRER header prints, the case number and name,
#: and the CBI claims), not the bookkeeping (who created it, when, its save count, the
#: copy of the latest assessment) and not ``is_cbi``, which the claims decide.
def _case_data_fields() -> tuple[str, ...]:
    return tuple(
        f.name for f in Submission._meta.concrete_fields if f.editable and not f.primary_key and not f.is_relation
    )


CASE_SNAPSHOT_FIELDS = _case_data_fields()
CASE_AS_APPROVED_NOT_SAVED = "This is the case as an approved revision keeps it: it is never saved."


def case_snapshot(case: Submission) -> dict[str, Any]:
    """The case's data as an approved revision keeps it (JSON-ready): ``{field: value}``
    for :data:`CASE_SNAPSHOT_FIELDS`. Taken at approval (``workflow.assessment_approve``)
    and, for revisions approved before snapshots existed, by migration 0012."""
    snapshot = {name: getattr(case, name) for name in CASE_SNAPSHOT_FIELDS}
    snapshot["cbi_claims"] = list(snapshot.get("cbi_claims") or [])
    return snapshot


def case_from_snapshot(case: Submission, snapshot: dict[str, Any]) -> Submission:
    """``case`` as ``snapshot`` recorded it: an unsaved copy (same id; :meth:`Submission.save`
    refuses it) whose data fields are the snapshot's. A field the snapshot does not hold
    (added to the case later) has its default. The CBI claims are those of the snapshot
    and any made since: a claim withdrawn after approval still holds for the approved
    report, and a claim made since is never printed unmarked."""
    as_approved = Submission(pk=case.pk)
    copied = (f.attname for f in Submission._meta.concrete_fields if f.name in Submission.DERIVED_FIELDS)
    for name in ("created_by_id", "created_at", "updated_at", "version", *copied):
        setattr(as_approved, name, getattr(case, name))
    for name in CASE_SNAPSHOT_FIELDS:
        if name in snapshot:
            setattr(as_approved, name, snapshot[name])
    claims = set(snapshot.get("cbi_claims") or []) | set(case.cbi_claims or [])
    as_approved.cbi_claims = [name for name in Submission.CBI_CLAIMABLE if name in claims]
    as_approved.is_cbi = bool(as_approved.cbi_claims)
    as_approved._state.adding, as_approved._state.db = False, case._state.db
    as_approved._as_approved = True
    return as_approved


def _count_save(instance: Submission | Assessment) -> None:
    """Advance the row's ``version`` on every save after the first (stale-edit checks)."""
    if not instance._state.adding:
        instance.version += 1
