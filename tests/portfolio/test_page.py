"""The portfolio page and its CSV: who sees what (a reviewer their own work, a supervisor the
team's), the filters and their errors, the custody log of a cleared person's CSV of a CBI
case, and the CBI property: two workloads that differ only in CBI cases draw the same page,
charts and CSV for a person not cleared for CBI."""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from assessments import services, workflow
from assessments.models import Scenario, Submission
from assessments.sensitivity_view import text_width
from audit.models import CbiAccess
from portfolio import ledger, views
from portfolio.charts import MAX_LABEL, Row, bar_chart
from tests._review_support import add_computed_scenario, other_reviewer, toy_engine
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixed_now(monkeypatch):
    """The page's clock stopped, so two drawings of one workload agree to the second."""
    now = timezone.now() + timedelta(minutes=1)
    monkeypatch.setattr(views, "timezone", SimpleNamespace(now=lambda: now))
    return now


def reworked(engineer, supervisor, **case):
    """A case whose revision was returned once, recomputed after submission and approved."""
    draft = make_assessment(make_submission(**case), engineer)
    use = add_computed_scenario(draft)
    draft = workflow.assessment_submit(assessment=draft, by=engineer, note="Ready.")
    draft = workflow.assessment_return(assessment=draft, by=supervisor, comment="Check Fchem.")
    use = services.scenario_save_step(scenario=Scenario.objects.get(pk=use.pk), by=engineer, step="volume",
                                      values={"Qchem_yr": 7000.0, "Fchem": 0.3}, reasons={"Fchem": "MSDS: 30 %."})
    services.scenario_compute(scenario=use, by=engineer)
    return workflow.assessment_submit(assessment=draft, by=engineer, note="Again.")


def open_draft(engineer, **case):
    draft = make_assessment(make_submission(**case), engineer)
    add_computed_scenario(draft)
    return draft


def rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def figure(table: list[list[str]], section: str, row: str, column: str = "") -> str:
    return next(r[3] for r in table if r[0] == section and r[1] == row and r[2] == column)


def test_a_supervisor_sees_the_team_and_a_reviewer_their_own(client, toy_engine, reviewer, other_reviewer, supervisor):
    reworked(reviewer, supervisor)
    open_draft(other_reviewer)
    client.force_login(supervisor)
    team = rows(client.get("/portfolio.csv"))
    assert figure(team, "Filters", "Who") == "The team"
    assert figure(team, "Rework", "Revisions started") == "2"
    assert figure(team, "Rework", "Returns to the engineer") == "1"
    assert figure(team, "Rework", "Recomputes after submission") == "1"
    one = rows(client.get(f"/portfolio.csv?engineer={other_reviewer.pk}"))
    assert figure(one, "Rework", "Revisions started") == "1" and figure(one, "Rework", "Returns to the engineer") == "0"

    client.force_login(reviewer)
    own = rows(client.get(f"/portfolio.csv?engineer={other_reviewer.pk}"))  # a reviewer's engineer is themselves
    assert figure(own, "Filters", "Who") == "Your work"
    assert figure(own, "Rework", "Revisions started") == "1" and figure(own, "Rework", "Returns to the engineer") == "1"
    page = client.get("/portfolio/").content.decode()
    assert 'id="f-engineer"' not in page and "Your work" in page


def test_the_charts_tables_and_departures_are_on_the_page(client, toy_engine, reviewer, supervisor):
    reworked(reviewer, supervisor)
    client.force_login(supervisor)
    page = client.get("/portfolio/").content.decode()
    for chart in ("chart-days-left", "chart-status-time", "chart-method-rework", "chart-departures"):
        assert f'id="{chart}-description"' in page and f'id="{chart}-table"' in page
        assert re.search(rf'id="{chart}-table"[^>]*|tabindex="0"[^>]*id="{chart}-table"', page)
    table = rows(client.get("/portfolio.csv"))
    # The toy's Fchem, 0.3 against its default 0.1: the release alone moves by a factor of 3.
    assert figure(table, "Inputs most often departed from", "Mass fraction in the formulation (Fchem)",
                  "Typical effect") == "×3"


