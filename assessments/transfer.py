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
                      "decisions": [{<ReviewDecision fields>}, ...]}, ...],
     "contact_reports": [{<ContactReport fields>, "revisions": [1, ...]}, ...]}

``contact_reports`` is optional on import and is checked by ``contacts.transfer``.

Every concrete field of each model is written except the primary key and the link to
the parent row, so a field added to a model travels without touching this module. Users
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
- An approved revision's ``case_snapshot`` (the case as it was approved) is checked as the
  case is; it is null for any other revision. A file without one (exported before
  migration 0012) gets the case's data, as that migration gave it.
- The file is checked completely before anything is kept; the import runs in one
  transaction: it writes the whole case or nothing.
- A file exported before migration 0011 (``import_only``, ``sat_migration`` and
  ``pbt_rating`` on the case; no ``assessment_date`` on a revision) is read as that
  migration rewrote the database, with the same functions (:func:`_upgrade_case`,
  :func:`_upgrade_assessment`): nothing in it is lost.
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
import math
from datetime import timedelta
from typing import Any, Iterator, Mapping

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models.functions import Trim, Upper
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .esd import registry
from .esd.parameters import ALL, CHOICE, EngineValidationError, each_input
from .esd.results import ENGINE_VERSION
from .esd.site_data import SITE_SPECIFIC, STEP as SITE_STEP, parse_entries
from .engine_results import engine_result_difference, join_path as _join, short as _short, show as _show
from .limits import TEXT_LIMITS, text_error
from .models import (
    CASE_SNAPSHOT_FIELDS, Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission, VolumeQualifier,
    as_printed, case_snapshot, normalise_case_number, parse_groundwater_migration, parse_pbt_rating, refresh_latest_assessment, split_occupational_exposure_rating,
)
from .roles import SUPERVISOR_GROUP, is_supervisor
from contacts import transfer as contact_transfer

FORMAT = "pmn-review-case"
FORMAT_VERSION = 1

#: The largest file ``import_case`` reads (bytes), checked before parsing. A case export
#: is tens of KiB (a computed use's result is 8 to 24 KiB; README "Performance").
MAX_FILE_BYTES = 20 * 1024 * 1024
#: How deep the JSON may nest; an export nests about 10 levels (a result's estimates).
MAX_NESTING = 64
#: Float noise allowed between a stored result and the engine's recompute of it.
#: How far an approval's ``approved_at`` may lie from its approve decision's time: the
#: workflow stamps both in one transaction, a few milliseconds apart.
APPROVAL_TIME_TOLERANCE = timedelta(minutes=1)

NO_SUCH_CASE = "No case {case_number} in this installation."
NOT_UTF8 = "{source} is not UTF-8 text."
TOO_LARGE = (
    "{source} is larger than {limit} MB, more than any case export: import refused, nothing was written."
)
NOT_JSON = "{source} is not valid JSON: {error}."
TOO_DEEP = "{source} nests deeper than {limit} levels, more than any case export: import refused."
NOT_AN_OBJECT = "{source} is not a case export: its top level is {kind}, not a JSON object."
NOT_A_CASE_EXPORT = "{source} is not a case export: expected \"format\": \"pmn-review-case\"."
UNSUPPORTED_VERSION = "{source} has format_version {version!r}; this installation reads format_version 1."
BAD_STRUCTURE = "{where}: {problem}."
UNKNOWN_FIELDS = "{where}: unknown field(s) {fields}."
INVALID_ROW = "{where}: {errors}"
INVALID_VALUE = "{where}: {problem}"
NOT_FINITE = "must be a finite number"
NUL_IN_TEXT = "must not contain NUL characters (PostgreSQL cannot store them)"
NOT_UNICODE = "must be text: it holds a lone surrogate (\\ud800 to \\udfff), which is not a character"
DUPLICATE_KEY = "the key {key} appears more than once in this object"
CASE_EXISTS = "Case {case_number} exists already in this installation: import refused, nothing was written."
MISSING_USERS = (
    "These users do not exist in this installation: {usernames}. Create them first, or map each to an "
    "existing user with --map-user OLD=NEW. Nothing was written."
)
MAPPED_TO_MISSING = "--map-user maps to user(s) that do not exist here: {usernames}."
WRITE_FAILED = "The database refused the case ({error}); nothing was written."
IMPORT_REASON = "Imported from a case export made {exported_at}."
ENGINE_VERSION_DIFFERS = (
    "{where}: computed by engine version {stored}; this installation runs engine version {running}, "
    "so the stored result cannot be checked: import refused. Import it into an installation running "
    "engine {stored}."
)
RESULT_WITHOUT_COMPUTATION = "a stored result needs its computed_inputs and computed_at"
COMPUTATION_WITHOUT_RESULT = "must be null when there is no stored result"
REASON_MISSING = "an input other than its default needs a reason (reasons.{symbol})"
REASON_TOO_LONG = "is {length:,} characters long; at most {limit:,} are allowed"
UNKNOWN_STEP = "must be empty or one of the scenario's steps: {steps}"
TRAIL_FROM = "is {found!r}, but the revision was {expected!r} at that point"
TRAIL_STEP = "{action} from {from_status!r} to {to_status!r} is not a step of the review workflow"
TRAIL_ORDER = "is earlier than the decision before it"
TRAIL_SUBMITTER = "{user} is not the revision's engineer ({engineer}), who alone submits or withdraws it"
TRAIL_NOT_SUPERVISOR = "{user} is not a supervisor here: only a supervisor approves or returns a revision"
TRAIL_OWN_WORK = "{user} is the revision's engineer: another supervisor must approve or return it"
TRAIL_RETURN_COMMENT = "a return needs a comment saying what must change"
TRAIL_END = (
    "is {status!r}, but its review decisions leave it {reached!r} (an approved revision needs a submit decision "
    "by its engineer, then an approve decision by another supervisor)"
)
APPROVED_BY_MISMATCH = "must be {expected}, who made the approve decision (the file has {found})"
APPROVED_AT_MISMATCH = "must be the time of the approve decision ({expected}; the file has {found})"
NOT_APPROVED_YET = "must be null: the revision is not approved"
SNAPSHOT_NOT_AN_OBJECT = "must be a JSON object of the case's fields as approved, or null"
NO_USES = "a {status} revision has at least one use (scenario)"
USE_NOT_CURRENT = "a {status} revision's uses are all computed from their present inputs; this one is {state}"
VOLUME_REASON = "{message} A {status} revision gives the reason."
REVISION_NUMBERS = "revisions must be numbered 1, 2, 3 ... without gaps; the file has {found}"
REVISION_NOT_APPROVED = (
    "revision {revision} is {status}, but revision {next} follows it: only an approved revision is copied "
    "into a new one"
)

