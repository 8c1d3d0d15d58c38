"""Deleting a use asks first (a page saying what goes, then a POST) and can be undone for
30 minutes while the assessment is editable: the use comes back with everything it held.
A deleted use is in no list, report, export, comparison or count meanwhile; only the
assessment's engineer deletes or restores, never on submitted or approved work; the
history says who deleted and who restored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from lxml import html

from assessments import review, selectors, services, timeline, transfer, workflow
from assessments.models import SCENARIO_UNDO_WINDOW, ApprovedWorkLocked, Scenario, Status
from assessments.reports.context import irer_context
from notices.models import UseComment
from tests._review_support import (
    add_computed_scenario,
    approved,
    draft_with_result,
    other_reviewer,
    toy_engine,
)
from tests.conftest import make_assessment, make_submission
from tests.reports import reading

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.fixture
def assessment(reviewer):
    """A draft with two computed uses; the second has report text and a supervisor's comment."""
    assessment = make_assessment(make_submission(case_number="P-26-0801"), reviewer)
    add_computed_scenario(assessment, title="Spin coating")
    return assessment


@pytest.fixture
def use(assessment, supervisor):
    scenario = add_computed_scenario(assessment, title="Edge bead removal", volume=800.0)
    scenario = services.scenario_update_release_texts(
        scenario=scenario, by=assessment.engineer, texts={"1": {"to": "the plant's scrubber stack"}}
    )
    UseComment.objects.create(scenario=scenario, author=supervisor, text="Where does the 20 % come from?")
    return scenario


def deleted(use: Scenario, by) -> Scenario:
    return services.scenario_delete(scenario=use, by=by)


def ago(scenario: Scenario, minutes: float) -> None:
    """As if the use had been deleted ``minutes`` ago."""
    Scenario.all_objects.filter(pk=scenario.pk).update(deleted_at=timezone.now() - timedelta(minutes=minutes))


def held(scenario: Scenario) -> dict:
    """Everything a use holds that its delete must not lose."""
    scenario = Scenario.all_objects.get(pk=scenario.pk)
    return {
        "title": scenario.title, "key": scenario.scenario_key, "position": scenario.position,
        "inputs": scenario.inputs, "reasons": scenario.reasons, "result": scenario.result,
        "computed_inputs": scenario.computed_inputs, "computed_at": scenario.computed_at,
        "release_texts": scenario.release_texts,
        "comments": list(scenario.use_comments.values_list("text", flat=True)),
    }


# Asking first -----------------------------------------------------------------------------------------


def test_delete_asks_first_with_a_page_saying_what_goes(client, reviewer, use):
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{use.pk}/delete/")
    assert response.status_code == 200
    assert Scenario.objects.filter(pk=use.pk).exists()  # a GET deletes nothing
    page = html.fromstring(response.content.decode())
    assert page.xpath("string(//h1)") == "Delete “Edge bead removal”?"
    items = [li.text_content().strip() for li in page.xpath("//ul[@id='use-contents']/li")]
    assert items == [
        "The method: Toy release to air",
        "2 inputs changed from the document's defaults, with 1 reason",
        "Its results",
        "Your report text for 1 release",
        "1 open comment from the supervisor",
    ]
    form = page.xpath("//main//form[@method='post']")[0]
    assert form.get("action") is None  # posts to this page
    assert form.xpath("string(.//button)") == "Delete the use"
    assert page.xpath("//main//form//a[text()='Cancel']")[0].get("href") == f"/assessments/{use.assessment_id}/"


def test_the_assessment_page_links_delete_to_the_question(client, reviewer, use):
    client.force_login(reviewer)
    page = html.fromstring(client.get(f"/assessments/{use.assessment_id}/").content.decode())
    link = page.xpath(f"//a[@aria-label='Delete {use.title}']")[0]
    assert link.get("href") == f"/scenarios/{use.pk}/delete/"
    assert page.xpath(f"//form[@action='/scenarios/{use.pk}/delete/']") == []  # no delete without asking


def test_the_question_is_refused_to_anyone_but_the_engineer(client, supervisor, use):
    client.force_login(supervisor)
    response = client.get(f"/scenarios/{use.pk}/delete/")
    assert response.status_code == 403
    assert services.EDIT_ASSESSMENT_NOT_ALLOWED.replace("'", "&#x27;") in response.content.decode()


# Deleting ---------------------------------------------------------------------------------------------


def test_post_deletes_and_the_assessment_page_offers_the_undo(client, reviewer, use):
    client.force_login(reviewer)
    response = client.post(f"/scenarios/{use.pk}/delete/")
    assert response.status_code == 302
    assert response["Location"] == f"/assessments/{use.assessment_id}/#uses-title"
    assert not Scenario.objects.filter(pk=use.pk).exists()
    assert Scenario.all_objects.get(pk=use.pk).deleted_at is not None
    page = html.fromstring(client.get(f"/assessments/{use.assessment_id}/").content.decode())
    uses = [a.text_content() for a in page.xpath("//section[@aria-labelledby='uses-title']//tbody//td[1]")]
    assert uses == ["Spin coating"]
    notice = page.xpath(f"//*[@id='deleted-use-{use.pk}']")[0]
    assert notice.get("role") == "status"
    assert "“Edge bead removal” was deleted at" in notice.text_content()
    undo = notice.xpath(".//form")[0]
    assert undo.get("method") == "post" and undo.get("action") == f"/scenarios/{use.pk}/restore/"
    assert undo.xpath("string(.//button)") == "Undo"


