"""The IRER for one assessment, built once as a document (:mod:`.document`) that every copy
is drawn from: the browser preview, the PDF and the Word document, full or sanitised (EPA
2018 photoresist update, Section 7, is the layout).

Everything is read from the stored snapshots (``Scenario.result``, and for an approved
revision ``Assessment.case_snapshot``: ``models.as_printed``), so an approved report prints
exactly what was approved, whatever the case is amended to later; a use whose inputs
changed since it was computed is marked NOT CURRENT on the first page and beside the use.
Numbers are formatted here, as EPA prints them (two significant figures in E-notation).
Nothing here knows a scenario: sites, days, workers, the process description and the mass
balance are the engine's declarations in the result.

CBI is a matter of where each part comes from, never of how it is spelled: every figure
and every sentence of the engine is a :class:`~.document.Value` carrying the claimed case
fields it derives from (:class:`.derivation.UseDerivation`), every figure composed here
(totals, workers over all sites, the uses against the production volume) the union of
what it is composed of, people's words a :class:`~.document.Words`; a list whose length
or order moves with a claimed value is :class:`~.document.Withheld` whole.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any

from django.utils import dateformat, timezone

from ..esd.text import irer_percent
from ..exposure_limits import case_limit
from ..exposure_rating import printed_rating
from ..irer_status import irer_status_text
from ..models import Assessment, IrerNote, Status, Submission, as_printed
from ..numbers import entered
from ..selectors import uses_volume
from ..templatetags.figures import epa
from . import header as header_lines
from .cbi import redaction_for
from .departures_appendix import appendix as departures_appendix
from .document import (
    Block,
    Fields,
    Group,
    Heading,
    Items,
    Para,
    Report,
    Running,
    Text,
    Value,
    Withheld,
    Words,
    inline,
)
from .sensitivity_appendix import appendix as sensitivity_appendix
from .use_report import UseBuilder, strong

TITLE = "INITIAL REVIEW ENGINEERING REPORT"
SANITISED_NOTE = (
    "SANITISED COPY: items claimed as confidential business information (CBI) are replaced by "
    "the generic name or [CBI], as are the figures and sentences derived from them."
)
CBI_BANNER = "CONTAINS CONFIDENTIAL BUSINESS INFORMATION: claimed items are in [brackets]"
NOT_CURRENT_LEAD = " these uses' results do not follow from their inputs as they stand; do not rely on their figures."


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


# --- One use ----------------------------------------------------------------------------


# --- The case header ----------------------------------------------------------------------


def _item(submission: Submission, name: str, text: Any, claimed: frozenset[str]) -> Value:
    """A header item: claimed items bracketed in the full copy, replaced in the sanitised one
    (the specific name by the generic name); an empty one says it is not given."""
    text = header_lines.NOT_GIVEN if text is None or str(text).strip() == "" else str(text)
    if name not in claimed:
        return Value(text, item=True)
    hidden = submission.generic_name if name == "chemical_name" else "[CBI]"
    return Value(text, frozenset({name}), hidden, item=True)


def header_blocks(submission: Submission, assessment: Assessment, claimed: frozenset[str], uses: list[UseBuilder],
                  volume: dict[str, Any]) -> list[Block]:
    """The header as ChemSTEER prints it (the sample IRER's first page; :mod:`.header`
    formats its figures and lines)."""
    s = submission
    labels = header_lines.PROPERTY_LABELS

    def item(name: str, text: Any) -> Value:
        return _item(s, name, text, claimed)

    def words(text: str) -> Words | Text:
        """The reviewer's or the case's words, or that they are not given."""
        return Words(text) if (text or "").strip() else Text(header_lines.NOT_GIVEN)

    concentration = irer_percent(s.use_concentration) if s.use_concentration else ""
    use_line: list[Any] = [item("use_description", s.use_description)]
    if concentration or "use_concentration" in claimed:
        use_line += [Text(" (concentration "), item("use_concentration", concentration), Text(")")]
    engineer = assessment.engineer.get_full_name() or assessment.engineer.get_username()
    pbt = inline(s.pbt_rating or header_lines.NOT_GIVEN, Text(" ") if s.pbt_note else "",
                 Words(s.pbt_note) if s.pbt_note else "")
    limit, note = case_limit(s), (s.tlv_pel or "").strip()
    if limit is None:
        tlv = inline(words(note))
    else:
        tlv = inline(limit.text, *((" (", Words(note), ")") if note else ()))
    # The rating: the reviewer's override, else derived from the uses' doses and workers
    # (ChemSTEER's SetOER), so it moves with what their exposures and sites move with.
    rating = printed_rating(assessment, [u.scenario for u in uses])
    rating_claims = frozenset() if assessment.occupational_exposure_rating else frozenset().union(
        *(u.d.under("exposures", "facts") for u in uses))
    blocks: list[Block] = [
        Fields((
            ("PV (kg/yr):", (item("production_volume_kg_yr", entered(s.production_volume_kg_yr)),
                             Text(f" {s.get_volume_qualifier_display()}"))),
            ("ENGINEER:", inline(engineer)),
            ("SUBMITTER:", (item("submitter", s.submitter),)),
            ("USE:", tuple(use_line)),
            ("OTHER USES:", (item("other_uses", s.other_uses),)),
            ("MSDS:", inline(f"{_yes_no(s.msds)} \u00a0 Label: {_yes_no(s.label)}")),
            ("TLV/PEL:", tlv),
        )),
        Heading(2, inline("CRSS")),
        Fields((
            ("Chemical Name:", (item("chemical_name", s.chemical_name),)),
            ("CAS No.:", (item("cas_number", s.cas_number),)),
            (labels["water_solubility_g_l"],
             inline(header_lines.solubility_text(s.water_solubility_g_l, s.water_solubility_temp_c))),
            ("Physical State:", inline(s.get_physical_state_display() or header_lines.NOT_GIVEN)),
            (labels["molecular_weight"], (item("molecular_weight", header_lines.given_number(s.molecular_weight)),
                     Text(f" \u00a0 %<500: {header_lines.given_number(s.pct_below_500_da, ' %')} \u00a0 %<1000: "
                          f"{header_lines.given_number(s.pct_below_1000_da, ' %')}"))),
            (labels["vapour_pressure_torr"],
             inline(header_lines.vapour_pressure_text(s.vapour_pressure_torr, s.vapour_pressure_temp_c))),
            ("Consumer Use:", (item("consumer_use", s.consumer_use),)),
        )),
        Heading(2, inline("SAT (concerns)")),
        Fields((
            ("Migration to groundwater:", (words(s.groundwater_migration_text),)),
            ("PBT rating:", pbt),
            ("Health:", (words(s.sat_health),)),
            ("Eco:", (words(s.sat_eco),)),
        )),
        Fields((("OCCUPATIONAL EXPOSURE RATING:", (Value(rating, rating_claims),)),)),
        Heading(2, inline("Notes & key assumptions")),
    ]
    generated: list[Any] = [Text(header_lines.generated_by(
        (u.result or {}).get("engine_version", "") for u in (b.scenario for b in uses) if u.result))]
    for use in uses:
        generated += [Text(" "), use.title, Text(f": {use.method}")]
        if not use.result:
            generated.append(Text(" (not computed yet)"))
        elif use.result.get("default_set", {}).get("summary"):
            generated += [Text(" ("), use.engine_text(use.result["default_set"]["summary"], "default_set"), Text(")")]
        generated.append(Text("."))
    blocks.append(Para(tuple(generated), cls="generated-by"))
    if assessment.notes:
        blocks.append(Para((Words(assessment.notes, breaks=True),)))
    if volume["excess"]:
        # Whether the uses exceed the volume, and by how much, moves with the volume and the uses.
        claims = (claimed & {"production_volume_kg_yr"}).union(*(u.d.of("facts/used_kg_yr") for u in uses))
        reason = assessment.volume_excess_reason
        blocks.append(Withheld(claims, (Para((
            strong("USES AND PRODUCTION VOLUME:"), Text(" "), Value(volume["message"], claims),
            *((Text(" Engineer's reason: "), Words(reason)) if reason else (Text(" No reason given yet."),)),
        ), cls="volume-excess"),)))
    blocks += [
        Heading(2, inline("Pollution prevention considerations")),
        Para((Words(assessment.pollution_prevention, breaks=True) if assessment.pollution_prevention.strip()
              else Text(header_lines.NOT_GIVEN),)),
        Fields((("EXPOSURE-BASED REVIEW:", inline(_yes_no(assessment.exposure_based_review))),)),
    ]
    return blocks


# --- Across the uses ------------------------------------------------------------------------


def _local_date(value: date | None) -> str:
    """A date or time as the status line prints it, in the current time zone: ``11/25/2026``."""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return dateformat.format(value, "n/j/Y") if value else ""


def status_lines(assessment: Assessment, approver: str) -> tuple[str, str]:
    """The status under the title (``CEB Staff Draft 11/2/2026``: ChemSTEER's wording the
    reviewer chose, :func:`assessments.irer_status.irer_status_text`, and the assessment's
    date) and the one in the running footer (``CEB Staff Draft``). An approved revision says
    who approved it and when, once: ``Approved 11/25/2026 by Sam Supervisor``, in both."""
    label = irer_status_text(assessment)
    if assessment.status == Status.APPROVED and approver:
        approved = f"{label} {_local_date(assessment.approved_at)} by {approver}"
        return approved, approved
    return f"{label} {_local_date(assessment.assessment_date)}".strip(), label


def appendix_printed(assessment: Assessment, appendix: bool | None = None) -> bool:
    """Whether the report prints its appendix (releases as computed, inputs, calculation
    trace): ``appendix`` when given, else the reviewer's choice (``Assessment.irer_appendix``),
    and where they made none, for drafts and not for the approved copy, which then prints
    in about the sample IRER's length."""
    if appendix is None:
        appendix = assessment.irer_appendix
    if appendix is None:
        return assessment.status != Status.APPROVED
    return bool(appendix)


