"""Small helpers the benchmarks share: order statistics, a plain-text table, and the
JSON file each benchmark may leave for ``run.py``'s summary. Imports nothing from Django."""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct`` percentile by the nearest-rank method (p50 of 1..100 is 50)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, indent: str = "  ") -> str:
    """A text table: first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return indent + "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        )

    rule = indent + "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(row) for row in cells[1:]])


def ms(seconds: float, digits: int = 1) -> str:
    return "—" if seconds is None or math.isnan(seconds) else f"{seconds * 1000:.{digits}f}"


def save_figures(name: str, figures: dict) -> None:
    """Write ``figures`` to ``$BENCH_FIGURES_DIR/<name>.json`` when run.py asked for it."""
    folder = os.environ.get("BENCH_FIGURES_DIR")
    if folder:
        with open(os.path.join(folder, f"{name}.json"), "w", encoding="utf-8") as handle:
            json.dump(figures, handle, indent=1)


def load_figures(folder: str, name: str) -> dict | None:
    path = os.path.join(folder, f"{name}.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
