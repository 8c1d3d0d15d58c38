"""The review workflow's services (assessments.workflow): every allowed and every refused
transition, who may act, what a refusal says and that it writes nothing, the frozen
approved work, and the new revision."""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from assessments import permissions, services, workflow
from assessments.esd import registry
from assessments.models import Assessment, DecisionAction, ReviewDecision, Scenario, Status, Submission
from tests._review_support import (
    TOY_KEY,
    add_computed_scenario,
    approved,
    draft_with_result,
    in_status,
    other_reviewer,
    other_supervisor,
    returned,
    submitted,
    toy_engine,
)
from tests.conftest import make_assessment, make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


def db_state() -> dict:
    """Every row the workflow could write, and every historical record, by value."""
    return {
        "submissions": list(Submission.objects.order_by("pk").values()),
        "assessments": list(Assessment.objects.order_by("pk").values()),
        "scenarios": list(Scenario.objects.order_by("pk").values()),
        "decisions": list(ReviewDecision.objects.order_by("pk").values()),
        "history": [
            model.history.count() for model in (Submission, Assessment, Scenario, ReviewDecision)
        ],
    }


def refused(call, exception, message: str) -> None:
    """``call`` raises ``exception`` with exactly ``message`` and writes nothing."""
    before = db_state()
    with pytest.raises(exception) as caught:
        call()
    texts = caught.value.messages if isinstance(caught.value, ValidationError) else [str(caught.value)]
    assert texts == [message]
    assert db_state() == before


# The table ------------------------------------------------------------------------------------


def test_the_transition_table_is_the_documented_flow():
    assert workflow.TRANSITIONS == {
        ("draft", "submit"): "submitted",
        ("returned", "submit"): "submitted",
        ("submitted", "approve"): "approved",
        ("submitted", "return"): "returned",
        ("submitted", "withdraw"): "draft",
    }


@pytest.mark.parametrize("status", Status.values)
def test_permission_rules_agree_with_the_table_on_status(status, reviewer, other_supervisor):
    assessment = make_assessment(make_submission(), reviewer, status=status, **(
        {"approved_by": other_supervisor, "approved_at": "2026-01-01T00:00:00Z"} if status == "approved" else {}
    ))
    assert permissions.can_submit(reviewer, assessment) == ((status, "submit") in workflow.TRANSITIONS)
    assert permissions.can_review(other_supervisor, assessment) == ((status, "approve") in workflow.TRANSITIONS)
    assert permissions.can_review(other_supervisor, assessment) == ((status, "return") in workflow.TRANSITIONS)


# Allowed transitions --------------------------------------------------------------------------


def test_engineer_submits_a_draft_with_a_note(reviewer):
    assessment = draft_with_result(reviewer)
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="  Two uses; see notes.  ")
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED
    decision = ReviewDecision.objects.get(assessment=assessment)
    assert (decision.action, decision.from_status, decision.to_status, decision.by, decision.comment) == (
        "submit", "draft", "submitted", reviewer, "Two uses; see notes."
    )
    latest = assessment.history.latest()
    assert latest.status == "submitted" and latest.history_user == reviewer
    assert latest.history_change_reason == "Submitted by rev."


def test_engineer_submits_without_a_note(reviewer):
    assessment = draft_with_result(reviewer)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    assert ReviewDecision.objects.get(assessment=assessment).comment == ""


def test_engineer_resubmits_a_returned_assessment(reviewer, supervisor):
    assessment = returned(reviewer, supervisor)
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Fchem corrected.")
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED
    last = assessment.decisions.order_by("-at", "-id").first()
    assert (last.action, last.from_status, last.to_status, last.by, last.comment) == (
        "submit", "returned", "submitted", reviewer, "Fchem corrected."
    )
    assert [d.action for d in assessment.decisions.order_by("at", "id")] == ["submit", "return", "submit"]


