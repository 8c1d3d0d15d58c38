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

The band (the illustrative Monte Carlo percentiles) is not computed here: 2,000 samples take
seconds, too slow for a page request or a report draw (:data:`NO_BAND`). The report workers
compute it when asked (``band_tasks``: the page's button, :data:`BAND_ACTION`) and store it;
the pages show a stored band of the use's current inputs beside each output (its P5, P50 and
P95, and on the charts a line from P5 to P95 with a mark at P50 under the bars), labelled as an
illustration (:data:`BAND_LABEL`).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from . import band_tasks
from .esd import registry, sensitivity
from .esd.parameters import CHOICE, EngineValidationError
from .models import Scenario
from .numbers import entered, quantity, significant, unit_for
from .presentation import CURRENT, UNCOMPUTED, scenario_state

#: Why the page shows no analysis for a use that is not current.
NOT_CURRENT_TEXT = "Compute the use again with its present inputs to see what drives each number."
NOT_COMPUTABLE_TEXT = "The engine cannot analyse these inputs now: {errors}."
NO_BAND = ("The illustrative band (the spread of each output when every ranged input varies at once) is not "
           "shown: it takes thousands of computations, too many for this page.")
#: The band's label, beside each chart that shows it.
BAND_LABEL = ("Monte Carlo band (illustration, {samples:,} samples, seed {seed}): the reported figure is the "
              "deterministic one")
#: What the band varies and holds, after its label.
BAND_HELD = ("It draws each input the case leaves at its default within the range its document prints; the "
             "inputs the case sets are held at its values: {names}")
BAND_NOTHING_HELD = "It draws every input with a documented range within that range"
#: The button that asks the report workers for the band, when none is stored for these inputs.
BAND_ACTION = "Compute the band (about 3 s a use, by the report service)"
BAND_OFFER = ("The illustrative band (the spread of each output when every ranged input varies at once) takes "
              "thousands of computations: the report service computes it on request.")
BAND_NONE = "The engine gives no band for these inputs: {note}."
#: The results page's summary of the charts, and the sentence naming a chart's unmoving inputs.
SUMMARY_CAPTION = ("Each release and exposure, its lowest and highest with one input at a time at either end of the "
                   "range its document prints, and the input that moves it most")
NOT_MOVED = "Not moved by {names} (at either end of {their} range)."
MOVED_BY_NONE = "none of its ranged inputs"
INTRO = ("Each bar shows how far one input moves the number when it is set to the low end, then the high end, "
         "of the range its document prints, every other input as given. The line marks the number as computed.")

#: The chart's geometry, in the SVG's own units (it scales to the page's width).
WIDTH = 720
PLOT_LEFT = 150
PLOT_RIGHT = 570
ROW = 42
TOP = 26
BAR = 14


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
    documented ranges one input at a time, the input that moves it most (or
    :data:`MOVED_BY_NONE`), the link to its chart, and the stored band's P5 to P95 ("" without)."""
    low, high = output.span
    top = output.drivers[0]
    moved_most = input_name(params.get(top.input), top.input) if top.swing > 0 else None
    return {
        "label": output.label,
        "base": quantity(output.base, output.units),
        "low": quantity(low, output.units),
        "high": quantity(high, output.units),
        "moved_most": moved_most,
        "moved_none": MOVED_BY_NONE,
        "href": f"{charts_url}#sensitivity-{number}",
        "band": (f"{quantity(band['p5'], output.units)} to {quantity(band['p95'], output.units)}"
                 if band is not None else ""),
    }


def stored_band(*, scenario: Scenario) -> dict[str, Any] | None:
    """The band the report workers stored for ``scenario``'s current inputs (``band_tasks``), or None."""
    return band_tasks.stored_band(key=band_tasks.scenario_band_key(scenario=scenario))


