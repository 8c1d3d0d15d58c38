"""PMN amendments (issue 16): the case is editable while its latest revision is a draft or
returned (and before any revision exists), read-only while the latest is submitted or
approved; one rule (``permissions.submission_is_frozen``) in the service, the form view
and the admin. Once a revision is approved a change is an amendment: its reason is
required and the history shows it; the approved revision keeps the case it was approved
with (``Assessment.case_snapshot``), taken at approval."""

from __future__ import annotations

import html
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from assessments import permissions, services, timeline, workflow
from assessments.models import (
    CASE_SNAPSHOT_FIELDS,
    ApprovedWorkLocked,
    Assessment,
    Status,
    Submission,
    case_snapshot,
)
from tests._review_support import (
    approved,
    draft_with_result,
    in_status,
    other_reviewer,
    returned,
    submitted,
    toy_engine,
)
from tests.conftest import make_submission, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

REASON = "Submitter's amended notice of 2026-03-02: new production volume."


def edit_data(case: Submission, **changes) -> dict:
    """The case form as posted for ``case`` (nothing claimed), with ``changes``."""
    from assessments.forms import SubmissionForm

    form = SubmissionForm(instance=case)
    data = {}
    for name in form._meta.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    for name in case.cbi_claims:
        data[f"cbi_{name}"] = "on"
    data["version_seen"] = case.version
    data.update(changes)
    return data


