"""A contact report that applies to an approved revision is final in the database too
(PostgreSQL, migration contacts 0002): the triggers refuse, to every client (raw SQL, the
ORM's ``QuerySet.update()``, which sends no signal to the models' own guard), the writes
the models refuse (``contacts.models``):

- an UPDATE or DELETE of a contact report linked to an approved revision;
- an INSERT, UPDATE or DELETE of a link to an approved revision;
- a new link (INSERT, or an UPDATE moving a link) on a report that is already final.

A draft report (linked to draft revisions, or to none) is written as before, and the
workflow's approval of a revision with contacts goes on."""

from __future__ import annotations

import pytest
from django.db import connection

from assessments import workflow
from contacts.models import ContactReport, ContactReportAssessment
from tests._review_support import add_computed_scenario, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import make_contact
from tests.database import postgresql_only, refused_by_the_database, sql

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.usefixtures("toy_engine"),
    postgresql_only(
        "the final contact reports' triggers are PostgreSQL only (migration contacts 0002): on SQLite, Django's "
        "flush empties tables with DELETE FROM, which they would refuse; there the models' signals are the check"
    ),
]


def stored() -> list:
    return [list(model.objects.order_by("pk").values()) for model in (ContactReport, ContactReportAssessment)]


@pytest.fixture
def final(reviewer, other_supervisor) -> ContactReport:
    """A contact linked to revision 1 while it was a draft; then revision 1 was approved
    through the workflow (which the triggers let through)."""
    assessment = make_assessment(make_submission(), reviewer)
    add_computed_scenario(assessment)
    report = make_contact(assessment.submission, reviewer, assessments=[assessment])
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=assessment, by=other_supervisor, comment="Fine.")
    return report


@pytest.fixture
def draft_revision(final, reviewer):
    """Revision 2 of the same case, a draft."""
    return make_assessment(final.submission, reviewer, revision=2)


def test_raw_update_of_a_final_report_is_refused(final):
    before = stored()
    message = refused_by_the_database(lambda: sql("UPDATE contacts_contactreport SET notes = 'Changed' WHERE id = %s", [final.pk]))
    assert f"contact report {final.pk} applies to approved revision 1 and is final: it cannot be changed or deleted" in message
    assert stored() == before


def test_raw_delete_of_a_final_report_is_refused(final):
    before = stored()
    refused_by_the_database(lambda: sql("DELETE FROM contacts_contactreport WHERE id = %s", [final.pk]))
    refused_by_the_database(lambda: sql("DELETE FROM contacts_contactreport"))
    assert stored() == before


def test_the_querysets_update_past_the_models_guard_is_refused(final):
    """``QuerySet.update()`` sends no signal, so only the database stops it."""
    before = stored()
    refused_by_the_database(lambda: ContactReport.objects.filter(pk=final.pk).update(notes="Bulk changed"))
    refused_by_the_database(lambda: ContactReport.objects.bulk_update([final], ["notes"]))
    assert stored() == before


def test_a_link_to_an_approved_revision_cannot_be_removed_or_moved(final, draft_revision):
    before = stored()
    link = final.links.get()
    message = refused_by_the_database(lambda: sql("DELETE FROM contacts_contactreportassessment WHERE id = %s", [link.pk]))
    assert f"revision 1 (assessment {link.assessment_id}) is approved and final" in message
    refused_by_the_database(lambda: sql(
        "UPDATE contacts_contactreportassessment SET assessment_id = %s WHERE id = %s", [draft_revision.pk, link.pk]
    ))
    assert stored() == before


def test_no_report_is_linked_to_an_approved_revision(final, reviewer):
    fresh = make_contact(final.submission, reviewer)
    approved_revision = final.links.get().assessment
    before = stored()
    refused_by_the_database(lambda: sql(
        "INSERT INTO contacts_contactreportassessment (contact_report_id, assessment_id) VALUES (%s, %s)",
        [fresh.pk, approved_revision.pk],
    ))
    refused_by_the_database(lambda: ContactReportAssessment.objects.bulk_create(
        [ContactReportAssessment(contact_report=fresh, assessment=approved_revision)]
    ))
    assert stored() == before


def test_a_final_report_takes_no_new_revision(final, draft_revision):
    before = stored()
    message = refused_by_the_database(lambda: sql(
        "INSERT INTO contacts_contactreportassessment (contact_report_id, assessment_id) VALUES (%s, %s)",
        [final.pk, draft_revision.pk],
    ))
    assert f"contact report {final.pk} applies to approved revision 1 and is final" in message
    assert stored() == before


def test_a_draft_report_is_still_written(final, draft_revision, reviewer):
    draft = make_contact(final.submission, reviewer, assessments=[draft_revision])
    sql("UPDATE contacts_contactreport SET notes = 'Corrected by hand' WHERE id = %s", [draft.pk])
    assert ContactReport.objects.filter(pk=draft.pk).update(phone="202 555 0199") == 1
    draft.refresh_from_db()
    assert (draft.notes, draft.phone) == ("Corrected by hand", "202 555 0199")
    sql("DELETE FROM contacts_contactreportassessment WHERE contact_report_id = %s", [draft.pk])
    sql("INSERT INTO contacts_contactreportassessment (contact_report_id, assessment_id) VALUES (%s, %s)",
        [draft.pk, draft_revision.pk])
    draft.delete()
    assert not ContactReport.objects.filter(pk=draft.pk).exists()


def test_a_final_reports_link_to_a_draft_revision_goes_with_the_draft(reviewer, other_supervisor):
    """As the model allows (``_check_link_delete``): a link to a draft revision may go, so
    the links never stop a draft revision's deletion; the report stays final through its
    approved revision."""
    first = make_assessment(make_submission(), reviewer)
    add_computed_scenario(first)
    second = make_assessment(first.submission, reviewer, revision=2)
    report = make_contact(first.submission, reviewer, assessments=[first, second])
    workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=first, by=other_supervisor, comment="Fine.")
    sql("DELETE FROM contacts_contactreportassessment WHERE contact_report_id = %s AND assessment_id = %s",
        [report.pk, second.pk])
    assert list(report.links.values_list("assessment__revision", flat=True)) == [1]
    refused_by_the_database(lambda: sql("UPDATE contacts_contactreport SET notes = 'Changed' WHERE id = %s", [report.pk]))


def test_a_revision_with_contacts_is_approved(final):
    assert final.links.get().assessment.status == "approved"


def test_the_triggers_exist():
    """A migration that rebuilt these tables without them would fail here."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE tgname LIKE 'contacts_%%' ORDER BY 1")
        assert cursor.fetchall() == [
            ("contacts_contactreport", "contacts_contact_report_is_final"),
            ("contacts_contactreportassessment", "contacts_contact_links_are_final"),
        ]
