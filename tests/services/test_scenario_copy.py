"""A use is copied by one helper (``services.scenario_copy``), whether the engineer
duplicates it within the assessment or a new revision copies every use: both copies carry
the same fields, and every field of a use is decided (copied, given by the caller, or not
copied), so a new field cannot be left behind by one of them."""

from __future__ import annotations

import pytest

from assessments import services, workflow
from assessments.models import Scenario
from tests._review_support import (
    add_computed_scenario,
    draft_with_result,
    other_reviewer,
    toy_engine,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

RELEASE_TEXTS = {"1": {"to": "On-site wastewater treatment", "basis": "Submitter's process description."}}


def _copied(scenario: Scenario) -> dict:
    return {name: getattr(scenario, name) for name in services.SCENARIO_COPIED_FIELDS}


def test_every_field_of_a_use_is_decided_for_a_copy():
    decided = (set(services.SCENARIO_COPIED_FIELDS) | set(services.SCENARIO_COPY_GIVEN_FIELDS)
               | set(services.SCENARIO_NOT_COPIED_FIELDS))
    concrete = {field.attname.removesuffix("_id") if field.is_relation else field.name
                for field in Scenario._meta.concrete_fields}
    assert concrete == decided
    groups = (services.SCENARIO_COPIED_FIELDS, services.SCENARIO_COPY_GIVEN_FIELDS, services.SCENARIO_NOT_COPIED_FIELDS)
    assert sum(len(group) for group in groups) == len(decided)  # no field in two groups


def _with_everything(reviewer) -> Scenario:
    """A computed use whose every copied field holds a value (report texts, last step)."""
    assessment = draft_with_result(reviewer)
    scenario = assessment.scenarios.get()
    scenario = services.scenario_update_release_texts(scenario=scenario, by=reviewer, texts=RELEASE_TEXTS)
    assert all(getattr(scenario, name) not in (None, "", {}) for name in services.SCENARIO_COPIED_FIELDS)
    return scenario


def test_a_duplicate_carries_every_copied_field_and_shares_no_dict(reviewer):
    scenario = _with_everything(reviewer)
    duplicate = services.scenario_duplicate(scenario=scenario, by=reviewer)
    duplicate.refresh_from_db()
    assert _copied(duplicate) == _copied(scenario)
    assert duplicate.inputs is not scenario.inputs
    assert (duplicate.title, duplicate.deleted_at) == (f"{scenario.title} (copy)", None)


def test_a_new_revision_carries_the_same_fields_as_a_duplicate(reviewer, supervisor, other_reviewer):
    scenario = _with_everything(reviewer)
    source = scenario.assessment
    workflow.assessment_submit(assessment=source, by=reviewer)
    workflow.assessment_approve(assessment=source, by=supervisor)
    scenario.refresh_from_db()
    revision = workflow.assessment_revise(assessment=source, by=other_reviewer)
    copied = revision.scenarios.get()
    assert _copied(copied) == _copied(scenario)
    assert (copied.title, copied.position) == (scenario.title, scenario.position)
    assert copied.history.earliest().history_change_reason == "New revision copied from approved revision 1."
