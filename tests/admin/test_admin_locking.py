"""The admin is an edit path like any other, under the pages' rules: approved (and
submitted) work is read-only there too (change, delete, inline scenarios, history
"revert"); only an assessment's engineer changes a draft or returned one and its uses,
superusers included; what the workflow and the engine write (status, approval, engineer,
a scenario's inputs and stored result) is read-only for everyone; review decisions are a
record nobody edits; and a CBI case does not exist for uncleared staff (lists, change
forms, history pages)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from assessments import services
from assessments.models import Assessment, ReviewDecision, Scenario, Submission
from tests._review_support import approved, draft_with_result, returned, submitted, toy_engine
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


@pytest.fixture
def engineer(reviewer):
    """The reviewer, with access to the admin (staff, no more permissions than the group's)."""
    reviewer.is_staff = True
    reviewer.save()
    return reviewer


def state():
    return (
        [list(model.objects.order_by("pk").values()) for model in (Submission, Assessment, Scenario, ReviewDecision)],
        [model.history.count() for model in (Submission, Assessment, Scenario, ReviewDecision)],
    )


def irer_choices_posted(assessment: Assessment) -> dict:
    """The reviewer's choices for the IRER (``Assessment.IRER_CHOICE_FIELDS``) as the admin's
    form posts them: an unticked checkbox not at all, the appendix's "as the status decides" as ""."""
    posted = {}
    for name in Assessment.IRER_CHOICE_FIELDS:
        value = getattr(assessment, name)
        if value is False and name != "irer_appendix":
            continue
        posted[name] = "" if value is None else value
    return posted


def assessment_form_data(assessment: Assessment, **changes) -> dict:
    """The assessment change form as the admin renders it (no scenario rows changed)."""
    scenarios = list(assessment.scenarios.order_by("position", "id"))
    data = {
        "submission": assessment.submission_id,
        "revision": assessment.revision,
        "engineer": assessment.engineer_id,
        **irer_choices_posted(assessment),
        "assessment_date": assessment.assessment_date.isoformat(),
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


def test_engineer_edits_own_draft_in_the_admin(client, engineer):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
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


# Only the engineer edits a draft, as on the pages ------------------------------------------------


@pytest.mark.parametrize("status", ["draft", "returned"])
def test_staff_cannot_take_over_another_engineers_draft_in_admin(client, admin_user, engineer, supervisor, status):
    assessment = draft_with_result(engineer) if status == "draft" else returned(engineer, supervisor)
    client.force_login(admin_user)
    page = client.get(f"{ADMIN}/assessment/{assessment.pk}/change/").content.decode()
    assert 'name="_save"' not in page and 'name="engineer"' not in page
    before = state()
    data = assessment_form_data(assessment, engineer=admin_user.pk, notes="Mine now.")
    assert client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", data).status_code == 403
    assert state() == before


def test_engineer_cannot_hand_a_draft_to_someone_else_in_the_admin(client, engineer, admin_user):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
    data = assessment_form_data(assessment, engineer=admin_user.pk, notes="Yours.")
    assert client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", data).status_code == 302
    assessment.refresh_from_db()
    assert (assessment.engineer, assessment.notes) == (engineer, "Yours.")


def test_status_and_approval_cannot_be_set_in_the_admin(client, engineer, admin_user):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
    data = assessment_form_data(
        assessment, status="approved", approved_by=admin_user.pk, approved_at_0="2026-01-01", approved_at_1="00:00",
        revision=7, volume_excess_reason="Because.",
    )
    assert client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", data).status_code == 302
    assessment.refresh_from_db()
    assert (assessment.status, assessment.approved_by, assessment.approved_at, assessment.revision,
            assessment.volume_excess_reason) == ("draft", None, None, 1, "")


def test_other_staff_cannot_change_or_delete_a_drafts_uses_in_the_admin(client, admin_user, engineer):
    scenario = draft_with_result(engineer).scenarios.get()
    client.force_login(admin_user)
    before = state()
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/change/", {"title": "Renamed", "position": 1}).status_code == 403
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"{ADMIN}/assessment/{scenario.assessment_id}/delete/", {"post": "yes"}).status_code == 403
    assert state() == before


def test_engineer_deletes_a_use_of_own_draft_in_the_admin(client, engineer):
    scenario = draft_with_result(engineer).scenarios.get()
    client.force_login(engineer)
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Scenario.objects.filter(pk=scenario.pk).exists()


# What the engine and the wizard write is read-only -----------------------------------------------


@pytest.mark.parametrize("who", ["engineer", "superuser"])
def test_admin_cannot_edit_stored_result(client, engineer, admin_user, who):
    user = engineer if who == "engineer" else admin_user
    scenario = draft_with_result(user).scenarios.get()
    client.force_login(user)
    page = client.get(f"{ADMIN}/scenario/{scenario.pk}/change/").content.decode()
    assert 'name="_save"' in page
    for name in ("result", "computed_inputs", "computed_at", "inputs", "reasons", "scenario_key", "assessment"):
        assert f'name="{name}' not in page, name
    stored = Scenario.objects.filter(pk=scenario.pk).values(
        "result", "computed_inputs", "computed_at", "inputs", "reasons", "scenario_key", "assessment"
    ).get()
    data = {"title": "Renamed", "position": 3, "result": '{"releases": []}', "computed_inputs": '{"Qchem_yr": 1}',
            "computed_at_0": "2020-01-01", "computed_at_1": "00:00", "inputs": '{"Qchem_yr": -5}', "reasons": "{}",
            "scenario_key": "photoresist-2010", "assessment": scenario.assessment_id}
    assert client.post(f"{ADMIN}/scenario/{scenario.pk}/change/", data).status_code == 302
    scenario.refresh_from_db()
    assert (scenario.title, scenario.position) == ("Renamed", 3)
    assert Scenario.objects.filter(pk=scenario.pk).values(*stored).get() == stored


def test_inline_scenarios_are_not_added_or_rekeyed_in_the_admin(client, engineer):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
    formset = client.get(f"{ADMIN}/assessment/{assessment.pk}/change/").context["inline_admin_formsets"][0]
    assert not formset.has_add_permission and formset.has_change_permission
    scenario = assessment.scenarios.get()
    data = assessment_form_data(assessment, **{"scenarios-0-scenario_key": "photoresist-2010", "scenarios-0-title": "Spin"})
    assert client.post(f"{ADMIN}/assessment/{assessment.pk}/change/", data).status_code == 302
    scenario.refresh_from_db()
    assert (scenario.scenario_key, scenario.title) == ("review-toy", "Spin")


def test_history_revert_keeps_the_status(client, engineer, supervisor):
    """Reverting a returned assessment to a version from its draft days reverts the
    notes, never the status the workflow wrote."""
    assessment = returned(engineer, supervisor)
    draft_version = assessment.history.filter(status="draft").earliest()
    client.force_login(engineer)
    url = f"{ADMIN}/assessment/{assessment.pk}/history/{draft_version.history_id}/"
    assert client.post(url, assessment_form_data(assessment, notes="Reverted.")).status_code == 302
    assessment.refresh_from_db()
    assert (assessment.status, assessment.notes) == ("returned", "Reverted.")


def test_history_revert_of_a_scenario_keeps_its_result(client, engineer):
    scenario = draft_with_result(engineer).scenarios.get()
    before_compute = scenario.history.earliest()
    assert before_compute.result is None
    stored = Scenario.objects.filter(pk=scenario.pk).values("result", "computed_inputs", "inputs").get()
    client.force_login(engineer)
    url = f"{ADMIN}/scenario/{scenario.pk}/history/{before_compute.history_id}/"
    assert client.post(url, {"title": "Old title", "position": 1, "result": "null"}).status_code == 302
    assert Scenario.objects.filter(pk=scenario.pk).values("result", "computed_inputs", "inputs").get() == stored


# Adding is the pages' adding ---------------------------------------------------------------------


def test_a_use_added_in_the_admin_is_added_as_on_the_pages(client, engineer):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
    response = client.post(
        f"{ADMIN}/scenario/add/",
        {"assessment": assessment.pk, "scenario_key": "review-toy", "title": "Second use",
         "inputs": '{"Qchem_yr": -5}', "result": '{"releases": []}', "position": 40},
    )
    assert response.status_code == 302
    added = assessment.scenarios.get(title="Second use")
    inputs, reasons = services.initial_inputs(submission=assessment.submission, scenario_key="review-toy")
    assert (added.inputs, added.reasons, added.result, added.position) == (inputs, reasons, None, 2)
    assert added.history.get().history_type == "+"


def test_an_unknown_scenario_cannot_be_added_in_the_admin(client, engineer):
    assessment = draft_with_result(engineer)
    client.force_login(engineer)
    before = state()
    response = client.post(f"{ADMIN}/scenario/add/", {"assessment": assessment.pk, "scenario_key": "nope", "title": "X"})
    assert response.status_code == 200
    assert "Select a valid choice. nope is not one of the available choices." in response.content.decode()
    assert state() == before


def test_a_use_cannot_be_added_to_another_engineers_draft_in_the_admin(client, admin_user, engineer):
    assessment = draft_with_result(engineer)
    client.force_login(admin_user)
    before = state()
    response = client.post(f"{ADMIN}/scenario/add/", {"assessment": assessment.pk, "scenario_key": "review-toy", "title": "X"})
    assert response.status_code == 200
    assert "Select a valid choice. That choice is not one of the available choices." in response.content.decode()
    assert state() == before


def test_an_assessment_added_in_the_admin_is_the_users_own_revision_1(client, admin_user, engineer):
    from tests.conftest import make_submission

    case = make_submission()
    client.force_login(admin_user)
    response = client.post(f"{ADMIN}/assessment/add/", {"submission": case.pk, "engineer": engineer.pk, "revision": 4,
                                                        "status": "approved"})
    assert response.status_code == 302
    added = case.assessments.get()
    assert (added.engineer, added.revision, added.status) == (admin_user, 1, "draft")


def test_a_second_assessment_of_a_case_cannot_be_added_in_the_admin(client, admin_user, engineer):
    case = draft_with_result(engineer).submission
    client.force_login(admin_user)
    before = state()
    response = client.post(f"{ADMIN}/assessment/add/", {"submission": case.pk})
    assert response.status_code == 200
    assert services.START_NOT_ALLOWED in response.content.decode()
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