def second_revision(reviewer, supervisor, status: str = Status.DRAFT) -> Assessment:
    """Revision 1 approved, revision 2 started from it and brought to ``status``."""
    first = approved(reviewer, supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    if status in (Status.SUBMITTED, Status.RETURNED, Status.APPROVED):
        second = workflow.assessment_submit(assessment=second, by=reviewer)
    if status == Status.RETURNED:
        second = workflow.assessment_return(assessment=second, by=supervisor, comment="Check the volume.")
    if status == Status.APPROVED:
        second = workflow.assessment_approve(assessment=second, by=supervisor)
    return second


# The rule, per status of the latest revision --------------------------------------------------


@pytest.mark.parametrize("status,editable", [
    (Status.DRAFT, True),
    (Status.RETURNED, True),
    (Status.SUBMITTED, False),
    (Status.APPROVED, False),
])
def test_the_case_is_editable_only_while_the_only_revision_is_a_draft_or_returned(status, editable, reviewer, supervisor):
    case = in_status(status, reviewer, supervisor).submission
    assert permissions.can_edit_submission(reviewer, case) is editable
    assert permissions.submission_is_frozen(case) is not editable


def test_a_case_without_a_revision_is_editable(reviewer):
    case = make_submission()
    assert permissions.can_edit_submission(reviewer, case)


@pytest.mark.parametrize("status,editable", [
    (Status.DRAFT, True),
    (Status.RETURNED, True),
    (Status.SUBMITTED, False),
    (Status.APPROVED, False),
])
def test_the_latest_revision_decides_once_revision_1_is_approved(status, editable, reviewer, supervisor):
    case = second_revision(reviewer, supervisor, status).submission
    assert permissions.can_edit_submission(reviewer, case) is editable


@pytest.mark.parametrize("role", ["engineer", "other_reviewer", "supervisor", "no_role"])
@pytest.mark.parametrize("status", [Status.DRAFT, Status.RETURNED, Status.SUBMITTED, Status.APPROVED])
def test_the_edit_page_per_role_and_status_of_revision_2(client, django_user_model, reviewer, supervisor,
                                                         other_reviewer, role, status):
    """Any reviewer or supervisor may amend (as before, not only the engineer); a user
    without the permission never; nobody while the latest revision is submitted or approved."""
    case = second_revision(reviewer, supervisor, status).submission
    user = {
        "engineer": reviewer,
        "other_reviewer": other_reviewer,
        "supervisor": supervisor,
        "no_role": make_user(django_user_model, "visitor", cbi=True),
    }[role]
    allowed = role != "no_role" and status in (Status.DRAFT, Status.RETURNED)
    client.force_login(user)
    assert client.get(f"/cases/{case.pk}/edit/").status_code == (200 if allowed else 403)
    response = client.post(f"/cases/{case.pk}/edit/", edit_data(case, production_volume_kg_yr="6000",
                                                                 amendment_reason=REASON))
    assert response.status_code == (302 if allowed else 403)
    case.refresh_from_db()
    assert case.production_volume_kg_yr == (6000.0 if allowed else 5000.0)


def test_the_case_page_offers_the_edit_link_while_revision_2_is_a_draft(client, reviewer, supervisor):
    case = second_revision(reviewer, supervisor).submission
    client.force_login(reviewer)
    assert f"/cases/{case.pk}/edit/" in client.get(f"/cases/{case.pk}/").content.decode()


def test_the_service_refuses_an_edit_while_the_latest_revision_is_submitted(reviewer, supervisor):
    case = second_revision(reviewer, supervisor, Status.SUBMITTED).submission
    before = (Submission.objects.filter(pk=case.pk).values().get(), case.history.count())
    with pytest.raises(PermissionDenied) as refused:
        services.submission_update(submission=case, by=reviewer, data={"production_volume_kg_yr": 6000.0},
                                   cbi_claims=[], reason=REASON)
    assert str(refused.value) == services.EDIT_CASE_NOT_ALLOWED
    assert (Submission.objects.filter(pk=case.pk).values().get(), case.history.count()) == before


# The amendment's reason ------------------------------------------------------------------------


def test_an_amendment_needs_a_reason_and_writes_nothing_without_one(reviewer, supervisor):
    case = second_revision(reviewer, supervisor).submission
    before = (Submission.objects.filter(pk=case.pk).values().get(), case.history.count())
    with pytest.raises(ValidationError) as refused:
        services.submission_update(submission=case, by=reviewer, data={"production_volume_kg_yr": 6000.0},
                                   cbi_claims=[], reason="  ")
    assert refused.value.message_dict == {"amendment_reason": [services.AMENDMENT_REASON_REQUIRED]}
    assert (Submission.objects.filter(pk=case.pk).values().get(), case.history.count()) == before


def test_a_case_without_an_approved_revision_needs_no_reason(reviewer):
    case = draft_with_result(reviewer).submission
    services.submission_update(submission=case, by=reviewer, data={"production_volume_kg_yr": 6000.0}, cbi_claims=[])
    case.refresh_from_db()
    assert case.production_volume_kg_yr == 6000.0


def test_the_amendment_reason_is_the_history_change_reason(reviewer, supervisor):
    case = second_revision(reviewer, supervisor).submission
    long_reason = REASON + " " + "The submitter's letter explains the new market. " * 5  # over 100 characters
    services.submission_update(submission=case, by=reviewer, data={"production_volume_kg_yr": 6000.0},
                               cbi_claims=[], reason=long_reason)
    record = case.history.order_by("-history_date", "-history_id").first()
    assert (record.history_change_reason, record.history_user, record.production_volume_kg_yr) == (
        long_reason.strip(), reviewer, 6000.0)


def test_the_form_asks_the_reason_only_once_a_revision_is_approved(client, reviewer, supervisor):
    draft_case = draft_with_result(reviewer).submission
    amended_case = second_revision(reviewer, supervisor).submission
    client.force_login(reviewer)
    assert "amendment_reason" not in client.get(f"/cases/{draft_case.pk}/edit/").context["form"].fields
    page = client.get(f"/cases/{amended_case.pk}/edit/")
    field = page.context["form"]["amendment_reason"]
    assert field.field.required
    text = re.sub(r"\s+", " ", html.unescape(page.content.decode()))
    assert re.search(rf'<label for="{field.id_for_label}"[^>]*> ?Reason for the amendment', text)


def test_the_form_says_why_without_a_reason_and_saves_nothing(client, reviewer, supervisor):
    case = second_revision(reviewer, supervisor).submission
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/edit/", edit_data(case, production_volume_kg_yr="6000"))
    assert response.status_code == 200
    assert response.context["form"].errors["amendment_reason"] == [services.AMENDMENT_REASON_REQUIRED]
    case.refresh_from_db()
    assert case.production_volume_kg_yr == 5000.0


# The snapshot at approval ----------------------------------------------------------------------


def test_approval_keeps_the_case_data_as_approved(reviewer, supervisor):
    assessment = approved(reviewer, supervisor, molecular_weight=410.9, cbi_claims=["molecular_weight"])
    case = assessment.submission
    assessment.refresh_from_db()
    assert assessment.case_snapshot == case_snapshot(case)
    assert assessment.case_snapshot["production_volume_kg_yr"] == 5000.0
    assert assessment.case_snapshot["molecular_weight"] == 410.9
    assert assessment.case_snapshot["cbi_claims"] == ["molecular_weight"]
    assert set(assessment.case_snapshot) == set(CASE_SNAPSHOT_FIELDS)
    # every item the case form edits (the header) is kept; bookkeeping is not
    from assessments.selectors import HEADER_GROUPS
    assert {name for _, names in HEADER_GROUPS for name in names} | {"cbi_claims"} == set(CASE_SNAPSHOT_FIELDS)


def test_drafts_submissions_and_returns_keep_no_snapshot(reviewer, supervisor):
    for assessment in (draft_with_result(reviewer), submitted(reviewer), returned(reviewer, supervisor)):
        assessment.refresh_from_db()
        assert assessment.case_snapshot is None


def test_the_approved_revision_keeps_its_case_data_after_an_amendment(reviewer, supervisor):
    second = second_revision(reviewer, supervisor)
    first = second.submission.assessments.get(revision=1)
    services.submission_update(submission=second.submission, by=reviewer,
                               data={"production_volume_kg_yr": 6000.0, "molecular_weight": 250.0},
                               cbi_claims=[], reason=REASON)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.case_data.production_volume_kg_yr, first.case_data.molecular_weight) == (5000.0, None)
    assert second.case_data.production_volume_kg_yr == 6000.0  # the draft reads the case as it is
    assert second.case_data is second.submission


