"""The results page's "What drives each number" (issue 30, item 5): a tornado chart per
release and exposure output, each with a table giving the engine's own figures
(``esd.sensitivity.analyse``), and the override-impact table, whose "at the defaults" figure is
the engine's compute with the overridden inputs at their defaults."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from assessments import services
from assessments.esd import registry, sensitivity
from assessments.numbers import quantity
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"


@pytest.fixture
def scenario(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=KEY)
    return services.scenario_compute(scenario=scenario, by=reviewer)


def _page(client, reviewer, scenario) -> str:
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{scenario.pk}/")
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def _figures(page: str, n: int) -> str:
    start = page.index(f'id="sensitivity-{n}"')
    return page[start:page.index("</figure>", start)]


def test_each_chart_table_gives_the_engines_figures(client, reviewer, scenario):
    page = _page(client, reviewer, scenario)
    analysed = sensitivity.analyse(KEY, scenario.computed_inputs, samples=0)
    charted = [o for o in analysed["outputs"] if o["drivers"]]
    assert charted, "the photoresist use has ranged inputs"
    assert page.count('class="tornado mb-3"') == len(charted)
    for n, output in enumerate(charted, start=1):
        figure = _figures(page, n)
        assert output["label"] in figure
        units = sensitivity.UNITS[output["quantity"]]
        assert f"{quantity(output['base'], units)} as computed" in figure
        table = figure[figure.index("<table"):]
        rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", table, re.S)
        assert len(rows) == len(output["drivers"])
        for row, driver in zip(rows, output["drivers"]):
            assert quantity(driver["output_at_low"], units) in row
            assert quantity(driver["output_at_high"], units) in row
            assert driver["source"] in row


def test_each_chart_is_an_svg_image_with_a_name_and_a_table(client, reviewer, scenario):
    page = _page(client, reviewer, scenario)
    figure = _figures(page, 1)
    assert re.search(r'<svg class="tornado-chart"[^>]*role="img"[^>]*aria-label="Tornado chart: ', figure)
    assert 'aria-describedby="sensitivity-1-description"' in figure and 'id="sensitivity-1-description"' in figure
    assert "<summary>Table</summary>" in figure and "<caption" in figure and 'scope="col"' in figure


def test_override_table_at_defaults_is_the_engines_compute_at_the_defaults(client, reviewer, scenario):
    page = _page(client, reviewer, scenario)
    found = sensitivity.study(KEY, scenario.computed_inputs, samples=0)
    moved = [o for o in found.outputs if o.overrides]
    assert moved, "the case's concentration overrides the document's default"
    # The compute at the defaults, by the engine: each overridden input set back to its default.
    params = {p.symbol: p for p in registry.get(KEY).params.params}
    at_defaults = dict(scenario.computed_inputs)
    for symbol in {o.input for output in moved for o in output.overrides}:
        default = params[symbol].default
        if default is None:
            at_defaults.pop(symbol, None)
        else:
            at_defaults[symbol] = params[symbol].as_input(default) if params[symbol].share else default
    figures = sensitivity.figures(registry.compute(KEY, at_defaults))
    table = page[page.index('id="sensitivity-overrides"'):]
    table = table[:table.index("</table>")]
    for output in moved:
        expected = sensitivity.value_at(figures, output.key)
        assert expected == pytest.approx(output.output_at_all_defaults, rel=1e-12)
        row = next(r for r in re.findall(r"<tr><th scope=\"row\".*?</tr>", table, re.S) if f">{output.label}<" in r)
        assert quantity(expected, output.units) in row
        assert quantity(output.base, output.units) in row


def test_a_use_whose_inputs_changed_shows_no_analysis(client, reviewer, scenario):
    scenario.inputs = {**scenario.inputs, "Nshifts": 2}
    scenario.save()
    page = _page(client, reviewer, scenario)
    assert 'id="sensitivity-not-shown"' in page and "tornado-chart" not in page