def releases_combined(assessment: Assessment, combine: bool | None = None) -> bool:
    """Whether same-medium releases print stacked as ChemSTEER stacks them: ``combine`` when
    given, else the reviewer's choice stored with the revision (``Assessment.irer_combine_releases``)."""
    if combine is None:
        combine = assessment.irer_combine_releases
    return bool(combine)


def irer_report(assessment: Assessment, *, appendix: bool | None = None, combine: bool | None = None) -> Report:
    """The report of ``assessment`` as one document, with every part's provenance: the one
    every copy is drawn from (:meth:`Report.copy`). ``assessment`` as printed (an approved
    revision's case as approved: ``models.as_printed``); ``appendix`` and ``combine``: the
    layout options (:func:`appendix_printed`, :func:`releases_combined`)."""
    submission = assessment.submission
    claimed = frozenset(submission.cbi_claims or [])
    approved = assessment.status == Status.APPROVED
    with_appendix = appendix_printed(assessment, appendix)
    combined = releases_combined(assessment, combine)
    scenarios = list(assessment.scenarios.all())
    case_name = Words(submission.case_name or submission.generic_name)
    # ChemSTEER's wording the engineer chose, printed after "IRER Note:"
    release_note = IrerNote(assessment.irer_note).label.removeprefix("IRER Note: ")
    uses = [UseBuilder(s, n, submission, claimed, case_name, release_note, combined=combined, appendix=with_appendix)
            for n, s in enumerate(scenarios, start=1)]
    approver = assessment.approved_by
    approved_by = (approver.get_full_name() or approver.get_username()) if approved and approver else ""
    status_line, running_status = status_lines(assessment, approved_by)
    cbi = submission.is_cbi
    cbi_label = f"CBI: {_yes_no(cbi)}"
    first: list[Block] = [
        Group((Heading(1, inline(TITLE)), Para(inline(cbi_label), cls="cbi-flag")), cls="title-row"),
    ]
    if cbi:
        first.append(Withheld(frozenset(claimed), (Para(inline(CBI_BANNER), cls="cbi-banner"),),
                              SANITISED_NOTE, "sanitised-note"))
    first += [
        Para((Words(case_name.text, style="strong"), Text(f" · Case {submission.case_number} · Case type: "
                                                          f"{submission.case_type} · Revision {assessment.revision}"))),
        Para(inline(status_line), cls="status-line"),
    ]
    stale = [(n, u) for n, u in enumerate(uses, start=1) if u.not_current]
    if stale:
        first.append(Group((
            Para((strong("NOT CURRENT:"), Text(NOT_CURRENT_LEAD))),
            Items(tuple((Text(f"Use {n}, "), u.title, Text(f": {u.not_current}")) for n, u in stale)),
        ), cls="not-current", role="alert"))
    volume = uses_volume(assessment=assessment, scenarios=scenarios)
    blocks: list[Block] = [*first, *header_blocks(submission, assessment, claimed, uses, volume)]
    blocks += [u.section() for u in uses]
    if len(uses) > 1:
        totals = frozenset().union(*(u.d.under("totals_by_medium") for u in uses))
        total = sum(sum(((u.result or {}).get("totals_by_medium") or {}).values()) for u in uses)
        blocks.append(Para((strong("ALL USES: RELEASE TOTAL "), Value(epa(total), totals, style="strong"),
                            strong(" kg/yr - all sites")), cls="total"))
    approval: list[Block] = []
    if approved_by:
        approved_at = assessment.approved_at
        # Printed for an approved revision only, which has its approval's time (the
        # constraint assessment_approved_has_approver).
        assert approved_at is not None, "an approved revision has no approval time"
        approval.append(Para(inline(f"Approved by {approved_by} on "
                                    f"{dateformat.format(_local(approved_at), 'F j, Y')}."), cls="approval"))
    # The sensitivity and the defaults against the case, each by the reviewer's choice (off by
    # default: ChemSTEER's length).
    optional: list[Block] = [*([sensitivity_appendix(uses)] if assessment.irer_sensitivity else []),
                             *([departures_appendix(uses)] if assessment.irer_departures else [])]
    if with_appendix:
        appendix_blocks: list[Block] = [
            Heading(2, inline("Appendix: releases as computed, inputs used and calculation trace"))]
        for use in uses:
            appendix_blocks += use.appendix()
        blocks.append(Group((*appendix_blocks, *optional, *approval), cls="appendix", tag="section"))
    else:
        blocks += [*optional, *approval]
    running = Running(
        case_number=submission.case_number,
        case=(case_name,),
        cbi=cbi_label,
        status=running_status + (" · CONFIDENTIAL BUSINESS INFORMATION" if cbi else ""),
        draft=not approved,
        # The engine(s) that computed the figures printed, as their stored results record.
        engine=header_lines.engine_footer(u.result.get("engine_version") for u in uses if u.result),
    )
    return Report(TITLE, running, tuple(blocks))


