"""Several hosts on one machine: two gunicorn instances and two report workers on one
PostgreSQL, each process a "host" of its own (distinct ports, no shared folder: the report
cache is PostgreSQL, ``REPORT_STORAGE=database``). Prints figures; asserts nothing, but
says plainly when a report was lost, failed or drawn twice.

1. **Pages under load.** ``--users`` simulated users (load.py's ``Browser``), half on each
   gunicorn, request the case list, case, assessment and results pages and IRER PDFs
   (load.py's mix) for ``--duration`` seconds: page p50/p95/p99 per kind.
2. **A burst of reports.** ``--burst`` (50) report requests at once, each a different
   report not drawn before, spread over both gunicorns, with one report worker and then
   with two: time to file p50/p95 (request, queue, draw, download) and PDFs per minute.
3. **A worker killed mid-burst.** The same burst with two workers; once the first worker
   is drawing, it is killed (SIGKILL). Its report is returned to the queue by the other
   worker when its heartbeat has been silent ``REPORT_WORKER_SILENT_AFTER_SECONDS``
   (assessments/reports/heartbeat.py), with nobody asking again: every report still
   arrives, and the queue's table says how many tasks were drawn again after the kill and
   that no report was stored twice.

It makes its own database (``--db-name``, default ``pmn_cluster``) on the server of
``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432``), seeds ``--cases`` cases,
and drops it at the end (``--keep-db`` keeps it).

    .venv/bin/python benchmarks/cluster.py [--users 20] [--duration 30] [--burst 50]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _report import ms, percentile, table
from load import (
    DEFAULT_MIX,
    Browser,
    Gunicorn,
    LoadError,
    ReportWorkers,
    drive,
    free_port,
    parse_mix,
    request_once,
    rows_for,
    summarise,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from reviewer.postgres import admin, server_url  # noqa: E402 (after the path)

PYTHON = str(ROOT / ".venv/bin/python")
GUNICORN_WORKERS = 2  # a 2-core machine holds two instances of two sync workers each
SILENT_AFTER_S = 10  # heartbeat silence before a worker's task is taken back (production: 30)


class Cluster:
    """Two gunicorn instances, as two web hosts, stopped on exit."""

    def __init__(self, log_dir: str):
        self.ports = [free_port(), free_port()]
        self.servers = [Gunicorn(workers=GUNICORN_WORKERS, port=port, log_path=os.path.join(log_dir, f"web-{n}.log"))
                        for n, port in enumerate(self.ports, start=1)]

    def __enter__(self) -> Cluster:
        for server in self.servers:
            server.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for server in self.servers:
            server.__exit__(*exc)

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)


def logged_in(info: dict, ports: list[int], count: int) -> list[Browser]:
    """``count`` browsers, the seeded users' sessions, alternately on each port (a session
    is a row of the shared database, so it is good on either host)."""
    sessions = []
    for name in info["users"][: min(count, len(info["users"]))]:
        browser = Browser(ports[0])
        browser.log_in(name, info["password"])
        sessions.append(browser.cookies)
    browsers = []
    for n in range(count):
        browser = Browser(ports[n % len(ports)])
        browser.cookies = dict(sessions[n % len(sessions)])
        browsers.append(browser)
    return browsers


def burst(browsers: list[Browser], assessments: list[int], *, on_start=None) -> dict:
    """Request one report per browser at once; the time to file of each."""
    samples = [None] * len(browsers)
    start = time.perf_counter()

    def fetch(n: int) -> None:
        samples[n] = request_once(browsers[n], "pdf", f"/assessments/{assessments[n]}/irer.pdf")

    threads = [threading.Thread(target=fetch, args=(n,)) for n in range(len(browsers))]
    for thread in threads:
        thread.start()
    if on_start is not None:
        on_start()
    for thread in threads:
        thread.join()
    elapsed = max((s.start + s.seconds for s in samples), default=start) - start
    ok = [s.seconds for s in samples if s.ok]
    return {"requests": len(samples), "ok": len(ok), "errors": sorted({s.error for s in samples if not s.ok}),
            "p50_s": percentile(ok, 50), "p95_s": percentile(ok, 95), "elapsed_s": elapsed,
            "per_minute": len(ok) / elapsed * 60 if elapsed else float("nan")}


def queue_facts(env: dict, assessments: list[int]) -> dict:
    """What the queue's table says of the reports of ``assessments``: tasks per report,
    tasks drawn by more than one worker, tasks finished, failed or still open."""
    code = f"""
