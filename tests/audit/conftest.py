"""A CBI case as a team has it mid-review, and a case claimed nothing, made through the
services: revision 1 approved, revision 2 a draft with a computed use, a contact report.

Each is made for the test (``cbi``, ``plain``), or once a module (``shared_cases``) for a
module that only reads them: see that fixture."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from assessments import services, workflow
from assessments.models import Assessment
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from contacts import services as contact_services
from tests.conftest import make_submission, make_user

CLAIMED_NAME = "Tetrakis(ethylmethylamino)hafnium"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chromium/140 custody-test"
ADDRESS = "192.0.2.44"


def reviewed_case(reviewer, supervisor, **case_fields) -> dict:
    case = make_submission(**case_fields)
    first = services.assessment_start(submission=case, by=reviewer)
    use = services.scenario_add(assessment=first, by=reviewer, scenario_key="photoresist-2018")
    services.scenario_compute(scenario=use, by=reviewer)
    workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.", volume_reason="One stream.")
    workflow.assessment_approve(assessment=first, by=supervisor, comment="Agreed.")
    second = workflow.assessment_revise(assessment=Assessment.objects.get(pk=first.pk), by=reviewer)
    contact = contact_services.contact_report_create(
        submission=case, by=reviewer, assessments=[second],
        data={"contacted_at": timezone.now() - timedelta(hours=2), "direction": "called_by",
              "epa_name": "Riley Reviewer", "submitter_name": "Dana Chemist", "notes": "Two coats per wafer."},
    )
    return {"case": case, "first": Assessment.objects.get(pk=first.pk), "second": second,
            "use": second.scenarios.get(), "contact": contact}


def cbi_case(reviewer, supervisor) -> dict:
    return reviewed_case(
        reviewer, supervisor, case_number="P-26-0042", chemical_name=CLAIMED_NAME,
        submitter="Deposition Materials Supplier Inc.", cbi_claims=["chemical_name", "submitter"],
    )


def plain_case(reviewer, supervisor) -> dict:
    return reviewed_case(reviewer, supervisor, case_number="P-26-0043")


@pytest.fixture
def cbi(reviewer, supervisor) -> dict:
    return cbi_case(reviewer, supervisor)


@pytest.fixture
def plain(reviewer, supervisor) -> dict:
    return plain_case(reviewer, supervisor)


@pytest.fixture(scope="module")
def shared_cases(django_db_setup, django_db_blocker):
    """The reviewer and the supervisor of tests/conftest.py and both cases, made once a
    module (each case is computed and approved, its report drawn and sealed: most of a
    test's cost) inside a transaction rolled back at the module's end, as
    tests/views/test_permissions_matrix.py makes its own. Each test runs in a savepoint of
    it (pytest-django's transaction a test), so the rows a test writes, custody rows
    included, are undone before the next one. A module uses it by overriding ``reviewer``,
    ``supervisor``, ``cbi`` and ``plain`` with :func:`fresh` copies of these."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    with django_db_blocker.unblock(), transaction.atomic():
        reviewer = make_user(model, "rev", group=REVIEWER_GROUP, cbi=True)
        supervisor = make_user(model, "sup", group=SUPERVISOR_GROUP, cbi=True)
        yield {"reviewer": reviewer, "supervisor": supervisor,
               "cbi": cbi_case(reviewer, supervisor), "plain": plain_case(reviewer, supervisor)}
        transaction.set_rollback(True)


def fresh(value):
    """``value`` (a row, or a dict of rows) read again from the database: each test gets
    instances of its own, whatever an earlier test did to the shared ones in memory."""
    if isinstance(value, dict):
        return {key: fresh(row) for key, row in value.items()}
    return type(value).objects.get(pk=value.pk)
