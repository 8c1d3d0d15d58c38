"""Reads for the review: the change history of an assessment, as its history page lists it.

The history is read from django-simple-history: consecutive historical records of the
case, the assessment and each of its scenarios are diffed (``diff_against``), and the
inputs and the reasons given for overrides (JSON fields) are expanded symbol by symbol,
so the page says "Annual volume (<symbol>): was 5,000 kg/yr, now 6,000 kg/yr" rather than
two whole dictionaries. A review decision and the status change it made are one entry.
Numbers read as everywhere else (``assessments.numbers``): inputs as entered, computed
figures to three significant figures.

How a stored value and an input read (``value_text``, ``input_text``, ``input_label``,
``reason_label``) is ``assessments.stored_text``'s, which the comparison of two revisions
(``assessments.comparison``) reads too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Field, Min, Model

from . import impact_runs, presentation
from .esd.parameters import ParamSet
from .models import Assessment, DecisionAction, ReviewDecision, Scenario, SealedReport, Status, Submission
from .numbers import quantity
from .stored_text import declared_params, input_label, input_text, reason_label, value_text

#: A row of a django-simple-history table. The history's models are built when the
#: application starts, so the type checker knows no more of a row than this.
HistoricalRecord = Any


@dataclass
class FieldChange:
    field: str  # as the page labels it
    old: str
    new: str
    name: str = ""  # the model field's name


@dataclass
class HistoryEntry:
    at: datetime
    user: str  # user name, or "" when the change was not made by a signed-in user
    subject: str  # "Case P-26-0001", "Assessment", "Use “Spin coating”"
    # created, changed, amended (a case changed after an approval), deleted, restored (a use's
    # delete undone), submit, approve, return
    kind: str
    changes: list[FieldChange] = field(default_factory=list)
    note: str = ""  # the record's change reason, or the decision's comment
    decision: ReviewDecision | None = None
    user_name: str = ""  # the user's full name, as the other pages name people (display_name)

    @property
    def is_decision(self) -> bool:
        return self.decision is not None


# Bookkeeping fields that are not part of the review's content.
EXCLUDED_FIELDS = {
    Submission: {"created_by"},
    Assessment: {"submission", "case_snapshot"},  # the case as approved: the case's own entries show it
    # computed_inputs: the inputs a result was computed from, shown by the result's own change.
    Scenario: {"current_step", "computed_at", "assessment", "computed_inputs"},
}
JSON_EXPANDED = {"inputs": "Input {key}", "reasons": "Reason for {key}"}
# The fields a review decision sets with the status: its entry says who and when.
DECISION_FIELDS = {"status", "approved_by", "approved_at"}
# How far apart a decision and the assessment's saved status change may be recorded
# (one transaction writes both).
DECISION_WINDOW = timedelta(seconds=5)

KIND_LABELS = {"+": "created", "~": "changed", "-": "deleted"}
RESTORED = "restored"  # a deleted use brought back (services.scenario_restore)


def assessment_history(*, assessment: Assessment) -> list[HistoryEntry]:
    """Every change to the assessment, its scenarios (deleted ones too) and its case, and
    every review decision, oldest first."""
    users = UserNames()
    entries: list[HistoryEntry] = []

    entries += _record_entries(
        assessment.history.select_related("history_user").order_by("history_date", "history_id"),
        model=Assessment,
        subject=lambda record: f"Assessment revision {record.revision}",
        users=users,
    )
    scenario_records = Scenario.history.filter(assessment_id=assessment.pk).select_related("history_user")
    by_scenario: dict[int, list[HistoricalRecord]] = {}
    for record in scenario_records.order_by("history_date", "history_id"):
        by_scenario.setdefault(record.id, []).append(record)
    for records in by_scenario.values():
        entries += _record_entries(
            records, model=Scenario, subject=lambda r: f"Use “{r.title}”", users=users,
            params=declared_params(records[-1].scenario_key),
        )
    entries += _amendments_marked(
        _record_entries(
            assessment.submission.history.select_related("history_user").order_by("history_date", "history_id"),
            model=Submission,
            subject=lambda record: f"Case {record.case_number}",
            users=users,
        ),
        submission=assessment.submission,
    )
    sealed = _sealed_changes(assessment)
    for decision in assessment.decisions.select_related("by").order_by("at", "id"):
        entry = HistoryEntry(
            at=decision.at,
            user=decision.by.get_username(),
            user_name=display_name(decision.by),
            subject=f"Assessment revision {assessment.revision}",
            kind=decision.action,
            changes=[FieldChange("Status", _status_label(decision.from_status), _status_label(decision.to_status)),
                     *sealed.get(decision.pk, [])],
            note=decision.comment,
            decision=decision,
        )
        entries = _merged_into(entry, entries)
        entries.append(entry)
    entries += _engine_note_entries(assessment)
    # Stable: a decision sorts after a change made at the same time.
    entries.sort(key=lambda entry: (entry.at, entry.is_decision))
    return entries


#: An approved revision's note from an engine run (``impact_runs.approved_notes``): the kind, and
#: how each moved figure reads (was the approved figure, now what that engine would print).
ENGINE_NOTED = "noted"
NOTED_NEW = "{new} with engine {version}"


def _engine_note_entries(assessment: Assessment) -> list[HistoryEntry]:
    """One entry per engine run that measured this approved revision: when the run finished,
    who started it, each figure as approved and as that engine would print it. Nothing of the
    revision itself changed."""
    entries = []
    for note in impact_runs.approved_notes(assessment=assessment):
        by = note.run.started_by
        assert note.run.finished_at is not None  # approved_notes reads finished runs only
        entries.append(HistoryEntry(
            at=note.run.finished_at, user=by.get_username() if by else "", user_name=display_name(by) if by else "",
            subject=f"Assessment revision {assessment.revision}", kind=ENGINE_NOTED, note=note.text,
            changes=[FieldChange(figure, line.old, NOTED_NEW.format(new=line.new, version=note.run.engine_version))
                     for figure, line in note.figures]))
    return entries


#: How History names an approval's sealed copy of the report, and its digest.
SEALED_COPY_LABEL = "Sealed IRER ({copy} copy)"
SEALED_COPY_TEXT = "SHA-256 {sha256} · seal {seal}"


def _sealed_changes(assessment: Assessment) -> dict[int, list[FieldChange]]:
    """The sealed copies of the report each approval drew (``reports.seal``), by decision:
    the file's SHA-256 (what a check of a PDF compares) and the seal its footer prints."""
    if assessment.status != Status.APPROVED:
        return {}
    rows = (SealedReport.objects.filter(assessment_id=assessment.pk, decision__action=DecisionAction.APPROVE)
            .order_by("copy").values_list("decision_id", "copy", "sha256", "seal"))
    changes: dict[int, list[FieldChange]] = {}
    for decision_id, copy, digest, seal in rows:
        changes.setdefault(decision_id, []).append(
            FieldChange(SEALED_COPY_LABEL.format(copy=copy), "", SEALED_COPY_TEXT.format(sha256=digest, seal=seal),
                        name="sha256"))
    return changes