TOP_LEVEL_KEYS = {"format", "format_version", "exported_at", "case", "assessments", "contact_reports"}


class TransferError(Exception):
    """Bad input or a refused import; the message says which and why."""


# Which fields travel, and how -----------------------------------------------------------------

# Fields that are links to the parent row (implied by nesting) or derived here.
PARENT_LINKS = {Assessment: {"submission"}, Scenario: {"assessment"}, ReviewDecision: {"assessment"}}
# Fields that do not travel: a deleted use (waiting for an undo) is not exported.
NOT_EXPORTED = {Scenario: {"deleted_at"}}
# Submission.save() derives is_cbi from cbi_claims; the import the latest assessment's
# copy (models.refresh_latest_assessment) from the assessments it writes. Both are exported.
DERIVED = {Submission: {"is_cbi", *Submission.LATEST_FIELDS}}


def _fields(model) -> list[models.Field]:
    skip = PARENT_LINKS.get(model, set()) | NOT_EXPORTED.get(model, set())
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in skip]


def _is_user_link(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _dump_row(instance, model) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for field in _fields(model):
        if _is_user_link(field):
            user = getattr(instance, field.name)
            row[field.name] = user.get_username() if user else None
        elif isinstance(field, models.DateField):  # a DateTimeField too
            value = field.value_from_object(instance)
            row[field.name] = value.isoformat() if value else None
        else:
            row[field.name] = field.value_from_object(instance)
    return row


# Export --------------------------------------------------------------------------------------


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
        assessments.append(row)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "case": _dump_row(submission, Submission),
        "assessments": assessments,
        # Optional on import (contacts.transfer): an export made before contact reports existed has none.
        "contact_reports": contact_transfer.export_rows(submission),
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


# Reading the file ----------------------------------------------------------------------------


class _NonFinite:
    """Where the file has ``NaN``, ``Infinity`` or a number beyond a double: kept as a
    marker while parsing so that the refusal can name the place (see :func:`_scan`)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _parse_float(text: str):
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


class _RepeatedKeys(dict):
    """An object in which a key appeared twice (JSON allows it; Python keeps the last)."""

    repeated: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict:
    obj: dict = {}
    repeated = []
    for key, value in pairs:
        if key in obj:
            repeated.append(key)
        obj[key] = value
    if repeated:
        obj = _RepeatedKeys(obj)
        obj.repeated = repeated
    return obj


def loads(data: bytes | str, *, source: str) -> dict[str, Any]:
    """Parse a case export (the file's bytes, or its text); ``TransferError`` if it is not one."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise TransferError(TOO_LARGE.format(source=source, limit=MAX_FILE_BYTES // (1024 * 1024)))
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise TransferError(NOT_UTF8.format(source=source)) from None
    try:
        document = json.loads(
            data, parse_constant=_NonFinite, parse_float=_parse_float, object_pairs_hook=_object_pairs
        )
    except RecursionError:
        raise TransferError(TOO_DEEP.format(source=source, limit=MAX_NESTING)) from None
    except ValueError as exc:  # JSONDecodeError, or an integer of more than 4300 digits
        raise TransferError(NOT_JSON.format(source=source, error=_short(str(exc), 200))) from None
    if not isinstance(document, dict):
        kind = {list: "a JSON list", str: "a string", bool: "true or false", type(None): "null"}.get(
            type(document), "a number"
        )
        raise TransferError(NOT_AN_OBJECT.format(source=source, kind=kind))
    _scan(document, source=source)
    if document.get("format") != FORMAT:
        raise TransferError(NOT_A_CASE_EXPORT.format(source=source))
    version = document.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise TransferError(UNSUPPORTED_VERSION.format(source=source, version=version))
    return document


def _scan(document: Any, *, source: str) -> None:
    """Refuse, naming the place, what no row may hold: a non-finite number, a NUL or a
    lone surrogate in any text (keys too), a key twice in one object, nesting deeper than
    :data:`MAX_NESTING`. Iterative, so no depth can exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_NESTING:
            raise TransferError(TOO_DEEP.format(source=source, limit=MAX_NESTING))
        if isinstance(value, _NonFinite) or (isinstance(value, float) and not math.isfinite(value)):
            raise TransferError(INVALID_VALUE.format(where=where or "(top level)", problem=NOT_FINITE))
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            try:
                float(value)
            except OverflowError:
                raise TransferError(INVALID_VALUE.format(where=where, problem=NOT_FINITE)) from None
        elif isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, dict):
            if isinstance(value, _RepeatedKeys):
                key = _short(json.dumps(value.repeated[0], ensure_ascii=False))
                raise TransferError(INVALID_VALUE.format(where=where or "(top level)", problem=DUPLICATE_KEY.format(key=key)))
            children = []
            for key, item in value.items():
                _check_text(key, f"{where} (a key)" if where else "(a top-level key)")
                children.append((item, _join(where, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]))


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise TransferError(INVALID_VALUE.format(where=where, problem=NUL_IN_TEXT))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TransferError(INVALID_VALUE.format(where=where, problem=NOT_UNICODE)) from None


# Import --------------------------------------------------------------------------------------


def case_import(*, document: Mapping[str, Any], user_map: Mapping[str, str] | None = None) -> Submission:
    """Write the case of ``document`` (as :func:`loads` returns it) into this installation.

    Raises ``TransferError`` with the reason, having written nothing, when the document
    is malformed, a row is invalid, a user is missing or the case number is taken.
    """
    user_map = dict(user_map or {})
    _scan(document, source="The case export")
    unknown = sorted(set(document) - TOP_LEVEL_KEYS)
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where="(top level)", fields=_names(unknown)))
    exported_at = document.get("exported_at")
    if exported_at is not None and not (isinstance(exported_at, str) and _parse_aware(exported_at)):
        raise TransferError(INVALID_VALUE.format(where="exported_at", problem="must be a date and time with its offset"))
    case = _upgrade_case(_object(document.get("case"), "case"))
    assessments = [
        _upgrade_assessment(_object(a, f"assessments[{i}]"))
        for i, a in enumerate(_list(document.get("assessments"), "assessments"))
    ]
    contacts = contact_transfer.ContactImport(document.get("contact_reports"))
    users = _resolve_users(case, assessments, user_map, also_named=contacts.user_names())
    reason = IMPORT_REASON.format(exported_at=exported_at or "(unknown date)")
    try:
        with transaction.atomic():
            return _write(case, assessments, users, reason, contacts)
    except TransferError:
        raise
    except (IntegrityError, DatabaseError, OverflowError, PermissionDenied) as exc:
        # PermissionDenied: models.ApprovedWorkLocked, which the order of _write avoids
        raise TransferError(WRITE_FAILED.format(error=_short(str(exc).strip().splitlines()[0], 200))) from None


# A file exported before migration 0011 (the IRER header as ChemSTEER prints it) is read as
# that migration rewrote the database, with the same functions: nothing in it is lost.
LEGACY_CASE_FIELDS = ("import_only", "sat_migration", "pbt_rating")


def _upgrade_case(case: dict) -> dict:
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


def _upgrade_assessment(row: dict) -> dict:
    """An assessment row from before migration 0011 (no ``assessment_date``): its date the
    day it was created, and a rating that is not one of ChemSTEER's moved to its notes."""
    if "assessment_date" in row:
        return row
    row = dict(row)
    created = _parse_aware(row["created_at"]) if isinstance(row.get("created_at"), str) else None
    if created is not None:
        row["assessment_date"] = timezone.localdate(created).isoformat()
    rating, notes = row.get("occupational_exposure_rating"), row.get("notes", "")
    if isinstance(rating, str) and isinstance(notes, str):
        row["occupational_exposure_rating"], row["notes"] = split_occupational_exposure_rating(rating, notes)
    return row


def _names(names) -> str:
    return ", ".join(_short(str(name)) for name in names)


def _parse_aware(text: str):
    try:
        value = parse_datetime(text)
    except ValueError:
        return None
    return value if value is not None and timezone.is_aware(value) else None


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON object"))
    return value


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON list"))
    return value


def _children(assessment: dict, where: str, key: str) -> list[dict]:
    rows = _list(assessment.get(key, []), f"{where}.{key}")
    return [_object(row, f"{where}.{key}[{j}]") for j, row in enumerate(rows)]


def _rows(case: dict, assessments: list[dict]) -> Iterator[tuple[type, dict, str]]:
    """Every (model, row, where) of the document, parents first."""
    yield Submission, case, "case"
    for i, assessment in enumerate(assessments):
        where = f"assessments[{i}]"
        yield Assessment, assessment, where
        for j, scenario in enumerate(_children(assessment, where, "scenarios")):
            yield Scenario, scenario, f"{where}.scenarios[{j}]"
        for j, decision in enumerate(_children(assessment, where, "decisions")):
            yield ReviewDecision, decision, f"{where}.decisions[{j}]"


def _resolve_users(case, assessments, user_map, also_named: set[str] = frozenset()) -> dict[str, Any]:
    """User name in the file -> user here; refuses with every missing name at once."""
    named: set[str] = set(also_named)
    for model, row, where in _rows(case, assessments):
        for field in _fields(model):
            if field.name in DERIVED.get(model, set()):
                continue
            if _is_user_link(field) and row.get(field.name) is not None:
                if not isinstance(row[field.name], str):
                    raise TransferError(BAD_STRUCTURE.format(where=f"{where}.{field.name}", problem="expected a user name"))
                named.add(row[field.name])
    User = get_user_model()
    targets = {name: user_map.get(name, name) for name in named}
    found = {user.get_username(): user for user in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": set(targets.values())})}
    bad_targets = sorted({target for name, target in targets.items() if name in user_map and target not in found})
    if bad_targets:
        raise TransferError(MAPPED_TO_MISSING.format(usernames=_names(bad_targets)))
    missing = sorted(name for name, target in targets.items() if target not in found)
    if missing:
        raise TransferError(MISSING_USERS.format(usernames=_names(missing)))
    return {name: found[target] for name, target in targets.items()}


# One row: its JSON types, the model's validation, the text limits ------------------------------


def _type_problem(field: models.Field, value: Any) -> str:
    """What is wrong with the JSON type of ``value`` for ``field`` (``""``: nothing). The
    export writes each field as one JSON type; the import takes no other (no "5000" for a
    number, no list for a text)."""
    if value is None or isinstance(field, models.JSONField):
        return ""
    if _is_user_link(field) or isinstance(field, (models.CharField, models.TextField)):
        return "" if isinstance(value, str) else "must be text"
    if isinstance(field, models.BooleanField):
        return "" if isinstance(value, bool) else "must be true or false"
    if isinstance(field, models.FloatField):
        return "" if isinstance(value, (int, float)) and not isinstance(value, bool) else NOT_FINITE
    if isinstance(field, models.IntegerField):
        return "" if isinstance(value, int) and not isinstance(value, bool) else "must be a whole number"
    if isinstance(field, models.DateField) and not isinstance(field, models.DateTimeField):
        return "" if isinstance(value, str) and len(value) <= 40 else "must be a date (ISO 8601, e.g. 2018-02-15)"
    if isinstance(field, models.DateTimeField):
        if not isinstance(value, str) or len(value) > 40:
            return "must be a date and time (ISO 8601, with its offset)"
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None  # to_python says what is wrong with it
        if parsed is not None and timezone.is_naive(parsed):
            return "must give its offset from UTC (e.g. 2026-02-15T14:00:00+00:00)"
    return ""


def _build(model, row: dict, where: str, users: dict, **parents) -> models.Model:
    """An unsaved instance of ``model`` from ``row``; ``TransferError`` for unknown fields
    and values of the wrong JSON type."""
    nested = {"scenarios", "decisions"} if model is Assessment else set()
    allowed = {f.name for f in _fields(model)} | nested
    unknown = sorted(set(row) - allowed)
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where=where, fields=_names(unknown)))
    instance = model(**parents)
    fields = [f for f in _fields(model) if f.name not in DERIVED.get(model, set())]
    set_fields(instance, fields, row, where, users)
    return instance


def set_fields(instance: models.Model, fields: list[models.Field], row: dict, where: str, users: dict) -> None:
    """Set ``instance``'s ``fields`` from ``row`` as exported (users by user name): each
    value's JSON type, then the field's own conversion; ``TransferError`` naming the place.
    Automatic timestamps are written as exported (a raw save), so they must be there. The
    one reading of an exported row, for every model a case export carries."""
    for field in fields:
        if field.name not in row:
            continue
        value = row[field.name]
        problem = _type_problem(field, value)
        if problem:
            raise TransferError(INVALID_VALUE.format(where=f"{where}.{field.name}", problem=problem))
        if _is_user_link(field):
            setattr(instance, field.name, users[value] if value is not None else None)
            continue
        try:
            setattr(instance, field.attname, field.to_python(value) if value is not None else None)
        except ValidationError as exc:
            raise TransferError(INVALID_ROW.format(where=f"{where}.{field.name}", errors=" ".join(exc.messages))) from None
        except (TypeError, ValueError, OverflowError):
            raise TransferError(INVALID_VALUE.format(where=f"{where}.{field.name}", problem="is not a valid value")) from None
    for field in fields:
        automatic = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        if automatic and getattr(instance, field.attname) is None:
            raise TransferError(INVALID_ROW.format(where=f"{where}.{field.name}", errors="a date and time is required."))


def _check(instance, where: str) -> None:
    """The model's own validation, then the free-text limits every way in applies."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        errors = "; ".join(
            _short(f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages), 300)
            for name, messages in exc.message_dict.items()
        )
        raise TransferError(INVALID_ROW.format(where=where, errors=errors)) from None
    for field in _fields(type(instance)):
        if field.name in TEXT_LIMITS and isinstance(getattr(instance, field.attname), str):
            label = str(field.verbose_name).capitalize()
            message = text_error(getattr(instance, field.attname), label=label, limit=TEXT_LIMITS[field.name])
            if message:
                raise TransferError(INVALID_ROW.format(where=where, errors=f"{field.name}: {message}"))


# A scenario: the engine's checks ---------------------------------------------------------------


def _engine_problems(errors: Mapping[str, str], where: str) -> str:
    """The engine's errors (keyed by symbol, ``site_specific[i].SYMBOL`` or ``__all__``) as places in the file."""

    def place(key: str) -> str:
        if key == ALL:
            return where
        return f"{where}.{key}" if key.startswith(f"{SITE_SPECIFIC}[") else _join(where, key)

    return "; ".join(f"{place(key)}: {message}" for key, message in errors.items())


def _check_inputs(engine: registry.Scenario, inputs: Any, where: str) -> dict:
    """``inputs`` as the wizard stores them: a JSON object of the scenario's symbols, each
    value of its declared type and within its declared range (``Param.coerce``/``check``),
    the required ones given, and ``site_specific`` entries as the engine parses them."""
    if not isinstance(inputs, dict):
        raise TransferError(INVALID_VALUE.format(where=where, problem="must be a JSON object of {symbol: value}"))
    params = engine.params
    errors: dict[str, str] = {}
    own: dict[str, Any] = {}
    for symbol, raw in inputs.items():
        if symbol == SITE_SPECIFIC:
            try:
                parse_entries(raw)
            except EngineValidationError as exc:
                errors.update(exc.errors)
            continue
        if symbol in params:  # the export writes numbers as numbers and choices as text
            param = params[symbol]
            is_number = isinstance(raw, (int, float)) and not isinstance(raw, bool)
            if (param.kind == CHOICE and not isinstance(raw, str)) or (param.kind != CHOICE and not is_number):
                what = "one of the choices" if param.kind == CHOICE else "a number"
                errors[symbol] = f"must be {what} ({param.range_text()})"
                continue
        own[symbol] = raw
    _, problems = each_input(params, own)  # the engine's own checks of each input
    errors.update({k: v for k, v in problems.items() if k not in errors})
    if errors:
        raise TransferError(_engine_problems(errors, where))
    return inputs


def _reason_limit(engine: registry.Scenario, symbol: str) -> int | None:
    """The wizard's length limit on the reason for ``symbol`` (its form declares it)."""
    from .forms.scenarios import REASON_PREFIX, step_form_class

    field = step_form_class(engine.key, engine.params[symbol].step).base_fields.get(REASON_PREFIX + symbol)
    return getattr(field, "max_length", None)


def _check_reasons(engine: registry.Scenario, inputs: dict, reasons: Any, where: str) -> None:
    from .services import needs_reason

    if not isinstance(reasons, dict) or not all(isinstance(v, str) for v in reasons.values()):
        raise TransferError(INVALID_VALUE.format(where=f"{where}.reasons", problem="must be a JSON object of {symbol: text}"))
    for symbol, reason in reasons.items():
        if symbol in engine.params:
            limit = _reason_limit(engine, symbol)
            if limit is not None and len(reason) > limit:
                problem = REASON_TOO_LONG.format(length=len(reason), limit=limit)
                raise TransferError(INVALID_VALUE.format(where=_join(f"{where}.reasons", symbol), problem=problem))
    for symbol, raw in inputs.items():
        if symbol in engine.params and needs_reason(engine.params[symbol], engine.params[symbol].coerce(raw)):
            if not reasons.get(symbol, "").strip():
                raise TransferError(
                    INVALID_VALUE.format(where=_join(f"{where}.inputs", symbol), problem=REASON_MISSING.format(symbol=symbol))
                )


def _check_scenario(scenario: Scenario, where: str) -> None:
    """The engine's checks of one use: its key, inputs, reasons, wizard step, and its
    stored result against a recompute."""
    try:
        engine = registry.get(scenario.scenario_key)
    except EngineValidationError as exc:
        raise TransferError(INVALID_VALUE.format(where=f"{where}.scenario_key", problem=exc.errors[ALL])) from None
    inputs = _check_inputs(engine, scenario.inputs, f"{where}.inputs")
    _check_reasons(engine, inputs, scenario.reasons, where)
    steps = [step.key for step in engine.params.steps] + [SITE_STEP]  # the wizard's "Submitter's site data" last
    if scenario.current_step and scenario.current_step not in steps:
        problem = UNKNOWN_STEP.format(steps=", ".join(steps))
        raise TransferError(INVALID_VALUE.format(where=f"{where}.current_step", problem=problem))
    if scenario.result is None:
        for name in ("computed_inputs", "computed_at"):
            if getattr(scenario, name) is not None:
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{name}", problem=COMPUTATION_WITHOUT_RESULT))
        return
    if not isinstance(scenario.result, dict):
        raise TransferError(INVALID_VALUE.format(where=f"{where}.result", problem="must be a JSON object or null"))
    if scenario.computed_inputs is None or scenario.computed_at is None:
        raise TransferError(INVALID_VALUE.format(where=f"{where}.result", problem=RESULT_WITHOUT_COMPUTATION))
    computed_inputs = _check_inputs(engine, scenario.computed_inputs, f"{where}.computed_inputs")
    stored_version = scenario.result.get("engine_version")
    if stored_version != ENGINE_VERSION:
        raise TransferError(
            ENGINE_VERSION_DIFFERS.format(
                where=f"{where}.result.engine_version", stored=_show(stored_version), running=ENGINE_VERSION
            )
        )
    try:
        registry.compute(engine.key, computed_inputs)
    except EngineValidationError as exc:
        raise TransferError(_engine_problems(exc.errors, f"{where}.computed_inputs")) from None
    difference = engine_result_difference(
        scenario_key=engine.key, computed_inputs=computed_inputs, stored=scenario.result, where=f"{where}.result"
    )
    if difference:
        raise TransferError(difference)


# A revision: its review trail ------------------------------------------------------------------


def _is_supervisor_here(user) -> bool:
    """A supervisor of this installation: in the supervisor group (also when no longer
    active) or holding the review permission."""
    return user.groups.filter(name=SUPERVISOR_GROUP).exists() or is_supervisor(user)


def _check_trail(assessment: Assessment, decisions: list[ReviewDecision], where: str) -> None:
    """The decisions must be a path the workflow takes (``workflow.TRANSITIONS``), by the
    people the workflow lets act, ending at the revision's status."""
    from .workflow import TRANSITIONS

    status, previous_at, approval = Status.DRAFT, None, None
    for j, decision in enumerate(decisions):
        at = f"{where}.decisions[{j}]"
        user = decision.by.get_username()
        if decision.from_status != status:
            problem = TRAIL_FROM.format(found=str(decision.from_status), expected=str(status))
            raise TransferError(INVALID_VALUE.format(where=f"{at}.from_status", problem=problem))
        if TRANSITIONS.get((decision.from_status, decision.action)) != decision.to_status:
            problem = TRAIL_STEP.format(
                action=str(decision.action), from_status=str(decision.from_status), to_status=str(decision.to_status)
            )
            raise TransferError(INVALID_VALUE.format(where=at, problem=problem))
        if previous_at is not None and decision.at < previous_at:
            raise TransferError(INVALID_VALUE.format(where=f"{at}.at", problem=TRAIL_ORDER))
        if decision.action in (DecisionAction.SUBMIT, DecisionAction.WITHDRAW) and decision.by_id != assessment.engineer_id:
            problem = TRAIL_SUBMITTER.format(user=user, engineer=assessment.engineer.get_username())
            raise TransferError(INVALID_VALUE.format(where=f"{at}.by", problem=problem))
        if decision.action in (DecisionAction.APPROVE, DecisionAction.RETURN):
            if decision.by_id == assessment.engineer_id:
                raise TransferError(INVALID_VALUE.format(where=f"{at}.by", problem=TRAIL_OWN_WORK.format(user=user)))
            if not _is_supervisor_here(decision.by):
                raise TransferError(INVALID_VALUE.format(where=f"{at}.by", problem=TRAIL_NOT_SUPERVISOR.format(user=user)))
        if decision.action == DecisionAction.RETURN and not decision.comment.strip():
            raise TransferError(INVALID_VALUE.format(where=f"{at}.comment", problem=TRAIL_RETURN_COMMENT))
        if decision.action == DecisionAction.APPROVE:
            approval = decision
        status, previous_at = decision.to_status, decision.at
    if assessment.status != status:
        problem = TRAIL_END.format(status=str(assessment.status), reached=str(status))
        raise TransferError(INVALID_VALUE.format(where=f"{where}.status", problem=problem))
    if assessment.status == Status.APPROVED:
        if assessment.approved_by_id != approval.by_id:
            problem = APPROVED_BY_MISMATCH.format(
                expected=approval.by.get_username(), found=assessment.approved_by.get_username()
            )
            raise TransferError(INVALID_VALUE.format(where=f"{where}.approved_by", problem=problem))
        if abs(assessment.approved_at - approval.at) > APPROVAL_TIME_TOLERANCE:
            problem = APPROVED_AT_MISMATCH.format(expected=approval.at.isoformat(), found=assessment.approved_at.isoformat())
            raise TransferError(INVALID_VALUE.format(where=f"{where}.approved_at", problem=problem))
    else:
        for name in ("approved_by", "approved_at"):
            if getattr(assessment, name) is not None:
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{name}", problem=NOT_APPROVED_YET))


def _check_reviewed_uses(assessment: Assessment, scenarios: list[Scenario], where: str) -> None:
    """A submitted or approved revision passed the submission's checks
    (``workflow.assessment_submit``): uses, all current, the volume reason."""
    from . import selectors

    if assessment.status not in (Status.SUBMITTED, Status.APPROVED):
        return
    if not scenarios:
        raise TransferError(INVALID_VALUE.format(where=f"{where}.scenarios", problem=NO_USES.format(status=assessment.status)))
    for j, scenario in enumerate(scenarios):
        state = selectors.scenario_state(scenario)
        if state != selectors.CURRENT:
            problem = USE_NOT_CURRENT.format(status=assessment.status, state=state)
            raise TransferError(INVALID_VALUE.format(where=f"{where}.scenarios[{j}]", problem=problem))
    volume = selectors.uses_volume(assessment=assessment, scenarios=scenarios)
    if volume["excess"] and not assessment.volume_excess_reason.strip():
        problem = VOLUME_REASON.format(message=volume["message"], status=assessment.status)
        raise TransferError(INVALID_VALUE.format(where=f"{where}.volume_excess_reason", problem=problem))


def _check_case_snapshot(assessment: Assessment, submission: Submission, where: str) -> None:
    """The case as an approved revision keeps it (``case_snapshot``): null unless approved;
    for an approved revision, the case's fields as the case itself is checked (a file
    exported before snapshots existed has none: the case's data is taken, as migration
    0012 took it)."""
    at = f"{where}.case_snapshot"
    snapshot = assessment.case_snapshot
    if assessment.status != Status.APPROVED:
        if snapshot is not None:
            raise TransferError(INVALID_VALUE.format(where=at, problem=NOT_APPROVED_YET))
        return
    if snapshot is None:
        assessment.case_snapshot = case_snapshot(submission)
        return
    if not isinstance(snapshot, dict):
        raise TransferError(INVALID_VALUE.format(where=at, problem=SNAPSHOT_NOT_AN_OBJECT))
    unknown = sorted(set(snapshot) - set(CASE_SNAPSHOT_FIELDS))
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where=at, fields=_names(unknown)))
    as_approved = Submission()
    set_fields(as_approved, [Submission._meta.get_field(name) for name in CASE_SNAPSHOT_FIELDS], snapshot, at, {})
    try:
        as_approved.full_clean(validate_unique=False)
    except ValidationError as exc:
        errors = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items())
        raise TransferError(INVALID_ROW.format(where=at, errors=_short(errors, 300))) from None
    for name, limit in TEXT_LIMITS.items():
        if isinstance(getattr(as_approved, name, None), str):
            message = text_error(getattr(as_approved, name), label=name, limit=limit)
            if message:
                raise TransferError(INVALID_ROW.format(where=at, errors=f"{name}: {message}"))
    assessment.case_snapshot = case_snapshot(as_approved)


