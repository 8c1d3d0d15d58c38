"""The API's request and response shapes, for the OpenAPI description. The engine's results
and the case export are the engine's and the transfer's own JSON, described there
(INTERFACE.md, ``assessments.transfer``), so they are open objects here."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from ninja import Field, Schema


class Errors(Schema):
    errors: dict[str, str]


class CaseSummary(Schema):
    id: int
    case_number: str
    case_type: str
    generic_name: str
    submitter: str
    is_cbi: bool
    cbi_claims: list[str]
    latest_status: str
    latest_revision: int | None
    latest_engineer: str | None
    created_at: datetime
    due_date: date = Field(description="The due date as the case list shows it: the review calendar's (an open "
                                        "suspension's days so far added), else the default period's")
    url: str


class CasePage(Schema):
    cases: list[CaseSummary]
    newer: str | None
    older: str | None


class RevisionSummary(Schema):
    id: int
    revision: int
    status: str
    engineer: str
    approved_by: str | None
    approved_at: datetime | None
    created_at: datetime
    url: str


class CaseDetail(Schema):
    id: int
    case: dict[str, Any]
    is_cbi: bool
    revisions: list[RevisionSummary]


class UseSummary(Schema):
    id: int
    title: str
    scenario_key: str
    state: str
    url: str


class Decision(Schema):
    action: str
    from_status: str
    to_status: str
    by: str
    at: datetime
    comment: str


class AssessmentDetail(Schema):
    id: int
    case_id: int
    revision: int
    status: str
    engineer: str
    approved_by: str | None
    approved_at: datetime | None
    choices: dict[str, Any]
    case: dict[str, Any]
    uses: list[UseSummary]
    decisions: list[Decision]


class UseDetail(Schema):
    id: int
    assessment_id: int
    title: str
    scenario_key: str
    state: str
    inputs: dict[str, Any]
    reasons: dict[str, Any]
    computed_inputs: dict[str, Any] | None
    computed_at: datetime | None
    result: dict[str, Any] | None


class SubmitIn(Schema):
    note: str = ""
    volume_reason: str = ""


class ReturnIn(Schema):
    comment: str
    use_comments: dict[int, str] = {}


class ApproveIn(Schema):
    comment: str = ""


class StatusOut(Schema):
    id: int
    status: str
    revision: int
    url: str


class ReportState(Schema):
    state: str
    status_url: str | None = None
    file_url: str
    detail: dict[str, Any] = {}


class ImportIn(Schema):
    document: dict[str, Any]
    user_map: dict[str, str] = {}


class ImportOut(Schema):
    id: int
    case_number: str
    url: str
    seals: list[str]
