"""Reads for the review: the supervisors' queue, the assessment page's review panel,
the change history of an assessment and the side-by-side comparison of two revisions.

Visibility is the selectors' rule (``selectors.assessment_get`` and
``selectors.visible_submissions``): a CBI case is a 404 for an uncleared user here as
everywhere, and the queue never lists it for them.

The history is read from django-simple-history: consecutive historical records of the
case, the assessment and each of its scenarios are diffed (``diff_against``), and the
inputs and the reasons given for overrides (JSON fields) are expanded symbol by symbol,
so the page says "Input <symbol>: 5000 -> 6000" rather than two whole dictionaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Min, OuterRef, QuerySet, Subquery
from django.http import Http404

from . import permissions, selectors
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
            scenario_count=Count("scenarios"),
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
    field: str
    old: str
    new: str


@dataclass
class HistoryEntry:
    at: datetime
    user: str  # user name, or "" when the change was not made by a signed-in user
    subject: str  # "Case P-26-0001", "Assessment", "Use “Spin coating”"
    kind: str  # created, changed, amended (a case changed after an approval), deleted, submit, approve, return
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
    Scenario: {"current_step", "computed_at", "assessment"},
}
JSON_EXPANDED = {"inputs": "Input {key}", "reasons": "Reason for {key}"}

KIND_LABELS = {"+": "created", "~": "changed", "-": "deleted"}


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
        entries += _record_entries(records, model=Scenario, subject=lambda r: f"Use “{r.title}”", users=users)
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
        entries.append(
            HistoryEntry(
                at=decision.at,
                user=decision.by.get_username(),
                subject=f"Assessment revision {assessment.revision}",
                kind=decision.action,
                changes=[FieldChange("Status", _status_label(decision.from_status), _status_label(decision.to_status))],
                note=decision.comment,
                decision=decision,
            )
        )
    # Stable: a decision sorts after the status change it explains when both share a time.
    entries.sort(key=lambda entry: (entry.at, entry.is_decision))
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


def _record_entries(records: Iterable, *, model, subject, users: "_UserNames") -> list[HistoryEntry]:
    out: list[HistoryEntry] = []
    previous = None
    excluded = EXCLUDED_FIELDS[model]
    for record in records:
        kind = KIND_LABELS.get(record.history_type, record.history_type)
        if record.history_type == "+" or previous is None:
            changes = _initial_values(record, model=model, excluded=excluded, users=users)
        elif record.history_type == "-":
            changes = []
        else:
            delta = record.diff_against(previous, excluded_fields=excluded)
            changes = []
            for change in delta.changes:
                changes += _expand(model, change.field, change.old, change.new, users)
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


def _initial_values(record, *, model, excluded, users) -> list[FieldChange]:
    changes: list[FieldChange] = []
    for model_field in record.tracked_fields:
        if not model_field.editable or model_field.primary_key or model_field.name in excluded:
            continue
        value = getattr(record, model_field.attname)
        if value in (None, "", {}, []) or value is False:
            continue
        changes += _expand(model, model_field.name, _empty_like(value), value, users)
    return changes


def _empty_like(value):
    return {} if isinstance(value, dict) else None


def _expand(model, name: str, old, new, users) -> list[FieldChange]:
    """One field's change as the page shows it (JSON dictionaries key by key)."""
    if name in JSON_EXPANDED and isinstance(old or {}, dict) and isinstance(new or {}, dict):
        old, new = old or {}, new or {}
        return [
            FieldChange(JSON_EXPANDED[name].format(key=key), _input_text(key, old.get(key)), _input_text(key, new.get(key)))
            for key in sorted(set(old) | set(new), key=str)
            if old.get(key) != new.get(key)
        ]
    if name == "result":
        return [FieldChange("Result", result_summary(old), result_summary(new))]
    model_field = model._meta.get_field(name)
    label = model_field.verbose_name[:1].upper() + model_field.verbose_name[1:]
    if model_field.is_relation and model_field.related_model is get_user_model():
        return [FieldChange(label, users.name(old), users.name(new))]
    if model_field.choices:
        labels = dict(model_field.flatchoices)
        return [FieldChange(label, str(labels.get(old, old or "")), str(labels.get(new, new or "")))]
    return [FieldChange(label, _text(old), _text(new))]


def result_summary(result: dict | None) -> str:
    """A stored result in one line: engine version and annual totals by medium."""
    if not result:
        return ""
    totals = "; ".join(
        f"{selectors.medium_label(medium)} {_text(amount)} kg/yr"
        for medium, amount in sorted((result.get("totals_by_medium") or {}).items())
    )
    version = result.get("engine_version", "?")
    return f"computed with engine {version}" + (f": {totals}" if totals else "")


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float):
        return f"{value:.10g}"
    if isinstance(value, (list, dict)):
        import json

        return json.dumps(value, sort_keys=True)
    return str(value)


def _input_text(key, value) -> str:
    """A stored input as text: the submitter's site data (a list of entries) as sentences."""
    if key == SITE_SPECIFIC and value is not None:
        return entries_text(value)
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

    @property
    def difference_count(self) -> int:
        return sum(row.differs for row in self.rows)


ASSESSMENT_COMPARED = ("status", "engineer", "assessment_date", "notes", "pollution_prevention", "occupational_exposure_rating", "exposure_based_review")


def revision_comparison(*, user, pk: int, other_pk: int | None = None) -> dict[str, Any]:
    """Two revisions of one case side by side, older on the left.

    ``pk`` is the assessment the page belongs to; ``other_pk`` the one to compare it
    with (default: the revision before it, else the one after). Both must be visible to
    ``user`` and belong to the same case, else ``Http404``. Without another revision,
    ``sections`` is empty.
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
    context = {"assessment": assessment, "submission": assessment.submission, "revisions": revisions, "other": other}
    if other is None or other.pk == assessment.pk:
        return context | {"left": assessment, "right": None, "sections": [], "difference_count": 0}
    left, right = sorted((assessment, other), key=lambda a: a.revision)
    sections = [_assessment_section(left, right, users=_UserNames())]
    sections += _scenario_sections(left, right)
    return context | {
        "left": left,
        "right": right,
        "sections": sections,
        "difference_count": sum(section.difference_count for section in sections),
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
        note = ""
        if a is None:
            note = f"Only in revision {right.revision}."
        elif b is None:
            note = f"Only in revision {left.revision}."
        rows = [Row("Title", a.title if a else "", b.title if b else "")]
        rows += _input_rows(a, b)
        rows += _result_rows(a, b)
        sections.append(Section(f"Use: {title} ({key[1]})", rows, note))
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
            return _input_text(symbol, scenario.inputs[symbol])
        if params is not None and symbol in params and params[symbol].default is not None:
            return f"{_text(params[symbol].default)} (default)"
        return "(not given)"

    rows = []
    for symbol in symbols:
        label = f"Input {symbol}"
        if params is not None and symbol in params:
            units = params[symbol].units
            label = f"Input {symbol}: {params[symbol].label}" + (f" [{units}]" if units else "")
        elif symbol == SITE_SPECIFIC:
            label = f"Input {symbol}: {SITE_STEP_TITLE} (EIIP)"
        rows.append(Row(label, value(a, symbol), value(b, symbol)))
        reason_a = a.reasons.get(symbol, "") if a else ""
        reason_b = b.reasons.get(symbol, "") if b else ""
        if reason_a or reason_b:
            rows.append(Row(f"Reason for {symbol}", reason_a, reason_b))
    return rows


def _result_values(scenario: Scenario | None) -> dict[str, str]:
    """Label -> value of every number of a stored result, in a stable order."""
    if scenario is None:
        return {}
    result = scenario.result
    if not result:
        return {"Result": "not computed"}
    values: dict[str, str] = {"Engine version": _text(result.get("engine_version"))}
    for symbol, value in (result.get("facility") or {}).items():
        if not isinstance(value, (dict, list)):
            values[f"Facility {symbol}"] = _text(value)
    for release in result.get("releases") or []:
        for estimate in release.get("estimates") or []:
            label = f"Release {release.get('number')} {release.get('source', '')}, {estimate.get('label')}, kg/yr all sites"
            values[label] = _text(estimate.get("kg_year_all_sites"))
    for exposure in result.get("exposures") or []:
        for estimate in exposure.get("estimates") or []:
            label = (
                f"Exposure {exposure.get('letter')} {exposure.get('activity', '')} ({exposure.get('route', '')}), "
                f"{estimate.get('label')}, mg/day"
            )
            values[label] = _text(estimate.get("mg_day"))
    for medium, amount in sorted((result.get("totals_by_medium") or {}).items()):
        values[f"Total to {selectors.medium_label(medium).lower()}, kg/yr all sites"] = _text(amount)
    return values


def _result_rows(a: Scenario | None, b: Scenario | None) -> list[Row]:
    left, right = _result_values(a), _result_values(b)
    labels = list(left) + [label for label in right if label not in left]
    return [Row(label, left.get(label, ""), right.get(label, "")) for label in labels]
