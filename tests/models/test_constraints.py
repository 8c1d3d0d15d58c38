"""The rules that must always hold are enforced by the database itself: these tests
write through the ORM without ``full_clean`` and expect the database to refuse."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from assessments.models import Assessment, ReviewDecision, Scenario, Status, Submission
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


def refused(create) -> bool:
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


@pytest.mark.parametrize("pv", [0, -1.0])
def test_production_volume_must_be_positive(pv):
    assert refused(lambda: make_submission(production_volume_kg_yr=pv))
    assert not Submission.objects.exists()


def test_positive_production_volume_is_accepted():
    assert make_submission(production_volume_kg_yr=0.5).pk


@pytest.mark.parametrize("value", [0, 1.5, -0.1])
def test_use_concentration_is_a_fraction_above_0_up_to_1(value):
    assert refused(lambda: make_submission(use_concentration=value))


def test_use_concentration_of_1_is_accepted():
    assert make_submission(use_concentration=1.0).pk


@pytest.mark.parametrize("field,value", [
    ("pct_below_500_da", -1), ("pct_below_500_da", 100.1),
    ("pct_below_1000_da", -0.5), ("pct_below_1000_da", 101),
])
def test_molecular_weight_percentages_within_0_and_100(field, value):
    assert refused(lambda: make_submission(**{field: value}))


def test_percent_below_500_cannot_exceed_percent_below_1000():
    assert refused(lambda: make_submission(pct_below_500_da=30, pct_below_1000_da=20))
    assert make_submission(pct_below_500_da=20, pct_below_1000_da=30).pk


@pytest.mark.parametrize("field,value", [
    ("molecular_weight", 0), ("vapour_pressure_torr", -1e-6), ("water_solubility_g_l", -1),
])
def test_physical_properties_not_negative(field, value):
    assert refused(lambda: make_submission(**{field: value}))


def test_case_number_is_unique():
    make_submission(case_number="P-18-0001")
    assert refused(lambda: make_submission(case_number="P-18-0001"))


def test_unknown_case_type_refused():
    assert refused(lambda: make_submission(case_type="XYZ"))


def test_one_revision_number_per_submission(reviewer):
    submission = make_submission()
    make_assessment(submission, reviewer, revision=1)
    assert refused(lambda: make_assessment(submission, reviewer, revision=1))
    assert make_assessment(submission, reviewer, revision=2).pk


def test_same_revision_number_allowed_on_another_submission(reviewer):
    make_assessment(make_submission(), reviewer, revision=1)
    assert make_assessment(make_submission(), reviewer, revision=1).pk


def test_revision_zero_refused(reviewer):
    assert refused(lambda: make_assessment(make_submission(), reviewer, revision=0))


def test_unknown_status_refused(reviewer):
    assert refused(lambda: make_assessment(make_submission(), reviewer, status="lost"))


def test_approved_assessment_names_its_approver(reviewer, supervisor):
    submission = make_submission()
    assert refused(lambda: make_assessment(submission, reviewer, status=Status.APPROVED))
    approved = make_assessment(
        submission, reviewer, status=Status.APPROVED, approved_by=supervisor, approved_at=timezone.now()
    )
    assert approved.pk


def test_scenario_key_not_blank(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assert refused(lambda: Scenario.objects.create(assessment=assessment, scenario_key="", title="t"))


def test_scenario_result_needs_computed_time(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assert refused(lambda: Scenario.objects.create(
        assessment=assessment, scenario_key="photoresist-2010", title="t", result={"releases": []}))


def test_decision_must_change_status(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assert refused(lambda: ReviewDecision.objects.create(
        assessment=assessment, action="submit", from_status="draft", to_status="draft", by=reviewer))


def test_cbi_flag_follows_the_claims():
    assert make_submission(cbi_claims=["chemical_name"]).is_cbi is True
    assert make_submission(cbi_claims=[]).is_cbi is False


def test_every_model_keeps_history(reviewer):
    submission = make_submission()
    submission.submitter = "Renamed Co."
    submission.save()
    assessment = make_assessment(submission, reviewer)
    Scenario.objects.create(assessment=assessment, scenario_key="photoresist-2010", title="Use")
    assert [h.submitter for h in submission.history.order_by("history_date")] == ["Acme Photochemicals", "Renamed Co."]
    assert assessment.history.count() == 1
    assert Scenario.history.count() == 1
    assert hasattr(ReviewDecision, "history")
    assert Assessment.objects.get().status == Status.DRAFT