def band_summary(stored: dict[str, Any] | None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The band's words on the page: its label when ``stored``; else the offer and the button."""
    if stored is None:
        return {"stored": False, "label": "", "offer": BAND_OFFER, "action": BAND_ACTION, "note": ""}
    label = BAND_LABEL.format(samples=stored["samples"], seed=stored["seed"])
    note = BAND_NONE.format(note=stored["note"]) if stored.get("note") and not stored["outputs"] else ""
    held = [_named(params or {}, str(h)) for h in stored.get("held", [])]
    drawn = BAND_HELD.format(names=_listed(held)) if held else BAND_NOTHING_HELD
    return {"stored": True, "label": label, "offer": "", "action": "", "note": note,
            "drawn": drawn if stored["outputs"] else ""}


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


def _x(value: float, low: float, high: float) -> float:
    if high == low:
        return (PLOT_LEFT + PLOT_RIGHT) / 2
    return PLOT_LEFT + (value - low) / (high - low) * (PLOT_RIGHT - PLOT_LEFT)


def chart(output: Any, params: dict[str, Any], number: int, band: dict[str, Any] | None = None) -> dict[str, Any]:
    """One output's tornado: its rows (the table's and the bars'), the SVG's geometry and a
    sentence describing it; with ``band`` (its stored P5, P50 and P95), the band's row too,
    the chart's span widened to hold it."""
    low, high = output.span
    if band is not None:
        low, high = min(low, band["p5"]), max(high, band["p95"])
    base_x = _x(output.base, low, high)
    units = output.units
    moving = [d for d in output.drivers if d.swing > 0]
    still = [input_name(params.get(d.input), d.input)["label"] for d in output.drivers if d.swing == 0]
    rows = []
    for i, d in enumerate(moving):
        param = params.get(d.input)
        y = TOP + i * ROW
        x_low, x_high = _x(d.output_at_low, low, high), _x(d.output_at_high, low, high)
        left, right = min(x_low, x_high, base_x), max(x_low, x_high, base_x)
        rows.append({
            **input_name(param, d.input),
            "range": f"{input_value(d.low, param)} to {input_value(d.high, param)}",
            "source": d.source,
            "at_low": quantity(d.output_at_low, units),
            "at_high": quantity(d.output_at_high, units),
            "output_at_low": d.output_at_low,
            "output_at_high": d.output_at_high,
            # the bar: a segment from the base line to each end's output
            "label_y": y + 11,
            "bar_y": y + 16,
            # the longer segment first, so a shorter one on the same side of the base shows over it
            "bars": sorted(({"cls": "tornado-low", **_segment(base_x, x_low)},
                            {"cls": "tornado-high", **_segment(base_x, x_high)}),
                           key=lambda bar: -float(bar["width"])),
            "left_x": f"{left - 6:.1f}",
            "right_x": f"{right + 6:.1f}",
            "left_text": quantity(min(d.output_at_low, d.output_at_high), units),
            "right_text": quantity(max(d.output_at_low, d.output_at_high), units),
            "text_y": y + 16 + BAR - 3,
        })
    band_row = band_drawn(band, units, low, high, TOP + len(rows) * ROW) if band is not None else None
    height = TOP + ROW * (len(rows) + (band_row is not None)) + 6
    top = output.drivers[0]
    top_param = params.get(top.input)
    ranged = len(output.drivers)
    description = (
        f"{output.label}: {quantity(output.base, units)} as computed. Of the {ranged} input"
        f"{'s' if ranged != 1 else ''} with a documented range, {len(moving)} move{'s' if len(moving) == 1 else ''} it"
        + (f"; the most, {input_name(top_param, top.input)['label']}, from {quantity(top.output_at_low, units)} "
           f"at its low end to {quantity(top.output_at_high, units)} at its high end." if moving else ".")
    )
    not_moved = NOT_MOVED.format(names=_listed(still), their="its" if len(still) == 1 else "their") if still else ""
    return {
        "id": f"sensitivity-{number}",
        "label": output.label,
        "units": units,
        "base": quantity(output.base, units),
        "base_value": output.base,
        "rows": rows,
        "description": description,
        "not_moved": not_moved,
        "width": WIDTH,
        "height": height,
        "base_x": f"{base_x:.1f}",
        "base_label_y": TOP - 10,
        "axis_bottom": height - 4,
        "band": band_row,
    }


def band_drawn(band: dict[str, Any], units: str, low: float, high: float, y: float) -> dict[str, Any]:
    """The band's row of a chart: its percentiles in words and numbers, and its line (P5 to
    P95) and mark (P50) on the chart's scale."""
    x5, x50, x95 = (_x(band[p], low, high) for p in ("p5", "p50", "p95"))
    return {
        "p5": quantity(band["p5"], units), "p50": quantity(band["p50"], units), "p95": quantity(band["p95"], units),
        "p5_value": band["p5"], "p50_value": band["p50"], "p95_value": band["p95"],
        "samples": band["samples"],
        "label_y": y + 11,
        "line_y": y + 16 + BAR / 2,
        "x1": f"{x5:.1f}", "x2": f"{x95:.1f}", "x50": f"{x50:.1f}",
        "mark_top": y + 16, "mark_bottom": y + 16 + BAR,
        "left_x": f"{min(x5, x95) - 6:.1f}", "right_x": f"{max(x5, x95) + 6:.1f}",
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
            "default": "not given" if o.default is None else input_value(o.default, param),
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
