"""The portfolio's ledger follows the review as it happens: each return, amendment and recompute
after submission is counted on its revision, the time in each status adds up, each departure
from a default is kept with its effect, and after every step every cell equals the sum of its
records and a rebuild from the history gives the same cells."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from assessments import services, workflow
from assessments.models import DUE_COPIED, Scenario, Submission, case_rows_refreshed
from portfolio import ledger, rework
from portfolio.models import CaseRecord, DepartureCell, DueCell, RevisionRecord, ReworkCell
from tests._review_support import TOY_KEY, add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


def cells() -> dict:
    """Every cell's non-zero measures (a cell emptied by a change may stay, at zero)."""
    found = {}
    for kind in (ledger.REWORK, ledger.DEPARTURES, ledger.DUE):
        stored = {key: {n: v for n, v in measures.items() if v} for key, measures in ledger.stored_cells(kind).items()}
        found[kind.model.__name__] = {key: measures for key, measures in stored.items() if measures}
    return found


def consistent() -> None:
    assert ledger.differences() == []


def case_fields(case):
    return {"production_volume_kg_yr": case.production_volume_kg_yr, "submitter": case.submitter,
            "chemical_name": case.chemical_name, "generic_name": case.generic_name,
            "use_description": case.use_description, "case_number": case.case_number,
            "case_type": case.case_type, "physical_state": case.physical_state}


def test_a_review_with_rework_is_counted_on_its_revisions(toy_engine, reviewer, supervisor):
    case = make_submission()
    first = make_assessment(case, reviewer)
    use = add_computed_scenario(first)
    consistent()
    first = workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    first = workflow.assessment_return(assessment=first, by=supervisor, comment="Check Fchem.")
    consistent()
    use = services.scenario_save_step(scenario=Scenario.objects.get(pk=use.pk), by=reviewer, step="volume",
                                      values={"Qchem_yr": 6000.0, "Fchem": 0.2}, reasons={"Fchem": "MSDS: 20 %."})
    services.scenario_compute(scenario=use, by=reviewer)  # a recompute after submission
    first = workflow.assessment_submit(assessment=first, by=reviewer, note="Ready again.")
    first = workflow.assessment_approve(assessment=first, by=supervisor, comment="Right.")
    consistent()
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    services.submission_update(submission=case, by=reviewer, data=case_fields(case) | {"submitter": "Acme Ltd"},
                               cbi_claims=[], reason="The submitter's new name.")  # an amendment, during revision 2
    consistent()

    record = RevisionRecord.objects.get(pk=first.pk)
    assert (record.returns, record.amendments, record.recomputes, record.status) == (1, 0, 1, "approved")
    assert record.scenarios == [TOY_KEY]
    # The toy's Fchem departs from its default 0.1 to 0.2: the release doubles.
    assert record.departures == [{"use": use.pk, "scenario": TOY_KEY, "symbol": "Fchem", "crossed": False,
                                  "log_micro": round(math.log(2) * rework.LOG_SCALE)}]
    assert (RevisionRecord.objects.get(pk=second.pk).returns, RevisionRecord.objects.get(pk=second.pk).amendments) == (0, 1)
    case_record = CaseRecord.objects.get(pk=case.pk)
    assert case_record.open and case_record.engineer_id == reviewer.pk

    every = ReworkCell.objects.filter(scenario="").order_by("month")
    assert sum(c.revisions for c in every) == 2 and sum(c.returns for c in every) == 1
    assert sum(c.amendments for c in every) == 1 and sum(c.recomputes for c in every) == 1
    assert sum(c.uses for c in DepartureCell.objects.all()) == 2  # revision 2's copy of the use departs too

    before = cells()
    ledger.rebuild()
    assert cells() == before


def test_time_in_each_status_is_the_spans_between_decisions():
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    decisions = [(start + timedelta(days=3), "submitted"), (start + timedelta(days=4), "returned"),
                 (start + timedelta(days=6), "submitted")]
    spans = rework.status_spans(start, decisions)
    assert [s.status for s in spans] == ["draft", "submitted", "returned", "submitted"]
    assert rework.closed_seconds(spans) == {"draft": 3 * 86400, "submitted": 86400, "returned": 2 * 86400}
    assert spans[-1].end is None and spans[-1].start == start + timedelta(days=6)


def test_recomputes_count_only_new_results_after_the_first_submission():
    submitted = datetime(2026, 3, 5, tzinfo=UTC)
    before, after = submitted - timedelta(hours=1), submitted + timedelta(hours=1)
    assert rework.recomputes_after(None, [(1, after)]) == 0
    assert rework.recomputes_after(submitted, [(1, before), (1, after), (1, after), (2, after)]) == 2


