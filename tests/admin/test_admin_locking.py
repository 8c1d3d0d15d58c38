"""The admin is an edit path like any other: approved (and submitted) work is read-only
there too (change, delete, inline scenarios, history "revert"), review decisions are a
record nobody edits, and a CBI case does not exist for uncleared staff (lists, change
forms, history pages)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from assessments.models import Assessment, ReviewDecision, Scenario, Submission
from tests._review_support import approved, draft_with_result, submitted, toy_engine  # noqa: F401  (fixtures)
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

ADMIN = "/admin/assessments"


@pytest.fixture
def admin_user(django_user_model):
    """A superuser: every permission, CBI clearance included."""
    return django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")


@pytest.fixture
def uncleared_staff(django_user_model):
    """Staff with every permission on the application's models but CBI clearance."""
    user = make_user(django_user_model, "staff", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="assessments").exclude(codename="view_cbi")
    )
    return user


def state():
    return (
        [list(model.objects.order_by("pk").values()) for model in (Submission, Assessment, Scenario, ReviewDecision)],
        [model.history.count() for model in (Submission, Assessment, Scenario, ReviewDecision)],
    )


def assessment_form_data(assessment: Assessment, **changes) -> dict:
    """The assessment change form as the admin renders it (no scenario rows changed)."""
    scenarios = list(assessment.scenarios.order_by("position", "id"))
    data = {
        "submission": assessment.submission_id,
        "revision": assessment.revision,
        "engineer": assessment.engineer_id,
        "notes": assessment.notes,
        "pollution_prevention": assessment.pollution_prevention,
        "occupational_exposure_rating": assessment.occupational_exposure_rating,
        "scenarios-TOTAL_FORMS": len(scenarios),
        "scenarios-INITIAL_FORMS": len(scenarios),
        "scenarios-MIN_NUM_FORMS": 0,
        "scenarios-MAX_NUM_FORMS": 1000,
    }
    for i, scenario in enumerate(scenarios):
        data.update({
            f"scenarios-{i}-id": scenario.pk,
            f"scenarios-{i}-assessment": assessment.pk,
            f"scenarios-{i}-position": scenario.position,
            f"scenarios-{i}-scenario_key": scenario.scenario_key,
            f"scenarios-{i}-title": scenario.title,
        })
    data.update(changes)
    return data


# Approved and submitted work is read-only ---------------------------------------------------------


