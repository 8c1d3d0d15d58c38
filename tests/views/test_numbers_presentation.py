"""One number presentation (assessments.numbers) and the results page that uses it: a
summary first (the facility facts and estimates by name, with units), the releases and
exposures, a basis sentence several rows share given once, and the detail folded away."""

from __future__ import annotations

import re

import pytest

from assessments import numbers, presentation, services
from assessments.esd import text
from assessments.esd.results import ENGINE_VERSION
from assessments.templatetags import figures
from tests.conftest import make_assessment, make_submission

# Numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (4.6018518, "4.6"),  # 3 significant figures, no padding zeros, no float tail
        (0.0277778, "0.0278"),
        (2923.98, "2,924"),  # a whole part is never rounded away; thousands separated
        (5000.0, "5,000"),
        (999_999.4, "999,999"),
        (999_999.6, "1E+6"),  # rounds to a million: E-notation, decided on the rounded number
        (1.94e13, "1.94E+13"),  # the row that held 19,400,000,000,000 beside 4.85E+15
        (4.85e15, "4.85E+15"),
        (19_400_000_000_000, "1.94E+13"),  # an int follows the same rule
        (0.001, "0.001"),
        (0.000999, "9.99E-4"),  # below a thousandth: E-notation
        (1.178e-8, "1.18E-8"),
        (0.3834876543, "0.383"),  # History's and Compare's 10-digit floats
        (82.26027775, "82.3"),
        (-0.5, "-0.5"),
        (0, "0"),
        (None, "—"),
        ("high end", "high end"),
    ],
)
def test_significant_prints_three_figures_and_switches_to_e_notation_at_one_threshold(value, shown):
    assert numbers.significant(value) == shown


def test_the_e_notation_threshold_is_the_same_in_both_directions_and_for_ints_and_floats():
    below, above = numbers.E_NOTATION_BELOW, numbers.E_NOTATION_FROM
    assert (below, above) == (1e-3, 1e6)
    assert "E" in numbers.significant(below * 0.99) and "E" not in numbers.significant(below)
    assert "E" in numbers.significant(above) and "E" not in numbers.significant(above * 0.99)
    assert numbers.significant(int(above)) == numbers.significant(float(above)) == "1E+6"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (24.45, "24.45"),  # every digit entered: V_molar was used as 24.45, never 24.4
        (123.45678901234, "123.45678901234"),
        (5000, "5,000"),
        (0.15, "0.15"),
        (1e-6, "1E-6"),
        (1.5e-7, "1.5E-7"),
        (2_500_000, "2.5E+6"),
        (2_345_678, "2.345678E+6"),
        (0.0015, "0.0015"),
        (None, "—"),
    ],
)
def test_an_input_prints_as_entered(value, shown):
    assert numbers.entered(value) == shown


@pytest.mark.parametrize(
    ("value", "units", "shown"),
    [
        (1, "sites", "1 site"),
        (2, "sites", "2 sites"),
        (1, "days/yr", "1 day/yr"),
        (250, "days/yr", "250 days/yr"),
        (1, "containers/site-yr", "1 container/site-yr"),
        (1, "workers", "1 worker"),
        (2.2987, "kg/site-day", "2.3 kg/site-day"),
        (1, "kg/site-day", "1 kg/site-day"),
        (1.178e-8, "kg/s", "1.18E-8 kg/s"),
        (None, "kg/yr", "—"),
    ],
)
def test_a_quantity_has_its_units_and_a_count_agrees_with_its_number(value, units, shown):
    assert numbers.quantity(value, units) == shown


@pytest.mark.parametrize(
    ("fraction", "shown"),
    [(0.15, "15 %"), (1, "100 %"), (0.0004, "< 0.1 %"), (0.000001, "< 0.1 %"), (0, "0 %"), (0.012345, "1.23 %")],
)
def test_a_share_that_is_not_zero_never_reads_zero_percent(fraction, shown):
    assert numbers.percent(fraction) == shown


def test_epa_e_notation_for_the_report_keeps_two_figures_and_its_zeros():
    assert [numbers.epa(x) for x in (0.1605, 57.78, 5000, 0.0277778, 0)] == ["1.6E-1", "5.8E+1", "5.0E+3", "2.8E-2", "0.0E+0"]


def test_the_template_filters_and_the_report_read_the_one_module():
    assert figures.significant is numbers.significant and figures.epa is numbers.epa
    assert {"sig", "epa", "entered", "quantity", "percent"} <= set(figures.register.filters)
    assert figures.register.filters["sig"] is numbers.significant


@pytest.mark.parametrize("value", [1.178e-8, 1.5e-7, 4.2e-4, 1.94e13, 2.5e6, 0.0277778, 4.6018518, 2923.98])
def test_the_engines_sentences_spell_a_number_as_the_pages_do(value):
    # A basis sentence (esd.text.figure) and the trace beside it (numbers.significant) print one number alike.
    assert text.figure(value) == numbers.significant(value)
    # esd.text.num keeps padding zeros ("4.60"), but switches to E-notation at the same threshold, spelled alike.
    assert ("E" in text.num(value)) == ("E" in numbers.significant(value))
    assert "e" not in text.num(value) and "e" not in text.figure(value)


