"""Every list page reads the case tables through an index, never whole (issue 33;
docs/performance.md): the home page with "My work", the case list's pages, searches (three
characters and more: trigram; one or two: the case numbers' prefix) and due filters, the
due-date list and the review queue, as a reviewer and as a supervisor.

PostgreSQL's planner chooses by the table's statistics, so the tables are filled as a team's
are after years (most cases approved long ago, each with its calendar; a few open, a few
due, a few with the clock stopped, a few with no calendar recorded yet) with enough rows
that reading a table whole costs more than its index, then analysed. No planner setting is
changed: a page whose index were missing would read the table whole, and the last test
shows it does.
"""

from __future__ import annotations

import json
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assessments.models import Assessment, Status, Submission
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from calendar_review.models import ReviewCalendar, refresh_case_due
from tests.conftest import make_user
from tests.database import postgresql_only
from tests.performance.conftest import portfolio_ledger_paused

# The seed is committed once a module, vacuumed and analysed as a live database is kept (so
# the dead rows and index entries that earlier tests' rolled-back inserts leave in a worker's
# database do not weigh on the plans: after tests/cases/test_case_list_scale.py they tipped
# lists to whole-table reads at 30,000 cases), and the database emptied (flushed) at the
# module's end, as after any transactional test. Each test runs in its own transaction.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres,
              postgresql_only("the plans are PostgreSQL's; SQLite has no planner statistics to speak of")]

CASES = 60_000  # one case every 3 hours: 20 years
OPEN_EVERY = 40  # one old case in 40 still open; every case of the last 120 days
CASE_TABLES = (Submission._meta.db_table, Assessment._meta.db_table, ReviewCalendar._meta.db_table)


@pytest.fixture(scope="module")
def years_of_cases(django_db_setup, django_db_blocker):
    """``CASES`` cases with their latest assessment and calendar, bulk-created as a team's
    tables hold them after years, then vacuumed and analysed; the reviewer and supervisor
    they belong to."""
    with django_db_blocker.unblock():
        User = get_user_model()
        reviewer = make_user(User, "plans-reviewer", group=REVIEWER_GROUP, cbi=True)
        supervisor = make_user(User, "plans-supervisor", group=SUPERVISOR_GROUP, cbi=True)
        with portfolio_ledger_paused():
            _seed(reviewer, supervisor)
        yield SimpleNamespace(reviewer=reviewer, supervisor=supervisor)
        call_command("flush", interactive=False, verbosity=0)


def _seed(reviewer, supervisor) -> None:
    now = timezone.now()
    cases = []
    for i in range(CASES):
        age = timedelta(hours=3 * (CASES - i))
        recent = age < timedelta(days=120)
        status = [Status.DRAFT, Status.SUBMITTED, Status.RETURNED][i % 3] if recent or i % OPEN_EVERY == 0 \
            else Status.APPROVED
        cases.append(Submission(
            case_number=f"{'L' if i % 500 == 0 else 'P'}-{i:05d}", submitter="Acme Photochemicals",
            case_name=f"Case {i}", chemical_name="Hafnium amide" if i == 4242 else f"Photoacid generator {i}",
            generic_name="Onium salt", production_volume_kg_yr=1000.0, use_description="Photoresist.",
            cbi_claims=["submitter"] if i % 20 == 0 else [], is_cbi=i % 20 == 0,
            latest_status=status, latest_revision=1, latest_engineer=reviewer,
        ))
    Submission.objects.bulk_create(cases, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Submission._meta.db_table} SET created_at = %s - (%s - id) * interval '3 hours'",
                       [now, cases[-1].pk])
    Assessment.objects.bulk_create(
        (Assessment(submission=case, revision=1, engineer=reviewer, status=case.latest_status,
                    **({"approved_by": supervisor, "approved_at": now} if case.latest_status == Status.APPROVED else {}))
         for case in cases), batch_size=2000)
    dates = dict(Submission.objects.values_list("pk", "created_at"))
    today = timezone.localdate()
    calendars = []
    for i, case in enumerate(cases):
        received = timezone.localdate(dates[case.pk])
        if (today - received).days < 20 or i % 25 == 3:
            continue  # not recorded yet
        calendars.append(ReviewCalendar(
            submission=case, received_on=received, period_days=90, due_on=received + timedelta(days=90),
            clock_stopped_on=received + timedelta(days=10) if i % 97 == 0 and case.latest_status != Status.APPROVED
            else None, assigned_engineer=reviewer if i % 2 else None))
    ReviewCalendar.objects.bulk_create(calendars, batch_size=2000)
    refresh_case_due()  # the cases' copies of their calendars (bulk_create skips the writer)
    with connection.cursor() as cursor:
        # As a live database is kept: vacuumed (dead rows gone, the trigram indexes' pending
        # lists merged) and analysed. (Autocommit: VACUUM runs outside a transaction.)
        for table in CASE_TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")


