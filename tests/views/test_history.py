"""The history page (every change: who, when, which field from what to what, the reasons
for overrides, every review decision) and the side-by-side comparison of two revisions,
with their CBI visibility."""

from __future__ import annotations

import pytest

from assessments import comparison, timeline, workflow
from assessments.esd.results import ENGINE_VERSION
from assessments.models import Scenario
from tests._review_support import (
    add_computed_scenario,
    approved,
    toy_engine,
)
from tests.conftest import make_assessment, make_submission
from tests.views.wizard_helpers import walk

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.fixture
def reviewed(client, reviewer, supervisor):
    """An assessment worked through the pages: a use added and computed with an
    override, submitted, returned, the override and its reason changed, recomputed,
    resubmitted and approved."""
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000), reviewer)
    client.force_login(reviewer)
    client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": "review-toy", "title": "Spin coating"})
    scenario = Scenario.objects.get(assessment=assessment)
    walk(client, scenario, {"volume": ({"Fchem": "0.2"}, {"Fchem": "MSDS: up to 20 %"})})
    client.post(f"/assessments/{assessment.pk}/submit/", {"note": "First pass."})
    client.force_login(supervisor)
    client.post(f"/assessments/{assessment.pk}/return/", {"comment": "Use the typical 15 %, not the maximum."})
    client.force_login(reviewer)
    walk(client, scenario, {"volume": ({"Fchem": "0.15"}, {"Fchem": "MSDS: typical 15 %"})})
    client.post(f"/assessments/{assessment.pk}/submit/", {"note": "Typical value used."})
    client.force_login(supervisor)
    client.post(f"/assessments/{assessment.pk}/approve/", {"comment": "Approved."})
    assessment.refresh_from_db()
    assert assessment.status == "approved"
    return assessment


def _changes(entries, subject_start: str, field: str):
    return [
        (entry.user, change.old, change.new)
        for entry in entries
        if entry.subject.startswith(subject_start)
        for change in entry.changes
        if change.field == field
    ]


def test_history_shows_who_changed_which_input_from_what_to_what(reviewed):
    entries = timeline.assessment_history(assessment=reviewed)
    changes = _changes(entries, "Use “Spin coating”", "Mass fraction in the formulation (Fchem)")
    assert ("rev", "0.2 kg/kg", "0.15 kg/kg") in changes
    assert ("rev", "0.1 kg/kg (default)", "0.2 kg/kg") in changes  # the toy's default, 0.1


def test_history_shows_the_reasons_given_for_overrides(reviewed):
    entries = timeline.assessment_history(assessment=reviewed)
    reasons = _changes(entries, "Use “Spin coating”", "Reason: Mass fraction in the formulation (Fchem)")
    assert ("rev", "MSDS: up to 20 %", "MSDS: typical 15 %") in reasons


def test_history_shows_the_result_recomputed(reviewed):
    entries = timeline.assessment_history(assessment=reviewed)
    results = _changes(entries, "Use “Spin coating”", "Result")
    # 5000 kg/yr × 0.2 = 1000 and × 0.15 = 750 kg/yr to air (hand calculation).
    assert ("rev", f"computed with engine {ENGINE_VERSION}: Air 1,000 kg/yr", f"computed with engine {ENGINE_VERSION}: Air 750 kg/yr") in results


def test_history_lists_every_decision_with_its_comment_in_order(reviewed):
    decisions = [(e.kind, e.user, e.note) for e in timeline.assessment_history(assessment=reviewed) if e.is_decision]
    assert decisions == [
        ("submit", "rev", "First pass."),
        ("return", "sup", "Use the typical 15 %, not the maximum."),
        ("submit", "rev", "Typical value used."),
        ("approve", "sup", "Approved."),
    ]


def test_history_shows_status_changes_with_their_user(reviewed):
    # Each status change once: the decision's entry, not also the assessment's saved change.
    status_changes = _changes(timeline.assessment_history(assessment=reviewed), "Assessment", "Status")
    assert status_changes == [
        ("", "", "Draft"),  # created by the test factory, outside a request: no user
        ("rev", "Draft", "Submitted"),
        ("sup", "Submitted", "Returned"),
        ("rev", "Returned", "Submitted"),
        ("sup", "Submitted", "Approved"),
    ]


def test_history_is_in_time_order(reviewed):
    times = [entry.at for entry in timeline.assessment_history(assessment=reviewed)]
    assert times == sorted(times)


