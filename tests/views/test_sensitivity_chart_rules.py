"""The sensitivity page's charts (issue 41), over every scenario of the registry: each bar prints
its two ends apart, or says in words that its input moves the number by less than a share that
the engine's figures bear out; the chart's sentence, its bars and its table agree; and no two
texts of a chart overlap, nor does any text cross a bar, the band or the base line, nor leave
the chart.

Each chart is drawn as the page draws it (``sensitivity_view.chart`` and the page's template),
for every output of the engine's study of each test case of ``tests/esd/test_sensitivity.py``
(the required inputs, the optional parts opened, every ranged input moved) and of the demo's
sample case P-18-0123, with the band and without; then read back from the SVG: a text's box
is its ``x`` by its anchor, its width (the font's advances at the chart's font size:
``sensitivity_view.text_width``, checked against the vendored font below) and the font's
ascent and descent about its baseline ``y``."""

from __future__ import annotations

import html as html_lib
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from assessments import sensitivity_view
from assessments.esd import registry, sensitivity
from assessments.numbers import quantity
from tests.esd.test_sensitivity import CASES, case_inputs

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "static" / "fonts" / "ReviewerSans-Regular.ttf"
STYLESHEET = ROOT / "static" / "css" / "app.css"
#: The demo's sample case P-18-0123 (revision 1): its use's inputs as computed.
SAMPLE = "sample case P-18-0123"
SAMPLE_KEY = "photoresist-2018"
SAMPLE_INPUTS = {"Qchem_yr": 5000, "Fchem": 0.15, "stripping_process": "unknown", "daily_use_basis": "chemsteer",
                 "include_exposures": "no"}
CHART_CASES = [*CASES, (SAMPLE_KEY, SAMPLE)]
#: The band's samples: the product's default for the sample case (its band as the page draws it),
#: fewer for the others, so the test is quick.
SAMPLES = {SAMPLE: sensitivity.DEFAULT_SAMPLES}
FEWER_SAMPLES = 200
MOVES_LESS = re.compile(r"moves it by less than ([0-9.]+) %")


@cache
def study(key: str, case: str) -> sensitivity.Study:
    inputs = SAMPLE_INPUTS if case == SAMPLE else case_inputs(key, case)
    return sensitivity.study(key, inputs, samples=SAMPLES.get(case, FEWER_SAMPLES), seed=1)


def charted(key: str, case: str) -> list[sensitivity.Output]:
    return [o for o in study(key, case).outputs if o.drivers]


def charts(key: str, case: str, *, banded: bool) -> list[dict[str, Any]]:
    """Each chart of the case, as ``sensitivity_view.chart`` draws it (with the engine's band)."""
    params = {p.symbol: p for p in registry.get(key).params.params}
    return [sensitivity_view.chart(o, params, n, band=o.band.as_dict() if banded and o.band else None)
            for n, o in enumerate(charted(key, case), start=1)]


@dataclass
class Text:
    cls: str
    x: float
    y: float
    anchor: str
    text: str

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom): from ``x`` by the anchor, the width, the font's ascent and descent."""
        width = sensitivity_view.text_width(self.text)
        left = self.x - {"start": 0.0, "middle": width / 2, "end": width}[self.anchor]
        em = sensitivity_view.FONT_SIZE / sensitivity_view.UNITS_PER_EM
        return left, self.y - sensitivity_view.ASCENT * em, left + width, self.y + sensitivity_view.DESCENT * em


@dataclass
class Figure:
    """One chart as the page prints it: its sentence, its SVG and its table's rows."""

    description: str
    width: float
    height: float
    texts: list[Text]
    #: (class, box) of each bar, the band's line and mark and each piece of the base line.
    marks: list[tuple[str, tuple[float, float, float, float]]]
    #: Each table row's cells after the input's name and range and source.
    table: list[list[str]]

    def bars(self) -> list[float]:
        """Each bar's top, in order (two segments a bar)."""
        return sorted({box[1] for cls, box in self.marks if cls.startswith("tornado-low")})

    def beside(self, top: float) -> list[str]:
        """The figures on the bar whose top is ``top``: the values drawn on its line, left to right."""
        bottom = top + sensitivity_view.BAR
        on_line = [t for t in self.texts if t.cls == "tornado-value" and t.box[1] < bottom and t.box[3] > top]
        return [t.text for t in sorted(on_line, key=lambda t: t.box[0])]


