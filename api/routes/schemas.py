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


class RevisionRework(Schema):
    revision: int
    status: str
    returns: int
    amendments: int
    recomputes_after_submission: int
    seconds_in_status: dict[str, int]
    departures: list[dict[str, Any]]


class CaseRework(Schema):
    case_number: str
    due_date: date | None
    days_left: int | None
    clock_stopped_since: date | None
    revisions: list[RevisionRework]


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


class DepartureEffect(Schema):
    id: str = Field(description="The output's release or exposure: release-N, exposure-L (as esd sensitivity names it)")
    estimate: str = Field(description="The estimate's label with the defaults alone")
    departed_estimate: str | None = Field(description="Its label with this departure alone, where it differs")
    quantity: str = Field(description="kg_yr, kg_site_day, mg_day, mg_m3, apdr_mg_kg_day, add_mg_kg_day or "
                                      "ladd_mg_kg_day")
    units: str
    route: str | None
    default: float | None = Field(description="With every departure at its default")
    departed: float | None = Field(description="With this departure alone")
    relative: float | None = Field(description="(departed - default) / default")
    threshold: str | None = Field(description="The review threshold crossed: rank changed, now above or no "
                                              "longer above the case's TLV/PEL")


class MediaChange(Schema):
    id: str
    default: str
    departed: str


class Departure(Schema):
    symbol: str
    label: str
    default: Any = Field(description="The document's default, as the engine reads it")
    value: Any = Field(description="The value the use was computed with")
    default_text: str
    value_text: str
    source: str = Field(description="submitter data (linked to the case) or reviewer override")
    reason: str
    effects: list[DepartureEffect]
    thresholds: list[str]
    largest_relative: float | None
    media: list[MediaChange]
    refused: dict[str, str] | None = Field(description="The engine's errors when it refuses this departure alone")


class DepartureRow(Schema):
    id: str
    estimate: str
    quantity: str
    units: str
    route: str | None
    defaults: float | None
    all_departures: float | None
    each: list[float | None] = Field(description="With each departure alone, in the order of departures")


class UseDepartures(Schema):
    id: int
    assessment_id: int
    use: int = Field(description="The use's position in its revision")
    title: str
    scenario_key: str
    computed: bool
    summary: str
    departures: list[Departure]
    rows: list[DepartureRow]
    refused: dict[str, str] | None = Field(description="The engine's errors when it refuses the inputs with every "
                                                       "departure at its default")
    all_refused: dict[str, str] | None


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
