"""The reviewer's choices for the IRER (``Assessment.IRER_CHOICE_FIELDS``): declared once
and read by the notes form, the admin, ``services.assessment_update_notes``, the comparison
of revisions and the new revision's copy; their rules in the model (``Assessment.clean``),
so the notes page, the admin and the import refuse the same things in the same words."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.management import CommandError
from django.test import RequestFactory

from assessments import comparison, services, workflow
from assessments.forms import AssessmentNotesForm
from assessments.models import Assessment, IrerNote
from assessments.models.assessments import NO_DERIVED_RATING, RATING_REASON_WITHOUT_OVERRIDE
from assessments.models.case_fields import (
    IRER_STATUS_OTHER_MISSING,
    IRER_STATUS_OTHER_NOT_OTHER,
    OCCUPATIONAL_EXPOSURE_RATINGS,
    RATING_REASON_MISSING,
    IrerStatus,
)
from assessments.reports.context import appendix_printed, releases_combined
from tests._review_support import draft_with_result, toy_engine
from tests.admin.test_admin_locking import ADMIN, assessment_form_data
from tests.conftest import make_assessment, make_submission
from tests.test_export_import import case, db_state, exported, import_file, people, write

pytestmark = pytest.mark.django_db

#: A value other than the default for each of the reviewer's choices: what the readers must carry.
CHOSEN = {
    "irer_sensitivity": True,
    "irer_departures": True,
    "assessment_date": datetime.date(2018, 2, 15),
    "irer_status": IrerStatus.OTHER,
    "irer_status_other": "Final for the docket",
    "notes": "One site, 250 days.",
    "pollution_prevention": "Closed transfer.",
    "occupational_exposure_rating": "2-3D",
    "occupational_exposure_rating_reason": "Spray application not modelled.",
    "exposure_based_review": True,
    "irer_note": IrerNote.EXPECTED,
    "irer_appendix": False,
    "irer_combine_releases": True,
}


def other_rating(assessment: Assessment) -> str:
    """A rating other than the one derived for ``assessment``: an override."""
    derived = assessment.derived_rating()
    return next(rating for rating in OCCUPATIONAL_EXPOSURE_RATINGS if rating != derived)


def post_notes(client, assessment: Assessment, **data):
    url = f"/assessments/{assessment.pk}/notes/"
    seen = client.get(url).context["form"]["version_seen"].value()
    return client.post(url, {"notes": "", "version_seen": seen, **data})


# --- One declaration, every reader --------------------------------------------------------------


def test_every_choice_has_a_value_in_this_test():
    # A choice added to the declaration needs a value here, so the tests below carry it too.
    assert set(CHOSEN) == set(Assessment.IRER_CHOICE_FIELDS)
    assert set(Assessment.IRER_CHOICES_NOT_COPIED) <= set(Assessment.IRER_CHOICE_FIELDS)
    for name, value in CHOSEN.items():
        assert value != Assessment._meta.get_field(name).get_default(), name


def test_the_notes_form_asks_for_every_choice():
    assert list(AssessmentNotesForm._meta.fields) == list(Assessment.IRER_CHOICE_FIELDS)
    assert set(Assessment.IRER_CHOICE_FIELDS) <= set(AssessmentNotesForm().fields)


def test_the_admin_form_has_every_choice(reviewer):
    reviewer.is_staff = True
    reviewer.save()
    assessment = make_assessment(make_submission(), reviewer)
    request = RequestFactory().get("/")
    request.user = reviewer  # the engineer of the draft: may edit it
    model_admin = admin.site._registry[Assessment]
    form = model_admin.get_form(request, assessment, change=True)
    assert set(Assessment.IRER_CHOICE_FIELDS) <= set(form.base_fields)
    assert not set(Assessment.IRER_CHOICE_FIELDS) & set(model_admin.get_readonly_fields(request, assessment))


def test_the_comparison_compares_every_choice_after_status_and_engineer():
    assert ("status", "engineer", *Assessment.IRER_CHOICE_FIELDS) == comparison.ASSESSMENT_COMPARED


def test_the_notes_service_stores_every_choice(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    services.assessment_update_notes(assessment=assessment, by=reviewer, data=CHOSEN)
    assessment.refresh_from_db()
    assert {name: getattr(assessment, name) for name in CHOSEN} == CHOSEN


def test_a_new_revision_copies_every_choice_but_its_date(reviewer, supervisor, toy_engine):
    first = draft_with_result(reviewer)
    services.assessment_update_notes(assessment=first, by=reviewer, data=CHOSEN)
    workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    workflow.assessment_approve(assessment=first, by=supervisor, comment="Approved.")
    copy = workflow.assessment_revise(assessment=first, by=reviewer)
    copied = [name for name in Assessment.IRER_CHOICE_FIELDS if name not in Assessment.IRER_CHOICES_NOT_COPIED]
    assert {name: getattr(copy, name) for name in copied} == {name: CHOSEN[name] for name in copied}
    assert copy.assessment_date == datetime.date.today() != CHOSEN["assessment_date"]


# --- The rules, in the model ---------------------------------------------------------------------


def test_an_override_without_a_reason_is_refused_on_the_reason(reviewer, toy_engine):
    assessment = draft_with_result(reviewer)
    derived = assessment.derived_rating()
    assessment.occupational_exposure_rating = other_rating(assessment)
    with pytest.raises(ValidationError) as caught:
        assessment.full_clean()
    assert caught.value.message_dict == {
        "occupational_exposure_rating_reason": [RATING_REASON_MISSING.format(derived=derived or NO_DERIVED_RATING)]
    }
    assessment.occupational_exposure_rating_reason = "   "  # blank is no reason
    with pytest.raises(ValidationError):
        assessment.full_clean()
    assessment.occupational_exposure_rating_reason = "Spray application not modelled."
    assessment.full_clean()


def test_the_derived_rating_chosen_needs_no_reason(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    services.scenario_compute(
        scenario=services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010"),
        by=reviewer,
    )
    assessment.occupational_exposure_rating = assessment.derived_rating()
    assert assessment.occupational_exposure_rating
    assessment.full_clean()


def test_an_unsaved_assessment_derives_nothing_so_any_rating_needs_its_reason(reviewer):
    assessment = Assessment(submission=make_submission(), engineer=reviewer, occupational_exposure_rating="NR")
    with pytest.raises(ValidationError) as caught:
        assessment.full_clean()
    assert caught.value.message_dict == {
        "occupational_exposure_rating_reason": [RATING_REASON_MISSING.format(derived=NO_DERIVED_RATING)]
    }


def test_a_reason_without_a_rating_chosen_is_refused(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assessment.occupational_exposure_rating_reason = "Spray application not modelled."
    with pytest.raises(ValidationError) as caught:
        assessment.full_clean()
    assert caught.value.message_dict == {"occupational_exposure_rating_reason": [RATING_REASON_WITHOUT_OVERRIDE]}


@pytest.mark.parametrize(("status", "words", "message"), [
    (IrerStatus.OTHER, "", IRER_STATUS_OTHER_MISSING),
    (IrerStatus.OTHER, "  ", IRER_STATUS_OTHER_MISSING),
    (IrerStatus.CEB_STAFF_DRAFT, "Final", IRER_STATUS_OTHER_NOT_OTHER),
])
def test_other_and_its_words_go_together_said_once(reviewer, status, words, message):
    assessment = make_assessment(make_submission(), reviewer)
    assessment.irer_status, assessment.irer_status_other = status, words
    with pytest.raises(ValidationError) as caught:
        assessment.full_clean()
    # The field's error only: full_clean leaves out the check constraint saying the same.
    assert caught.value.message_dict == {"irer_status_other": [message]}


# --- Every way in ---------------------------------------------------------------------------------


def test_the_notes_page_says_the_models_rule_once(client, reviewer, toy_engine):
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    response = post_notes(client, assessment, occupational_exposure_rating=other_rating(assessment))
    assert response.status_code == 200
    derived = assessment.derived_rating() or NO_DERIVED_RATING
    assert response.context["form"].errors == {
        "occupational_exposure_rating_reason": [RATING_REASON_MISSING.format(derived=derived)]
    }
    assert Assessment.objects.get(pk=assessment.pk).occupational_exposure_rating == ""


def test_an_over_long_reason_is_not_also_a_missing_one(client, reviewer, toy_engine):
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    response = post_notes(client, assessment, occupational_exposure_rating=other_rating(assessment),
                          occupational_exposure_rating_reason="r" * 4001)
    [message] = response.context["form"].errors["occupational_exposure_rating_reason"]
    assert "at most 4000 characters (it has 4001)" in message


def test_choosing_derived_on_the_notes_page_clears_the_rating_and_its_reason(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer, occupational_exposure_rating="NR",
                                 occupational_exposure_rating_reason="Closed system.")
    client.force_login(reviewer)
    response = post_notes(client, assessment, occupational_exposure_rating="",
                          occupational_exposure_rating_reason="Closed system.")
    assert response.status_code == 302
    assessment.refresh_from_db()
    assert (assessment.occupational_exposure_rating, assessment.occupational_exposure_rating_reason) == ("", "")


def test_the_admin_refuses_an_override_without_a_reason_on_the_reason(client, reviewer, toy_engine):
    reviewer.is_staff = True
    reviewer.save()
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    rating = other_rating(assessment)
    derived = assessment.derived_rating() or NO_DERIVED_RATING
    url = f"{ADMIN}/assessment/{assessment.pk}/change/"
    response = client.post(url, assessment_form_data(assessment, occupational_exposure_rating=rating))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "occupational_exposure_rating_reason": [RATING_REASON_MISSING.format(derived=derived)]
    }
    assert Assessment.objects.get(pk=assessment.pk).occupational_exposure_rating == ""
    response = client.post(url, assessment_form_data(assessment, occupational_exposure_rating=rating,
                                                     occupational_exposure_rating_reason="Spray step."))
    assert response.status_code == 302
    assert Assessment.objects.get(pk=assessment.pk).occupational_exposure_rating == rating


def test_the_admin_offers_the_appendix_in_words(client, reviewer, toy_engine):
    reviewer.is_staff = True
    reviewer.save()
    assessment = draft_with_result(reviewer)
    client.force_login(reviewer)
    page = client.get(f"{ADMIN}/assessment/{assessment.pk}/change/").content.decode()
    for label in ("As the status decides (drafts yes, approved copies no)", "Print the appendix",
                  "Leave the appendix out"):
        assert label in page
    url = f"{ADMIN}/assessment/{assessment.pk}/change/"
    for posted, stored in (("False", False), ("True", True), ("", None)):
        assert client.post(url, assessment_form_data(assessment, irer_appendix=posted)).status_code == 302
        assessment.refresh_from_db()
        assert assessment.irer_appendix is stored


def test_the_import_refuses_an_override_without_a_reason_naming_the_field(toy_engine, exported, tmp_path):
    document = exported
    assert document["assessments"][1]["occupational_exposure_rating"] == "NR"
    document["assessments"][1]["occupational_exposure_rating_reason"] = ""
    before = db_state()
    with pytest.raises(CommandError) as caught:
        import_file(write(tmp_path, json.dumps(document)))
    assert caught.value.returncode == 2
    assert "assessments[1]: occupational_exposure_rating_reason: " + RATING_REASON_MISSING.format(
        derived=NO_DERIVED_RATING) in str(caught.value)
    assert db_state() == before


# --- The notes page's layout choices ---------------------------------------------------------------


def test_the_notes_page_asks_for_the_appendix_in_a_fieldset_and_the_combining_by_a_checkbox(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    client.force_login(reviewer)
    page = client.get(f"/assessments/{assessment.pk}/notes/").content.decode()
    fieldset = page[page.index('<fieldset aria-describedby="id_irer_appendix_helptext">'):]
    fieldset = fieldset[:fieldset.index("</fieldset>")]
    assert "Calculation appendix in the IRER" in fieldset[:fieldset.index("</legend>")]
    assert fieldset.count('type="radio"') == 3
    assert 'value="" ' in fieldset and 'value="True"' in fieldset and 'value="False"' in fieldset
    assert 'id="id_irer_appendix_helptext"' in fieldset
    assert 'type="checkbox" name="irer_combine_releases"' in page
    assert 'aria-describedby="id_irer_combine_releases_helptext"' in page
    assert 'id="id_irer_combine_releases_helptext"' in page
    assert "IrerComb" in page
    assert '<label for="id_irer_combine_releases"' in page


@pytest.mark.parametrize(("posted", "stored"), [("", None), ("True", True), ("False", False)])
def test_the_notes_page_stores_the_layout_choices(client, reviewer, posted, stored):
    assessment = make_assessment(make_submission(), reviewer, irer_appendix=not stored)
    client.force_login(reviewer)
    data = {"irer_appendix": posted, **({"irer_combine_releases": "on"} if stored else {})}
    assert post_notes(client, assessment, **data).status_code == 302
    assessment.refresh_from_db()
    assert assessment.irer_appendix is stored
    assert assessment.irer_combine_releases is bool(stored)


def test_the_report_reads_the_stored_layout(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    assert not releases_combined(assessment) and appendix_printed(assessment)
    assessment.irer_combine_releases, assessment.irer_appendix = True, False
    assert releases_combined(assessment) and not appendix_printed(assessment)
    assert not releases_combined(assessment, False) and appendix_printed(assessment, True)