def _mark(element: ET.Element) -> tuple[str, tuple[float, float, float, float]]:
    cls = element.get("class", "")
    if element.tag == "rect":
        x, y, w, h = (float(element.get(a, "0")) for a in ("x", "y", "width", "height"))
        return cls, (x, y, x + w, y + h)
    x1, y1, x2, y2 = (float(element.get(a, "0")) for a in ("x1", "y1", "x2", "y2"))
    half = float(element.get("stroke-width", "1.5")) / 2  # the base line's 1.5 (static/css/app.css)
    return cls, (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half)


def drawn(chart_list: list[dict[str, Any]]) -> list[Figure]:
    """The charts as the page's template prints them, read back."""
    page = render_to_string("assessments/_sensitivity_charts.html", {
        "sensitivity": {"intro": "", "band_note": "", "charts": chart_list,
                        "band": sensitivity_view.band_summary({"samples": FEWER_SAMPLES, "seed": 1, "outputs": [{}]})},
    })
    figures = []
    for figure in re.findall(r"<figure .*?</figure>", page, re.S):
        sentence = re.search(r'-description">(.*?)</p>', figure, re.S)
        assert sentence is not None, "every chart has its sentence"
        description = html_lib.unescape(sentence.group(1))
        table = []
        body = re.search(r'class="table table-sm align-top sensitivity-table">.*?<tbody>(.*?)</tbody>', figure, re.S)
        for row in re.findall(r"<tr>(.*?)</tr>", body.group(1) if body else "", re.S):
            cells = [html_lib.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            table.append(cells[2:])  # after the documented range and its source
        found = re.search(r"<svg .*?</svg>", figure, re.S)
        if found is None:  # no input moves it: a sentence, no chart
            figures.append(Figure(description, 0, 0, [], [], table))
            continue
        svg = ET.fromstring(found.group(0))
        _, _, width, height = (float(v) for v in svg.get("viewBox", "").split())
        texts = [Text(t.get("class", ""), float(t.get("x", "")), float(t.get("y", "")), t.get("text-anchor", ""),
                      t.text or "") for t in svg.iter("text")]
        marks = [_mark(m) for m in svg if m.tag in ("rect", "line")]
        figures.append(Figure(description, width, height, texts, marks, table))
    return figures


def _meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# --- the figures: a bar's two ends print apart, or it says it moves the number less ------------


def bar_faults(output: sensitivity.Output, figure: Figure) -> list[str]:
    """Each bar whose figures neither print two different ends nor say, truly, that its input
    moves the number by less than a stated share of it."""
    moving = [d for d in output.drivers if d.swing > 0]
    bars = figure.bars()
    assert len(bars) == len(moving), f"{output.label}: a bar for each input that moves it"
    faults = []
    for driver, top in zip(moving, bars):
        shown = figure.beside(top)
        said = MOVES_LESS.fullmatch(shown[0]) if len(shown) == 1 else None
        if len(shown) == 2 and shown[0] != shown[1]:
            continue
        if said:
            scale = abs(output.base) or max(abs(driver.output_at_low), abs(driver.output_at_high))
            if driver.swing / scale < float(said.group(1)) / 100:
                continue
        faults.append(f"{output.label}, {driver.input}: {' and '.join(shown)}")
    return faults


@pytest.mark.parametrize(("key", "case"), CHART_CASES)
def test_every_bar_prints_its_two_ends_apart_or_says_it_moves_the_number_less(key: str, case: str) -> None:
    faults = [f for o, fig in zip(charted(key, case), drawn(charts(key, case, banded=False)))
              for f in bar_faults(o, fig)]
    assert faults == []


def _three_figures(at_low: float, at_high: float, base: float, units: str) -> dict[str, Any]:
    """The rule before issue 41: three significant figures, whatever they hide."""
    return {"at_low": quantity(at_low, units), "at_high": quantity(at_high, units), "share": 0.0, "moved": ""}


def test_three_figures_alone_fail_the_rule_on_the_sample_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sensitivity_view, "bar_ends", _three_figures)
    output = charted(SAMPLE_KEY, SAMPLE)[0]
    [figure] = drawn(charts(SAMPLE_KEY, SAMPLE, banded=False)[:1])
    # Three of the five inputs that move Release 1's kg/yr move it by about 2E-16 of it.
    assert bar_faults(output, figure) == [
        f"{output.label}, {symbol}: 30.2 kg/yr and 30.2 kg/yr" for symbol in ("TIMEapply_hours", "Qapply",
                                                                               "TIMEapply_days")]