def _merged_into(decision: HistoryEntry, entries: list[HistoryEntry]) -> list[HistoryEntry]:
    """``entries`` without the assessment's saved status change that ``decision`` made (the
    decision's entry says it, with the comment); the other fields that save changed (a
    reason for the volume, say) move to the decision's entry."""
    status = decision.changes[0]
    for index, entry in enumerate(entries):
        if (
            entry.kind == KIND_LABELS["~"]
            and entry.subject == decision.subject
            and entry.user == decision.user
            and abs(entry.at - decision.at) <= DECISION_WINDOW
            and any(c.field == "Status" and (c.old, c.new) == (status.old, status.new) for c in entry.changes)
        ):
            decision.changes += [c for c in entry.changes if c.name not in DECISION_FIELDS]
            return entries[:index] + entries[index + 1:]
    return entries


AMENDED = "amended"


def _amendments_marked(entries: list[HistoryEntry], *, submission: Submission) -> list[HistoryEntry]:
    """The case's changes made after a revision of it was approved are amendments (the
    approved revision keeps the case as it was approved; ``services.submission_update``
    asks the reason, shown as the entry's note)."""
    first_approval = submission.assessments.filter(status=Status.APPROVED).aggregate(at=Min("approved_at"))["at"]
    for entry in entries:
        if entry.kind == KIND_LABELS["~"] and first_approval is not None and entry.at > first_approval:
            entry.kind = AMENDED
    return entries


