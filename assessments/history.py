"""Reads for the review: the supervisors' queue, the assessment page's review panel,
the change history of an assessment and the side-by-side comparison of two revisions.

Visibility is the selectors' rule (``selectors.assessment_get`` and
``selectors.visible_submissions``): a CBI case is a 404 for an uncleared user here as
everywhere, and the queue never lists it for them.

The history is read from django-simple-history: consecutive historical records of the
case, the assessment and each of its scenarios are diffed (``diff_against``), and the
inputs and the reasons given for overrides (JSON fields) are expanded symbol by symbol,
so the page says "Annual volume (<symbol>): was 5,000 kg/yr, now 6,000 kg/yr" rather than
two whole dictionaries. A review decision and the status change it made are one entry.
Numbers read as everywhere else (``assessments.numbers``): inputs as entered, computed
figures to three significant figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Iterable

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Min, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

from . import permissions, selectors
from .numbers import entered, quantity
from .limits import TEXT_LIMITS
from .models import Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission
from .roles import is_supervisor
from .site_data import SITE_SPECIFIC, SITE_STEP_TITLE, entries_text

QUEUE_NOT_ALLOWED = "Only supervisors have a review queue."


# The queue and the review panel -------------------------------------------------------------


def review_queue(*, user) -> QuerySet[Assessment]:
    """Submitted assessments awaiting a supervisor, oldest submission first, each with
    ``submitted_at`` (its latest submit decision) and ``submit_note``. Only cases the
    user may see; the user's own submitted work is listed too (flagged in the page:
    another supervisor must review it)."""
    if not is_supervisor(user):
        raise PermissionDenied(QUEUE_NOT_ALLOWED)
    latest_submit = ReviewDecision.objects.filter(
        assessment=OuterRef("pk"), action=DecisionAction.SUBMIT
    ).order_by("-at", "-id")
    return (
        Assessment.objects.filter(status=Status.SUBMITTED, submission__in=selectors.visible_submissions(user=user))
        .select_related("submission", "engineer")
        .annotate(
            submitted_at=Subquery(latest_submit.values("at")[:1]),
            submit_note=Subquery(latest_submit.values("comment")[:1]),
            scenario_count=Count("scenarios", filter=Q(scenarios__deleted_at__isnull=True)),
        )
        .order_by("submitted_at", "id")
    )


def review_queue_count(*, user) -> int:
    """How many assessments wait in ``user``'s queue (0 for anyone but a supervisor): the
    visible cases whose latest assessment is submitted by someone else.

    Read from the copy of the latest assessment on the case (``Submission.LATEST_FIELDS``;
    the partial index ``submission_awaiting_review`` holds all it reads): a submitted
    assessment is always its case's latest revision, as only an approved revision is
    copied into a new one (``workflow.assessment_revise``; ``transfer`` imports only such
    histories)."""
    if not is_supervisor(user):
        return 0
    return (
        selectors.visible_submissions(user=user)
        .filter(latest_status=Status.SUBMITTED)
        .exclude(latest_engineer=user)
        .count()
    )


def result_problems(*, assessment: Assessment) -> dict[str, list[Scenario]]:
    """The scenarios that stop a submission: ``uncomputed`` (no result yet) and ``stale``
    (inputs changed since the result was computed)."""
    uncomputed, stale = [], []
    for scenario in assessment.scenarios.all():
        state = selectors.scenario_state(scenario)
        if state == selectors.UNCOMPUTED:
            uncomputed.append(scenario)
        elif state == selectors.STALE:
            stale.append(scenario)
    return {"uncomputed": uncomputed, "stale": stale}


def review_context(*, user, assessment: Assessment) -> dict[str, Any]:
    """What the assessment page needs for its review panel: the permission flags, the
    latest return comment (shown to the engineer while the assessment is returned),
    the submission note (shown while it is submitted), what stops a submission, and
    the other revisions of the case (for the comparison link)."""
    decisions = list(assessment.decisions.select_related("by").order_by("at", "id"))
    last = decisions[-1] if decisions else None
    latest_return = None
    if assessment.status == Status.RETURNED:
        latest_return = next((d for d in reversed(decisions) if d.action == DecisionAction.RETURN), None)
    approval = next((d for d in reversed(decisions) if d.action == DecisionAction.APPROVE), None)
    submit_note = last if assessment.status == Status.SUBMITTED and last and last.action == DecisionAction.SUBMIT else None
    can_submit = permissions.can_submit(user, assessment)
    problems = result_problems(assessment=assessment) if can_submit else {"uncomputed": [], "stale": []}
    others = list(
        assessment.submission.assessments.exclude(pk=assessment.pk).order_by("revision").values("pk", "revision")
    )
    return {
        "can_submit": can_submit,
        "can_review": permissions.can_review(user, assessment),
        "can_revise": permissions.can_revise(user, assessment),
        "can_withdraw": permissions.can_withdraw(user, assessment),
        "review_own_waiting": (
            is_supervisor(user) and assessment.status == Status.SUBMITTED and assessment.engineer_id == user.pk
        ),
        "review_decisions": decisions,
        "review_latest_return": latest_return,
        "review_submit_note": submit_note,
        "review_approval": approval if assessment.status == Status.APPROVED else None,
        "review_uncomputed": problems["uncomputed"],
        "review_stale": problems["stale"],
        "review_has_scenarios": assessment.scenarios.exists(),
        "review_volume": selectors.uses_volume(assessment=assessment) if can_submit else None,
        "comment_limit": TEXT_LIMITS["comment"],
        "review_other_revisions": others,
    }


# History --------------------------------------------------------------------------------------


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
    users = _UserNames()
    entries: list[HistoryEntry] = []

    entries += _record_entries(
        assessment.history.select_related("history_user").order_by("history_date", "history_id"),
        model=Assessment,
        subject=lambda record: f"Assessment revision {record.revision}",
        users=users,
    )
    scenario_records = Scenario.history.filter(assessment_id=assessment.pk).select_related("history_user")
    by_scenario: dict[int, list] = {}
    for record in scenario_records.order_by("history_date", "history_id"):
        by_scenario.setdefault(record.id, []).append(record)
    for records in by_scenario.values():
        entries += _record_entries(
            records, model=Scenario, subject=lambda r: f"Use “{r.title}”", users=users,
            params=_declared_params(records[-1].scenario_key),
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
    for decision in assessment.decisions.select_related("by").order_by("at", "id"):
        entry = HistoryEntry(
            at=decision.at,
            user=decision.by.get_username(),
            subject=f"Assessment revision {assessment.revision}",
            kind=decision.action,
            changes=[FieldChange("Status", _status_label(decision.from_status), _status_label(decision.to_status))],
            note=decision.comment,
            decision=decision,
        )
        entries = _merged_into(entry, entries)
        entries.append(entry)
    # Stable: a decision sorts after a change made at the same time.
    entries.sort(key=lambda entry: (entry.at, entry.is_decision))
    return entries


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


def _record_entries(records: Iterable, *, model, subject, users: "_UserNames", params=None) -> list[HistoryEntry]:
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
                subject=subject(record),
                kind=kind,
                changes=changes,
                note=record.history_change_reason or "",
            )
        )
    return out


def _initial_values(record, *, model, excluded, users, params=None) -> list[FieldChange]:
    changes: list[FieldChange] = []
    for model_field in record.tracked_fields:
        if not model_field.editable or model_field.primary_key or model_field.name in excluded:
            continue
        value = getattr(record, model_field.attname)
        if value in (None, "", {}, []) or value is False:
            continue
        changes += _expand(model, model_field.name, _empty_like(value), value, users, params)
    return changes


def _empty_like(value):
    return {} if isinstance(value, dict) else None


def _expand(model, name: str, old, new, users, params=None) -> list[FieldChange]:
    """One field's change as the page shows it (JSON dictionaries key by key)."""
    if name in JSON_EXPANDED and isinstance(old or {}, dict) and isinstance(new or {}, dict):
        old, new = old or {}, new or {}
        label = input_label if name == "inputs" else reason_label
        return [
            FieldChange(label(params, key), _input_text(key, old.get(key), params) if name == "inputs" else _text(old.get(key)),
                        _input_text(key, new.get(key), params) if name == "inputs" else _text(new.get(key)), name)
            for key in sorted(set(old) | set(new), key=str)
            if old.get(key) != new.get(key)
        ]
    if name == "release_texts" and isinstance(old or {}, dict) and isinstance(new or {}, dict):
        return _release_text_changes(old or {}, new or {})
    if name == "result":
        return [FieldChange("Result", result_summary(old), result_summary(new), name)]
    if model is Scenario and name == "scenario_key":
        return [FieldChange("Method", selectors.method_title(old) if old else "", selectors.method_title(new) if new else "", name)]
    model_field = model._meta.get_field(name)
    label = model_field.verbose_name[:1].upper() + model_field.verbose_name[1:]
    if model_field.is_relation and model_field.related_model is get_user_model():
        return [FieldChange(label, users.name(old), users.name(new), name)]
    if model_field.choices:
        labels = dict(model_field.flatchoices)
        return [FieldChange(label, str(labels.get(old, old or "")), str(labels.get(new, new or "")), name)]
    return [FieldChange(label, _text(old), _text(new), name)]


