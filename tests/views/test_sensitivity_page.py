""""What drives each number" (issue 30, item 5): on the results page a row per release and
exposure output (its lowest and highest over the documented ranges and the input that moves it
most) and the override-impact table, whose "at the defaults" figure is the engine's compute with
the overridden inputs at their defaults; on the use's sensitivity page a tornado chart per output,
each with a table giving the engine's own figures (``esd.sensitivity.analyse``) for every input
that moves it, and the others named."""

from __future__ import annotations

import html as html_lib
import math
import re
from typing import Any

import pytest
from django.test import Client

from assessments import services
from assessments.esd import registry, sensitivity
from assessments.models import Scenario
from assessments.numbers import quantity
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"


@pytest.fixture
def scenario(reviewer: Any) -> Scenario:
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=KEY)
    return services.scenario_compute(scenario=scenario, by=reviewer)


def _inputs(scenario: Scenario) -> dict[str, Any]:
    """The inputs a computed use's result was computed from."""
    inputs: dict[str, Any] | None = scenario.computed_inputs
    assert inputs is not None, "the use is computed"
    return inputs


def _page(client: Client, reviewer: Any, scenario: Scenario, charts: bool = False) -> str:
    client.force_login(reviewer)
    response = client.get(f"/scenarios/{scenario.pk}/{'sensitivity/' if charts else ''}")
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def _figures(page: str, n: int) -> str:
    start = page.index(f'id="sensitivity-{n}"')
    return page[start:page.index("</figure>", start)]


def reads_as(text: str, value: float, figures: int | None = None) -> bool:
    """Whether ``text`` is ``value`` rounded at its last printed digit (``4,575.88``: to 0.01;
    ``1.2E-8``: to 1E-9), or, with ``figures``, to that many significant figures (``30``, six
    figures: 30.0000)."""
    mantissa, _, exponent = text.replace(",", "").partition("E")
    decimals = len(mantissa.partition(".")[2]) - int(exponent or 0)
    if figures is not None:
        decimals = figures - 1 - math.floor(math.log10(abs(value)))
    return abs(float(text.replace(",", "")) - value) <= 0.5 * 10.0 ** -decimals * (1 + 1e-9)


def test_each_chart_table_gives_the_engines_figures(client: Client, reviewer: Any, scenario: Scenario) -> None:
    page = _page(client, reviewer, scenario, charts=True)
    analysed = sensitivity.analyse(KEY, _inputs(scenario), samples=0)
    charted = [o for o in analysed["outputs"] if o["drivers"]]
    assert charted, "the photoresist use has ranged inputs"
    assert page.count('class="tornado mb-3"') == len(charted)
    params = {p.symbol: p for p in registry.get(KEY).params.params}
    for n, output in enumerate(charted, start=1):
        figure = _figures(page, n)
        assert output["label"] in figure
        units = sensitivity.UNITS[output["quantity"]]
        assert f"{quantity(output['base'], units)} as computed" in figure
        moving = [d for d in output["drivers"] if d["output_at_low"] != d["output_at_high"]]
        still = [d for d in output["drivers"] if d["output_at_low"] == d["output_at_high"]]
        rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", figure[figure.index("<table"):], re.S) if moving else []
        assert len(rows) == len(moving) and figure.count('<rect class="tornado-') == 2 * len(moving)
        for row, driver in zip(rows, moving):
            ends = re.findall(r'<td class="text-end[^"]*"[^>]*>([^<]*)</td>', row)
            worded = re.fullmatch(rf"moves it by less than ([0-9.]+) %: (.*) {re.escape(units)} at either end",
                                  ends[0]) if len(ends) == 1 else None
            if worded:  # alike at six figures: the move is less than the share it states
                assert reads_as(worded.group(2), driver["output_at_low"], figures=6)
                assert reads_as(worded.group(2), driver["output_at_high"], figures=6)
                moved = abs(driver["output_at_high"] - driver["output_at_low"]) / abs(output["base"])
                assert moved < float(worded.group(1)) / 100
            else:  # the engine's two ends, rounded, printed apart
                low, high = (e.removesuffix(f" {units}") for e in ends)
                assert low != high
                assert reads_as(low, driver["output_at_low"]) and reads_as(high, driver["output_at_high"])
            assert driver["source"] in row
        # The inputs that do not move it are named, not drawn.
        named = re.search(r'<p class="small mb-1 not-moved">Not moved by (.*?) \(at either end', figure)
        assert bool(named) == bool(still)
        for driver in still:
            assert named is not None and params[driver["input"]].label in named.group(1)