def test_the_sample_cases_first_chart_counts_and_prints_its_bars_alike() -> None:
    [figure] = drawn(charts(SAMPLE_KEY, SAMPLE, banded=False)[:1])
    # Hand: Fcontainer_disp gives 15.045 and 30.181 (3 figures: 15, 30.2); Napply 30.055 and 30.181
    # (30.1, 30.2); the other three 30.181086519114686 to ...693, alike at six figures (30.1811),
    # a move of 2E-16 of the number, less than 1E-5 (0.001 %).
    assert figure.description == (
        "Release 1: Container residue, high end: kg/yr, all sites: 30.2 kg/yr as computed. Of the 16 inputs with "
        "a documented range, 5 move it, 3 of them by less than 0.001 %; the most, Fraction of the photoresist left "
        "in emptied containers, from 15 kg/yr at its low end to 30.2 kg/yr at its high end.")
    assert [figure.beside(top) for top in figure.bars()] == [
        ["15 kg/yr", "30.2 kg/yr"], ["30.1 kg/yr", "30.2 kg/yr"]] + [["moves it by less than 0.001 %"]] * 3
    assert figure.table == [["15 kg/yr", "30.2 kg/yr"], ["30.1 kg/yr", "30.2 kg/yr"]] + [
        ["moves it by less than 0.001 %: 30.1811 kg/yr at either end"]] * 3


@pytest.mark.parametrize(("ends", "printed"), [
    # Hand: 30.1811 and 30.1846 print alike at 3 and 4 figures (30.2; 30.18), apart at 5.
    ((30.1811, 30.1846, 30.1811), ("30.181 kg/yr", "30.185 kg/yr", "")),
    # 1 and 1.000002: alike at six figures (1); the move, 2E-6 of the number, is less than 0.001 %.
    ((1.0, 1.000002, 1.0), ("1 kg/yr", "1 kg/yr", "moves it by less than 0.001 %")),
    # 100 and 100.002 print apart only at six figures; 100.0002 not even there.
    ((100.0, 100.002, 100.0), ("100 kg/yr", "100.002 kg/yr", "")),
    ((100.0, 100.0002, 100.0), ("100 kg/yr", "100 kg/yr", "moves it by less than 0.001 %")),
    ((1.0e-9, 1.00000002e-9, 1.0e-9), ("1E-9 kg/yr", "1E-9 kg/yr", "moves it by less than 0.001 %")),
    ((4.0, 4.0, 4.0), ("4 kg/yr", "4 kg/yr", "")),
])
def test_a_bars_ends_print_with_the_fewest_figures_that_tell_them_apart(
    ends: tuple[float, float, float], printed: tuple[str, str, str]
) -> None:
    at_low, at_high, base = ends
    found = sensitivity_view.bar_ends(at_low, at_high, base, "kg/yr")
    assert (found["at_low"], found["at_high"], found["moved"]) == printed


def test_a_move_above_the_least_share_states_the_next_power_of_ten() -> None:
    # Hand: a move of 0.0005 from a number of 0.01 is 0.05 of it: less than 0.1 (10 %), not than 0.01.
    assert sensitivity_view.move_share(1000.0, 1000.0005, 0.01) == 0.1
    assert sensitivity_view.share_text(0.1) == "10 %"


