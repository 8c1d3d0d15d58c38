"""The portfolio page and its CSV, composed from ``portfolio.figures``: the same sections, the
same figures and the same words in both (a figure is read once, then drawn or written).

Sections: the open cases by days left (a chart, and the soonest due with their rework), the
rework of the period (returns, amendments, recomputes after submission, and the time in
each status), the methods with the most rework, and the inputs most often departed from
with their typical effect.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from assessments.due_dates import due_soon_days
from assessments.impact_runs import engineer_choices
from assessments.models import Status
from assessments.numbers import significant
from audit.selectors import csv_cell

from . import figures
from .charts import Chart, Row, bar_chart
from .figures import Filters, OpenCase

STATUS_WORDS = {Status.DRAFT: "Draft", Status.SUBMITTED: "Submitted (awaiting review)",
                Status.RETURNED: "Returned to the engineer"}


def _days(value: float) -> str:
    return f"{significant(value, 3)} days" if value else "0 days"


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


@dataclass(frozen=True)
class Portfolio:
    filters: Filters
    who: str
    period: str
    charts: list[Chart]
    rework: figures.Rework
    totals: list[tuple[str, str]]
    open_cases: list[OpenCase]
    methods: list[figures.MethodRework]
    departures: list[figures.InputDeparture]


def portfolio(filters: Filters, user: User | AnonymousUser, *, now: datetime) -> Portfolio:
    """Everything the page shows under ``filters``, as ``user`` may see it."""
    today = now.date()
    buckets = figures.days_left_buckets(filters, user, today=today, soon=due_soon_days())
    total = figures.rework_total(filters, user, now=now)
    methods = figures.rework_by_method(filters, user, now=now)
    departures = figures.departures_most_often(filters, user, now=now)
    open_count = sum(b.count for b in buckets)
    charts = [
        bar_chart(
            id="chart-days-left", title="Open cases by days left",
            description=(f"{_count(open_count, 'open case', 'open cases')}: " + "; ".join(
                f"{b.label.lower()} {b.count:,}" for b in buckets) + ".") if open_count else "No open case.",
            rows=[Row(b.label, b.count, f"{b.count:,}") for b in buckets] if open_count else [],
            columns=["Days left", "Open cases"], table=[[b.label, f"{b.count:,}"] for b in buckets]),
        bar_chart(
            id="chart-status-time", title="Time in each status, per revision",
            description=(f"Over {_count(total.revisions, 'revision', 'revisions')} started in the period, mean days "
                         "per revision: " + "; ".join(f"{STATUS_WORDS[Status(s)].lower()} {_days(d)}"
                                                       for s, d in total.days.items()) + ".")
            if total.revisions else "No revision was started in the period.",
            rows=[Row(STATUS_WORDS[Status(s)], d, _days(d)) for s, d in total.days.items()] if total.revisions else [],
            columns=["Status", "Mean days per revision"],
            table=[[STATUS_WORDS[Status(s)], _days(d)] for s, d in total.days.items()]),
        bar_chart(
            id="chart-method-rework", title="Methods with the most rework",
            description=("Returns, amendments and recomputes after submission per revision, most first: " + "; ".join(
                f"{m.title} {significant(m.rework_per_revision, 3)}" for m in methods) + ".") if methods
            else "No revision with a use was started in the period.",
            rows=[Row(m.title, m.rework_per_revision, significant(m.rework_per_revision, 3)) for m in methods],
            columns=["Method", "Revisions", "Returns", "Amendments", "Recomputes after submission",
                     "Rework per revision"],
            table=[[m.title, f"{m.rework.revisions:,}", f"{m.rework.returns:,}", f"{m.rework.amendments:,}",
                    f"{m.rework.recomputes:,}", significant(m.rework_per_revision, 3)] for m in methods]),
        bar_chart(
            id="chart-departures", title="Inputs most often departed from",
            description=("Uses whose input departs from the document's default, most first: " + "; ".join(
                f"{d.label} ({d.method}) {d.uses:,}" for d in departures) + ".") if departures
            else "No computed use departs from a default in the period.",
            rows=[Row(f"{d.label} ({d.symbol})", d.uses, f"{d.uses:,}") for d in departures],
            columns=["Input", "Method", "Uses", "Crossing a review threshold", "Typical effect"],
            table=[[f"{d.label} ({d.symbol})", d.method, f"{d.uses:,}", f"{d.crossed:,}", d.typical]
                   for d in departures], text_columns=2),
    ]
    totals = [("Revisions started", f"{total.revisions:,}"),
              ("Revisions returned at least once", f"{total.returned_revisions:,}"),
              ("Returns to the engineer", f"{total.returns:,}"),
              ("Amendments of the case after an approval", f"{total.amendments:,}"),
              ("Recomputes after submission", f"{total.recomputes:,}")]
    return Portfolio(filters=filters, who=_who(filters, user), period=dict(figures.PERIODS)[filters.period],
                     charts=charts, rework=total, totals=totals,
                     open_cases=figures.open_case_rows(filters, user, today=today), methods=methods,
                     departures=departures)


def _who(filters: Filters, user: User | AnonymousUser) -> str:
    if filters.engineer is None:
        return "The team"
    if filters.engineer == user.pk:
        return "Your work"
    found = engineer_choices().filter(pk=filters.engineer).first()
    return f"{found.get_full_name() or found.get_username()}'s work" if found else "One engineer's work"


CSV_HEADER = ("section", "row", "column", "value")


class _Cells:
    """Rows of the CSV: text a spreadsheet reads as text (``audit.selectors.csv_cell``: no
    formula), whole numbers as numbers."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def row(self, values: list[object]) -> None:
        self.writer.writerow([value if isinstance(value, int) else csv_cell(value) for value in values])


def as_csv(page: Portfolio) -> str:
    """The page's figures as one table (a row per figure: section, row, column, value)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    cells = _Cells(writer)
    writer.writerow(CSV_HEADER)
    cells.row(["Filters", "Who", "", page.who])
    cells.row(["Filters", "Method", "", dict(figures.method_choices()).get(page.filters.scenario, "Every method")])
    cells.row(["Filters", "Period", "", page.period])
    for label, value in page.totals:
        cells.row(["Rework", label, "", value])
    for chart in page.charts:
        for row in chart.rows:
            for column, value in zip(chart.columns[1:], row[1:]):
                cells.row([chart.title, row[0], column, value])
    for case in page.open_cases:
        for column, count in (("days left", case.days_left), ("returns", case.returns),
                              ("amendments", case.amendments), ("recomputes after submission", case.recomputes)):
            cells.row(["Open cases, soonest due", case.case.case_number, column, count])
    return out.getvalue()
