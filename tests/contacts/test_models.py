"""The contact report's own rules (ContactReport.clean, the link's clean, the database
constraints) and the lock of approved work, whoever writes."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from assessments.models import ApprovedWorkLocked
from contacts.models import (
    CONTACT_IN_FUTURE,
    CONTACT_TOO_EARLY,
    FUTURE_TOLERANCE,
    NOTES_LIMIT,
    PHONE_INVALID,
    ContactReport,
    ContactReportAssessment,
)
from tests._review_support import approved, other_supervisor, toy_engine
from tests.conftest import make_assessment, make_submission
from tests.contacts.factories import contact_data, make_contact

pytestmark = [pytest.mark.django_db]


def errors_of(report: ContactReport) -> dict:
    with pytest.raises(ValidationError) as caught:
        report.full_clean()
    return caught.value.message_dict


@pytest.fixture
def case():
    return make_submission()


@pytest.mark.parametrize("field", ["epa_name", "epa_affiliation", "submitter_name", "submitter_affiliation", "notes"])
def test_nul_character_is_refused_naming_the_field(case, field):
    report = ContactReport(submission=case, **contact_data(**{field: "Sam\x00 Submitter"}))
    errors = errors_of(report)
    assert list(errors) == [field]
    assert errors[field][0].endswith("must not contain NUL characters.")


def test_text_over_its_length_is_refused_not_cut(case):
    report = ContactReport(submission=case, **contact_data(epa_name="x" * 201, notes="y" * (NOTES_LIMIT + 1)))
    errors = errors_of(report)
    assert "at most 200 are allowed" in " ".join(errors["epa_name"])
    assert f"at most {NOTES_LIMIT:,} are allowed" in " ".join(errors["notes"])
    assert report.epa_name == "x" * 201


def test_contact_time_in_the_future_is_refused(case):
    report = ContactReport(submission=case, **contact_data(contacted_at=timezone.now() + timedelta(days=1)))
    errors = errors_of(report)
    assert errors["contacted_at"][0].startswith(CONTACT_IN_FUTURE.split("{when}")[0])


def test_contact_time_a_few_minutes_ahead_is_within_the_tolerance(case):
    ahead = timezone.now() + FUTURE_TOLERANCE - timedelta(minutes=1)
    ContactReport(submission=case, **contact_data(contacted_at=ahead)).full_clean()


def test_contact_time_before_1977_is_a_typing_error(case):
    report = ContactReport(submission=case, **contact_data(contacted_at=timezone.now().replace(year=1926)))
    assert errors_of(report)["contacted_at"][0].endswith(CONTACT_TOO_EARLY.split("{when}")[1].format(earliest="1977-01-01"))


def test_names_and_notes_of_blanks_only_are_refused(case):
    errors = errors_of(ContactReport(submission=case, **contact_data(epa_name="   ", submitter_name="", notes=" \n ")))
    assert set(errors) == {"epa_name", "submitter_name", "notes"}


@pytest.mark.parametrize("phone", ["(202) 555-0100", "+1 202 555 0100 x12", "202.555.0100", ""])
def test_phone_numbers_as_people_write_them(case, phone):
    ContactReport(submission=case, **contact_data(phone=phone)).full_clean()


@pytest.mark.parametrize("phone", ["call Sam", "555-CALL", "()"])
def test_phone_that_is_not_a_number_is_refused(case, phone):
    assert errors_of(ContactReport(submission=case, **contact_data(phone=phone)))["phone"] == [PHONE_INVALID]


def test_unknown_direction_is_refused_by_the_model_and_the_database(case):
    report = ContactReport(submission=case, **contact_data(direction="telepathy"))
    assert "direction" in errors_of(report)
    with pytest.raises(IntegrityError), transaction.atomic():
        report.save()


def test_blank_names_are_refused_by_the_database_too(case):
    report = ContactReport(submission=case, **contact_data(epa_name=""))
    with pytest.raises(IntegrityError), transaction.atomic():
        report.save()


def test_assessment_of_another_case_is_refused(case, reviewer):
    report = make_contact(case, reviewer)
    other = make_assessment(make_submission(), reviewer)
    link = ContactReportAssessment(contact_report=report, assessment=other)
    with pytest.raises(ValidationError) as caught:
        link.full_clean()
    assert "is not an assessment of this case" in caught.value.message_dict["assessment"][0]
    with pytest.raises(ValidationError):  # a save without full_clean is refused too
        link.save()
    with pytest.raises(ValidationError), transaction.atomic():
        report.assessments.add(other)
    assert not report.links.exists()


def test_the_same_revision_is_linked_once(case, reviewer):
    assessment = make_assessment(case, reviewer)
    report = make_contact(case, reviewer, assessments=[assessment])
    with pytest.raises(IntegrityError), transaction.atomic():
        ContactReportAssessment.objects.create(contact_report=report, assessment=assessment)


def test_every_save_is_recorded_in_the_history(case, reviewer):
    report = make_contact(case, reviewer)
    report.notes = "Corrected: dip coating."
    report.save()
    assert [h.history_type for h in report.history.order_by("history_date")] == ["+", "~"]
    assert report.version == 2


@pytest.mark.usefixtures("toy_engine")
class TestApprovedWorkIsFinal:
    @pytest.fixture
    def locked(self, reviewer, other_supervisor):
        # Linked while the revision was a draft; then the revision was approved.
        from assessments import workflow
        from tests._review_support import add_computed_scenario

        assessment = make_assessment(make_submission(), reviewer)
        add_computed_scenario(assessment)
        report = make_contact(assessment.submission, reviewer, assessments=[assessment])
        workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
        workflow.assessment_approve(assessment=assessment, by=other_supervisor, comment="Fine.")
        return report

    def test_a_report_of_an_approved_revision_cannot_be_saved(self, locked):
        locked.notes = "Changed afterwards."
        with pytest.raises(ApprovedWorkLocked, match="applies to approved revision 1"):
            locked.save()

    def test_nor_deleted(self, locked):
        # Each refusal inside its own transaction, as in a request: Django's delete runs the
        # signals in a transaction of its own, which the refusal rolls back.
        with pytest.raises(ApprovedWorkLocked), transaction.atomic():
            locked.delete()
        with pytest.raises(ApprovedWorkLocked), transaction.atomic():
            ContactReport.objects.filter(pk=locked.pk).delete()
        assert ContactReport.objects.filter(pk=locked.pk).exists()

    def test_nor_taken_off_the_revision(self, locked):
        with pytest.raises(ApprovedWorkLocked), transaction.atomic():
            locked.links.get().delete()
        with pytest.raises(ApprovedWorkLocked), transaction.atomic():
            locked.assessments.clear()
        assert locked.links.count() == 1

    def test_no_new_contact_is_added_to_an_approved_revision(self, locked, reviewer):
        approved_revision = locked.assessments.get()
        fresh = make_contact(approved_revision.submission, reviewer)
        with pytest.raises(ApprovedWorkLocked, match="Revision 1 is approved and final"), transaction.atomic():
            ContactReportAssessment.objects.create(contact_report=fresh, assessment=approved_revision)
        with pytest.raises(ApprovedWorkLocked), transaction.atomic():
            fresh.assessments.add(approved_revision)
        assert not fresh.links.exists()
