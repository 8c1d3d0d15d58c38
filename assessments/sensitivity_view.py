"""What drives each number: the engine's sensitivity analysis of one use, as the results page
summarises it, the use's sensitivity page draws it (issue 30, item 5) and the IRER's optional
appendix prints it.

:func:`use_sensitivity` asks the engine (``esd.sensitivity.study``, without the band) about a
computed use whose inputs are current. The results page gets a row per release and exposure
output (the output as computed, its lowest and highest over the inputs' documented ranges one
at a time, and the input that moves it most) and the override-impact rows (the output now, with
every overridden input back at its default, and their ratio). The sensitivity page
(``charts=True``) gets each output's tornado too: one bar per input that moves it, from the
output at the range's low end to the output at its high end, around the output as computed,
with the chart's geometry drawn here so the template only places numbers; the ranged inputs
that do not move it are named in a sentence, not drawn as empty bars. (A photoresist use has
78 outputs and 14 ranged inputs, of which about four move each output: every chart on the
results page made it 1.3 MB.)

A bar's ends print with the fewest significant figures, from three up to :data:`MOST_FIGURES`,
that tell them apart (:func:`bar_ends`); a bar whose ends still print alike says in words that
the input moves the number by less than a share of it (:data:`MOVES_LESS`), and the chart's
sentence counts those bars (:func:`description`), so the sentence, the bars and the table agree.
Every text of a chart is laid out clear of the others and of what is drawn (:func:`text_box`,
from the vendored font's metrics): the figures sit outside their bar and the base line, and the
base line breaks where an input's name runs across it.

The band (the Monte Carlo percentiles, one name everywhere: :data:`BAND_NAME`) is not computed
here: 2,000 samples take seconds, too slow for a page request or a report draw (:data:`NO_BAND`).
The report workers compute it when asked (``band_tasks``: the page's button, :data:`BAND_ACTION`)
and store it; the pages show a stored band of the use's current inputs beside each output (its
P5, P50 and P95, and on the charts a line from P5 to P95 with a mark at P50 under the bars),
labelled as an illustration (:data:`BAND_LABEL`).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from . import band_tasks
from .esd import registry, sensitivity
from .esd.parameters import CHOICE, EngineValidationError
from .models import Scenario
from .numbers import NOT_GIVEN, SIGNIFICANT, entered, quantity, significant, unit_for
from .presentation import CURRENT, UNCOMPUTED, scenario_state

#: Why the page shows no analysis for a use that is not current.
NOT_CURRENT_TEXT = "Compute the use again with its present inputs to see what drives each number."
NOT_COMPUTABLE_TEXT = "The engine cannot analyse these inputs now: {errors}."
#: The band's name (the engine declares it once): every sentence and label below reads it.
BAND_NAME = sensitivity.BAND_NAME
NO_BAND = (f"The {BAND_NAME} (the spread of each output when every ranged input varies at once) is not shown: it "
           "takes thousands of computations, too many for this page.")
#: The band's label, beside each chart that shows it.
BAND_LABEL = (BAND_NAME + " (illustration, {samples:,} samples, seed {seed}): the reported figure is the "
              "deterministic one")
#: The band's row on a chart, the name of its table, and its column in the results page's summary.
BAND_ROW = f"{BAND_NAME}, P5 to P95"
BAND_TABLE = "{label}: " + BAND_NAME
BAND_COLUMN = f"{BAND_NAME}, P5 to P95 (illustration)"
#: What the band varies and holds, after its label.
BAND_HELD = ("It draws each input the case leaves at its default within the range its document prints; the "
             "inputs the case sets are held at its values: {names}")
BAND_NOTHING_HELD = "It draws every input with a documented range within that range"
#: The button that asks the report workers for the band, when none is stored for these inputs.
BAND_ACTION = "Compute the band (about 3 s a use, by the report service)"
BAND_OFFER = (f"The {BAND_NAME} (the spread of each output when every ranged input varies at once) takes "
              "thousands of computations: the report service computes it on request.")
BAND_NONE = "The engine gives no band for these inputs: {note}."
#: The results page's summary of the charts, and the sentence naming a chart's unmoving inputs.
SUMMARY_CAPTION = ("Each release and exposure, its lowest and highest with one input at a time at either end of the "
                   "range its document prints, and the input that moves it most")
NOT_MOVED = "Not moved by {names} (at either end of {their} range)."
MOVED_BY_NONE = "none of its ranged inputs"
INTRO = ("Each bar shows how far one input moves the number when it is set to the low end, then the high end, "
         "of the range its document prints, every other input as given. The line marks the number as computed.")
#: A chart's description: the number, how many ranged inputs move it (:data:`COUNT_BELOW_SOME`,
#: :data:`COUNT_BELOW_ONE`, :data:`COUNT_BELOW_EACH`: how many of them by less than the figures
#: show), and the one that moves it most (:data:`MOVED_MOST`), else a full stop.
DESCRIPTION = "{label}: {base} as computed. Of the {ranged} with a documented range, {moving} it{below}{most}"
COUNT_BELOW_SOME = ", {count} of them by less than {share}"
COUNT_BELOW_ONE = ", by less than {share}"
COUNT_BELOW_EACH = ", each by less than {share}"
MOVED_MOST = "; the most, {name}, from {low} at its low end to {high} at its high end."
#: A bar whose two ends print alike even at :data:`MOST_FIGURES` (the chart's text beside it and,
#: with the output at either end, its table's cell).
MOVES_LESS = "moves it by less than {share}"
AT_EITHER_END = "{moved}: {value} at either end"
#: The line's label, above the chart.
BASE_LABEL = "as computed: {base}"

#: The most significant figures a bar's ends print with. They print with the fewest, from the
#: pages' three (``numbers.SIGNIFICANT``) up to this, that tell them apart; two ends that still
#: print alike are said to move the number by less than a share of it (:data:`MOVES_LESS`).
MOST_FIGURES = 6
#: The least share :data:`MOVES_LESS` states, as a power of ten: 1E-5 (0.001 %), what six figures
#: resolve. A larger move states the least power of ten above it.
LEAST_MOVE_EXPONENT = -5

#: The chart's geometry, in the SVG's own units (it scales to the page's width).
WIDTH = 720
PLOT_LEFT = 150
PLOT_RIGHT = 570
ROW = 42
TOP = 26
BAR = 14
#: Where an input's name starts, and the space between a bar's (or the band's) end and its figure.
LABEL_X = 4
GAP = 6
#: The least space between a text and the base line or the chart's edge: the line breaks where a
#: row's name would come closer, and a figure that would is moved past it.
CLEAR = 2

#: The chart's text as ``static/css/app.css`` sets it (``.tornado-chart``: 12px Reviewer Sans,
#: the vendored Liberation Sans 2.1.5, metric-compatible with its fallbacks): its size in the
#: SVG's units, and the font's ascent and descent (its hhea table) and advance widths (its hmtx
#: table, by character), in its 2,048 units an em. A character not listed takes the font's
#: widest advance, so a text is never drawn wider than it is laid out.
FONT_SIZE = 12
UNITS_PER_EM = 2048
ASCENT = 1854
DESCENT = 434
WIDEST = 2730
ADVANCES = {
    391: "'", 455: "ijl", 532: "|", 569: " !,./:;I[\\]ft", 682: "()-`r²³·", 684: "{}", 727: '"', 797: "*",
    819: "°", 961: "^", 1024: "Jcksvxyz", 1139: "#$0123456789?L_abdeghnopqu–", 1196: "+<=>~×",
    1251: "FTZ", 1366: "&ABEKPSVXY", 1479: "CDHNRUw", 1593: "GOQ", 1706: "Mm", 1821: "%", 1933: "W", 2079: "@",
}
ADVANCE = {character: width for width, characters in ADVANCES.items() for character in characters}
#: What a browser's box of a text adds to its advances, in the SVG's units: it draws the text on
#: the screen's pixels (Chromium at the page's width: up to 0.63 more).
SNAP = 1.0


def use_sensitivity(*, scenario: Scenario, charts: bool = False) -> dict[str, Any]:
    """The "What drives each number" content for ``scenario``: ``{"shown", "reason", "intro",
    "band_note", "band", "summary", "charts", "overrides", "charts_url"}``. ``shown`` is False
    (with ``reason``) for a use that is not computed or whose inputs changed since. ``summary``
    has a row per output with a ranged input (:func:`summary_row`); ``charts`` its tornado
    charts, only when asked (``charts=True``, the sensitivity page). ``band`` is the stored
    band's label (``{"stored", "label", "offer", "action"}``): with a band stored for the use's
    current inputs each row and chart has its ``band`` (else None), and without one ``offer``
    says so and ``action`` is the button's label ("" once computed)."""
    state = scenario_state(scenario)
    charts_url = reverse("scenario-sensitivity", args=[scenario.pk])
    empty = {"shown": False, "reason": "", "intro": INTRO, "band_note": NO_BAND, "band": None, "summary": [],
             "charts": [], "overrides": [], "charts_url": charts_url, "summary_caption": SUMMARY_CAPTION}
    if state == UNCOMPUTED:
        return empty
    if state != CURRENT:
        return {**empty, "reason": NOT_CURRENT_TEXT}
    found, params, errors = use_study(scenario=scenario)
    if found is None:
        return {**empty, "reason": NOT_COMPUTABLE_TEXT.format(errors=errors)}
    stored = stored_band(scenario=scenario)
    bands = {(b["id"], b["estimate"], b["quantity"]): b for b in (stored or {}).get("outputs", [])}
    charted = [(n, output, bands.get((output.id, output.estimate, output.quantity)))
               for n, output in enumerate((o for o in found.outputs if o.drivers), start=1)]
    summary = [summary_row(output, params, n, band=band, charts_url=charts_url) for n, output, band in charted]
    drawn = [chart(output, params, n, band=band) for n, output, band in charted] if charts else []
    overrides = [row for output in found.outputs if (row := override_row(output, params))]
    return {**empty, "shown": True, "summary": summary, "charts": drawn, "overrides": overrides,
            "band": band_summary(stored, params), "band_note": ""}


