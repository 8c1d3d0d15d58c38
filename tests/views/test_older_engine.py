"""Uses computed by an older engine on the pages and the lists (issue 42, "After a change
lands"): the marker on the use's results page and the assessment page with Recompute one
click away; the recompute page showing the moves ``impact.compare`` finds (or "no figure
changes"), Accept (POST, CSRF) and Cancel; the refusals; the case list, "My work", the
due-date list and the review queue marking the revision, with one ``EXISTS`` in the page's
own query (the count of queries does not grow with the rows)."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from assessments import engine_marks, engine_refresh, services, workflow
from assessments.esd.results import ENGINE_VERSION
from assessments.exposure_limits import case_limit
from assessments.impact import RANK_CHANGED, compare
from assessments.models import Scenario, Submission
from tests._older_engine_support import EARLIER, computed_use, stored_by
from tests._review_support import other_reviewer
from tests.conftest import make_submission

pytestmark = pytest.mark.django_db

MARK = "older-engine-mark"  # the lists' badge (templates/assessments/_older_engine_mark.html)


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return html.unescape(response.content.decode())


def recompute_url(use: Scenario) -> str:
    return f"/scenarios/{use.pk}/recompute/"


def words(html: str) -> str:
    """The page's text, tags dropped and spaces joined."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def moved(reviewer):
    """A draft's use stored by an earlier engine, one of its figures different: the first
    release's annual total, twice what the engine computes (so it changes rank too)."""
    use = computed_use(reviewer)
    return stored_by(use, EARLIER, release_kg_yr=2 * use.result["releases"][0]["estimates"][0]["kg_year_all_sites"])


# The marker on the use's pages -----------------------------------------------------------------


def test_the_results_page_marks_the_use_with_recompute_one_click_away(client, reviewer, moved):
    client.force_login(reviewer)
    html = page(client, f"/scenarios/{moved.pk}/")
    assert f"Computed by engine {EARLIER}; this installation runs {ENGINE_VERSION}." in html
    assert re.search(rf'<a class="btn[^"]*" href="{recompute_url(moved)}">Recompute</a>', html)


def test_the_assessment_page_marks_the_use_in_its_table_and_offers_recompute(client, reviewer, moved):
    client.force_login(reviewer)
    html = page(client, f"/assessments/{moved.assessment_id}/")
    assert f"computed by engine {EARLIER}" in html  # the badge in the table of uses
    banner = html[html.index('id="older-engine"'):]
    assert f"“{moved.title}”: computed by engine {EARLIER}." in banner
    assert f'href="{recompute_url(moved)}" aria-label="Recompute {moved.title}">Recompute</a>' in banner


def test_a_use_of_the_installed_engine_is_not_marked(client, reviewer):
    use = computed_use(reviewer)
    client.force_login(reviewer)
    for url in (f"/scenarios/{use.pk}/", f"/assessments/{use.assessment_id}/", "/"):
        html = page(client, url)
        assert 'id="older-engine"' not in html and MARK not in html and "older-engine-badge" not in html


def test_older_and_not_current_are_both_shown(client, reviewer, moved):
    services.scenario_save_step(scenario=moved, by=reviewer, step="production",
                                values={"Qchem_yr": "5000", "Fchem": "0.3"}, reasons={"Fchem": "Amended MSDS"})
    client.force_login(reviewer)
    html = page(client, f"/scenarios/{moved.pk}/")
    assert 'id="not-current"' in html and 'id="older-engine"' in html
    html = page(client, f"/assessments/{moved.assessment_id}/")
    assert "not current: inputs changed since computed" in html and f"computed by engine {EARLIER}" in html
    preview = page(client, recompute_url(moved))
    assert 'id="recompute-not-current"' in preview and 'id="recompute-accept"' in preview


