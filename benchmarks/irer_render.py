"""Median time to render the IRER: the sample report, a 5-use report, the sample with
every free-text field at its limit (``assessments.limits``: the longest report text a
user can cause), and WeasyPrint's time for a one-line page on the same machine as the
baseline. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/irer_render.py [--repeat 5]
"""

import argparse
import statistics
import time

from _django import test_database
from _report import save_figures


def median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with test_database():
        from django.contrib.auth import get_user_model
        from weasyprint import HTML

        from assessments import services
        from assessments.reports.context import irer_context
        from assessments.reports.render import irer_pdf
        from tests.conftest import make_user
        from tests.reports.conftest import build_sample_assessment, pdf_pages

        user = make_user(get_user_model(), "bench", group="reviewer", cbi=True)
        sample = build_sample_assessment(user)
        one_line = median_seconds(lambda: HTML(string="<p>One line.</p>").write_pdf(), args.repeat)
        sample_pdf = irer_pdf(irer_context(assessment=sample))
        sample_time = median_seconds(lambda: irer_pdf(irer_context(assessment=sample)), args.repeat)
        first = sample.scenarios.get()
        for _ in range(4):
            services.scenario_duplicate(scenario=first, by=user)
        five_pdf = irer_pdf(irer_context(assessment=sample))
        five_time = median_seconds(lambda: irer_pdf(irer_context(assessment=sample)), args.repeat)
        full = build_sample_assessment(user, case_number="P-18-0124")
        _fill_free_text(full)
        full_pdf = irer_pdf(irer_context(assessment=full))
        full_time = median_seconds(lambda: irer_pdf(irer_context(assessment=full)), args.repeat)
    print(f"IRER render, median of {args.repeat}:")
    print(f"  one-line page (WeasyPrint baseline)   {one_line * 1000:8.0f} ms")
    print(f"  sample report ({pdf_pages(sample_pdf):2d} pages, {len(sample_pdf) / 1024:5.0f} KiB) {sample_time * 1000:8.0f} ms")
    print(f"  5-use report  ({pdf_pages(five_pdf):2d} pages, {len(five_pdf) / 1024:5.0f} KiB) {five_time * 1000:8.0f} ms")
    print(f"  sample, free text at its limits ({pdf_pages(full_pdf):2d} pages) {full_time * 1000:8.0f} ms")
    save_figures("irer", {
        "one_line_s": one_line,
        "sample_s": sample_time, "sample_pages": pdf_pages(sample_pdf),
        "five_use_s": five_time, "five_use_pages": pdf_pages(five_pdf),
        "full_text_s": full_time, "full_text_pages": pdf_pages(full_pdf),
    })


def _fill_free_text(assessment) -> None:
    """Every free-text field the report prints at its limit, in words that wrap."""
    from assessments.limits import TEXT_LIMITS

    def words(limit: int) -> str:
        return ("Reviewer text " * (limit // 14 + 1))[:limit]

    case = assessment.submission
    for name in ("use_description", "other_uses", "consumer_use", "sat_health", "sat_eco"):
        setattr(case, name, words(TEXT_LIMITS[name]))
    case.save()
    assessment.notes = words(TEXT_LIMITS["notes"])
    assessment.pollution_prevention = words(TEXT_LIMITS["pollution_prevention"])
    assessment.save()


if __name__ == "__main__":
    main()
