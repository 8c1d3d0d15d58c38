"""Amendments that reach the uses (issue 26).

An input taken from the case and not replaced by the reviewer is linked to the case
(``case_links.is_linked``: its value is what the case gives it, its reason empty or the
case's own). When the case is amended (``services.submission_update``), the linked inputs
of the uses of the case's draft or returned revision take the new value in the same
transaction, recorded in their history, and the use is not current until computed again;
an input the reviewer replaced keeps the reviewer's value, and its reason is flagged where
it quotes the case's old value. Approved work is never touched; a new revision's copied
linked inputs take the case's values as they are now.

The case: production volume 2,400 kg/yr, amended to 3,000 kg/yr (the issue's numbers).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from assessments import case_links, presentation, services, timeline, transfer, workflow
from assessments.models import Assessment, Scenario, Status, Submission
from tests._review_support import TOY_KEY, other_reviewer, toy_engine
from tests.conftest import admin_case_post, make_assessment, make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

AMENDMENT = "Amended PMN of 2026-03-02: production volume 3,000 kg/yr."
OVERRIDE_REASON = "Only 2,000 of the 2,400 kg/yr go to coating (submitter's letter)."
CASE_WORDS = "Computed with a production volume of 2,400 kg/yr; the case now says 3,000 kg/yr: compute again"
FLAG = "This reason quotes 2,400 kg/yr; the case's production volume is now 3,000 kg/yr"


def linked_use(assessment: Assessment, title: str = "Coating") -> Scenario:
    """A use whose volume comes from the case (added, then computed, as the engineer would)."""
    scenario = services.scenario_add(assessment=assessment, by=assessment.engineer, scenario_key=TOY_KEY, title=title)
    assert scenario.inputs == {"Qchem_yr": 2400.0}  # taken from the case
    return services.scenario_compute(scenario=scenario, by=assessment.engineer)


def overridden_use(assessment: Assessment, title: str = "Cleaning") -> Scenario:
    """A use whose volume the reviewer replaced, with a reason that quotes the case's 2,400."""
    scenario = services.scenario_add(assessment=assessment, by=assessment.engineer, scenario_key=TOY_KEY, title=title)
    services.scenario_save_step(scenario=scenario, by=assessment.engineer, step="volume",
                                values={"Qchem_yr": "2,000", "Fchem": "0.1"}, reasons={"Qchem_yr": OVERRIDE_REASON})
    return services.scenario_compute(scenario=scenario, by=assessment.engineer)


def amend(case: Submission, by, **data) -> Submission:
    """The case amended through the service (the production volume to 3,000 kg/yr unless
    ``data`` says otherwise); the case as saved."""
    reason = AMENDMENT if case.assessments.filter(status=Status.APPROVED).exists() else ""
    return services.submission_update(submission=case, by=by, data=data or {"production_volume_kg_yr": 3000.0},
                                      cbi_claims=list(case.cbi_claims), reason=reason)


@pytest.fixture
def draft(reviewer) -> Assessment:
    """Revision 1, a draft, with a linked use and an overridden one, both computed."""
    assessment = make_assessment(make_submission(production_volume_kg_yr=2400.0), reviewer)
    linked_use(assessment)
    overridden_use(assessment)
    return assessment


@pytest.fixture
def second(reviewer, supervisor) -> Assessment:
    """Revision 1 (the two uses) approved at 2,400 kg/yr; revision 2 started from it."""
    first = make_assessment(make_submission(production_volume_kg_yr=2400.0), reviewer)
    linked_use(first)
    overridden_use(first)
    workflow.assessment_submit(assessment=first, by=reviewer)
    workflow.assessment_approve(assessment=first, by=supervisor)
    return workflow.assessment_revise(assessment=first, by=reviewer)


def uses(assessment: Assessment) -> dict[str, Scenario]:
    return {s.title: s for s in Scenario.objects.filter(assessment=assessment)}


# The linked input follows ----------------------------------------------------------------------


def test_a_linked_input_of_a_draft_takes_the_amended_value_and_the_use_is_not_current(draft, reviewer):
    case = amend(draft.submission, reviewer)
    coating = uses(draft)["Coating"]
    assert coating.inputs == {"Qchem_yr": 3000.0}
    assert coating.computed_inputs == {"Qchem_yr": 2400.0}
    assert presentation.scenario_state(coating) == presentation.STALE
    assert [c.text for c in case_links.case_changes(coating, case)] == [CASE_WORDS]


