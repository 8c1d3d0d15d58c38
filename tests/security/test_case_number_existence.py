"""A case number reveals no CBI case (issue 25, item 4). A user not cleared for CBI who gives
a case (new, or renumbered; on the page or in the admin) the number of a CBI case is
answered as for a free number until the save, then told, in words that name no case, that
the number cannot be used; nothing is saved, and the attempt is recorded for review (the
CBI case's custody log, a warning in the log). A cleared user is told the number is taken,
as before. Two saves of one number at once answer the same way, never with a server error."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError

from assessments import services
from assessments.models import CASE_NUMBER_TAKEN, Submission
from assessments.services import CASE_NUMBER_REFUSED
from audit.models import CbiAccess
from tests.conftest import make_submission, make_user
from tests.views.test_case_form_errors import BAD
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db

CBI_NUMBER = "P-26-0042"
FREE_NUMBER = "P-26-0777"
CLAIMED_NAME = "Tetrakis(ethylmethylamino)hafnium"
ADDRESS = "192.0.2.61"
SERVICE_DATA = {"submitter": "S", "chemical_name": "C", "generic_name": "G", "production_volume_kg_yr": 10.0,
                "use_description": "U"}


@pytest.fixture
def cbi_case() -> Submission:
    return make_submission(case_number=CBI_NUMBER, chemical_name=CLAIMED_NAME, cbi_claims=["chemical_name"])


@pytest.fixture
def own_case() -> Submission:
    """A case the uncleared reviewer may see and edit."""
    return make_submission(case_number="P-26-0500")


def page_without_tokens(response, number: str) -> str:
    """The page as the user reads it, the number they typed and the CSRF token aside."""
    body = response.content.decode()
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)
    return body.replace(number, "<the number typed>")


def refused(response) -> None:
    """The page says the number cannot be used, naming no case and nothing of it."""
    assert response.status_code == 200
    assert response.context["form"].errors == {"case_number": [CASE_NUMBER_REFUSED]}
    body = response.content.decode()
    assert "already exists" not in body and CLAIMED_NAME not in body


def the_review_row(user, *, what, typed=CBI_NUMBER) -> CbiAccess:
    row = CbiAccess.objects.get()
    assert (row.kind, row.what, row.user, row.case_number) == (CbiAccess.Kind.REFUSED_NUMBER, what, user, typed)
    return row


# Until the save: as a free number ----------------------------------------------------------------


def test_the_new_case_form_answers_as_for_a_free_number(client, uncleared_reviewer, cbi_case):
    client.force_login(uncleared_reviewer)
    hidden = client.post("/cases/new/", {**BAD, "case_number": CBI_NUMBER})
    free = client.post("/cases/new/", {**BAD, "case_number": FREE_NUMBER})
    assert hidden.status_code == free.status_code == 200
    assert "case_number" not in hidden.context["form"].errors
    assert hidden.context["form"].errors == free.context["form"].errors
    assert page_without_tokens(hidden, CBI_NUMBER) == page_without_tokens(free, FREE_NUMBER)
    assert Submission.objects.count() == 1 and not CbiAccess.objects.exists()


def test_the_edit_form_answers_as_for_a_free_number(client, uncleared_reviewer, cbi_case, own_case):
    client.force_login(uncleared_reviewer)
    bad = {**BAD, "version_seen": own_case.version}
    hidden = client.post(f"/cases/{own_case.pk}/edit/", {**bad, "case_number": CBI_NUMBER})
    free = client.post(f"/cases/{own_case.pk}/edit/", {**bad, "case_number": FREE_NUMBER})
    assert hidden.context["form"].errors == free.context["form"].errors
    assert "case_number" not in hidden.context["form"].errors
    assert page_without_tokens(hidden, CBI_NUMBER) == page_without_tokens(free, FREE_NUMBER)
    assert not CbiAccess.objects.exists()


# At the save: refused, naming no case, recorded --------------------------------------------------


def test_a_new_case_with_a_cbi_cases_number_is_refused_and_recorded(client, uncleared_reviewer, cbi_case, caplog):
    client.force_login(uncleared_reviewer)
    with caplog.at_level(logging.WARNING, logger="audit.custody"):
        response = client.post("/cases/new/", {**VALID, "case_number": CBI_NUMBER}, REMOTE_ADDR=ADDRESS)
    refused(response)
    assert list(Submission.objects.all()) == [cbi_case]
    row = the_review_row(uncleared_reviewer, what=CbiAccess.What.NEW_CASE)
    assert (row.submission_id, row.ip) == (cbi_case.pk, ADDRESS)
    [record] = [r for r in caplog.records if r.name == "audit.custody"]
    assert record.levelname == "WARNING"
    assert CBI_NUMBER in record.getMessage() and "contractor" in record.getMessage()
    assert CLAIMED_NAME not in record.getMessage()


def test_the_number_is_compared_normalised(client, uncleared_reviewer, cbi_case):
    client.force_login(uncleared_reviewer)
    refused(client.post("/cases/new/", {**VALID, "case_number": "  p-26-0042 "}))
    the_review_row(uncleared_reviewer, what=CbiAccess.What.NEW_CASE, typed=CBI_NUMBER)


def test_renumbering_a_case_to_a_cbi_cases_number_is_refused_and_recorded(client, uncleared_reviewer, cbi_case,
                                                                          own_case):
    client.force_login(uncleared_reviewer)
    response = client.post(f"/cases/{own_case.pk}/edit/",
                           {**VALID, "case_number": CBI_NUMBER.lower(), "version_seen": own_case.version})
    refused(response)
    own_case.refresh_from_db()
    assert (own_case.case_number, own_case.version) == ("P-26-0500", 1)
    assert the_review_row(uncleared_reviewer, what=CbiAccess.What.CASE_RENAME).submission_id == cbi_case.pk


def test_the_service_refuses_it_too(uncleared_reviewer, cbi_case):
    with pytest.raises(ValidationError) as error:
        services.submission_create(by=uncleared_reviewer, data={**SERVICE_DATA, "case_number": CBI_NUMBER},
                                   cbi_claims=[])
    assert error.value.message_dict == {"case_number": [CASE_NUMBER_REFUSED]}
    assert Submission.objects.count() == 1
    the_review_row(uncleared_reviewer, what=CbiAccess.What.NEW_CASE)


def test_the_service_says_other_errors_first_as_for_a_free_number(uncleared_reviewer, cbi_case):
    with pytest.raises(ValidationError) as error:
        services.submission_create(
            by=uncleared_reviewer, data={**SERVICE_DATA, "case_number": CBI_NUMBER, "production_volume_kg_yr": 0.0},
            cbi_claims=[])
    assert list(error.value.message_dict) == ["production_volume_kg_yr"]
    assert not CbiAccess.objects.exists()


def test_the_refusal_is_a_module_constant_naming_no_case():
    assert CASE_NUMBER_REFUSED == "This case number cannot be used; ask a supervisor."
    assert "{" not in CASE_NUMBER_REFUSED


# Cleared users, free numbers ---------------------------------------------------------------------


def test_a_cleared_user_is_told_the_number_is_taken(client, reviewer, cbi_case, own_case):
    client.force_login(reviewer)
    taken = [CASE_NUMBER_TAKEN.format(case_number=CBI_NUMBER)]
    assert client.post("/cases/new/", {**VALID, "case_number": CBI_NUMBER}).context["form"].errors == {
        "case_number": taken}
    response = client.post(f"/cases/{own_case.pk}/edit/",
                           {**VALID, "case_number": CBI_NUMBER, "version_seen": own_case.version})
    assert response.context["form"].errors == {"case_number": taken}
    assert not CbiAccess.objects.exists()


def test_an_uncleared_user_is_told_a_visible_cases_number_is_taken(client, uncleared_reviewer, own_case):
    client.force_login(uncleared_reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": "P-26-0500"})
    assert response.context["form"].errors == {"case_number": [CASE_NUMBER_TAKEN.format(case_number="P-26-0500")]}


def test_a_free_number_still_works(client, uncleared_reviewer, cbi_case, own_case):
    client.force_login(uncleared_reviewer)
    response = client.post("/cases/new/", {**VALID, "case_number": FREE_NUMBER})
    assert response.status_code == 302
    assert Submission.objects.filter(case_number=FREE_NUMBER).exists()
    response = client.post(f"/cases/{own_case.pk}/edit/",
                           {**VALID, "case_number": "P-26-0778", "version_seen": own_case.version})
    assert response.status_code == 302
    own_case.refresh_from_db()
    assert own_case.case_number == "P-26-0778"
    assert not CbiAccess.objects.exists()


# Two saves at once --------------------------------------------------------------------------------


@pytest.fixture
def raced(monkeypatch):
    """The other case is saved after this save's checks: the checks see the number free, the
    database's unique index refuses it."""
    free = lambda **kwargs: None  # noqa: E731
    monkeypatch.setattr("assessments.services.hidden_case", free)
    monkeypatch.setattr("assessments.forms.cases.hidden_case", free)
    monkeypatch.setattr(Submission, "validate_unique", lambda self, exclude=None: None)


