"""Reads for the review: two revisions of one case side by side, as the comparison page
shows them.

Visibility is the selectors' rule (``selectors.assessment_get``): a CBI case is a 404 for
an uncleared user here as everywhere. Values read as in the history
(``assessments.timeline``): inputs as entered, with their units; computed figures to three
significant figures (``assessments.numbers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404

from . import presentation, selectors
from .models import CASE_SNAPSHOT_FIELDS, Assessment, Scenario, Status, Submission, own_field
from .numbers import quantity
from .roles import is_cbi_cleared
from .stored_text import declared_params, input_label, input_text, reason_label, value_text
from .timeline import UserNames


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


#: The assessment's items compared: its status and engineer, then the reviewer's choices for the IRER.
ASSESSMENT_COMPARED = ("status", "engineer", *Assessment.IRER_CHOICE_FIELDS)


def revision_comparison(
    *, user: User | AnonymousUser, pk: int, other_pk: int | None = None, show_all: bool = False
) -> dict[str, Any]:
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
    sections = _case_sections(left, right, cleared=is_cbi_cleared(user))
    sections.append(_assessment_section(left, right, users=UserNames()))
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


#: A claimed field's value for a viewer not cleared for CBI, as the sanitised copy prints it
#: (``reports.document.CBI_TEXT``, which this layer does not import).
CBI_TEXT = "[CBI]"
#: A field of the case in a revision's CBI claims, in the comparison.
CLAIMED, NOT_CLAIMED = "Claimed as CBI", "Not claimed"
#: Where the comparison's case data come from, per revision.
CASE_AS_APPROVED, CASE_AS_NOW = "the case as approved", "the case as it is now"


def _capitalised(text: object) -> str:
    text = str(text)
    return text[:1].upper() + text[1:]


def _case_value_text(name: str, value: Any) -> str:
    """A case field's value in words: a choice by its label, a flag Yes or No, a number as entered."""
    field = own_field(Submission, name)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value or ""))
    return value_text(value)


def _claims(assessment: Assessment) -> list[str]:
    """The fields a revision's case claims: those claimed at its approval, for an approved
    revision; the case's claims now, otherwise."""
    snapshot = assessment.case_snapshot if assessment.status == Status.APPROVED else None
    if isinstance(snapshot, dict):
        return list(snapshot.get("cbi_claims") or [])
    return list(assessment.submission.cbi_claims or [])


def _case_sections(left: Assessment, right: Assessment, *, cleared: bool) -> list[Section]:
    """Each revision's case (an approved revision's as it was approved, ``Assessment.case_data``;
    another's as the case is now), field by field under its label, then its CBI claims,
    field by field. Listed first: a difference there explains differences below.

    The page is seen by the users who may see the case now; one not cleared for CBI sees
    a case whose claims were withdrawn since a revision's approval. For them, a field
    claimed in either revision's case (the claims as approved and any made since) reads
    ``[CBI]`` on both sides, as the sanitised copy prints it."""
    cases = (left.case_data, right.case_data)
    rows = []
    for name in CASE_SNAPSHOT_FIELDS:
        if name == "cbi_claims":
            continue
        label = _capitalised(own_field(Submission, name).verbose_name)
        if not cleared and any(case.is_claimed(name) for case in cases):
            rows.append(Row(label, CBI_TEXT, CBI_TEXT))
            continue
        rows.append(Row(label, *(_case_value_text(name, getattr(case, name)) for case in cases)))
    claimed = (set(_claims(left)), set(_claims(right)))
    claim_rows = [
        Row(_capitalised(own_field(Submission, name).verbose_name),
            *(CLAIMED if name in claims else NOT_CLAIMED for claims in claimed))
        for name in Submission.CBI_CLAIMABLE
    ]

    def source(assessment: Assessment) -> str:
        return CASE_AS_APPROVED if assessment.case_data is not assessment.submission else CASE_AS_NOW

    note = (f"Revision {left.revision}: {source(left)}; revision {right.revision}: {source(right)}.")
    return [Section("Case data", rows, note), Section("CBI claims", claim_rows, note)]


def _assessment_section(left: Assessment, right: Assessment, *, users: UserNames) -> Section:
    rows = []
    for name in ASSESSMENT_COMPARED:
        model_field = own_field(Assessment, name)
        label = model_field.verbose_name[:1].upper() + model_field.verbose_name[1:]
        if model_field.is_relation:
            rows.append(Row(label, users.name(getattr(left, model_field.attname)), users.name(getattr(right, model_field.attname))))
        elif model_field.choices:
            rows.append(Row(label, getattr(left, f"get_{name}_display")(), getattr(right, f"get_{name}_display")()))
        else:
            rows.append(Row(label, value_text(getattr(left, name)), value_text(getattr(right, name))))
    return Section("Assessment", rows)


def _scenario_sections(left: Assessment, right: Assessment) -> list[Section]:
    """Scenarios are paired by position and method (a new revision keeps both); an
    unpaired one is compared with nothing."""
    left_scenarios = {(s.position, s.scenario_key): s for s in left.scenarios.all()}
    right_scenarios = {(s.position, s.scenario_key): s for s in right.scenarios.all()}
    sections = []
    for key in sorted(set(left_scenarios) | set(right_scenarios)):
        a, b = left_scenarios.get(key), right_scenarios.get(key)
        either = b or a
        assert either is not None, "the key is one of the two revisions' uses"
        title = either.title if not (a and b and a.title != b.title) else f"{a.title} / {b.title}"
        note = f"Method: {presentation.method_title(key[1])}."
        if a is None:
            note += f" Only in revision {right.revision}."
        elif b is None:
            note += f" Only in revision {left.revision}."
        rows = [Row("Title", a.title if a else "", b.title if b else "")]
        rows += _input_rows(a, b)
        rows += _result_rows(a, b)
        sections.append(Section(f"Use: {title}", rows, note))
    return sections


def _input_rows(a: Scenario | None, b: Scenario | None) -> list[Row]:
    either = a or b
    assert either is not None, "a use is compared with nothing on one side only"
    params = declared_params(either.scenario_key)
    symbols: list[str] = []
    if params is not None:
        symbols = [p.symbol for p in params.params]
    for scenario in (a, b):
        for symbol in (scenario.inputs if scenario else {}):
            if symbol not in symbols:
                symbols.append(symbol)

    def value(scenario: Scenario | None, symbol: str) -> str:
        if scenario is None:
            return ""
        if symbol in scenario.inputs:
            return input_text(symbol, scenario.inputs[symbol], params)
        if params is not None and symbol in params and params[symbol].default is not None:
            return input_text(symbol, None, params)
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
    for row in presentation.facility_rows(result=result, scenario_key=scenario.scenario_key):
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
        values[f"Total to {presentation.medium_label(medium).lower()}, all sites"] = quantity(amount, "kg/yr")
    return values


#: A use without a result, in the comparison.
NOT_COMPUTED_YET = "not computed yet"


def _result_rows(a: Scenario | None, b: Scenario | None) -> list[Row]:
    left, right = _result_values(a), _result_values(b)
    labels = list(left) + [label for label in right if label not in left]
    return [Row(label, left.get(label, ""), right.get(label, "")) for label in labels]
