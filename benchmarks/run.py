"""Every benchmark, in one command (``bash benchmarks/run.sh``): the engine, the pages at
10,000 cases, the portfolio page at each size (``portfolio_page.py``: its rows examined, flat as the
cases grow), the IRER render and a load run against gunicorn and the report workers that
draw the PDFs (``load.py``: one ``manage.py report_worker`` by default, which leaves the second
of this machine's two cores to the pages), and a change to the engine replayed over the
stored work by the report workers with the supervisors' engine-change page (``impact.py``),
each printing its table, then a summary beside the aims. Prints figures; asserts nothing.

It needs PostgreSQL: it creates its own throwaway database (``--db-name``, default
``pmn_bench``) on the server of ``DATABASE_URL`` when that is a PostgreSQL URL, otherwise
on ``postgres://postgres@127.0.0.1:5432``, and drops it at the end (``--keep-db`` keeps
it). It never writes to the database ``DATABASE_URL`` names. The production settings
are used (DEBUG off, a random SECRET_KEY), with plain HTTP allowed on loopback
(``SECURE_SSL_REDIRECT=0``, ``SECURE_COOKIES=0``).
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import load_figures, ms, table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from reviewer.postgres import admin, server_url  # noqa: E402 (after the path)

BENCH = Path(__file__).resolve().parent
PYTHON = str(ROOT / ".venv/bin/python")
STEPS = ("engine", "pages", "portfolio", "irer", "load", "impact")
# Issue 13's and issue 33's targets, on the 2-core machine.
TARGET_PAGE_S = 0.100  # every page below, server time, at every size
TARGET_PAGE_P99_S = 0.500  # under load: each page kind's p99
TARGET_PDF_P95_S = 2.0  # under load: a PDF download, including the wait in the queue
TARGET_IRER_COLD_S, TARGET_IRER_RATIO, TARGET_IRER_CACHED_S = 0.5, 3.0, 0.050
# The pages with a server-time target: every list (pages.py's names, by their start) as a
# reviewer and as a supervisor (issue 33: ≤ 100 ms at every size, and less than ×1.5 from
# the smallest size to the largest), and the item pages (issue 13).
LIST_PAGES = ("home page", "case list", "due-date list", "review queue")
ITEM_PAGES = ("case page", "assessment page", "results page")
TARGET_GROWTH = 1.5
# Issue 42: a change replayed over 10,000 open uses by two report workers.
TARGET_IMPACT_S = 60.0


def step(title: str, args: list[str], env: dict) -> float:
    print(f"\n== {title}", flush=True)
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True)
    return time.perf_counter() - start


def verdict(value, target) -> str:
    return "—" if value is None else ("met" if value <= target else "NOT met")


def summary(figures_dir: str, sizes: list[int]) -> None:
    """Every target beside its figure: the pages at each size (with their query counts,
    which must be the same at every size, and the rows their plans examined), each list's
    growth from the smallest size to the largest (issue 33), the IRER, and the load run
    (issue 13)."""
    rows = []
    queries: dict[str, set] = {}
    pages = {cases: load_figures(figures_dir, f"pages-{cases}") or {} for cases in sizes}
    names = [name for name in pages[sizes[-1]] if name.startswith(LIST_PAGES + ITEM_PAGES)]
    for name in names:
        for cases in sizes:
            found = pages[cases].get(name)
            if found is None:
                continue
            queries.setdefault(name, set()).add(found["queries"])
            rows.append([f"{name}, {cases:,} cases (queries {found['queries']}; rows examined "
                         f"{found.get('rows_examined', 0):,})", ms(found["median_s"]),
                         f"≤ {TARGET_PAGE_S * 1000:.0f} ms", verdict(found["median_s"], TARGET_PAGE_S)])
        first, last = pages[sizes[0]].get(name), pages[sizes[-1]].get(name)
        if len(sizes) > 1 and name.startswith(LIST_PAGES) and first and last:
            growth = last["median_s"] / first["median_s"]
            rows.append([f"{name}: growth {sizes[0]:,} → {sizes[-1]:,} cases", f"×{growth:.2f}",
                         f"< ×{TARGET_GROWTH}", "met" if growth < TARGET_GROWTH else "NOT met"])
    if len(sizes) > 1:
        changed = sorted(label for label, counts in queries.items() if len(counts) > 1)
        rows.append([f"queries the same at {' and '.join(f'{n:,}' for n in sizes)} cases",
                     "yes" if not changed else "no: " + ", ".join(changed), "constant", "met" if not changed else "NOT met"])
    irer = load_figures(figures_dir, "irer")
    if irer:
        rows.append([f"IRER, sample report ({irer['sample_pages']} pages), cold", ms(irer["sample_s"], 0),
                     f"≤ {TARGET_IRER_COLD_S * 1000:.0f} ms", verdict(irer["sample_s"], TARGET_IRER_COLD_S)])
        rows.append(["IRER per page ÷ the same text as plain paragraphs per page", f"{irer['ratio']:.1f}×",
                     f"≤ {TARGET_IRER_RATIO:.0f}×", verdict(irer["ratio"], TARGET_IRER_RATIO)])
        rows.append(["IRER, sample report, from the report cache", ms(irer["cached_s"]),
                     f"≤ {TARGET_IRER_CACHED_S * 1000:.0f} ms", verdict(irer["cached_s"], TARGET_IRER_CACHED_S)])
    load = load_figures(figures_dir, "load")
    if load:
        at = f"{load['users']} users, {load['cases']:,} cases"
        kinds = {k: f for k, f in load["pages"].items() if k not in ("pdf", "all") and not k.startswith("_")}
        worst_kind, worst = max(kinds.items(), key=lambda item: item[1]["p99_s"])
        rows.append([f"load, {at}: worst page p99 ({worst_kind})", ms(worst["p99_s"], 0),
                     f"< {TARGET_PAGE_P99_S * 1000:.0f} ms", verdict(worst["p99_s"], TARGET_PAGE_P99_S - 1e-9)])
        pdf = load["pages"].get("pdf")
        if pdf:
            rows.append([f"load, {at}: PDF p95, with the wait in the queue", ms(pdf["p95_s"], 0),
                         f"< {TARGET_PDF_P95_S * 1000:.0f} ms", verdict(pdf["p95_s"], TARGET_PDF_P95_S - 1e-9)])
        errors = load["pages"]["all"]["errors"]
        rows.append([f"load, {at}: errors", errors, "0", "met" if errors == 0 else "NOT met"])
    portfolio = {cases: load_figures(figures_dir, f"portfolio-{cases}") or {} for cases in sizes}
    for name in [n for n in portfolio[sizes[-1]] if n.startswith("portfolio")]:
        for cases in sizes:
            found = portfolio[cases].get(name)
            if found:
                rows.append([f"{name}, {cases:,} cases (queries {found['queries']}; rows examined "
                             f"{found['rows_examined']:,})", ms(found["median_s"]), f"≤ {TARGET_PAGE_S * 1000:.0f} ms",
                             verdict(found["median_s"], TARGET_PAGE_S)])
        first, last = portfolio[sizes[0]].get(name), portfolio[sizes[-1]].get(name)
        if len(sizes) > 1 and first and last:
            flat = last["rows_examined"] <= first["rows_examined"] * 1.5 + 100
            rows.append([f"{name}: rows examined {sizes[0]:,} → {sizes[-1]:,} cases",
                         f"{first['rows_examined']:,} → {last['rows_examined']:,}", "flat",
                         "met" if flat else "NOT met"])
    found = load_figures(figures_dir, "impact")
    if found:
        run = found["run"]
        rows.append([f"impact of a change, {found['workload']['open computed uses']:,} open uses "
                     f"({run['uses']:,} replayed), report workers", f"{run['seconds']:.1f} s",
                     f"< {TARGET_IMPACT_S:.0f} s", verdict(run["seconds"], TARGET_IMPACT_S)])
        for name, page in found.items():
            if name.startswith("engine changes"):
                rows.append([f"{name} (rows examined {page['rows_examined']:,})", ms(page["median_s"]),
                             f"≤ {TARGET_PAGE_S * 1000:.0f} ms", verdict(page["median_s"], TARGET_PAGE_S)])
    print("\n== Summary beside the targets")
    for cases in sizes:
        seed = load_figures(figures_dir, f"seed-{cases}")
        if seed:
            print(f"  {seed['rows']['cases']:,} cases seeded in {seed['timings']['total_s']:.0f} s")
    print(table(["figure", "measured", "target", ""], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of each load run (default 60)")
    parser.add_argument("--users", type=int, default=20, help="simulated users in the load run (default 20)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a simulated user, s (default 1)")
    parser.add_argument("--mix", help="load mix, e.g. list=6,case=4,assessment=7,results=7,pdf=1 (load.py's default)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default 2 x cores + 1)")
    parser.add_argument("--report-workers", type=int, help="report workers, manage.py report_worker (load.py's default: 1)")
    parser.add_argument("--cases", default="10000,100000",
                        help="cases to seed, one size or several comma-separated; the pages are measured at each, "
                             "the load at the largest (default 10000,100000)")
    parser.add_argument("--computed-every", type=int, default=10, help="compute one assessment in N (default 10)")
    parser.add_argument("--repeat", type=int, default=20, help="requests per page in-process (default 20)")
    parser.add_argument("--engine-runs", type=int, default=200, help="computations per scenario (default 200)")
    parser.add_argument("--irer-repeat", type=int, default=3, help="renders per report (default 3)")
    parser.add_argument("--impact-open-uses", type=int, default=10_000,
                        help="impact: computed open uses replayed (default 10,000)")
    parser.add_argument("--impact-workers", type=int, default=2, help="impact: report workers (default 2)")
    parser.add_argument("--skip", action="append", default=[], choices=STEPS, help="leave out a step (repeatable)")
    parser.add_argument("--db-name", default="pmn_bench", help="the throwaway database (default pmn_bench)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database at the end")
    args = parser.parse_args()

    server = server_url()
    bench_url = f"{server}/{args.db_name}"
    figures_dir = tempfile.mkdtemp(prefix="pmn-bench-")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "reviewer.settings",
        "DATABASE_URL": bench_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback: no redirect to HTTPS,
        "SECURE_COOKIES": "0",  # and session and CSRF cookies sent over HTTP
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "BENCH_FIGURES_DIR": figures_dir,
        "PYTHONUNBUFFERED": "1",
    }
    import django

    print(f"Machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"Python {platform.python_version()}, Django {django.get_version()}; database {bench_url}")
    start = time.perf_counter()
    durations = {}
    try:
        if "engine" not in args.skip:
            durations["engine"] = step("Engine", [PYTHON, str(BENCH / "engine_compute.py"), "--runs", str(args.engine_runs)], env)
        sizes = sorted({int(n.replace("_", "")) for n in args.cases.split(",") if n.strip()})
        needs_data = any(name not in args.skip for name in ("pages", "portfolio", "load", "impact"))
        seed_info = ""
        for cases in sizes if needs_data else []:
            # The pages at every size; the load at the largest, on the database left seeded.
            admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
            admin(server, f'CREATE DATABASE "{args.db_name}"')
            seed_info = os.path.join(figures_dir, f"seed-info-{cases}.json")
            durations[f"setup {cases:,}"] = step(f"Set-up at {cases:,} cases: migrate, collectstatic, seed", [
                "bash", "-c",
                f'"{PYTHON}" manage.py migrate --no-input -v0 && "{PYTHON}" manage.py collectstatic --no-input -v0 '
                f'&& "{PYTHON}" benchmarks/seed.py --cases {cases} --computed-every {args.computed_every} '
                f'--users {max(args.users, 5)} --out "{seed_info}"',
            ], env)
            if "pages" not in args.skip:
                durations[f"pages {cases:,}"] = step(f"Pages at {cases:,} cases", [
                    PYTHON, str(BENCH / "pages.py"), "--seed-info", seed_info, "--repeat", str(args.repeat)], env)
            if "portfolio" not in args.skip:
                durations[f"portfolio {cases:,}"] = step(f"Portfolio at {cases:,} cases", [
                    PYTHON, str(BENCH / "portfolio_page.py"), "--seed-info", seed_info, "--repeat", str(args.repeat),
                    "--rebuild"], env)
        if "irer" not in args.skip:
            # irer_render.py makes its own test database (test_<name>) with the test settings.
            durations["irer"] = step("IRER", [PYTHON, str(BENCH / "irer_render.py"), "--repeat", str(args.irer_repeat)],
                                     {**env, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"})
        if "load" not in args.skip:
            load_args = [PYTHON, str(BENCH / "load.py"), "--seed-info", seed_info, "--duration", str(args.duration),
                         "--users", str(args.users), "--think", str(args.think)]
            if args.mix:
                load_args += ["--mix", args.mix]
            if args.workers:
                load_args += ["--workers", str(args.workers)]
            if args.report_workers:
                load_args += ["--report-workers", str(args.report_workers)]
            durations["load"] = step(f"Load at {sizes[-1]:,} cases", load_args, env)
        if "impact" not in args.skip:
            # Last: it adds computed uses to the database the load run read.
            impact_args = [PYTHON, str(BENCH / "impact.py"), "--seed-info", seed_info, "--repeat", str(args.repeat),
                           "--open-uses", str(args.impact_open_uses), "--workers", str(args.impact_workers)]
            durations["impact"] = step(f"Impact of a change at {sizes[-1]:,} cases", impact_args, env)
        summary(figures_dir, sizes)
    finally:
        if not args.keep_db:
            admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
        shutil.rmtree(figures_dir, ignore_errors=True)
    print(f"\nRun took {time.perf_counter() - start:.0f} s ("
          + ", ".join(f"{k} {v:.0f} s" for k, v in durations.items())
          + f"); load average {os.getloadavg()[0]:.1f} at the end.")


if __name__ == "__main__":
    main()
