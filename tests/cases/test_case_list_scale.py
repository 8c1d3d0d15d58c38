"""The case list at 100,000 cases (docs/performance.md): each case's copy of its latest
assessment (``Submission.LATEST_FIELDS``), the status filter and the review queue's count
that read it, the text search, and paging by place instead of by number.

The oracles are the definitions these replaced, kept here as they were (subqueries over
the assessments, read at the time of the check), and the rows each test wrote.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assessments import review, selectors, services, transfer, workflow
from assessments.case_list import CASES_PER_PAGE
from assessments.models import NO_ASSESSMENT, Assessment, Status, Submission
from assessments.roles import SUPERVISOR_GROUP, is_supervisor
from tests._review_support import (
    add_computed_scenario,
    approved,
    other_supervisor,
    submitted,
    toy_engine,
)
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

NOW = timezone.now()


# The definitions the copy replaced ---------------------------------------------------------------


def old_latest(case: Submission) -> tuple:
    """(status, revision, engineer id) of the case's highest revision, read from the assessments."""
    latest = Assessment.objects.filter(submission_id=case.pk).order_by("-revision").first()
    return (NO_ASSESSMENT, None, None) if latest is None else (latest.status, latest.revision, latest.engineer_id)


def stored_latest(case: Submission) -> tuple:
    case = Submission.objects.get(pk=case.pk)
    return case.latest_status, case.latest_revision, case.latest_engineer_id


def old_status_filter(cases, status: str):
    """``selectors.submission_search``'s status filter before the copy: EXISTS subqueries."""
    if status == NO_ASSESSMENT:
        return cases.filter(~Exists(Assessment.objects.filter(submission=OuterRef("pk"))))
    later = Assessment.objects.filter(submission=OuterRef("submission"), revision__gt=OuterRef("revision"))
    latest_with_status = Assessment.objects.filter(submission=OuterRef("pk"), status=status).exclude(Exists(later))
    return cases.filter(Exists(latest_with_status))


def old_queue_count(user) -> int:
    """``review.review_queue_count`` before the copy: the submitted assessments themselves."""
    if not is_supervisor(user):
        return 0
    return (
        Assessment.objects.filter(status=Status.SUBMITTED, submission__in=selectors.visible_submissions(user=user))
        .exclude(engineer=user)
        .count()
    )


def old_text_search(cases, q: str):
    """The text search before the trigram indexes: the same five ``icontains``, spelled out."""
    return cases.filter(
        Q(case_number__icontains=q) | Q(chemical_name__icontains=q) | Q(generic_name__icontains=q)
        | Q(submitter__icontains=q) | Q(case_name__icontains=q)
    )


def numbers(cases) -> set[str]:
    return set(cases.values_list("case_number", flat=True))


# The copy follows every writer of assessments ------------------------------------------------------


def test_the_case_keeps_its_latest_assessment_through_the_workflow(reviewer, supervisor, other_supervisor):
    case = make_submission()
    steps = [("no assessment", stored_latest(case), (NO_ASSESSMENT, None, None))]

    def step(name):
        steps.append((name, stored_latest(case), old_latest(case)))

    first = services.assessment_start(submission=case, by=reviewer)
    step("started")
    add_computed_scenario(first)
    first = workflow.assessment_submit(assessment=first, by=reviewer, note="Ready.")
    step("submitted")
    first = workflow.assessment_return(assessment=first, by=supervisor, comment="Check Fchem.")
    step("returned")
    first = workflow.assessment_submit(assessment=first, by=reviewer, note="Fixed.")
    first = workflow.assessment_approve(assessment=first, by=supervisor)
    step("approved")
    second = workflow.assessment_revise(assessment=first, by=other_supervisor)
    step("revised")
    for name, stored, expected in steps:
        assert stored == expected, name
    assert [stored for _, stored, _ in steps] == [
        (NO_ASSESSMENT, None, None),
        (Status.DRAFT, 1, reviewer.pk),
        (Status.SUBMITTED, 1, reviewer.pk),
        (Status.RETURNED, 1, reviewer.pk),
        (Status.APPROVED, 1, reviewer.pk),
        (Status.DRAFT, 2, other_supervisor.pk),
    ]
    assert second.revision == 2


