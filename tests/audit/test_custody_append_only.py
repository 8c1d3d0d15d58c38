"""The CBI custody log is append-only: the model refuses ``save()`` of a stored row and
``delete()``, its queryset ``update()`` and ``delete()``; on PostgreSQL a trigger refuses
UPDATE and DELETE to every client, raw SQL included (migration audit 0002)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, models, transaction

from assessments.models import Submission
from audit.models import CUSTODY_IS_APPEND_ONLY, CbiAccess, CustodyLogIsAppendOnly
from audit.services import What, cbi_access_record
from tests.conftest import make_submission
from tests.database import postgresql_only, refused_by_the_database, sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(reviewer) -> CbiAccess:
    case = make_submission(case_number="P-26-0042", cbi_claims=["submitter"])
    return cbi_access_record(what=What.CASE_PAGE, user=reviewer, submission=case)


def stored() -> list[tuple]:
    return list(CbiAccess.objects.order_by("pk").values_list())


def test_a_row_is_written_once(row):
    assert stored() == [tuple(CbiAccess.objects.values_list().get(pk=row.pk))]
    assert row.what == What.CASE_PAGE and row.case_number == "P-26-0042"


def test_saving_a_stored_row_is_refused(row):
    before = stored()
    row.what = What.EXPORT
    with pytest.raises(CustodyLogIsAppendOnly, match=CUSTODY_IS_APPEND_ONLY):
        row.save()
    for kwargs in ({"update_fields": ["what"]}, {"force_update": True}):
        with pytest.raises(CustodyLogIsAppendOnly):
            CbiAccess.objects.get(pk=row.pk).save(**kwargs)
    assert stored() == before


def test_deleting_a_row_is_refused(row):
    before = stored()
    with pytest.raises(CustodyLogIsAppendOnly):
        row.delete()
    assert stored() == before


def test_the_querysets_update_and_delete_are_refused(row):
    before = stored()
    with pytest.raises(CustodyLogIsAppendOnly):
        CbiAccess.objects.filter(pk=row.pk).update(what=What.EXPORT)
    with pytest.raises(CustodyLogIsAppendOnly):
        CbiAccess.objects.all().delete()
    with pytest.raises(CustodyLogIsAppendOnly):
        CbiAccess.objects.bulk_update([row], ["what"])
    assert stored() == before


def test_a_refusal_reaching_a_view_is_a_403_not_a_500():
    from django.core.exceptions import PermissionDenied

    assert issubclass(CustodyLogIsAppendOnly, PermissionDenied)


def test_deleting_the_case_or_the_user_leaves_the_rows(row, reviewer):
    before = stored()
    Submission.objects.filter(pk=row.submission_id).delete()
    type(reviewer).objects.filter(pk=reviewer.pk).delete()
    assert stored() == before
    kept = CbiAccess.objects.select_related("user").get()
    assert (kept.user, kept.username, kept.case_number) == (None, "rev", "P-26-0042")


# PostgreSQL: the database refuses every client -------------------------------------------------

on_postgresql = postgresql_only(
    "the custody log's trigger is PostgreSQL only (migration audit 0002): on SQLite, Django's flush "
    "empties tables with DELETE FROM, which it would refuse; there the model and queryset are the check",
)


@pytest.mark.postgres
@on_postgresql
def test_raw_sql_update_and_delete_fail_on_postgresql(row):
    before = stored()
    message = refused_by_the_database(lambda: sql("UPDATE audit_cbiaccess SET what = 'export' WHERE id = %s", [row.pk]))
    assert f"the CBI custody log is append-only: entry {row.pk} cannot be changed or deleted" in message
    refused_by_the_database(lambda: sql("DELETE FROM audit_cbiaccess WHERE id = %s", [row.pk]))
    refused_by_the_database(lambda: sql("DELETE FROM audit_cbiaccess"))
    assert stored() == before


@pytest.mark.postgres
@on_postgresql
def test_a_plain_queryset_past_the_models_own_fails_on_postgresql(row):
    """Past the model's queryset (``models.QuerySet`` of the model), the trigger still refuses."""
    before = stored()
    refused_by_the_database(lambda: models.QuerySet(CbiAccess).filter(pk=row.pk).update(what="export"))
    refused_by_the_database(lambda: models.QuerySet(CbiAccess).filter(pk=row.pk)._raw_delete(connection.alias))
    assert stored() == before


@pytest.mark.postgres
@on_postgresql
def test_a_new_row_is_still_written_on_postgresql(row, reviewer):
    cbi_access_record(what=What.EXPORT, user=reviewer, submission=row.submission)
    assert CbiAccess.objects.count() == 2