def _local(value: datetime) -> datetime:
    return timezone.localtime(value) if timezone.is_aware(value) else value


def irer_context(*, assessment: Assessment, sanitised: bool = False, appendix: bool | None = None,
                 combine: bool | None = None) -> dict[str, Any]:
    """The report of ``assessment`` as the writers take it: the copy (full or sanitised,
    ``document``) and what names the file and keys the cache; ``appendix`` and ``combine``
    override the revision's layout choices (:func:`irer_report`).

    Who may have which copy is the caller's check (``reports.services``)."""
    assessment = as_printed(assessment)
    submission = assessment.submission
    report = irer_report(assessment, appendix=appendix, combine=combine)
    redaction = redaction_for(submission) if sanitised else None
    document = report.copy(redaction)
    if sanitised and submission.is_cbi:
        document = _sanitised_running(document)
    approved = assessment.status == Status.APPROVED
    return {
        "document": document,
        "assessment_id": assessment.pk,
        "submission_id": assessment.submission_id,
        "case_number": submission.case_number,
        "revision": assessment.revision,
        "cbi_case": submission.is_cbi,
        "sanitised": sanitised,
        "draft": not approved,
        "appendix": appendix_printed(assessment, appendix),
        "approved_at": assessment.approved_at if approved else None,
        "printed_at": timezone.now(),
    }


def _sanitised_running(document: Report) -> Report:
    """A sanitised copy says it holds no CBI in its margins and title row."""
    running = replace(document.running, cbi="CBI: No",
                      status=document.running.status.replace(" · CONFIDENTIAL BUSINESS INFORMATION", ""))
    first = document.blocks[0]
    if isinstance(first, Group) and first.cls == "title-row":
        first = replace(first, blocks=(first.blocks[0], Para(inline("CBI: No"), cls="cbi-flag")))
    return replace(document, running=running, blocks=(first, *document.blocks[1:]))
