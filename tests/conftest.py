"""Shared fixtures: users in each role and cases to look at.

Factories build rows directly through the ORM with explicit values; demo fixtures
(``fixtures/``) are loaded only by the test that checks them, never used as oracles.
"""

from __future__ import annotations

import io
import itertools

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from assessments.models import Assessment, Submission, refresh_latest_assessment
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP

_case_numbers = itertools.count(1)


def make_user(django_user_model, username: str, *, group: str | None = None, cbi: bool = False, **extra):
    user = django_user_model.objects.create_user(username=username, password="pw-for-tests-only", **extra)
    if group:
        user.groups.add(Group.objects.get(name=group))
    if cbi:
        user.user_permissions.add(Permission.objects.get(codename="view_cbi", content_type__app_label="assessments"))
    return user


@pytest.fixture
def reviewer(django_user_model):
    """A reviewer cleared for CBI."""
    return make_user(django_user_model, "rev", group=REVIEWER_GROUP, cbi=True)


@pytest.fixture
def uncleared_reviewer(django_user_model):
    """A reviewer without CBI clearance (e.g. a contractor)."""
    return make_user(django_user_model, "contractor", group=REVIEWER_GROUP)


@pytest.fixture
def supervisor(django_user_model):
    return make_user(django_user_model, "sup", group=SUPERVISOR_GROUP, cbi=True)


def admin_case_post(client, case: Submission, **changes) -> tuple[str, dict]:
    """The admin's change page of ``case`` and the form as the page fills it, with
    ``changes``: what a superuser who changes those fields posts."""
    url = f"/admin/assessments/submission/{case.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and not isinstance(value, (list, dict))}
    data |= {"cbi_claims": "[]", "case_type": case.case_type, "physical_state": case.physical_state}
    return url, data | changes


def make_submission(**overrides) -> Submission:
    fields = {
        "case_number": f"P-26-{next(_case_numbers):04d}",
        "submitter": "Acme Photochemicals",
        "chemical_name": "2-Example-ethyl photoacid",
        "generic_name": "Substituted onium salt",
        "production_volume_kg_yr": 5000.0,
        "use_description": "Component of a photoresist.",
    }
    fields.update(overrides)
    return Submission.objects.create(**fields)


def make_assessment(submission: Submission, engineer, **overrides) -> Assessment:
    """An assessment as given, and its case's copy of the latest assessment brought up to
    date, as every writer of assessments does (``models.refresh_latest_assessment``)."""
    assessment = Assessment.objects.create(submission=submission, engineer=engineer, **overrides)
    refresh_latest_assessment(submission_ids=[submission.pk])
    return assessment


@pytest.fixture
def demo_data(settings) -> None:
    """The demo data (``manage.py load_demo``), as a newcomer's quick start loads it."""
    settings.DEBUG = True  # load_demo runs only on a development machine
    call_command("load_demo", stdout=io.StringIO())