def test_the_move_is_in_the_uses_history_with_who_and_why(draft, other_reviewer):
    amend(draft.submission, other_reviewer)  # any reviewer may amend the case, not only the engineer
    coating = uses(draft)["Coating"]
    record = coating.history.order_by("-history_date", "-history_id").first()
    assert (record.history_user, record.history_change_reason, record.inputs) == (
        other_reviewer, "Follows the amended case: production volume.", {"Qchem_yr": 3000.0})
    entries = [e for e in timeline.assessment_history(assessment=draft) if e.subject == "Use “Coating”"]
    last = entries[-1]
    assert (last.user, last.note) == (other_reviewer.get_username(), "Follows the amended case: production volume.")
    assert [(c.field, c.old, c.new) for c in last.changes] == [("Annual volume (Qchem_yr)", "2,400 kg/yr",
                                                                 "3,000 kg/yr")]


def test_computing_again_makes_the_use_current(draft, reviewer):
    case = amend(draft.submission, reviewer)
    coating = services.scenario_compute(scenario=uses(draft)["Coating"], by=reviewer)
    assert presentation.scenario_state(coating) == presentation.CURRENT
    assert case_links.case_changes(coating, case) == []


def test_a_case_reason_stays_the_case_reason_and_the_concentration_follows_too(reviewer):
    """Fchem needs a reason when it differs from its default: taken from the case, the
    reason is the case's own, and the input stays linked."""
    assessment = make_assessment(make_submission(production_volume_kg_yr=2400.0, use_concentration=0.15), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=TOY_KEY, title="Coating")
    assert scenario.reasons == {"Fchem": "Submission: concentration in the use formulation."}
    services.scenario_compute(scenario=scenario, by=reviewer)
    case = amend(assessment.submission, reviewer, use_concentration=0.2)
    scenario.refresh_from_db()
    assert scenario.inputs == {"Qchem_yr": 2400.0, "Fchem": 0.2}
    assert scenario.reasons == {"Fchem": "Submission: concentration in the use formulation."}
    assert [c.text for c in case_links.case_changes(scenario, case)] == [
        "Computed with a concentration in the use formulation of 0.15 kg/kg; the case now says 0.2 kg/kg: "
        "compute again"]


# The overridden input stays, its reason flagged -------------------------------------------------


def test_an_overridden_input_keeps_the_reviewers_value_and_its_reason_is_flagged(draft, reviewer):
    amend(draft.submission, reviewer)
    cleaning = uses(draft)["Cleaning"]
    assert (cleaning.inputs["Qchem_yr"], cleaning.reasons["Qchem_yr"]) == (2000.0, OVERRIDE_REASON)
    assert presentation.scenario_state(cleaning) == presentation.CURRENT  # the reviewer's inputs did not move
    flags = case_links.scenario_reason_flags(scenario=cleaning)
    assert {symbol: flag.text for symbol, flag in flags.items()} == {"Qchem_yr": FLAG}


def test_a_reason_that_gives_the_current_value_too_is_not_flagged(draft, reviewer):
    amend(draft.submission, reviewer)
    cleaning = uses(draft)["Cleaning"]
    services.scenario_save_step(scenario=cleaning, by=reviewer, step="volume",
                                values={"Qchem_yr": "2000", "Fchem": "0.1"},
                                reasons={"Qchem_yr": "2,000 of the case's 3,000 kg/yr (was 2,400)."})
    cleaning.refresh_from_db()
    assert case_links.scenario_reason_flags(scenario=cleaning) == {}


def test_before_the_amendment_nothing_is_flagged(draft):
    assert case_links.scenario_reason_flags(scenario=uses(draft)["Cleaning"]) == {}


def test_a_reason_typed_after_the_amendment_quoting_the_old_value_is_flagged(draft, reviewer):
    amend(draft.submission, reviewer)
    coating = uses(draft)["Coating"]
    services.scenario_save_step(scenario=coating, by=reviewer, step="volume", values={"Qchem_yr": "2400"},
                                reasons={"Qchem_yr": "PMN page 2: 2400 kg/yr."})
    coating.refresh_from_db()
    flags = case_links.scenario_reason_flags(scenario=coating)
    assert flags["Qchem_yr"].text == FLAG  # "2400" is 2,400, as the number formatter reads it


# Approved work is untouched; a new revision takes the case as it is now ------------------------


def test_revision_2s_uses_follow_and_approved_revision_1_is_untouched(second, reviewer):
    first = second.submission.assessments.get(revision=1)
    before = {s.pk: (s.inputs, s.reasons, s.computed_inputs, s.history.count()) for s in first.scenarios.all()}
    amend(second.submission, reviewer)
    assert {s.pk: (s.inputs, s.reasons, s.computed_inputs, s.history.count()) for s in first.scenarios.all()} == before
    assert all(presentation.scenario_state(s) == presentation.CURRENT for s in first.scenarios.all())
    assert case_links.scenario_reason_flags(scenario=uses(first)["Cleaning"]) == {}  # as approved: 2,400
    coating, cleaning = uses(second)["Coating"], uses(second)["Cleaning"]
    assert (coating.inputs, presentation.scenario_state(coating)) == ({"Qchem_yr": 3000.0}, presentation.STALE)
    assert cleaning.inputs["Qchem_yr"] == 2000.0
    assert case_links.scenario_reason_flags(scenario=cleaning)["Qchem_yr"].text == FLAG


