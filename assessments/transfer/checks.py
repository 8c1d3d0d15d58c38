"""Each row of an imported case checked as the application checks it: the JSON type of
each field and the model's own validation; a use by the engine (its inputs, reasons and
stored result); a revision's review trail, its uses when reviewed and the case as it was
approved; the revisions' numbering. Each refusal is a ``TransferError`` naming the place
in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .. import presentation, selectors
from ..engine_results import engine_result_difference
from ..engine_results import join_path as _join
from ..engine_results import short as _short
from ..engine_results import show as _show
from ..esd import registry
from ..esd.parameters import ALL, CHOICE, EngineValidationError, each_input
from ..esd.results import ENGINE_VERSION
from ..esd.site_data import SITE_SPECIFIC, parse_entries
from ..esd.site_data import STEP as SITE_STEP
from ..forms.scenarios import REASON_PREFIX, step_form_class
from ..input_rules import needs_reason
from ..limits import TEXT_LIMITS, text_error
from ..models import (
    CASE_SNAPSHOT_FIELDS,
    Assessment,
    DecisionAction,
    ReviewDecision,
    Scenario,
    Status,
    Submission,
    case_snapshot,
)
from ..roles import SUPERVISOR_GROUP, is_supervisor
from ..workflow import TRANSITIONS
from .document import DERIVED, is_user_link, name_list, row_fields
from .errors import (
    APPROVED_AT_MISMATCH,
    APPROVED_BY_MISMATCH,
    COMPUTATION_WITHOUT_RESULT,
    ENGINE_VERSION_DIFFERS,
    INVALID_ROW,
    INVALID_VALUE,
    NO_USES,
    NOT_APPROVED_YET,
    NOT_FINITE,
    REASON_MISSING,
    REASON_TOO_LONG,
    RESULT_WITHOUT_COMPUTATION,
    REVISION_NOT_APPROVED,
    REVISION_NUMBERS,
    SNAPSHOT_NOT_AN_OBJECT,
    SNAPSHOT_NULL,
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
    USE_NOT_CURRENT,
    VOLUME_REASON,
    TransferError,
)

#: How far an approval's ``approved_at`` may lie from its approve decision's time: the
#: workflow stamps both in one transaction, a few milliseconds apart.
APPROVAL_TIME_TOLERANCE = timedelta(minutes=1)

_Row = TypeVar("_Row", bound=models.Model)


# One row: its JSON types, the model's validation, the text limits ------------------------------


def _type_problem(field: models.Field[Any, Any], value: Any) -> str:
    """What is wrong with the JSON type of ``value`` for ``field`` (``""``: nothing). The
    export writes each field as one JSON type; the import takes no other (no "5000" for a
    number, no list for a text)."""
    if value is None or isinstance(field, models.JSONField):
        return ""
    if is_user_link(field) or isinstance(field, (models.CharField, models.TextField)):
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


def build(model: type[_Row], row: dict[str, Any], where: str, users: dict[str, Any], **parents: models.Model) -> _Row:
    """An unsaved instance of ``model`` from ``row``; ``TransferError`` for unknown fields
    and values of the wrong JSON type."""
    nested = {"scenarios", "decisions", "sealed_reports"} if model is Assessment else set()  # sealed: .sealed
    allowed = {f.name for f in row_fields(model)} | nested
    unknown = sorted(set(row) - allowed)
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where=where, fields=name_list(unknown)))
    instance = model(**parents)
    fields = [f for f in row_fields(model) if f.name not in DERIVED.get(model, set())]
    set_fields(instance, fields, row, where, users)
    return instance


def set_fields(
    instance: models.Model, fields: list[models.Field[Any, Any]], row: dict[str, Any], where: str, users: dict[str, Any]
) -> None:
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
        if is_user_link(field):
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


def check_row(instance: models.Model, where: str) -> None:
    """The model's own validation, then the free-text limits every way in applies."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        errors = "; ".join(
            _short(f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages), 300)
            for name, messages in exc.message_dict.items()
        )
        raise TransferError(INVALID_ROW.format(where=where, errors=errors)) from None
    for field in row_fields(type(instance)):
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


def _check_inputs(engine: registry.Scenario, inputs: object, where: str) -> dict[str, Any]:
    """``inputs`` as the wizard stores them: a JSON object of the scenario's symbols, each
    value of its declared type and within its declared range (``Param.coerce``/``check``),
    the required ones given, and ``site_specific`` entries as the engine parses them."""
    if not isinstance(inputs, dict):
        raise TransferError(INVALID_VALUE.format(where=where, problem="must be a JSON object of {symbol: value}"))
    params = engine.params
    errors: dict[str, str] = {}
    own: dict[str, Any] = {}
    inputs = dict(inputs)
    for symbol, raw in list(inputs.items()):
        if symbol in params and params[symbol].kind == CHOICE:
            # a choice the engine also reads from JSON true/false (INTERFACE.md), stored as the wizard stores it
            raw = inputs[symbol] = params[symbol].choice_value(raw)
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
    field = step_form_class(engine.key, engine.params[symbol].step).base_fields.get(REASON_PREFIX + symbol)
    return getattr(field, "max_length", None)


