"""The quick start's demo data loads, and each demo user sees what their role allows.
(What ``load_demo`` refuses, to protect real data: ``tests/test_load_demo_safety.py``.)"""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from assessments.models import Assessment, Scenario, Submission
from demo.management.commands import load_demo

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

DEMO_PASSWORDS = {  # as printed in README.md
    "reviewer": "reviewer-demo-2026",
    "supervisor": "supervisor-demo-2026",
    "admin": "admin-demo-2026",
    "contractor": "contractor-demo-2026",
}


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # load_demo runs only on a development machine (DEBUG or DEVELOPMENT on)
    call_command("load_demo")


def test_demo_data_loads_with_history(demo):
    assert Submission.objects.count() == 2
    # the sample case's revisions 1 (approved) and 2 (a draft), the CBI case's revision 1; a use each
    assert Assessment.objects.count() == 3 and Scenario.objects.count() == 3
    sample = Submission.objects.get(case_name="Example Photoresist Use IRER")
    # spec/irer.md, "The sample as numbers"
    assert (sample.production_volume_kg_yr, sample.volume_qualifier, sample.use_concentration) == (5000, "import_only", 0.15)
    assert (sample.molecular_weight, sample.vapour_pressure_torr, sample.vapour_pressure_temp_c) == (200, 1e-6, 20)
    assert (sample.pbt_rating, sample.is_cbi) == ("P2B1T", False)
    assert sample.history.count() == 1  # received; the review changes its revisions, not the case


def test_every_record_of_the_demo_cases_fixture_is_loaded():
    """Each assessment and use of ``fixtures/demo_cases.json`` belongs to one of its cases
    (``load_demo`` loads the fixture case by case)."""
    records = json.loads((FIXTURES / "demo_cases.json").read_text(encoding="utf-8"))
    by_case = load_demo.demo_case_records(records)
    assert sorted(by_case) == ["P-18-0123", "P-26-0042"]
    assert sorted(id(record) for rows in by_case.values() for record in rows) == sorted(map(id, records))


def test_the_demo_review_names_demo_users_and_a_demo_case():
    users = {record["fields"]["username"] for record in json.loads((FIXTURES / "demo_users.json").read_text())}
    review = json.loads((FIXTURES / "demo_review.json").read_text(encoding="utf-8"))
    assert {review[step]["by"] for step in ("submit", "approve", "revise")} <= users
    cases = json.loads((FIXTURES / "demo_cases.json").read_text(encoding="utf-8"))
    assert review["case_number"] in load_demo.demo_case_records(cases)


def test_load_demo_does_not_overwrite_existing_data(demo):
    Submission.objects.filter(case_number="P-18-0123").update(submitter="Changed by a reviewer")
    call_command("load_demo")
    assert Submission.objects.get(case_number="P-18-0123").submitter == "Changed by a reviewer"


@pytest.mark.parametrize("username,visible", [
    ("reviewer", {"P-18-0123", "P-26-0042"}),
    ("supervisor", {"P-18-0123", "P-26-0042"}),
    ("admin", {"P-18-0123", "P-26-0042"}),
    ("contractor", {"P-18-0123"}),
])
def test_demo_user_logs_in_and_sees_their_cases(demo, client, username, visible):
    response = client.post("/accounts/login/", {"username": username, "password": DEMO_PASSWORDS[username]})
    assert response.status_code == 302, f"{username} could not log in with the README's password"
    listed = {case.case_number for case in client.get("/").context["page"].object_list}
    assert listed == visible