@pytest.mark.usefixtures("raced")
def test_a_race_for_a_cbi_cases_number_gives_the_same_refusal(client, uncleared_reviewer, cbi_case, own_case):
    client.force_login(uncleared_reviewer)
    refused(client.post("/cases/new/", {**VALID, "case_number": CBI_NUMBER}))
    the_review_row(uncleared_reviewer, what=CbiAccess.What.NEW_CASE)
    refused(client.post(f"/cases/{own_case.pk}/edit/",
                        {**VALID, "case_number": CBI_NUMBER, "version_seen": own_case.version}))
    assert [r.what for r in CbiAccess.objects.order_by("pk")] == [CbiAccess.What.NEW_CASE, CbiAccess.What.CASE_RENAME]
    assert Submission.objects.count() == 2
    own_case.refresh_from_db()
    assert own_case.case_number == "P-26-0500"


@pytest.mark.usefixtures("raced")
def test_a_race_for_a_visible_number_gives_the_taken_message(client, reviewer, cbi_case, own_case):
    client.force_login(reviewer)
    taken = {"case_number": [CASE_NUMBER_TAKEN.format(case_number=CBI_NUMBER)]}
    assert client.post("/cases/new/", {**VALID, "case_number": CBI_NUMBER}).context["form"].errors == taken
    response = client.post(f"/cases/{own_case.pk}/edit/",
                           {**VALID, "case_number": CBI_NUMBER, "version_seen": own_case.version})
    assert response.status_code == 200 and response.context["form"].errors == taken
    assert Submission.objects.count() == 2 and not CbiAccess.objects.exists()


