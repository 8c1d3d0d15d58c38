import pytest

from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from tests._review_support import toy_engine
from tests.conftest import make_user


@pytest.fixture
def engineer(django_user_model):
    return make_user(django_user_model, "eng", group=REVIEWER_GROUP, cbi=True, email="eng@example.gov",
                     first_name="Ed", last_name="Engineer")


@pytest.fixture
def boss(django_user_model):
    return make_user(django_user_model, "boss", group=SUPERVISOR_GROUP, cbi=True, email="boss@example.gov",
                     first_name="Bea", last_name="Boss")


@pytest.fixture
def boss_no_email(django_user_model):
    return make_user(django_user_model, "boss-noemail", group=SUPERVISOR_GROUP, cbi=True)


@pytest.fixture
def boss_uncleared(django_user_model):
    return make_user(django_user_model, "boss-nocbi", group=SUPERVISOR_GROUP, email="nocbi@example.gov")


@pytest.fixture
def mail_on_commit(django_capture_on_commit_callbacks):
    """Run the emails queued for after the commit (the tests run inside one transaction)."""
    def run(action):
        with django_capture_on_commit_callbacks(execute=True):
            return action()
    return run


@pytest.fixture
def other_reviewer_cbi(django_user_model):
    return make_user(django_user_model, "rev2", group=REVIEWER_GROUP, cbi=True)