def test_another_reviewer_sees_the_marker_and_the_difference_but_no_accept(client, moved, other_reviewer):
    client.force_login(other_reviewer)
    html = page(client, f"/scenarios/{moved.pk}/")
    assert engine_refresh.RECOMPUTE_NOT_ENGINEER in html and ">Recompute</a>" not in html
    assert f'href="{recompute_url(moved)}">See the difference the installed engine makes</a>' in html
    preview = page(client, recompute_url(moved))
    assert 'id="recompute-moves"' in preview and 'id="recompute-accept"' not in preview
    assert engine_refresh.RECOMPUTE_NOT_ENGINEER in preview
    assert client.post(recompute_url(moved), {"seen": engine_marks.use_fingerprint(moved)}).status_code == 403
    assert Scenario.objects.get(pk=moved.pk).result["engine_version"] == EARLIER


def test_a_submitted_revision_tells_its_engineer_to_withdraw_and_a_supervisor_to_return(client, reviewer, supervisor):
    use = computed_use(reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    use = stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0)
    for user, words_shown in ((reviewer, engine_refresh.RECOMPUTE_SUBMITTED_WITHDRAW),
                              (supervisor, engine_refresh.RECOMPUTE_SUBMITTED_RETURN)):
        client.force_login(user)
        for url in (f"/scenarios/{use.pk}/", f"/assessments/{use.assessment_id}/", recompute_url(use)):
            html = page(client, url)
            assert words_shown in html and 'id="recompute-accept"' not in html, (user, url)
        assert client.post(recompute_url(use), {"seen": engine_marks.use_fingerprint(use)}).status_code == 403


def test_an_approved_revision_is_not_marked_and_its_recompute_is_refused(client, reviewer, supervisor):
    use = stored_by(computed_use(reviewer), EARLIER)  # the label alone: the workflow's checks pass
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    workflow.assessment_approve(assessment=use.assessment, by=supervisor)
    client.force_login(reviewer)
    for url in (f"/scenarios/{use.pk}/", f"/assessments/{use.assessment_id}/", "/"):
        html = page(client, url)
        assert 'id="older-engine"' not in html and MARK not in html
    assert client.get(recompute_url(use)).status_code == 403
    assert client.post(recompute_url(use), {"seen": engine_marks.use_fingerprint(use)}).status_code == 403
    assert Scenario.objects.get(pk=use.pk).result["engine_version"] == EARLIER


def test_a_cbi_case_is_404_for_a_user_not_cleared(client, reviewer, uncleared_reviewer):
    case = make_submission(cbi_claims=["submitter"], molecular_weight=200.0, use_concentration=0.15)
    use = stored_by(computed_use(reviewer, case=case), EARLIER)
    client.force_login(uncleared_reviewer)
    assert client.get(recompute_url(use)).status_code == 404
    assert client.post(recompute_url(use), {"seen": engine_marks.use_fingerprint(use)}).status_code == 404
    assert MARK not in page(client, "/")


# The recompute page --------------------------------------------------------------------------------


def test_the_preview_shows_every_move_impact_compare_finds(client, reviewer, moved):
    case = moved.assessment.submission
    fresh = engine_refresh.fresh_result(moved)
    moves = compare(moved.result, fresh, use=moved.position, limit=case_limit(case),
                    molecular_weight=case.molecular_weight)
    assert moves and any(move.threshold == RANK_CHANGED for move in moves)
    client.force_login(reviewer)
    html = page(client, recompute_url(moved))
    table = html[html.index('id="recompute-moves"'):html.index("</table>")]
    rows = re.findall(r"<tr>\s*<th scope=\"row\".*?</tr>", table, re.S)
    assert len(rows) == len(moves)
    for row, move, shown in zip(rows, moves, engine_refresh.move_rows(moves, old_result=moved.result,
                                                                      new_result=fresh)):
        text = words(row)
        assert text.startswith(f"{shown.output} {move.estimate.capitalize()} {shown.quantity}")
        assert f"{shown.old} {shown.new} {shown.relative}" in text
        assert (move.threshold or "none") in text
    first = words(rows[0])
    assert first.startswith("Release 1: Container residue High end kg/yr, all sites 60 30 -50 % rank changed")
    assert f"Stored (engine {EARLIER})" in html and f"Engine {ENGINE_VERSION}" in html
    assert 'id="no-figure-changes"' not in html