def _check_reasons(engine: registry.Scenario, inputs: dict[str, Any], reasons: Any, where: str) -> None:
    if not isinstance(reasons, dict) or not all(isinstance(v, str) for v in reasons.values()):
        raise TransferError(INVALID_VALUE.format(where=f"{where}.reasons", problem="must be a JSON object of {symbol: text}"))
    for symbol, reason in reasons.items():
        if symbol in engine.params:
            limit = _reason_limit(engine, symbol)
            if limit is not None and len(reason) > limit:
                problem = REASON_TOO_LONG.format(length=len(reason), limit=limit)
                raise TransferError(INVALID_VALUE.format(where=_join(f"{where}.reasons", symbol), problem=problem))
    for symbol, raw in inputs.items():
        if symbol not in engine.params:
            continue
        param = engine.params[symbol]
        if needs_reason(param, param.coerce(raw)) and not reasons.get(symbol, "").strip():
            raise TransferError(
                INVALID_VALUE.format(where=_join(f"{where}.inputs", symbol), problem=REASON_MISSING.format(symbol=symbol))
            )


def check_scenario(scenario: Scenario, where: str) -> None:
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


def _is_supervisor_here(user: User) -> bool:
    """A supervisor of this installation: in the supervisor group (also when no longer
    active) or holding the review permission."""
    return user.groups.filter(name=SUPERVISOR_GROUP).exists() or is_supervisor(user)


def check_trail(assessment: Assessment, decisions: list[ReviewDecision], where: str) -> None:
    """The decisions must be a path the workflow takes (``workflow.TRANSITIONS``), by the
    people the workflow lets act, ending at the revision's status."""
    status: str = Status.DRAFT
    previous_at: datetime | None = None
    approval: ReviewDecision | None = None
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
        # Only an approval reaches "approved" (workflow.TRANSITIONS), and check_row's full_clean
        # held the revision to its constraint assessment_approved_has_approver.
        approved_at = assessment.approved_at
        assert approval is not None, "a trail that reaches approved ends with its approval"
        assert approved_at is not None, "an approved revision has its approval time"
        if assessment.approved_by_id != approval.by_id:
            approved_by = assessment.approved_by
            assert approved_by is not None, "an approved revision has its approver"
            problem = APPROVED_BY_MISMATCH.format(
                expected=approval.by.get_username(), found=approved_by.get_username()
            )
            raise TransferError(INVALID_VALUE.format(where=f"{where}.approved_by", problem=problem))
        if abs(approved_at - approval.at) > APPROVAL_TIME_TOLERANCE:
            problem = APPROVED_AT_MISMATCH.format(expected=approval.at.isoformat(), found=approved_at.isoformat())
            raise TransferError(INVALID_VALUE.format(where=f"{where}.approved_at", problem=problem))
    else:
        for name in ("approved_by", "approved_at"):
            if getattr(assessment, name) is not None:
                raise TransferError(INVALID_VALUE.format(where=f"{where}.{name}", problem=NOT_APPROVED_YET))


def check_reviewed_uses(assessment: Assessment, scenarios: list[Scenario], where: str) -> None:
    """A submitted or approved revision passed the submission's checks
    (``workflow.assessment_submit``): uses, all current, the volume reason."""
    if assessment.status not in (Status.SUBMITTED, Status.APPROVED):
        return
    if not scenarios:
        raise TransferError(INVALID_VALUE.format(where=f"{where}.scenarios", problem=NO_USES.format(status=assessment.status)))
    for j, scenario in enumerate(scenarios):
        state = presentation.scenario_state(scenario)
        if state != presentation.CURRENT:
            problem = USE_NOT_CURRENT.format(status=assessment.status, state=state)
            raise TransferError(INVALID_VALUE.format(where=f"{where}.scenarios[{j}]", problem=problem))
    volume = selectors.uses_volume(assessment=assessment, scenarios=scenarios)
    if volume["excess"] and not assessment.volume_excess_reason.strip():
        problem = VOLUME_REASON.format(message=volume["message"], status=assessment.status)
        raise TransferError(INVALID_VALUE.format(where=f"{where}.volume_excess_reason", problem=problem))


def check_case_snapshot(assessment: Assessment, submission: Submission, where: str, *, in_file: bool) -> None:
    """The case as an approved revision keeps it (``case_snapshot``): null unless approved;
    for an approved revision, the case's fields as the case itself is checked, its number
    the one the case is imported under (the module ``approved`` says why). A file exported
    before snapshots existed (``in_file`` false: the field is not in the row) has none:
    the case's data is taken, as migration 0012 took it, when a case with an approved
    revision could not be changed. Compared with the case by ``approved.check_case_as_approved``."""
    at = f"{where}.case_snapshot"
    snapshot = assessment.case_snapshot
    if assessment.status != Status.APPROVED:
        if snapshot is not None:
            raise TransferError(INVALID_VALUE.format(where=at, problem=NOT_APPROVED_YET))
        return
    if snapshot is None:
        if in_file:
            raise TransferError(INVALID_VALUE.format(where=at, problem=SNAPSHOT_NULL.format(revision=assessment.revision)))
        assessment.case_snapshot = case_snapshot(submission)
        return
    if not isinstance(snapshot, dict):
        raise TransferError(INVALID_VALUE.format(where=at, problem=SNAPSHOT_NOT_AN_OBJECT))
    unknown = sorted(set(snapshot) - set(CASE_SNAPSHOT_FIELDS))
    if unknown:
        raise TransferError(UNKNOWN_FIELDS.format(where=at, fields=name_list(unknown)))
    as_approved = Submission()
    # CASE_SNAPSHOT_FIELDS are concrete fields of the case, in this order.
    fields = [f for f in Submission._meta.concrete_fields if f.name in CASE_SNAPSHOT_FIELDS]
    set_fields(as_approved, fields, snapshot, at, {})
    as_approved.case_number = submission.case_number  # the case's identity here, not a figure of the report
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


def check_revisions(assessments: list[Assessment]) -> None:
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