def test_supervisor_approves_a_submitted_assessment(reviewer, supervisor):
    assessment = submitted(reviewer)
    workflow.assessment_approve(assessment=assessment, by=supervisor, comment="Agreed.")
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED
    assert assessment.approved_by == supervisor and assessment.approved_at is not None
    decision = assessment.decisions.get(action=DecisionAction.APPROVE)
    assert (decision.from_status, decision.to_status, decision.by, decision.comment) == (
        "submitted", "approved", supervisor, "Agreed."
    )
    assert assessment.history.latest().history_user == supervisor


def test_supervisor_returns_a_submitted_assessment_with_a_comment(reviewer, supervisor):
    assessment = submitted(reviewer)
    workflow.assessment_return(assessment=assessment, by=supervisor, comment="Use the MSDS fraction.")
    assessment.refresh_from_db()
    assert assessment.status == Status.RETURNED and assessment.approved_by is None
    decision = assessment.decisions.get(action=DecisionAction.RETURN)
    assert (decision.from_status, decision.to_status, decision.by, decision.comment) == (
        "submitted", "returned", supervisor, "Use the MSDS fraction."
    )


def test_each_change_writes_exactly_one_decision(reviewer, supervisor):
    assessment = returned(reviewer, supervisor)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    rows = list(assessment.decisions.order_by("at", "id").values_list("from_status", "to_status"))
    assert rows == [("draft", "submitted"), ("submitted", "returned"), ("returned", "submitted"), ("submitted", "approved")]


# Refused transitions: one per (status, action) pair the table does not list ---------------------

REFUSED = [
    ("submitted", "submit", "This assessment is submitted: it cannot be submitted now."),
    ("approved", "submit", "This assessment is approved: it cannot be submitted now."),
    ("draft", "approve", "This assessment is a draft: it cannot be approved now."),
    ("returned", "approve", "This assessment is returned: it cannot be approved now."),
    ("approved", "approve", "This assessment is approved: it cannot be approved now."),
    ("draft", "return", "This assessment is a draft: it cannot be returned now."),
    ("returned", "return", "This assessment is returned: it cannot be returned now."),
    ("approved", "return", "This assessment is approved: it cannot be returned now."),
    ("draft", "withdraw", "This assessment is a draft: it cannot be withdrawn now."),
    ("returned", "withdraw", "This assessment is returned: it cannot be withdrawn now."),
    ("approved", "withdraw", "This assessment is approved: it cannot be withdrawn now."),
]


def _act(action, assessment, reviewer, supervisor):
    if action == "submit":
        return lambda: workflow.assessment_submit(assessment=assessment, by=reviewer, note="again")
    if action == "approve":
        return lambda: workflow.assessment_approve(assessment=assessment, by=supervisor, comment="ok")
    if action == "withdraw":
        return lambda: workflow.assessment_withdraw(assessment=assessment, by=reviewer)
    return lambda: workflow.assessment_return(assessment=assessment, by=supervisor, comment="redo")


@pytest.mark.parametrize("status,action,message", REFUSED, ids=[f"{s}-{a}" for s, a, _ in REFUSED])
def test_transition_not_in_the_table_is_refused(status, action, message, reviewer, supervisor, other_supervisor):
    assessment = in_status(status, reviewer, other_supervisor)
    assert (status, action) not in workflow.TRANSITIONS
    refused(_act(action, assessment, reviewer, supervisor), PermissionDenied, message)


def test_refused_pairs_and_allowed_pairs_cover_every_status_and_action():
    pairs = {(s, a) for s, a, _ in REFUSED} | set(workflow.TRANSITIONS)
    assert pairs == {(s, a) for s in Status.values for a in DecisionAction.values}


def test_transition_message_is_the_module_constant_formatted():
    assert workflow.TRANSITION_NOT_ALLOWED == "This assessment is {status}: it cannot be {action} now."


# Who may act ----------------------------------------------------------------------------------


def test_supervisor_cannot_approve_own_assessment(supervisor):
    assessment = submitted(supervisor)
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=supervisor),
        PermissionDenied,
        "You cannot approve or return your own assessment: another supervisor must review it.",
    )


def test_supervisor_cannot_return_own_assessment(supervisor):
    assessment = submitted(supervisor)
    refused(
        lambda: workflow.assessment_return(assessment=assessment, by=supervisor, comment="Hmm."),
        PermissionDenied,
        workflow.SELF_REVIEW_NOT_ALLOWED,
    )