def test_the_results_page_summarises_each_output_and_links_its_chart(
    client: Client, reviewer: Any, scenario: Scenario
) -> None:
    page = _page(client, reviewer, scenario)
    assert "tornado-chart" not in page, "the charts are on the use's sensitivity page"
    analysed = sensitivity.analyse(KEY, _inputs(scenario), samples=0)
    charted = [o for o in analysed["outputs"] if o["drivers"]]
    params = {p.symbol: p for p in registry.get(KEY).params.params}
    table = page[page.index('id="sensitivity-summary"'):]
    rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", table[:table.index("</table>")], re.S)
    assert len(rows) == len(charted)
    for n, (row, output) in enumerate(zip(rows, charted), start=1):
        units = sensitivity.UNITS[output["quantity"]]
        ends = [d[e] for d in output["drivers"] for e in ("output_at_low", "output_at_high")] + [output["base"]]
        assert f'href="/scenarios/{scenario.pk}/sensitivity/#sensitivity-{n}">{output["label"]}<' in row
        cells = re.findall(r'<td class="text-end text-nowrap">([^<]*)</td>', row)
        lowest, highest = (c.removesuffix(f" {units}") for c in cells[1:])
        # As computed, three figures; the lowest and the highest, the engine's, printed apart.
        assert cells[0] == quantity(output["base"], units) and len(cells) == 3
        assert reads_as(lowest, min(ends)) and reads_as(highest, max(ends))
        assert lowest != highest or reads_as(lowest, max(ends), figures=6)
        top = output["drivers"][0]
        if top["output_at_low"] != top["output_at_high"]:
            assert params[top["input"]].label in row
        else:
            assert "none of its ranged inputs" in row


def test_the_results_page_stays_small(client: Client, reviewer: Any, scenario: Scenario) -> None:
    """Every chart of a photoresist use on the results page made it 1.3 MB."""
    assert len(_page(client, reviewer, scenario)) < 250_000


def test_override_table_at_defaults_is_the_engines_compute_at_the_defaults(
    client: Client, reviewer: Any, scenario: Scenario
) -> None:
    page = _page(client, reviewer, scenario)
    found = sensitivity.study(KEY, _inputs(scenario), samples=0)
    moved = [o for o in found.outputs if o.overrides]
    assert moved, "the case's concentration overrides the document's default"
    # The compute at the defaults, by the engine: each overridden input set back to its default.
    params = {p.symbol: p for p in registry.get(KEY).params.params}
    at_defaults = dict(_inputs(scenario))
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
        assert output.key is not None
        expected = sensitivity.value_at(figures, output.key)
        assert expected == pytest.approx(output.output_at_all_defaults, rel=1e-12)
        row = next(r for r in re.findall(r"<tr><th scope=\"row\".*?</tr>", table, re.S) if f">{output.label}<" in r)
        assert quantity(expected, output.units) in row
        assert quantity(output.base, output.units) in row


def test_a_use_whose_inputs_changed_shows_no_analysis(client: Client, reviewer: Any, scenario: Scenario) -> None:
    scenario.inputs = {**scenario.inputs, "Nshifts": 2}
    scenario.save()
    for charts in (False, True):
        page = _page(client, reviewer, scenario, charts=charts)
        assert 'id="sensitivity-not-shown"' in page and "tornado-chart" not in page
        assert 'id="sensitivity-summary"' not in page
