"""The quick start's demo data loads, and each demo user sees what their role allows.
(What ``load_demo`` refuses, to protect real data: ``tests/test_load_demo_safety.py``.)"""

import pytest
from django.core.management import call_command

from assessments.models import Assessment, Scenario, Submission

pytestmark = pytest.mark.django_db

DEMO_PASSWORDS = {  # as printed in README.md
    "reviewer": "reviewer-demo-2026",
    "supervisor": "supervisor-demo-2026",
    "admin": "admin-demo-2026",
    "contractor": "contractor-demo-2026",
}


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # load_demo runs only with DEBUG on (as scripts/run.sh serves)
    call_command("load_demo")


def test_demo_data_loads_with_history(demo):
    assert Submission.objects.count() == 2
    assert Assessment.objects.count() == 2 and Scenario.objects.count() == 2
    sample = Submission.objects.get(case_name="Example Photoresist Use IRER")
    # spec/irer.md, "The sample as numbers"
    assert (sample.production_volume_kg_yr, sample.volume_qualifier, sample.use_concentration) == (5000, "import_only", 0.15)
    assert (sample.molecular_weight, sample.vapour_pressure_torr, sample.vapour_pressure_temp_c) == (200, 1e-6, 20)
    assert (sample.pbt_rating, sample.is_cbi) == ("P2B1T", False)
    assert sample.history.count() == 1


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