def test_another_supervisor_approves_a_supervisors_own_work(supervisor, other_supervisor):
    assessment = submitted(supervisor)
    workflow.assessment_approve(assessment=assessment, by=other_supervisor)
    assessment.refresh_from_db()
    assert assessment.status == Status.APPROVED and assessment.approved_by == other_supervisor


def test_reviewer_cannot_approve(reviewer, other_reviewer):
    assessment = submitted(reviewer)
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=other_reviewer),
        PermissionDenied,
        "Only a supervisor can approve or return an assessment.",
    )


def test_reviewer_cannot_return(reviewer, other_reviewer):
    assessment = submitted(reviewer)
    refused(
        lambda: workflow.assessment_return(assessment=assessment, by=other_reviewer, comment="No."),
        PermissionDenied,
        workflow.REVIEW_NOT_ALLOWED,
    )


def test_engineer_cannot_approve_own_work_without_the_supervisor_role(reviewer):
    assessment = submitted(reviewer)
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=reviewer),
        PermissionDenied,
        workflow.REVIEW_NOT_ALLOWED,
    )


def test_only_the_engineer_submits(reviewer, other_reviewer):
    assessment = draft_with_result(reviewer)
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=other_reviewer),
        PermissionDenied,
        "Only the assessment's engineer can submit it.",
    )


def test_a_supervisor_cannot_submit_someone_elses_draft(reviewer, supervisor):
    assessment = draft_with_result(reviewer)
    refused(lambda: workflow.assessment_submit(assessment=assessment, by=supervisor), PermissionDenied, workflow.SUBMIT_NOT_ALLOWED)


def test_uncleared_supervisor_cannot_review_a_cbi_case(reviewer, django_user_model):
    from assessments.roles import SUPERVISOR_GROUP
    from tests.conftest import make_user

    uncleared_supervisor = make_user(django_user_model, "sup-no-cbi", group=SUPERVISOR_GROUP)
    assessment = submitted(reviewer, cbi_claims=["chemical_name"])
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=uncleared_supervisor),
        PermissionDenied,
        workflow.REVIEW_NOT_ALLOWED,
    )


# Bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("comment", ["", "   \n "])
def test_returning_needs_a_comment(comment, reviewer, supervisor):
    assessment = submitted(reviewer)
    refused(
        lambda: workflow.assessment_return(assessment=assessment, by=supervisor, comment=comment),
        ValidationError,
        "Say what must change: a comment is required to return an assessment.",
    )


def test_submitting_needs_a_scenario(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        "Add at least one use (scenario) before submitting.",
    )


def test_submitting_needs_every_scenario_computed(reviewer):
    assessment = draft_with_result(reviewer)
    services.scenario_add(assessment=assessment, by=reviewer, scenario_key=TOY_KEY, title="Second use")
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        "Compute every use before submitting. Not computed: “Second use”.",
    )


def test_submitting_refuses_inputs_changed_since_the_result(reviewer):
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    services.scenario_save_step(
        scenario=scenario, by=reviewer, step="volume", values={"Qchem_yr": 8000, "Fchem": 0.2},
        reasons={"Fchem": "Submitter's MSDS: 20 %."},
    )
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        "Inputs changed since these uses were computed; compute them again before submitting: “Toy use”.",
    )


def test_computing_again_allows_the_submission(reviewer):
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    services.scenario_save_step(
        scenario=scenario, by=reviewer, step="volume", values={"Qchem_yr": 8000, "Fchem": 0.2},
        reasons={"Fchem": "Submitter's MSDS: 20 %."},
    )
    services.scenario_compute(scenario=scenario, by=reviewer)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED


def test_renaming_a_use_does_not_make_its_result_stale(reviewer):
    assessment = draft_with_result(reviewer)
    services.scenario_rename(scenario=assessment.scenarios.get(), by=reviewer, title="Spin coating")
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED


# Approved work is frozen ----------------------------------------------------------------------