def _check_revisions(assessments: list[Assessment]) -> None:
    numbers = sorted(a.revision for a in assessments)
    if numbers != list(range(1, len(numbers) + 1)):
        problem = REVISION_NUMBERS.format(found=", ".join(str(n) for n in numbers))
        raise TransferError(INVALID_VALUE.format(where="assessments", problem=problem))
    by_number = {a.revision: (i, a) for i, a in enumerate(assessments)}
    for number in numbers[:-1]:
        i, assessment = by_number[number]
        if assessment.status != Status.APPROVED:
            problem = REVISION_NOT_APPROVED.format(revision=number, status=assessment.status, next=number + 1)
            raise TransferError(INVALID_VALUE.format(where=f"assessments[{i}].status", problem=problem))


# Writing -------------------------------------------------------------------------------------


def _write(case: dict, assessments: list[dict], users: dict, reason: str, contacts=None) -> Submission:
    """Build, check and save every row (inside the caller's transaction: a refusal at any
    row rolls back the rows saved before it).

    Approved work is final (``models.ApprovedWorkLocked``; on PostgreSQL, triggers): no
    use or decision may be added under an approved revision, except the approval's own
    decision. An approved revision is therefore written as the workflow writes it:
    submitted, with its uses and its decisions up to the submission; then approved; then
    the approve decision."""
    submission = _build(Submission, case, "case", users)
    submission.case_number = normalise_case_number(submission.case_number)
    if submission.case_number and (
        Submission.objects.annotate(normalised=Upper(Trim("case_number")))
        .filter(normalised=submission.case_number)
        .exists()
    ):
        raise TransferError(CASE_EXISTS.format(case_number=submission.case_number))
    submission.is_cbi = bool(submission.cbi_claims)
    _check(submission, "case")
    saved = [_save_raw(submission)]
    contacts = contacts or contact_transfer.ContactImport(None)
    contacts.write_reports(submission, users)  # linked to each revision below, before its approval
    revisions = []
    for i, row in enumerate(assessments):
        where = f"assessments[{i}]"
        assessment = _build(Assessment, row, where, users, submission=submission)
        _check(assessment, where)
        _check_case_snapshot(assessment, submission, where)
        approved = assessment.status == Status.APPROVED
        final = (assessment.status, assessment.approved_by, assessment.approved_at)
        if approved:
            assessment.status, assessment.approved_by, assessment.approved_at = Status.SUBMITTED, None, None
        saved.append(_save_raw(assessment))
        contacts.link(assessment)
        assessment.status, assessment.approved_by, assessment.approved_at = final
        revisions.append(assessment)
        scenarios = []
        for j, scenario_row in enumerate(_children(row, where, "scenarios")):
            at = f"{where}.scenarios[{j}]"
            scenario = _build(Scenario, scenario_row, at, users, assessment=assessment)
            _check(scenario, at)
            _check_scenario(scenario, at)
            saved.append(_save_raw(scenario))
            scenarios.append(scenario)
        decisions = []
        for j, decision_row in enumerate(_children(row, where, "decisions")):
            at = f"{where}.decisions[{j}]"
            decision = _build(ReviewDecision, decision_row, at, users, assessment=assessment)
            _check(decision, at)
            decisions.append(decision)
        _check_trail(assessment, decisions, where)  # an approved revision's last decision is its approval
        _check_reviewed_uses(as_printed(assessment), scenarios, where)  # against the case as approved
        saved.extend(_save_raw(decision) for decision in (decisions[:-1] if approved else decisions))
        if approved:
            _save_raw(assessment)  # submitted -> approved
            saved.append(_save_raw(decisions[-1]))
    _check_revisions(revisions)
    saved.extend(contacts.finish(revisions))
    refresh_latest_assessment(submission_ids=[submission.pk])
    _start_history(saved, reason)
    return submission


def _save_raw(instance):
    """Save exactly the values given: a raw save (as ``loaddata`` does) leaves the
    ``auto_now``/``auto_now_add`` timestamps as exported. A raw save writes no history
    record; :func:`_start_history` writes one for every row."""
    instance.save_base(raw=True)
    return instance


def _start_history(instances, reason: str) -> None:
    by_model: dict[type, list] = {}
    for instance in instances:
        by_model.setdefault(type(instance), []).append(instance)
    for model, rows in by_model.items():
        model.history.bulk_history_create(rows, default_change_reason=reason)
