"""Migration 0011 (the IRER header as ChemSTEER prints it): today's free text read into
the structured fields, nothing lost; the same reading for a case export made before it."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from assessments import transfer
from assessments.models import (
    RATING_MOVED_TO_NOTES,
    Submission,
    parse_groundwater_migration,
    parse_pbt_rating,
    split_occupational_exposure_rating,
)

BEFORE = ("assessments", "0010_irer_note_release_texts")
AFTER = ("assessments", "0011_irer_header_fields")


@pytest.mark.parametrize("text,expected", [
    ("P2B1T", ("2", "1", "", "")),
    ("p1-2 B2 t2–3", ("1-2", "2", "2-3", "")),
    ("PBT", ("", "", "", "")),
    ("", ("", "", "", "")),
    ("P4B1T1", ("", "", "", "P4B1T1")),
    ("persistent, see SAT memo", ("", "", "", "persistent, see SAT memo")),
])
def test_pbt_rating_parsing(text, expected):
    assert parse_pbt_rating(text) == expected


@pytest.mark.parametrize("text,expected", [
    ("Negligible to slow", ("negligible_to_slow", "")),
    ("MODERATE TO RAPID", ("moderate_to_rapid", "")),
    ("Slow-moderate", ("slow_to_moderate", "")),
    ("Rapid.", ("rapid", "")),
    ("", ("", "")),
    ("Moderate in sandy soils", ("other", "Moderate in sandy soils")),
])
def test_migration_to_groundwater_parsing(text, expected):
    assert parse_groundwater_migration(text) == expected


def test_rating_parsing_keeps_listed_ratings_and_moves_the_rest_to_the_notes():
    assert split_occupational_exposure_rating("nr", "") == ("NR", "")
    assert split_occupational_exposure_rating("1 – 2b", "x") == ("1-2B", "x")
    assert split_occupational_exposure_rating("Low", "") == ("", RATING_MOVED_TO_NOTES.format(rating="Low"))


@pytest.fixture
def migrator(transactional_db):
    """Runs the project's migrations back to 0010 and forward again; leaves the database at
    the latest migrations."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_migration_reads_todays_text_into_the_new_fields(migrator, django_user_model):
    old = migrator.loader.project_state([BEFORE]).apps
    User = old.get_model("auth", "User")
    OldSubmission, OldAssessment = old.get_model("assessments", "Submission"), old.get_model("assessments", "Assessment")
    engineer = User.objects.create(username="legacy-engineer")
    boss = User.objects.create(username="legacy-boss")
    common = {"submitter": "s", "chemical_name": "c", "generic_name": "g", "production_volume_kg_yr": 5000, "use_description": "u"}
    sample = OldSubmission.objects.create(case_number="P-18-0123", import_only=True, sat_migration="Negligible to slow",
                                          pbt_rating="P2B1T", **common)
    odd = OldSubmission.objects.create(case_number="P-18-0124", import_only=False, sat_migration="Fast in karst",
                                       pbt_rating="P high", **common)
    created = timezone.make_aware(datetime.datetime(2018, 2, 15, 12, 0))
    old.get_model("assessments", "HistoricalSubmission").objects.create(
        id=sample.pk, case_number="P-18-0123", import_only=True, sat_migration="Slow", pbt_rating="P1BT",
        history_date=created, history_type="+", created_at=created, updated_at=created, **common,
    )
    kept = OldAssessment.objects.create(submission=sample, engineer=engineer, occupational_exposure_rating="NR", notes="")
    moved = OldAssessment.objects.create(submission=odd, engineer=engineer, occupational_exposure_rating="Low",
                                         notes="One site.")
    approved = OldAssessment.objects.create(submission=odd, revision=2, engineer=engineer, status="approved",
                                            approved_by=boss, approved_at=created, occupational_exposure_rating="medium")
    OldAssessment.objects.filter(pk=kept.pk).update(created_at=created)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    NewSubmission, NewAssessment = new.get_model("assessments", "Submission"), new.get_model("assessments", "Assessment")

    sample = NewSubmission.objects.get(case_number="P-18-0123")
    assert (sample.volume_qualifier, sample.groundwater_migration, sample.groundwater_migration_other) == (
        "import_only", "negligible_to_slow", "")
    assert (sample.pbt_persistence, sample.pbt_bioaccumulation, sample.pbt_toxicity, sample.pbt_note) == ("2", "1", "", "")
    odd = NewSubmission.objects.get(case_number="P-18-0124")
    assert (odd.volume_qualifier, odd.groundwater_migration, odd.groundwater_migration_other, odd.pbt_note) == (
        "manufacture", "other", "Fast in karst", "P high")
    history = new.get_model("assessments", "HistoricalSubmission").objects.get(case_number="P-18-0123")
    assert (history.volume_qualifier, history.groundwater_migration, history.pbt_persistence) == (
        "import_only", "slow", "1")  # an earlier version of the case keeps what it said

    kept = NewAssessment.objects.get(pk=kept.pk)
    assert (kept.occupational_exposure_rating, kept.notes, kept.assessment_date) == ("NR", "", datetime.date(2018, 2, 15))
    moved = NewAssessment.objects.get(pk=moved.pk)
    assert moved.occupational_exposure_rating == ""
    assert moved.notes == "One site.\n\n" + RATING_MOVED_TO_NOTES.format(rating="Low")
    approved = NewAssessment.objects.get(pk=approved.pk)
    assert (approved.status, approved.occupational_exposure_rating) == ("approved", "")
    assert approved.notes == RATING_MOVED_TO_NOTES.format(rating="medium")
    assert approved.assessment_date == timezone.localdate(approved.created_at)

    if connection.vendor == "postgresql":  # migration 0006's trigger is on again afterwards
        with pytest.raises(IntegrityError), transaction.atomic():
            NewAssessment.objects.filter(pk=approved.pk).update(notes="changed")