def test_the_preview_says_no_figure_changes_when_only_the_label_differs(client, reviewer):
    use = stored_by(computed_use(reviewer), EARLIER)
    client.force_login(reviewer)
    html = page(client, recompute_url(use))
    assert 'id="recompute-moves"' not in html
    assert (f"No figure changes: every release and exposure figure is the same with engine {ENGINE_VERSION}. "
            f"{engine_refresh.ONLY_THE_LABEL}") in words(html)
    assert 'id="recompute-accept"' in html


def test_the_preview_of_a_use_of_the_installed_engine_goes_back_to_its_results(client, reviewer):
    use = computed_use(reviewer)
    client.force_login(reviewer)
    response = client.get(recompute_url(use), follow=True)
    assert response.redirect_chain == [(f"/scenarios/{use.pk}/", 302)]
    assert engine_refresh.RECOMPUTE_NOT_OLDER.format(title=use.title, installed=ENGINE_VERSION) in \
        response.content.decode()


def test_accept_posts_with_its_csrf_token_and_stores_the_fresh_result(reviewer, moved):
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    html = page(client, recompute_url(moved))
    assert f'<a class="btn btn-outline-secondary" href="/scenarios/{moved.pk}/">Cancel</a>' in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    seen = re.search(r'name="seen" value="([^"]+)"', html).group(1)
    assert client.post(recompute_url(moved), {"seen": seen}).status_code == 403  # no CSRF token
    assert Scenario.objects.get(pk=moved.pk).result["engine_version"] == EARLIER
    # Figures in the form are not read: the server computes them.
    response = client.post(recompute_url(moved), {"seen": seen, "csrfmiddlewaretoken": token,
                                                  "result": '{"releases": []}', "kg_year_all_sites": "1"})
    assert response.status_code == 302 and response.url == f"/scenarios/{moved.pk}/"
    stored = Scenario.objects.get(pk=moved.pk)
    assert stored.result == engine_refresh.fresh_result(stored) and stored.result["engine_version"] == ENGINE_VERSION
    html = page(client, f"/scenarios/{moved.pk}/")
    assert engine_refresh.RECOMPUTED.format(title=moved.title, installed=ENGINE_VERSION) in html
    assert 'id="older-engine"' not in html
    history = page(client, f"/assessments/{moved.assessment_id}/history/")
    assert f"Recomputed by engine {ENGINE_VERSION} (was engine {EARLIER})" in history


def test_accept_after_the_use_changed_shows_the_difference_again(client, reviewer, moved):
    client.force_login(reviewer)
    seen = page(client, recompute_url(moved)) and engine_marks.use_fingerprint(moved)
    services.scenario_save_step(scenario=moved, by=reviewer, step="production",
                                values={"Qchem_yr": "5000", "Fchem": "0.3"}, reasons={"Fchem": "Amended MSDS"})
    response = client.post(recompute_url(moved), {"seen": seen}, follow=True)
    assert response.redirect_chain == [(recompute_url(moved), 302)]
    assert engine_refresh.RECOMPUTE_CHANGED.format(title=moved.title) in response.content.decode()
    assert Scenario.objects.get(pk=moved.pk).result["engine_version"] == EARLIER


# The lists -------------------------------------------------------------------------------------------


def test_the_case_list_and_my_work_mark_the_revision(client, reviewer, moved):
    plain = computed_use(reviewer, title="Other use")
    client.force_login(reviewer)
    html = page(client, "/")
    case_list = html[html.index('class="table table-hover table-cases"'):]
    my_work = html[html.index('id="my-work"'):html.index('role="search"')]
    for listed in (case_list, my_work):
        row = listed[listed.index(moved.assessment.submission.case_number):][:2000].split("</tr>")[0]
        assert MARK in row
        other = listed[listed.index(plain.assessment.submission.case_number):][:2000].split("</tr>")[0]
        assert MARK not in other
    rows = {case.pk: case.older_engine for case in client.get("/").context["page"].object_list}
    assert rows == {moved.assessment.submission_id: True, plain.assessment.submission_id: False}
    assert MARK in page(client, "/due/")


