"""The "Method validation" page: the engine's validation table for any logged-in user,
reachable from the navigation bar and from every results page."""

from __future__ import annotations

import re
from html import unescape

import pytest

from assessments import services
from assessments.esd import verification
from assessments.esd.verification import evaluation
from assessments.numbers import significant
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

URL = "/methods/validation/"


@pytest.fixture
def computed(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=scenario, by=reviewer)


def page(client, user) -> str:
    client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["assessments/method_validation.html", "base.html"]
    return response.content.decode()


def text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_anonymous_visitor_is_sent_to_login(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_any_logged_in_user_sees_it_even_uncleared_for_cbi(client, uncleared_reviewer):
    html = page(client, uncleared_reviewer)
    assert "Method validation" in html


def test_the_page_only_shows(client, reviewer):
    client.force_login(reviewer)
    assert client.post(URL).status_code == 405


def test_every_printed_figure_is_a_row_grouped_by_document(client, reviewer):
    html = page(client, reviewer)
    validation = verification.validation()
    assert html.count("<tbody>") == len(validation.documents) == 5
    assert html.count('<th scope="row"') == len(verification.table())
    for group in validation.documents:
        section = html.split(f'id="doc-{group.document.key}"', 1)[1].split("</section>", 1)[0]
        heading = f'<h2 class="h5" id="doc-{group.document.key}-title">{group.document.title}</h2>'
        assert heading in unescape(section)
        assert section.count('<th scope="row"') == group.summary.figures


def test_each_table_has_a_caption_with_its_counts_and_column_headers(client, reviewer):
    html = page(client, reviewer)
    captions = re.findall(r"<caption>(.*?)</caption>", html, flags=re.S)
    assert len(captions) == 5
    cvd = verification.validation().documents[3]
    counts = f"{cvd.summary.figures} printed figures; {cvd.summary.matches} match, {cvd.summary.differ} differ"
    assert unescape(captions[3]).startswith(f"CVD ESD 2015: {counts}")
    assert html.count('<th scope="col">Quantity</th>') == 5


def test_the_counts_are_stated(client, reviewer):
    summary = verification.summarise(verification.table())
    assert (f"{summary.figures} printed figures: {summary.matches} match; {summary.differ} differ, "
            "each explained in its note.") in text(page(client, reviewer))


def test_a_figure_that_differs_is_marked_in_words_and_shows_its_note(client, reviewer):
    html = page(client, reviewer)
    (wf6,) = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, flags=re.S) if "(WF₆)" in r and ">3.92<" in r]
    assert 'class="table-warning"' in wf6  # highlighted ...
    assert "<strong>No</strong>" in wf6  # ... and said in words, not by colour alone
    assert "0.2978 / 0.076 = 3.918" in unescape(wf6)  # the note, citing the table's own rounding
    (containers,) = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, flags=re.S)
                     if "Containers emptied per site-year" in r and "§6.1.5, Eqn 3-4" in r]
    assert "table-warning" not in containers and "<td>Yes</td>" in containers


def test_an_unexplained_difference_is_said_so(client, reviewer, monkeypatch):
    bad = evaluation.Row("Photoresist ESD 2010", "§6.1.5, Eqn 3-4", "Containers emptied per site-year", "2,925",
                         2924, False, "", "", "photoresist-2010 → facility Ncont_site_yr")
    monkeypatch.setattr(evaluation, "table", lambda: (bad,))
    assert "No explanation." in text(page(client, reviewer))
    assert "1 printed figure: 0 match; 1 differs, 0 of them explained in a note and 1 with no explanation." in text(
        page(client, reviewer))


def test_the_table_is_computed_once_not_per_request(client, reviewer):
    page(client, reviewer)
    misses = verification.table.cache_info().misses
    page(client, reviewer)
    assert verification.table.cache_info().misses == misses


def test_a_results_page_links_to_it(client, reviewer, computed):
    client.force_login(reviewer)
    html = client.get(f"/scenarios/{computed.pk}/").content.decode()
    main = html.split('<main id="main"', 1)[1]  # not the navigation bar's link
    assert f'href="{URL}"' in main


def test_the_navigation_bar_links_to_it(client, reviewer):
    client.force_login(reviewer)
    nav = client.get("/").content.decode().split("</nav>", 1)[0]
    assert f'<a class="nav-link" href="{URL}">Method validation</a>' in nav


def test_the_engines_numbers_are_printed_by_the_one_number_rule(client, reviewer):
    """Issue 26: the engine's column reads as every page prints a number (``assessments.numbers``),
    to six significant figures: E-notation below a thousandth (1.88528E-4, not 0.000188528)."""
    html = page(client, reviewer)
    cells = [unescape(c) for c in re.findall(r'<td class="text-end text-nowrap">(.*?)</td>', html, flags=re.S)]
    engine = cells[1::2]  # each row: printed, then the engine's number
    rows = [r for group in verification.validation().documents for r in group.rows]
    assert engine == [significant(r.computed, 6) if r.computed is not None else "not computed" for r in rows]
    assert "1.88528E-4" in engine
    assert "0.000188528" not in text(html)