#: What the engineer writes for a release in the report (``Scenario.release_texts``), by key.
RELEASE_TEXT_LABELS = {"to": "the “to:” line", "basis": "the engineer's words"}


def _release_text_changes(old: dict, new: dict) -> list[FieldChange]:
    """The engineer's report text per release, one row for each release and line that changed."""
    changes = []
    for number in sorted(set(old) | set(new), key=lambda n: (len(str(n)), str(n))):
        before, after = old.get(number) or {}, new.get(number) or {}
        for key in sorted(set(before) | set(after), key=lambda k: (k != "to", k)):
            if before.get(key) != after.get(key):
                label = f"Report text for release {number}, {RELEASE_TEXT_LABELS.get(key, key)}"
                changes.append(FieldChange(label, before.get(key, ""), after.get(key, ""), "release_texts"))
    return changes


def result_summary(result: dict | None) -> str:
    """A stored result in one line: engine version and annual totals by medium."""
    if not result:
        return ""
    totals = "; ".join(
        f"{selectors.medium_label(medium)} {quantity(amount, 'kg/yr')}"
        for medium, amount in sorted((result.get("totals_by_medium") or {}).items())
    )
    version = result.get("engine_version")
    return ("computed with engine " + version if version else "computed") + (f": {totals}" if totals else "")