def test_approval_keeps_the_stored_result(reviewer, supervisor):
    assessment = submitted(reviewer)
    scenario = assessment.scenarios.get()
    stored, computed_at = scenario.result, scenario.computed_at
    # 5000 kg/yr × 0.2 = 1000 kg/yr to air (hand calculation).
    assert stored["totals_by_medium"] == {"air": pytest.approx(1000.0)}
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    scenario.refresh_from_db()
    assert (scenario.result, scenario.computed_at) == (stored, computed_at)


# The stored results are the engine's ----------------------------------------------------------


def tamper(scenario: Scenario, change) -> None:
    """Change the stored result behind the services' back (as a raw edit would):
    ``change(result)`` edits a copy; computed_inputs stay, so the result looks current."""
    result = json.loads(json.dumps(scenario.result))
    change(result)
    Scenario.objects.filter(pk=scenario.pk).update(result=result)


def ten_times_the_release(result: dict) -> None:
    for estimate in result["releases"][0]["estimates"]:
        for name in ("kg_site_day", "kg_site_year", "kg_year_all_sites"):
            estimate[name] *= 10


def test_submit_refuses_a_result_the_engine_did_not_compute(reviewer):
    assessment = draft_with_result(reviewer)
    tamper(assessment.scenarios.get(), ten_times_the_release)
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        "The stored results of “Toy use” are not what the engine computes from its inputs; compute it again.",
    )


def test_submit_refuses_a_result_relabelled_with_other_inputs(reviewer):
    """Inputs and computed_inputs changed together, the result left as it was: current by
    the staleness check, not the engine's result for those inputs."""
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    inputs = {**scenario.inputs, "Qchem_yr": 9000}
    Scenario.objects.filter(pk=scenario.pk).update(inputs=inputs, computed_inputs=inputs)
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        workflow.NOT_ENGINE_RESULTS.format(titles="“Toy use”", its="its", it="it"),
    )


def test_submit_names_every_use_whose_result_is_not_the_engines(reviewer):
    assessment = draft_with_result(reviewer)
    add_computed_scenario(assessment, title="Second use", volume=2000.0)
    add_computed_scenario(assessment, title="Third use", volume=3000.0)
    first, _, third = assessment.scenarios.order_by("position")
    tamper(first, ten_times_the_release)
    tamper(third, lambda result: result["facility"].update(Nsites=2))
    refused(
        lambda: workflow.assessment_submit(assessment=assessment, by=reviewer),
        ValidationError,
        "The stored results of “Toy use”, “Third use” are not what the engine computes from their inputs; "
        "compute them again.",
    )


def test_computing_again_replaces_a_tampered_result_and_allows_the_submission(reviewer):
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    tamper(scenario, ten_times_the_release)
    services.scenario_compute(scenario=scenario, by=reviewer)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED


def test_the_check_ignores_key_order_the_engine_label_and_differences_below_1e_9(reviewer):
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()

    def harmless(result):
        estimate = result["releases"][0]["estimates"][0]
        estimate["kg_year_all_sites"] *= 1 + 1e-12
        result["engine_version"] = "0.9.0"
        reordered = dict(reversed(list(result.items())))
        result.clear()
        result.update(reordered)

    tamper(scenario, harmless)
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    assessment.refresh_from_db()
    assert assessment.status == Status.SUBMITTED


def test_a_difference_of_1e_6_is_a_difference(reviewer):
    assessment = draft_with_result(reviewer)

    def off_by_a_millionth(result):
        result["releases"][0]["estimates"][0]["kg_site_day"] *= 1 + 1e-6

    tamper(assessment.scenarios.get(), off_by_a_millionth)
    with pytest.raises(ValidationError):
        workflow.assessment_submit(assessment=assessment, by=reviewer)


def test_a_result_stripped_of_its_releases_is_refused(reviewer):
    assessment = draft_with_result(reviewer)
    tamper(assessment.scenarios.get(), lambda result: result.pop("releases"))
    with pytest.raises(ValidationError):
        workflow.assessment_submit(assessment=assessment, by=reviewer)


