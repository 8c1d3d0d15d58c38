"""The pages name a use's method by its full title (edition year included), never by its
key; a count's units agree with its value ("1 site") on the results page and in the
report; the facility quantities read with their labels."""

from __future__ import annotations

import html
import re

import pytest

from assessments import presentation, services
from assessments.esd import registry
from assessments.reports.cbi import CBI_TEXT
from assessments.reports.context import irer_context
from tests.conftest import make_assessment, make_submission
from tests.reports import reading

pytestmark = pytest.mark.django_db


@pytest.fixture
def uses(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    computed = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015")
    services.scenario_compute(scenario=computed, by=reviewer)
    services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2004")  # not computed
    return assessment


def _uses_table(page) -> str:
    body = page.content.decode()
    start = body.index('id="uses-title"')
    return body[start: body.index("</table>", start)]


def test_the_uses_table_names_the_method_by_its_full_title(client, reviewer, uses):
    client.force_login(reviewer)
    table = html.unescape(_uses_table(client.get(f"/assessments/{uses.pk}/")))
    for key in ("cvd-2015", "photoresist-2004"):  # computed or not
        assert f'<td class="small">{registry.get(key).full_title}</td>' in table
        assert key not in table


def test_the_full_title_gives_the_edition_year():
    for scenario in registry.scenarios():
        assert str(scenario.edition) in scenario.full_title
    assert presentation.method_title("cvd-2015") == registry.get("cvd-2015").full_title
    assert presentation.method_title("no-such-method") == "no-such-method"  # an imported case's unknown method


def test_no_page_template_prints_a_scenario_key():
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "templates"
    printed = re.compile(r"\{\{\s*[\w.]*scenario_key\s*\}\}")
    found = [f"{path.relative_to(templates)}: {line.strip()}"
             for path in templates.rglob("*.html") for line in path.read_text(encoding="utf-8").splitlines()
             if printed.search(line) and not re.search(r'value="\{\{\s*[\w.]*scenario_key', line)]
    assert not found


# --- Units that agree with the value ------------------------------------------------------


@pytest.fixture
def one_site(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    scenario.inputs |= {"Nsites": 1, "Nlines_site": 1}
    scenario.reasons |= {"Nsites": "one fab named in the notice", "Nlines_site": "one line"}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=reviewer)


def test_the_inputs_used_give_units_that_agree_with_the_value(one_site):
    rows = {row["param"].symbol: row for row in presentation.inputs_used(scenario=one_site, result=one_site.result)}
    assert (rows["Nsites"]["value"], rows["Nsites"]["units"]) == (1, "site")
    assert (rows["Nlines_site"]["value"], rows["Nlines_site"]["units"]) == (1, "line/site")
    assert (rows["TIMEapply_days"]["value"], rows["TIMEapply_days"]["units"]) == (360, "days/yr")
    assert (rows["Nshifts_day"]["value"], rows["Nshifts_day"]["units"]) == (3, "shifts/day")


def test_the_results_page_reads_1_site(client, reviewer, one_site):
    client.force_login(reviewer)
    body = client.get(f"/scenarios/{one_site.pk}/").content.decode()
    inputs = body[body.index('id="inputs-title"'):]  # the inputs table, not the sensitivity's
    row = re.search(r"<code>Nsites</code>.*?</tr>", inputs, flags=re.S).group(0)
    assert '<td class="text-end">1</td><td>site</td>' in row


def test_the_report_reads_1_site(one_site):
    rows = reading.inputs(irer_context(assessment=one_site.assessment))
    assert (rows["Nsites"]["value"], rows["Nsites"]["units"]) == ("1", "site")
    assert rows["TIMEapply_days"]["units"] == "days/yr"


def test_a_withheld_value_keeps_the_declared_units(reviewer):
    # A claimed production volume small enough for one site: the number of sites is computed
    # from it, so the sanitised copy withholds it, and "site" beside it would tell that it is 1.
    case = make_submission(production_volume_kg_yr=50, cbi_claims=["production_volume_kg_yr"])
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                     scenario_key="photoresist-2010")
    services.scenario_compute(scenario=scenario, by=reviewer)
    sanitised = reading.inputs(irer_context(assessment=scenario.assessment, sanitised=True))
    assert (sanitised["Nsites"]["value"], sanitised["Nsites"]["units"]) == (CBI_TEXT, "sites")
    full = reading.inputs(irer_context(assessment=scenario.assessment))
    assert (full["Nsites"]["value"], full["Nsites"]["units"], full["Nsites"]["standing"]) == ("1", "site", "Computed")


# --- Facility quantities with their labels -------------------------------------------------


def test_the_results_page_labels_every_facility_quantity(client, reviewer, one_site):
    client.force_login(reviewer)
    body = client.get(f"/scenarios/{one_site.pk}/").content.decode()
    start = body.index('id="facility-title"')
    table = body[start: body.index("</table>", start)]
    # a row without a label starts with the bare symbol
    assert not re.search(r'<th scope="row" class="fw-normal"><code>', table)
    text = html.unescape(re.sub(r"<[^>]+>", " ", table))
    # The releases' sum is not a facility estimate: the summary gives the one total (issue 26)
    assert "All releases added up" not in text and "release_total_kg_yr" not in text
    # ESD 2010 §6: the releases add up to the 5,000 kg/yr used (Eqn 4-1b, the ESD's rule)
    total = re.search(r'<p[^>]*id="release-total"[^>]*>(.*?)</p>', body, flags=re.S).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", total)).startswith("5,000 kg/yr in all, all sites:")
    # one site, 1 line: 2 operators × 1 line × 3 shifts + 6 technicians × 3 shifts = 6 + 18 = 24 (Eqn 5-1, 5-2)
    assert "Nworkers_exposed_site 24 workers/site" in re.sub(r"\s+", " ", text)
