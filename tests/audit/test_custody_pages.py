"""Who reads the CBI custody log: supervisors a case's (on the case page, its own page and
as CSV), every user their own rows ("My CBI access"); nobody else, and an uncleared user
not even the log of a CBI case's existence.

The reviewer, the supervisor and both cases are made once for the module (``shared_cases``,
tests/audit/conftest.py); each test's own rows are rolled back after it."""

from __future__ import annotations

import csv
import io
from datetime import UTC

import pytest
from lxml import html as lxml_html

from audit.models import CbiAccess
from audit.selectors import CSV_HEADER, RECENT_ON_CASE_PAGE
from tests.audit.conftest import ADDRESS, BROWSER, fresh
from tests.audit.shared_fixtures import cbi, plain, reviewer, supervisor
from tests.conftest import make_user

pytestmark = pytest.mark.django_db




def _view(client, user, url: str, **extra):
    client.force_login(user)
    response = client.get(url, HTTP_USER_AGENT=BROWSER, REMOTE_ADDR=ADDRESS, **extra)
    assert response.status_code == 200, (url, response.status_code)
    return response


@pytest.fixture
def seen(client, reviewer, cbi):
    """The reviewer saw the case page and revision 2; the rows, oldest first."""
    _view(client, reviewer, f"/cases/{cbi['case'].pk}/")
    _view(client, reviewer, f"/assessments/{cbi['second'].pk}/")
    return list(CbiAccess.objects.order_by("pk"))


def test_a_supervisor_sees_the_latest_rows_on_the_case_page(client, supervisor, cbi, seen):
    page = lxml_html.fromstring(_view(client, supervisor, f"/cases/{cbi['case'].pk}/").content)
    section = page.get_element_by_id("custody")
    rows = section.xpath(".//tbody/tr")
    # Newest first: the supervisor's own view of the page just now, then the reviewer's two.
    assert [r.xpath("string(td[3])").strip() for r in rows] == ["case page", "assessment page", "case page"]
    assert [r.xpath("string(td[2])").strip() for r in rows] == ["sup", "rev", "rev"]
    assert section.xpath(".//caption") and section.xpath(".//th[@scope='col']")
    links = section.xpath(".//a/@href")
    assert f"/cases/{cbi['case'].pk}/custody/" in links and f"/cases/{cbi['case'].pk}/custody.csv" in links


def test_the_case_page_lists_only_the_latest_rows(client, supervisor, cbi, seen):
    for _ in range(RECENT_ON_CASE_PAGE + 2):
        _view(client, supervisor, f"/cases/{cbi['case'].pk}/")
    page = lxml_html.fromstring(_view(client, supervisor, f"/cases/{cbi['case'].pk}/").content)
    assert len(page.get_element_by_id("custody").xpath(".//tbody/tr")) == RECENT_ON_CASE_PAGE
    assert f"({CbiAccess.objects.count()} entries)" in page.get_element_by_id("custody").text_content()


def test_a_reviewer_sees_no_log_on_the_case_page_and_is_refused_its_pages(client, reviewer, cbi, seen):
    page = lxml_html.fromstring(_view(client, reviewer, f"/cases/{cbi['case'].pk}/").content)
    assert not page.xpath("//*[@id='custody']")
    assert client.get(f"/cases/{cbi['case'].pk}/custody/").status_code == 403
    assert client.get(f"/cases/{cbi['case'].pk}/custody.csv").status_code == 403


def test_an_uncleared_user_cannot_tell_a_cbi_cases_log_exists(client, django_user_model, cbi, seen):
    uncleared_supervisor = make_user(django_user_model, "acting-sup", group="supervisor")
    client.force_login(uncleared_supervisor)
    for url in (f"/cases/{cbi['case'].pk}/custody/", f"/cases/{cbi['case'].pk}/custody.csv"):
        assert client.get(url).status_code == 404
    assert client.get("/cases/999999/custody/").status_code == 404


def test_an_uncleared_user_cannot_read_another_cases_log(client, uncleared_reviewer, plain):
    client.force_login(uncleared_reviewer)
    assert client.get(f"/cases/{plain['case'].pk}/custody/").status_code == 403


def test_a_case_claimed_nothing_shows_no_log_section(client, supervisor, plain):
    page = lxml_html.fromstring(_view(client, supervisor, f"/cases/{plain['case'].pk}/").content)
    assert not page.xpath("//*[@id='custody']")


