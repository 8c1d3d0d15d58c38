"""Recomputing a use computed by an older engine (issue 42, "After a change lands"):
the rule of what is older (``engine_marks``), beside "not current"; the service that
stores the installed engine's result (``services.scenario_recompute``), computed on the
server, with a history record naming both engines; and every refusal, per role and per
state, writing nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from assessments import engine_marks, engine_refresh, services, workflow
from assessments.engine_results import engine_result_difference
from assessments.esd.results import ENGINE_VERSION
from assessments.models import Assessment, Scenario, Status
from assessments.presentation import CURRENT, STALE, scenario_state
from tests._older_engine_support import EARLIER, computed_use, stored_by
from tests._review_support import other_reviewer, other_supervisor
from tests.conftest import make_submission

pytestmark = pytest.mark.django_db


def snapshot(scenario: Scenario) -> dict:
    """What a refused recompute must leave as it was: the use's row and its history."""
    row = Scenario.objects.filter(pk=scenario.pk).values().get()
    return {"row": row, "history": scenario.history.count()}


def refused(call, exception, message: str | None, scenario: Scenario) -> None:
    """``call`` raises ``exception`` (with exactly ``message``, when given) and writes nothing."""
    before = snapshot(scenario)
    with pytest.raises(exception) as caught:
        call()
    if message is not None:
        texts = caught.value.messages if isinstance(caught.value, ValidationError) else [str(caught.value)]
        assert texts == [message]
    assert snapshot(scenario) == before


def recompute(scenario: Scenario, by):
    """Accept as the preview posts it: the fingerprint of the use as it was shown."""
    return services.scenario_recompute(scenario=scenario, by=by, seen=engine_marks.use_fingerprint(scenario))


# What is older -----------------------------------------------------------------------------------


def test_a_result_from_another_engine_version_is_older(reviewer):
    use = computed_use(reviewer)
    assert use.result["engine_version"] == ENGINE_VERSION
    assert engine_marks.older_engine(use) is None
    older = engine_marks.older_engine(stored_by(use, EARLIER))
    assert older == engine_marks.OlderEngine(EARLIER)
    assert older.text == f"Computed by engine {EARLIER}; this installation runs {ENGINE_VERSION}"


def test_a_result_naming_no_engine_version_counts_as_older(reviewer):
    use = stored_by(computed_use(reviewer), None)
    older = engine_marks.older_engine(use)
    assert older is not None and older.version == ""
    assert older.text == f"Computed by an engine that recorded no version; this installation runs {ENGINE_VERSION}"


def test_the_open_statuses_are_every_status_but_approved():
    """The pages read :data:`~assessments.engine_marks.OPEN_STATUSES`; the lists' ``EXISTS``
    reads "the case's latest revision is not approved": the same revisions."""
    assert set(engine_marks.OPEN_STATUSES) == set(Status.values) - {Status.APPROVED}


def test_an_uncomputed_use_is_not_older(reviewer):
    use = computed_use(reviewer)
    blank = services.scenario_add(assessment=use.assessment, by=reviewer, scenario_key="cvd-2015")
    assert engine_marks.older_engine(blank) is None


def test_open_revisions_only_an_approved_one_is_never_marked(reviewer, supervisor):
    use = stored_by(computed_use(reviewer), EARLIER)  # the label alone: the workflow's checks pass
    for status in (Status.DRAFT, Status.SUBMITTED):
        assert use.assessment.status == status and engine_marks.older_engine(use) is not None
        if status == Status.DRAFT:
            workflow.assessment_submit(assessment=use.assessment, by=reviewer)
            use.refresh_from_db()
    workflow.assessment_return(assessment=use.assessment, by=supervisor, comment="Check it.")
    use.refresh_from_db()
    assert use.assessment.status == Status.RETURNED and engine_marks.older_engine(use) is not None
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    workflow.assessment_approve(assessment=use.assessment, by=supervisor)
    use.refresh_from_db()
    assert use.assessment.status == Status.APPROVED and use.result["engine_version"] == EARLIER
    assert engine_marks.older_engine(use) is None


