"""Contact reports for tests, built through the ORM with explicit values (and the model's
own validation), as tests/conftest.py builds cases."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from contacts.models import ContactReport, ContactReportAssessment


def contact_data(**overrides) -> dict:
    data = {
        "contacted_at": timezone.now() - timedelta(days=1),
        "direction": "called_to",
        "epa_name": "Riley Reviewer",
        "epa_affiliation": "OPPT/CCD Engineering",
        "submitter_name": "Sam Submitter",
        "submitter_affiliation": "Acme Photochemicals",
        "phone": "+1 202 555 0100 ext. 12",
        "is_cbi": False,
        "notes": "Asked how the resist is applied; the submitter confirmed spin coating.",
    }
    data.update(overrides)
    return data


def make_contact(submission, by, *, assessments=(), **overrides) -> ContactReport:
    report = ContactReport(submission=submission, created_by=by, **contact_data(**overrides))
    report.full_clean()
    report.save()
    for assessment in assessments:
        ContactReportAssessment.objects.create(contact_report=report, assessment=assessment)
    return report