def _output(*ends: tuple[float, float]) -> sensitivity.Output:
    """An output of 10 kg/yr with a driver (inputs A, B, ...) for each pair of ends."""
    drivers = [sensitivity.Driver(chr(ord("A") + i), 0.0, 1.0, "Doc, Table 1", low, high)
               for i, (low, high) in enumerate(ends)]
    return sensitivity.Output(id="release-1", estimate="output", quantity="kg_yr", label="Release 1", units="kg/yr",
                              base=10.0, drivers=drivers)


@pytest.mark.parametrize(("ends", "sentence"), [
    # Hand: 10 and 10.0000001 print alike at six figures (10); 1E-8 of the number, less than 0.001 %.
    (((10.0, 10.0000001), (10.0, 10.0)), "Release 1: 10 kg/yr as computed. Of the 2 inputs with a documented "
                                         "range, 1 moves it, by less than 0.001 %."),
    (((10.0, 10.0000001), (10.0000002, 10.0)), "Release 1: 10 kg/yr as computed. Of the 2 inputs with a "
                                               "documented range, 2 move it, each by less than 0.001 %."),
    (((8.0, 12.0), (10.0, 10.0000001)), "Release 1: 10 kg/yr as computed. Of the 2 inputs with a documented "
                                        "range, 2 move it, 1 of them by less than 0.001 %; the most, A, from 8 "
                                        "kg/yr at its low end to 12 kg/yr at its high end."),
    (((10.0, 10.0),), "Release 1: 10 kg/yr as computed. Of the 1 input with a documented range, 0 move it."),
])
def test_a_charts_sentence_counts_the_bars_that_move_it_by_less_than_they_show(
    ends: tuple[tuple[float, float], ...], sentence: str
) -> None:
    assert sensitivity_view.chart(_output(*ends), {}, 1)["description"] == sentence


def test_the_summary_says_when_the_input_that_moves_a_number_most_moves_it_by_less_than_it_shows() -> None:
    row = sensitivity_view.summary_row(_output((10.0, 10.0000001)), {}, 1, band=None, charts_url="/charts/")
    assert (row["low"], row["high"], row["moved_most"]) == (
        "10 kg/yr", "10 kg/yr", {"label": "A", "symbol": "", "moved": "moves it by less than 0.001 %"})
    row = sensitivity_view.summary_row(_output((10.0, 10.02)), {}, 1, band=None, charts_url="/charts/")
    assert (row["low"], row["high"], row["moved_most"]["moved"]) == ("10 kg/yr", "10.02 kg/yr", "")


@pytest.mark.parametrize(("key", "case"), CHART_CASES)
def test_each_charts_sentence_bars_and_table_agree(key: str, case: str) -> None:
    for figure in drawn(charts(key, case, banded=False)):
        bars = [figure.beside(top) for top in figure.bars()]
        counted = re.search(r"with a documented range, (\d+) moves? it(?:,(?: (\d+) of them| each)? by less than "
                            r"([0-9.]+ %))?", figure.description)
        assert counted, figure.description
        worded = [b[0] for b in bars if len(b) == 1]
        assert int(counted.group(1)) == len(bars) == len(figure.table)
        below = int(counted.group(2)) if counted.group(2) else (len(bars) if counted.group(3) else 0)
        assert below == len(worded)
        if worded:
            assert f"moves it by less than {counted.group(3)}" in worded
        for shown, cells in zip(bars, figure.table):
            if len(shown) == 1:
                assert len(cells) == 1 and cells[0].startswith(f"{shown[0]}: ")
            else:
                assert sorted(cells) == sorted(shown)
        most = re.search(r"the most, .*?, from (.*) at its low end to (.*) at its high end\.$", figure.description)
        assert bool(most) == bool(bars and len(bars[0]) == 2)
        if most:
            assert [most.group(1), most.group(2)] == figure.table[0]


# --- the layout: no text overlaps another, nor what is drawn, nor leaves the chart -------------


