"""Time to render the IRER, beside the targets of issue 13: the sample report cold (not in
the report cache, in a worker that has rendered before) and per page beside WeasyPrint's
time per page for the same text set as plain paragraphs; the sample from the report cache;
a 5-use report; the sample with every free-text field at its limit
(``assessments.limits``: the longest report text a user can cause); and the first render
in a fresh process. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/irer_render.py [--repeat 5]
"""

import argparse
import html
import re
import subprocess
import sys

from _django import ROOT, test_database
from _report import median_seconds, save_figures, table
from _sample import bench_user, pdf_pages, sample_assessment

TARGET_COLD_S = 0.5
TARGET_RATIO = 3.0
TARGET_CACHED_S = 0.050
BLOCKS = r"</?(?:p|li|dt|dd|h1|h2|h3|tr|div)\b[^>]*>"


def plain_paragraphs(report_html: str) -> str:
    """The report's text as plain paragraphs (one per paragraph, list item, table row or
    field), in the report's font, size, line height and page margins, with no space
    between paragraphs, so a page holds about as much text as the report's: WeasyPrint's
    own speed on this much text, without the report's layout."""
    body = re.sub(r"(?s)<(style|head)\b.*?</\1>", "", report_html)
    text = re.sub(BLOCKS, "\n", body)
    text = re.sub(r"<[^>]+>", " ", text)
    paragraphs = [" ".join(html.unescape(line).split()) for line in text.split("\n")]
    fonts = (ROOT / "static" / "fonts" / "fonts.css").as_uri()
    return (
        f'<html lang="en"><head><style>@import url("{fonts}"); body {{ font: 10pt/1.35 "Reviewer Sans"; }} p {{ margin: 0; }} '
        "@page { size: letter; margin: 0.9in 0.8in 0.8in 0.8in; }</style></head><body>"
        + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs if p)
        + "</body></html>"
    )


def first_render_in_a_fresh_process() -> float:
    """Seconds a new Python process takes to import WeasyPrint and draw a one-line page:
    what a worker pays once, at its first report."""
    code = (
        "import time; s = time.perf_counter(); from weasyprint import HTML; "
        "HTML(string='<p>One line.</p>').write_pdf(); print(time.perf_counter() - s)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with test_database():
        from weasyprint import HTML

        from assessments import services
        from assessments.reports import services as report_services
        from assessments.reports.context import irer_context
        from assessments.reports.derivation import _provenance
        from assessments.reports.render import html_to_pdf, irer_html, irer_pdf
        user = bench_user("bench")
        sample = sample_assessment(user)
        one_line = median_seconds(lambda: HTML(string="<p>One line.</p>").write_pdf(), args.repeat)

        sample_html = irer_html(irer_context(assessment=sample), for_pdf=True)
        sample_pdf = html_to_pdf(sample_html)  # the worker's first report: fonts loaded
        sample_time = median_seconds(lambda: irer_pdf(irer_context(assessment=sample)), args.repeat)
        plain = plain_paragraphs(sample_html)
        plain_pages = len(HTML(string=plain).render().pages)
        plain_time = median_seconds(lambda: html_to_pdf(plain), args.repeat)  # drawn as the report is

        # The test settings' report cache (a temporary folder) and task backend (the task
        # runs in the request): the first download draws and stores, the others are hits.
        def download():
            served = report_services.irer_download(user=user, assessment=sample, sanitised=False)
            assert served.pdf is not None, "not served from the report cache"

        download()
        cached_time = median_seconds(download, args.repeat * 4)

        first = sample.scenarios.get()
        for _ in range(4):
            services.scenario_duplicate(scenario=first, by=user)
        five_pdf = irer_pdf(irer_context(assessment=sample))
        five_time = median_seconds(lambda: irer_pdf(irer_context(assessment=sample)), args.repeat)
        claimed = sample_assessment(user, case_number="P-18-0125")
        case = claimed.submission
        case.cbi_claims = ["production_volume_kg_yr", "use_concentration", "molecular_weight"]
        case.save()

        def sanitised_document():
            _provenance.cache_clear()  # the engine asked afresh, as for a use not yet asked about
            return irer_context(assessment=claimed, sanitised=True)

        provenance_time = median_seconds(sanitised_document, args.repeat)
        sanitised_pdf = irer_pdf(irer_context(assessment=claimed, sanitised=True))
        sanitised_time = median_seconds(lambda: irer_pdf(irer_context(assessment=claimed, sanitised=True)), args.repeat)
        full = sample_assessment(user, case_number="P-18-0124")
        _fill_free_text(full)
        full_pdf = irer_pdf(irer_context(assessment=full))
        full_time = median_seconds(lambda: irer_pdf(irer_context(assessment=full)), args.repeat)
    fresh = first_render_in_a_fresh_process()

    pages = pdf_pages(sample_pdf)
    per_page, plain_per_page = sample_time / pages, plain_time / plain_pages
    ratio = per_page / plain_per_page

    def verdict(value, target):
        return "met" if value <= target else "NOT met"

    print(f"IRER render, median of {args.repeat} (cached: of {args.repeat * 4}):")
    print(table(["figure", "measured", "target", ""], [
        [f"sample report, cold ({pages} pages, {len(sample_pdf) / 1024:.0f} KiB)", f"{sample_time * 1000:.0f} ms",
         f"≤ {TARGET_COLD_S * 1000:.0f} ms", verdict(sample_time, TARGET_COLD_S)],
        ["sample report, per page", f"{per_page * 1000:.0f} ms", "", ""],
        [f"same text as plain paragraphs ({plain_pages} pages), per page", f"{plain_per_page * 1000:.0f} ms", "", ""],
        ["sample per page ÷ plain per page", f"{ratio:.1f}×", f"≤ {TARGET_RATIO:.0f}×", verdict(ratio, TARGET_RATIO)],
        ["sample ÷ plain, whole documents", f"{sample_time / plain_time:.1f}×", "", ""],
        ["sample report, from the report cache", f"{cached_time * 1000:.1f} ms", f"≤ {TARGET_CACHED_S * 1000:.0f} ms",
         verdict(cached_time, TARGET_CACHED_S)],
        [f"5-use report ({pdf_pages(five_pdf)} pages, {len(five_pdf) / 1024:.0f} KiB)", f"{five_time * 1000:.0f} ms", "", ""],
        [f"sample, free text at its limits ({pdf_pages(full_pdf)} pages)", f"{full_time * 1000:.0f} ms", "", ""],
        ["sample, sanitised, three numbers claimed: the document (engine asked afresh)",
         f"{provenance_time * 1000:.0f} ms", "", ""],
        [f"sample, sanitised, three numbers claimed: the PDF ({pdf_pages(sanitised_pdf)} pages, engine's answer kept)",
         f"{sanitised_time * 1000:.0f} ms", "", ""],
        ["one-line page (WeasyPrint alone)", f"{one_line * 1000:.0f} ms", "", ""],
        ["a fresh process: import WeasyPrint and draw one line", f"{fresh * 1000:.0f} ms", "", ""],
    ]))
    save_figures("irer", {
        "one_line_s": one_line, "fresh_process_s": fresh,
        "sample_s": sample_time, "sample_pages": pages,
        "plain_per_page_s": plain_per_page, "plain_pages": plain_pages, "ratio": ratio,
        "cached_s": cached_time,
        "five_use_s": five_time, "five_use_pages": pdf_pages(five_pdf),
        "full_text_s": full_time, "full_text_pages": pdf_pages(full_pdf),
        "sanitised_document_s": provenance_time, "sanitised_s": sanitised_time,
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