def test_history_records_a_deleted_use(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    scenario = add_computed_scenario(assessment, title="Gone")
    client.force_login(reviewer)
    client.post(f"/scenarios/{scenario.pk}/delete/")
    entries = timeline.assessment_history(assessment=assessment)
    assert [(e.kind, e.subject, e.user) for e in entries if e.kind == "deleted"] == [("deleted", "Use “Gone”", "rev")]


def test_history_page_renders_the_entries(client, reviewed, reviewer):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{reviewed.pk}/history/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ('<th scope="row" class="fw-normal w-25">Mass fraction in the formulation (Fchem)</th>'
            '<td class="w-25"><span class="visually-hidden">was </span><span class="history-old">0.2 kg/kg</span>'
            '<span class="history-arrow" aria-hidden="true">→</span></td>'
            '<td><span class="visually-hidden">now </span><span class="history-new">0.15 kg/kg</span></td>') in html
    assert '<span class="history-old">MSDS: up to 20 %</span>' in html and '<span class="history-new">MSDS: typical 15 %</span>' in html
    assert "<del>" not in html and "<ins>" not in html
    assert "Comment: Use the typical 15 %, not the maximum." in html


# Comparison ------------------------------------------------------------------------------------


@pytest.fixture
def two_revisions(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    scenario = second.scenarios.get()
    from assessments import services

    services.scenario_save_step(
        scenario=scenario, by=reviewer, step="volume", values={"Qchem_yr": 8000, "Fchem": 0.2},
        reasons={"Fchem": "Submitter's MSDS: 20 %."},
    )
    services.scenario_compute(scenario=scenario, by=reviewer)
    return first, second


def test_comparison_highlights_the_inputs_and_results_that_differ(client, reviewer, two_revisions):
    first, second = two_revisions
    client.force_login(reviewer)
    response = client.get(f"/assessments/{second.pk}/compare/")
    assert response.status_code == 200
    assert (response.context["left"], response.context["right"]) == (first, second)
    use = next(section for section in response.context["sections"] if section.title.startswith("Use: "))
    differing = {row.label: (row.left, row.right) for row in use.rows if row.differs}
    # 5000 × 0.2 = 1000 kg/yr; 8000 × 0.2 = 1600 kg/yr (hand calculation).
    assert differing == {
        "Annual volume (Qchem_yr)": ("5,000 kg/yr", "8,000 kg/yr"),
        "Release 1 Everything, high end, all sites": ("1,000 kg/yr", "1,600 kg/yr"),
        "Total to air, all sites": ("1,000 kg/yr", "1,600 kg/yr"),
    }
    same = {row.label for row in use.rows if not row.differs}
    assert {"Mass fraction in the formulation (Fchem)", "Reason: Mass fraction in the formulation (Fchem)",
            "Operating days (TIME_days)"} <= same
    html = response.content.decode()
    assert '<th scope="row" class="fw-normal">Annual volume (Qchem_yr)</th>' in html
    assert '<label class="form-label" for="compare-with">' in html


def test_comparison_with_an_explicit_revision_puts_the_older_on_the_left(client, reviewer, two_revisions):
    first, second = two_revisions
    client.force_login(reviewer)
    response = client.get(f"/assessments/{first.pk}/compare/?with={second.pk}")
    assert (response.context["left"], response.context["right"]) == (first, second)
    assert response.context["difference_count"] >= 3


def test_comparison_of_a_single_revision_says_there_is_nothing_to_compare(client, reviewer, supervisor):
    only = approved(reviewer, supervisor)
    client.force_login(reviewer)
    response = client.get(f"/assessments/{only.pk}/compare/")
    assert response.status_code == 200 and response.context["right"] is None
    assert "This case has no other revision to compare with." in response.content.decode()


def test_comparison_with_another_cases_assessment_is_404(client, reviewer, supervisor):
    one = approved(reviewer, supervisor)
    other = approved(reviewer, supervisor)
    client.force_login(reviewer)
    assert client.get(f"/assessments/{one.pk}/compare/?with={other.pk}").status_code == 404


def test_comparison_shows_a_use_only_in_one_revision(client, reviewer, two_revisions):
    _first, second = two_revisions
    add_computed_scenario(second, title="Cleaning")
    compared = comparison.revision_comparison(user=reviewer, pk=second.pk)
    notes = [section.note for section in compared["sections"]]
    assert "Method: Toy release to air. Only in revision 2." in notes


# CBI ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["history/", "compare/"])
def test_history_and_comparison_of_a_cbi_case_are_404_for_an_uncleared_user(
    client, reviewer, supervisor, uncleared_reviewer, page
):
    assessment = approved(reviewer, supervisor, cbi_claims=["cas_number"])
    client.force_login(uncleared_reviewer)
    assert client.get(f"/assessments/{assessment.pk}/{page}").status_code == 404
    client.force_login(reviewer)
    assert client.get(f"/assessments/{assessment.pk}/{page}").status_code == 200


def test_comparison_cannot_reach_a_cbi_revision_through_the_with_parameter(client, reviewer, supervisor, uncleared_reviewer):
    public = approved(reviewer, supervisor)
    secret = approved(reviewer, supervisor, cbi_claims=["cas_number"])
    client.force_login(uncleared_reviewer)
    assert client.get(f"/assessments/{public.pk}/compare/?with={secret.pk}").status_code == 404
