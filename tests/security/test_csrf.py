"""CSRF protection is on: a POST without the token is refused (with the check enforced,
as a browser's request is; Django's test client skips it by default)."""

from __future__ import annotations

import pytest
from django.test import Client

from assessments.models import Submission

pytestmark = pytest.mark.django_db


def test_post_without_csrf_token_refused(reviewer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    response = client.post("/cases/new/", {"case_number": "P-26-9999", "submitter": "Acme"})
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert not Submission.objects.filter(case_number="P-26-9999").exists()


def test_login_post_without_csrf_token_refused(reviewer):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "rev", "password": "pw-for-tests-only"})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_post_with_csrf_token_accepted(reviewer):
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    token = client.cookies["csrftoken"].value
    response = client.post("/accounts/login/", {"username": "rev", "password": "pw-for-tests-only",
                                                "csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_csrf_middleware_is_installed(settings):
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE
