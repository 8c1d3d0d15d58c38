"""Helpers shared by the review-workflow tests (services, views, export/import, admin).

The workflow does not depend on what a scenario computes, only on whether its stored
result is present and current. These tests therefore register a small scenario of
their own, ``review-toy`` (one release to air, ``Qchem_yr × Fchem``), in place of the
engine's registry, so they neither break nor change when the real ESD modules do.
Import the ``toy_engine`` fixture into a test module to use it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from assessments import services, workflow
from assessments.esd import registry
from assessments.esd.parameters import INT, Param, ParamSet, Step
from assessments.esd.results import Medium, Release, Result, TraceStep, release_estimate
from assessments.models import Assessment, Scenario, Submission
from assessments.roles import SUPERVISOR_GROUP
from tests.conftest import make_assessment, make_submission, make_user

TOY_KEY = "review-toy"

TOY_PARAMS = ParamSet(
    params=(
        Param("Qchem_yr", "Annual volume", "kg/yr", None, "the case", "volume", lower=0, lower_open=True, required=True,
              from_case="production_volume_kg_yr"),
        Param("Fchem", "Mass fraction in the formulation", "kg/kg", 0.1, "toy default", "volume", lower=0, upper=1,
              lower_open=True, from_case="use_concentration"),
        Param("TIME_days", "Operating days", "days/yr", 250, "toy default", "operation", lower=1, upper=365, kind=INT),
    ),
    steps=(Step("volume", "Volume"), Step("operation", "Operation")),
)


def _toy_run(inputs: dict) -> Result:
    kg_yr = inputs["Qchem_yr"] * inputs["Fchem"]
    days = inputs["TIME_days"]
    estimate = release_estimate("high end", kg_yr / days, days, 1, "all of it, to air (toy)")
    return Result(
        scenario=TOY_KEY,
        inputs=dict(inputs),
        facility={"Nsites": 1, "TIME_days": days},
        releases=[Release(1, "Everything", "toy", "Qchem_yr × Fchem", [Medium("air")], [estimate])],
        exposures=[],
        warnings=[],
        trace=[TraceStep("Elocal", kg_yr / days, "kg/site-day", "Qchem_yr × Fchem / TIME_days", "toy")],
    )


TOY = registry.Scenario(key=TOY_KEY, title="Toy release to air", source="tests", params=TOY_PARAMS, run=_toy_run)


@pytest.fixture
def toy_engine(monkeypatch):
    """The engine's registry holding only the toy scenario."""
    monkeypatch.setattr(registry, "_registry", lambda: {TOY_KEY: TOY})
    return TOY


@pytest.fixture
def other_supervisor(django_user_model):
    return make_user(django_user_model, "sup2", group=SUPERVISOR_GROUP, cbi=True)


@pytest.fixture
def other_reviewer(django_user_model):
    """A second CBI-cleared reviewer (not the engineer of the test assessments)."""
    from assessments.roles import REVIEWER_GROUP

    return make_user(django_user_model, "rev2", group=REVIEWER_GROUP, cbi=True)


def add_computed_scenario(assessment: Assessment, *, title: str = "Toy use", volume: float = 5000.0) -> Scenario:
    """A scenario added, given inputs (with a reason for the override) and computed,
    all through the services, as the engineer would."""
    scenario = services.scenario_add(assessment=assessment, by=assessment.engineer, scenario_key=TOY_KEY, title=title)
    scenario = services.scenario_save_step(
        scenario=scenario,
        by=assessment.engineer,
        step="volume",
        values={"Qchem_yr": volume, "Fchem": 0.2},
        reasons={"Fchem": "Submitter's MSDS: 20 %."},
    )
    return services.scenario_compute(scenario=scenario, by=assessment.engineer)


def draft_with_result(engineer, submission: Submission | None = None, **case) -> Assessment:
    submission = submission or make_submission(**case)
    assessment = make_assessment(submission, engineer)
    add_computed_scenario(assessment)
    return assessment


def submitted(engineer, submission: Submission | None = None, **case) -> Assessment:
    assessment = draft_with_result(engineer, submission, **case)
    return workflow.assessment_submit(assessment=assessment, by=engineer, note="Ready.")


def approved(engineer, approver, submission: Submission | None = None, **case) -> Assessment:
    assessment = submitted(engineer, submission, **case)
    return workflow.assessment_approve(assessment=assessment, by=approver, comment="Looks right.")


def returned(engineer, approver, submission: Submission | None = None, **case) -> Assessment:
    assessment = submitted(engineer, submission, **case)
    return workflow.assessment_return(assessment=assessment, by=approver, comment="Check Fchem.")


def in_status(status: str, engineer, approver, **case) -> Assessment:
    """An assessment brought to ``status`` through the workflow services."""
    makers = {"draft": draft_with_result, "submitted": submitted}
    if status in makers:
        return makers[status](engineer, **case)
    return {"approved": approved, "returned": returned}[status](engineer, approver, **case)


def supervisor_group() -> Group:
    return Group.objects.get(name=SUPERVISOR_GROUP)
