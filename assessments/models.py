"""The review's data: a case (Submission), its assessments (one per revision), the uses
assessed in each (Scenario) and every status change (ReviewDecision).

Rules that must always hold are database constraints, so they hold for every writer
(services, admin, imports, a psql session). Status changes happen only in
``assessments.services``; nothing here changes a status. A case keeps a copy of its
latest assessment's status, revision and engineer (``Submission.LATEST_FIELDS``) for the
case list and the review queue; :func:`refresh_latest_assessment` alone writes it.

Approved work is final: saving or deleting an approved assessment, or adding, saving or
deleting a scenario or review decision of one, raises :class:`ApprovedWorkLocked` whoever
calls it (``save()``, a raw save, ``delete()``, ``QuerySet.delete()``, a cascade; see
:func:`_refuse_approved_save`). The save that approves (submitted -> approved) changes a
row that was not approved yet, and the approval's own decision is the one row added
after it. On PostgreSQL, triggers refuse the same writes to every client,
``QuerySet.update()``, ``bulk_create`` and raw SQL included (migration 0006). Approved
rows stay readable: copying one into a new revision only reads it.
"""

from __future__ import annotations

import copy
import math
import re
import sys
from datetime import timedelta
from typing import Iterable

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.db.models.signals import pre_delete, pre_save
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords


#: The largest finite double: the check constraints' upper bound on a positive quantity.
#: PostgreSQL orders NaN above every number (and Infinity above this), so ``x <= FINITE_MAX``
#: refuses both where ``x > 0`` alone lets them in.
FINITE_MAX = sys.float_info.max


class CaseType(models.TextChoices):
    PMN = "PMN", "PMN (Premanufacture Notice)"
    LVE = "LVE", "LVE (Low Volume Exemption)"
    LOREX = "LoREX", "LoREX (Low Release and Exposure Exemption)"
    SNUN = "SNUN", "SNUN (Significant New Use Notice)"
    TMEA = "TMEA", "TMEA (Test Marketing Exemption Application)"


class PhysicalState(models.TextChoices):
    LIQUID = "liquid", "Liquid"
    SOLID = "solid", "Solid"
    GAS = "gas", "Gas"
    UNKNOWN = "unknown", "Unknown"


class ExposureLimitUnit(models.TextChoices):
    """The unit of a case's occupational exposure limit (TLV/PEL), an 8-hour TWA."""

    MG_M3 = "mg/m3", "mg/m³"
    PPM = "ppm", "ppm"


# The case's TLV/PEL (Submission.tlv_pel_value, tlv_pel_unit): what every way in says, from
# Submission.clean(), so the form, the admin and the import refuse the same things alike.
TLV_PEL_UNIT_MISSING = "The TLV/PEL value has no unit: choose mg/m³ or ppm, or clear the value."
TLV_PEL_VALUE_MISSING = "The TLV/PEL unit has no value: enter the value, or clear the unit."
TLV_PEL_VALUE_NOT_POSITIVE = "The TLV/PEL value must be a finite number greater than 0."


class VolumeQualifier(models.TextChoices):
    """What the production volume is for, as ChemSTEER prints it after "PV (kg/yr):"."""

    MANUFACTURE = "manufacture", "Manufacture"
    IMPORT_ONLY = "import_only", "Import Only"
    MANUFACTURE_AND_IMPORT = "manufacture_and_import", "Manufacturing and Import"


class GroundwaterMigration(models.TextChoices):
    """The structure-activity team's migration to groundwater: ChemSTEER v3.2's fixed list,
    in its order; "Other" takes a text (``Submission.groundwater_migration_other``)."""

    NEGLIGIBLE = "negligible", "Negligible"
    NEGLIGIBLE_TO_SLOW = "negligible_to_slow", "Negligible to slow"
    SLOW = "slow", "Slow"
    SLOW_TO_MODERATE = "slow_to_moderate", "Slow to moderate"
    MODERATE = "moderate", "Moderate"
    MODERATE_TO_RAPID = "moderate_to_rapid", "Moderate to Rapid"
    RAPID = "rapid", "Rapid"
    OTHER = "other", "Other (please specify)"


