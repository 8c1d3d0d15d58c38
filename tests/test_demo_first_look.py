"""A newcomer's first look shows the product: after ``load_demo`` every demo use holds the
engine's result, and the sample case P-18-0123 has an approved revision 1 and a draft
revision 2 with one change, so results, a report, a history and a comparison are there at
once. All of it made through the services, as the demo users would, in one transaction.
(What ``load_demo`` refuses, to protect real data: ``tests/test_load_demo_safety.py``.)
"""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command

from assessments import comparison, services, timeline
from assessments.engine_results import engine_result_difference
from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError
from assessments.models import Assessment, ReviewDecision, Scenario, Status, Submission
from demo.management.commands import load_demo
from notices.models import Notice, Verb

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REVIEW = json.loads((FIXTURES / "demo_review.json").read_text(encoding="utf-8"))
CHANGE = REVIEW["revision_2"]
SAMPLE, CVD = "P-18-0123", "P-26-0042"
CASE_MODELS = (Submission, Assessment, Scenario, ReviewDecision)


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # load_demo runs only on a development machine
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue().strip()


def user(name: str):
    return get_user_model().objects.get(username=name)


def revision(case_number: str, number: int) -> Assessment:
    return Assessment.objects.get(submission__case_number=case_number, revision=number)


def text_of(response) -> str:
    """The page's text: tags dropped, entities decoded, blanks collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def snapshot(case_number: str) -> dict:
    """Every row of one case and every historical record of them."""
    case = Submission.objects.get(case_number=case_number)
    assessments = Assessment.objects.filter(submission=case)
    return {
        "rows": [
            list(Submission.objects.filter(pk=case.pk).values()),
            list(assessments.order_by("pk").values()),
            list(Scenario.objects.filter(assessment__in=assessments).order_by("pk").values()),
            list(ReviewDecision.objects.filter(assessment__in=assessments).order_by("pk").values()),
        ],
        "history": [
            list(Submission.history.filter(id=case.pk).values_list("history_id", flat=True)),
            list(Assessment.history.filter(submission_id=case.pk).values_list("history_id", flat=True)),
            list(Scenario.history.filter(assessment_id__in=assessments).values_list("history_id", flat=True)),
            list(ReviewDecision.history.filter(assessment_id__in=assessments).values_list("history_id", flat=True)),
        ],
    }


# Results ------------------------------------------------------------------------------------------


def test_every_demo_use_holds_the_engines_result(demo):
    uses = list(Scenario.objects.select_related("assessment"))
    assert len(uses) == 3  # the sample's use in revisions 1 and 2, the CVD case's use
    for use in uses:
        assert use.result is not None and use.computed_at is not None, use
        assert use.computed_inputs == use.inputs, use  # computed from the inputs shown: not stale
        assert engine_result_difference(
            scenario_key=use.scenario_key, computed_inputs=use.computed_inputs, stored=use.result
        ) == "", use
        assert use.result["trace"] and use.result["releases"], use


def test_the_demo_cases_fixture_holds_no_result():
    """Each result is the engine's, computed by load_demo: none is typed in the fixture."""
    records = json.loads((FIXTURES / "demo_cases.json").read_text(encoding="utf-8"))
    uses = [record["fields"] for record in records if record["model"] == "assessments.scenario"]
    assert uses and all(not use.get("result") and not use.get("computed_inputs") for use in uses)


def test_the_report_of_every_demo_revision_shows_computed_uses(demo, client):
    client.force_login(user("reviewer"))
    for assessment in Assessment.objects.all():
        page = text_of(client.get(f"/assessments/{assessment.pk}/irer/"))
        assert "not been computed" not in page, assessment
        assert "ENVIRONMENTAL RELEASES ESTIMATE SUMMARY" in page, assessment


# The review of the sample case --------------------------------------------------------------------


def test_the_sample_case_has_revision_1_approved_and_revision_2_a_draft(demo):
    first, second = revision(SAMPLE, 1), revision(SAMPLE, 2)
    assert (first.status, first.approved_by, first.engineer) == (Status.APPROVED, user("supervisor"), user("reviewer"))
    assert first.case_snapshot["case_number"] == SAMPLE  # the case as approved, kept for its report
    decisions = [(d.action, d.by.username, d.comment) for d in first.decisions.order_by("at", "id")]
    assert decisions == [
        ("submit", "reviewer", REVIEW["submit"]["note"]),
        ("approve", "supervisor", REVIEW["approve"]["comment"]),
    ]
    assert (second.status, second.engineer, second.decisions.count()) == (Status.DRAFT, user("reviewer"), 0)
    case = Submission.objects.get(case_number=SAMPLE)
    assert (case.latest_status, case.latest_revision) == (Status.DRAFT, 2)


def test_the_cbi_case_stays_a_draft(demo):
    (only,) = Assessment.objects.filter(submission__case_number=CVD)
    assert (only.revision, only.status, only.decisions.count()) == (1, Status.DRAFT, 0)


def test_revision_2_changes_one_input_with_its_reason_and_is_computed_again(demo):
    before = revision(SAMPLE, 1).scenarios.get(position=CHANGE["use"])
    after = revision(SAMPLE, 2).scenarios.get(position=CHANGE["use"])
    assert after.inputs == before.inputs | CHANGE["inputs"]
    assert after.reasons == before.reasons | CHANGE["reasons"]
    assert after.release_texts["5"]["basis"] == CHANGE["release_texts"]["5"]["basis"]
    assert {k: v for k, v in after.release_texts.items() if k != "5"} == {
        k: v for k, v in before.release_texts.items() if k != "5"}
    # By hand: Releases 4 and 5 each carry LF = (1-0.01) x 0.07 x 0.5 = 0.03465 of the
    # 5,000 kg/yr (the sample IRER's basis), 173.25 kg/yr. Revision 1 sends both to water;
    # with an organic-solvent strip, EPA's 2018 update (§4.7) sends 25 % of Release 5 to
    # water and 75 % to incineration.
    release = 5000 * 0.99 * 0.07 * 0.5
    assert before.result["totals_by_medium"]["water"] == pytest.approx(2 * release)
    assert after.result["totals_by_medium"]["water"] == pytest.approx(release + 0.25 * release)
    assert after.result["totals_by_medium"]["incineration"] == pytest.approx(
        before.result["totals_by_medium"]["incineration"] + 0.75 * release)