def _record_entries(
    records: Iterable[HistoricalRecord], *, model: type[Model], subject: Callable[[HistoricalRecord], str],
    users: UserNames, params: ParamSet | None = None,
) -> list[HistoryEntry]:
    out: list[HistoryEntry] = []
    previous = None
    excluded = EXCLUDED_FIELDS[model]
    for record in records:
        kind = KIND_LABELS.get(record.history_type, record.history_type)
        if record.history_type == "+" or previous is None:
            changes = _initial_values(record, model=model, excluded=excluded, users=users, params=params)
        elif record.history_type == "-":
            changes = []
        else:
            delta = record.diff_against(previous, excluded_fields=excluded)
            changes = []
            for change in delta.changes:
                changes += _expand(model, change.field, change.old, change.new, users, params)
            if getattr(record, "deleted_at", None) != getattr(previous, "deleted_at", None):
                # A use deleted, or its delete undone (services.scenario_delete, scenario_restore).
                kind = KIND_LABELS["-"] if record.deleted_at else RESTORED
        previous = record
        if kind == "changed" and not changes:
            continue  # a save that changed nothing the review shows (e.g. a wizard step re-saved)
        out.append(
            HistoryEntry(
                at=record.history_date,
                user=record.history_user.get_username() if record.history_user else "",
                user_name=display_name(record.history_user) if record.history_user else "",
                subject=subject(record),
                kind=kind,
                changes=changes,
                note=record.history_change_reason or "",
            )
        )
    return out


def _initial_values(
    record: HistoricalRecord, *, model: type[Model], excluded: set[str], users: UserNames, params: ParamSet | None = None,
) -> list[FieldChange]:
    changes: list[FieldChange] = []
    for model_field in record.tracked_fields:
        if not model_field.editable or model_field.primary_key or model_field.name in excluded:
            continue
        value = getattr(record, model_field.attname)
        if value in (None, "", {}, []) or value is False:
            continue
        changes += _expand(model, model_field.name, _empty_like(value), value, users, params)
    return changes


def _empty_like(value: object) -> dict[str, Any] | None:
    return {} if isinstance(value, dict) else None


def _expand(
    model: type[Model], name: str, old: Any, new: Any, users: UserNames, params: ParamSet | None = None,
) -> list[FieldChange]:
    """One field's change as the page shows it (JSON dictionaries key by key)."""
    if name in JSON_EXPANDED and isinstance(old or {}, dict) and isinstance(new or {}, dict):
        old, new = old or {}, new or {}
        label_of = input_label if name == "inputs" else reason_label
        return [
            FieldChange(label_of(params, key), input_text(key, old.get(key), params) if name == "inputs" else value_text(old.get(key)),
                        input_text(key, new.get(key), params) if name == "inputs" else value_text(new.get(key)), name)
            for key in sorted(set(old) | set(new), key=str)
            if old.get(key) != new.get(key)
        ]
    if name == "release_texts" and isinstance(old or {}, dict) and isinstance(new or {}, dict):
        return _release_text_changes(old or {}, new or {})
    if name == "result":
        return [FieldChange("Result", result_summary(old), result_summary(new), name)]
    if model is Scenario and name == "scenario_key":
        return [FieldChange("Method", presentation.method_title(old) if old else "", presentation.method_title(new) if new else "", name)]
    model_field = _column(model, name)
    label = _field_label(model_field)
    if model is Submission and name == "cbi_claims":
        return [FieldChange(label, claims_text(old), claims_text(new), name)]
    if model_field.is_relation and model_field.related_model is get_user_model():
        return [FieldChange(label, users.name(old), users.name(new), name)]
    if model_field.choices:
        labels = dict(model_field.flatchoices)
        return [FieldChange(label, str(labels.get(old, old or "")), str(labels.get(new, new or "")), name)]
    return [FieldChange(label, value_text(old), value_text(new), name)]