def test_a_bad_filter_is_named_and_left_out(client, reviewer, supervisor):
    client.force_login(supervisor)
    response = client.get("/portfolio/?period=99&scenario=no-such-method&engineer=abc")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Period must be one of: Last 3 months, Last 12 months, Last 3 years." in page
    assert "Method must be one of the list's methods." in page
    assert "Engineer must be one of the list's names." in page


def test_a_cleared_csv_of_a_cbi_case_is_in_its_custody_log(client, toy_engine, reviewer, supervisor):
    cbi = open_draft(reviewer, cbi_claims=["chemical_name"]).submission
    plain = open_draft(reviewer).submission
    client.force_login(supervisor)
    assert client.get("/portfolio/").status_code == 200
    assert not CbiAccess.objects.exists()  # the page lists a case as the case list does, without its data
    client.get("/portfolio.csv")
    logged = CbiAccess.objects.get()
    assert (logged.submission_id, logged.what, logged.username) == (cbi.pk, "portfolio_csv", supervisor.username)
    assert not CbiAccess.objects.filter(submission_id=plain.pk).exists()


def _without_tokens(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_cbi_cases_change_nothing_an_uncleared_person_sees(client, django_user_model, toy_engine, reviewer, supervisor,
                                                         fixed_now):
    uncleared = make_user(django_user_model, "uncleared-sup", group="supervisor")
    reworked(reviewer, supervisor)
    open_draft(reviewer)
    client.force_login(uncleared)
    urls = ["/portfolio/", "/portfolio/?period=36", f"/portfolio/?engineer={reviewer.pk}", "/portfolio.csv",
            "/portfolio.csv?period=3"]
    before = [_without_tokens(client.get(url).content.decode()) for url in urls]
    # The CBI workload: rework, departures, open cases due soon, a stopped clock's worth of variety.
    reworked(reviewer, supervisor, cbi_claims=["chemical_name"])
    reworked(reviewer, supervisor, cbi_claims=["submitter"], production_volume_kg_yr=9000.0)
    open_draft(reviewer, cbi_claims=["production_volume_kg_yr"])
    after = [_without_tokens(client.get(url).content.decode()) for url in urls]
    assert after == before
    client.force_login(supervisor)  # cleared: the CBI cases are counted
    assert figure(rows(client.get("/portfolio.csv")), "Rework", "Revisions started") == "5"


def test_open_cases_fall_in_their_days_left(client, toy_engine, reviewer, supervisor):
    today = timezone.localdate()
    due = {"long overdue": today - timedelta(days=4000), "overdue": today - timedelta(days=1), "today": today,
           "soon": today + timedelta(days=14), "month": today + timedelta(days=15), "later": today + timedelta(days=61)}
    cases = {name: open_draft(reviewer).submission for name in [*due, "stopped"]}
    for name, on in due.items():
        Submission.objects.filter(pk=cases[name].pk).update(due_on=on)
    Submission.objects.filter(pk=cases["stopped"].pk).update(clock_stopped_on=today - timedelta(days=3))
    ledger.refresh_cases(case.pk for case in cases.values())
    client.force_login(supervisor)
    table = rows(client.get("/portfolio.csv"))
    counts = {r[1]: r[3] for r in table if r[0] == "Open cases by days left"}
    assert counts == {"Overdue": "2", "Due in 0–14 days": "2", "15–30 days": "1", "31–60 days": "0",
                      "More than 60 days": "1", "Clock stopped": "1"}
    listed = [r[1] for r in table if r[0] == "Open cases, soonest due" and r[2] == "days left"]
    assert listed[:2] == [cases["long overdue"].case_number, cases["overdue"].case_number]
    assert cases["stopped"].case_number not in listed


def test_a_long_label_is_cut_to_fit_and_kept_whole_in_the_table():
    long = "Photoresist use in semiconductor manufacturing: the 2010 ESD with EPA's 2018 update"
    chart = bar_chart(id="c", title="t", description="d", rows=[Row(long, 2.0, "2"), Row("Short", 1.0, "1")],
                      columns=["Method", "Rework"], table=[[long, "2"], ["Short", "1"]])
    cut = chart.bars[0].label
    assert cut.endswith("…") and long.startswith(cut[:-1]) and text_width(cut) <= MAX_LABEL
    assert text_width(long[:len(cut)] + "…") > MAX_LABEL  # the longest start that fits
    assert chart.bars[1].label == "Short" and chart.rows[0][0] == long