def plans(client, url: str) -> list[tuple[str, str]]:
    """``(sql, plan)`` of each query of the page that reads a case table: the plans
    PostgreSQL makes for them, as it would run them."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    found = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            sql = query["sql"]
            if sql.startswith("SELECT") and any(f'"{table}"' in sql for table in CASE_TABLES):
                cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
                found.append((sql, json.dumps(cursor.fetchone()[0])))
    return found


def scans(plan: str) -> list[tuple[str, str, str]]:
    """``(node type, table, index)`` of every scan of a case table in ``plan``."""
    found = []

    def walk(node):
        if node.get("Relation Name") in CASE_TABLES:
            found.append((node["Node Type"], node["Relation Name"], node.get("Index Name", "")))
        for child in node.get("Plans", ()):
            walk(child)

    for document in json.loads(plan):
        walk(document["Plan"])
    return found


def index_names(plan: str) -> set[str]:
    names = {index for _, _, index in scans(plan)}

    def walk(node):  # bitmap index scans name their index, not their table
        if node.get("Index Name"):
            names.add(node["Index Name"])
        for child in node.get("Plans", ()):
            walk(child)

    for document in json.loads(plan):
        walk(document["Plan"])
    return names


# Each list page, and the index it must read (besides the case list's own order, which
# every page of it reads).
LISTS = [
    ("/", "submission_engineer_due_first"),  # My work: the engineer's open cases, soonest due first
    ("/?oldest=1", "submission_newest_first"),
    ("/?q=hafnium", "submission_chemical_name_trgm"),
    # A short search reads the case numbers' prefix index, or their trigram index where the
    # planner reckons it cheaper (both read the matching entries, not the table).
    ("/?q=L-", ("submission_case_number_prefix", "submission_case_number_trgm")),
    ("/?q=L", ("submission_case_number_prefix", "submission_case_number_trgm")),
    ("/?status=submitted", "submission_status_newest_first"),
    ("/?due=overdue", ""),
    ("/?due=within", ""),
    ("/?due=stopped", "submission_clock_stopped"),
    ("/?due=none", "submission_newest_first"),
    ("/due/", "submission_open_due_first"),
    ("/due/?mine=1", "submission_engineer_due_first"),
]


@pytest.mark.parametrize("who", ["reviewer", "supervisor"])
def test_every_list_reads_the_case_tables_through_an_index(client, years_of_cases, who):
    client.force_login(getattr(years_of_cases, who))
    for url, index in LISTS:
        read = plans(client, url)
        assert read, url
        for sql, plan in read:
            found = scans(plan)
            assert found and all("Index" in node for node, _, _ in found if node != "Bitmap Heap Scan"), (url, sql, found)
        expected = (index,) if isinstance(index, str) else index
        if index:
            assert any(name in index_names(plan) for _, plan in read for name in expected), \
                (url, [index_names(p) for _, p in read])


def test_the_review_queue_reads_the_submitted_assessments_through_an_index(client, years_of_cases):
    supervisor = years_of_cases.supervisor
    client.force_login(supervisor)
    read = plans(client, "/review/")
    for sql, plan in read:
        assert all("Index" in node for node, _, _ in scans(plan) if node != "Bitmap Heap Scan"), (scans(plan), sql[:300])
    page_query = next(plan for sql, plan in read if "ORDER BY" in sql and "due_on" in sql.split("ORDER BY")[-1]
                      and "LIMIT 51" in sql)
    assert "submission_review_due_first" in index_names(page_query), page_query


def whole_reads(plan: str) -> list[str]:
    """The case tables ``plan`` may read whole: a sequential scan, or an index read from
    end to end with a filter (no index condition)."""
    found = []

    def walk(node):
        if node.get("Relation Name") in CASE_TABLES and (
            node["Node Type"] == "Seq Scan" or ("Index" in node["Node Type"] and "Index Cond" not in node
                                                and "Filter" in node)):
            found.append(f'{node["Node Type"]} on {node["Relation Name"]}')
        for child in node.get("Plans", ()):
            walk(child)

    for document in json.loads(plan):
        walk(document["Plan"])
    return found


def test_without_their_indexes_the_lists_read_a_case_table_whole(client, years_of_cases):
    supervisor = years_of_cases.supervisor
    """What the tests above would see if an index were missing: the index no longer read,
    and a case table read whole. (Each index is dropped inside a transaction rolled back
    at once.)"""
    client.force_login(supervisor)
    for index, url in [
        ("submission_open_due_first", "/due/"),
        ("submission_engineer_due_first", "/"),
        ("submission_case_number_prefix", "/?q=L-"),
        ("submission_clock_stopped", "/?due=stopped"),
        ("submission_review_due_first", "/review/"),
        ("assessment_returned_newest", "/"),
    ]:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f'DROP INDEX "{index}"')
            read = plans(client, url)
            transaction.set_rollback(True)
        assert not any(index in index_names(plan) for _, plan in read), (index, url)
        assert any(whole_reads(plan) for _, plan in read), (index, url, [scans(p) for _, p in read])