def summary_row(
    output: Any, params: dict[str, Any], number: int, *, band: dict[str, Any] | None, charts_url: str
) -> dict[str, Any]:
    """One output's row on the results page: as computed, its lowest and highest over the
    documented ranges one input at a time (printed apart: :func:`figures_apart`), the input that
    moves it most (or :data:`MOVED_BY_NONE`; with :data:`MOVES_LESS` when its ends print alike),
    the link to its chart, and the stored band's P5 to P95 ("" without)."""
    low, high = output.span
    top = output.drivers[0]
    moved_most = None
    if top.swing > 0:
        moved_most = {**input_name(params.get(top.input), top.input),
                      "moved": bar_ends(top.output_at_low, top.output_at_high, output.base, output.units)["moved"]}
    digits = figures_apart(low, high)
    spread = band_figures(band, output.units) if band is not None else None
    return {
        "label": output.label,
        "base": quantity(output.base, output.units),
        "low": quantity(low, output.units, digits),
        "high": quantity(high, output.units, digits),
        "moved_most": moved_most,
        "moved_none": MOVED_BY_NONE,
        "href": f"{charts_url}#sensitivity-{number}",
        "band": f"{spread['p5']} to {spread['p95']}" if spread is not None else "",
    }


def stored_band(*, scenario: Scenario) -> dict[str, Any] | None:
    """The band the report workers stored for ``scenario``'s current inputs (``band_tasks``), or None."""
    return band_tasks.stored_band(key=band_tasks.scenario_band_key(scenario=scenario))


