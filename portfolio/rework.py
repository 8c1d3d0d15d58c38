"""Rework, from the history already kept: what a revision's review decisions, its uses'
historical records and its case's amendments say, as the facts of its ledger record
(``models.RevisionRecord``), and each record's share of the portfolio's cells.

Rules (docs/portfolio.md says them to the reader):

- **Returns**: the revision's review decisions "returned" (``DecisionAction.RETURN``).
- **Amendments**: the case's changes saved after a revision of it was approved (the history
  page's "amended" entries: ``timeline.AMENDED``, ``services.submission_update`` asks each
  one's reason), each counted on the revision that was the case's latest when it was made.
- **Recomputes after submission**: each new result of one of the revision's uses (deleted
  ones too: a historical record whose ``computed_at`` is new) computed after the revision was
  first submitted.
- **Time in each status**: from the revision's start (its ``created_at``, a draft) to each
  decision's change of status, and from the last one to now; approved work has no clock.
- **Departures**: each input of a computed use that departs from the document's default
  (``assessments.departures``), with whether it alone crosses a review threshold and how
  far it alone moves the use's figures: the largest factor between a figure with the
  defaults alone and with that departure alone, kept as ``|ln factor|`` in millionths.

Each function here is pure: the ledger (``portfolio.ledger``) reads the rows and writes the
records; the page reads the cells these shares add up to.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from assessments.models import DecisionAction, Status

from .models import EVERY_METHOD, CaseRecord, RevisionRecord

#: The statuses whose time the portfolio measures (an approved revision's clock has stopped).
TIMED = (Status.DRAFT, Status.SUBMITTED, Status.RETURNED)
#: ``|ln factor|`` is kept in millionths (an integer: a cell's sums stay exact).
LOG_SCALE = 1_000_000

#: A cell's key: (engineer id, method, month, CBI) for rework; with the input's symbol for a
#: departure; (engineer id, method, CBI, due date, clock stopped) for an open case.
CellKey = tuple[Any, ...]
Share = dict[CellKey, dict[str, int]]


@dataclass(frozen=True)
class Span:
    """A time the revision spent in ``status``, from ``start`` to ``end`` (None: now)."""

    status: str
    start: datetime
    end: datetime | None


def status_spans(started: datetime, decisions: Sequence[tuple[datetime, str]]) -> list[Span]:
    """The revision's statuses in order: a draft from ``started``, then each decision's new
    status (``(at, to_status)``, oldest first) until the next one; the last has no end."""
    spans: list[Span] = []
    status, start = str(Status.DRAFT), started
    for at, to_status in decisions:
        spans.append(Span(status, start, at))
        status, start = to_status, at
    spans.append(Span(status, start, None))
    return spans


def closed_seconds(spans: Iterable[Span]) -> dict[str, int]:
    """Whole seconds in each timed status over the spans that have ended."""
    seconds = {str(status): 0 for status in TIMED}
    for span in spans:
        if span.end is not None and span.status in seconds:
            seconds[span.status] += max(0, int((span.end - span.start).total_seconds()))
    return seconds


def first_submitted(decisions: Iterable[tuple[datetime, str]]) -> datetime | None:
    """When the revision was first submitted (``(at, action)`` pairs), or None."""
    times = [at for at, action in decisions if action == DecisionAction.SUBMIT]
    return min(times) if times else None


def recomputes_after(submitted: datetime | None, computed: Iterable[tuple[int, datetime]]) -> int:
    """The new results (``(use id, computed_at)`` of every historical record of the uses)
    computed after ``submitted``; none before a first submission."""
    if submitted is None:
        return 0
    return len({(use, at) for use, at in computed if at > submitted})


def amendments_within(times: Iterable[datetime], start: datetime, end: datetime | None) -> int:
    """The case's amendments made from ``start`` up to ``end`` (None: still the latest)."""
    return sum(1 for at in times if at >= start and (end is None or at < end))


def amendment_times(changes: Iterable[tuple[datetime, str]], approvals: Iterable[datetime | None]) -> list[datetime]:
    """The case's amendments: its historical records of a change (``(at, history_type)``,
    ``"~"``) saved after its first approval (``approvals``: each revision's ``approved_at``)."""
    approved = [at for at in approvals if at is not None]
    if not approved:
        return []
    first = min(approved)
    return [at for at, kind in changes if kind == "~" and at > first]


def month_of(moment: datetime) -> date:
    """The first day of ``moment``'s month, in the deployment's time zone."""
    return timezone.localtime(moment).date().replace(day=1)