def test_the_review_queue_notes_the_use(client, reviewer, supervisor):
    use = computed_use(reviewer)
    workflow.assessment_submit(assessment=use.assessment, by=reviewer)
    stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0)
    client.force_login(supervisor)
    html = page(client, "/review/")
    assert f"“{use.title}”: Computed by engine {EARLIER}; this installation runs {ENGINE_VERSION}." in html
    assert MARK in page(client, "/")


@pytest.mark.parametrize("stored, marked", [
    ({"engine_version": EARLIER}, True),
    ({}, True),  # no version named: older
    ({"engine_version": None}, True),
    ({"engine_version": ENGINE_VERSION}, False),
])
def test_the_lists_rule_reads_the_json_key_as_the_pages_do(reviewer, stored, marked):
    """The lists' ``EXISTS`` (a JSON key in the database) and the pages' rule
    (``engine_marks.older_engine``, in Python) agree on every form of the key."""
    use = computed_use(reviewer)
    result = {k: v for k, v in use.result.items() if k != "engine_version"} | stored
    Scenario.objects.filter(pk=use.pk).update(result=result)
    use.refresh_from_db()
    assert (engine_marks.older_engine(use) is not None) == marked
    row = engine_marks.with_older_engine_mark(Submission.objects.filter(pk=use.assessment.submission_id)).get()
    assert row.older_engine == marked
    # A deleted use, or one of an approved revision, never marks its case.
    services.scenario_delete(scenario=use, by=reviewer)
    row = engine_marks.with_older_engine_mark(Submission.objects.filter(pk=use.assessment.submission_id)).get()
    assert row.older_engine is False


LISTS = {"case list": "/", "case list, searched": "/?q=P-26&status=draft", "case list, overdue": "/?due=within",
         "due-date list": "/due/", "review queue": "/review/"}


def marked_world(reviewer, supervisor, count: int, made: list) -> None:
    """``count`` cases in all, each with a use stored by an earlier engine: drafts of the
    reviewer's (the case list, My work) and submitted ones (the review queue)."""
    for i in range(len(made), count):
        use = computed_use(reviewer, title=f"Use {i}")
        if i % 2:
            workflow.assessment_submit(assessment=use.assessment, by=reviewer)
        made.append(stored_by(Scenario.objects.get(pk=use.pk), EARLIER, release_kg_yr=60.0))


def list_queries(client, names) -> dict[str, int]:
    counts = {}
    for name in names:
        client.get(LISTS[name])  # warm per-process caches
        with CaptureQueriesContext(connection) as queries:
            assert client.get(LISTS[name]).status_code == 200
        counts[name] = len(queries)
    return counts


@pytest.mark.parametrize("who", ["reviewer", "supervisor"])
def test_the_lists_mark_rows_without_a_query_per_row(client, reviewer, supervisor, who):
    made: list[Scenario] = []
    client.force_login(reviewer if who == "reviewer" else supervisor)
    names = [name for name in LISTS if who == "supervisor" or name != "review queue"]  # the queue: supervisors'
    marked_world(reviewer, supervisor, 3, made)
    few = list_queries(client, names)
    marked_world(reviewer, supervisor, 30, made)
    many = list_queries(client, names)
    assert many == few, f"queries per list, 3 marked cases -> 30: {few} -> {many}"
    html = page(client, "/")
    assert html.count(MARK) >= 25  # a full page of marked cases
    with CaptureQueriesContext(connection) as queries:
        client.get("/")
    page_query = [q["sql"] for q in queries.captured_queries if "EXISTS" in q["sql"] and "LIMIT 26" in q["sql"]]
    assert len(page_query) == 1 and "engine_version" in page_query[0]
