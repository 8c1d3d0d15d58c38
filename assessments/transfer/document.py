"""The shape of a case export: its format, its top-level keys, which fields of each model
travel and how, and the reading of its nested objects and lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ..engine_results import short as _short
from ..models import Assessment, ReviewDecision, Scenario, Submission
from .errors import BAD_STRUCTURE, TransferError

FORMAT = "pmn-review-case"
FORMAT_VERSION = 1

TOP_LEVEL_KEYS = {"format", "format_version", "exported_at", "case", "assessments", "contact_reports"}


# Which fields travel, and how -----------------------------------------------------------------

# Fields that are links to the parent row (implied by nesting) or derived here.
PARENT_LINKS: dict[type[models.Model], set[str]] = {
    Assessment: {"submission"}, Scenario: {"assessment"}, ReviewDecision: {"assessment"}
}
# Fields that do not travel: a deleted use (waiting for an undo) is not exported.
NOT_EXPORTED: dict[type[models.Model], set[str]] = {Scenario: {"deleted_at"}}
# Submission.save() derives is_cbi from cbi_claims; the import the latest assessment's
# copy (models.refresh_latest_assessment) from the assessments it writes. Both are exported.
DERIVED: dict[type[models.Model], set[str]] = {Submission: {"is_cbi", *Submission.DERIVED_FIELDS}}


def row_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    skip = PARENT_LINKS.get(model, set()) | NOT_EXPORTED.get(model, set())
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in skip]


def is_user_link(field: models.Field[Any, Any]) -> bool:
    return field.is_relation and field.related_model is get_user_model()


# The nested objects and lists, and the text in them ------------------------------------------


def name_list(names: Iterable[object]) -> str:
    return ", ".join(_short(str(name)) for name in names)


def parse_aware(text: str) -> datetime | None:
    try:
        value = parse_datetime(text)
    except ValueError:
        return None
    return value if value is not None and timezone.is_aware(value) else None


def expect_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON object"))
    return value


def expect_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON list"))
    return value


def children(assessment: dict[str, Any], where: str, key: str) -> list[dict[str, Any]]:
    rows = expect_list(assessment.get(key, []), f"{where}.{key}")
    return [expect_object(row, f"{where}.{key}[{j}]") for j, row in enumerate(rows)]

