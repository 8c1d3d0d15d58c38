"""Every benchmark, in one command (``bash benchmarks/run.sh``): the engine, the pages at
10,000 cases, the IRER render and a load run against gunicorn, each printing its table,
then a summary beside the aims. Prints figures; asserts nothing.

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
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from _report import load_figures, ms, table

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
PYTHON = str(ROOT / ".venv/bin/python")
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"
STEPS = ("engine", "pages", "irer", "load")
AIM_PAGE_S, AIM_IRER_S, AIM_P95_S = 0.100, 1.0, 0.500


def server_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        parts = urlsplit(url)
        return urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    return DEFAULT_SERVER


def admin(url: str, sql: str) -> None:
    """Run one statement on the server's ``postgres`` database (autocommit)."""
    import psycopg

    with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def step(title: str, args: list[str], env: dict) -> float:
    print(f"\n== {title}", flush=True)
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True)
    return time.perf_counter() - start


def summary(figures_dir: str) -> None:
    pages = load_figures(figures_dir, "pages") or {}
    irer = load_figures(figures_dir, "irer") or {}
    load = load_figures(figures_dir, "load") or {}
    seed = load_figures(figures_dir, "seed") or {}

    def page(name_start: str):
        for name, f in pages.items():
            if name.startswith(name_start):
                return f["median_s"]
        return None

    def verdict(value, aim):
        return "—" if value is None else ("met" if value <= aim else "NOT met")

    rows = []
    for label, prefix in (("case list, server time (median)", "case list  /"),
                          ("assessment page, server time (median)", "assessment page"),
                          ("results page, server time (median)", "results page")):
        value = page(prefix)
        rows.append([label, ms(value) if value is not None else "—", "< 100 ms", verdict(value, AIM_PAGE_S)])
    value = irer.get("sample_s")
    rows.append(["IRER render, sample report (median)", ms(value, 0) if value else "—", "< 1000 ms",
                 verdict(value, AIM_IRER_S)])
    if load:
        every = load["pages"]["all"]
        pages_only = [f for k, f in load["pages"].items() if k not in ("pdf", "all") and not k.startswith("_")]
        worst = max((f["p95_s"] for f in pages_only), default=None)
        rows.append([f"load, {load['users']} users: p95, all requests", ms(every["p95_s"], 0), "< 500 ms",
                     verdict(every["p95_s"], AIM_P95_S)])
        rows.append([f"load, {load['users']} users: worst page p95 (no PDF)", ms(worst, 0), "< 500 ms",
                     verdict(worst, AIM_P95_S)])
        errors = every["errors"]
        rows.append([f"load, {load['users']} users: errors", errors, "0", "met" if errors == 0 else "NOT met"])
    print("\n== Summary beside the aims")
    if seed:
        print(f"  {seed['rows']['cases']:,} cases seeded in {seed['timings']['total_s']:.0f} s")
    print(table(["figure", "measured", "aim", ""], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of each load run (default 60)")
    parser.add_argument("--users", type=int, default=20, help="simulated users in the load run (default 20)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a simulated user, s (default 1)")
    parser.add_argument("--mix", help="load mix, e.g. list=6,case=4,assessment=7,results=7,pdf=1 (load.py's default)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default 2 x cores + 1)")
    parser.add_argument("--cases", type=int, default=10_000, help="cases to seed (default 10,000)")
    parser.add_argument("--computed-every", type=int, default=10, help="compute one assessment in N (default 10)")
    parser.add_argument("--repeat", type=int, default=20, help="requests per page in-process (default 20)")
    parser.add_argument("--engine-runs", type=int, default=200, help="computations per scenario (default 200)")
    parser.add_argument("--irer-repeat", type=int, default=3, help="renders per report (default 3)")
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
        needs_data = "pages" not in args.skip or "load" not in args.skip
        if needs_data:
            admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
            admin(server, f'CREATE DATABASE "{args.db_name}"')
            seed_info = os.path.join(figures_dir, "seed-info.json")
            durations["setup"] = step("Set-up: migrate, collectstatic, seed", [
                "bash", "-c",
                f'"{PYTHON}" manage.py migrate --no-input -v0 && "{PYTHON}" manage.py collectstatic --no-input -v0 '
                f'&& "{PYTHON}" benchmarks/seed.py --cases {args.cases} --computed-every {args.computed_every} '
                f'--users {max(args.users, 5)} --out "{seed_info}"',
            ], env)
        if "pages" not in args.skip:
            durations["pages"] = step("Pages", [PYTHON, str(BENCH / "pages.py"), "--seed-info", seed_info,
                                                "--repeat", str(args.repeat)], env)
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
            durations["load"] = step("Load", load_args, env)
        summary(figures_dir)
    finally:
        if not args.keep_db:
            admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
        shutil.rmtree(figures_dir, ignore_errors=True)
    print(f"\nRun took {time.perf_counter() - start:.0f} s ("
          + ", ".join(f"{k} {v:.0f} s" for k, v in durations.items())
          + f"); load average {os.getloadavg()[0]:.1f} at the end.")


if __name__ == "__main__":
    main()
