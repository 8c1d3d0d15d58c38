"""A file exported before migration 0011 (the IRER header as ChemSTEER prints it), or before
migration 0019 (the rating derived from the results, a stored one an override with its
reason), is read as those migrations rewrote the database: nothing in it is lost.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from ..models import VolumeQualifier, parse_groundwater_migration, parse_pbt_rating, split_occupational_exposure_rating
from .document import parse_aware

LEGACY_CASE_FIELDS = ("import_only", "sat_migration", "pbt_rating")
#: The reason migration 0019 gave every rating stored before it (the same words: a test
#: compares them), which a file from before it gets on import.
KEPT_RATING_REASON = "Chosen by hand before the rating was derived from the results; kept as the reviewer's rating."


def upgrade_case(case: dict[str, Any]) -> dict[str, Any]:
    """A case row from before migration 0011 as one of today: ``import_only`` as the volume
    qualifier, ``sat_migration`` and ``pbt_rating`` as their choices (unread text kept in
    the "Other" text and the PBT note). A row of today, or one mixing both, is left alone
    (its fields are then checked as they are)."""
    if not any(name in case for name in LEGACY_CASE_FIELDS) or any(
        name in case for name in ("volume_qualifier", "groundwater_migration", "pbt_persistence")
    ):
        return case
    case = dict(case)
    import_only = case.pop("import_only", False)
    if isinstance(import_only, bool):
        case["volume_qualifier"] = VolumeQualifier.IMPORT_ONLY if import_only else VolumeQualifier.MANUFACTURE
    else:
        case["import_only"] = import_only  # refused below as an unknown field, named
    for name, parse, keys in (
        ("sat_migration", parse_groundwater_migration, ("groundwater_migration", "groundwater_migration_other")),
        ("pbt_rating", parse_pbt_rating, ("pbt_persistence", "pbt_bioaccumulation", "pbt_toxicity", "pbt_note")),
    ):
        value = case.pop(name, "")
        if isinstance(value, str):
            case.update(zip(keys, parse(value)))
        elif value is not None:
            case[name] = value
    return case


def upgrade_assessment(row: dict[str, Any]) -> dict[str, Any]:
    """An assessment row of an earlier file, as the migrations since left such a row: from
    before migration 0011 (no ``assessment_date``), its date the day it was created, and a
    rating that is not one of ChemSTEER's moved to its notes; from before migration 0019 (no
    ``occupational_exposure_rating_reason``), a rating it holds kept as the reviewer's, with
    the reason that migration gave."""
    return _before_0019(_before_0011(row))


def _before_0011(row: dict[str, Any]) -> dict[str, Any]:
    if "assessment_date" in row:
        return row
    row = dict(row)
    created = parse_aware(row["created_at"]) if isinstance(row.get("created_at"), str) else None
    if created is not None:
        row["assessment_date"] = timezone.localdate(created).isoformat()
    rating, notes = row.get("occupational_exposure_rating"), row.get("notes", "")
    if isinstance(rating, str) and isinstance(notes, str):
        row["occupational_exposure_rating"], row["notes"] = split_occupational_exposure_rating(rating, notes)
    return row


def _before_0019(row: dict[str, Any]) -> dict[str, Any]:
    if "occupational_exposure_rating_reason" in row or not row.get("occupational_exposure_rating"):
        return row
    return {**row, "occupational_exposure_rating_reason": KEPT_RATING_REASON}