GROUNDWATER_MIGRATION_CHOICES = [("", "Not given"), *GroundwaterMigration.choices]


#: ChemSTEER's scores for each of P, B and T (blank: not rated); printed together, "P2B1T".
PBT_SCORES = ("1", "1-2", "2", "2-3", "3")
PBT_CHOICES = [("", "Not rated"), *((score, score) for score in PBT_SCORES)]

#: ChemSTEER v3.2's occupational exposure ratings, in its order (blank: not given). It
#: stores the rating as the engineer chose it; no rule derives it.
OCCUPATIONAL_EXPOSURE_RATINGS = (
    "1A", "1-2A", "2A", "2-3A", "1B", "1-2B", "2B", "2-3B",
    "1C", "1-2C", "2C", "2-3C", "1D", "1-2D", "2D", "2-3D", "NR", "0-1",
)
OCCUPATIONAL_EXPOSURE_RATING_CHOICES = [("", "Not given"), *((r, r) for r in OCCUPATIONAL_EXPOSURE_RATINGS)]

GROUNDWATER_OTHER_MISSING = (
    "Migration to groundwater is \"Other\": say what it is under \"Other migration to groundwater\"."
)
GROUNDWATER_OTHER_NOT_OTHER = (
    "\"Other migration to groundwater\" is only for the choice \"Other (please specify)\": "
    "choose Other, or clear this text."
)
#: The line migration 0011 (and the import of an older case export) adds to an
#: assessment's notes when its rating was not one of ChemSTEER's.
RATING_MOVED_TO_NOTES = (
    "Occupational exposure rating as entered before the rating became a choice from ChemSTEER's list: {rating}"
)


def _dashes(text: str) -> str:
    return re.sub(r"\s*[\u2010-\u2015\u2212-]\s*", "-", text)


def parse_pbt_rating(text: str) -> tuple[str, str, str, str]:
    """A PBT rating written as ChemSTEER prints it (``P2B1T``) as its P, B and T scores
    and a note: ``(p, b, t, "")`` when it reads as one, ``("", "", "", text)`` otherwise,
    so nothing typed is lost.

    >>> parse_pbt_rating("P2B1T"), parse_pbt_rating(" p1-2 b2 t3 ")
    (('2', '1', '', ''), ('1-2', '2', '3', ''))
    >>> parse_pbt_rating(""), parse_pbt_rating("P4B1T1"), parse_pbt_rating("high")
    (('', '', '', ''), ('', '', '', 'P4B1T1'), ('', '', '', 'high'))
    """
    text = (text or "").strip()
    score = r"(1-2|2-3|1|2|3)?"
    match = re.fullmatch(rf"P\s*{score}\s*B\s*{score}\s*T\s*{score}", _dashes(text), re.IGNORECASE)
    if not text or match is None:
        return "", "", "", text
    p, b, t = (value or "" for value in match.groups())
    return p, b, t, ""


def pbt_rating_text(p: str, b: str, t: str) -> str:
    """The three scores as ChemSTEER prints them: ``P2B1T``; ``""`` when none is given.

    >>> pbt_rating_text("2", "1", ""), pbt_rating_text("", "", "")
    ('P2B1T', '')
    """
    return f"P{p}B{b}T{t}" if (p or b or t) else ""


def parse_groundwater_migration(text: str) -> tuple[str, str]:
    """Free text as (choice, other text): one of ChemSTEER's wordings (any case) is that
    choice; anything else is "Other" with the text kept.

    >>> parse_groundwater_migration("Negligible to slow"), parse_groundwater_migration("moderate to rapid.")
    (('negligible_to_slow', ''), ('moderate_to_rapid', ''))
    >>> parse_groundwater_migration(""), parse_groundwater_migration("Fast in sand")
    (('', ''), ('other', 'Fast in sand'))
    """
    text = (text or "").strip()
    if not text:
        return "", ""
    wanted = " ".join(_dashes(text).rstrip(".").replace("-", " to ").split()).lower()
    for value, label in GroundwaterMigration.choices:
        if value != GroundwaterMigration.OTHER and wanted in (label.lower(), value.replace("_", " ")):
            return value, ""
    return GroundwaterMigration.OTHER.value, text


