"""An imported approved revision is what the application approved, not what the file says
it approved: its ``case_snapshot`` (the case as approved, which its IRER prints) is checked
against the case the file carries, and follows the number the case is imported under; no
approval, result or contact report is dated after the export, a use under review after its
submission, a contact report of an approved revision after that approval. Each refusal
exits 2, names the place in the file and what was expected, and writes nothing.

The case is the one of ``tests/test_export_import.py`` (revision 1 approved with the case
at PV 5,000 kg/yr and claims on the chemical name and the submitter; revision 2 a draft).
"""

from __future__ import annotations

import copy
import html
import json
import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from assessments import services
from assessments.models import Assessment, Submission
from assessments.reports.context import irer_context
from assessments.reports.render import irer_html
from tests._review_support import toy_engine
from tests.test_export_import import (
    OTHER_CASE,
    case,
    elsewhere,
    export,
    exported,
    import_file,
    people,
    write,
)
from tests.test_import_hostile import refused, sent

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

__all__ = ["case", "exported", "people", "sent", "toy_engine"]  # fixtures used by name


def printed(assessment: Assessment) -> str:
    """The IRER's text as a reader sees it: tags dropped, entities read, spaces joined."""
    page = irer_html(irer_context(assessment=assessment, sanitised=False), for_pdf=False)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def first_revision(case_number: str) -> Assessment:
    return Assessment.objects.get(submission__case_number=case_number, revision=1)


def approval(document: dict) -> tuple[str, str]:
    """Revision 1's approval time and its case's last save, as the file has them."""
    return document["assessments"][0]["approved_at"], document["case"]["updated_at"]


# The case as approved -----------------------------------------------------------------------------


def test_the_probes_forged_production_volume_is_refused(sent, tmp_path):
    sent["assessments"][0]["case_snapshot"]["production_volume_kg_yr"] = 999999
    approved_at, updated_at = approval(sent)
    refused(
        tmp_path, sent,
        f"assessments[0].case_snapshot.production_volume_kg_yr: revision 1 was approved at {approved_at} and the "
        f"case has not changed since (last saved at {updated_at}), so the case as approved is the case: 5000.0, "
        "not 999999.0 as the file has it",
    )


@pytest.mark.parametrize("field, value", [
    ("submitter", "Someone Else Inc."),
    ("chemical_name", "A harmless name"),
    ("molecular_weight", 100.0),
    ("case_name", ""),
])
def test_any_field_of_the_case_as_approved_must_be_the_cases(sent, tmp_path, field, value):
    sent["assessments"][0]["case_snapshot"][field] = value
    message = refused(tmp_path, sent, startswith=f"assessments[0].case_snapshot.{field}: revision 1 was approved at ")
    assert "the case as approved is the case" in message


def test_a_claim_left_out_of_the_case_as_approved_is_refused(sent, tmp_path):
    sent["assessments"][0]["case_snapshot"]["cbi_claims"] = ["submitter"]
    message = refused(tmp_path, sent, startswith="assessments[0].case_snapshot.cbi_claims: revision 1 was approved at ")
    assert message.endswith('["chemical_name", "submitter"], not ["submitter"] as the file has it')


def test_a_field_left_out_of_the_case_as_approved_is_read_as_its_default_and_refused(sent, tmp_path):
    del sent["assessments"][0]["case_snapshot"]["molecular_weight"]
    message = refused(tmp_path, sent, startswith="assessments[0].case_snapshot.molecular_weight: revision 1 was approved")
    assert message.endswith("562.4, not null as the file has it")


def test_a_null_case_as_approved_on_an_approved_revision_is_refused(sent, tmp_path):
    sent["assessments"][0]["case_snapshot"] = None
    refused(
        tmp_path, sent,
        "assessments[0].case_snapshot: revision 1 is approved, so it keeps the case as it was approved (a JSON "
        "object of the case's fields); the file has null",
    )


def test_a_file_from_before_the_case_as_approved_existed_takes_the_cases_data(sent, tmp_path):
    del sent["assessments"][0]["case_snapshot"]  # exported before migration 0012
    import_file(write(tmp_path, sent))
    assert first_revision(OTHER_CASE).case_snapshot["production_volume_kg_yr"] == 5000.0


def test_an_untampered_export_travels_with_its_case_as_approved(sent, tmp_path):
    import_file(write(tmp_path, sent))
    text = printed(first_revision(OTHER_CASE))
    assert "PV (kg/yr): 5,000" in text and "999,999" not in text


