"""A CBI case as a team has it mid-review, and a case claimed nothing, made through the
services: revision 1 approved, revision 2 a draft with a computed use, a contact report."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from assessments import services, workflow
from assessments.models import Assessment
from contacts import services as contact_services
from tests.conftest import make_submission

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


@pytest.fixture
def cbi(reviewer, supervisor) -> dict:
    return reviewed_case(
        reviewer, supervisor, case_number="P-26-0042", chemical_name=CLAIMED_NAME,
        submitter="Deposition Materials Supplier Inc.", cbi_claims=["chemical_name", "submitter"],
    )


@pytest.fixture
def plain(reviewer, supervisor) -> dict:
    return reviewed_case(reviewer, supervisor, case_number="P-26-0043")