# The admin's case form -------------------------------------------------------------------------------


ADMIN_ADD = "/admin/assessments/submission/add/"
ADMIN_DATA = {
    "case_type": "PMN", "submitter": "Acme", "chemical_name": "C", "generic_name": "G",
    "production_volume_kg_yr": "5000", "volume_qualifier": "manufacture", "physical_state": "unknown",
    "use_description": "U", "cbi_claims": "[]", "tlv_pel_kind": "twa_8h",
}


def staff(django_user_model, name: str, *, cbi: bool):
    user = make_user(django_user_model, name, group="reviewer", cbi=cbi, is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="add_submission"))
    return user


def test_the_admins_form_answers_as_for_a_free_number_until_the_save(client, django_user_model, cbi_case):
    user = staff(django_user_model, "staff-contractor", cbi=False)
    client.force_login(user)
    bad = {**ADMIN_DATA, "production_volume_kg_yr": "0"}
    hidden = client.post(ADMIN_ADD, {**bad, "case_number": CBI_NUMBER})
    free = client.post(ADMIN_ADD, {**bad, "case_number": FREE_NUMBER})
    assert hidden.context["adminform"].form.errors == free.context["adminform"].form.errors
    assert "case_number" not in hidden.context["adminform"].form.errors
    assert not CbiAccess.objects.exists()
    response = client.post(ADMIN_ADD, {**ADMIN_DATA, "case_number": CBI_NUMBER}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"case_number": [CASE_NUMBER_REFUSED]}
    assert "already exists" not in response.content.decode()
    assert list(Submission.objects.all()) == [cbi_case]
    assert the_review_row(user, what=CbiAccess.What.NEW_CASE).ip == ADDRESS


def test_the_admin_tells_a_cleared_user_the_number_is_taken(client, django_user_model, cbi_case):
    client.force_login(staff(django_user_model, "staff-cleared", cbi=True))
    response = client.post(ADMIN_ADD, {**ADMIN_DATA, "case_number": CBI_NUMBER})
    assert response.context["adminform"].form.errors == {
        "case_number": [CASE_NUMBER_TAKEN.format(case_number=CBI_NUMBER)]}
    assert not CbiAccess.objects.exists()


def test_the_admin_takes_a_free_number(client, django_user_model, cbi_case):
    client.force_login(staff(django_user_model, "staff-contractor", cbi=False))
    response = client.post(ADMIN_ADD, {**ADMIN_DATA, "case_number": FREE_NUMBER})
    assert response.status_code == 302
    assert Submission.objects.filter(case_number=FREE_NUMBER).exists()


# Who reads the record of the attempt --------------------------------------------------------------


def test_a_supervisor_reads_the_attempt_in_the_cbi_cases_log_and_the_user_does_not(
        client, uncleared_reviewer, supervisor, cbi_case):
    client.force_login(uncleared_reviewer)
    refused(client.post("/cases/new/", {**VALID, "case_number": CBI_NUMBER}))
    mine = client.get("/my-cbi-access/").content.decode()
    assert CBI_NUMBER not in mine and "Refused" not in mine
    client.force_login(supervisor)
    log = client.get(f"/cases/{cbi_case.pk}/custody/").content.decode()
    assert "Refused case number</strong> P-26-0042: new case" in log and "contractor" in log