@pytest.mark.parametrize("status", ["approved", "submitted"])
def test_assessment_change_form_is_read_only_and_refuses_a_post(client, admin_user, reviewer, supervisor, status):
    assessment = approved(reviewer, supervisor) if status == "approved" else submitted(reviewer)
    client.force_login(admin_user)
    page = client.get(f"{ADMIN}/assessment/{assessment.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode() and 'name="notes"' not in page.content.decode()
    before = state()
    response = client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", assessment_form_data(assessment, notes="changed"))
    assert response.status_code == 403
    assert state() == before


def test_draft_assessment_is_still_editable_in_the_admin(client, admin_user, reviewer):
    assessment = draft_with_result(reviewer)
    client.force_login(admin_user)
    response = client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", assessment_form_data(assessment, notes="fixed"))
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert assessment.notes == "fixed"


def test_approved_assessment_cannot_be_deleted(client, admin_user, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    client.force_login(admin_user)
    before = state()
    assert client.post(f"{ADMIN}/assessment/{assessment.pk}/delete/", {"post": "yes"}).status_code == 403
    assert state() == before


def test_approved_assessments_scenario_is_read_only(client, admin_user, reviewer, supervisor):
    scenario = approved(reviewer, supervisor).scenarios.get()
    client.force_login(admin_user)
    page = client.get(f"{ADMIN}/scenario/{scenario.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    before = state()
    data = {"assessment": scenario.assessment_id, "scenario_key": scenario.scenario_key, "title": "changed",
            "position": 1, "inputs": '{"Qchem_yr": 1}', "reasons": "{}", "result": "null"}
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/change/", data).status_code == 403
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/delete/", {"post": "yes"}).status_code == 403
    assert state() == before


def test_inline_scenarios_of_an_approved_assessment_cannot_be_added(client, admin_user, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    client.force_login(admin_user)
    page = client.get(f"{ADMIN}/assessment/{assessment.pk}/change/")
    formset = page.context["inline_admin_formsets"][0]
    assert not formset.has_add_permission and not formset.has_change_permission and not formset.has_delete_permission


def test_a_scenario_cannot_be_added_to_an_approved_assessment(client, admin_user, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    client.force_login(admin_user)
    before = state()
    response = client.post(
        f"{ADMIN}/scenario/add/",
        {"assessment": assessment.pk, "scenario_key": "review-toy", "title": "Sneaked in", "position": 9,
         "inputs": "{}", "reasons": "{}", "result": "null"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "Select a valid choice. That choice is not one of the available choices." in response.content.decode()
    assert state() == before


def test_case_of_an_approved_assessment_is_read_only(client, admin_user, reviewer, supervisor):
    submission = approved(reviewer, supervisor).submission
    client.force_login(admin_user)
    before = state()
    response = client.post(f"{ADMIN}/submission/{submission.pk}/change/", {"case_number": "P-99-9999"})
    assert response.status_code == 403
    assert state() == before


def test_history_revert_of_an_approved_assessment_is_refused(client, admin_user, reviewer, supervisor):
    assessment = approved(reviewer, supervisor)
    draft_version = assessment.history.filter(status="draft").earliest()
    client.force_login(admin_user)
    url = f"{ADMIN}/assessment/{assessment.pk}/history/{draft_version.history_id}/"
    assert client.get(url).status_code == 200  # viewing an old version is fine
    before = state()
    response = client.post(url, assessment_form_data(assessment, notes="reverted"))
    assert response.status_code == 403
    assert state() == before


def test_review_decisions_are_a_record_nobody_edits_in_the_admin(client, admin_user, reviewer, supervisor):
    decision = approved(reviewer, supervisor).decisions.first()
    client.force_login(admin_user)
    before = state()
    assert client.get(f"{ADMIN}/reviewdecision/add/").status_code == 403
    assert client.post(f"{ADMIN}/reviewdecision/{decision.pk}/change/", {"comment": "edited"}).status_code == 403
    assert client.post(f"{ADMIN}/reviewdecision/{decision.pk}/delete/", {"post": "yes"}).status_code == 403
    assert state() == before


# CBI --------------------------------------------------------------------------------------------


@pytest.fixture
def cbi_case(reviewer, supervisor):
    return approved(reviewer, supervisor, case_number="P-26-0900", cbi_claims=["chemical_name"])


def test_changelists_hide_a_cbi_case_from_uncleared_staff(client, uncleared_staff, cbi_case, reviewer, supervisor):
    public = approved(reviewer, supervisor, case_number="P-26-0901")
    client.force_login(uncleared_staff)
    for model, queryset_of in (
        ("submission", lambda a: [a.submission]),
        ("assessment", lambda a: [a]),
        ("scenario", lambda a: list(a.scenarios.all())),
        ("reviewdecision", lambda a: list(a.decisions.all())),
    ):
        page = client.get(f"{ADMIN}/{model}/")
        assert page.status_code == 200
        shown = set(page.context["cl"].result_list)
        assert shown == set(queryset_of(public)), model
    assert "P-26-0900" not in client.get(f"{ADMIN}/submission/").content.decode()


def test_changelists_show_a_cbi_case_to_cleared_staff(client, admin_user, cbi_case):
    client.force_login(admin_user)
    assert "P-26-0900" in client.get(f"{ADMIN}/submission/").content.decode()


@pytest.mark.parametrize("model", ["submission", "assessment", "scenario", "reviewdecision"])
def test_change_form_of_a_cbi_row_answers_uncleared_staff_as_for_a_missing_row(client, uncleared_staff, cbi_case, model):
    row = {
        "submission": cbi_case.submission,
        "assessment": cbi_case,
        "scenario": cbi_case.scenarios.get(),
        "reviewdecision": cbi_case.decisions.first(),
    }[model]
    client.force_login(uncleared_staff)
    hidden = client.get(f"{ADMIN}/{model}/{row.pk}/change/")
    missing = client.get(f"{ADMIN}/{model}/999999/change/")
    assert (hidden.status_code, hidden["Location"]) == (missing.status_code, missing["Location"]) == (302, "/admin/")
    assert cbi_case.submission.case_number not in client.get("/admin/", follow=True).content.decode()


@pytest.mark.parametrize("model", ["submission", "assessment", "scenario", "reviewdecision"])
def test_history_pages_of_a_cbi_row_are_404_for_uncleared_staff(client, uncleared_staff, admin_user, cbi_case, model):
    row = {
        "submission": cbi_case.submission,
        "assessment": cbi_case,
        "scenario": cbi_case.scenarios.get(),
        "reviewdecision": cbi_case.decisions.first(),
    }[model]
    version = row.history.earliest()
    client.force_login(uncleared_staff)
    assert client.get(f"{ADMIN}/{model}/{row.pk}/history/").status_code == 404
    assert client.get(f"{ADMIN}/{model}/{row.pk}/history/{version.history_id}/").status_code == 404
    client.force_login(admin_user)
    assert client.get(f"{ADMIN}/{model}/{row.pk}/history/").status_code == 200