def _text(value) -> str:
    """A stored field's value as the page shows it: numbers as entered (with separators,
    E-notation by the one rule), times in the site's time zone to the minute."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float)):
        return entered(value)
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if timezone.is_aware(value) else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def input_label(params, symbol: str) -> str:
    """An input as a reviewer reads it: its label and, after it, its symbol
    (``<label> (<symbol>)``); the symbol alone when the engine does not declare it."""
    if params is not None and symbol in params:
        return f"{params[symbol].label} ({symbol})"
    if symbol == SITE_SPECIFIC:
        return f"{SITE_STEP_TITLE} (EIIP)"
    return f"Input {symbol}"


def reason_label(params, symbol: str) -> str:
    """The reason given for an input: ``Reason: <label> (<symbol>)``."""
    return f"Reason: {input_label(params, symbol).removeprefix('Input ')}"


def _input_text(key, value, params=None) -> str:
    """A stored input as text: a number as entered with its units, a choice by its name, the
    submitter's site data (a list of entries) as sentences; an input not stored (``None``)
    is its declared default, said so (``250 days/yr (default)``)."""
    if key == SITE_SPECIFIC and value is not None:
        return entries_text(value)
    param = params[key] if params is not None and key in params else None
    if value is None:
        if param is not None and param.default is not None:
            return f"{_input_text(key, param.default, params)} (default)"
        return ""
    if param is not None and param.choices and not isinstance(value, (list, dict)):
        return str(dict(param.choices).get(value, value))
    if param is not None and param.units and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{entered(value)} {param.units}"
    return _text(value)


def _status_label(status: str) -> str:
    return str(dict(Status.choices).get(status, status))


class _UserNames:
    """User id -> user name, each looked up once."""

    def __init__(self) -> None:
        self._names: dict[int, str] = {}

    def name(self, pk) -> str:
        if pk in (None, ""):
            return ""
        if pk not in self._names:
            user = get_user_model().objects.filter(pk=pk).first()
            self._names[pk] = user.get_username() if user else f"(deleted user {pk})"
        return self._names[pk]


# Comparison of two revisions -------------------------------------------------------------------


@dataclass
class Row:
    label: str
    left: str
    right: str

    @property
    def differs(self) -> bool:
        return self.left != self.right


@dataclass
class Section:
    title: str
    rows: list[Row]
    note: str = ""
    show_all: bool = False  # list the unchanged rows too

    @property
    def difference_count(self) -> int:
        return sum(row.differs for row in self.rows)

    @property
    def unchanged_count(self) -> int:
        return len(self.rows) - self.difference_count

    @property
    def shown_rows(self) -> list[Row]:
        """The rows the page lists: the differences only, unless every row is asked for."""
        return self.rows if self.show_all else [row for row in self.rows if row.differs]


ASSESSMENT_COMPARED = ("status", "engineer", "assessment_date", "notes", "pollution_prevention", "occupational_exposure_rating", "exposure_based_review")


def revision_comparison(*, user, pk: int, other_pk: int | None = None, show_all: bool = False) -> dict[str, Any]:
    """Two revisions of one case side by side, older on the left.

    ``pk`` is the assessment the page belongs to; ``other_pk`` the one to compare it
    with (default: the revision before it, else the one after). Both must be visible to
    ``user`` and belong to the same case, else ``Http404``. Without another revision,
    ``sections`` is empty. The page lists the differences only, and says how many items
    are the same; ``show_all`` lists every item.
    """
    assessment = selectors.assessment_get(user=user, pk=pk)
    revisions = list(assessment.submission.assessments.order_by("revision"))
    if other_pk is None:
        earlier = [a for a in revisions if a.revision < assessment.revision]
        later = [a for a in revisions if a.revision > assessment.revision]
        other = earlier[-1] if earlier else (later[0] if later else None)
    else:
        other = selectors.assessment_get(user=user, pk=other_pk)
        if other.submission_id != assessment.submission_id:
            raise Http404("No such revision of this case.")
    context = {"assessment": assessment, "submission": assessment.submission, "revisions": revisions, "other": other,
               "show_all": show_all}
    if other is None or other.pk == assessment.pk:
        return context | {"left": assessment, "right": None, "sections": [], "difference_count": 0, "unchanged_count": 0}
    left, right = sorted((assessment, other), key=lambda a: a.revision)
    sections = [_assessment_section(left, right, users=_UserNames())]
    sections += _scenario_sections(left, right)
    for section in sections:
        section.show_all = show_all
    return context | {
        "left": left,
        "right": right,
        "sections": sections,
        "difference_count": sum(section.difference_count for section in sections),
        "unchanged_count": sum(section.unchanged_count for section in sections),
    }


def _assessment_section(left: Assessment, right: Assessment, *, users) -> Section:
    rows = []
    for name in ASSESSMENT_COMPARED:
        model_field = Assessment._meta.get_field(name)
        label = model_field.verbose_name[:1].upper() + model_field.verbose_name[1:]
        if model_field.is_relation:
            rows.append(Row(label, users.name(getattr(left, model_field.attname)), users.name(getattr(right, model_field.attname))))
        elif model_field.choices:
            rows.append(Row(label, getattr(left, f"get_{name}_display")(), getattr(right, f"get_{name}_display")()))
        else:
            rows.append(Row(label, _text(getattr(left, name)), _text(getattr(right, name))))
    return Section("Assessment", rows)


def _scenario_sections(left: Assessment, right: Assessment) -> list[Section]:
    """Scenarios are paired by position and method (a new revision keeps both); an
    unpaired one is compared with nothing."""
    left_scenarios = {(s.position, s.scenario_key): s for s in left.scenarios.all()}
    right_scenarios = {(s.position, s.scenario_key): s for s in right.scenarios.all()}
    sections = []
    for key in sorted(set(left_scenarios) | set(right_scenarios)):
        a, b = left_scenarios.get(key), right_scenarios.get(key)
        title = (b or a).title if not (a and b and a.title != b.title) else f"{a.title} / {b.title}"
        note = f"Method: {selectors.method_title(key[1])}."
        if a is None:
            note += f" Only in revision {right.revision}."
        elif b is None:
            note += f" Only in revision {left.revision}."
        rows = [Row("Title", a.title if a else "", b.title if b else "")]
        rows += _input_rows(a, b)
        rows += _result_rows(a, b)
        sections.append(Section(f"Use: {title}", rows, note))
    return sections


def _declared_params(scenario_key: str):
    """The engine's declarations of a scenario's inputs, or ``None`` when this
    installation's engine does not know the key (an imported case, an old method)."""
    from .esd import registry

    try:
        return registry.get(scenario_key).params
    except Exception:  # unknown key, or an engine module that fails to load
        return None