def test_deleting_the_latest_draft_in_the_admin_gives_the_case_its_previous_revision(
    client, reviewer, supervisor, other_supervisor
):
    first = approved(reviewer, supervisor)
    case = first.submission
    drafts = [workflow.assessment_revise(assessment=first, by=reviewer)]
    assert stored_latest(case) == (Status.DRAFT, 2, reviewer.pk)
    reviewer.is_staff = True
    reviewer.save()
    reviewer.user_permissions.add(Permission.objects.get(codename="delete_assessment"))
    client.force_login(reviewer)
    response = client.post(f"/admin/assessments/assessment/{drafts[0].pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Assessment.objects.filter(pk=drafts[0].pk).exists()
    assert stored_latest(case) == (Status.APPROVED, 1, reviewer.pk) == old_latest(case)

    # The changelist's "delete selected" action deletes with QuerySet.delete().
    drafts.append(workflow.assessment_revise(assessment=first, by=reviewer))
    response = client.post(
        "/admin/assessments/assessment/",
        {"action": "delete_selected", "_selected_action": [drafts[1].pk], "post": "yes"},
    )
    assert response.status_code == 302 and not Assessment.objects.filter(pk=drafts[1].pk).exists()
    assert stored_latest(case) == (Status.APPROVED, 1, reviewer.pk) == old_latest(case)


def test_an_imported_case_keeps_its_latest_assessment_not_the_files_copy(reviewer, supervisor):
    first = approved(reviewer, supervisor)
    workflow.assessment_revise(assessment=first, by=reviewer)
    document = transfer.case_export(case_number=first.submission.case_number)
    document["case"]["case_number"] = "P-26-9999"
    # The file's copy is not trusted: the import derives it from the revisions it writes.
    document["case"].update(latest_status=Status.APPROVED, latest_revision=7, latest_engineer=supervisor.username)
    imported = transfer.case_import(document=transfer.loads(transfer.dumps(document), source="test"))
    assert stored_latest(imported) == (Status.DRAFT, 2, reviewer.pk) == old_latest(imported)


def test_demo_cases_loaded_by_load_demo_keep_their_latest_assessment(settings, monkeypatch):
    from assessments.esd import registry

    monkeypatch.undo()  # load_demo computes the demo uses: the real engine, not the toy one
    registry._registry.cache_clear()
    settings.DEBUG = True
    call_command("load_demo")
    cases = list(Submission.objects.all())
    assert cases and any(case.latest_status != NO_ASSESSMENT for case in cases)
    for case in cases:
        assert stored_latest(case) == old_latest(case), case.case_number
    call_command("load_demo", "--force")  # the demo rows, as loaded, are still demo rows


def test_saving_a_case_read_before_a_status_change_keeps_the_new_status(reviewer, supervisor):
    assessment = submitted(reviewer)
    stale = Submission.objects.get(pk=assessment.submission_id)
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    stale.case_name = "Renamed"
    stale.save()
    assert stored_latest(stale) == (Status.APPROVED, 1, reviewer.pk)
    assert Submission.objects.get(pk=stale.pk).case_name == "Renamed"


# The status filter and the review queue's count --------------------------------------------------


@pytest.fixture
def mixed(reviewer, supervisor, other_supervisor):
    """Cases in every state a case's revisions can be in (every revision but the latest
    approved, as the workflow leaves them), by three engineers, a quarter of them CBI."""
    engineers = (reviewer, supervisor, other_supervisor)
    histories = (
        (), (Status.DRAFT,), (Status.SUBMITTED,), (Status.RETURNED,), (Status.APPROVED,),
        (Status.APPROVED, Status.DRAFT), (Status.APPROVED, Status.SUBMITTED), (Status.APPROVED, Status.APPROVED),
        (Status.APPROVED, Status.APPROVED, Status.RETURNED),
    )
    made = []
    for i in range(27):
        case = make_submission(cbi_claims=["chemical_name"] if i % 4 == 0 else [])
        for revision, status in enumerate(histories[i % len(histories)], start=1):
            extra = {"approved_by": supervisor, "approved_at": NOW} if status == Status.APPROVED else {}
            make_assessment(case, engineers[(i // 9 + revision) % 3], revision=revision, status=status, **extra)
        made.append(case)
    return made


@pytest.fixture
def uncleared_supervisor(django_user_model):
    return make_user(django_user_model, "sup-uncleared", group=SUPERVISOR_GROUP)


@pytest.mark.parametrize("status", [NO_ASSESSMENT, *Status.values])
@pytest.mark.parametrize("who", ["reviewer", "uncleared_reviewer", "supervisor", "uncleared_supervisor"])
def test_status_filter_finds_the_cases_the_old_subqueries_found(request, mixed, status, who):
    user = request.getfixturevalue(who)
    found = numbers(selectors.submission_search(user=user, status=status))
    assert found == numbers(old_status_filter(selectors.visible_submissions(user=user), status))
    assert found, "the mixed cases have every status"
    visible = {c.case_number for c in mixed if not c.is_cbi or who in ("reviewer", "supervisor")}
    assert found <= visible


@pytest.mark.parametrize("who", ["reviewer", "supervisor", "other_supervisor", "uncleared_supervisor"])
def test_review_queue_count_is_the_old_count(request, mixed, who):
    user = request.getfixturevalue(who)
    assert review.review_queue_count(user=user) == old_queue_count(user)


def test_review_queue_count_by_hand(mixed, supervisor, other_supervisor, uncleared_supervisor, reviewer):
    # Submitted latest revisions: cases 2, 11, 20 (revision 1) and 6, 15, 24 (revision 2), by
    # engineers[(i // 9 + revision) % 3]: 2 and 24 the supervisor's, 11 and 6 the other
    # supervisor's, 20 and 15 the reviewer's. CBI: 20 and 24 (i % 4 == 0).
    assert review.review_queue_count(user=supervisor) == 4  # six, less its own two
    assert review.review_queue_count(user=other_supervisor) == 4  # six, less its own two
    assert review.review_queue_count(user=uncleared_supervisor) == 4  # six, less the two CBI
    assert review.review_queue_count(user=reviewer) == 0  # not a supervisor
    Submission.objects.filter(pk=mixed[2].pk).update(cbi_claims=["submitter"], is_cbi=True)
    assert review.review_queue_count(user=uncleared_supervisor) == 3
    assert review.review_queue_count(user=supervisor) == 4  # its own, CBI or not


def test_a_cbi_case_never_counts_in_an_uncleared_supervisors_queue(reviewer, uncleared_supervisor):
    submitted(reviewer, cbi_claims=["submitter"])
    assert review.review_queue_count(user=uncleared_supervisor) == 0
    submitted(reviewer)
    assert review.review_queue_count(user=uncleared_supervisor) == 1


def test_the_navigation_bar_shows_the_queue_count(client, mixed, supervisor):
    client.force_login(supervisor)
    response = client.get("/")
    assert response.context["review_queue_count"] == 4 == old_queue_count(supervisor)


# The text search -------------------------------------------------------------------------------


@pytest.fixture
def named(reviewer):
    rows = [
        ("P-18-0123", "Amine blend", "Amine", "Beta Corp", "Coating resin IRER"),
        ("P-26-0201", "2-Example-ethyl photoacid", "Onium salt", "Acme Photochemicals", ""),
        ("P-26-0300", "Hafnium amide", "Hafnium precursor", "Gamma 100% Chemicals", "CVD"),
        ("L-25-0042", "Trimethylaluminium", "Organoaluminium", "Delta_Materials", "ALD precursor"),
        ("P-26-0999", "Secret amine", "Amine, claimed", "Hidden Co", "CBI case"),
    ]
    for number, chemical, generic, submitter, title in rows:
        make_submission(case_number=number, chemical_name=chemical, generic_name=generic, submitter=submitter,
                        case_name=title, cbi_claims=["chemical_name"] if number == "P-26-0999" else [])
    return rows


@pytest.mark.parametrize("q,expected", [
    ("0123", {"P-18-0123"}),  # case number
    ("ethyl photo", {"P-26-0201"}),  # chemical name
    ("ORGANOALUMIN", {"L-25-0042"}),  # generic name, any case
    ("acme", {"P-26-0201"}),  # submitter
    ("coating", {"P-18-0123"}),  # case name
    ("amine", {"P-18-0123", "P-26-0999"}),  # several fields, several cases
    ("100%", {"P-26-0300"}),  # a LIKE wildcard is a character
    ("a_M", {"L-25-0042"}),  # so is the other
    ("hf", set()),
    ("  hafnium  ", {"P-26-0300"}),  # blanks around are not searched
])
def test_search_finds_what_it_found_before(named, reviewer, uncleared_reviewer, q, expected):
    assert numbers(selectors.submission_search(user=reviewer, q=q)) == expected
    assert numbers(old_text_search(selectors.visible_submissions(user=reviewer), q.strip())) == expected
    assert numbers(selectors.submission_search(user=uncleared_reviewer, q=q)) == expected - {"P-26-0999"}


# Paging by place ---------------------------------------------------------------------------------


def cases_received_in_ties(count: int, *, tie: int = 7, cbi_every: int = 4) -> list[Submission]:
    """``count`` cases, ``tie`` at a time received at the same instant (so pages end inside
    a tie), every ``cbi_every``-th CBI; returned in the list's order (newest first)."""
    made = [make_submission(cbi_claims=["submitter"] if i % cbi_every == 0 else []) for i in range(count)]
    for i, case in enumerate(made):
        Submission.objects.filter(pk=case.pk).update(created_at=NOW - timedelta(hours=i // tie))
    return list(Submission.objects.filter(pk__in=[c.pk for c in made]).order_by("-created_at", "-id"))


def page_link(response, text: str) -> str | None:
    """The href of the case pages' link named ``text``; None when it is not a link there."""
    nav = re.search(r'<nav aria-label="Case pages".*?</nav>', response.content.decode(), re.S)
    assert nav, "no case page navigation"
    found = re.search(rf'<a class="page-link"(?: rel="\w+")? href="([^"]*)">{text}</a>', nav.group(0))
    return html.unescape(found.group(1)) if found else None


def listed(response) -> list[str]:
    return [case.case_number for case in response.context["page"].object_list]


def walk(client, start: str, link: str) -> list[list[str]]:
    """The pages met following ``link`` from ``start`` until it is no longer a link."""
    pages, url = [], start
    while url is not None:
        response = client.get("/" + url)
        assert response.status_code == 200
        pages.append(listed(response))
        url = page_link(response, link)
        assert len(pages) < 100, "the links go round in a circle"
    return pages


@pytest.mark.parametrize("who", ["reviewer", "uncleared_reviewer"])
def test_paging_meets_every_visible_case_once_both_ways(client, request, who):
    user = request.getfixturevalue(who)
    in_order = [c.case_number for c in cases_received_in_ties(3 * CASES_PER_PAGE + 4)
                if not c.is_cbi or who == "reviewer"]
    client.force_login(user)
    forwards = walk(client, "?", "Older")
    assert [row for page in forwards for row in page] == in_order
    assert [len(page) for page in forwards[:-1]] == [CASES_PER_PAGE] * (len(forwards) - 1)
    backwards = walk(client, "?oldest=1", "Newer")[::-1]
    assert [row for page in backwards for row in page] == in_order
    assert backwards[-1] == in_order[-CASES_PER_PAGE:]  # the oldest page is a full one
    assert [len(page) for page in backwards[1:]] == [CASES_PER_PAGE] * (len(backwards) - 1)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8])
def test_every_page_size_meets_every_case_once_across_ties(reviewer, size):
    in_order = [c.pk for c in cases_received_in_ties(23, tie=5)]
    cases = selectors.submission_list_for_user(user=reviewer)
    forwards, page_request = [], selectors.PageRequest()
    while True:
        page = selectors.case_page(cases, request=page_request, size=size)
        forwards += [c.pk for c in page.object_list]
        if page.is_oldest:
            break
        page_request = selectors.PageRequest(after=page.older)
    backwards, page_request = [], selectors.PageRequest(oldest=True)
    while True:
        page = selectors.case_page(cases, request=page_request, size=size)
        backwards = [c.pk for c in page.object_list] + backwards
        if page.is_newest:
            break
        page_request = selectors.PageRequest(before=page.newer)
    assert forwards == in_order == backwards


@pytest.fixture
def searched_cases():
    """31 cases without an assessment whose generic name holds "onium" (one of them CBI),
    among as many that do not match, in the list's order."""
    matching = []
    for i in range(60):
        case = make_submission(generic_name="Onium salt" if i % 2 else "Amine")
        if i % 2:
            matching.insert(0, case.case_number)
    matching.insert(0, make_submission(generic_name="Onium salt", cbi_claims=["submitter"]).case_number)
    return matching


def test_page_links_keep_the_search_and_say_which_page_this_is(client, reviewer, searched_cases):
    client.force_login(reviewer)
    first = client.get("/", {"q": "onium", "status": NO_ASSESSMENT})
    assert listed(first) == searched_cases[:CASES_PER_PAGE]
    text = first.content.decode()
    assert '<span class="page-link" aria-current="page">Newest</span>' in text
    assert '<span class="page-link" aria-disabled="true">Newer</span>' in text
    assert page_link(first, "Newest") is None and page_link(first, "Newer") is None
    older, oldest = page_link(first, "Older"), page_link(first, "Oldest")
    assert older.startswith("?q=onium&status=none&after=") and oldest == "?q=onium&status=none&oldest=1"
    second = client.get("/" + older)
    assert listed(second) == searched_cases[CASES_PER_PAGE:]
    text = second.content.decode()
    assert '<span class="page-link" aria-current="page">Oldest</span>' in text
    assert page_link(second, "Older") is None and page_link(second, "Newest") == "?q=onium&status=none"
    assert page_link(second, "Newer").startswith("?q=onium&status=none&before=")
    assert listed(client.get("/" + page_link(second, "Newer"))) == searched_cases[:CASES_PER_PAGE]
    assert listed(client.get("/" + oldest)) == searched_cases[-CASES_PER_PAGE:]


def test_one_page_has_no_page_navigation(client, reviewer):
    make_submission()
    client.force_login(reviewer)
    assert 'aria-label="Case pages"' not in client.get("/").content.decode()


def test_every_page_costs_the_same_number_of_queries(client, supervisor, searched_cases):
    client.force_login(supervisor)
    first = client.get("/")
    urls = ["?", "?" + page_link(first, "Older")[1:], "?oldest=1", "?q=onium&status=none",
            page_link(client.get("/?q=onium&status=none"), "Older"), "?q=onium&oldest=1", "?page=3",
            "?after=not-a-place"]
    urls.append(page_link(client.get("/" + urls[2]), "Newer"))
    counts = {}
    for url in urls:
        client.get("/" + url)  # warm per-process caches (content types, templates)
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/" + url)
        assert response.status_code == 200 and response.context["page"].object_list, url
        counts[url] = len(queries)
    home = counts.pop("?")  # the home page itself also reads "My work", no other page does (issue 33)
    assert len(set(counts.values())) == 1, counts
    assert home > counts["?oldest=1"], (home, counts)


def test_an_old_numbered_page_link_shows_the_newest_page(client, reviewer, searched_cases):
    client.force_login(reviewer)
    for page in ("1", "2", "400", "last", "-1"):
        response = client.get("/", {"q": "onium", "page": page})
        assert response.status_code == 200 and listed(response) == searched_cases[:CASES_PER_PAGE]
        assert page_link(response, "Oldest") == "?q=onium&oldest=1"  # "page" is not carried on


@pytest.mark.parametrize("query", [
    {"after": "yesterday"}, {"after": "2026-01-03T10:00:00.000000Z"}, {"before": ",4711"},
    {"before": "2026-13-03T10:00:00.000000Z,4711"}, {"after": "2026-01-03T10:00:00.000000Z,-1"},
    {"after": "2026-01-03T10:00:00.000000Z,²"}, {"after": "2026-01-03T10:00:00.000000Z," + "9" * 40},
    {"oldest": "yes"}, {"after": "2026-01-03T10:00:00.000000Z,1", "before": "2026-01-03T10:00:00.000000Z,2"},
    {"after": "\x00"},
])
def test_a_page_link_the_list_did_not_make_shows_the_newest_page_and_says_so(client, reviewer, searched_cases, query):
    client.force_login(reviewer)
    response = client.get("/", {"q": "onium", **query})
    assert response.status_code == 200
    assert listed(response) == searched_cases[:CASES_PER_PAGE]
    assert response.context["page_problem"].startswith("This page link is not one the case list makes (")
    assert response.context["page_problem"] in html.unescape(response.content.decode())


def test_a_place_past_the_end_gives_the_page_at_that_end(client, reviewer, searched_cases):
    client.force_login(reviewer)
    future = selectors.CasePlace(NOW + timedelta(days=365), 1)
    past = selectors.CasePlace(NOW - timedelta(days=365), 1)
    assert listed(client.get("/", {"q": "onium", "before": str(future)})) == searched_cases[:CASES_PER_PAGE]
    assert listed(client.get("/", {"q": "onium", "after": str(past)})) == searched_cases[-CASES_PER_PAGE:]
    largest = selectors.CasePlace(NOW + timedelta(days=365), 10**18 - 1)  # the longest id a link may give
    assert listed(client.get("/", {"q": "onium", "after": str(largest)})) == searched_cases[:CASES_PER_PAGE]


def test_a_place_reads_back_as_written():
    place = selectors.CasePlace(NOW, 4711)
    assert selectors.CasePlace.parse(str(place)) == place
    assert str(place).endswith("Z,4711")


# PostgreSQL: the indexes are the ones read ---------------------------------------------------------

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")


@pytest.fixture
def thousands():
    """5,000 cases (bulk-created; one in a hundred submitted, one mentioning hafnium), with
    fresh planner statistics: enough rows for the planner to prefer an index to reading
    the whole table for a rare status or word, as it does at 100,000 (docs/performance.md)."""
    others = [NO_ASSESSMENT, Status.DRAFT, Status.RETURNED, Status.APPROVED]
    Submission.objects.bulk_create(
        Submission(
            case_number=f"P-20-{i:05d}", submitter="Acme Photochemicals", case_name=f"Case {i}",
            chemical_name="Hafnium amide" if i == 4242 else f"Photoacid generator {i}",
            generic_name="Onium salt", production_volume_kg_yr=1000.0, use_description="Photoresist.",
            latest_status=Status.SUBMITTED if i % 100 == 0 else others[i % len(others)],
        )
        for i in range(5000)
    )
    with connection.cursor() as cursor:
        # Rows added to a GIN index wait in its pending list until a vacuum; VACUUM cannot
        # run in the test's transaction, this does the same for the trigram indexes.
        cursor.execute("SELECT gin_clean_pending_list(indexrelid::regclass) FROM pg_index "
                       "WHERE indrelid = %s::regclass AND indexrelid::regclass::text LIKE '%%_trgm'",
                       [Submission._meta.db_table])
        cursor.execute(f"ANALYZE {Submission._meta.db_table}")


def plan(queryset) -> str:
    """The plan PostgreSQL makes for ``queryset`` as the case list runs it: a page, newest first."""
    return queryset[: CASES_PER_PAGE + 1].explain()


@pytest.mark.postgres
@on_postgresql
def test_text_search_reads_the_trigram_indexes(thousands, uncleared_reviewer):
    text = plan(selectors.submission_search(user=uncleared_reviewer, q="hafnium"))
    for name in Submission.SEARCHED_FIELDS:
        assert f"submission_{name}_trgm" in text, text
    assert f"Seq Scan on {Submission._meta.db_table}" not in text, text


@pytest.mark.postgres
@on_postgresql
def test_every_searched_field_has_a_trigram_index_on_what_icontains_compares():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [Submission._meta.db_table])
        indexes = dict(cursor.fetchall())
    for name in Submission.SEARCHED_FIELDS:
        definition = indexes[f"submission_{name}_trgm"]
        assert "USING gin" in definition and f"upper(({name})::text) gin_trgm_ops" in definition, definition


@pytest.mark.postgres
@on_postgresql
def test_status_filter_reads_the_status_index_in_the_lists_order(thousands, reviewer):
    text = plan(selectors.submission_search(user=reviewer, status=Status.SUBMITTED))
    assert "submission_status_newest_first" in text and "Sort" not in text, text


@pytest.mark.postgres
@on_postgresql
def test_the_oldest_page_reads_the_list_index_backwards(thousands, reviewer):
    text = plan(selectors.submission_list_for_user(user=reviewer).order_by("created_at", "id"))
    assert "Index Scan Backward using submission_newest_first" in text and "Sort" not in text, text


@pytest.mark.postgres
@on_postgresql
def test_an_older_page_starts_reading_the_index_at_its_place(thousands, reviewer):
    middle = Submission.objects.order_by("-created_at", "-id")[2500]
    cases = selectors.submission_list_for_user(user=reviewer).filter(selectors.CasePlace.of(middle).older())
    text = plan(cases)
    assert "Index Scan using submission_newest_first" in text and "Index Cond: (created_at <=" in text, text
    assert "Sort" not in text, text


@pytest.mark.postgres
@on_postgresql
def test_review_queue_count_reads_an_index_of_the_submitted_cases(thousands, uncleared_supervisor):
    """An index of the submitted cases only: the partial index ``submission_awaiting_review``
    once the table is vacuumed (an index-only scan, as at 100,000: docs/performance.md), or
    the review queue's ``submission_review_due_first`` (the same cases, in due-date order),
    whichever the planner reckons cheaper; the status index before."""
    with CaptureQueriesContext(connection) as queries:
        assert review.review_queue_count(user=uncleared_supervisor) == 50
    (count,) = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + count)
        text = "\n".join(row[0] for row in cursor.fetchall())
    read = {"submission_awaiting_review", "submission_review_due_first", "submission_status_newest_first"}
    assert any(name in text for name in read), text
    assert f"Seq Scan on {Submission._meta.db_table}" not in text, text