def band_summary(stored: dict[str, Any] | None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The band's words on the page: its label when ``stored``; else the offer and the button."""
    if stored is None:
        return {"stored": False, "label": "", "offer": BAND_OFFER, "action": BAND_ACTION, "note": "",
                "column": BAND_COLUMN}
    label = BAND_LABEL.format(samples=stored["samples"], seed=stored["seed"])
    note = BAND_NONE.format(note=stored["note"]) if stored.get("note") and not stored["outputs"] else ""
    held = [_named(params or {}, str(h)) for h in stored.get("held", [])]
    drawn = BAND_HELD.format(names=_listed(held)) if held else BAND_NOTHING_HELD
    return {"stored": True, "label": label, "offer": "", "action": "", "note": note,
            "drawn": drawn if stored["outputs"] else "", "column": BAND_COLUMN}


def use_study(*, scenario: Scenario) -> tuple[Any, dict[str, Any], str]:
    """The engine's sensitivity study (without the band) of the inputs ``scenario``'s stored
    result was computed from, its scenario's inputs by symbol, and ``""``; or ``None``, ``{}``
    and the engine's errors in words when it cannot analyse them."""
    try:
        params = {p.symbol: p for p in registry.get(scenario.scenario_key).params.params}
        found = sensitivity.study(scenario.scenario_key, scenario.computed_inputs or {}, samples=0)
    except EngineValidationError as exc:
        return None, {}, "; ".join(map(str, exc.errors.values()))
    return found, params, ""


def input_name(param: Any, symbol: str) -> dict[str, str]:
    """An input as the page names it: its label and the symbol its document prints (if any)."""
    if param is None:
        return {"label": symbol, "symbol": ""}
    return {"label": param.label, "symbol": param.shown_symbol}


def input_value(value: Any, param: Any) -> str:
    """An input's value as entered, with its units; a choice by its label, as the form lists it."""
    if param is not None and param.kind == CHOICE and value is not None:
        return str(param.choice_label(value))
    text = entered(value)
    units = unit_for(value, param.units) if param is not None and param.units else ""
    return f"{text} {units}".strip()


# The figures -------------------------------------------------------------------------------


def figures_apart(*values: float) -> int:
    """The fewest significant figures, from the pages' three up to :data:`MOST_FIGURES`, at
    which ``values`` that differ print differently (:data:`MOST_FIGURES` when none does).

    >>> figures_apart(15.045, 30.181), figures_apart(30.055, 30.181), figures_apart(30.1811, 30.1846)
    (3, 3, 5)
    >>> figures_apart(5.0, 5.0), figures_apart(30.181086519114686, 30.181086519114693)
    (3, 6)
    """
    distinct = set(values)
    for digits in range(SIGNIFICANT, MOST_FIGURES):
        if len({significant(v, digits) for v in distinct}) == len(distinct):
            return digits
    return MOST_FIGURES


def move_share(low: float, high: float, base: float) -> float:
    """The share of the output (as computed; the larger end when that is 0) that a move from
    ``low`` to ``high`` is less than: the least power of ten from :data:`LEAST_MOVE_EXPONENT` up
    that is larger.

    >>> move_share(30.181086519114686, 30.181086519114693, 30.181086519114693), move_share(1.0, 1.0002, 1.0)
    (1e-05, 0.001)
    """
    scale = abs(base) or max(abs(low), abs(high))
    moved = abs(high - low) / scale if scale else 0.0
    exponent = LEAST_MOVE_EXPONENT
    while 10.0 ** exponent <= moved:
        exponent += 1
    return 10.0 ** exponent


def share_text(share: float) -> str:
    """A share :func:`move_share` gives, as a percentage.

    >>> share_text(1e-05), share_text(0.001)
    ('0.001 %', '0.1 %')
    """
    return f"{significant(100 * share)} %"


def bar_ends(at_low: float, at_high: float, base: float, units: str) -> dict[str, Any]:
    """A bar's ends as its chart and table print them: ``at_low`` and ``at_high`` (the output
    with the input at its range's low and high end) with the fewest figures that tell them apart
    (:func:`figures_apart`); and when they still print alike though they differ (by less than
    :data:`MOST_FIGURES` figures show), ``share`` (:func:`move_share`) and ``moved``, the words
    :data:`MOVES_LESS` (else 0 and "")."""
    digits = figures_apart(at_low, at_high)
    low_text, high_text = quantity(at_low, units, digits), quantity(at_high, units, digits)
    share = move_share(at_low, at_high, base) if low_text == high_text and at_low != at_high else 0.0
    return {"at_low": low_text, "at_high": high_text, "share": share,
            "moved": MOVES_LESS.format(share=share_text(share)) if share else ""}


def band_figures(band: dict[str, Any], units: str) -> dict[str, str]:
    """The band's P5, P50 and P95, printed with the fewest figures that tell them apart."""
    digits = figures_apart(band["p5"], band["p50"], band["p95"])
    return {p: quantity(band[p], units, digits) for p in ("p5", "p50", "p95")}


# The drawing --------------------------------------------------------------------------------


def text_width(text: str) -> float:
    """``text``'s width on a chart, in the SVG's units: the font's advances at :data:`FONT_SIZE`,
    and :data:`SNAP`.

    >>> text_width("15 kg/yr")  # (2 × 1,139 + 569 + 1,024 + 1,139 + 569 + 1,024 + 682) × 12 / 2,048, + 1
    43.685546875
    """
    return sum(ADVANCE.get(character, WIDEST) for character in text) * FONT_SIZE / UNITS_PER_EM + SNAP


def text_box(text: dict[str, Any]) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) a chart's text (:func:`_text`) is drawn in: from its
    ``x`` by its anchor, its width, and the font's ascent and descent about its baseline ``y``."""
    width = text_width(text["text"])
    left = text["x"] - {"start": 0.0, "middle": width / 2, "end": width}[text["anchor"]]
    return (left, text["y"] - ASCENT * FONT_SIZE / UNITS_PER_EM, left + width,
            text["y"] + DESCENT * FONT_SIZE / UNITS_PER_EM)


