"""Inputs linked to the case, and what an amendment of the case does to them.

The rule, declared once (:func:`is_linked`): an engine input that declares the case field
it carries (``Param.from_case``) is *linked* to the case while it holds what the case gives
it and the reviewer has not replaced it: its stored value is what :func:`case_input` makes
of the case's value (nothing stored when the case gives none, a value the input refuses or
the document's default), and its reason is empty or the case's own (:data:`CASE_REASON`).
A value typed over it, or a reason of the reviewer's own beside it, unlinks it.

What follows from the rule:

- a new use takes the case's values (``services.initial_inputs``);
- an amendment of the case (``services.submission_update``) gives the linked inputs of the
  uses of the case's editable revisions (draft or returned) the new values, and a new
  revision (``workflow.assessment_revise``) gives its copied linked inputs the case's values
  as they are now (:func:`follow`). The use's inputs then differ from those its result was
  computed from, so it is not current until computed again, and :func:`case_changes` says
  which case value moved (the results page, the assessment page, the review queue, the IRER);
- an input the reviewer replaced keeps the reviewer's value, but its reason is flagged when
  it quotes an older value of the case field and not the present one (:func:`reason_flags`):
  numbers read as the number formatter prints them (``"2,400"`` is 2400.0,
  ``esd.parameters.parse_number``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import numbers
from .esd.parameters import Param, ParamSet, parse_number
from .input_rules import needs_reason
from .models import Assessment, Scenario, Status, Submission, own_field
from .numbers import entered
from .stored_text import declared_params, input_text

#: The reason a use gives an input it takes from the case: ``{field}`` is the case field's
#: name without its units (:func:`case_field_label`).
CASE_REASON = "Submission: {field}."
#: Beside a use that is not current because a linked input followed the case (:func:`case_changes`).
CASE_CHANGED = "Computed with {article} {field} of {then}; the case now says {now}: compute again"
CASE_CHANGED_NONE = "Computed without {article} {field}; the case now says {now}: compute again"
#: Beside a reason that quotes an older value of the case field (:func:`reason_flags`).
REASON_QUOTES_OLD = "This reason quotes {old}; the case's {field} is now {now}"
#: A case field that holds nothing, in those sentences.
NOT_GIVEN = numbers.NOT_GIVEN

# A number as a person writes one in a sentence: "2,400", "2400", "0.15", "1.5E-6".
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\d,.]?\d)")


def case_field_label(field: str) -> str:
    """A case field as the sentences name it: its verbose name without the units.

    >>> case_field_label("production_volume_kg_yr")
    'production volume'
    """
    return re.sub(r" \(.*\)$", "", str(own_field(Submission, field).verbose_name))


def case_reason(param: Param) -> str:
    """The reason a use gives ``param`` when it takes the value from the case."""
    return CASE_REASON.format(field=case_field_label(param.from_case or ""))


def recorded_case_field(reason: str | None, fields: Iterable[str]) -> str | None:
    """The case field among ``fields`` whose value a stored reason records the input took
    (the reason is :data:`CASE_REASON` for that field), else None.

    The record outlives the declaration: an input that once took its value from the case
    and no longer declares ``from_case`` (the CVD precursor's weight fraction, prefilled
    from the case's use concentration until the precursor's purity was told apart from it) still holds the
    case's value in the uses saved then, and the sanitised copy treats it as carrying the
    field (``reports.derivation``).

    >>> recorded_case_field("Submission: concentration in the use formulation.", ["use_concentration"])
    'use_concentration'
    >>> recorded_case_field("PMN page 3.", ["use_concentration"]) is None
    True
    """
    for field in fields:
        if reason == CASE_REASON.format(field=case_field_label(field)):
            return field
    return None


def case_input(param: Param, value: Any) -> tuple[Any, str | None]:
    """What a use stores for ``param`` when its case field holds ``value``: ``(value,
    reason)``, the reason ``None`` when the value needs none (``input_rules.needs_reason``);
    ``(None, None)`` when it stores nothing: the case gives none, a value the input
    refuses (a case's "solid" where the scenario takes liquid or gas) or the document's
    default."""
    if value is None or value == "":
        return None, None
    try:
        value = param.coerce(value)
    except ValueError:
        return None, None
    if param.check(value) or value == param.default:
        return None, None
    return value, (case_reason(param) if needs_reason(param, value) else None)


def is_linked(param: Param, *, inputs: Mapping[str, Any], reasons: Mapping[str, str], case_value: Any) -> bool:
    """The rule: ``param`` holds what the case field's ``case_value`` gives it
    (:func:`case_input`, nothing stored counting as what a case that gives nothing gives),
    and its reason is empty or the case's own."""
    if not param.from_case:
        return False
    value, _ = case_input(param, case_value)
    return inputs.get(param.symbol) == value and (reasons.get(param.symbol) or "") in ("", case_reason(param))


def follow(
    scenario_key: str, inputs: Mapping[str, Any], reasons: Mapping[str, str], *,
    before: Mapping[str, Any], after: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """A use's inputs and reasons after its case went from ``before`` to ``after`` (each
    ``{field: value}``, as ``models.case_snapshot`` gives them): each input linked to a
    case field that changed (:func:`is_linked`, read against ``before``) takes what
    ``after`` gives it (:func:`case_input`); every other input is left as it is. Returns
    ``(inputs, reasons, fields)``, ``fields`` naming the case fields whose inputs moved
    (empty: nothing changed). A field missing from either side (a snapshot taken before
    the field existed) is left alone."""
    inputs, reasons = dict(inputs), dict(reasons)
    moved: list[str] = []
    params = declared_params(scenario_key)
    if params is None:
        return inputs, reasons, moved
    for param in params.params:
        field, symbol = param.from_case, param.symbol
        if not field or field not in before or field not in after or before[field] == after[field]:
            continue
        if not is_linked(param, inputs=inputs, reasons=reasons, case_value=before[field]):
            continue
        was = (inputs.get(symbol), reasons.get(symbol))
        value, reason = case_input(param, after[field])
        for stored, new in ((inputs, value), (reasons, reason)):
            if new is None:
                stored.pop(symbol, None)
            else:
                stored[symbol] = new
        if (inputs.get(symbol), reasons.get(symbol)) != was and field not in moved:
            moved.append(field)
    return inputs, reasons, moved


@dataclass(frozen=True)
class CaseChange:
    """A case value a use's result was not computed with: ``field`` (the case field, for
    the sanitised copy's claims) and the sentence that says it."""

    field: str
    text: str


def _article(words: str) -> str:
    return "an" if words[:1].lower() in ("a", "e", "i", "o", "u") else "a"


def _case_value_text(param: Param, value: Any, params: ParamSet) -> str:
    if value is None or value == "":
        return NOT_GIVEN
    return input_text(param.symbol, value, params)


def case_changes(scenario: Scenario, case: Submission) -> list[CaseChange]:
    """Why a use is not current, where the case is why: each linked input (:func:`is_linked`,
    against ``case``, the case as the use's revision reads it) whose value differs from the
    one the result was computed with, in words ("Computed with a production volume of
    2,400 kg/yr; the case now says 3,000 kg/yr: compute again"). Empty for a use computed
    with its present inputs, or never computed."""
    computed = scenario.computed_inputs
    if scenario.result is None or not isinstance(computed, dict) or computed == scenario.inputs:
        return []
    params = declared_params(scenario.scenario_key)
    if params is None:
        return []
    changes = []
    for param in params.params:
        field, symbol = param.from_case, param.symbol
        if not field or computed.get(symbol) == scenario.inputs.get(symbol):
            continue
        value = getattr(case, field)
        if not is_linked(param, inputs=scenario.inputs, reasons=scenario.reasons, case_value=value):
            continue
        label = case_field_label(field)
        then = input_text(symbol, computed.get(symbol), params)
        words = CASE_CHANGED if then else CASE_CHANGED_NONE
        changes.append(CaseChange(field, words.format(article=_article(label), field=label, then=then,
                                                      now=_case_value_text(param, value, params))))
    return changes


# Reasons that quote an older case value ---------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def quoted_numbers(text: str) -> list[float]:
    """The numbers a sentence quotes, read as the number formatter prints them.

    >>> quoted_numbers("PMN page 3: 2,400 kg/yr, 15 % (0.15), 1.5E-6 torr; P-18-0123.")
    [3.0, 2400.0, 15.0, 0.15, 1.5e-06, 18.0, 123.0]
    >>> quoted_numbers("2400 or 2,400.0, not 12,34,567")
    [2400.0, 2400.0]
    """
    numbers = []
    for token in _NUMBER.findall(text or ""):
        try:
            numbers.append(parse_number(token))
        except ValueError:
            continue
    return numbers


def older_case_values(
    submission_ids: Iterable[int], fields: Iterable[str], *, until: datetime | None = None
) -> dict[tuple[int, str], set[float]]:
    """Every number each case's ``fields`` have held: in its history (the records up to
    ``until``, when given) and in the case data its approved revisions keep
    (``Assessment.case_snapshot``, those approved up to ``until``). Two queries."""
    ids, fields = list(submission_ids), sorted(set(fields))
    found: dict[tuple[int, str], set[float]] = {}
    if not ids or not fields:
        return found

    def keep(case_id: int, values: Mapping[str, Any]) -> None:
        for field in fields:
            if _is_number(values.get(field)):
                found.setdefault((case_id, field), set()).add(float(values[field]))

    records = Submission.history.filter(id__in=ids)
    approved = Assessment.objects.filter(submission_id__in=ids, status=Status.APPROVED)
    if until is not None:
        records = records.filter(history_date__lte=until)
        approved = approved.filter(approved_at__lte=until)
    for row in records.values("id", *fields):
        keep(row["id"], row)
    for case_id, snapshot in approved.values_list("submission_id", "case_snapshot"):
        if isinstance(snapshot, dict):
            keep(case_id, snapshot)
    return found


@dataclass(frozen=True)
class ReasonFlag:
    """A reason that quotes an older case value: the input's ``label`` and the ``text``."""

    label: str
    text: str


def reason_flags(
    scenario: Scenario, case: Submission, older: Mapping[tuple[int, str], set[float]]
) -> dict[str, ReasonFlag]:
    """``{symbol: flag}`` for each input whose reason quotes an older value of its case
    field (``older``: :func:`older_case_values`) and not the value ``case`` holds now
    ("This reason quotes 2,400 kg/yr; the case's production volume is now 3,000 kg/yr").
    The reviewer's value stays: the flag asks them to check their words."""
    params = declared_params(scenario.scenario_key)
    flags: dict[str, ReasonFlag] = {}
    if params is None:
        return flags
    for param in params.params:
        field, reason = param.from_case, scenario.reasons.get(param.symbol) or ""
        if not field or not reason:
            continue
        now = getattr(case, field)
        earlier = older.get((case.pk, field), set()) - ({float(now)} if _is_number(now) else set())
        quoted = quoted_numbers(reason)
        if _is_number(now) and float(now) in quoted:
            continue
        old = next((number for number in quoted if number in earlier), None)
        if old is None:
            continue
        units = f" {param.units}" if param.units else ""
        flags[param.symbol] = ReasonFlag(param.label, REASON_QUOTES_OLD.format(
            old=f"{entered(old)}{units}", field=case_field_label(field),
            now=f"{entered(now)}{units}" if _is_number(now) else NOT_GIVEN))
    return flags


def case_fields(scenarios: Iterable[Scenario]) -> set[str]:
    """The case fields the inputs of ``scenarios`` carry (``Param.from_case``)."""
    fields = set()
    for key in {scenario.scenario_key for scenario in scenarios}:
        params = declared_params(key)
        fields |= {p.from_case for p in (params.params if params is not None else ()) if p.from_case}
    return fields


def scenario_reason_flags(*, scenario: Scenario) -> dict[str, ReasonFlag]:
    """:func:`reason_flags` of one use, against the case as its revision reads it (an
    approved revision: the case as approved, and what it held up to the approval)."""
    assessment = scenario.assessment
    until = assessment.approved_at if assessment.status == Status.APPROVED else None
    older = older_case_values([assessment.submission_id], case_fields([scenario]), until=until)
    return reason_flags(scenario, assessment.case_data, older)
