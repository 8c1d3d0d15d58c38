"""Moving a case between installations: one JSON document per case.

``case_export`` turns a case (the Submission), every revision of its assessment, their
scenarios (inputs, reasons, stored results) and their review decisions into a JSON-ready
dictionary; ``case_import`` writes such a dictionary into this installation. The
management commands ``export_case`` and ``import_case`` are their command-line faces.

Format (``format`` = :data:`FORMAT`, ``format_version`` = :data:`FORMAT_VERSION`)::

    {"format": "pmn-review-case", "format_version": 1, "exported_at": "...",
     "case": {<Submission fields>},
     "assessments": [{<Assessment fields>,
                      "scenarios": [{<Scenario fields>}, ...],
                      "decisions": [{<ReviewDecision fields>}, ...],
                      "sealed_reports": [{"copy": "full", "sha256": ..., "seal": ...,
                                          "pdf_base64": ...}, ...]}, ...],
     "contact_reports": [{<ContactReport fields>, "revisions": [1, ...]}, ...]}

``contact_reports`` is optional on import and is checked by ``contacts.transfer``, which
the transfer reaches through ``events.case_exporting`` and ``events.case_importing``.
``sealed_reports`` (an approved revision's sealed copies of its IRER, :mod:`.sealed`) is
written for each approved revision only, and optional on import: a file exported before
the copies travelled is read as it was (``format_version`` is unchanged: the key's
presence is all a reader needs to know).

Every concrete field of each model is written except the primary key and the link to
the parent row, so a field added to a model travels without touching this package. Users
are written by user name. Dates are ISO 8601 with their offset; numbers keep full
precision (JSON floats round-trip exactly).

Import rules: nothing gets in that the application itself would refuse.

- The file is read only up to :data:`MAX_FILE_BYTES` and must be UTF-8 JSON whose top
  level is an object, nested at most :data:`MAX_NESTING` levels, with no key twice in one
  object. Every number in it must be finite (``NaN``, ``Infinity`` and ``1e999``, which
  Python's ``json`` reads, are refused) and no text may hold a NUL character (PostgreSQL
  cannot store one) or a lone surrogate; each refusal names the place in the file.
- Every row is checked as the application checks it: the JSON type of each field, the
  model's own validation (``full_clean``: lengths, choices, database constraints) and the
  free-text limits (``limits.TEXT_LIMITS``). A case number is compared normalised
  (``models.normalise_case_number``), so ``" p-18-0123 "`` is ``P-18-0123``.
- A scenario is checked by the engine: its key must be registered; its ``inputs`` a JSON
  object whose every value the scenario's own declaration accepts, as the wizard stores
  it (a number for a number, one of the choices for a choice), an override needing its
  reason (of at most the wizard's length); ``site_specific`` entries as the engine parses
  them. A stored ``result`` needs its ``computed_inputs`` and ``computed_at``, must come
  from this installation's engine version (:data:`ENGINE_VERSION_DIFFERS` otherwise),
  and must be what the engine computes from ``computed_inputs``: every text and every
  number the same (numbers within :data:`assessments.engine_results.RESULT_REL_TOL`).
- The review trail must be one the workflow writes (``workflow.TRANSITIONS``): decisions
  in time order, from draft, each one step of the table, ending at the revision's status;
  submitted by the revision's engineer; approved or returned by a supervisor who is not
  the engineer (a return with a comment); ``approved_by``/``approved_at`` those of the
  approve decision (within :data:`APPROVAL_TIME_TOLERANCE`), and empty unless approved. A
  submitted or approved revision has at least one use, every use computed from its
  present inputs, and the reason when the uses exceed the production volume. Revisions
  are numbered 1, 2, ... and each but the last is approved (the only way a new revision
  is made).
- An approved revision's ``case_snapshot`` (the case as it was approved, which its IRER
  prints) is checked as the case is, and against the case (:mod:`.approved`): a revision
  approved at or after the case's last save was approved with the case the file has, field
  by field and claim by claim (:data:`SNAPSHOT_NOT_THE_CASE` otherwise); its case number is
  the one the case is imported under. It is null for any other revision, and never null
  for an approved one (:data:`SNAPSHOT_NULL`); a file without the field (exported before
  migration 0012) gets the case's data, as that migration gave it.
- No date and time in the file is later than the export (``exported_at``, itself not later
  than now; :data:`LATER_THAN_EXPORT`), and a use of a submitted or approved revision was
  computed before the revision was last submitted (:data:`COMPUTED_AFTER_SUBMISSION`).
- The file is checked completely before anything is kept; the import runs in one
  transaction: it writes the whole case or nothing.
- A file exported before migration 0011 (``import_only``, ``sat_migration`` and
  ``pbt_rating`` on the case; no ``assessment_date`` on a revision) is read as that
  migration rewrote the database, with the same functions (:func:`legacy.upgrade_case`,
  :func:`legacy.upgrade_assessment`): nothing in it is lost.
- An approved revision is sealed here as its approval seals it, in the import's
  transaction, once its rows are written (:mod:`.sealed`): its IRER drawn by this
  installation from the imported rows, never the file's bytes, so no file can make this
  system call a PDF sealed. The file's copies are checked (their bytes base64, hashing to
  the SHA-256 given; a copy ``SealedCopy`` names; none on a revision not approved) and
  compared with the drawing: the same SHA-256 means the exporting system's sealed copies
  verify here too; another, or none, is said in the import's summary and the case's first
  history record, with both digests (copies handed out before then verify as not sealed).
- A case number that exists already is refused (:data:`CASE_EXISTS`); nothing is
  overwritten, ever. Rename or delete the existing case first if that is what you mean.
- Every user named in the file must exist here, or be mapped to an existing user with
  ``user_map`` (``--map-user OLD=NEW``); otherwise the import names all missing users
  (:data:`MISSING_USERS`) and writes nothing.
- Rows are written as they were: statuses, approvals, timestamps (created, updated,
  computed, decided) and stored results are kept, not recomputed, so an approved revision
  stays exactly as approved. The field-by-field change history (django-simple-history)
  stays in the source installation: each imported row starts its history here with one
  "created" record whose change reason names the import.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone

from .. import events
from ..engine_results import short as _short
from ..models import Assessment, ReviewDecision, Scenario, Status, Submission
from .approved import CLOCK_TOLERANCE, latest_time
from .checks import APPROVAL_TIME_TOLERANCE, set_fields
from .document import (
    DERIVED,
    FORMAT,
    FORMAT_VERSION,
    NOT_EXPORTED,
    PARENT_LINKS,
    TOP_LEVEL_KEYS,
    children,
    expect_list,
    expect_object,
    is_user_link,
    name_list,
    parse_aware,
    row_fields,
)
from .errors import (
    APPROVED_AT_MISMATCH,
    APPROVED_BY_MISMATCH,
    BAD_STRUCTURE,
    CASE_EXISTS,
    COMPUTATION_WITHOUT_RESULT,
    COMPUTED_AFTER_SUBMISSION,
    DUPLICATE_KEY,
    ENGINE_VERSION_DIFFERS,
    EXPORTED_IN_THE_FUTURE,
    IMPORT_REASON,
    INVALID_ROW,
    INVALID_VALUE,
    LATER_THAN_EXPORT,
    LATER_THAN_IMPORT,
    MAPPED_TO_MISSING,
    MISSING_USERS,
    NO_SUCH_CASE,
    NO_USES,
    NOT_A_CASE_EXPORT,
    NOT_AN_OBJECT,
    NOT_APPROVED_YET,
    NOT_FINITE,
    NOT_JSON,
    NOT_UNICODE,
    NOT_UTF8,
    NUL_IN_TEXT,
    REASON_MISSING,
    REASON_TOO_LONG,
    RESULT_WITHOUT_COMPUTATION,
    REVISION_NOT_APPROVED,
    REVISION_NUMBERS,
    SEAL_DRAWN_AGAIN,
    SEAL_DRAWN_NEW,
    SEAL_SAME,
    SEAL_TAKEN,
    SEAL_WHY_OTHER,
    SEAL_WHY_RENUMBERED,
    SEALED_COPY_TWICE,
    SEALED_FIELDS_MISSING,
    SEALED_HASH_MISMATCH,
    SEALED_NOT_APPROVED,
    SEALED_NOT_BASE64,
    SEALED_NOT_DRAWN,
    SEALED_NOT_SEAL,
    SEALED_NOT_SHA256,
    SEALED_UNKNOWN_COPY,
    SNAPSHOT_NOT_AN_OBJECT,
    SNAPSHOT_NOT_THE_CASE,
    SNAPSHOT_NULL,
    TOO_DEEP,
    TOO_LARGE,
    TRAIL_END,
    TRAIL_FROM,
    TRAIL_NOT_SUPERVISOR,
    TRAIL_ORDER,
    TRAIL_OWN_WORK,
    TRAIL_RETURN_COMMENT,
    TRAIL_STEP,
    TRAIL_SUBMITTER,
    UNKNOWN_FIELDS,
    UNKNOWN_STEP,
    UNSUPPORTED_VERSION,
    USE_NOT_CURRENT,
    VOLUME_REASON,
    WRITE_FAILED,
    TransferError,
)
from .legacy import KEPT_RATING_REASON, LEGACY_CASE_FIELDS, upgrade_assessment, upgrade_case
from .reading import MAX_FILE_BYTES, MAX_NESTING, loads, scan
from .sealed import SEALED_KEYS, SEALED_REPORTS, SealOutcome, export_rows
from .writing import write

#: What callers import from here: the export and the import, the reading of a file, and every limit and message.
__all__ = [
    "case_export", "case_import", "dumps", "loads", "set_fields", "TransferError", "FORMAT",
    "FORMAT_VERSION", "MAX_FILE_BYTES", "MAX_NESTING", "APPROVAL_TIME_TOLERANCE", "TOP_LEVEL_KEYS",
    "PARENT_LINKS", "NOT_EXPORTED", "DERIVED", "LEGACY_CASE_FIELDS", "KEPT_RATING_REASON", "APPROVED_AT_MISMATCH",
    "APPROVED_BY_MISMATCH", "BAD_STRUCTURE", "CASE_EXISTS", "COMPUTATION_WITHOUT_RESULT", "DUPLICATE_KEY",
    "ENGINE_VERSION_DIFFERS", "IMPORT_REASON", "INVALID_ROW", "INVALID_VALUE", "MAPPED_TO_MISSING",
    "MISSING_USERS", "NOT_AN_OBJECT", "NOT_APPROVED_YET", "NOT_A_CASE_EXPORT", "NOT_FINITE", "NOT_JSON",
    "NOT_UNICODE", "NOT_UTF8", "NO_SUCH_CASE", "NO_USES", "NUL_IN_TEXT", "REASON_MISSING", "REASON_TOO_LONG",
    "RESULT_WITHOUT_COMPUTATION", "REVISION_NOT_APPROVED", "REVISION_NUMBERS", "SNAPSHOT_NOT_AN_OBJECT",
    "TOO_DEEP", "TOO_LARGE", "TRAIL_END", "TRAIL_FROM", "TRAIL_NOT_SUPERVISOR", "TRAIL_ORDER",
    "TRAIL_OWN_WORK", "TRAIL_RETURN_COMMENT", "TRAIL_STEP", "TRAIL_SUBMITTER", "UNKNOWN_FIELDS",
    "UNKNOWN_STEP", "UNSUPPORTED_VERSION", "USE_NOT_CURRENT", "VOLUME_REASON", "WRITE_FAILED",
    "CLOCK_TOLERANCE", "COMPUTED_AFTER_SUBMISSION", "EXPORTED_IN_THE_FUTURE", "LATER_THAN_EXPORT",
    "LATER_THAN_IMPORT", "SNAPSHOT_NOT_THE_CASE", "SNAPSHOT_NULL",
    "case_import_report", "CaseImport", "SealOutcome", "SEALED_REPORTS", "SEALED_KEYS", "SEAL_DRAWN_AGAIN",
    "SEAL_DRAWN_NEW", "SEAL_SAME", "SEAL_TAKEN", "SEAL_WHY_OTHER", "SEAL_WHY_RENUMBERED", "SEALED_COPY_TWICE",
    "SEALED_FIELDS_MISSING", "SEALED_HASH_MISMATCH", "SEALED_NOT_APPROVED", "SEALED_NOT_BASE64",
    "SEALED_NOT_DRAWN", "SEALED_NOT_SEAL", "SEALED_NOT_SHA256", "SEALED_UNKNOWN_COPY",
]


# Export --------------------------------------------------------------------------------------


def _dump_row(instance: models.Model, model: type[models.Model]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for field in row_fields(model):
        if is_user_link(field):
            user = getattr(instance, field.name)
            row[field.name] = user.get_username() if user else None
        elif isinstance(field, models.DateField):  # a DateTimeField too
            value = field.value_from_object(instance)
            row[field.name] = value.isoformat() if value else None
        else:
            row[field.name] = field.value_from_object(instance)
    return row


def case_export(*, case_number: str) -> dict[str, Any]:
    """The case ``case_number`` and everything under it, JSON-ready."""
    try:
        submission = Submission.objects.get(case_number=case_number)
    except Submission.DoesNotExist:
        raise TransferError(NO_SUCH_CASE.format(case_number=case_number)) from None
    assessments = []
    for assessment in submission.assessments.order_by("revision").select_related("engineer", "approved_by"):
        row = _dump_row(assessment, Assessment)
        row["scenarios"] = [_dump_row(s, Scenario) for s in assessment.scenarios.order_by("position", "id")]
        row["decisions"] = [
            _dump_row(d, ReviewDecision) for d in assessment.decisions.select_related("by").order_by("at", "id")
        ]
        if assessment.status == Status.APPROVED:
            row[SEALED_REPORTS] = export_rows(assessment)
        assessments.append(row)
    document: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "case": _dump_row(submission, Submission),
        "assessments": assessments,
    }
    # The apps' parts (contacts.transfer: "contact_reports", optional on import: an export
    # made before contact reports existed has none).
    document.update(events.exported_parts(submission=submission))
    return document


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


# Import --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseImport:
    """What an import wrote: the case, and what became of each approved revision's sealed
    copies (:class:`.sealed.SealOutcome`, revision by revision, full copy first)."""

    submission: Submission
    seals: list[SealOutcome]

    def summary(self) -> list[str]:
        """What the import says of the sealed copies, one line each."""
        return [outcome.message for outcome in self.seals]


def case_import(*, document: Mapping[str, Any], user_map: Mapping[str, str] | None = None) -> Submission:
    """Write the case of ``document`` (as :func:`loads` returns it) into this installation;
    :func:`case_import_report` says, besides, what became of the sealed copies.

    Raises ``TransferError`` with the reason, having written nothing, when the document
    is malformed, a row is invalid, a user is missing or the case number is taken.
    """
    return case_import_report(document=document, user_map=user_map).submission


def case_import_report(*, document: Mapping[str, Any], user_map: Mapping[str, str] | None = None) -> CaseImport:
    """:func:`case_import`, returning the case and what became of each sealed copy."""
    user_map = dict(user_map or {})
    scan(document, source="The case export")
    unknown = sorted(set(document) - TOP_LEVEL_KEYS)
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where="(top level)", fields=name_list(unknown)))
    exported_at = document.get("exported_at")
    if exported_at is not None and not (isinstance(exported_at, str) and parse_aware(exported_at)):
        raise TransferError(INVALID_VALUE.format(where="exported_at", problem="must be a date and time with its offset"))
    latest = latest_time(parse_aware(exported_at) if exported_at is not None else None)
    case = upgrade_case(expect_object(document.get("case"), "case"))
    assessments = [
        upgrade_assessment(expect_object(a, f"assessments[{i}]"))
        for i, a in enumerate(expect_list(document.get("assessments"), "assessments"))
    ]
    parts = events.imported_parts(document=document)  # the apps' parts (contacts.transfer)
    users = _resolve_users(case, assessments, user_map, also_named=set().union(*(p.user_names() for p in parts)))
    reason = IMPORT_REASON.format(exported_at=exported_at or "(unknown date)")
    try:
        with transaction.atomic():
            return CaseImport(*write(case, assessments, users, reason, parts, latest=latest))
    except TransferError:
        raise
    except (IntegrityError, DatabaseError, OverflowError, PermissionDenied) as exc:
        # PermissionDenied: models.ApprovedWorkLocked, which the order of ``writing.write`` avoids
        raise TransferError(WRITE_FAILED.format(error=_short(str(exc).strip().splitlines()[0], 200))) from None


def _rows(
    case: dict[str, Any], assessments: list[dict[str, Any]]
) -> Iterator[tuple[type[models.Model], dict[str, Any], str]]:
    """Every (model, row, where) of the document, parents first."""
    yield Submission, case, "case"
    for i, assessment in enumerate(assessments):
        where = f"assessments[{i}]"
        yield Assessment, assessment, where
        for j, scenario in enumerate(children(assessment, where, "scenarios")):
            yield Scenario, scenario, f"{where}.scenarios[{j}]"
        for j, decision in enumerate(children(assessment, where, "decisions")):
            yield ReviewDecision, decision, f"{where}.decisions[{j}]"


def _resolve_users(case: dict[str, Any], assessments: list[dict[str, Any]], user_map: Mapping[str, str],
                   also_named: Iterable[str] = frozenset()) -> dict[str, Any]:
    """User name in the file -> user here; refuses with every missing name at once."""
    named: set[str] = set(also_named)
    for model, row, where in _rows(case, assessments):
        for field in row_fields(model):
            if field.name in DERIVED.get(model, set()):
                continue
            if is_user_link(field) and row.get(field.name) is not None:
                if not isinstance(row[field.name], str):
                    raise TransferError(BAD_STRUCTURE.format(where=f"{where}.{field.name}", problem="expected a user name"))
                named.add(row[field.name])
    User = get_user_model()
    targets = {name: user_map.get(name, name) for name in named}
    found = {user.get_username(): user for user in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": set(targets.values())})}
    bad_targets = sorted({target for name, target in targets.items() if name in user_map and target not in found})
    if bad_targets:
        raise TransferError(MAPPED_TO_MISSING.format(usernames=name_list(bad_targets)))
    missing = sorted(name for name, target in targets.items() if target not in found)
    if missing:
        raise TransferError(MISSING_USERS.format(usernames=name_list(missing)))
    return {name: found[target] for name, target in targets.items()}