def _text(cls: str, x: float, y: float, anchor: str, words: str) -> dict[str, Any]:
    return {"cls": cls, "x": x, "y": y, "anchor": anchor, "text": words, "x_drawn": f"{x:.1f}"}


def _x(value: float, low: float, high: float) -> float:
    if high == low:
        return (PLOT_LEFT + PLOT_RIGHT) / 2
    return PLOT_LEFT + (value - low) / (high - low) * (PLOT_RIGHT - PLOT_LEFT)


def _beside(words: str, left: float, right: float, y: float) -> dict[str, Any]:
    """One text beside a span: after its right end when it fits in the chart, else before its left."""
    if right + GAP + text_width(words) <= WIDTH - CLEAR:
        return _text("tornado-value", right + GAP, y, "start", words)
    return _text("tornado-value", left - GAP, y, "end", words)


def _outside(words: str, x: float, line: float, y: float, *, before: bool) -> dict[str, Any]:
    """A figure just before (``before``) or after the end of a line at ``x``, moved past the
    base line (at ``line``) when it would come closer to it than :data:`CLEAR`."""
    width = text_width(words)
    if before:
        if x - GAP - width - CLEAR < line < x:
            x = line
        return _text("tornado-value", x - GAP, y, "end", words)
    if x < line < x + GAP + width + CLEAR:
        x = line
    return _text("tornado-value", x + GAP, y, "start", words)


