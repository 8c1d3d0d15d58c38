"""History: one entry per change (a review decision and the status change it made are one
entry), numbers as the pages print them, old and new values told apart without an
underline. Compare: the differences only, unless every input is asked for."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from assessments import comparison, services, timeline, workflow
from assessments.esd.results import ENGINE_VERSION
from assessments.models import Scenario
from tests._review_support import add_computed_scenario, approved, toy_engine
from tests.conftest import make_assessment, make_submission

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]


@pytest.fixture
def cycled(reviewer, supervisor):
    """Submitted, returned, submitted again and approved: four decisions."""
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000), reviewer)
    add_computed_scenario(assessment, title="Spin coating")
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="First pass.")
    workflow.assessment_return(assessment=assessment, by=supervisor, comment="Check Fchem.")
    workflow.assessment_submit(assessment=assessment, by=reviewer, note="Checked.")
    return workflow.assessment_approve(assessment=assessment, by=supervisor, comment="Approved.")


def _status_entries(entries):
    return [(e.kind, e.user, c.old, c.new) for e in entries for c in e.changes if c.field == "Status"]


def test_each_status_change_is_one_entry_the_decisions(cycled):
    entries = timeline.assessment_history(assessment=cycled)
    assert _status_entries(entries) == [
        ("created", "", "", "Draft"),
        ("submit", "rev", "Draft", "Submitted"),
        ("return", "sup", "Submitted", "Returned"),
        ("submit", "rev", "Returned", "Submitted"),
        ("approve", "sup", "Submitted", "Approved"),
    ]
    # The approval's own fields (who, when) are the decision entry's user and time, not rows of
    # it; the report sealed with it is (its SHA-256).
    approval = next(e for e in entries if e.kind == "approve")
    assert [c.field for c in approval.changes] == ["Status", "Sealed IRER (full copy)"]
    assert approval.note == "Approved."


def test_the_history_page_lists_each_status_change_once(client, reviewer, cycled):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{cycled.pk}/history/").content.decode()
    assert html.count('<span class="history-new">Approved</span>') == 1
    assert html.count('<span class="history-new">Returned</span>') == 1
    assert html.count('<span class="history-new">Submitted</span>') == 2


def test_another_field_saved_with_a_decision_stays_in_its_entry():
    # The submit saves the status and, where the uses need more than the case makes, the
    # engineer's reason: one entry, the decision's, holding both.
    at = timezone.now()
    decision = timeline.HistoryEntry(at=at, user="rev", subject="Assessment revision 1", kind="submit",
                                    changes=[timeline.FieldChange("Status", "Draft", "Submitted")], note="Ready.")
    saved = timeline.HistoryEntry(at=at - timedelta(milliseconds=3), user="rev", subject="Assessment revision 1",
                                 kind="changed", changes=[
                                     timeline.FieldChange("Status", "Draft", "Submitted", "status"),
                                     timeline.FieldChange("Reason for the volume", "", "Imports the rest.", "volume_excess_reason"),
                                 ], note="Submitted by rev.")
    other = timeline.HistoryEntry(at=at, user="rev", subject="Use “A”", kind="changed",
                                 changes=[timeline.FieldChange("Title", "A", "B", "title")])
    left = timeline._merged_into(decision, [saved, other])
    assert left == [other]
    assert [(c.field, c.new) for c in decision.changes] == [("Status", "Submitted"), ("Reason for the volume", "Imports the rest.")]


def test_a_status_change_without_its_decision_stays_listed():
    at = timezone.now()
    decision = timeline.HistoryEntry(at=at, user="sup", subject="Assessment revision 1", kind="approve",
                                    changes=[timeline.FieldChange("Status", "Submitted", "Approved")])
    earlier = timeline.HistoryEntry(at=at - timedelta(minutes=5), user="sup", subject="Assessment revision 1", kind="changed",
                                   changes=[timeline.FieldChange("Status", "Submitted", "Approved", "status")])
    assert timeline._merged_into(decision, [earlier]) == [earlier]


def test_history_values_are_numbers_as_the_pages_print_them(reviewer):
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000), reviewer)
    scenario = add_computed_scenario(assessment, volume=5000.0)
    services.scenario_save_step(scenario=scenario, by=reviewer, step="volume", values={"Qchem_yr": 8000.123, "Fchem": 0.2},
                                reasons={"Fchem": "Submitter's MSDS: 20 %."})
    services.scenario_compute(scenario=Scenario.objects.get(pk=scenario.pk), by=reviewer)
    changes = {c.field: (c.old, c.new) for e in timeline.assessment_history(assessment=assessment) if e.kind == "changed"
               for c in e.changes}
    # An input as entered with its units; the result to three figures: 8,000.123 × 0.2 = 1,600.0246 kg/yr.
    assert changes["Annual volume (Qchem_yr)"] == ("5,000 kg/yr", "8,000.123 kg/yr")
    assert changes["Result"] == (f"computed with engine {ENGINE_VERSION}: Air 1,000 kg/yr", f"computed with engine {ENGINE_VERSION}: Air 1,600 kg/yr")
    assert "Computed inputs" not in changes  # the result's change says it was computed


def test_history_values_are_not_underlined_and_read_as_was_and_now(client, reviewer, cycled):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{cycled.pk}/history/").content.decode()
    assert not re.search(r"<(ins|u|del)\b", html)
    assert ('<span class="visually-hidden">was </span><span class="history-old">Submitted</span>'
            '<span class="history-arrow" aria-hidden="true">→</span></td>'
            '<td><span class="visually-hidden">now </span><span class="history-new">Approved</span>') in html
    css = Path("static/css/app.css").read_text(encoding="utf-8")
    new_rule = re.search(r"\.history-new \{([^}]*)\}", css).group(1)
    assert "underline" not in new_rule and "text-decoration: none" in new_rule


# Compare ----------------------------------------------------------------------------------------


@pytest.fixture
def two_revisions(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    second = workflow.assessment_revise(assessment=first, by=reviewer)
    scenario = second.scenarios.get()
    services.scenario_save_step(scenario=scenario, by=reviewer, step="volume", values={"Qchem_yr": 8000.123, "Fchem": 0.2},
                                reasons={"Fchem": "Submitter's MSDS: 20 %."})
    services.scenario_compute(scenario=Scenario.objects.get(pk=scenario.pk), by=reviewer)
    return first, second


def _rows(html: str) -> list[str]:
    return [label.strip() for label in re.findall(r'<th scope="row" class="fw-normal">([^<]*)', html)]


def test_compare_lists_the_differences_only_and_says_how_many_are_the_same(client, reviewer, two_revisions):
    first, second = two_revisions
    client.force_login(reviewer)
    response = client.get(f"/assessments/{second.pk}/compare/")
    html = response.content.decode()
    rows = _rows(html)
    # 5,000 × 0.2 = 1,000 kg/yr; 8,000.123 × 0.2 = 1,600.0246 kg/yr (hand calculation).
    assert "Annual volume (Qchem_yr)" in rows and "Total to air, all sites" in rows
    assert "Operating days (TIME_days)" not in rows and "Mass fraction in the formulation (Fchem)" not in rows
    unchanged = response.context["unchanged_count"]
    assert unchanged > 0 and f"{unchanged} unchanged items not listed" in html
    assert f'href="?with={first.pk}&amp;all=1" id="compare-toggle">Show all inputs and results</a>' in html
    assert "<td>8,000.123 kg/yr</td>" in html and "<td>1,600 kg/yr</td>" in html


def test_compare_with_all_lists_every_input(client, reviewer, two_revisions):
    first, second = two_revisions
    client.force_login(reviewer)
    html = client.get(f"/assessments/{second.pk}/compare/?with={first.pk}&all=1").content.decode()
    rows = _rows(html)
    assert {"Annual volume (Qchem_yr)", "Operating days (TIME_days)", "Mass fraction in the formulation (Fchem)"} <= set(rows)
    assert '<input type="hidden" name="all" value="1">' in html  # choosing another revision keeps every row
    assert f'href="?with={first.pk}" id="compare-toggle">Show the differences only</a>' in html
    assert '<tr class="table-warning">' in html  # the differences highlighted among the rest


def test_compare_prints_computed_numbers_to_three_figures(client, reviewer, two_revisions):
    _, second = two_revisions
    client.force_login(reviewer)
    html = client.get(f"/assessments/{second.pk}/compare/?all=1").content.decode()
    cells = re.findall(r"<td>([^<]*)</td>", html)
    assert "1,600 kg/yr" in cells and "1,600.0246" not in html
    assert "250 days/yr (default)" in cells  # an input's default with its units


def test_compare_of_an_uncomputed_use_says_not_computed_yet(reviewer, two_revisions):
    _, second = two_revisions
    scenario = services.scenario_add(assessment=second, by=reviewer, scenario_key="review-toy", title="Later")
    compared = comparison.revision_comparison(user=reviewer, pk=second.pk)
    (section,) = [s for s in compared["sections"] if s.title == "Use: Later"]
    assert ("Result", "", comparison.NOT_COMPUTED_YET) in [(r.label, r.left, r.right) for r in section.rows]
    assert not [r for r in section.rows if r.label == "Engine version"]
    assert scenario.result is None


def test_an_input_returned_to_its_default_reads_as_the_default(reviewer):
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000), reviewer)
    scenario = add_computed_scenario(assessment)  # Fchem 0.2, a reason given
    services.scenario_save_step(scenario=Scenario.objects.get(pk=scenario.pk), by=reviewer, step="volume",
                                values={"Qchem_yr": 5000.0}, reasons={})
    changes = [(c.old, c.new) for e in timeline.assessment_history(assessment=assessment) if e.kind == "changed"
               for c in e.changes if c.field == "Mass fraction in the formulation (Fchem)"]
    # The toy scenario's default is 0.1 kg/kg: the input left empty reads as it, never as "empty".
    assert changes[-1] == ("0.2 kg/kg", "0.1 kg/kg (default)")


def test_the_values_a_record_was_created_with_are_folded(client, reviewer, cycled):
    """A created record's values (the whole case, every input) are one closed summary each;
    changes show open."""
    client.force_login(reviewer)
    html = client.get(f"/assessments/{cycled.pk}/history/").content.decode()
    created = re.findall(r'<details class="history-created"><summary class="small">The (\d+) values? it was created with',
                         html)
    assert len(created) >= 3 and all(int(n) > 0 for n in created)  # the case, the revision, the use
    assert "<details open" not in html
    changed = html.split('<details class="history-created">')[-1].split("</details>", 1)[1]
    assert '<span class="history-new">Approved</span>' in changed