def split_occupational_exposure_rating(rating: str, notes: str) -> tuple[str, str]:
    """(rating, notes) with the rating one of ChemSTEER's (any case, any dash) or blank;
    a rating that is not one of them is moved to the end of the notes, with a line saying so.

    >>> split_occupational_exposure_rating("nr", "One site.")
    ('NR', 'One site.')
    >>> split_occupational_exposure_rating("Low", "One site.")
    ('', "One site.\\n\\nOccupational exposure rating as entered before the rating became a choice from ChemSTEER's list: Low")
    """
    text = (rating or "").strip()
    if not text:
        return "", notes
    canonical = _dashes(text).replace(" ", "").upper()
    if canonical in OCCUPATIONAL_EXPOSURE_RATINGS:
        return canonical, notes
    line = RATING_MOVED_TO_NOTES.format(rating=text)
    return "", f"{notes.rstrip()}\n\n{line}" if (notes or "").strip() else line


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    RETURNED = "returned", "Returned"
    APPROVED = "approved", "Approved"


# What a case's ``latest_status`` holds when no assessment of it has been started (the case
# list's status filter offers it as "No assessment yet").
NO_ASSESSMENT = "none"
LATEST_STATUS_CHOICES = [(NO_ASSESSMENT, "No assessment yet"), *Status.choices]


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
        max_length=40, unique=True, help_text="EPA case number, e.g. P-18-0123."
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
        "production volume (kg/yr)", help_text="Maximum annual production or import volume."
    )
    volume_qualifier = models.CharField(
        "production volume is for", max_length=24, choices=VolumeQualifier.choices,
        default=VolumeQualifier.MANUFACTURE,
        help_text="Printed after the production volume: Manufacture, Import Only, or Manufacturing and Import.",
    )

    # Physical-chemical properties (CRSS)
    molecular_weight = models.FloatField("molecular weight (g/mol)", null=True, blank=True)
    vapour_pressure_torr = models.FloatField("vapour pressure (torr)", null=True, blank=True)
    vapour_pressure_temp_c = models.FloatField("vapour pressure temperature (°C)", null=True, blank=True)
    water_solubility_g_l = models.FloatField("water solubility (g/L)", null=True, blank=True)
    water_solubility_temp_c = models.FloatField("water solubility temperature (°C)", null=True, blank=True)
    physical_state = models.CharField(max_length=10, choices=PhysicalState.choices, default=PhysicalState.UNKNOWN)
    pct_below_500_da = models.FloatField("% < 500 Da", null=True, blank=True, help_text="Polymers: percent by weight.")
    pct_below_1000_da = models.FloatField("% < 1000 Da", null=True, blank=True, help_text="Polymers: percent by weight.")

    # Hazard communication
    tlv_pel_value = models.FloatField(
        "TLV/PEL value", null=True, blank=True,
        help_text="The occupational exposure limit (8-hour TWA) as a number; give its unit beside it.",
    )
    tlv_pel_unit = models.CharField(
        "TLV/PEL unit", max_length=8, choices=ExposureLimitUnit.choices, blank=True,
        help_text="mg/m³ or ppm. Airborne concentrations above the limit are flagged on the results and the report.",
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

    # The fields the case list's text search looks in (selectors.submission_search). On
    # PostgreSQL each has a trigram index on UPPER(field), the expression ``icontains``
    # compiles to (migration 0007; not declared in Meta.indexes, which SQLite would refuse).
    SEARCHED_FIELDS = ("case_number", "chemical_name", "generic_name", "submitter", "case_name")

    # The change reason is text, not simple-history's 100 characters: an amendment's reason
    # (services.submission_update) is the engineer's own words.
    history = HistoricalRecords(
        excluded_fields=list(LATEST_FIELDS), history_change_reason_field=models.TextField(null=True)
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("view_cbi", "Cleared for confidential business information (CBI)")]
        # The case list's order: each page is read from the first index (forwards from a
        # case's place for older cases, backwards for newer ones and the oldest page), and
        # a status-filtered page from the second, instead of sorting every case
        # (selectors.case_page; benchmarks/pages.py; README "Performance"). The third holds
        # what the review queue's count reads, so it counts index entries, not table rows
        # (review.review_queue_count).
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="submission_newest_first"),
            models.Index(fields=["latest_status", "-created_at", "-id"], name="submission_status_newest_first"),
            models.Index(
                fields=["latest_engineer", "is_cbi"], condition=Q(latest_status=Status.SUBMITTED),
                name="submission_awaiting_review",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(production_volume_kg_yr__gt=0) & Q(production_volume_kg_yr__lte=FINITE_MAX),
                name="submission_pv_positive"
            ),
            models.CheckConstraint(
                condition=Q(molecular_weight__isnull=True)
                | (Q(molecular_weight__gt=0) & Q(molecular_weight__lte=FINITE_MAX)),
                name="submission_mw_positive",
            ),
            models.CheckConstraint(
                condition=Q(vapour_pressure_torr__isnull=True)
                | (Q(vapour_pressure_torr__gte=0) & Q(vapour_pressure_torr__lte=FINITE_MAX)),
                name="submission_vp_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(water_solubility_g_l__isnull=True)
                | (Q(water_solubility_g_l__gte=0) & Q(water_solubility_g_l__lte=FINITE_MAX)),
                name="submission_solubility_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(pct_below_500_da__isnull=True)
                | (Q(pct_below_500_da__gte=0) & Q(pct_below_500_da__lte=100)),
                name="submission_pct_500_within_0_100",
            ),
            models.CheckConstraint(
                condition=Q(pct_below_1000_da__isnull=True)
                | (Q(pct_below_1000_da__gte=0) & Q(pct_below_1000_da__lte=100)),
                name="submission_pct_1000_within_0_100",
            ),
            models.CheckConstraint(
                condition=Q(pct_below_500_da__isnull=True)
                | Q(pct_below_1000_da__isnull=True)
                | Q(pct_below_500_da__lte=models.F("pct_below_1000_da")),
                name="submission_pct_500_not_above_pct_1000",
            ),
            models.CheckConstraint(
                condition=Q(use_concentration__isnull=True)
                | (Q(use_concentration__gt=0) & Q(use_concentration__lte=1)),
                name="submission_concentration_fraction",
            ),
            # NaN and infinity are refused too: on PostgreSQL NaN compares above every number.
            models.CheckConstraint(
                condition=Q(tlv_pel_value__isnull=True)
                | (Q(tlv_pel_value__gt=0) & Q(tlv_pel_value__lte=FINITE_MAX)),
                name="submission_tlv_pel_value_positive_finite",
                violation_error_message=TLV_PEL_VALUE_NOT_POSITIVE,
            ),
            models.CheckConstraint(
                condition=(Q(tlv_pel_value__isnull=True) & Q(tlv_pel_unit=""))
                | (Q(tlv_pel_value__isnull=False) & Q(tlv_pel_unit__in=ExposureLimitUnit.values)),
                name="submission_tlv_pel_value_with_unit",
                violation_error_message="The TLV/PEL needs both a value and its unit (mg/m³ or ppm), or neither.",
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

    def clean_fields(self, exclude=None) -> None:
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
        other = (self.groundwater_migration_other or "").strip()
        if self.groundwater_migration == GroundwaterMigration.OTHER and not other:
            errors["groundwater_migration_other"] = GROUNDWATER_OTHER_MISSING
        elif other and self.groundwater_migration != GroundwaterMigration.OTHER:
            errors["groundwater_migration_other"] = GROUNDWATER_OTHER_NOT_OTHER
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs) -> None:
        if getattr(self, "_as_approved", False):  # an approved revision's copy (Assessment.case_data)
            raise ApprovedWorkLocked(CASE_AS_APPROVED_NOT_SAVED)
        # Denormalised so that visibility is one indexed filter (selectors.visible_submissions).
        self.is_cbi = bool(self.cbi_claims)
        _count_save(self)
        updating = not self._state.adding and not args and not kwargs.get("force_insert")
        if updating and kwargs.get("update_fields") is None:
            # An instance read before an assessment changed must not write its stale copy
            # of the latest assessment back: refresh_latest_assessment alone writes those.
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in self.LATEST_FIELDS
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