def test_the_case_as_approved_is_never_saved(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    with pytest.raises(ApprovedWorkLocked):
        first.case_data.save()


def test_the_assessment_page_of_the_approved_revision_shows_the_case_as_approved(client, reviewer, supervisor):
    second = second_revision(reviewer, supervisor)
    services.submission_update(submission=second.submission, by=reviewer, data={"submitter": "Renamed Corp"},
                               cbi_claims=[], reason=REASON)
    first = second.submission.assessments.get(revision=1)
    client.force_login(reviewer)

    def submitter(assessment):
        groups = client.get(f"/assessments/{assessment.pk}/").context["header_groups"]
        return next(f["value"] for g in groups for f in g["fields"] if f["name"] == "submitter")

    assert (submitter(first), submitter(second)) == ("Acme Photochemicals", "Renamed Corp")


# The history -----------------------------------------------------------------------------------


def test_the_history_shows_the_amendment_who_when_what_and_why(client, reviewer, supervisor):
    second = second_revision(reviewer, supervisor)
    case = second.submission
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/edit/", edit_data(case, production_volume_kg_yr="6,000",
                                                                 amendment_reason=REASON))
    assert response.status_code == 302
    entries = [e for e in timeline.assessment_history(assessment=second) if e.kind == timeline.AMENDED]
    assert len(entries) == 1
    entry = entries[0]
    assert (entry.user, entry.subject, entry.note) == ("rev", f"Case {case.case_number}", REASON)
    assert [(c.field, c.old, c.new) for c in entry.changes] == [("Production volume (kg/yr)", "5,000", "6,000")]
    page = html.unescape(client.get(f"/assessments/{second.pk}/history/").content.decode())
    assert "Amended" in page and f"Reason for the amendment: {REASON}" in page
    # revision 1's history lists it too: it is a change to its case after its approval
    first = case.assessments.get(revision=1)
    assert REASON in html.unescape(client.get(f"/assessments/{first.pk}/history/").content.decode())


def test_changes_before_the_first_approval_are_not_amendments(reviewer):
    assessment = draft_with_result(reviewer)
    services.submission_update(submission=assessment.submission, by=reviewer, data={"submitter": "Other"},
                               cbi_claims=[])
    kinds = {e.kind for e in timeline.assessment_history(assessment=assessment) if e.subject.startswith("Case")}
    assert timeline.AMENDED not in kinds and "changed" in kinds


def test_the_approval_entry_does_not_print_the_snapshot(reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    fields = {c.field for e in timeline.assessment_history(assessment=assessment) for c in e.changes}
    assert "Case data as approved" not in fields


# The admin -------------------------------------------------------------------------------------


@pytest.fixture
def staff(reviewer):
    reviewer.is_staff = True
    reviewer.save()
    return reviewer


def admin_data(case: Submission, **changes) -> dict:
    data = edit_data(case, **changes)
    data["cbi_claims"] = "[]"
    data.pop("version_seen")
    return data


def test_the_admin_amends_a_case_whose_revision_2_is_a_draft_with_a_reason(client, staff, supervisor):
    case = second_revision(staff, supervisor).submission
    client.force_login(staff)
    url = f"/admin/assessments/submission/{case.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200 and "amendment_reason" in page.context["adminform"].form.fields
    refused = client.post(url, admin_data(case, production_volume_kg_yr="7000"))
    assert refused.status_code == 200 and "amendment_reason" in refused.context["adminform"].form.errors
    case.refresh_from_db()
    assert case.production_volume_kg_yr == 5000.0
    assert client.post(url, admin_data(case, production_volume_kg_yr="7000", amendment_reason=REASON)).status_code == 302
    case.refresh_from_db()
    assert case.production_volume_kg_yr == 7000.0
    assert case.history.order_by("-history_date", "-history_id").first().history_change_reason == REASON


@pytest.mark.parametrize("status", [Status.SUBMITTED, Status.APPROVED])
def test_the_admin_refuses_a_change_while_the_latest_revision_is(client, staff, supervisor, status):
    case = second_revision(staff, supervisor, status).submission
    client.force_login(staff)
    url = f"/admin/assessments/submission/{case.pk}/change/"
    client.post(url, admin_data(case, production_volume_kg_yr="7000", amendment_reason=REASON))
    case.refresh_from_db()
    assert case.production_volume_kg_yr == 5000.0