import json, django
django.setup()
from django_tasks_db.models import DBTaskResult
from assessments.reports.tasks import irer_render
rows = DBTaskResult.objects.filter(task_path=irer_render.module_path,
                                   args_kwargs__kwargs__assessment_id__in={assessments!r})
per = {{}}
for row in rows:
    per.setdefault(row.args_kwargs["kwargs"]["assessment_id"], []).append(row)
print(json.dumps({{
    "reports": len(per),
    "tasks": rows.count(),
    "successful": rows.filter(status="SUCCESSFUL").count(),
    "failed": rows.filter(status="FAILED").count(),
    "open": rows.filter(status__in=["READY", "RUNNING"]).count(),
    "drawn_again": sum(1 for row in rows if len(row.worker_ids) > 1),
    "reports_stored_twice": sum(1 for tasks in per.values() if sum(t.status == "SUCCESSFUL" for t in tasks) > 1),
}}))
"""
    result = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def kill_first_drawing(workers: ReportWorkers, env: dict, deadline_s: float = 30) -> str:
    """SIGKILL the first report worker as soon as a task is being drawn; its worker id."""
    code = """
import django, sys
django.setup()
from django_tasks_db.models import DBTaskResult
row = DBTaskResult.objects.filter(status="RUNNING").exclude(worker_ids=[]).first()
print(row.worker_ids[-1] if row else "")
"""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        result = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        worker_id = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
        if worker_id.startswith("bench-"):
            process = workers.processes[int(worker_id.removeprefix("bench-")) - 1]
            process.send_signal(signal.SIGKILL)
            return worker_id
        time.sleep(0.2)
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=20, help="simulated users of the page run (default 20)")
    parser.add_argument("--duration", type=float, default=30, help="seconds of the page run (default 30)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a user, s (default 1)")
    parser.add_argument("--burst", type=int, default=50, help="report requests at once (default 50)")
    parser.add_argument("--cases", type=int, default=2000, help="cases to seed (default 2,000)")
    parser.add_argument("--db-name", default="pmn_cluster", help="the throwaway database (default pmn_cluster)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database at the end")
    args = parser.parse_args()
    if not 1 <= args.users <= 100 or not 1 <= args.burst <= 100 or not 1 <= args.duration <= 600:
        raise SystemExit("--users 1..100, --burst 1..100, --duration 1..600 s: this is a bounded benchmark")

    server = server_url()
    log_dir = tempfile.mkdtemp(prefix="pmn-cluster-")
    env = {
        **os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings", "DATABASE_URL": f"{server}/{args.db_name}",
        "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "SECURE_HSTS_SECONDS": "0", "LOG_LEVEL": "WARNING",
        "REPORT_STORAGE": "database", "REPORT_WORKER_SILENT_AFTER_SECONDS": str(SILENT_AFTER_S),
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(env)  # load.py's Gunicorn and ReportWorkers start with a copy of os.environ
    admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
    admin(server, f'CREATE DATABASE "{args.db_name}"')
    start = time.perf_counter()
    try:
        seed_info = os.path.join(log_dir, "seed.json")
        subprocess.run(["bash", "-c",
                        f'"{PYTHON}" manage.py migrate --no-input -v0 && "{PYTHON}" manage.py collectstatic --no-input -v0 '
                        f'&& "{PYTHON}" benchmarks/seed.py --cases {args.cases} --computed-every 5 '
                        f'--users {max(args.users, 5)} --out "{seed_info}"'], cwd=ROOT, env=env, check=True)
        with open(seed_info, encoding="utf-8") as handle:
            info = json.load(handle)
        run(args, info, env, log_dir)
    finally:
        if not args.keep_db:
            admin(server, f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
    print(f"\nRun took {time.perf_counter() - start:.0f} s; logs in {log_dir}")


def run(args, info: dict, env: dict, log_dir: str) -> None:
    reports = list(info["computed_assessments"])
    if len(reports) < 3 * args.burst:
        raise SystemExit(f"{len(reports)} computed assessments seeded; three bursts of {args.burst} need "
                         f"{3 * args.burst}: seed more --cases")
    batches = [reports[n * args.burst:(n + 1) * args.burst] for n in range(3)]
    mix = parse_mix(DEFAULT_MIX)
    kinds = [k for k, w in mix.items() for _ in range(w)]
    pools = {"assessment": reports[3 * args.burst:] or reports, "pdf": reports[3 * args.burst:] or reports,
             "results": info["computed_scenarios"], "case": info["submissions_of_computed"]}
    paths = {"list": lambda pk: "/", "case": lambda pk: f"/cases/{pk}/", "assessment": lambda pk: f"/assessments/{pk}/",
             "results": lambda pk: f"/scenarios/{pk}/", "pdf": lambda pk: f"/assessments/{pk}/irer.pdf"}

    def choose(rng):
        kind = rng.choice(kinds)
        pool = pools.get(kind)
        return kind, paths[kind](rng.choice(pool) if pool else None)

    bursts: dict[str, dict] = {}
    with Cluster(log_dir) as cluster:
        with ReportWorkers(count=2, log_path=os.path.join(log_dir, "workers-load.log")) as workers:
            browsers = logged_in(info, cluster.ports, args.users)
            pages = summarise(drive(browsers, choose, duration=args.duration, think=args.think, seed=1,
                                    server=cluster, reporters=workers))
        rows = rows_for(pages)
        for label, count, batch, kill in (("1 worker", 1, batches[0], False), ("2 workers", 2, batches[1], False),
                                          ("2 workers, one killed mid-burst", 2, batches[2], True)):
            with ReportWorkers(count=count, log_path=os.path.join(log_dir, f"workers-{len(bursts)}.log")) as workers:
                browsers = logged_in(info, cluster.ports, args.burst)
                killed: list[str] = []
                on_start = (lambda w=workers, k=killed: k.append(kill_first_drawing(w, env))) if kill else None
                figures = burst(browsers, batch, on_start=on_start)
            figures["queue"] = queue_facts(env, batch)
            figures["killed"] = killed[0] if killed else ""
            bursts[label] = figures

    print(f"\nPages: {args.users} users on two gunicorn instances ({GUNICORN_WORKERS} sync workers each) and two "
          f"report workers, {args.duration:g} s, one PostgreSQL, mix {DEFAULT_MIX}")
    print(table(["requests", "count", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"], rows))
    print(f"\nBursts of {args.burst} report requests at once, each a report not drawn before, over both instances:")
    burst_rows = []
    for label, f in bursts.items():
        q = f["queue"]
        burst_rows.append([label, f"{f['ok']}/{f['requests']}", ms(f["p50_s"], 0), ms(f["p95_s"], 0),
                           f"{f['per_minute']:.0f}", q["drawn_again"], q["reports_stored_twice"],
                           q["failed"] + q["open"]])
    print(table(["workers", "arrived", "time to file p50 ms", "p95 ms", "PDFs/min", "drawn again",
                 "stored twice", "failed or open"], burst_rows))
    killed = bursts["2 workers, one killed mid-burst"]
    if killed["killed"]:
        print(f"  Killed {killed['killed']} (SIGKILL) while it drew; its report went back to the queue after "
              f"{SILENT_AFTER_S} s of silence (REPORT_WORKER_SILENT_AFTER_SECONDS) and was drawn by the other worker.")
    else:
        print("  No worker was seen drawing within 30 s: nothing was killed.")
    for label, f in bursts.items():
        if f["errors"] or f["ok"] != f["requests"]:
            print(f"  {label}: NOT every report arrived: {f['errors']}")


if __name__ == "__main__":
    try:
        main()
    except LoadError as error:
        raise SystemExit(f"cluster benchmark: {error}") from None