def tlv_pel_errors(value, unit) -> dict[str, str]:
    """What is wrong with a TLV/PEL given as ``value`` and ``unit``, keyed by the field at
    fault (``{}``: nothing). Both or neither; the value a finite number above 0.

    >>> tlv_pel_errors(5.0, "mg/m3"), tlv_pel_errors(None, "")
    ({}, {})
    >>> sorted(tlv_pel_errors(5.0, "")), sorted(tlv_pel_errors(None, "ppm")), sorted(tlv_pel_errors(float("nan"), "ppm"))
    (['tlv_pel_unit'], ['tlv_pel_value'], ['tlv_pel_value'])
    """
    if value is None:
        return {"tlv_pel_value": TLV_PEL_VALUE_MISSING} if unit else {}
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return {"tlv_pel_value": TLV_PEL_VALUE_NOT_POSITIVE}
    if not unit:
        return {"tlv_pel_unit": TLV_PEL_UNIT_MISSING}
    return {}


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


def case_snapshot(case) -> dict:
    """The case's data as an approved revision keeps it (JSON-ready): ``{field: value}``
    for :data:`CASE_SNAPSHOT_FIELDS`. Taken at approval (``workflow.assessment_approve``)
    and, for revisions approved before snapshots existed, by migration 0012."""
    snapshot = {name: getattr(case, name) for name in CASE_SNAPSHOT_FIELDS}
    snapshot["cbi_claims"] = list(snapshot.get("cbi_claims") or [])
    return snapshot