def _base_segments(texts: list[dict[str, Any]], x: float, top: float, bottom: float) -> list[dict[str, str]]:
    """The base line from ``top`` to ``bottom``, broken where a row's name (an input's, the
    band's) comes closer to it than :data:`CLEAR`, running across it. (A figure is placed clear
    of it instead: the line does not break for one.)"""
    names = [text_box(t) for t in texts if t["cls"] == "tornado-label"]
    cuts = sorted((t, b) for left, t, right, b in names if left - CLEAR < x < right + CLEAR)
    segments, y = [], top
    for cut_top, cut_bottom in cuts:
        if cut_top - CLEAR > y:
            segments.append((y, cut_top - CLEAR))
        y = max(y, cut_bottom + CLEAR)
    if bottom > y:
        segments.append((y, bottom))
    return [{"y1": f"{y1:.1f}", "y2": f"{y2:.1f}"} for y1, y2 in segments]


def chart(output: Any, params: dict[str, Any], number: int, band: dict[str, Any] | None = None) -> dict[str, Any]:
    """One output's tornado: its rows (the table's and the bars'), the SVG's texts (each placed
    clear of the others and of what is drawn: :func:`text_box`), its geometry and a sentence
    describing it; with ``band`` (its stored P5, P50 and P95), the band's row too, the chart's
    span widened to hold it. A bar's ends print apart (:func:`bar_ends`), or the bar says it
    moves the number by less than a share, and the sentence counts those."""
    low, high = output.span
    if band is not None:
        low, high = min(low, band["p5"]), max(high, band["p95"])
    base_x = _x(output.base, low, high)
    units = output.units
    moving = [d for d in output.drivers if d.swing > 0]
    still = [input_name(params.get(d.input), d.input)["label"] for d in output.drivers if d.swing == 0]
    base_label_y = TOP - 10
    texts = [_text("tornado-base-label", base_x, base_label_y, "middle",
                   BASE_LABEL.format(base=quantity(output.base, units)))]
    rows = []
    for i, d in enumerate(moving):
        param = params.get(d.input)
        name = input_name(param, d.input)
        y = TOP + i * ROW
        ends = bar_ends(d.output_at_low, d.output_at_high, output.base, units)
        x_low, x_high = _x(d.output_at_low, low, high), _x(d.output_at_high, low, high)
        left, right = min(x_low, x_high, base_x), max(x_low, x_high, base_x)
        text_y = y + 16 + BAR - 3
        texts.append(_text("tornado-label", LABEL_X, y + 11, "start", f"{name['symbol']} {name['label']}".strip()))
        if ends["moved"]:
            texts.append(_beside(ends["moved"], left, right, text_y))
        else:
            lower, higher = ((ends["at_low"], ends["at_high"]) if d.output_at_low <= d.output_at_high
                             else (ends["at_high"], ends["at_low"]))
            texts.append(_text("tornado-value", left - GAP, text_y, "end", lower))
            texts.append(_text("tornado-value", right + GAP, text_y, "start", higher))
        rows.append({
            **name,
            "range": f"{input_value(d.low, param)} to {input_value(d.high, param)}",
            "source": d.source,
            **ends,
            "either_end": AT_EITHER_END.format(moved=ends["moved"], value=ends["at_low"]) if ends["moved"] else "",
            "output_at_low": d.output_at_low,
            "output_at_high": d.output_at_high,
            # the bar: a segment from the base line to each end's output
            "bar_y": y + 16,
            # the longer segment first, so a shorter one on the same side of the base shows over it
            "bars": sorted(({"cls": "tornado-low", **_segment(base_x, x_low)},
                            {"cls": "tornado-high", **_segment(base_x, x_high)}),
                           key=lambda bar: -float(bar["width"])),
        })
    band_row = None
    if band is not None:
        band_row = band_drawn(band, units, low, high, TOP + len(rows) * ROW)
        texts.append(_text("tornado-label", LABEL_X, band_row["label_y"], "start", BAND_ROW))
        texts.append(_outside(band_row["p5"], band_row["x5"], base_x, band_row["text_y"], before=True))
        texts.append(_outside(band_row["p95"], band_row["x95"], base_x, band_row["text_y"], before=False))
    height = TOP + ROW * (len(rows) + (band_row is not None)) + 6
    return {
        "id": f"sensitivity-{number}",
        "label": output.label,
        "units": units,
        "base": quantity(output.base, units),
        "base_value": output.base,
        "rows": rows,
        "texts": texts,
        "description": description(output, rows),
        "not_moved": (NOT_MOVED.format(names=_listed(still), their="its" if len(still) == 1 else "their")
                      if still else ""),
        "width": WIDTH,
        "height": height,
        "bar_height": BAR,
        "base_x": f"{base_x:.1f}",
        "base_segments": _base_segments(texts, base_x, base_label_y + 4, height - 4),
        "band": band_row,
        "band_table": BAND_TABLE.format(label=output.label),
    }