def test_a_case_export_made_before_the_migration_is_read_the_same_way(db, reviewer):
    exported = "2018-02-16T09:00:00+00:00"
    case = {
        "case_number": "P-18-0999", "case_type": "PMN", "case_name": "Old export", "submitter": "s",
        "chemical_name": "c", "generic_name": "g", "production_volume_kg_yr": 5000.0, "import_only": True,
        "use_description": "u", "sat_migration": "Slow", "pbt_rating": "P3B2T1", "cbi_claims": [],
        "created_at": exported, "updated_at": exported,
    }
    assessment = {
        "revision": 1, "engineer": reviewer.username, "status": "draft", "notes": "Old notes.",
        "occupational_exposure_rating": "Moderate", "created_at": "2018-02-15T12:00:00+00:00",
        "updated_at": exported, "scenarios": [], "decisions": [],
    }
    document = {"format": transfer.FORMAT, "format_version": 1, "exported_at": exported, "case": case,
                "assessments": [assessment]}
    imported = transfer.case_import(document=document)
    imported = Submission.objects.get(pk=imported.pk)
    assert (imported.volume_qualifier, imported.groundwater_migration, imported.pbt_rating) == ("import_only", "slow",
                                                                                                 "P3B2T1")
    revision = imported.assessments.get()
    assert revision.assessment_date == datetime.date(2018, 2, 15)
    assert revision.occupational_exposure_rating == ""
    assert revision.notes == "Old notes.\n\n" + RATING_MOVED_TO_NOTES.format(rating="Moderate")


def test_an_export_carries_the_new_fields_and_reads_back(db, reviewer):
    case = Submission.objects.create(
        case_number="P-26-0998", submitter="s", chemical_name="c", generic_name="g", production_volume_kg_yr=10,
        use_description="u", volume_qualifier="manufacture_and_import", groundwater_migration="rapid",
        pbt_persistence="2-3",
    )
    from tests.conftest import make_assessment

    make_assessment(case, reviewer, assessment_date=datetime.date(2018, 2, 15), occupational_exposure_rating="0-1",
                    occupational_exposure_rating_reason="SAT health concern names inhalation.")
    document = transfer.loads(transfer.dumps(transfer.case_export(case_number="P-26-0998")), source="test")
    assert document["assessments"][0]["assessment_date"] == "2018-02-15"
    document["case"]["case_number"] = "P-26-0997"
    copy = transfer.case_import(document=document)
    copy = Submission.objects.get(pk=copy.pk)
    assert (copy.volume_qualifier, copy.groundwater_migration, copy.pbt_persistence) == (
        "manufacture_and_import", "rapid", "2-3")
    assert copy.assessments.get().assessment_date == datetime.date(2018, 2, 15)


def test_an_export_made_before_ratings_were_derived_keeps_its_rating_as_the_reviewers(db, reviewer):
    """A file from before migration 0019 (no rating reason) is read as that migration rewrote
    the database: a rating it holds is the reviewer's override, with the migration's reason."""
    import importlib

    from assessments.transfer.legacy import KEPT_RATING_REASON

    migration = importlib.import_module("assessments.migrations.0019_chemsteer_parity")
    assert KEPT_RATING_REASON == migration.KEPT_REASON
    exported = "2026-06-01T09:00:00+00:00"
    case = {
        "case_number": "P-26-0996", "case_type": "PMN", "case_name": "Export of June", "submitter": "s",
        "chemical_name": "c", "generic_name": "g", "production_volume_kg_yr": 5000.0,
        "volume_qualifier": "manufacture", "use_description": "u", "cbi_claims": [],
        "created_at": exported, "updated_at": exported,
    }
    rated = {
        "revision": 1, "engineer": reviewer.username, "status": "draft", "assessment_date": "2026-05-31",
        "occupational_exposure_rating": "NR", "created_at": exported, "updated_at": exported,
        "scenarios": [], "decisions": [],
    }
    for number, rating, reason in (("P-26-0996", "NR", KEPT_RATING_REASON), ("P-26-0995", "", "")):
        document = {"format": transfer.FORMAT, "format_version": 1, "exported_at": exported,
                    "case": {**case, "case_number": number},
                    "assessments": [{**rated, "occupational_exposure_rating": rating}]}
        imported = transfer.case_import(document=document)
        revision = Submission.objects.get(pk=imported.pk).assessments.get()
        assert (revision.occupational_exposure_rating, revision.occupational_exposure_rating_reason) == (rating, reason)