#: What the engineer writes for a release in the report (``Scenario.release_texts``), by key.
RELEASE_TEXT_LABELS = {"to": "the “to:” line", "basis": "the engineer's words"}


def _release_text_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[FieldChange]:
    """The engineer's report text per release, one row for each release and line that changed."""
    changes: list[FieldChange] = []
    for number in sorted(set(old) | set(new), key=lambda n: (len(str(n)), str(n))):
        before, after = old.get(number) or {}, new.get(number) or {}
        for key in sorted(set(before) | set(after), key=lambda k: (k != "to", k)):
            if before.get(key) != after.get(key):
                label = f"Report text for release {number}, {RELEASE_TEXT_LABELS.get(key, key)}"
                changes.append(FieldChange(label, before.get(key, ""), after.get(key, ""), "release_texts"))
    return changes


def result_summary(result: Mapping[str, Any] | None) -> str:
    """A stored result in one line: engine version and annual totals by medium."""
    if not result:
        return ""
    totals = "; ".join(
        f"{presentation.medium_label(medium)} {quantity(amount, 'kg/yr')}"
        for medium, amount in sorted((result.get("totals_by_medium") or {}).items())
    )
    version = result.get("engine_version")
    return ("computed with engine " + version if version else "computed") + (f": {totals}" if totals else "")


def _column(model: type[Model], name: str) -> Field[Any, Any]:
    """The field ``name`` of ``model``: a column, as every field a history row tracks is
    (and every field a case's CBI claim names, ``Submission.CBI_CLAIMABLE``)."""
    model_field = model._meta.get_field(name)
    assert isinstance(model_field, Field), f"{model.__name__}.{name}: a column, not a reverse relation"
    return model_field


def _field_label(model_field: Field[Any, Any]) -> str:
    verbose_name = str(model_field.verbose_name)
    return verbose_name[:1].upper() + verbose_name[1:]


def claims_text(claims: object) -> str:
    """The case's CBI claims by the labels of the claimed fields, in the form's order
    (``Specific chemical name, Production volume (kg/yr)``); ``""`` for none."""
    if not claims:
        return ""
    if not isinstance(claims, list):
        return value_text(claims)
    known = [name for name in Submission.CBI_CLAIMABLE if name in claims]
    others = [name for name in claims if name not in Submission.CBI_CLAIMABLE]
    return ", ".join([_field_label(_column(Submission, name)) for name in known] + [str(n) for n in others])


def _status_label(status: str) -> str:
    return str(dict(Status.choices).get(status, status))


def display_name(user: User) -> str:
    """A person as the pages name them: the full name, else the user name."""
    return user.get_full_name() or user.get_username()


class UserNames:
    """User id -> the person's name (:func:`display_name`), each looked up once."""

    def __init__(self) -> None:
        self._names: dict[int | str, str] = {}

    def name(self, pk: int | str | None) -> str:
        if pk in (None, ""):
            return ""
        if pk not in self._names:
            user = get_user_model().objects.filter(pk=pk).first()
            self._names[pk] = display_name(user) if user else f"(deleted user {pk})"
        return self._names[pk]


