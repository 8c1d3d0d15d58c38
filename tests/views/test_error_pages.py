"""Error pages say what happened in words, never a traceback."""

import pytest

from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db


def test_404_page(client, reviewer):
    client.force_login(reviewer)
    response = client.get("/cases/999999/")
    assert response.status_code == 404
    assert "There is no such page, or you may not see it." in response.content.decode()


def test_403_page_gives_the_services_reason(client, reviewer, supervisor):
    case = make_submission()
    assessment = make_assessment(case, reviewer)
    client.force_login(supervisor)
    response = client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": "photoresist-2010"})
    assert response.status_code == 403
    assert "Only the assessment&#x27;s engineer can change it" in response.content.decode()


def test_500_page_has_no_traceback(client, reviewer, settings):
    from django.test import Client

    raising = Client(raise_request_exception=False)
    raising.force_login(reviewer)
    from unittest import mock

    with mock.patch("assessments.views.selectors.submission_search", side_effect=RuntimeError("boom")):
        response = raising.get("/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "Traceback" not in body and "boom" not in body