def test_older_and_not_current_both_hold_and_recompute_takes_the_inputs_computed_from(reviewer):
    """Older (the engine changed) and not current (the inputs changed) are two facts. Recompute
    takes the inputs the stored result was computed from: the difference is the engine's alone,
    and the use stays not current until computed again from its present inputs."""
    use = computed_use(reviewer)
    computed_from = dict(use.computed_inputs)
    services.scenario_save_step(scenario=use, by=reviewer, step="production",
                                values={"Qchem_yr": "5000", "Fchem": "0.3"}, reasons={"Fchem": "Amended MSDS"})
    use = stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0)
    assert scenario_state(use) == STALE and engine_marks.older_engine(use) is not None

    stored = recompute(use, reviewer)
    assert stored.computed_inputs == computed_from != stored.inputs
    assert scenario_state(stored) == STALE and engine_marks.older_engine(stored) is None
    assert not engine_result_difference(scenario_key=stored.scenario_key, computed_inputs=computed_from,
                                        stored=stored.result)
    stored = services.scenario_compute(scenario=stored, by=reviewer)  # the wizard's Compute: current
    assert scenario_state(stored) == CURRENT and engine_marks.older_engine(stored) is None


# Accept ---------------------------------------------------------------------------------------------


def test_accept_stores_the_installed_engines_result_with_a_history_record(reviewer):
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    computed_before = use.computed_at
    stored = recompute(use, reviewer)
    stored.refresh_from_db()
    assert stored.result["engine_version"] == ENGINE_VERSION
    assert stored.result == engine_refresh.fresh_result(stored)
    assert stored.result["releases"][0]["estimates"][0]["kg_year_all_sites"] != 60.0
    assert stored.computed_at > computed_before
    record = stored.history.order_by("-history_date", "-history_id").first()
    assert record.history_user == reviewer
    assert record.history_change_reason == f"Recomputed by engine {ENGINE_VERSION} (was engine {EARLIER}), inputs unchanged."
    assert record.result["engine_version"] == ENGINE_VERSION


def test_accept_names_a_result_that_recorded_no_version_in_the_history(reviewer):
    stored = recompute(stored_by(computed_use(reviewer), None), reviewer)
    reason = stored.history.order_by("-history_date", "-history_id").first().history_change_reason
    assert reason == f"Recomputed by engine {ENGINE_VERSION} (was an engine that recorded no version), inputs unchanged."


def test_a_long_version_label_is_shortened_for_the_history(reviewer):
    stored = recompute(stored_by(computed_use(reviewer), "9" * 200), reviewer)
    reason = stored.history.order_by("-history_date", "-history_id").first().history_change_reason
    assert reason.startswith(f"Recomputed by engine {ENGINE_VERSION} (was engine 999") and len(reason) == 100