def largest_log(effects: Iterable[Any]) -> int | None:
    """The largest ``|ln(departed / default)|`` of a departure's effects (each with
    ``default`` and ``departed``), in millionths; None when no effect has two positive
    figures (a figure from or to zero has no finite factor)."""
    logs = [abs(math.log(effect.departed / effect.default)) for effect in effects
            if _positive(effect.default) and _positive(effect.departed)]
    return round(max(logs) * LOG_SCALE) if logs else None


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def departure_fact(*, use: int, scenario: str, symbol: str, thresholds: Sequence[str], effects: Iterable[Any]) -> dict[str, Any]:
    """One departure as a revision record keeps it."""
    return {"use": use, "scenario": scenario, "symbol": symbol, "crossed": bool(thresholds),
            "log_micro": largest_log(effects)}


def factor_text(log_micro: float) -> str:
    """A typical factor, from a mean ``|ln factor|`` in millionths: "×1.5", "×12.3", "×150"."""
    factor = math.exp(log_micro / LOG_SCALE)
    return f"×{factor:.3g}" if factor < 100 else f"×{factor:,.0f}"


# --- each record's share of the cells --------------------------------------------------------


def epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def _methods(scenarios: Sequence[str]) -> list[str]:
    return [EVERY_METHOD, *sorted(set(scenarios))]


def rework_share(record: RevisionRecord) -> Share:
    """A revision's share of the rework cells: one in each of its methods' cells and one in
    the every-method cell, its counts, its closed seconds and its current status's entry."""
    measures = {
        "revisions": 1, "returned_revisions": int(record.returns > 0), "returns": record.returns,
        "amendments": record.amendments, "recomputes": record.recomputes,
        "draft_seconds": record.draft_seconds, "submitted_seconds": record.submitted_seconds,
        "returned_seconds": record.returned_seconds,
    }
    if record.status in TIMED:
        measures[f"{record.status}_now"] = 1
        measures[f"{record.status}_since"] = epoch(record.status_since)
    return {(record.engineer_id, method, record.month, record.cbi): dict(measures)
            for method in _methods(record.scenarios)}


def departure_share(record: RevisionRecord) -> Share:
    """A revision's share of the departure cells: each departure of each computed use."""
    share: Share = {}
    for fact in record.departures:
        key = (record.engineer_id, fact["scenario"], record.month, record.cbi, fact["symbol"])
        cell = share.setdefault(key, {"uses": 0, "crossed": 0, "measured": 0, "log_micro": 0})
        cell["uses"] += 1
        cell["crossed"] += int(fact["crossed"])
        if fact["log_micro"] is not None:
            cell["measured"] += 1
            cell["log_micro"] += int(fact["log_micro"])
    return share


def due_share(record: CaseRecord) -> Share:
    """An open case's share of the due cells (nothing for a case whose review is approved): in
    its engineer's, method's and CBI's total of running (or stopped) cases, and, running, on
    its due date."""
    if not record.open:
        return {}
    share: Share = {}
    for method in _methods(record.scenarios):
        share[(record.engineer_id, method, record.cbi, None, record.stopped)] = {"cases": 1}
        if not record.stopped and record.due_on is not None:
            share[(record.engineer_id, method, record.cbi, record.due_on, False)] = {"cases": 1}
    return share


def difference(old: Share, new: Share) -> Share:
    """What to add to each cell to go from ``old``'s share to ``new``'s (zero changes left out)."""
    delta: Share = {}
    for key in old.keys() | new.keys():
        before, after = old.get(key, {}), new.get(key, {})
        changes = {name: after.get(name, 0) - before.get(name, 0) for name in before.keys() | after.keys()}
        changes = {name: value for name, value in changes.items() if value}
        if changes:
            delta[key] = changes
    return delta


def accumulate(total: Share, share: Share) -> Share:
    """Add ``share`` into ``total`` (in place) and return it: the ledger's rebuild sums every
    record's share so."""
    for key, measures in share.items():
        cell = total.setdefault(key, {})
        for name, value in measures.items():
            cell[name] = cell.get(name, 0) + value
    return total


def summed_shares(shares: Iterable[Share]) -> Share:
    """The cells that ``shares`` add up to."""
    total: Share = {}
    for share in shares:
        accumulate(total, share)
    return total


def seconds_in(record: RevisionRecord, now: datetime) -> dict[str, int]:
    """A revision's whole seconds in each timed status up to ``now``: its ended spans, and its
    current one when it is still open."""
    seconds = {str(Status.DRAFT): record.draft_seconds, str(Status.SUBMITTED): record.submitted_seconds,
               str(Status.RETURNED): record.returned_seconds}
    if record.status in seconds:
        seconds[record.status] += max(0, epoch(now) - epoch(record.status_since))
    return seconds
