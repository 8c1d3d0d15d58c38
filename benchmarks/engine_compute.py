"""Median time of the engine's ``registry.compute`` per scenario key, with the documents'
defaults and only the required inputs given (a production volume), and of turning the
result into the JSON snapshot a scenario stores. No database. Prints figures; asserts
nothing.

    .venv/bin/python benchmarks/engine_compute.py [--runs 200]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import median_seconds, ms, save_figures, table

# The sample case's production volume, the one input every scenario takes from the case
# with no default. Everything else takes the document's default; an input declared required
# with no default applies only after a choice (``Param.applies_when``) the defaults do not
# make (cvd-2015's container mass, compressibility, vapour pressure), so it is not asked for.
SAMPLE_VALUES = {"Qchem_yr": 5000.0}


def bench_inputs(scenario) -> dict:
    """The sample values of the inputs ``scenario`` declares; the engine refuses a required
    input missing where it applies (``EngineValidationError``, naming it)."""
    from assessments.esd import registry
    from assessments.esd.parameters import EngineValidationError

    declared = {param.symbol for param in scenario.params.params}
    inputs = {symbol: value for symbol, value in SAMPLE_VALUES.items() if symbol in declared}
    try:
        registry.compute(scenario.key, inputs)
    except EngineValidationError as exc:
        raise SystemExit(f"{scenario.key}: the benchmark gives {sorted(inputs)} only: {exc}") from None
    return inputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per scenario (median reported)")
    args = parser.parse_args()

    from assessments.esd import registry

    rows, figures = [], {}
    for scenario in registry.scenarios():
        inputs = bench_inputs(scenario)
        registry.compute(scenario.key, inputs)  # warm: imports, caches
        key = scenario.key
        compute = median_seconds(lambda key=key, inputs=inputs: registry.compute(key, inputs), args.runs)
        result = registry.compute(key, inputs)
        snapshot = median_seconds(lambda result=result: json.dumps(result.as_dict()), args.runs)
        size = len(json.dumps(result.as_dict()))
        trace_steps = len(result.as_dict().get("trace", []))
        rows.append([scenario.key, ms(compute, 2), ms(snapshot, 2), trace_steps, f"{size / 1024:.1f}"])
        figures[scenario.key] = {"compute_s": compute, "snapshot_s": snapshot, "json_bytes": size}
    print(f"Engine: registry.compute with the defaults (Qchem_yr = 5000 kg/yr), median of {args.runs} runs")
    print(table(["scenario", "compute ms", "as_dict+JSON ms", "trace steps", "JSON KiB"], rows))
    save_figures("engine", figures)


if __name__ == "__main__":
    main()