def test_a_recomputed_use_is_submitted_and_approved(reviewer, supervisor):
    """The figures an older engine stored stop the submission (the workflow's rule);
    recomputed, the revision goes through."""
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    with pytest.raises(ValidationError):
        workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    recompute(use, reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    workflow.assessment_approve(assessment=use.assessment, by=supervisor)
    assert Assessment.objects.get(pk=use.assessment_id).status == Status.APPROVED


# Refusals, per role and per state --------------------------------------------------------------------


def test_another_reviewer_is_refused(reviewer, other_reviewer):
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    refused(lambda: recompute(use, other_reviewer), PermissionDenied, engine_refresh.RECOMPUTE_NOT_ENGINEER, use)


def test_a_supervisor_may_not_recompute_a_reviewers_draft(reviewer, supervisor):
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    refused(lambda: recompute(use, supervisor), PermissionDenied, engine_refresh.RECOMPUTE_NOT_ENGINEER, use)


def test_a_supervisor_recomputes_their_own_draft(supervisor):
    use = stored_by(computed_use(supervisor), EARLIER)
    assert recompute(use, supervisor).result["engine_version"] == ENGINE_VERSION


def test_a_submitted_revision_is_withdrawn_or_returned_first(reviewer, supervisor):
    """Nothing in a submitted revision changes: its engineer is told to withdraw it, a
    supervisor to return it. Withdrawn, it is a draft its engineer recomputes."""
    use = computed_use(reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    use = stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0)
    refused(lambda: recompute(use, reviewer), PermissionDenied, engine_refresh.RECOMPUTE_SUBMITTED_WITHDRAW, use)
    refused(lambda: recompute(use, supervisor), PermissionDenied, engine_refresh.RECOMPUTE_SUBMITTED_RETURN, use)
    # The supervisor's approval is refused while the stored figures are not the engine's: they return it.
    with pytest.raises(ValidationError):
        workflow.assessment_approve(assessment=use.assessment, by=supervisor)
    workflow.assessment_return(assessment=use.assessment, by=supervisor, comment="Recompute with engine 1.2.0.")
    use.refresh_from_db()
    assert recompute(use, reviewer).result["engine_version"] == ENGINE_VERSION


def test_a_withdrawn_revision_is_recomputed_by_its_engineer(reviewer):
    use = computed_use(reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    use = stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0)
    workflow.assessment_withdraw(assessment=use.assessment, by=reviewer)
    use.refresh_from_db()
    assert recompute(use, reviewer).result["engine_version"] == ENGINE_VERSION


def test_an_approved_revision_is_never_recomputed(reviewer, supervisor):
    use = stored_by(computed_use(reviewer), EARLIER)  # the label alone: the workflow's checks pass
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    workflow.assessment_approve(assessment=use.assessment, by=supervisor)
    use.refresh_from_db()
    for user in (reviewer, supervisor):
        refused(lambda user=user: recompute(use, user), PermissionDenied, engine_refresh.RECOMPUTE_APPROVED, use)
    with pytest.raises(PermissionDenied):
        engine_refresh.recompute_preview(scenario=use, user=reviewer)
    assert Scenario.objects.get(pk=use.pk).result["engine_version"] == EARLIER


def test_a_user_not_cleared_for_a_cbi_case_gets_404(reviewer, uncleared_reviewer):
    case = make_submission(cbi_claims=["submitter"], molecular_weight=200.0, use_concentration=0.15)
    use = stored_by(computed_use(reviewer, case=case), EARLIER)
    refused(lambda: recompute(use, uncleared_reviewer), Http404, None, use)


def test_an_engineer_no_longer_cleared_for_the_case_gets_404(uncleared_reviewer):
    """The engineer of a case claimed CBI since: as their pages, the service does not know it."""
    use = stored_by(computed_use(uncleared_reviewer), EARLIER)
    use.assessment.submission.cbi_claims = ["submitter"]
    use.assessment.submission.save()
    refused(lambda: recompute(use, uncleared_reviewer), Http404, None, use)


def test_inputs_changed_since_the_preview_are_refused(reviewer):
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    shown = engine_marks.use_fingerprint(use)
    services.scenario_save_step(scenario=use, by=reviewer, step="production",
                                values={"Qchem_yr": "5000", "Fchem": "0.3"}, reasons={"Fchem": "Amended MSDS"})
    use = Scenario.objects.get(pk=use.pk)
    refused(lambda: services.scenario_recompute(scenario=use, by=reviewer, seen=shown), ValidationError,
            engine_refresh.RECOMPUTE_CHANGED.format(title=use.title), use)


def test_a_stored_result_changed_since_the_preview_is_refused(reviewer):
    use = stored_by(computed_use(reviewer), EARLIER, release_kg_yr=60.0)
    shown = engine_marks.use_fingerprint(use)
    use = stored_by(use, EARLIER, release_kg_yr=70.0)
    refused(lambda: services.scenario_recompute(scenario=use, by=reviewer, seen=shown), ValidationError,
            engine_refresh.RECOMPUTE_CHANGED.format(title=use.title), use)
    refused(lambda: services.scenario_recompute(scenario=use, by=reviewer, seen=""), ValidationError,
            engine_refresh.RECOMPUTE_CHANGED.format(title=use.title), use)


def test_a_use_of_the_installed_engine_has_nothing_to_recompute(reviewer):
    use = computed_use(reviewer)
    refused(lambda: recompute(use, reviewer), ValidationError,
            engine_refresh.RECOMPUTE_NOT_OLDER.format(title=use.title, installed=ENGINE_VERSION), use)


def test_inputs_the_installed_engine_refuses_are_refused_with_its_words(reviewer):
    use = stored_by(computed_use(reviewer), EARLIER)
    Scenario.objects.filter(pk=use.pk).update(computed_inputs={"Qchem_yr": -5})
    use.refresh_from_db()
    with pytest.raises(ValidationError) as caught:
        recompute(use, reviewer)
    assert caught.value.messages[0].startswith(f"The installed engine refuses the inputs “{use.title}” was computed from: ")
    preview = engine_refresh.recompute_preview(scenario=use, user=reviewer)
    assert preview.refused and not preview.can_accept
    assert Scenario.objects.get(pk=use.pk).result["engine_version"] == EARLIER
