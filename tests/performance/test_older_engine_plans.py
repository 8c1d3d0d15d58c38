"""The lists' mark of a revision with a use computed by an older engine reads the uses
through their index, a page's rows at a time, however many cases and uses there are
(issue 42; ``assessments/engine_marks.py::open_uses_by_older_engine``).

The mark is one ``EXISTS`` in each list's own query. PostgreSQL may plan an ``EXISTS`` in
the select list as a hashed subplan, reading every stored result of every case to build its
hash before the page's first row, when it expects many rows (the case list: every case);
the condition on the outer row alone (the case's latest revision is not approved) is what
stops it. Here the tables hold a few thousand cases, each with its uses (enough for the
planner to prefer the hash without that condition, the last test shows), vacuumed and
analysed; no planner setting is changed.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.models import Exists, OuterRef
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assessments.engine_marks import computed_by_older_engine
from assessments.models import Assessment, Scenario, Status, Submission, refresh_latest_assessment
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from calendar_review.models import refresh_case_due
from tests.conftest import make_user
from tests.database import postgresql_only
from tests.performance.conftest import portfolio_ledger_paused

pytestmark = [pytest.mark.django_db, pytest.mark.postgres,
              postgresql_only("the plans are PostgreSQL's; SQLite has no planner statistics to speak of")]

CASES = 6_000
OPEN_EVERY = 20  # one case in 20 open (draft, submitted or returned), the rest approved
USES = 2
SCENARIO_TABLE = Scenario._meta.db_table
#: Each list page, as the reviewer and the supervisor open it.
LISTS = ["/", "/?oldest=1", "/?status=draft", "/?due=within", "/due/", "/due/?mine=1"]


@pytest.fixture(scope="module")
def cases_with_uses(django_db_setup, django_db_blocker):
    """``CASES`` cases, each with its latest revision and ``USES`` uses (one in three stored
    by an earlier engine), committed, vacuumed and analysed; emptied at the module's end."""
    with django_db_blocker.unblock():
        User = get_user_model()
        reviewer = make_user(User, "marks-reviewer", group=REVIEWER_GROUP, cbi=True)
        supervisor = make_user(User, "marks-supervisor", group=SUPERVISOR_GROUP, cbi=True)
        with portfolio_ledger_paused():
            _seed(reviewer, supervisor)
        yield SimpleNamespace(reviewer=reviewer, supervisor=supervisor)
        call_command("flush", interactive=False, verbosity=0)


def _seed(reviewer, supervisor) -> None:
    now = timezone.now()
    cases = Submission.objects.bulk_create(
        (Submission(case_number=f"P-{i:05d}", submitter="Acme", chemical_name=f"Photoacid {i}",
                    generic_name="Onium salt", production_volume_kg_yr=1000.0, use_description="Photoresist.")
         for i in range(CASES)), batch_size=2000)
    # Drafts first: the uses of an approved revision cannot be added (the database's triggers).
    assessments = Assessment.objects.bulk_create(
        (Assessment(submission=case, revision=1, engineer=reviewer) for case in cases), batch_size=2000)
    trace = [{"symbol": f"E{k}", "value": 1.0, "units": "kg", "equation": "a × b", "citation": "ESD"} for k in range(40)]
    Scenario.objects.bulk_create(
        (Scenario(assessment=assessment, scenario_key="photoresist-2018", title=f"Use {n}", position=n,
                  inputs={}, computed_inputs={}, computed_at=now,
                  result={"engine_version": "1.1.0" if (assessment.pk + n) % 3 == 0 else "1.2.0",
                          "releases": [], "exposures": [], "trace": trace})
         for assessment in assessments for n in range(USES)), batch_size=2000)
    approved = [a.pk for i, a in enumerate(assessments) if i % OPEN_EVERY]
    Assessment.objects.filter(pk__in=approved).update(status=Status.APPROVED, approved_by=supervisor, approved_at=now)
    opened = [a.pk for i, a in enumerate(assessments) if not i % OPEN_EVERY]
    for k, status in enumerate((Status.SUBMITTED, Status.RETURNED)):
        Assessment.objects.filter(pk__in=opened[k::3]).update(status=status)
    refresh_latest_assessment()
    refresh_case_due()
    with connection.cursor() as cursor:
        for model in (Submission, Assessment, Scenario):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")


def marked_queries(client, url: str) -> list[tuple[str, dict]]:
    """``(sql, plan)`` of each query of the page that marks its rows (reads the uses' engine
    version), as PostgreSQL plans it."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    found = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            if query["sql"].startswith("SELECT") and "engine_version" in query["sql"]:
                cursor.execute("EXPLAIN (FORMAT JSON) " + query["sql"])
                found.append((query["sql"], cursor.fetchone()[0][0]["Plan"]))
    return found


def scenario_reads(plan: dict) -> list[str]:
    """How ``plan`` reads the uses' table: each scan's node type."""
    found = []

    def walk(node: dict) -> None:
        if node.get("Relation Name") == SCENARIO_TABLE:
            found.append(node["Node Type"])
        for child in node.get("Plans", ()):
            walk(child)

    walk(plan)
    return found


@pytest.mark.parametrize("who", ["reviewer", "supervisor"])
def test_every_list_marks_its_rows_through_the_uses_index(client, cases_with_uses, who):
    client.force_login(getattr(cases_with_uses, who))
    for url in LISTS:
        read = marked_queries(client, url)
        assert read, url
        for sql, plan in read:
            reads = scenario_reads(plan)
            assert reads and all("Index" in node for node in reads), (url, reads, sql[-600:])
    html = client.get("/").content.decode()
    assert "older-engine-mark" in html


def test_without_the_outer_condition_the_mark_reads_every_use(cases_with_uses):
    """What the test above would see if the ``EXISTS`` were the plain one: the uses' table
    read whole, to build a hash, before the first case of the page."""
    plain = Exists(Scenario.objects.filter(computed_by_older_engine(), assessment__submission=OuterRef("pk"),
                                           assessment__revision=OuterRef("latest_revision")))
    cases = Submission.objects.annotate(older_engine=plain).order_by("-created_at", "-id")[:26]
    sql, params = cases.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0][0]["Plan"]
    assert "Seq Scan" in scenario_reads(plan), json.dumps(plan)[:2000]
