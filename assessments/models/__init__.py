"""The review's data: a case (Submission), its assessments (one per revision), the uses
assessed in each (Scenario) and every status change (ReviewDecision).

Rules that must always hold are database constraints, so they hold for every writer
(services, admin, imports, a psql session). Status changes happen only in
``assessments.workflow``; nothing here changes a status. Approved work is final
(``guards``).

One module per reason to change: ``case_fields`` (the values a case's fields take),
``cases`` (the case), ``status`` (the statuses, the actions that change them, and the
refusal of a write to approved work), ``assessments`` (an assessment and its review
decisions), ``scenarios`` (a use), ``sealed`` (the IRER as
approved), ``impact`` (a change to the engine measured over them), ``guards`` (approved work is final) and ``meta`` (a model's own field by
name, whether an instance is saved). Every model and public name is imported here, so
``from assessments.models import X`` reads from one place.
"""

from . import guards  # noqa: F401  (connects the approved-work guard to the models' signals)
from .assessments import (
    DUE_COPIED,
    LATEST_COPIED,
    Assessment,
    IrerNote,
    ReviewDecision,
    as_printed,
    case_rows_refreshed,
    refresh_latest_assessment,
)
from .case_fields import (
    CASE_NUMBER_TAKEN,
    FINITE_MAX,
    GROUNDWATER_MIGRATION_CHOICES,
    GROUNDWATER_OTHER_MISSING,
    GROUNDWATER_OTHER_NOT_OTHER,
    OCCUPATIONAL_EXPOSURE_RATING_CHOICES,
    OCCUPATIONAL_EXPOSURE_RATINGS,
    PBT_CHOICES,
    PBT_SCORES,
    PCT_500_ABOVE_PCT_1000,
    RATING_MOVED_TO_NOTES,
    TLV_PEL_KIND_INVALID,
    TLV_PEL_UNIT_MISSING,
    TLV_PEL_VALUE_MISSING,
    TLV_PEL_VALUE_NOT_POSITIVE,
    CaseType,
    ExposureLimitKind,
    ExposureLimitUnit,
    GroundwaterMigration,
    NumberRange,
    PhysicalState,
    VolumeQualifier,
    normalise_case_number,
    parse_groundwater_migration,
    parse_pbt_rating,
    pbt_rating_text,
    split_occupational_exposure_rating,
    tlv_pel_errors,
)
from .cases import CASE_AS_APPROVED_NOT_SAVED, CASE_SNAPSHOT_FIELDS, Submission, case_from_snapshot, case_snapshot
from .impact import ImpactPart, ImpactRun, ImpactUse
from .meta import is_saved, own_field
from .report_files import ReportFile  # noqa: F401  (the report cache in the database: reports.db_storage)
from .scenarios import (
    RELEASE_TEXT_BAD_ENTRY,
    RELEASE_TEXT_BAD_NUMBER,
    RELEASE_TEXT_KEYS,
    RELEASE_TEXT_LABELS,
    RELEASE_TEXT_NOT_TEXT,
    RELEASE_TEXT_UNKNOWN,
    RELEASE_TEXTS_NOT_AN_OBJECT,
    SCENARIO_UNDO_MINUTES,
    SCENARIO_UNDO_WINDOW,
    LiveScenarioManager,
    Scenario,
    release_texts_errors,
)
from .sealed import SealedCopy, SealedReport
from .status import (
    APPROVED_WORK_LOCKED,
    LATEST_STATUS_CHOICES,
    NO_ASSESSMENT,
    ApprovedWorkLocked,
    DecisionAction,
    Status,
)
from .workers import ReportWorker  # noqa: F401  (the report workers' heartbeats: reports.heartbeat)

__all__ = [
    # the models
    "Submission", "Assessment", "Scenario", "ReviewDecision", "LiveScenarioManager",
    # the IRER as approved
    "SealedReport", "SealedCopy",
    # a change to the engine measured over the stored assessments
    "ImpactRun", "ImpactPart", "ImpactUse",
    # statuses and approval
    "Status", "DecisionAction", "NO_ASSESSMENT", "LATEST_STATUS_CHOICES", "ApprovedWorkLocked",
    "APPROVED_WORK_LOCKED", "refresh_latest_assessment", "as_printed", "case_rows_refreshed", "LATEST_COPIED", "DUE_COPIED",
    # the case's fields
    "CaseType", "PhysicalState", "ExposureLimitUnit", "ExposureLimitKind", "VolumeQualifier", "GroundwaterMigration", "IrerNote",
    "NumberRange", "CASE_NUMBER_TAKEN", "PCT_500_ABOVE_PCT_1000",
    "FINITE_MAX", "GROUNDWATER_MIGRATION_CHOICES", "GROUNDWATER_OTHER_MISSING", "GROUNDWATER_OTHER_NOT_OTHER",
    "OCCUPATIONAL_EXPOSURE_RATING_CHOICES", "OCCUPATIONAL_EXPOSURE_RATINGS", "PBT_CHOICES", "PBT_SCORES",
    "RATING_MOVED_TO_NOTES", "TLV_PEL_KIND_INVALID", "TLV_PEL_UNIT_MISSING", "TLV_PEL_VALUE_MISSING", "TLV_PEL_VALUE_NOT_POSITIVE",
    "normalise_case_number", "parse_groundwater_migration", "parse_pbt_rating", "pbt_rating_text",
    "split_occupational_exposure_rating", "tlv_pel_errors",
    # the case as approved
    "CASE_AS_APPROVED_NOT_SAVED", "CASE_SNAPSHOT_FIELDS", "case_from_snapshot", "case_snapshot",
    # a model's own field by name; whether an instance is saved
    "own_field", "is_saved",
    # a use's release texts and undo window
    "RELEASE_TEXT_BAD_ENTRY", "RELEASE_TEXT_BAD_NUMBER", "RELEASE_TEXT_KEYS", "RELEASE_TEXT_LABELS",
    "RELEASE_TEXT_NOT_TEXT", "RELEASE_TEXT_UNKNOWN", "RELEASE_TEXTS_NOT_AN_OBJECT", "SCENARIO_UNDO_MINUTES",
    "SCENARIO_UNDO_WINDOW", "release_texts_errors",
]
