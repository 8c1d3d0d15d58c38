"""Approved work is final whoever writes: the models refuse a save or delete of an
approved assessment, of its scenarios and of its review decisions (``ApprovedWorkLocked``,
on every database), and on PostgreSQL the database's triggers refuse the same writes from
``QuerySet.update()``, ``bulk_create`` and raw SQL. The workflow's own writes (the save
that approves, the approval's decision), a new revision, the history and the export go on.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from assessments import transfer, workflow
from assessments.models import (
    APPROVED_WORK_LOCKED,
    ApprovedWorkLocked,
    Assessment,
    DecisionAction,
    ReviewDecision,
    Scenario,
    Status,
    Submission,
)
from tests._review_support import TOY_KEY, approved, draft_with_result, submitted, toy_engine
from tests.database import postgresql_only, refused_by_the_database, sql

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def db_state() -> list:
    return [list(model.objects.order_by("pk").values()) for model in (Submission, Assessment, Scenario, ReviewDecision)] + [
        [model.history.count() for model in (Submission, Assessment, Scenario, ReviewDecision)]
    ]


def locked(call, assessment: Assessment) -> None:
    """``call`` raises ApprovedWorkLocked naming ``assessment`` and writes nothing."""
    before = db_state()
    with pytest.raises(ApprovedWorkLocked) as caught, transaction.atomic():
        call()
    assert str(caught.value) == APPROVED_WORK_LOCKED.format(assessment=assessment)
    assert db_state() == before


@pytest.fixture
def final(reviewer, supervisor) -> Assessment:
    """An assessment approved through the workflow."""
    return approved(reviewer, supervisor)


def test_the_message_says_what_is_refused_and_what_to_do(final):
    assert APPROVED_WORK_LOCKED.format(assessment=final) == (
        f"Assessment {final.submission.case_number} r1 is approved and final: it, its uses and its review decisions "
        "cannot be changed or deleted. Start a new revision to change it."
    )


# The assessment --------------------------------------------------------------------------------


def test_model_save_of_approved_assessment_is_refused(final):
    final.notes = "Changed after approval."
    locked(final.save, final)


def test_model_save_with_update_fields_of_approved_assessment_is_refused(final):
    final.status = Status.DRAFT
    locked(lambda: final.save(update_fields=["status"]), final)


def test_model_delete_of_approved_assessment_is_refused(final):
    locked(final.delete, final)


def test_queryset_delete_of_approved_assessment_is_refused(final):
    locked(lambda: Assessment.objects.filter(pk=final.pk).delete(), final)


def test_raw_save_of_approved_assessment_is_refused(final):
    """A raw save (loaddata, an import) is refused too."""
    final.notes = "Loaded over it."
    locked(lambda: final.save_base(raw=True), final)


def test_a_stale_copy_cannot_overwrite_the_approval(reviewer, supervisor):
    """The guard reads the row as stored: an instance read before the approval (its
    status in memory still 'submitted') cannot write over the approved row."""
    assessment = submitted(reviewer)
    stale = Assessment.objects.get(pk=assessment.pk)
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    stale.notes = "Written over the approval."
    locked(stale.save, assessment)


def test_a_new_instance_with_the_approved_rows_key_is_refused(final):
    forged = Assessment(pk=final.pk, submission=final.submission, engineer=final.engineer, revision=1)
    locked(forged.save, final)


# Its scenarios ---------------------------------------------------------------------------------


def test_model_save_of_approved_scenario_is_refused(final):
    scenario = final.scenarios.get()
    scenario.result = {**scenario.result, "releases": []}
    locked(scenario.save, final)


def test_model_delete_of_approved_scenario_is_refused(final):
    locked(final.scenarios.get().delete, final)


def test_queryset_delete_of_approved_scenarios_is_refused(final):
    locked(lambda: Scenario.objects.filter(assessment=final).delete(), final)


def test_scenario_cannot_be_added_to_an_approved_assessment(final):
    locked(lambda: Scenario.objects.create(assessment=final, scenario_key=TOY_KEY, title="Added later"), final)


def test_scenario_cannot_be_moved_out_of_an_approved_assessment(final, reviewer):
    scenario = final.scenarios.get()
    scenario.assessment = draft_with_result(reviewer)
    locked(scenario.save, final)


def test_scenario_cannot_be_moved_into_an_approved_assessment(final, reviewer):
    scenario = draft_with_result(reviewer).scenarios.get()
    scenario.assessment = final
    locked(scenario.save, final)


# Its review decisions --------------------------------------------------------------------------


def test_model_save_of_approved_assessments_decision_is_refused(final):
    decision = final.decisions.get(action=DecisionAction.APPROVE)
    decision.comment = "Edited afterwards."
    locked(decision.save, final)


def test_model_delete_of_approved_assessments_decision_is_refused(final):
    locked(final.decisions.first().delete, final)


def test_no_decision_is_added_to_an_approved_assessment(final, supervisor):
    for action, from_status, to_status in (
        (DecisionAction.RETURN, Status.APPROVED, Status.RETURNED),
        (DecisionAction.APPROVE, Status.SUBMITTED, Status.APPROVED),  # a second approval
    ):
        decision = ReviewDecision(
            assessment=final, action=action, from_status=from_status, to_status=to_status, by=supervisor, comment="x"
        )
        locked(decision.save, final)


# What still works ------------------------------------------------------------------------------


def test_the_workflow_approves_saving_the_status_and_its_decision(reviewer, supervisor):
    """The save that approves changes a row not yet approved; the approval's own decision
    is the one row added after it."""
    assessment = workflow.assessment_approve(assessment=submitted(reviewer), by=supervisor)
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED
    assert [d.action for d in assessment.decisions.order_by("at", "id")] == ["submit", "approve"]


def test_approved_work_stays_readable_exportable_and_revisable(final, reviewer):
    before = db_state()
    assert Assessment.objects.get(pk=final.pk).scenarios.get().result["totals_by_medium"] == {"air": pytest.approx(1000.0)}
    document = transfer.case_export(case_number=final.submission.case_number)
    assert document["assessments"][0]["status"] == "approved"
    assert db_state() == before
    copy = workflow.assessment_revise(assessment=final, by=reviewer)
    assert (copy.revision, copy.status, copy.scenarios.count()) == (2, Status.DRAFT, 1)
    assert list(Assessment.objects.filter(pk=final.pk).values()) == before[1][:1]


def test_populate_history_leaves_approved_work_alone(final):
    before = [list(model.objects.order_by("pk").values()) for model in (Assessment, Scenario, ReviewDecision)]
    call_command("populate_history", "--auto", stdout=io.StringIO(), stderr=io.StringIO())
    assert [list(model.objects.order_by("pk").values()) for model in (Assessment, Scenario, ReviewDecision)] == before


def test_a_draft_is_saved_and_deleted_as_before(reviewer):
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    scenario.title = "Renamed"
    scenario.save()
    assessment.notes = "Noted."
    assessment.save()
    assessment.delete()  # cascades to its scenarios
    assert not Assessment.objects.filter(pk=assessment.pk).exists() and not Scenario.objects.exists()


def test_an_approved_assessment_can_still_be_created_as_such(reviewer, supervisor, final):
    """An import or a fixture writes approved rows anew (the guard refuses changes to
    stored approved work, not a new row)."""
    created = Assessment.objects.create(
        submission=final.submission, engineer=reviewer, revision=2, status=Status.APPROVED,
        approved_by=supervisor, approved_at=timezone.now(),
    )
    assert created.pk


def test_a_case_with_approved_work_cannot_be_deleted(final):
    with pytest.raises(ProtectedError):
        final.submission.delete()


# PostgreSQL: the database refuses every client -------------------------------------------------

on_postgresql = postgresql_only(
    "the approved-work triggers are PostgreSQL only (migration 0006): on SQLite, Django's flush "
    "empties tables with DELETE FROM, which they would refuse; there the model guard is the check",
)


@pytest.mark.postgres
@on_postgresql
def test_queryset_update_of_approved_assessment_fails_on_postgresql(final):
    before = db_state()
    message = refused_by_the_database(lambda: Assessment.objects.filter(pk=final.pk).update(notes="x"))
    assert message.startswith(f"assessment {final.pk} is approved and final: it cannot be changed or deleted")
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_raw_sql_on_approved_assessment_fails_on_postgresql(final):
    before = db_state()
    refused_by_the_database(lambda: sql("UPDATE assessments_assessment SET status = 'draft' WHERE id = %s", [final.pk]))
    refused_by_the_database(lambda: sql("DELETE FROM assessments_assessment WHERE id = %s", [final.pk]))
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_queryset_update_of_approved_scenario_fails_on_postgresql(final):
    before = db_state()
    message = refused_by_the_database(
        lambda: Scenario.objects.filter(assessment=final).update(result={"releases": []})
    )
    assert f"assessment {final.pk} is approved and final: its uses (scenarios) cannot be" in message
    refused_by_the_database(lambda: sql("DELETE FROM assessments_scenario WHERE assessment_id = %s", [final.pk]))
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_bulk_create_of_scenario_into_approved_assessment_fails_on_postgresql(final):
    before = db_state()
    refused_by_the_database(
        lambda: Scenario.objects.bulk_create([Scenario(assessment=final, scenario_key=TOY_KEY, title="Sneaked in")])
    )
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_moving_a_scenario_out_of_approved_work_fails_on_postgresql(final, reviewer):
    draft = draft_with_result(reviewer)
    before = db_state()
    refused_by_the_database(lambda: Scenario.objects.filter(assessment=final).update(assessment=draft))
    refused_by_the_database(lambda: Scenario.objects.filter(assessment=draft).update(assessment=final))
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_queryset_update_and_delete_of_approved_decisions_fail_on_postgresql(final):
    before = db_state()
    message = refused_by_the_database(lambda: ReviewDecision.objects.filter(assessment=final).update(comment="x"))
    assert f"assessment {final.pk} is approved and final: its review decisions cannot be" in message
    refused_by_the_database(lambda: sql("DELETE FROM assessments_reviewdecision WHERE assessment_id = %s", [final.pk]))
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_only_the_first_approve_decision_is_inserted_under_approved_work_on_postgresql(final, supervisor):
    before = db_state()
    for action, from_status, to_status in (("return", "submitted", "returned"), ("approve", "submitted", "approved")):
        row = [final.pk, action, from_status, to_status, supervisor.pk]
        refused_by_the_database(lambda row=row: sql(
            "INSERT INTO assessments_reviewdecision (assessment_id, action, from_status, to_status, by_id, at, comment) "
            "VALUES (%s, %s, %s, %s, %s, now(), '')",
            row,
        ))
    assert db_state() == before


@pytest.mark.postgres
@on_postgresql
def test_the_approving_update_and_draft_writes_pass_on_postgresql(reviewer, supervisor):
    draft = draft_with_result(reviewer)
    Scenario.objects.filter(assessment=draft).update(title="Bulk renamed")  # not approved: allowed
    assessment = submitted(reviewer)
    assert Assessment.objects.filter(pk=assessment.pk).update(
        status=Status.APPROVED, approved_by=supervisor, approved_at=timezone.now()
    ) == 1
    assessment.decisions.create(action="approve", from_status="submitted", to_status="approved", by=supervisor)


@pytest.mark.postgres
@on_postgresql
def test_the_triggers_exist_on_postgresql():
    """A migration that rebuilt these tables without them would fail here."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE tgname LIKE 'assessments_approved_%%' ORDER BY 1"
        )
        assert cursor.fetchall() == [
            ("assessments_assessment", "assessments_approved_assessment_is_final"),
            ("assessments_reviewdecision", "assessments_approved_decisions_are_final"),
            ("assessments_scenario", "assessments_approved_scenarios_are_final"),
        ]