def description(output: Any, rows: list[dict[str, Any]]) -> str:
    """The chart's sentence (:data:`DESCRIPTION`): how many ranged inputs move the number, how
    many of them by less than its figures show (with the largest share their bars state), and
    the one that moves it most, with its bar's ends as the bar prints them."""
    ranged, units = len(output.drivers), output.units
    below = [r["share"] for r in rows if r["moved"]]
    share = share_text(max(below)) if below else ""
    counted = (COUNT_BELOW_SOME.format(count=len(below), share=share) if 0 < len(below) < len(rows)
               else COUNT_BELOW_ONE.format(share=share) if below and len(rows) == 1
               else COUNT_BELOW_EACH.format(share=share) if below else "")
    top = rows[0] if rows else None  # the drivers come largest move first
    most = (MOVED_MOST.format(name=top["label"], low=top["at_low"], high=top["at_high"])
            if top is not None and not top["moved"] else ".")
    return DESCRIPTION.format(
        label=output.label, base=quantity(output.base, units),
        ranged=f"{ranged} input{'s' if ranged != 1 else ''}",
        moving=f"{len(rows)} move{'s' if len(rows) == 1 else ''}", below=counted, most=most)


def band_drawn(band: dict[str, Any], units: str, low: float, high: float, y: float) -> dict[str, Any]:
    """The band's row of a chart: its percentiles in words and numbers (:func:`band_figures`),
    and its line (P5 to P95) and mark (P50) on the chart's scale; :func:`chart` places its texts."""
    x5, x50, x95 = (_x(band[p], low, high) for p in ("p5", "p50", "p95"))
    return {
        **band_figures(band, units),
        "p5_value": band["p5"], "p50_value": band["p50"], "p95_value": band["p95"],
        "samples": band["samples"],
        "label_y": y + 11,
        "line_y": y + 16 + BAR / 2,
        "x5": x5, "x95": x95,
        "x1": f"{x5:.1f}", "x2": f"{x95:.1f}", "x50": f"{x50:.1f}",
        "mark_top": y + 16, "mark_bottom": y + 16 + BAR,
        "text_y": y + 16 + BAR - 3,
    }