def case_from_snapshot(case: "Submission", snapshot: dict) -> "Submission":
    """``case`` as ``snapshot`` recorded it: an unsaved copy (same id; :meth:`Submission.save`
    refuses it) whose data fields are the snapshot's. A field the snapshot does not hold
    (added to the case later) has its default. The CBI claims are those of the snapshot
    and any made since: a claim withdrawn after approval still holds for the approved
    report, and a claim made since is never printed unmarked."""
    as_approved = Submission(pk=case.pk)
    for name in ("created_by_id", "created_at", "updated_at", "version", *Submission.LATEST_FIELDS[:2],
                 "latest_engineer_id"):
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


def normalise_case_number(value: str) -> str:
    """A case number as EPA writes it: no surrounding blanks, upper case (``" p-18-0123 "``
    is ``P-18-0123``), so that one case cannot be entered twice under two spellings.

    >>> normalise_case_number("  p-18-0123 ")
    'P-18-0123'
    """
    return (value or "").strip().upper()


def _count_save(instance: models.Model) -> None:
    """Advance the row's ``version`` on every save after the first (stale-edit checks)."""
    if not instance._state.adding:
        instance.version += 1


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


#: What an engineer may write for one release in the report (Scenario.release_texts):
#: ``to`` the destination (an NPDES permit, a named POTW), ``basis`` the engineer's words
#: after the model's standard sentence; each at most this many characters.
RELEASE_TEXT_KEYS = {"to": 300, "basis": 2000}
RELEASE_TEXT_LABELS = {"to": "the “to:” line", "basis": "the engineer's basis"}
RELEASE_TEXTS_NOT_AN_OBJECT = "must be an object {release number: {\"to\": text, \"basis\": text}}"
RELEASE_TEXT_BAD_NUMBER = "{key!r} is not a release number (a whole number, at least 1)"
RELEASE_TEXT_BAD_ENTRY = "release {key}: must be an object with \"to\" and/or \"basis\" (text)"
RELEASE_TEXT_UNKNOWN = "release {key}: unknown key {name!r} (allowed: to, basis)"
RELEASE_TEXT_NOT_TEXT = "release {key}, {name}: must be text"