def test_a_case_amended_after_the_approval_keeps_the_case_as_approved(case, people, tmp_path):
    """The file cannot say what the case was when revision 1 was approved, once it has been
    amended since: the snapshot then travels as the application wrote it."""
    services.submission_update(
        submission=case, by=people["engineer"], data={"production_volume_kg_yr": 6000.0},
        cbi_claims=case.cbi_claims, reason="Amended notice: 6,000 kg/yr.",
    )
    document = elsewhere(json.loads(export("P-26-0777")), people=people)
    import_file(write(tmp_path, document))
    imported = Submission.objects.get(case_number=OTHER_CASE)
    assert imported.production_volume_kg_yr == 6000.0
    assert first_revision(OTHER_CASE).case_snapshot["production_volume_kg_yr"] == 5000.0
    assert "PV (kg/yr): 5,000" in printed(first_revision(OTHER_CASE))


# The case number -------------------------------------------------------------------------------


def test_an_export_imported_under_a_new_number_is_headed_with_the_new_number(case, people, tmp_path):
    document = json.loads(export("P-26-0777"))
    document["case"]["case_number"] = "P-26-0779"  # the case under a new number; nothing else changed
    import_file(write(tmp_path, document))
    first = first_revision("P-26-0779")
    assert first.case_snapshot["case_number"] == "P-26-0779"
    text = printed(first)
    assert "P-26-0779" in text and "P-26-0777" not in text


def test_a_forged_number_in_the_case_as_approved_is_replaced_by_the_cases(sent, tmp_path):
    sent["assessments"][0]["case_snapshot"]["case_number"] = "P-99-0001"
    import_file(write(tmp_path, sent))
    assert first_revision(OTHER_CASE).case_snapshot["case_number"] == OTHER_CASE
    assert "P-99-0001" not in printed(first_revision(OTHER_CASE))


# Times: nothing after the export, no use computed after its submission ------------------------------


def test_an_approval_dated_after_the_export_is_refused(sent, tmp_path):
    later = (timezone.now() + timedelta(days=365)).isoformat()
    first = sent["assessments"][0]
    first["approved_at"] = first["decisions"][-1]["at"] = later
    refused(
        tmp_path, sent,
        f"assessments[0].approved_at: is {later}, later than the export was made ({sent['exported_at']}): "
        "nothing in a case export happened after its export",
    )


def test_a_decision_dated_after_the_export_is_refused(sent, tmp_path):
    del sent["exported_at"]
    later = (timezone.now() + timedelta(days=2)).isoformat()
    sent["assessments"][1]["created_at"] = sent["assessments"][1]["updated_at"] = later
    refused(tmp_path, sent, startswith=f"assessments[1].created_at: is {later}, later than the import (")


def test_an_export_dated_in_the_future_is_refused(sent, tmp_path):
    later = (timezone.now() + timedelta(days=365)).isoformat()
    sent["exported_at"] = later
    refused(tmp_path, sent, startswith=f"exported_at: is {later}, later than now (")


def test_a_use_computed_after_its_revision_was_submitted_is_refused(sent, tmp_path):
    first = sent["assessments"][0]
    submitted_at = [d for d in first["decisions"] if d["action"] == "submit"][-1]["at"]
    first["scenarios"][0]["computed_at"] = first["approved_at"]
    refused(
        tmp_path, sent,
        f"assessments[0].scenarios[0].computed_at: is {first['approved_at']}, after revision 1 was last submitted "
        f"for review ({submitted_at}): a use under review is not computed again",
    )


# Contact reports of an approved revision --------------------------------------------------------


@pytest.fixture
def with_contact(case, people):
    """The case's export with a contact report that applies to revision 1, made during its review."""
    document = json.loads(export("P-26-0777"))
    first = Assessment.objects.get(submission=case, revision=1)
    row = {
        "contacted_at": first.created_at.isoformat(), "direction": "called_to", "epa_name": "Riley Reviewer",
        "epa_affiliation": "OPPT", "submitter_name": "Sam", "submitter_affiliation": "Acme", "phone": "",
        "is_cbi": False, "notes": "During the review.", "created_by": "jsmith",
        "created_at": first.created_at.isoformat(), "updated_at": first.created_at.isoformat(), "version": 1,
        "revisions": [1],
    }
    document["contact_reports"] = [row]
    document["case"]["case_number"] = "P-26-0779"
    return document


def test_a_contact_report_of_an_approved_revision_made_before_the_approval_travels(with_contact, tmp_path):
    import_file(write(tmp_path, with_contact))
    assert first_revision("P-26-0779").contact_reports.count() == 1


def test_a_contact_report_changed_after_the_approval_of_its_revision_is_refused(with_contact, tmp_path):
    document = copy.deepcopy(with_contact)
    approved_at = document["assessments"][0]["approved_at"]
    approved, exported_at = datetime.fromisoformat(approved_at), datetime.fromisoformat(document["exported_at"])
    later = (approved + (exported_at - approved) / 2).isoformat()  # after the approval, before the export
    document["contact_reports"][0]["updated_at"] = later
    refused(
        tmp_path, document,
        f"contact_reports[0].updated_at: is {later}, after revision 1, which it applies to, was approved "
        f"({approved_at}): a contact report of an approved revision is final",
    )