def _named(params: dict[str, Any], symbol: str) -> str:
    """An input in a sentence: its label, with the symbol its document prints in brackets."""
    name = input_name(params.get(symbol), symbol)
    return f"{name['label']} ({name['symbol']})" if name["symbol"] else name["label"]


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _segment(start: float, end: float) -> dict[str, str]:
    return {"x": f"{min(start, end):.1f}", "width": f"{max(abs(end - start), 1.0):.1f}"}


def override_row(output: Any, params: dict[str, Any]) -> dict[str, Any] | None:
    """The override-impact row of one output (None when no overridden input moves it): the
    output now, with every overridden input back at its default, their ratio, and each
    overridden input with its value, its default and the output with it alone at its default."""
    if not output.overrides:
        return None
    at_defaults = output.output_at_all_defaults
    moved = sorted(output.overrides, key=lambda o: -abs(output.base - o.output_at_default))
    inputs = []
    for o in moved:
        param = params.get(o.input)
        inputs.append({
            **input_name(param, o.input),
            "value": input_value(o.value, param),
            "default": NOT_GIVEN if o.default is None else input_value(o.default, param),
            "output_at_default": quantity(o.output_at_default, output.units),
        })
    ratio = output.base / at_defaults if at_defaults else None
    return {
        "label": output.label,
        "now": quantity(output.base, output.units),
        "now_value": output.base,
        "at_defaults": quantity(at_defaults, output.units),
        "at_defaults_value": at_defaults,
        "ratio": f"{significant(ratio, 2)}×" if ratio is not None else "—",
        "inputs": inputs,
        "names": ", ".join(i["label"] for i in inputs),
    }