def test_the_supervisor_reads_the_whole_log(client, supervisor, cbi, seen):
    page = lxml_html.fromstring(_view(client, supervisor, f"/cases/{cbi['case'].pk}/custody/").content)
    assert page.xpath("string(//h1)").strip() == "CBI custody log: P-26-0042"
    rows = page.xpath("//main//tbody/tr")
    assert [r.xpath("string(td[3])").strip() for r in rows] == ["assessment page", "case page"]
    assert rows[0].xpath("string(td[4])").strip() == "2"
    assert ADDRESS in rows[0].xpath("string(td[5])") and BROWSER in rows[0].xpath("string(td[5])")
    assert page.xpath("//main//table/caption") and len(page.xpath("//main//th[@scope='col']")) == 5
    assert not CbiAccess.objects.filter(user=supervisor).exists()  # reading the log is not a view of the data


def test_the_csv_holds_the_header_and_every_row(client, supervisor, cbi, seen):
    response = _view(client, supervisor, f"/cases/{cbi['case'].pk}/custody.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="CBI-custody-P-26-0042.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(CSV_HEADER)
    newest, oldest = seen[1], seen[0]
    assert table[1:] == [
        [newest.at.astimezone(UTC).isoformat(timespec="seconds"), "full CBI data seen",
         "assessment page", "P-26-0042", "2", "", "rev", "", ADDRESS, BROWSER],
        [oldest.at.astimezone(UTC).isoformat(timespec="seconds"), "full CBI data seen",
         "case page", "P-26-0042", "", "", "rev", "", ADDRESS, BROWSER],
    ]


def test_a_user_agent_that_looks_like_a_formula_is_not_one_in_the_csv(client, reviewer, supervisor, cbi):
    client.force_login(reviewer)
    client.get(f"/cases/{cbi['case'].pk}/", HTTP_USER_AGENT="=HYPERLINK(\"http://example.com\")")
    response = _view(client, supervisor, f"/cases/{cbi['case'].pk}/custody.csv")
    row = list(csv.reader(io.StringIO(response.content.decode())))[1]
    assert row[-1] == "'=HYPERLINK(\"http://example.com\")"


def test_each_user_sees_only_their_own_rows(client, reviewer, supervisor, cbi, seen):
    _view(client, supervisor, f"/assessments/{cbi['first'].pk}/irer/")
    mine = lxml_html.fromstring(_view(client, reviewer, "/my-cbi-access/").content)
    rows = mine.xpath("//main//tbody/tr")
    assert [r.xpath("string(td[3])").strip() for r in rows] == ["assessment page", "case page"]
    assert [r.xpath("string(td[2])").strip() for r in rows] == ["P-26-0042", "P-26-0042"]
    assert "report preview" not in mine.xpath("string(//main)")
    theirs = lxml_html.fromstring(_view(client, supervisor, "/my-cbi-access/").content)
    assert [r.xpath("string(td[3])").strip() for r in theirs.xpath("//main//tbody/tr")] == ["report preview"]


def test_my_cbi_access_is_linked_from_the_navbar(client, uncleared_reviewer):
    page = lxml_html.fromstring(_view(client, uncleared_reviewer, "/my-cbi-access/").content)
    link = page.xpath("//nav//a[normalize-space()='My CBI access']")
    assert link and link[0].get("href") == "/my-cbi-access/" and link[0].get("aria-current") == "page"
    assert "You have not seen the full data of a CBI case." in page.xpath("string(//main)")


def test_the_admin_shows_the_rows_read_only(client, django_user_model, cbi, seen):
    root = make_user(django_user_model, "root", cbi=True, is_staff=True, is_superuser=True)
    client.force_login(root)
    row = seen[0]
    assert client.get("/admin/audit/cbiaccess/").status_code == 200
    assert client.get(f"/admin/audit/cbiaccess/{row.pk}/change/").status_code == 200
    assert client.get("/admin/audit/cbiaccess/add/").status_code == 403
    assert client.get(f"/admin/audit/cbiaccess/{row.pk}/delete/").status_code == 403
    client.post(f"/admin/audit/cbiaccess/{row.pk}/change/", {"what": "export"})
    row.refresh_from_db()
    assert row.what == CbiAccess.What.CASE_PAGE


def test_the_admin_hides_a_cbi_cases_rows_from_uncleared_staff(client, django_user_model, cbi, plain, seen):
    from django.contrib.auth.models import Permission

    staff = make_user(django_user_model, "auditor", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_cbiaccess"))
    client.force_login(staff)
    response = client.get("/admin/audit/cbiaccess/")
    assert response.status_code == 200 and "P-26-0042" not in response.content.decode()
    assert client.get(f"/admin/audit/cbiaccess/{seen[0].pk}/change/").status_code == 302  # "does not exist"
