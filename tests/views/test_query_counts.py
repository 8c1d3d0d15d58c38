"""The number of database queries a page makes does not grow with the number of rows.

Each page is requested once with a few rows behind it (3 cases, 3 uses in the
assessment, 3 review decisions, 3 revisions of the case), then again after the rows
grew tenfold (30 of each). A per-row query (an "N+1") makes the second count larger.
The counts are also capped, so that a page that is merely expensive is noticed too.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assessments.esd import registry
from assessments.models import DecisionAction, ReviewDecision, Scenario, Status
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

# Generous ceilings: today's pages make 5 to 10 queries each (session, user,
# permissions, the page's own reads). Raising one is fine when a page needs it; a
# count that depends on the number of rows is not.
MAX_QUERIES = 20

RESULT = registry.compute("photoresist-2018", {"Qchem_yr": 5000}).as_dict()


class World:
    """A reviewer's assessment (the one the pages show) among other cases; ``grow``
    adds rows of every kind the pages list."""

    def __init__(self, reviewer, supervisor, *, status: str):
        self.reviewer = reviewer
        self.supervisor = supervisor
        self.case = make_submission()
        self.assessment = make_assessment(self.case, reviewer, revision=1, status=status)
        self.cases = self.scenarios = self.decisions = self.revisions = 0

    def grow(self, to: int) -> None:
        now = timezone.now()
        engineers = (self.reviewer, self.supervisor)
        for i in range(self.cases, to):
            other = make_submission(cbi_claims=["submitter"] if i % 3 == 0 else [])
            status = (Status.DRAFT, Status.SUBMITTED, Status.APPROVED)[i % 3]
            approved = {"approved_by": self.supervisor, "approved_at": now} if status == Status.APPROVED else {}
            make_assessment(other, engineers[i % 2], status=status, **approved)
        for i in range(self.scenarios, to):
            Scenario.objects.create(
                assessment=self.assessment, scenario_key="photoresist-2018", title=f"Use {i}", position=i,
                inputs={"Qchem_yr": 5000}, computed_inputs={} if i % 2 else {"Qchem_yr": 5000},
                result=RESULT if i % 4 else None, computed_at=now if i % 4 else None,
            )
        for i in range(self.decisions, to):
            forward = i % 2 == 0
            ReviewDecision.objects.create(
                assessment=self.assessment,
                action=DecisionAction.SUBMIT if forward else DecisionAction.RETURN,
                from_status=Status.DRAFT if forward else Status.SUBMITTED,
                to_status=Status.SUBMITTED if forward else Status.RETURNED,
                by=engineers[i % 2], comment=f"Decision {i}",
            )
        for i in range(self.revisions, to):
            # Earlier, approved revisions of the same case (revision numbers after 1
            # are free: the page's assessment keeps revision 1).
            make_assessment(self.case, self.supervisor, revision=i + 2, status=Status.APPROVED,
                            approved_by=self.supervisor, approved_at=now)
        self.cases = self.scenarios = self.decisions = self.revisions = to

    def pages(self) -> dict[str, str]:
        scenario = self.assessment.scenarios.filter(result__isnull=False).first()
        return {
            "case list": "/",
            "case list, searched": "/?q=P-26&status=draft&engineer=rev",
            "case page": f"/cases/{self.case.pk}/",
            "assessment page": f"/assessments/{self.assessment.pk}/",
            "results page": f"/scenarios/{scenario.pk}/",
        }


def query_counts(client, user, world: World) -> dict[str, int]:
    client.force_login(user)
    counts = {}
    for name, url in world.pages().items():
        client.get(url)  # warm per-process caches (content types, templates)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        counts[name] = len(queries)
    return counts


@pytest.fixture
def world(reviewer, supervisor):
    # The reviewer's own assessment, returned: the page shows the edit and submit
    # panels, which look at every use (uncomputed, stale).
    return World(reviewer, supervisor, status=Status.RETURNED)


@pytest.mark.parametrize("who", ["reviewer", "supervisor"])
def test_page_queries_do_not_grow_with_rows(client, world, who):
    user = getattr(world, who)
    world.grow(3)
    few = query_counts(client, user, world)
    world.grow(30)
    many = query_counts(client, user, world)
    assert many == few, f"queries per page, 3 rows -> 30 rows: {few} -> {many}"
    assert max(many.values()) <= MAX_QUERIES, many


def test_case_list_shows_a_full_page_of_thirty_cases(client, world):
    """The 30-row count above is measured on a full page (25 cases), not a short one."""
    world.grow(30)
    client.force_login(world.reviewer)
    assert len(client.get("/").context["page"].object_list) == 25