def test_approve_refuses_a_tampered_result(reviewer, supervisor):
    assessment = submitted(reviewer)
    tamper(assessment.scenarios.get(), lambda result: result["facility"].update(TIME_days=1))
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=supervisor),
        ValidationError,
        "The stored results of “Toy use” are not what the engine computes from its inputs; "
        "return the assessment instead.",
    )


def test_approve_refuses_a_result_the_engine_now_computes_differently(reviewer, supervisor, toy_engine, monkeypatch):
    """The engine changed between submission and approval: the supervisor would certify
    numbers the engine no longer computes."""
    assessment = submitted(reviewer)

    def later_engine(inputs):
        result = toy_engine.run(inputs)
        result.facility["Nsites"] = 2
        return result

    monkeypatch.setattr(registry, "_registry", lambda: {TOY_KEY: dataclasses.replace(toy_engine, run=later_engine)})
    refused(
        lambda: workflow.assessment_approve(assessment=assessment, by=supervisor),
        ValidationError,
        workflow.NOT_ENGINE_RESULTS_AT_APPROVAL.format(titles="“Toy use”", its="its", it="it"),
    )


def test_a_result_whose_scenario_is_gone_is_refused(reviewer, supervisor, monkeypatch):
    assessment = submitted(reviewer)
    monkeypatch.setattr(registry, "_registry", dict)
    with pytest.raises(ValidationError) as caught:
        workflow.assessment_approve(assessment=assessment, by=supervisor)
    assert caught.value.messages == [workflow.NOT_ENGINE_RESULTS_AT_APPROVAL.format(titles="“Toy use”", its="its", it="it")]


def _edit_calls(assessment: Assessment, user):
    scenario = assessment.scenarios.get()
    submission = assessment.submission
    return {
        "scenario_save_step": lambda: services.scenario_save_step(
            scenario=scenario, by=user, step="volume", values={"Qchem_yr": 1, "Fchem": 0.2}, reasons={"Fchem": "x"}
        ),
        "scenario_compute": lambda: services.scenario_compute(scenario=scenario, by=user),
        "scenario_add": lambda: services.scenario_add(assessment=assessment, by=user, scenario_key=TOY_KEY),
        "scenario_delete": lambda: services.scenario_delete(scenario=scenario, by=user),
        "scenario_duplicate": lambda: services.scenario_duplicate(scenario=scenario, by=user),
        "scenario_rename": lambda: services.scenario_rename(scenario=scenario, by=user, title="New title"),
        "assessment_update_notes": lambda: services.assessment_update_notes(
            assessment=assessment, by=user, data={"notes": "changed"}
        ),
        "submission_update": lambda: services.submission_update(
            submission=submission, by=user, data={"production_volume_kg_yr": 1.0}, cbi_claims=[]
        ),
    }


EDIT_PATHS = [
    "scenario_save_step", "scenario_compute", "scenario_add", "scenario_delete", "scenario_duplicate",
    "scenario_rename", "assessment_update_notes", "submission_update",
]