def test_delete_keeps_everything_the_use_held(reviewer, use):
    before = held(use)
    deleted(use, reviewer)
    assert held(use) == before


def test_delete_is_refused_to_another_reviewer(other_reviewer, use):
    with pytest.raises(PermissionDenied):
        deleted(use, other_reviewer)
    assert Scenario.objects.filter(pk=use.pk).exists()


def test_delete_is_refused_on_approved_work(reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    use = assessment.scenarios.get()
    with pytest.raises(PermissionDenied):
        deleted(use, reviewer)
    assert Scenario.objects.get(pk=use.pk).deleted_at is None


def test_a_deleted_use_has_no_page(client, reviewer, use):
    deleted(use, reviewer)
    client.force_login(reviewer)
    for url in (f"/scenarios/{use.pk}/", f"/scenarios/{use.pk}/wizard/", f"/scenarios/{use.pk}/delete/",
                f"/scenarios/{use.pk}/report-text/"):
        assert client.get(url).status_code == 404, url


# Undoing ----------------------------------------------------------------------------------------------


def test_undo_within_the_window_restores_everything(client, reviewer, use):
    before = held(use)
    deleted(use, reviewer)
    ago(use, 29)
    client.force_login(reviewer)
    response = client.post(f"/scenarios/{use.pk}/restore/")
    assert response.status_code == 302 and response["Location"] == f"/assessments/{use.assessment_id}/"
    assert Scenario.objects.filter(pk=use.pk).exists()
    assert held(use) == before
    page = client.get(response["Location"]).content.decode()
    assert "“Edge bead removal” restored, with its inputs, reasons, results and report text." in page
    assert f'id="deleted-use-{use.pk}"' not in page


def test_undo_is_a_post(client, reviewer, use):
    deleted(use, reviewer)
    client.force_login(reviewer)
    assert client.get(f"/scenarios/{use.pk}/restore/").status_code == 405
    assert not Scenario.objects.filter(pk=use.pk).exists()


def test_undo_after_the_window_is_refused(client, reviewer, use):
    deleted(use, reviewer)
    ago(use, SCENARIO_UNDO_WINDOW.total_seconds() / 60 + 1)
    with pytest.raises(PermissionDenied) as refused:
        services.scenario_restore(scenario=use, by=reviewer)
    assert str(refused.value) == services.RESTORE_TOO_LATE.format(title="Edge bead removal")
    assert not Scenario.objects.filter(pk=use.pk).exists()
    client.force_login(reviewer)
    assert client.post(f"/scenarios/{use.pk}/restore/").status_code == 403
    page = client.get(f"/assessments/{use.assessment_id}/").content.decode()
    assert f'id="deleted-use-{use.pk}"' not in page  # no longer offered


def test_undo_by_another_user_is_refused(client, reviewer, other_reviewer, supervisor, use):
    deleted(use, reviewer)
    for user in (other_reviewer, supervisor):
        with pytest.raises(PermissionDenied):
            services.scenario_restore(scenario=use, by=user)
        client.force_login(user)
        assert client.post(f"/scenarios/{use.pk}/restore/").status_code == 403
        page = client.get(f"/assessments/{use.assessment_id}/").content.decode()
        assert f'id="deleted-use-{use.pk}"' not in page
    assert not Scenario.objects.filter(pk=use.pk).exists()


def test_undo_is_refused_once_the_assessment_is_submitted(reviewer, use):
    deleted(use, reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer, note="Ready.")
    with pytest.raises(PermissionDenied):
        services.scenario_restore(scenario=use, by=reviewer)
    assert not Scenario.objects.filter(pk=use.pk).exists()


def test_undo_is_refused_on_approved_work(reviewer, supervisor, use):
    deleted(use, reviewer)
    assessment = workflow.assessment_submit(assessment=use.assessment, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=assessment, by=supervisor, comment="Fine.")
    with pytest.raises(PermissionDenied):
        services.scenario_restore(scenario=use, by=reviewer)
    assert Scenario.all_objects.get(pk=use.pk).deleted_at is not None


def test_a_deleted_use_of_approved_work_cannot_be_removed_for_good(reviewer, supervisor, use):
    """Approved work is final, its deleted uses too (models.ApprovedWorkLocked reads the
    stored row whether or not it is deleted)."""
    deleted(use, reviewer)
    assessment = workflow.assessment_submit(assessment=use.assessment, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=assessment, by=supervisor, comment="Fine.")
    hidden = Scenario.all_objects.get(pk=use.pk)
    with pytest.raises(ApprovedWorkLocked), transaction.atomic():
        hidden.delete()
    assert Scenario.all_objects.filter(pk=use.pk).exists()


def test_undo_of_a_case_the_user_may_not_see_is_a_404(client, uncleared_reviewer, reviewer):
    assessment = make_assessment(make_submission(case_number="P-26-0802", cbi_claims=["submitter"]), reviewer)
    use = add_computed_scenario(assessment)
    deleted(use, reviewer)
    client.force_login(uncleared_reviewer)
    assert client.post(f"/scenarios/{use.pk}/restore/").status_code == 404


def test_an_undo_sent_twice_changes_nothing_more(reviewer, use):
    deleted(use, reviewer)
    services.scenario_restore(scenario=use, by=reviewer)
    records = Scenario.history.filter(id=use.pk).count()
    services.scenario_restore(scenario=use, by=reviewer)
    assert Scenario.history.filter(id=use.pk).count() == records


def test_a_use_added_meanwhile_does_not_take_the_restored_ones_place(reviewer, assessment, use):
    deleted(use, reviewer)
    added = add_computed_scenario(assessment, title="Added meanwhile")
    services.scenario_restore(scenario=use, by=reviewer)
    assert [s.title for s in assessment.scenarios.all()] == ["Spin coating", "Edge bead removal", "Added meanwhile"]
    assert len({s.position for s in assessment.scenarios.all()}) == 3
    assert added.position > use.position


# History ----------------------------------------------------------------------------------------------


def test_history_says_who_deleted_and_who_restored(client, reviewer, use):
    deleted(use, reviewer)
    services.scenario_restore(scenario=use, by=reviewer)
    entries = [e for e in timeline.assessment_history(assessment=use.assessment) if e.subject == "Use “Edge bead removal”"]
    assert [(e.kind, e.user, e.note) for e in entries[-2:]] == [
        ("deleted", "rev", services.SCENARIO_DELETED_REASON),
        ("restored", "rev", services.SCENARIO_RESTORED_REASON),
    ]
    assert all(change.field != "Deleted at" for e in entries for change in e.changes)
    client.force_login(reviewer)
    page = client.get(f"/assessments/{use.assessment_id}/history/").content.decode()
    assert "Deleted" in page and "Restored" in page


# A deleted use is nowhere -----------------------------------------------------------------------------


def test_a_deleted_use_is_not_in_the_irer(reviewer, use):
    deleted(use, reviewer)
    context = irer_context(assessment=use.assessment)
    assert reading.use_titles(context) == ["Spin coating"]


def test_a_deleted_use_is_not_in_the_irer_preview(client, reviewer, use):
    client.force_login(reviewer)
    assert "Edge bead removal" in client.get(f"/assessments/{use.assessment_id}/irer/").content.decode()
    deleted(use, reviewer)
    assert "Edge bead removal" not in client.get(f"/assessments/{use.assessment_id}/irer/").content.decode()


def test_a_deleted_use_is_not_exported(reviewer, use):
    deleted(use, reviewer)
    document = transfer.case_export(case_number="P-26-0801")
    uses = document["assessments"][0]["scenarios"]
    assert [row["title"] for row in uses] == ["Spin coating"]
    assert all("deleted_at" not in row for row in uses)


def test_a_deleted_use_is_not_in_the_totals_or_the_review_queue_count(reviewer, supervisor, assessment, use):
    before = selectors.assessment_overview(assessment=assessment)
    deleted(use, reviewer)
    after = selectors.assessment_overview(assessment=assessment)
    assert [s.title for s, _ in after["scenarios"]] == ["Spin coating"]
    assert sum(amount for _, amount in after["totals"]) < sum(amount for _, amount in before["totals"])
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
    queued = review.review_queue(user=supervisor).get(pk=assessment.pk)
    assert queued.scenario_count == 1


def test_a_deleted_use_is_not_compared_nor_copied_into_the_next_revision(client, reviewer, supervisor):
    first = approved(reviewer, supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    copy = second.scenarios.get()
    extra = add_computed_scenario(second, title="Tried and dropped")
    deleted(extra, reviewer)
    client.force_login(reviewer)
    response = client.get(f"/assessments/{second.pk}/compare/", {"with": first.pk, "all": "1"})
    assert response.status_code == 200
    assert "Tried and dropped" not in response.content.decode()
    assert copy.title in response.content.decode()
    workflow.assessment_submit(assessment=second, by=reviewer, note="Ready.")
    third_base = workflow.assessment_approve(assessment=second, by=supervisor, comment="Fine.")
    third = workflow.assessment_revise(assessment=third_base, by=reviewer)
    assert [s.title for s in third.scenarios.all()] == [copy.title]


def test_submitting_ignores_a_deleted_use_that_was_never_computed(reviewer, assessment):
    draft = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="review-toy", title="Not computed")
    deleted(draft, reviewer)
    submitted = workflow.assessment_submit(assessment=assessment, by=reviewer, note="Ready.")
    assert submitted.status == Status.SUBMITTED