def test_the_history_lists_the_submission_the_approval_the_revision_and_the_change(demo, client):
    client.force_login(user("reviewer"))
    first = text_of(client.get(f"/assessments/{revision(SAMPLE, 1).pk}/history/"))
    assert REVIEW["submit"]["note"] in first and REVIEW["approve"]["comment"] in first
    second = text_of(client.get(f"/assessments/{revision(SAMPLE, 2).pk}/history/"))
    assert "New revision copied from approved revision 1." in second
    assert CHANGE["reasons"]["stripping_process"] in second
    entries = timeline.assessment_history(assessment=revision(SAMPLE, 1))
    acted = {(entry.kind, entry.user) for entry in entries if entry.is_decision}
    assert acted == {("submit", "reviewer"), ("approve", "supervisor")}


def test_every_history_record_names_the_demo_user_who_acted(demo):
    """As a signed-in user's requests record them: the reviewer computes, submits and
    revises, the supervisor approves."""
    for model in CASE_MODELS:
        assert not model.history.filter(history_user__isnull=True).exists(), model
    first = revision(SAMPLE, 1)
    approval = first.history.get(status=Status.APPROVED)
    assert approval.history_user == user("supervisor")
    computed = Scenario.history.filter(result__isnull=False).values_list("history_user__username", flat=True)
    assert set(computed) == {"reviewer"}


def test_compare_shows_revision_2s_change(demo, client):
    client.force_login(user("reviewer"))
    second = revision(SAMPLE, 2)
    compared = comparison.revision_comparison(user=user("reviewer"), pk=second.pk)
    assert (compared["left"].revision, compared["right"].revision) == (1, 2)
    differing = [row.label for section in compared["sections"] for row in section.rows if row.differs]
    assert any("stripping" in label.lower() for label in differing), differing
    assert any("water" in label.lower() for label in differing), differing
    page = text_of(client.get(f"/assessments/{second.pk}/compare/"))
    assert CHANGE["reasons"]["stripping_process"] in page


def test_the_review_notifies_in_the_application_and_sends_no_email(demo):
    assert mail.outbox == []
    assert Notice.objects.filter(recipient=user("supervisor"), verb=Verb.SUBMITTED).exists()
    assert Notice.objects.filter(recipient=user("reviewer"), verb=Verb.APPROVED).exists()


def test_load_demo_says_what_it_made(demo):
    assert demo == (
        "Demo data loaded: 4 user(s), 2 case(s), every use computed: "
        "P-18-0123 (revision 1 approved, revision 2 a draft), P-26-0042 (revision 1 a draft)."
    )


# Adding what is missing, refusing what is not the demo --------------------------------------------


def test_force_after_a_demo_case_was_deleted_adds_only_that_case(demo):
    kept = snapshot(SAMPLE)
    cvd = Submission.objects.get(case_number=CVD)
    Scenario.objects.filter(assessment__submission=cvd).delete()
    Assessment.objects.filter(submission=cvd).delete()
    cvd.delete()

    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)
    assert out.getvalue().strip() == (
        "Demo data loaded: 0 user(s), 1 case(s), every use computed: P-26-0042 (revision 1 a draft)."
    )
    (use,) = Scenario.objects.filter(assessment__submission__case_number=CVD)
    assert use.result is not None and use.computed_inputs == use.inputs
    assert snapshot(SAMPLE) == kept
    assert Submission.objects.get(case_number=CVD).pk != cvd.pk  # new rows; the deleted ones' history stays


def test_load_demo_refuses_after_a_reviewer_changed_a_demo_use(demo):
    use = revision(SAMPLE, 2).scenarios.get()
    services.scenario_save_step(  # the wizard's "Production volume and concentration" step
        scenario=use, by=user("reviewer"), step="production",
        values={"Qchem_yr": 5000, "Fchem": 0.2, "VPchem": None, "MWchem": None},
        reasons={"Fchem": "The submitter's new formulation: 20 %."},
    )
    kept = snapshot(SAMPLE)
    with pytest.raises(CommandError) as refused:
        call_command("load_demo", "--force", stdout=io.StringIO())
    assert refused.value.returncode == load_demo.EXIT_REFUSED
    assert f"use “{use.title}” of {SAMPLE} r2" in str(refused.value)
    assert snapshot(SAMPLE) == kept


def test_a_failing_step_loads_nothing(settings, monkeypatch):
    settings.DEBUG = True
    engine = registry.compute

    def compute(key, inputs):
        if key == "cvd-2015":
            raise EngineValidationError({"Qchem_yr": "refused for this test"})
        return engine(key, inputs)

    monkeypatch.setattr(registry, "compute", compute)
    with pytest.raises(CommandError) as failed:
        call_command("load_demo", stdout=io.StringIO())
    assert str(failed.value) == load_demo.DEMO_FAILED.format(
        step=f"computing “Precursor use in chemical vapour deposition” of {CVD} r1",
        problem="Qchem_yr: refused for this test",
    )
    assert not get_user_model().objects.exists()
    assert not Notice.objects.exists()
    for model in CASE_MODELS:
        assert not model.objects.exists() and not model.history.exists(), model