def release_texts_errors(value: object) -> list[str]:
    """What is wrong with a scenario's ``release_texts`` (none: ``[]``); the one check the
    page, the admin and the import use (free text by ``limits.text_error``).

    >>> release_texts_errors({"4": {"to": "City POTW, NPDES permit TX0001"}})
    []
    >>> release_texts_errors({"0": {"to": "x"}, "2": {"via": "x"}, "3": {"to": "a\\x00"}})  # doctest: +NORMALIZE_WHITESPACE
    ["'0' is not a release number (a whole number, at least 1)",
     "release 2: unknown key 'via' (allowed: to, basis)",
     'Release 3, the “to:” line must not contain NUL characters.']
    """
    from .limits import text_error

    if not isinstance(value, dict):
        return [RELEASE_TEXTS_NOT_AN_OBJECT]
    errors = []
    for key, entry in value.items():
        if not (isinstance(key, str) and key.isdigit() and key.isascii() and int(key) >= 1):
            errors.append(RELEASE_TEXT_BAD_NUMBER.format(key=key))
            continue
        if not isinstance(entry, dict):
            errors.append(RELEASE_TEXT_BAD_ENTRY.format(key=key))
            continue
        for name, text in entry.items():
            if name not in RELEASE_TEXT_KEYS:
                errors.append(RELEASE_TEXT_UNKNOWN.format(key=key, name=name))
            elif not isinstance(text, str):
                errors.append(RELEASE_TEXT_NOT_TEXT.format(key=key, name=name))
            else:
                message = text_error(text, label=f"Release {key}, {RELEASE_TEXT_LABELS[name]}",
                                     limit=RELEASE_TEXT_KEYS[name])
                if message:
                    errors.append(message)
    return errors


class Assessment(models.Model):
    """One revision of the engineering review of a submission."""

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="assessments")
    revision = models.PositiveIntegerField(default=1)
    engineer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="assessments")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)

    notes = models.TextField("notes and key assumptions", blank=True)
    pollution_prevention = models.TextField("pollution prevention considerations", blank=True)
    occupational_exposure_rating = models.CharField(
        max_length=40, choices=OCCUPATIONAL_EXPOSURE_RATING_CHOICES, blank=True,
        help_text="ChemSTEER's ratings; NR: not rated. The engineer's choice, printed in the IRER.",
    )
    assessment_date = models.DateField(
        "assessment date", default=timezone.localdate,
        help_text="Printed beside the status at the head of the IRER. A new revision starts with the day it is made.",
    )
    exposure_based_review = models.BooleanField("exposure-based review", default=False)
    irer_note = models.CharField(
        "IRER note on the releases", max_length=20, choices=IrerNote.choices, default=IrerNote.MAY,
        help_text="Whether the daily releases of the sources may coincide, as ChemSTEER's IRER says it.",
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
            models.CheckConstraint(
                condition=~Q(status=Status.APPROVED) | (Q(approved_by__isnull=False) & Q(approved_at__isnull=False)),
                name="assessment_approved_has_approver",
            ),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.submission.case_number} r{self.revision}"

    def save(self, *args, **kwargs) -> None:
        _count_save(self)
        super().save(*args, **kwargs)

    @property
    def is_locked(self) -> bool:
        return self.status == Status.APPROVED

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
    latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
    cases = Submission.objects.all()
    if submission_ids is not None:
        cases = cases.filter(pk__in=list(submission_ids))
    cases.update(
        latest_status=Coalesce(Subquery(latest.values("status")[:1]), Value(NO_ASSESSMENT)),
        latest_revision=Subquery(latest.values("revision")[:1]),
        latest_engineer=Subquery(latest.values("engineer")[:1]),
    )


#: How long a deleted use can be restored (``services.scenario_restore``), while its
#: assessment is still a draft or returned.
SCENARIO_UNDO_MINUTES = 30
SCENARIO_UNDO_WINDOW = timedelta(minutes=SCENARIO_UNDO_MINUTES)