def test_a_submitted_revision_is_not_reached_because_the_case_cannot_be_amended(second, reviewer):
    services.scenario_compute(scenario=uses(second)["Coating"], by=reviewer)
    workflow.assessment_submit(assessment=second, by=reviewer)
    with pytest.raises(PermissionDenied) as refused:
        amend(second.submission, reviewer)
    assert str(refused.value) == services.EDIT_CASE_NOT_ALLOWED
    assert uses(second)["Coating"].inputs == {"Qchem_yr": 2400.0}


def test_a_new_revision_takes_the_cases_current_values(reviewer, supervisor):
    """Revision 1 approved at 2,400 kg/yr; the case as it is now says 3,000 (a case moved in
    from another installation, where it was amended after the approval)."""
    first = make_assessment(make_submission(production_volume_kg_yr=2400.0), reviewer)
    linked_use(first)
    overridden_use(first)
    workflow.assessment_submit(assessment=first, by=reviewer)
    workflow.assessment_approve(assessment=first, by=supervisor)
    document = transfer.case_export(case_number=first.submission.case_number)
    document["case"]["case_number"] = "P-26-9026"
    document["case"]["production_volume_kg_yr"] = 3000.0
    document["case"]["updated_at"] = document["exported_at"]  # the amendment saved the case after the approval
    case = transfer.case_import(document=document)
    imported = case.assessments.get(revision=1)
    assert (imported.case_snapshot["production_volume_kg_yr"], case.production_volume_kg_yr) == (2400.0, 3000.0)

    second = workflow.assessment_revise(assessment=imported, by=reviewer)
    coating, cleaning = uses(second)["Coating"], uses(second)["Cleaning"]
    assert (coating.inputs, coating.computed_inputs) == ({"Qchem_yr": 3000.0}, {"Qchem_yr": 2400.0})
    assert presentation.scenario_state(coating) == presentation.STALE
    assert [c.text for c in case_links.case_changes(coating, case)] == [CASE_WORDS]
    record = coating.history.order_by("-history_date", "-history_id").first()
    assert record.history_change_reason == "Takes the case as it is now: production volume."
    assert cleaning.inputs["Qchem_yr"] == 2000.0
    assert case_links.scenario_reason_flags(scenario=cleaning)["Qchem_yr"].text == FLAG
    assert uses(imported)["Coating"].inputs == {"Qchem_yr": 2400.0}  # the approved source is as it was


def test_an_amendment_in_the_admin_reaches_the_uses_too(client, draft, reviewer):
    reviewer.is_staff = True
    reviewer.save()
    client.force_login(reviewer)
    url, data = admin_case_post(client, draft.submission, production_volume_kg_yr="3000")
    assert client.post(url, data).status_code == 302
    coating = uses(draft)["Coating"]
    assert (coating.inputs, presentation.scenario_state(coating)) == ({"Qchem_yr": 3000.0}, presentation.STALE)
    assert uses(draft)["Cleaning"].inputs["Qchem_yr"] == 2000.0


# Nothing half-saved ----------------------------------------------------------------------------


def test_a_refused_amendment_moves_no_input(second, reviewer):
    with pytest.raises(ValidationError):
        services.submission_update(submission=second.submission, by=reviewer,
                                   data={"production_volume_kg_yr": 3000.0}, cbi_claims=[], reason="")
    assert uses(second)["Coating"].inputs == {"Qchem_yr": 2400.0}
    assert Submission.objects.get(pk=second.submission_id).production_volume_kg_yr == 2400.0


def test_a_failure_while_the_uses_follow_saves_neither_the_case_nor_any_use(draft, reviewer, monkeypatch):
    follow = services.scenario_follow_case
    calls = []

    def fail_on_the_second(scenario, **kwargs):
        calls.append(scenario.pk)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return follow(scenario, **kwargs)

    monkeypatch.setattr(services, "scenario_follow_case", fail_on_the_second)
    with pytest.raises(RuntimeError):
        amend(draft.submission, reviewer)
    assert len(calls) == 2
    assert Submission.objects.get(pk=draft.submission_id).production_volume_kg_yr == 2400.0
    assert {s.inputs["Qchem_yr"] for s in Scenario.objects.filter(assessment=draft)} == {2400.0, 2000.0}