@pytest.mark.parametrize("path", EDIT_PATHS)
def test_approved_assessment_refuses_every_service_edit(path, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    message = services.EDIT_CASE_NOT_ALLOWED if path == "submission_update" else services.EDIT_ASSESSMENT_NOT_ALLOWED
    refused(_edit_calls(assessment, reviewer)[path], PermissionDenied, message)


@pytest.mark.parametrize("path", EDIT_PATHS)
def test_submitted_assessment_refuses_every_service_edit(path, reviewer):
    assessment = submitted(reviewer)
    message = services.EDIT_CASE_NOT_ALLOWED if path == "submission_update" else services.EDIT_ASSESSMENT_NOT_ALLOWED
    refused(_edit_calls(assessment, reviewer)[path], PermissionDenied, message)


def test_returned_assessment_is_editable_again(reviewer, supervisor):
    assessment = returned(reviewer, supervisor)
    services.assessment_update_notes(assessment=assessment, by=reviewer, data={"notes": "Fchem corrected."})
    assessment.refresh_from_db()
    assert assessment.notes == "Fchem corrected."


# New revision ---------------------------------------------------------------------------------


def test_new_revision_copies_the_approved_assessment_into_a_draft(reviewer, supervisor, other_reviewer):
    source = approved(reviewer, supervisor)
    add_before = list(source.scenarios.values("scenario_key", "title", "position", "inputs", "reasons", "result", "computed_at"))

    copy = workflow.assessment_revise(assessment=source, by=other_reviewer)

    assert (copy.submission_id, copy.revision, copy.status, copy.engineer) == (
        source.submission_id, 2, Status.DRAFT, other_reviewer
    )
    assert copy.approved_by is None and copy.approved_at is None
    for name in ("notes", "pollution_prevention", "occupational_exposure_rating", "exposure_based_review"):
        assert getattr(copy, name) == getattr(source, name)
    copied = list(copy.scenarios.values("scenario_key", "title", "position", "inputs", "reasons", "result", "computed_at"))
    assert copied == add_before and copied[0]["reasons"] == {"Fchem": "Submitter's MSDS: 20 %."}
    assert set(copy.scenarios.values_list("pk", flat=True)).isdisjoint(source.scenarios.values_list("pk", flat=True))
    assert not copy.decisions.exists()
    first = copy.history.earliest()
    assert first.history_user == other_reviewer
    assert first.history_change_reason == "New revision copied from approved revision 1."


def test_new_revision_copies_notes_text(reviewer, supervisor):
    assessment = draft_with_result(reviewer)
    services.assessment_update_notes(
        assessment=assessment, by=reviewer,
        data={"notes": "One site.", "pollution_prevention": "Closed transfer.", "occupational_exposure_rating": "NR",
              "exposure_based_review": True},
    )
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    copy = workflow.assessment_revise(assessment=assessment, by=reviewer)
    assert (copy.notes, copy.pollution_prevention, copy.occupational_exposure_rating, copy.exposure_based_review) == (
        "One site.", "Closed transfer.", "NR", True
    )


def test_the_approved_source_is_unchanged_by_the_copy(reviewer, supervisor):
    source = approved(reviewer, supervisor)
    before = (list(Assessment.objects.filter(pk=source.pk).values()), list(source.scenarios.values()))
    workflow.assessment_revise(assessment=source, by=reviewer)
    assert (list(Assessment.objects.filter(pk=source.pk).values()), list(source.scenarios.values())) == before


def test_a_copied_result_is_current_so_the_revision_can_be_submitted(reviewer, supervisor):
    copy = workflow.assessment_revise(assessment=approved(reviewer, supervisor), by=reviewer)
    workflow.assessment_submit(assessment=copy, by=reviewer)
    copy.refresh_from_db()
    assert copy.status == Status.SUBMITTED


@pytest.mark.parametrize("status", ["draft", "submitted", "returned"])
def test_only_an_approved_assessment_can_be_revised(status, reviewer, supervisor):
    assessment = in_status(status, reviewer, supervisor)
    refused(
        lambda: workflow.assessment_revise(assessment=assessment, by=reviewer),
        PermissionDenied,
        "Only an approved assessment can be copied into a new revision.",
    )


def test_only_the_latest_revision_can_be_revised(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    workflow.assessment_revise(assessment=first, by=reviewer)
    refused(
        lambda: workflow.assessment_revise(assessment=first, by=reviewer),
        PermissionDenied,
        "Revision 1 is not the latest revision of this case: start from the latest one.",
    )


def test_a_user_without_the_permission_cannot_revise(reviewer, supervisor, django_user_model):
    from tests.conftest import make_user

    outsider = make_user(django_user_model, "outsider", cbi=True)  # no group: no add_assessment
    assessment = approved(reviewer, supervisor)
    refused(
        lambda: workflow.assessment_revise(assessment=assessment, by=outsider),
        PermissionDenied,
        "You may not start a new revision.",
    )


def test_revisions_are_numbered_after_the_latest(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    workflow.assessment_submit(assessment=second, by=reviewer)
    workflow.assessment_approve(assessment=second, by=supervisor)
    third = workflow.assessment_revise(assessment=second, by=reviewer)
    assert [first.revision, second.revision, third.revision] == [1, 2, 3]