def test_amendments_are_changes_after_the_first_approval_on_the_revision_then_latest():
    approved = datetime(2026, 4, 1, tzinfo=UTC)
    changes = [(approved - timedelta(days=1), "~"), (approved + timedelta(days=1), "~"), (approved + timedelta(days=9), "~")]
    times = rework.amendment_times(changes, [None, approved])
    assert times == [approved + timedelta(days=1), approved + timedelta(days=9)]
    assert rework.amendment_times(changes, [None]) == []
    assert rework.amendments_within(times, approved, approved + timedelta(days=5)) == 1
    assert rework.amendments_within(times, approved + timedelta(days=5), None) == 1


def test_a_deleted_use_and_a_changed_claim_move_the_cells(toy_engine, reviewer):
    case = make_submission()
    draft = make_assessment(case, reviewer)
    use = add_computed_scenario(draft)
    assert DueCell.objects.filter(cbi=False, scenario=TOY_KEY).exists()
    services.scenario_delete(scenario=Scenario.objects.get(pk=use.pk), by=reviewer)
    consistent()
    assert RevisionRecord.objects.get(pk=draft.pk).departures == []
    services.submission_update(submission=case, by=reviewer, data=case_fields(case), cbi_claims=["chemical_name"])
    consistent()
    assert RevisionRecord.objects.get(pk=draft.pk).cbi and CaseRecord.objects.get(pk=case.pk).cbi
    assert not ReworkCell.objects.filter(cbi=False, revisions__gt=0).exists()


def test_a_stale_cell_is_found_by_the_check(toy_engine, reviewer):
    draft = make_assessment(make_submission(), reviewer)
    add_computed_scenario(draft)
    ReworkCell.objects.filter(scenario="").update(revisions=5)
    assert any("ReworkCell" in line for line in ledger.differences())
    ledger.rebuild()
    consistent()


@pytest.mark.commits
@pytest.mark.django_db(transaction=True)
def test_the_ledger_follows_commits(toy_engine, reviewer, supervisor):
    """Each write's refresh runs after its transaction commits; one rolled back leaves the
    ledger as it was."""
    draft = make_assessment(make_submission(), reviewer)
    add_computed_scenario(draft)
    consistent()
    assert RevisionRecord.objects.get(pk=draft.pk).departures
    before = cells()
    with pytest.raises(RuntimeError), transaction.atomic():
        workflow.assessment_submit(assessment=draft, by=reviewer, note="Ready.")
        assert RevisionRecord.objects.get(pk=draft.pk).status == "draft"  # not yet: the transaction is open
        raise RuntimeError("rolled back")
    assert cells() == before and RevisionRecord.objects.get(pk=draft.pk).status == "draft"
    workflow.assessment_submit(assessment=draft, by=reviewer, note="Ready.")
    assert RevisionRecord.objects.get(pk=draft.pk).status == "submitted"
    consistent()


def test_migrate_builds_a_missing_ledger(toy_engine, reviewer):
    """A database upgraded to the version that adds the portfolio: cases, no ledger yet."""
    draft = make_assessment(make_submission(), reviewer)
    add_computed_scenario(draft)
    CaseRecord.objects.all().delete()
    RevisionRecord.objects.all().delete()
    call_command("migrate", verbosity=0)
    assert RevisionRecord.objects.get(pk=draft.pk).departures
    consistent()


def test_the_command_checks_and_rebuilds(toy_engine, reviewer, capsys):
    add_computed_scenario(make_assessment(make_submission(), reviewer))
    call_command("portfolio", "check")
    assert "Every cell equals the sum of its records." in capsys.readouterr().out
    ReworkCell.objects.update(returns=3)
    with pytest.raises(CommandError, match="cells differ from the sum of their records"):
        call_command("portfolio", "check")
    call_command("portfolio", "rebuild")
    assert "revisions: 1" in capsys.readouterr().out
    call_command("portfolio", "check")


def test_due_dates_written_in_bulk_are_followed(toy_engine, reviewer):
    """``refresh_case_due()`` for every case (one UPDATE, no model signal): the case records and
    due cells are made again from the cases' rows, the revisions' records left as they were."""
    draft = make_assessment(make_submission(), reviewer)
    add_computed_scenario(draft)
    revision = RevisionRecord.objects.get(pk=draft.pk)
    due = date(2031, 5, 6)
    Submission.objects.update(due_on=due)
    case_rows_refreshed.send(sender=Submission, submission_ids=None, what=DUE_COPIED)
    assert CaseRecord.objects.get(pk=draft.submission_id).due_on == due
    assert DueCell.objects.filter(due_on=due, cases=1).count() == 2  # every method, and the toy's
    assert RevisionRecord.objects.get(pk=draft.pk).departures == revision.departures
    consistent()
