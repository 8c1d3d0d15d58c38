"""The home page lists the cases the user may see, newest first, with status and engineer."""

from datetime import timedelta

import pytest
from django.utils import timezone

from assessments.models import Status, Submission
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


def case_numbers(response) -> list[str]:
    return [case.case_number for case in response.context["page"].object_list]


def test_lists_cases_newest_first_with_latest_status_and_engineer(client, reviewer, supervisor):
    old = make_submission(case_number="P-20-0001")
    new = make_submission(case_number="P-21-0002")
    Submission.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))
    make_assessment(new, reviewer, revision=1, status=Status.DRAFT)
    make_assessment(new, supervisor, revision=2, status=Status.SUBMITTED)
    client.force_login(reviewer)
    response = client.get("/")
    assert case_numbers(response) == ["P-21-0002", "P-20-0001"]
    listed = response.context["page"].object_list
    assert (listed[0].latest_revision, listed[0].latest_status, listed[0].latest_engineer.username) == (
        2, "submitted", "sup")
    assert (listed[1].latest_revision, listed[1].latest_status, listed[1].latest_engineer) == (None, "none", None)
    html = response.content.decode()
    assert html.index("P-21-0002") < html.index("P-20-0001")
    assert "Submitted" in html and "<td>sup</td>" in html
    assert "No assessment yet" in html  # the older case has none


def test_cbi_case_hidden_from_uncleared_user(client, uncleared_reviewer):
    make_submission(case_number="P-26-0100")
    make_submission(case_number="P-26-0101", cbi_claims=["chemical_name"])
    client.force_login(uncleared_reviewer)
    response = client.get("/")
    assert case_numbers(response) == ["P-26-0100"]
    assert "P-26-0101" not in response.content.decode()


def test_cbi_case_listed_for_cleared_user(client, reviewer):
    make_submission(case_number="P-26-0101", cbi_claims=["chemical_name"])
    client.force_login(reviewer)
    assert case_numbers(client.get("/")) == ["P-26-0101"]


def test_cbi_case_page_is_404_for_uncleared_user(client, uncleared_reviewer, reviewer):
    case = make_submission(cbi_claims=["submitter"])
    client.force_login(uncleared_reviewer)
    assert client.get(f"/cases/{case.pk}/").status_code == 404
    client.force_login(reviewer)
    response = client.get(f"/cases/{case.pk}/")
    assert response.status_code == 200
    assert "[CBI]" in response.content.decode()


def test_case_list_is_paged_by_place(client, reviewer):
    """25 cases a page; the "Older" link leads to the rest (tests/cases/test_case_list_scale.py
    checks the paging in full)."""
    made = [make_submission().case_number for _ in range(27)]
    client.force_login(reviewer)
    first = client.get("/")
    assert case_numbers(first) == made[::-1][:25]
    page = first.context["page"]
    assert page.is_newest and not page.is_oldest
    assert case_numbers(client.get("/", {"after": str(page.older)})) == made[::-1][25:]


def test_an_old_numbered_page_link_shows_the_newest_page(client, reviewer):
    made = [make_submission().case_number for _ in range(27)]
    client.force_login(reviewer)
    response = client.get("/?page=2")
    assert response.status_code == 200
    assert case_numbers(response) == made[::-1][:25]


def test_login_then_home(client, reviewer):
    response = client.post("/accounts/login/", {"username": "rev", "password": "pw-for-tests-only"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200


def test_wrong_password_stays_on_login_with_message(client, reviewer):
    response = client.post("/accounts/login/", {"username": "rev", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_logout_needs_post_and_ends_session(client, reviewer):
    client.force_login(reviewer)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_case_page_shows_numbers_as_typed_not_as_python_floats(client, reviewer):
    case = make_submission(production_volume_kg_yr=5000.0, molecular_weight=200.0, vapour_pressure_torr=1e-6,
                           vapour_pressure_temp_c=20.0, use_concentration=0.15)
    client.force_login(reviewer)
    values = {f["name"]: f["value"] for g in client.get(f"/cases/{case.pk}/").context["header_groups"] for f in g["fields"]}
    assert (values["production_volume_kg_yr"], values["molecular_weight"], values["vapour_pressure_torr"],
            values["vapour_pressure_temp_c"], values["use_concentration"]) == ("5,000", "200", "1E-6", "20", "0.15")
