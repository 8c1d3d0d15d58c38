"""The API's import takes a case export up to the import's own limit (20 MB, sealed PDFs and
all), above the 2.5 MB Django allows a page's form, and refuses a longer body unread, in the
import's words."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from assessments import transfer
from assessments.models import Submission
from tests.conftest import make_submission, make_user

from .conftest import Api, make_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(django_user_model):
    user = make_user(django_user_model, "ada", cbi=True)
    django_user_model.objects.filter(pk=user.pk).update(is_superuser=True, is_staff=True)
    user.refresh_from_db()
    return user


def test_an_export_larger_than_a_form_may_be_is_imported(client, admin):
    case = make_submission(submitter="Big Export Co")
    document = json.dumps(transfer.case_export(case_number=case.case_number))
    Submission.objects.filter(pk=case.pk).delete()
    body = (document + " " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)).encode()
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < len(body) < transfer.MAX_FILE_BYTES
    response = Api(client, make_token(admin)).post("/api/v1/cases/import", raw=body)
    assert response.status_code == 201, response.content
    assert Submission.objects.get(case_number=case.case_number).submitter == "Big Export Co"


def test_a_body_beyond_the_imports_limit_is_refused_unread(client, admin):
    body = b" " * (transfer.MAX_FILE_BYTES + 1)
    response = Api(client, make_token(admin)).post("/api/v1/cases/import", raw=body)
    assert response.status_code == 413
    assert response.json() == {"errors": {"__all__": "The request body is larger than 20 MB, more than any case "
                                                     "export: import refused, nothing was written."}}
