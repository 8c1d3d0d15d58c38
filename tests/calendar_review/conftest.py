from datetime import timedelta

import pytest
from django.utils import timezone

from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from calendar_review import services
from tests.conftest import make_submission, make_user


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def other_reviewer(django_user_model):
    return make_user(django_user_model, "rev2", group=REVIEWER_GROUP, cbi=True, first_name="Rita", last_name="Okafor")


@pytest.fixture
def uncleared_supervisor(django_user_model):
    return make_user(django_user_model, "sup-nocbi", group=SUPERVISOR_GROUP)


@pytest.fixture
def case():
    return make_submission()


@pytest.fixture
def cbi_case():
    return make_submission(cbi_claims=["chemical_name"])


def received(case, *, days_ago: int, period: int = 90, by):
    """Record ``case`` as received ``days_ago`` days ago."""
    return services.calendar_update(
        submission=case, by=by, received_on=timezone.localdate() - timedelta(days=days_ago), period_days=period
    )
