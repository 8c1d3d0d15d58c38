"""A load run against gunicorn on 127.0.0.1, with the production settings, on the seeded
database (``seed.py``): ``--users`` simulated users (threads), each logged in once with
its own session through the login form, request pages and IRER PDFs for ``--duration``
seconds; then the same number of users request a trivial page (the login form, anonymous:
no database query) for as long, as the baseline of what the server and this client cost
on their own. Reports throughput, p50/p95/p99 latency and errors per kind of request.
Prints figures; asserts nothing.

Each user is a closed loop: it sends a request, waits for the whole response, waits a
think time (``--think``, seconds, uniform between half and one and a half of it; 0: none),
and sends the next. The client runs on the same two cores as the server and the database.

A PDF is requested as the browser does: the download answers the PDF at once when the
report cache holds it; otherwise (202) a page naming the report's task, whose JSON status
the user polls every 0.7 s, as static/js/irer-progress.js does, until it is "ready"; then the
download again, which serves the stored file. The PDF's latency is that whole wait. The
report cache is a fresh folder for each run, so every report is drawn on its first request.

Report workers: ``--report-workers`` processes of ``manage.py report_worker`` (default 1) run
beside gunicorn and draw the PDFs. One, on this 2-core machine: drawing is CPU-bound (about
a second of one core a report), so one worker leaves the other core to gunicorn's page
workers and PostgreSQL, and pages no longer wait behind PDFs; a second worker would halve
the PDFs' queueing at the cost of taking both cores from the pages at a burst of PDFs.

    DATABASE_URL=... SECRET_KEY=... .venv/bin/python benchmarks/load.py --seed-info /tmp/seed.json
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

from _report import ms, percentile, save_figures, table

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only
REQUEST_TIMEOUT_S = 120
STATUS_POLL_S = 0.7  # static/js/irer-progress.js asks every 0.7 s for its first minute
DEFAULT_MIX = "list=6,case=4,assessment=7,results=7,pdf=1"  # 1 request in 25 a PDF
KIND_LABELS = {
    "list": "case list  /",
    "case": "case page  /cases/<pk>/",
    "assessment": "assessment page",
    "results": "results page",
    "pdf": "IRER PDF (request, wait, download)",
    "trivial": "trivial page (login form)",
}


class LoadError(Exception):
    pass


# HTTP with one user's cookies -------------------------------------------------------------------


class Browser:
    """One simulated user: its own connection and cookies (session, CSRF)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bytes]:
        headers = {"Host": f"{HOST}:{self.port}", "User-Agent": "pmn-bench"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{HOST}:{self.port}"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()  # a fresh connection for the next request
            raise
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        return response.status, dict(response.headers.items()), content

    def log_in(self, username: str, password: str) -> None:
        """The login form, once: a wrong password here would count towards a lockout."""
        status, _, content = self.request("GET", "/accounts/login/")
        match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', content)
        if status != 200 or not match:
            raise LoadError(f"login page: HTTP {status}, no CSRF token")
        status, headers, _ = self.request(
            "POST", "/accounts/login/",
            {"csrfmiddlewaretoken": match.group(1).decode(), "username": username, "password": password},
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise LoadError(f"login of {username} refused: HTTP {status} (Location {headers.get('Location')})")


# The server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


class Gunicorn:
    """gunicorn with the project's gunicorn.conf.py, bound to loopback, stopped on exit."""

    def __init__(self, *, workers: int, port: int, log_path: str):
        self.workers, self.port, self.log_path = workers, port, log_path
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        self.log = open(self.log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", "gunicorn.conf.py",
             "--bind", f"{HOST}:{self.port}", "--workers", str(self.workers)],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=os.environ.copy(),
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LoadError(f"gunicorn exited with status {self.process.returncode}; see {self.log_path}")
            try:
                status, _, _ = Browser(self.port).request("GET", "/accounts/login/")
                if status == 200:
                    return self
                raise LoadError(f"gunicorn answers HTTP {status} on the login page; see {self.log_path}")
            except OSError:
                time.sleep(0.2)
        raise LoadError("gunicorn did not answer within 60 s")

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the workers have used so far (Linux /proc)."""
        try:
            with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children", encoding="ascii") as handle:
                return sum(process_cpu_seconds(int(pid)) for pid in handle.read().split())
        except OSError:
            return float("nan")

    def __exit__(self, *exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # graceful: the master stops its workers
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class ReportWorkers:
    """``count`` report workers (``manage.py report_worker``, as the README runs them), stopped
    on exit; each finishes the report it is drawing first."""

    def __init__(self, *, count: int, log_path: str):
        self.count, self.log_path = count, log_path
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> ReportWorkers:
        self.log = open(self.log_path, "w", encoding="utf-8")
        python = str(ROOT / ".venv/bin/python")
        for n in range(self.count):
            self.processes.append(subprocess.Popen(
                [python, "manage.py", "report_worker", "--no-reload", "--interval", "0.5", "--worker-id", f"bench-{n + 1}"],
                cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=os.environ.copy(),
            ))
        time.sleep(2)  # long enough to fail on a bad setting
        for process in self.processes:
            if process.poll() is not None:
                raise LoadError(f"a report worker exited with status {process.returncode}; see {self.log_path}")
        return self

    def cpu_seconds(self) -> float:
        try:
            return sum(process_cpu_seconds(process.pid) for process in self.processes)
        except OSError:
            return float("nan")

    def __exit__(self, *exc) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.log.close()


# The load ------------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    start: float
    seconds: float
    ok: bool
    error: str = ""
    polls: int = 0  # a PDF's status requests while it was queued or drawn


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    elapsed: float = 0.0
    worker_cpu_s: float = 0.0  # CPU time the gunicorn workers used during the run
    report_cpu_s: float = 0.0  # ... the report workers
    client_cpu_s: float = 0.0  # ... this load generator
    machine_cpu_s: float = 0.0  # ... every process (PostgreSQL, anything else running)
    loadavg: tuple[float, float] = (0.0, 0.0)  # the machine's 1-minute load average, start and end
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sample: Sample) -> None:
        with self.lock:
            self.samples.append(sample)


def wait_for_report(browser: Browser, page: bytes, deadline: float) -> tuple[str, int]:
    """Poll the status of the report the "Preparing the report" ``page`` names until it is
    ready: ``("", polls)``, or ``(error, polls)``."""
    match = re.search(rb'data-status-url="([^"]+)"', page)
    if not match:
        return "no status URL on the page", 0
    url = html.unescape(match.group(1).decode())
    polls = 0
    while time.perf_counter() < deadline:
        time.sleep(STATUS_POLL_S)
        status, _, content = browser.request("GET", url)
        polls += 1
        if status != 200:
            return f"status HTTP {status}", polls
        state = json.loads(content)["state"]
        if state == "ready":
            return "", polls
        if state == "failed":
            return "report failed", polls
    return "report not ready in time", polls


def request_once(browser: Browser, kind: str, path: str) -> Sample:
    start = time.perf_counter()
    polls = 0
    try:
        status, headers, content = browser.request("GET", path)
        if kind == "pdf" and status == 202:  # queued: wait for it as the page does, then download
            error, polls = wait_for_report(browser, content, start + REQUEST_TIMEOUT_S)
            if error:
                return Sample(kind, start, time.perf_counter() - start, False, error, polls)
            status, headers, content = browser.request("GET", path)
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return Sample(kind, start, time.perf_counter() - start, False, type(exc).__name__, polls)
    seconds = time.perf_counter() - start
    if status != 200:
        return Sample(kind, start, seconds, False, f"HTTP {status}", polls)
    if kind == "pdf" and not (headers.get("Content-Type") == "application/pdf" and content.startswith(b"%PDF")):
        return Sample(kind, start, seconds, False, "not a PDF", polls)
    return Sample(kind, start, seconds, True, polls=polls)


def user_loop(browser: Browser, choose, run: Run, deadline: float, think: float, rng: random.Random) -> None:
    while time.perf_counter() < deadline:
        kind, path = choose(rng)
        run.add(request_once(browser, kind, path))
        if think:
            pause = rng.uniform(0.5 * think, 1.5 * think)
            time.sleep(max(0.0, min(pause, deadline - time.perf_counter())))


def machine_cpu_seconds() -> float:
    """Busy CPU time of the whole machine, all cores (Linux /proc/stat)."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = [int(x) for x in handle.readline().split()[1:]]
    except OSError:
        return float("nan")
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def drive(browsers: list[Browser], choose, *, duration: float, think: float, seed: int, server: Gunicorn,
          reporters: ReportWorkers) -> Run:
    run = Run()
    cpu, client, machine = server.cpu_seconds(), time.process_time(), machine_cpu_seconds()
    report_cpu = reporters.cpu_seconds()
    load = os.getloadavg()[0]
    start = time.perf_counter()
    deadline = start + duration
    threads = [
        threading.Thread(target=user_loop, args=(b, choose, run, deadline, think, random.Random(seed + i)), daemon=True)
        for i, b in enumerate(browsers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(duration + REQUEST_TIMEOUT_S + 10)
    run.elapsed = time.perf_counter() - start
    run.worker_cpu_s = server.cpu_seconds() - cpu
    run.report_cpu_s = reporters.cpu_seconds() - report_cpu
    run.client_cpu_s = time.process_time() - client
    run.machine_cpu_s = machine_cpu_seconds() - machine
    run.loadavg = (load, os.getloadavg()[0])
    return run


def summarise(run: Run) -> dict:
    kinds = sorted({s.kind for s in run.samples}, key=lambda k: list(KIND_LABELS).index(k))
    figures = {"_run": {"elapsed_s": run.elapsed, "worker_cpu_s": run.worker_cpu_s, "loadavg": run.loadavg,
                        "report_cpu_s": run.report_cpu_s,
                        "status_polls": sum(s.polls for s in run.samples),
                        "client_cpu_s": run.client_cpu_s, "machine_cpu_s": run.machine_cpu_s,
                        "cpu_per_request_s": run.worker_cpu_s / max(len(run.samples), 1)}}
    for kind in kinds + ["all"]:
        samples = [s for s in run.samples if kind in ("all", s.kind)]
        ok = [s.seconds for s in samples if s.ok]
        errors: dict[str, int] = {}
        for s in samples:
            if not s.ok:
                errors[s.error] = errors.get(s.error, 0) + 1
        figures[kind] = {
            "requests": len(samples), "errors": len(samples) - len(ok), "error_kinds": errors,
            "rps": len(samples) / run.elapsed if run.elapsed else 0.0,
            "p50_s": percentile(ok, 50), "p95_s": percentile(ok, 95), "p99_s": percentile(ok, 99),
            "max_s": max(ok) if ok else float("nan"),
        }
    return figures


def rows_for(figures: dict, label_suffix: str = "") -> list[list]:
    rows = []
    for kind, f in figures.items():
        if kind.startswith("_"):
            continue
        label = ("all requests" if kind == "all" else KIND_LABELS[kind]) + label_suffix
        errors = str(f["errors"]) + (f" ({', '.join(f'{k}: {v}' for k, v in f['error_kinds'].items())})" if f["errors"] else "")
        rows.append([label, f["requests"], f"{f['rps']:.1f}", ms(f["p50_s"], 0), ms(f["p95_s"], 0),
                     ms(f["p99_s"], 0), ms(f["max_s"], 0), errors])
    return rows


def parse_mix(text: str) -> dict[str, int]:
    mix = {}
    for part in text.split(","):
        kind, _, weight = part.partition("=")
        if kind.strip() not in KIND_LABELS or kind.strip() == "trivial":
            raise SystemExit(f"--mix: unknown kind {kind!r}; use {', '.join(k for k in KIND_LABELS if k != 'trivial')}")
        mix[kind.strip()] = int(weight)
    return mix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-info", required=True, help="the JSON seed.py wrote")
    parser.add_argument("--duration", type=float, default=60, help="seconds of each run (default 60)")
    parser.add_argument("--users", type=int, default=20, help="simulated users (default 20)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time between a user's requests, s")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count() * 2 + 1,
                        help="gunicorn worker processes (default 2 x cores + 1, as gunicorn.conf.py)")
    parser.add_argument("--report-workers", type=int, default=1,
                        help="report worker processes, manage.py report_worker (default 1: see the module's docstring)")
    parser.add_argument("--mix", default=DEFAULT_MIX, help=f"request kinds and weights (default {DEFAULT_MIX})")
    parser.add_argument("--no-baseline", action="store_true", help="skip the trivial-page run")
    args = parser.parse_args()
    if not 1 <= args.users <= 100 or not 1 <= args.duration <= 600 or not 1 <= args.report_workers <= 16:
        raise SystemExit("--users 1..100, --duration 1..600 s, --report-workers 1..16: this is a bounded benchmark")
    with open(args.seed_info, encoding="utf-8") as handle:
        info = json.load(handle)
    if len(info["users"]) < args.users:
        raise SystemExit(f"seed.py made {len(info['users'])} users; --users {args.users} needs as many")
    mix = parse_mix(args.mix)
    kinds = [k for k, w in mix.items() for _ in range(w)]
    pools = {
        "assessment": info["computed_assessments"], "pdf": info["computed_assessments"],
        "results": info["computed_scenarios"], "case": info["submissions_of_computed"],
    }
    paths = {
        "list": lambda pk: "/", "case": lambda pk: f"/cases/{pk}/",
        "assessment": lambda pk: f"/assessments/{pk}/", "results": lambda pk: f"/scenarios/{pk}/",
        "pdf": lambda pk: f"/assessments/{pk}/irer.pdf",
    }

    def choose_page(rng: random.Random) -> tuple[str, str]:
        kind = rng.choice(kinds)
        pool = pools.get(kind)
        return kind, paths[kind](rng.choice(pool) if pool else None)

    log_dir = tempfile.mkdtemp(prefix="pmn-bench-gunicorn-")
    report_cache = tempfile.mkdtemp(prefix="pmn-bench-reports-")
    os.environ["REPORT_STORAGE"] = "filesystem"  # a fresh cache each run: every report drawn on its first request
    os.environ["REPORT_CACHE_DIR"] = report_cache  # gunicorn's and the report workers' (a copy of os.environ)
    port = free_port()
    try:
        figures = run_load(args, info, choose_page, paths, pools, mix, port, log_dir)
    finally:
        shutil.rmtree(report_cache, ignore_errors=True)
    report(args, *figures, cases=info["rows"]["cases"])


def run_load(args, info: dict, choose_page, paths: dict, pools: dict, mix: dict, port: int, log_dir: str) -> tuple:
    """The mixed run and the trivial-page run against one gunicorn and its report workers:
    (pages, baseline or None, login seconds, warm-up seconds)."""
    with Gunicorn(workers=args.workers, port=port, log_path=os.path.join(log_dir, "gunicorn.log")) as server, \
            ReportWorkers(count=args.report_workers, log_path=os.path.join(log_dir, "report-workers.log")) as reporters:
        # Log in every user once, a few at a time (each login is a deliberately slow
        # password hash); any refusal stops the run, so no user nears the lockout limit.
        start = time.perf_counter()
        browsers = [Browser(port) for _ in range(args.users)]
        errors: list[str] = []

        def log_in(browser: Browser, name: str) -> None:
            try:
                browser.log_in(name, info["password"])
            except (LoadError, OSError, http.client.HTTPException) as exc:
                errors.append(str(exc))

        threads = [threading.Thread(target=log_in, args=(b, n)) for b, n in zip(browsers, info["users"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise SystemExit("log-in failed, load run abandoned: " + "; ".join(errors[:3]))
        login_s = time.perf_counter() - start

        # Warm every worker (imports, templates, WeasyPrint's fonts), untimed.
        start = time.perf_counter()
        warm = [(k, paths[k](pools[k][0] if k in pools else None)) for k in mix]
        warm_threads = [
            threading.Thread(target=lambda b=b: [request_once(b, k, p) for k, p in warm])
            for b in browsers[: args.workers]
        ]
        for thread in warm_threads:
            thread.start()
        for thread in warm_threads:
            thread.join()
        warm_s = time.perf_counter() - start

        pages = summarise(drive(browsers, choose_page, duration=args.duration, think=args.think, seed=1, server=server,
                                reporters=reporters))
        baseline = None
        if not args.no_baseline:
            anonymous = [Browser(port) for _ in range(args.users)]
            baseline = summarise(drive(anonymous, lambda rng: ("trivial", "/accounts/login/"),
                                       duration=args.duration, think=args.think, seed=2, server=server,
                                       reporters=reporters))
    return pages, baseline, login_s, warm_s


def report(args, pages: dict, baseline: dict | None, login_s: float, warm_s: float, *, cases: int) -> None:
    think = f"think time {args.think:g} s mean" if args.think else "no think time"
    print(f"Load: {args.users} users against gunicorn ({args.workers} sync workers) and {args.report_workers} "
          f"report worker(s) on {HOST}, {args.duration:g} s per run, {think}; mix {args.mix}")
    print(f"  ({args.users} logins {login_s:.1f} s, worker warm-up {warm_s:.1f} s, not counted)")
    rows = rows_for(pages)
    if baseline:
        rows += rows_for({"trivial": baseline["trivial"]})
    print(table(["requests", "count", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"], rows))
    runs = [("mixed run", pages)] + ([("trivial-page run", baseline)] if baseline else [])
    for name, figures in runs:
        r = figures["_run"]
        seconds = r["elapsed_s"]
        other = r["machine_cpu_s"] - r["worker_cpu_s"] - r["report_cpu_s"] - r["client_cpu_s"]
        print(f"  {name}, CPU in cores (of {os.cpu_count()}): gunicorn workers {r['worker_cpu_s'] / seconds:.2f} "
              f"({ms(r['cpu_per_request_s'])} ms a request), report workers {r['report_cpu_s'] / seconds:.2f}, "
              f"this client {r['client_cpu_s'] / seconds:.2f}, the rest (PostgreSQL, other processes) "
              f"{other / seconds:.2f}")
    if pages.get("pdf"):
        print(f"  A PDF's latency is the whole wait: the request, {pages['_run']['status_polls']} status requests "
              f"in all (every {STATUS_POLL_S:g} s while queued or drawn, not counted as requests above), the download.")
    if baseline:
        print("  The trivial page is the login form requested anonymously (no database query), alone, by as\n"
              "  many users with the same think time: what gunicorn, Django's middleware and this client cost.")
    save_figures("load", {"pages": pages, "baseline": baseline, "users": args.users, "workers": args.workers,
                          "report_workers": args.report_workers, "cases": cases,
                          "duration_s": args.duration, "think_s": args.think, "mix": args.mix,
                          "login_s": login_s, "warm_s": warm_s})


if __name__ == "__main__":
    main()