class LiveScenarioManager(models.Manager):
    """The uses in effect: a deleted use (``Scenario.deleted_at`` set) is in no list, report,
    export, comparison or count, and no page finds it, while it waits for an undo
    (``services.scenario_restore``). ``Scenario.all_objects`` reads the deleted ones too."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


class Scenario(models.Model):
    """One use (operation) assessed: an engine scenario with its inputs and result.

    ``inputs`` holds only what differs from the engine's defaults; ``reasons`` the
    reviewer's reason for each of those overrides. ``result`` is the engine's JSON
    output as computed (with its engine version), the snapshot an approval freezes;
    ``computed_inputs`` the ``inputs`` it was computed from, so a result whose inputs
    changed since is known to be stale.
    """

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="scenarios")
    scenario_key = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    position = models.PositiveIntegerField(default=0)
    inputs = models.JSONField(default=dict, blank=True)
    reasons = models.JSONField(default=dict, blank=True)
    current_step = models.CharField(max_length=40, blank=True, help_text="Last wizard step saved.")
    result = models.JSONField(null=True, blank=True)
    computed_inputs = models.JSONField(
        null=True, blank=True, help_text="The saved inputs the result was computed from."
    )
    computed_at = models.DateTimeField(null=True, blank=True)
    release_texts = models.JSONField(
        "the engineer's words per release", default=dict, blank=True,
        help_text='By release number: {"to": destination, "basis": the engineer\'s words}, printed in the IRER.',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text="When the engineer deleted the use; it keeps everything it held, so the delete can be "
        "undone for a while (services.scenario_restore). Empty for a use in effect.",
    )

    # The first manager is the default: related lists (assessment.scenarios), the pages,
    # the report, the export and the admin see the uses in effect only.
    objects = LiveScenarioManager()
    all_objects = models.Manager()

    history = HistoricalRecords()

    def clean(self) -> None:
        super().clean()
        errors = release_texts_errors(self.release_texts)
        if errors:
            raise ValidationError({"release_texts": errors})

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(scenario_key=""), name="scenario_key_not_blank"),
            models.CheckConstraint(
                condition=(Q(result__isnull=True) & Q(computed_at__isnull=True))
                | (Q(result__isnull=False) & Q(computed_at__isnull=False)),
                name="scenario_result_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assessment}: {self.title}"


class DecisionAction(models.TextChoices):
    SUBMIT = "submit", "Submitted"
    APPROVE = "approve", "Approved"
    RETURN = "return", "Returned"
    WITHDRAW = "withdraw", "Withdrawn"


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


# Approved work is final ----------------------------------------------------------------------

APPROVED_WORK_LOCKED = (
    "Assessment {assessment} is approved and final: it, its uses and its review decisions cannot be "
    "changed or deleted. Start a new revision to change it."
)


class ApprovedWorkLocked(PermissionDenied):
    """A write to approved work. A ``PermissionDenied`` (a refusal of "when", as in
    ``assessments.workflow``), so that one reaching a view is a 403, never a 500."""


def _approved_parent(instance: models.Model, *, saving: bool) -> Assessment | None:
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
        and decision.pk is None
        and decision.action == DecisionAction.APPROVE
        and not assessment.decisions.filter(action=DecisionAction.APPROVE).exists()
    )


def _refuse_approved_save(sender, instance, **kwargs) -> None:
    locked = _approved_parent(instance, saving=True)
    if locked is not None and not _is_the_approval(instance, locked):
        raise ApprovedWorkLocked(APPROVED_WORK_LOCKED.format(assessment=locked))


def _refuse_approved_delete(sender, instance, **kwargs) -> None:
    locked = _approved_parent(instance, saving=False)
    if locked is not None:
        raise ApprovedWorkLocked(APPROVED_WORK_LOCKED.format(assessment=locked))


# Signals rather than save()/delete() overrides: they are sent for raw saves (loaddata,
# imports) and for each row of a QuerySet.delete() and of a cascade too.
for _model in (Assessment, Scenario, ReviewDecision):
    pre_save.connect(_refuse_approved_save, sender=_model, dispatch_uid=f"approved_work_save_{_model.__name__}")
    pre_delete.connect(_refuse_approved_delete, sender=_model, dispatch_uid=f"approved_work_delete_{_model.__name__}")
