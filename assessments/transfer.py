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
                      "decisions": [{<ReviewDecision fields>}, ...]}, ...]}

Every concrete field of each model is written except the primary key and the link to
the parent row, so a field added to a model travels without touching this module. Users
are written by user name. Dates are ISO 8601 with their offset; numbers keep full
precision (JSON floats round-trip exactly).

Import rules:

- The file is checked completely before anything is written; the import then runs in
  one transaction: it writes the whole case or nothing.
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
from typing import Any, Mapping

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone

from .models import Assessment, ReviewDecision, Scenario, Submission

FORMAT = "pmn-review-case"
FORMAT_VERSION = 1

NO_SUCH_CASE = "No case {case_number} in this installation."
NOT_JSON = "{source} is not valid JSON: {error}."
NOT_A_CASE_EXPORT = "{source} is not a case export: expected \"format\": \"pmn-review-case\"."
UNSUPPORTED_VERSION = "{source} has format_version {version!r}; this installation reads format_version 1."
BAD_STRUCTURE = "{where}: {problem}."
UNKNOWN_FIELDS = "{where}: unknown field(s) {fields}."
INVALID_ROW = "{where}: {errors}"
CASE_EXISTS = "Case {case_number} exists already in this installation: import refused, nothing was written."
MISSING_USERS = (
    "These users do not exist in this installation: {usernames}. Create them first, or map each to an "
    "existing user with --map-user OLD=NEW. Nothing was written."
)
MAPPED_TO_MISSING = "--map-user maps to user(s) that do not exist here: {usernames}."
WRITE_FAILED = "The database refused the case ({error}); nothing was written."
IMPORT_REASON = "Imported from a case export made {exported_at}."


class TransferError(Exception):
    """Bad input or a refused import; the message says which and why."""


# Which fields travel, and how -----------------------------------------------------------------

# Fields that are links to the parent row (implied by nesting) or derived here.
PARENT_LINKS = {Assessment: {"submission"}, Scenario: {"assessment"}, ReviewDecision: {"assessment"}}
DERIVED = {Submission: {"is_cbi"}}  # Submission.save() derives it from cbi_claims


def _fields(model) -> list[models.Field]:
    skip = PARENT_LINKS.get(model, set())
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in skip]


