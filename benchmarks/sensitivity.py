"""Time of the engine's sensitivity analysis (assessments/esd/sensitivity.py): the tornado and
overrides for the sample use (photoresist-2018, the 2018 update's sample case: 5,000 kg/yr
at 15 %), for a five-use assessment (one use of each scenario, and a second 2018 use), and the
illustrative band at 2,000 samples. No database. Prints figures; asserts nothing.

Targets (the issue): tornado at most 100 ms a use; band at most 1 s a use at 2,000 samples.

    .venv/bin/python benchmarks/sensitivity.py [--runs 5] [--samples 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import median_seconds, ms, save_figures, table

SAMPLE_KEY = "photoresist-2018"
SAMPLE_USE = {"Qchem_yr": 5000.0, "Fchem": 0.15}
#: Five uses: one per scenario, the sample use, and a 2018 use with an override and the wafer range.
FIVE_USES = (
    ("photoresist-2018", SAMPLE_USE),
    ("photoresist-2010", {"Qchem_yr": 5000.0, "Fchem": 0.15}),
    ("photoresist-2004", {"Qchem_yr": 5000.0, "Fchem": 0.15}),
    ("cvd-2015", {"Qchem_yr": 5000.0}),
    ("photoresist-2018", {"Qchem_yr": 2000.0, "Vcont": 20.0, "Fphoto_wafer_range": "both",
                          "stripping_process": "aqueous"}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median reported)")
    parser.add_argument("--samples", type=int, default=2000, help="samples of the band")
    args = parser.parse_args()

    from assessments.esd import registry, sensitivity

    for key, inputs in FIVE_USES:  # warm: imports, the registry
        registry.compute(key, inputs)

    rows, figures = [], {}
    study = sensitivity.study(SAMPLE_KEY, SAMPLE_USE, samples=0)
    tornado = median_seconds(lambda: sensitivity.analyse(SAMPLE_KEY, SAMPLE_USE, samples=0), args.runs)
    compute = median_seconds(lambda: registry.compute(SAMPLE_KEY, SAMPLE_USE), 50)
    drivers = {d.input for o in study.outputs for d in o.drivers}
    rows.append([f"tornado, sample use ({SAMPLE_KEY})", ms(tornado, 1), len(study.outputs), len(drivers),
                 "<= 100 ms"])
    figures["tornado_sample_use_s"] = tornado
    figures["compute_s"] = compute

    def five() -> None:
        for key, inputs in FIVE_USES:
            sensitivity.analyse(key, inputs, samples=0)

    five_uses = median_seconds(five, args.runs)
    outputs = sum(len(sensitivity.study(k, i, samples=0).outputs) for k, i in FIVE_USES)
    rows.append(["tornado, 5-use assessment (all 5)", ms(five_uses, 1), outputs, "", "<= 500 ms"])
    rows.append(["tornado, 5-use assessment (a use)", ms(five_uses / len(FIVE_USES), 1), "", "", "<= 100 ms"])
    figures["tornado_five_uses_s"] = five_uses

    band_rows = []
    for key, inputs in FIVE_USES[:4]:
        start = time.perf_counter()
        banded = sensitivity.study(key, inputs, samples=args.samples, seed=1)
        seconds = time.perf_counter() - start
        band_rows.append([f"band, {key}", ms(seconds, 0), args.samples, banded.band_refused, "<= 1000 ms"])
        figures[f"band_{key}_s"] = seconds

    print(f"Sensitivity: one registry.compute of the sample use takes {ms(compute, 2)} ms (median of 50)")
    print(table(["analysis", "ms (median)", "outputs", "ranged inputs", "target"], rows))
    print()
    print(f"Band at {args.samples} samples, one run each (includes the tornado):")
    print(table(["analysis", "ms", "samples", "draws refused", "target"], band_rows))
    save_figures("sensitivity", figures)


if __name__ == "__main__":
    main()
