"""Migration 0012 (case data per revision): every revision approved before it gets the case's
data as its snapshot; other revisions get none; on PostgreSQL migration 0006's trigger
that keeps approved rows final is on again afterwards."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from assessments.models import CASE_SNAPSHOT_FIELDS

BEFORE = ("assessments", "0011_irer_header_fields")
AFTER = ("assessments", "0012_case_snapshot")


@pytest.fixture
def migrator(transactional_db):
    """Runs the project's migrations back to 0011 and forward again; leaves the database at
    the latest migrations."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_approved_revisions_get_the_case_data_as_their_snapshot(migrator):
    old = migrator.loader.project_state([BEFORE]).apps
    User = old.get_model("auth", "User")
    OldSubmission, OldAssessment = old.get_model("assessments", "Submission"), old.get_model("assessments", "Assessment")
    engineer, boss = User.objects.create(username="legacy-engineer"), User.objects.create(username="legacy-boss")
    case = OldSubmission.objects.create(
        case_number="P-18-0123", submitter="Acme", chemical_name="c", generic_name="g", production_volume_kg_yr=5000,
        use_description="u", molecular_weight=200.0, msds=True, cbi_claims=["molecular_weight"], is_cbi=True,
    )
    approved = OldAssessment.objects.create(submission=case, engineer=engineer, status="approved", approved_by=boss,
                                            approved_at=timezone.now())
    draft = OldAssessment.objects.create(submission=case, revision=2, engineer=engineer)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])
    NewAssessment = executor.loader.project_state([AFTER]).apps.get_model("assessments", "Assessment")

    snapshot = NewAssessment.objects.get(pk=approved.pk).case_snapshot
    # The case's data fields as they were at 0012 (a field added since, e.g. 0016's tlv_pel_kind,
    # is not in an old snapshot: models.case_from_snapshot gives it its default).
    at_0012 = executor.loader.project_state([AFTER]).apps.get_model("assessments", "Submission")
    assert set(snapshot) == {f.name for f in at_0012._meta.concrete_fields
                             if f.editable and not f.primary_key and not f.is_relation}
    assert set(snapshot) <= set(CASE_SNAPSHOT_FIELDS)
    assert (snapshot["case_number"], snapshot["production_volume_kg_yr"], snapshot["molecular_weight"]) == (
        "P-18-0123", 5000.0, 200.0)
    assert (snapshot["msds"], snapshot["cbi_claims"], snapshot["submitter"]) == (True, ["molecular_weight"], "Acme")
    assert NewAssessment.objects.get(pk=draft.pk).case_snapshot is None

    if connection.vendor == "postgresql":  # migration 0006's trigger is on again afterwards
        with pytest.raises(IntegrityError), transaction.atomic():
            NewAssessment.objects.filter(pk=approved.pk).update(case_snapshot={"changed": True})
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tgenabled FROM pg_trigger WHERE tgname = 'assessments_approved_assessment_is_final'"
            )
            assert cursor.fetchone() == ("O",)  # enabled (origin)
