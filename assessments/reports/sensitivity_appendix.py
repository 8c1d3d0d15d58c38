"""The IRER's optional "Sensitivity" appendix (issue 30, item 5; ``Assessment.irer_sensitivity``).

For each use, the engine's one-at-a-time analysis of the inputs its printed result was computed
from (:func:`assessments.sensitivity_view.use_study`, without the band): per release and
exposure output, each input with a documented range, the range and its source, and the output
at the range's low and high ends; then how the overridden inputs move each output from the
document's default case.

CBI. Every figure here moves with every input, claimed ones included, and a tornado's ends
would let a claimed value be worked back. So a use any claimed case field reaches (through an
input that carries it: :attr:`.derivation.UseDerivation.carried`) prints its whole part as a
:class:`~.document.Withheld` block: the sanitised copy prints :data:`USE_WITHHELD` in its
place, the same sentence whatever the claimed values are; each figure is a
:class:`~.document.Value` carrying those claims as well.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..esd.sensitivity import BAND_NAME, Output
from ..numbers import quantity
from ..sensitivity_view import input_name, input_value, override_row, use_study
from .document import Block, Cell, Group, Heading, Para, Row, Table, Text, Value, Withheld, inline
from .use_report import UseBuilder

TITLE = "Appendix: sensitivity"
INTRO = ("For each use, how far each input moves each release and exposure when set to the low end, then the high "
         "end, of the range its document prints, every other input as computed; then how the overridden inputs move "
         f"each output from the document's default case. The {BAND_NAME} (every ranged input varied at once) "
         "is not printed: it is an illustration, not an assessment (the documents give ranges, not distributions), "
         "and it takes thousands of computations, too many for a report.")
USE_WITHHELD = "Sensitivity of use {number}: withheld from the sanitised copy (its figures depend on claimed values)."
NOT_ANALYSED = "The engine cannot analyse this use's inputs: {errors}."
NOTHING_RANGED = "No input of this use has a documented range that applies."
OVERRIDES_CAPTION = "Overridden inputs: each output now, with every overridden input back at its default, and their ratio"


def appendix(uses: Iterable[UseBuilder]) -> Group:
    """The appendix: its heading, what it prints and leaves out, and each computed use's part."""
    blocks: list[Block] = [Heading(2, inline(TITLE)), Para(inline(INTRO))]
    for use in uses:
        if use.result:
            blocks.append(use_part(use))
    return Group(tuple(blocks), cls="appendix sensitivity", tag="section")


def claims_of(use: UseBuilder) -> frozenset[str]:
    """The claimed case fields that reach ``use``'s inputs (every sensitivity figure moves with them)."""
    return frozenset(use.d.carried.values()) | use.d.everything


def use_part(use: UseBuilder) -> Block:
    """One use's tornado tables and override table, withheld whole when a claim reaches it."""
    claims = claims_of(use)
    heading = Heading(3, (Text(f"Use {use.number}: "), use.title, Text(": sensitivity")))
    found, params, errors = use_study(scenario=use.scenario)
    blocks: list[Block] = [heading]
    if found is None:
        blocks.append(Para((Value(NOT_ANALYSED.format(errors=errors), claims),)))
    else:
        tables = [_tornado(output, params, claims) for output in found.outputs if output.drivers]
        blocks += tables or [Para(inline(NOTHING_RANGED))]
        overrides = [row for output in found.outputs if (row := override_row(output, params))]
        if overrides:
            blocks.append(_overrides(overrides, claims))
    if not claims:
        return Group(tuple(blocks), cls="irer-part")
    return Withheld(claims, (Group(tuple(blocks), cls="irer-part"),), USE_WITHHELD.format(number=use.number))


def _head(*titles: str) -> Row:
    return tuple(Cell(inline(t), header=True, scope="col") for t in titles)


def _name(name: dict[str, Any]) -> tuple[Text, ...]:
    if not name["symbol"]:
        return (Text(name["label"]),)
    return (Text(name["symbol"], "code"), Text(f" {name['label']}"))


def _tornado(output: Output, params: dict[str, Any], claims: frozenset[str]) -> Table:
    """One output's drivers: input, documented range with its source, output at each end."""
    units = output.units
    rows: list[Row] = []
    for d in output.drivers:
        param = params.get(d.input)
        rows.append((
            Cell(_name(input_name(param, d.input)), header=True, scope="row"),
            Cell((Value(f"{input_value(d.low, param)} to {input_value(d.high, param)}", claims), Text(f" ({d.source})"))),
            Cell((Value(quantity(d.output_at_low, units), claims),), cls="num"),
            Cell((Value(quantity(d.output_at_high, units), claims),), cls="num"),
        ))
    caption = f"{output.label}: {quantity(output.base, units)} as computed"
    return Table(_head("Input", "Documented range (source)", "At the low end", "At the high end"), (tuple(rows),),
                 caption=caption, cls="sensitivity")


def _overrides(overrides: list[dict[str, Any]], claims: frozenset[str]) -> Table:
    rows: list[Row] = []
    for row in overrides:
        because = "; ".join(f"{i['label']}: {i['value']} (default {i['default']}; {i['output_at_default']})"
                            for i in row["inputs"])
        rows.append((
            Cell(inline(row["label"]), header=True, scope="row"),
            Cell((Value(row["now"], claims),), cls="num"),
            Cell((Value(row["at_defaults"], claims),), cls="num"),
            Cell((Value(row["ratio"], claims),), cls="num"),
            Cell((Value(because, claims),)),
        ))
    return Table(_head("Output", "Now", "At the defaults", "Ratio", "Because of (the output with that input alone "
                       "at its default)"), (tuple(rows),), caption=OVERRIDES_CAPTION, cls="sensitivity")