def layout_faults(figure: Figure) -> list[str]:
    faults = []
    for i, text in enumerate(figure.texts):
        left, top, right, bottom = text.box
        if left < 0 or top < 0 or right > figure.width or bottom > figure.height:
            faults.append(f"{text.text!r} leaves the chart")
        faults += [f"{text.text!r} overlaps {other.text!r}" for other in figure.texts[i + 1:]
                   if _meets(text.box, other.box)]
        faults += [f"{text.text!r} crosses a {cls}" for cls, box in figure.marks if _meets(text.box, box)]
    return faults


@pytest.mark.parametrize("banded", [True, False], ids=["band", "no-band"])
@pytest.mark.parametrize(("key", "case"), CHART_CASES)
def test_no_text_of_a_chart_overlaps_another_or_what_is_drawn(key: str, case: str, banded: bool) -> None:
    figures = [f for f in drawn(charts(key, case, banded=banded)) if f.table]
    assert figures and all(f.texts for f in figures)
    assert [(n, fault) for n, f in enumerate(figures, start=1) for fault in layout_faults(f)] == []


def _unmoved(words: str, x: float, line: float, y: float, *, before: bool) -> dict[str, Any]:
    """The band's figures before issue 41: at the band's ends, wherever the base line is."""
    return sensitivity_view._text("tornado-value", x - sensitivity_view.GAP if before else x + sensitivity_view.GAP,
                                  y, "end" if before else "start", words)


def _unbroken(texts: list[dict[str, Any]], x: float, top: float, bottom: float) -> list[dict[str, str]]:
    """The base line before issue 41: one line from the top to the bottom."""
    return [{"y1": f"{top:.1f}", "y2": f"{bottom:.1f}"}]


def test_the_old_layout_fails_the_rule_on_the_sample_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sensitivity_view, "_outside", _unmoved)
    [figure] = drawn(charts(SAMPLE_KEY, SAMPLE, banded=True)[:1])
    # The band's P95 (29.4 kg/yr) ends 13 units short of the base line (30.2 kg/yr): its figure crossed it.
    assert layout_faults(figure) == ["'29.4 kg/yr' crosses a tornado-base"]
    monkeypatch.setattr(sensitivity_view, "_base_segments", _unbroken)
    [figure] = drawn(charts(SAMPLE_KEY, SAMPLE, banded=True)[1:2])
    assert "'Fchem Mass fraction of the chemical in the photoresist' crosses a tornado-base" in layout_faults(figure)


# --- the width of a text: the vendored font's, at the stylesheet's size -----------------------


def test_the_charts_font_size_is_the_stylesheets() -> None:
    rule = re.search(r"\.tornado-chart \{[^}]*font: (\d+)px \"Reviewer Sans\"", STYLESHEET.read_text())
    assert rule and int(rule.group(1)) == sensitivity_view.FONT_SIZE


def test_the_layouts_metrics_are_the_vendored_fonts() -> None:
    font = TTFont(FONT)
    advances = {chr(code): font["hmtx"][name][0] for code, name in font.getBestCmap().items()}
    assert font["head"].unitsPerEm == sensitivity_view.UNITS_PER_EM
    assert (font["hhea"].ascent, -font["hhea"].descent) == (sensitivity_view.ASCENT, sensitivity_view.DESCENT)
    assert max(advances.values()) == sensitivity_view.WIDEST
    assert {c: advances[c] for c in sensitivity_view.ADVANCE} == sensitivity_view.ADVANCE


def test_every_character_a_chart_draws_is_measured_at_least_as_wide_as_the_font_draws_it() -> None:
    font = TTFont(FONT)
    advances = {chr(code): font["hmtx"][name][0] for code, name in font.getBestCmap().items()}
    drawn_characters = {c for key, case in CHART_CASES for chart in charts(key, case, banded=True)
                        for text in chart["texts"] for c in text["text"]}
    assert drawn_characters - set(sensitivity_view.ADVANCE) == set(), "every character drawn is listed"
    assert all(sensitivity_view.ADVANCE[c] >= advances[c] for c in drawn_characters)