def test_a_medium_share_that_is_not_zero_is_not_printed_as_zero_percent():
    release = {"media": [{"medium": "water", "fraction": 0.9996}, {"medium": "air", "fraction": 0.0004}]}
    assert presentation.release_media_text(release) == "Water 100 %, Air < 0.1 %"


# The results page --------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytest.fixture
def computed(reviewer):
    """A photoresist use (ESD 2010) with its worker exposures, computed: 5,000 kg/yr at 15 %."""
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    return services.scenario_compute(scenario=scenario, by=reviewer)


def _page(client, reviewer, scenario) -> str:
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{scenario.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytestmark_db
def test_the_results_page_opens_with_the_facility_facts_by_name_with_units(client, reviewer, computed):
    html = _page(client, reviewer, computed)
    summary = html[html.index('id="summary"'): html.index('id="releases-title"')]
    words = _text(summary)
    # ESD 2010 §6.1.4 by hand: 0.994 × 5,000 / (5.4 × 360) = 2.56, rounded up to 3 sites; 360 application days.
    assert "Number of sites 3 sites (computed)" in words
    assert "Days of operation 360 days/yr" in words
    assert "Chemical used, all sites 5,000 kg/yr" in words
    # The facility estimates by the engine's words, with units, before the releases.
    # ESD 2010 §6.1.4: Qchem_day = 0.994 × 5,000 / (3 × 360) = 4.60 kg/site-day.
    assert "Daily dispense rate recalculated for a whole (or known) number of sites Qchem_day 4.6 kg chemical dispensed/site-day" in words
    assert html.index('id="summary"') < html.index('id="facility-title"') < html.index('id="releases-title"')


@pytestmark_db
def test_a_basis_sentence_every_exposure_shares_is_printed_once(client, reviewer, computed):
    html = _page(client, reviewer, computed)
    # Every dermal estimate of ESD 2010 §5 assumes no gloves (Appendix B.6): ten rows, one sentence.
    assert len(computed.result["exposures"]) == 5
    assert sum(e["basis"].count("no gloves assumed") for x in computed.result["exposures"] for e in x["estimates"]) == 10
    assert html.count("no gloves assumed (Appendix B.6)") + html.count("No gloves assumed (Appendix B.6)") == 1
    assert 'id="exposure-basis-common"' in html and "Every exposure: No gloves assumed (Appendix B.6)." in html
    # What both estimates of one activity share is in its one folded basis, once.
    workers = "up to 48 operators per site (Eqn 5-1)"
    assert sum(e["basis"].count(workers) for e in computed.result["exposures"][0]["estimates"]) == 2
    assert html.lower().count(workers.lower()) == 1


@pytestmark_db
def test_the_trace_the_inputs_and_each_basis_are_folded(client, reviewer, computed):
    html = _page(client, reviewer, computed)
    for detail in ('<details id="trace-detail">', '<details id="inputs-detail">'):
        assert detail in html
    trace = html[html.index('<details id="trace-detail">'):]
    assert "</details>" in trace and "Qchem_day" in trace[: trace.index("</details>")]
    releases = html[html.index('id="releases-title"'): html.index('id="exposures-title"')]
    assert releases.count("<summary>Basis") == len(computed.result["releases"])


@pytestmark_db
def test_the_inputs_table_prints_each_input_as_entered(client, reviewer, computed):
    computed.inputs["Qchem_yr"] = 123456.789
    computed.save()
    services.scenario_compute(scenario=computed, by=reviewer)
    html = _page(client, reviewer, computed)
    inputs = html[html.index('<details id="inputs-detail">'):]
    assert ">123,456.789<" in inputs  # six figures (123,457) would not be the number used


@pytestmark_db
def test_the_results_page_spells_e_notation_one_way(client, reviewer, reviewer_computed_volatile):
    html = _page(client, reviewer, reviewer_computed_volatile)
    body = _text(html[html.index("<main"): html.index('id="trace-title"')])  # the trace prints the documents' formulas
    assert not re.search(r"\d\.?\d*e[+-]\d", body), re.search(r".{40}\d\.?\d*e[+-]\d.{20}", body)
    assert re.search(r"\d(\.\d+)?E[+-][1-9]\d*", body)  # the small vapour figures are in E-notation


@pytest.fixture
def reviewer_computed_volatile(reviewer):
    """A volatile chemical (10 torr) at 1 % in the resist: vapour releases and inhalation
    rates small enough to print in E-notation."""
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.01)
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    scenario.inputs |= {"VPchem": 10.0, "MWchem": 100.0, "Fchem": 0.0001}
    scenario.reasons |= {"VPchem": "MSDS", "MWchem": "MSDS", "Fchem": "MSDS: 0.01 %"}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=reviewer)


@pytestmark_db
def test_a_result_without_an_engine_version_does_not_print_an_empty_one(client, reviewer, computed):
    result = dict(computed.result)
    del result["engine_version"]
    computed.result = result
    computed.save()
    words = _text(_page(client, reviewer, computed))
    assert "engine )" not in words and "engine ·" not in words and not re.search(r"engine\s*(·|\)|$)", words)
    assert f"engine {ENGINE_VERSION}" not in words