def _is_user_link(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _dump_row(instance, model) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for field in _fields(model):
        if _is_user_link(field):
            user = getattr(instance, field.name)
            row[field.name] = user.get_username() if user else None
        elif isinstance(field, models.DateTimeField):
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
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


# Import --------------------------------------------------------------------------------------


def loads(text: str, *, source: str) -> dict[str, Any]:
    """Parse the JSON text of a case export; ``TransferError`` if it is not one."""
    try:
        document = json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or bad unicode
        raise TransferError(NOT_JSON.format(source=source, error=exc)) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TransferError(NOT_A_CASE_EXPORT.format(source=source))
    if document.get("format_version") != FORMAT_VERSION:
        raise TransferError(UNSUPPORTED_VERSION.format(source=source, version=document.get("format_version")))
    return document


def case_import(*, document: Mapping[str, Any], user_map: Mapping[str, str] | None = None) -> Submission:
    """Write the case of ``document`` (as :func:`loads` returns it) into this installation.

    Raises ``TransferError`` with the reason, having written nothing, when the document
    is malformed, a row is invalid, a user is missing or the case number is taken.
    """
    user_map = dict(user_map or {})
    case = _object(document.get("case"), "case")
    assessments = _list(document.get("assessments"), "assessments")
    users = _resolve_users(document, case, assessments, user_map)
    reason = IMPORT_REASON.format(exported_at=document.get("exported_at", "(unknown date)"))
    try:
        with transaction.atomic():
            return _write(case, assessments, users, reason)
    except TransferError:
        raise
    except (IntegrityError, DatabaseError) as exc:
        raise TransferError(WRITE_FAILED.format(error=str(exc).strip().splitlines()[0])) from None


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON object"))
    return value


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise TransferError(BAD_STRUCTURE.format(where=where, problem="expected a JSON list"))
    return value


def _rows(document_case, assessments):
    """Every (model, row, where) of the document, parents first."""
    yield Submission, document_case, "case"
    for i, assessment in enumerate(assessments):
        where = f"assessments[{i}]"
        assessment = _object(assessment, where)
        yield Assessment, assessment, where
        for j, scenario in enumerate(_list(assessment.get("scenarios", []), f"{where}.scenarios")):
            yield Scenario, _object(scenario, f"{where}.scenarios[{j}]"), f"{where}.scenarios[{j}]"
        for j, decision in enumerate(_list(assessment.get("decisions", []), f"{where}.decisions")):
            yield ReviewDecision, _object(decision, f"{where}.decisions[{j}]"), f"{where}.decisions[{j}]"


def _resolve_users(document, case, assessments, user_map) -> dict[str, Any]:
    """User name in the file -> user here; refuses with every missing name at once."""
    named: set[str] = set()
    for model, row, where in _rows(case, assessments):
        for field in _fields(model):
            if _is_user_link(field) and row.get(field.name) is not None:
                if not isinstance(row[field.name], str):
                    raise TransferError(BAD_STRUCTURE.format(where=f"{where}.{field.name}", problem="expected a user name"))
                named.add(row[field.name])
    User = get_user_model()
    targets = {name: user_map.get(name, name) for name in named}
    found = {user.get_username(): user for user in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": set(targets.values())})}
    bad_targets = sorted({target for name, target in targets.items() if name in user_map and target not in found})
    if bad_targets:
        raise TransferError(MAPPED_TO_MISSING.format(usernames=", ".join(bad_targets)))
    missing = sorted(name for name, target in targets.items() if target not in found)
    if missing:
        raise TransferError(MISSING_USERS.format(usernames=", ".join(missing)))
    return {name: found[target] for name, target in targets.items()}


def _build(model, row: dict, where: str, users: dict, **parents) -> models.Model:
    """An unsaved instance of ``model`` from ``row``; ``TransferError`` for unknown fields."""
    nested = {"scenarios", "decisions"} if model is Assessment else set()
    allowed = {f.name for f in _fields(model)} | nested
    unknown = sorted(set(row) - allowed)
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where=where, fields=", ".join(unknown)))
    instance = model(**parents)
    for field in _fields(model):
        if field.name not in row or field.name in DERIVED.get(model, set()):
            continue
        value = row[field.name]
        if _is_user_link(field):
            setattr(instance, field.name, users[value] if value is not None else None)
            continue
        try:
            setattr(instance, field.attname, field.to_python(value) if value is not None else None)
        except ValidationError as exc:
            raise TransferError(INVALID_ROW.format(where=f"{where}.{field.name}", errors=" ".join(exc.messages))) from None
    for field in _fields(model):
        # Automatic timestamps are written as exported (a raw save), so they must be there.
        automatic = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        if automatic and getattr(instance, field.attname) is None:
            raise TransferError(INVALID_ROW.format(where=f"{where}.{field.name}", errors="a date and time is required."))
    return instance


def _check(instance, where: str) -> None:
    try:
        instance.full_clean()
    except ValidationError as exc:
        errors = "; ".join(
            f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
            for name, messages in exc.message_dict.items()
        )
        raise TransferError(INVALID_ROW.format(where=where, errors=errors)) from None


def _write(case: dict, assessments: list, users: dict, reason: str) -> Submission:
    case_number = case.get("case_number")
    if Submission.objects.filter(case_number=case_number).exists():
        raise TransferError(CASE_EXISTS.format(case_number=case_number))
    submission = _build(Submission, case, "case", users)
    submission.is_cbi = bool(submission.cbi_claims)
    _check(submission, "case")
    saved = [_save_raw(submission)]
    for i, row in enumerate(assessments):
        where = f"assessments[{i}]"
        assessment = _build(Assessment, row, where, users, submission=submission)
        _check(assessment, where)
        saved.append(_save_raw(assessment))
        for j, scenario_row in enumerate(row.get("scenarios", [])):
            scenario = _build(Scenario, scenario_row, f"{where}.scenarios[{j}]", users, assessment=assessment)
            _check(scenario, f"{where}.scenarios[{j}]")
            saved.append(_save_raw(scenario))
        for j, decision_row in enumerate(row.get("decisions", [])):
            decision = _build(ReviewDecision, decision_row, f"{where}.decisions[{j}]", users, assessment=assessment)
            _check(decision, f"{where}.decisions[{j}]")
            saved.append(_save_raw(decision))
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
