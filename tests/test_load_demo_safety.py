"""``load_demo`` cannot harm real data. A probe showed ``load_demo --force``, on a database
with approved work, turning it back to draft, wiping its results, writing no history,
leaving the approve decisions behind, and rewriting users 1 to 4 by primary key (one of
them a superuser with the README's password). Now it refuses (exit status 2, nothing
written) with DEBUG and DEVELOPMENT off, or when the database holds anything but the demo
data as it makes it (computed, the sample case approved and revised: every historical
record of a demo case its own); it only adds missing demo users and cases, and matches
users by name, never by primary key.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from assessments import services, workflow
from assessments.models import Assessment, ReviewDecision, Scenario, Status, Submission
from assessments.roles import REVIEWER_GROUP
from calendar_review.services import calendar_update
from demo.management.commands import load_demo
from notices.models import Notice
from tests.conftest import make_submission, make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def debug(settings):
    settings.DEBUG = True  # a development machine, as scripts/run.sh serves the quick start


def person(name: str):
    return get_user_model().objects.get(username=name)


def cvd_use() -> Scenario:
    return Scenario.objects.get(assessment__submission__case_number="P-26-0042")


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def everything() -> dict:
    """Every row load_demo could touch, and the history."""
    User = get_user_model()
    return {
        "users": list(User.objects.order_by("pk").values()),
        "groups": sorted(User.groups.through.objects.values_list("user_id", "group_id")),
        "rows": [list(m.objects.order_by("pk").values()) for m in (Submission, Assessment, Scenario, ReviewDecision)],
        "history": [m.history.count() for m in (Submission, Assessment, Scenario, ReviewDecision)],
        "notices": Notice.objects.count(),
    }


def refused(*args: str, startswith: str) -> str:
    before = everything()
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert caught.value.returncode == 2
    assert str(caught.value).startswith(startswith), str(caught.value)
    assert everything() == before
    return str(caught.value)


NOT_DEMO = "load_demo refused: this database holds data other than the demo data as load_demo makes it ("


# DEBUG ---------------------------------------------------------------------------------------------


def test_load_demo_refuses_with_debug_off(settings):
    settings.DEBUG, settings.DEVELOPMENT = False, False
    refused(startswith=load_demo.NOT_DEBUG)
    assert not get_user_model().objects.exists()


def test_load_demo_force_refuses_with_debug_off_too(settings, debug):
    run()
    settings.DEBUG, settings.DEVELOPMENT = False, False
    refused("--force", startswith=load_demo.NOT_DEBUG)


def test_load_demo_loads_with_development_on_and_debug_off(settings):
    settings.DEBUG, settings.DEVELOPMENT = False, True  # as scripts/run.sh sets them
    assert run().startswith("Demo data loaded: 4 user(s), 2 case(s)")


# Real data is never touched ------------------------------------------------------------------------


def test_force_refuses_a_database_with_approved_work(debug):
    """The probe: demo data used for real work (the CBI case submitted and approved); then
    load_demo --force."""
    run()
    cvd = Assessment.objects.get(submission__case_number="P-26-0042")
    workflow.assessment_submit(assessment=cvd, by=person("reviewer"))
    workflow.assessment_approve(assessment=cvd, by=person("supervisor"), comment="Approved for real.")

    message = refused("--force", startswith=NOT_DEMO)
    assert "review decision (submit) of P-26-0042 r1" in message
    assert "review decision (approve) of P-26-0042 r1" in message
    cvd.refresh_from_db()
    assert cvd.status == Status.APPROVED and cvd.approved_by == person("supervisor")
    assert all(s.result is not None for s in cvd.scenarios.all())
    assert list(cvd.decisions.values_list("action", flat=True)) == ["submit", "approve"]


def test_force_refuses_a_demo_use_computed_again(debug):
    run()
    services.scenario_compute(scenario=cvd_use(), by=person("reviewer"))
    refused("--force", startswith=NOT_DEMO + f"use “{cvd_use().title}” of P-26-0042 r1)")


def test_force_refuses_a_use_added_to_a_demo_case(debug):
    run()
    cvd = Assessment.objects.get(submission__case_number="P-26-0042")
    services.scenario_add(assessment=cvd, by=person("reviewer"), scenario_key="cvd-2015", title="Second fab")
    refused("--force", startswith=NOT_DEMO + "use “Second fab” of P-26-0042 r1)")


def test_force_refuses_a_demo_use_deleted(debug):
    run()
    title = cvd_use().title
    services.scenario_delete(scenario=cvd_use(), by=person("reviewer"))
    refused("--force", startswith=NOT_DEMO + f"use “{title}” of P-26-0042 r1 (deleted))")


def test_force_refuses_a_demo_row_written_without_history(debug):
    """A write that skipped the history (``QuerySet.update()``) leaves the row unlike its
    latest historical record."""
    run()
    Assessment.objects.filter(submission__case_number="P-26-0042").update(notes="Typed in a database shell.")
    refused("--force", startswith=NOT_DEMO + "assessment P-26-0042 r1)")


def test_force_refuses_a_review_calendar_recorded_on_a_demo_case(debug):
    run()
    case = Submission.objects.get(case_number="P-26-0042")
    calendar_update(submission=case, by=person("supervisor"), received_on=timezone.localdate(case.created_at),
                    period_days=90)  # the day load_demo entered it
    refused("--force", startswith=NOT_DEMO + "review calendar of case P-26-0042)")


def test_force_never_rewrites_users_by_primary_key(debug, django_user_model):
    """A real installation whose users hold the primary keys the demo users once had."""
    people = [make_user(django_user_model, name, group=REVIEWER_GROUP) for name in ("jsmith", "akumar", "mlee", "tnguyen")]
    message = refused("--force", startswith=NOT_DEMO)
    assert "user jsmith" in message
    assert not django_user_model.objects.filter(username="admin").exists()
    for person in people:
        stored = django_user_model.objects.get(pk=person.pk)
        assert (stored.username, stored.password, stored.is_superuser) == (person.username, person.password, False)


def test_force_refuses_a_user_named_like_a_demo_user_but_not_one(debug, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="a-real-admins-long-password")
    message = refused("--force", startswith=NOT_DEMO)
    assert "user admin" in message
    assert django_user_model.objects.get(pk=admin.pk).check_password("a-real-admins-long-password")


def test_force_refuses_a_demo_user_whose_password_changed(debug):
    run()
    reviewer = get_user_model().objects.get(username="reviewer")
    reviewer.set_password("my-own-password-now")
    reviewer.save()
    refused("--force", startswith=NOT_DEMO + "user reviewer)")
    assert get_user_model().objects.get(username="reviewer").check_password("my-own-password-now")


def test_force_refuses_a_changed_demo_case(debug):
    run()
    case = Submission.objects.get(case_number="P-18-0123")
    services.submission_update(
        submission=case, by=person("reviewer"), data={"submitter": "Changed by a reviewer"}, cbi_claims=[],
        reason="The submitter's new name.",  # revision 1 is approved: a change is an amendment
    )
    refused("--force", startswith=NOT_DEMO + "case P-18-0123)")
    assert Submission.objects.get(case_number="P-18-0123").submitter == "Changed by a reviewer"


def test_force_refuses_a_case_entered_beside_the_demo(debug):
    run()
    make_submission(case_number="P-26-0001")
    refused("--force", startswith=NOT_DEMO + "case P-26-0001)")


def test_refuses_a_database_with_cases_but_no_user(debug):
    make_submission(case_number="P-26-0001")  # created_by is optional
    refused(startswith=NOT_DEMO + "case P-26-0001)")
    assert not get_user_model().objects.exists()


# What it still does ----------------------------------------------------------------------------------


def test_without_force_it_leaves_a_database_with_users_alone(debug):
    """scripts/run.sh runs load_demo at every start: the second start writes nothing and
    succeeds, whatever the reviewers did meanwhile."""
    run()
    make_submission(case_number="P-26-0001")
    before = everything()
    assert run() == load_demo.USERS_EXIST
    assert everything() == before


def test_force_adds_only_the_missing_demo_rows(debug):
    run()
    User = get_user_model()
    kept = {user.username: (user.pk, user.password) for user in User.objects.all()}
    cvd = Submission.objects.get(case_number="P-26-0042")
    Scenario.objects.filter(assessment__submission=cvd).delete()
    Assessment.objects.filter(submission=cvd).delete()
    cvd.delete()
    User.objects.filter(username="contractor").delete()
    records_before = [m.history.count() for m in (Submission, Assessment, Scenario, ReviewDecision)]

    assert run("--force") == (
        "Demo data loaded: 1 user(s), 1 case(s), every use computed: P-26-0042 (revision 1 a draft)."
    )
    again = Submission.objects.get(case_number="P-26-0042")
    (created,) = again.history.all()  # a new row: the deleted one's records are its own
    assert (created.history_type, created.history_change_reason) == ("+", load_demo.HISTORY_REASON)
    assert again.assessments.get().engineer.username == "reviewer"
    added = [1, 1, 2, 0]  # the case, its revision, its use received and computed; no decision
    assert [m.history.count() for m in (Submission, Assessment, Scenario, ReviewDecision)] == [
        before + more for before, more in zip(records_before, added)]
    for name, (pk, password) in kept.items():
        if name != "contractor":
            assert (User.objects.get(username=name).pk, User.objects.get(username=name).password) == (pk, password)
    assert run("--force") == load_demo.NOTHING_MISSING
    assert User.objects.get(username="contractor").check_password("contractor-demo-2026")  # as README prints


def test_demo_users_are_matched_by_name_not_primary_key(debug, django_user_model):
    for name in ("a", "b", "c", "d", "e"):  # the first primary keys are used up
        make_user(django_user_model, f"gone-{name}")
    django_user_model.objects.all().delete()
    run()
    reviewer = django_user_model.objects.get(username="reviewer")
    assert reviewer.pk > 5
    assert set(Assessment.objects.values_list("engineer", flat=True)) == {reviewer.pk}
    assert set(Submission.objects.values_list("created_by", flat=True)) == {reviewer.pk}
    users = json.loads((FIXTURES / "demo_users.json").read_text(encoding="utf-8"))
    assert all("pk" not in record for record in users)


def test_the_quick_start_loads_then_keeps_the_demo_data(tmp_path):
    """What scripts/run.sh does, twice (a restart), on a new SQLite database."""
    env = {
        **os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings", "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run(manage + ["migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    first = subprocess.run(manage + ["load_demo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    second = subprocess.run(manage + ["load_demo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert (first.returncode, second.returncode) == (0, 0), first.stderr + second.stderr
    assert first.stdout.strip() == (
        "Demo data loaded: 4 user(s), 2 case(s), every use computed: "
        "P-18-0123 (revision 1 approved, revision 2 a draft), P-26-0042 (revision 1 a draft)."
    )
    assert second.stdout.strip() == load_demo.USERS_EXIST
