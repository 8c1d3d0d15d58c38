"""The portfolio's charts, drawn on the server as the sensitivity charts are: a horizontal bar
per row, each labelled with its words and its value, in an SVG the page draws inline, with
a sentence that says what it shows and a table of the same figures (the chart is an image;
its table is what a screen reader and the keyboard reach). Pure: rows in, a drawing out.

Labels are measured with the sensitivity charts' font metrics
(``assessments.sensitivity_view.text_width``), so the label column is as wide as its longest
label and no text overlaps a bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assessments.sensitivity_view import text_width

WIDTH = 640.0
BAR_HEIGHT = 16.0
ROW_HEIGHT = 26.0
TOP = 8.0
GAP = 6.0
#: Room kept after the longest bar for its value.
VALUE_ROOM = 90.0
MAX_LABEL = 260.0


@dataclass(frozen=True)
class Row:
    """A bar: its label, its value (drawn to scale) and the value's words."""

    label: str
    value: float
    text: str


@dataclass(frozen=True)
class Bar:
    label: str
    text: str
    label_x: str
    bar_x: str
    width: str
    y: str
    text_y: str
    value_x: str


@dataclass(frozen=True)
class Chart:
    """A chart ready to draw: ``id`` for the page's anchors, ``title``, ``description`` (the
    sentence), ``bars``, the table's ``columns`` and ``rows``, and ``empty`` when nothing
    was counted."""

    id: str
    title: str
    description: str
    width: float
    height: float
    bars: list[Bar]
    columns: list[str]
    rows: list[list[str]]
    #: The table's leading columns of words (the first a row's heading); the others are figures,
    #: set to the right.
    text_columns: int = 1

    @property
    def empty(self) -> bool:
        return not self.bars


def _fit(label: str) -> str:
    """A label cut to :data:`MAX_LABEL` with an ellipsis (the table holds it whole): the longest
    start of it that fits with the ellipsis, found by halving (a label's width grows with its
    length)."""
    if text_width(label) <= MAX_LABEL:
        return label
    low, high = 0, len(label)  # label[:low] + "…" fits; label[:high] + "…" does not
    while high - low > 1:
        middle = (low + high) // 2
        if text_width(label[:middle] + "…") <= MAX_LABEL:
            low = middle
        else:
            high = middle
    return label[:low].rstrip() + "…"


def bar_chart(*, id: str, title: str, description: str, rows: Sequence[Row], columns: Sequence[str],
              table: Sequence[Sequence[str]], text_columns: int = 1) -> Chart:
    """Bars for ``rows`` (value 0 draws no bar, its words still printed), scaled to the
    largest; ``columns`` and ``table`` the table beside it. No row: an empty chart, whose
    page says so in words."""
    labels = [_fit(row.label) for row in rows]
    label_room = max((text_width(label) for label in labels), default=0.0) + GAP
    plot = WIDTH - label_room - VALUE_ROOM
    largest = max((row.value for row in rows), default=0.0)
    bars = []
    for index, (row, label) in enumerate(zip(rows, labels)):
        y = TOP + index * ROW_HEIGHT
        width = plot * row.value / largest if largest > 0 else 0.0
        bars.append(Bar(label=label, text=row.text, label_x=f"{label_room - GAP:.1f}", bar_x=f"{label_room:.1f}",
                        width=f"{width:.1f}", y=f"{y:.1f}", text_y=f"{y + BAR_HEIGHT - 4:.1f}",
                        value_x=f"{label_room + width + GAP:.1f}"))
    height = TOP * 2 + len(rows) * ROW_HEIGHT
    return Chart(id=id, title=title, description=description, width=WIDTH, height=height, bars=bars,
                 columns=list(columns), rows=[list(r) for r in table], text_columns=text_columns)