def _input_rows(a: Scenario | None, b: Scenario | None) -> list[Row]:
    params = _declared_params((a or b).scenario_key)
    symbols: list[str] = []
    if params is not None:
        symbols = [p.symbol for p in params.params]
    for scenario in (a, b):
        for symbol in (scenario.inputs if scenario else {}):
            if symbol not in symbols:
                symbols.append(symbol)

    def value(scenario, symbol):
        if scenario is None:
            return ""
        if symbol in scenario.inputs:
            return _input_text(symbol, scenario.inputs[symbol], params)
        if params is not None and symbol in params and params[symbol].default is not None:
            return _input_text(symbol, None, params)
        return "(not given)"

    rows = []
    for symbol in symbols:
        rows.append(Row(input_label(params, symbol), value(a, symbol), value(b, symbol)))
        reason_a = a.reasons.get(symbol, "") if a else ""
        reason_b = b.reasons.get(symbol, "") if b else ""
        if reason_a or reason_b:
            rows.append(Row(reason_label(params, symbol), reason_a, reason_b))
    return rows


def _result_values(scenario: Scenario | None) -> dict[str, str]:
    """Label -> value of every number of a stored result, in a stable order."""
    if scenario is None:
        return {}
    result = scenario.result
    if not result:
        return {"Result": NOT_COMPUTED_YET}
    values: dict[str, str] = {"Engine version": result.get("engine_version") or ""}
    for row in selectors.facility_rows(result=result, scenario_key=scenario.scenario_key):
        values[f"Facility: {row['label'] or row['symbol']}"] = row["text"]
    for release in result.get("releases") or []:
        for estimate in release.get("estimates") or []:
            label = f"Release {release.get('number')} {release.get('source', '')}, {estimate.get('label')}, all sites"
            values[label] = quantity(estimate.get("kg_year_all_sites"), "kg/yr")
    for exposure in result.get("exposures") or []:
        for estimate in exposure.get("estimates") or []:
            label = (
                f"Exposure {exposure.get('letter')} {exposure.get('activity', '')} ({exposure.get('route', '')}), "
                f"{estimate.get('label')}"
            )
            values[label] = quantity(estimate.get("mg_day"), "mg/day")
    for medium, amount in sorted((result.get("totals_by_medium") or {}).items()):
        values[f"Total to {selectors.medium_label(medium).lower()}, all sites"] = quantity(amount, "kg/yr")
    return values


#: A use without a result, in the comparison.
NOT_COMPUTED_YET = "not computed yet"


def _result_rows(a: Scenario | None, b: Scenario | None) -> list[Row]:
    left, right = _result_values(a), _result_values(b)
    labels = list(left) + [label for label in right if label not in left]
    return [Row(label, left.get(label, ""), right.get(label, "")) for label in labels]
