"""Server time of the pages, in-process with Django's test client on the seeded database
(``seed.py``): median and 90th percentile of ``--repeat`` requests per page, the number
of SQL queries a request makes and their time (``CaptureQueriesContext``: the median of
5 further requests, so the timed ones run without query logging). Prints figures; asserts
nothing.

    DATABASE_URL=... SECRET_KEY=... .venv/bin/python benchmarks/pages.py --seed-info /tmp/seed.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reviewer.settings")

from _report import ms, percentile, save_figures, table


def measure(client, url: str, repeat: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(3):  # warm: templates, content types, the database's cache
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}")
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
    counts, sql_times = set(), []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        counts.add(len(queries))
        sql_times.append(sum(float(q["time"]) for q in queries.captured_queries))
    examined, seq_scans = plan_figures(queries.captured_queries)
    return {
        "median_s": percentile(times, 50),
        "p90_s": percentile(times, 90),
        "queries": "/".join(str(c) for c in sorted(counts)),
        "db_s": percentile(sql_times, 50),
        "kib": len(response.content) / 1024,
        "rows_examined": examined,
        "seq_scans": seq_scans,
    }


# The tables whose size grows with the cases: a list that reads one of them whole grows too.
CASE_TABLES = ("assessments_submission", "assessments_assessment", "calendar_review_reviewcalendar",
               "assessments_reviewdecision", "assessments_scenario")


def plan_figures(captured: list[dict]) -> tuple[int, list[str]]:
    """Rows the database examined for one request's queries, from each query's plan
    (``EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)``): every scan node's rows returned plus
    those its filter removed, times its loops; and the case tables read by a sequential
    scan. PostgreSQL only (``0, []`` elsewhere)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0, []
    examined, seq_scans = 0, []

    def walk(node: dict) -> None:
        nonlocal examined
        if "Scan" in node["Node Type"] and "Relation Name" in node:
            loops = node.get("Actual Loops", 1)
            examined += int((node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                             + node.get("Rows Removed by Index Recheck", 0)) * loops)
            if node["Node Type"] == "Seq Scan" and node["Relation Name"] in CASE_TABLES:
                seq_scans.append(node["Relation Name"])
        for child in node.get("Plans", ()):
            walk(child)

    with connection.cursor() as cursor:
        for query in captured:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
            (document,) = cursor.fetchone()
            walk(document[0]["Plan"])
    return examined, sorted(set(seq_scans))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-info", required=True, help="the JSON seed.py wrote")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with open(args.seed_info, encoding="utf-8") as handle:
        info = json.load(handle)

    import django

    django.setup()
    from urllib.parse import urlencode

    from django.contrib.auth import get_user_model
    from django.test import Client

    from assessments.models import Submission
    from assessments.selectors import CasePlace

    User = get_user_model()
    target = info["target"]
    # A page deep in the list: the one after the case in the middle ("Older" from there).
    middle = Submission.objects.order_by("-created_at", "-id")[Submission.objects.count() // 2]
    after_middle = urlencode({"after": str(CasePlace.of(middle))})
    rare = urlencode({"q": middle.case_number})  # one case, or a few whose numbers contain it
    engineer = User.objects.get(username=target["user"])
    supervisor = User.objects.get(username=info["supervisors"][0])

    def client_for(user):
        client = Client(HTTP_HOST="127.0.0.1")  # an ALLOWED_HOSTS name: DEBUG is off
        if user is not None:
            client.force_login(user)
        return client

    as_engineer, as_supervisor, anonymous = client_for(engineer), client_for(supervisor), client_for(None)
    pages = [
        # Every list, as a reviewer and as a supervisor: the home page ("My work" above the
        # list), the list's pages, searches and filters (without "My work"), the due-date
        # list, the review queue.
        ("home page, my work and the list  /", as_engineer, "/"),
        ("home page, as a supervisor", as_supervisor, "/"),
        ("case list, oldest page (?oldest=1)", as_engineer, "/?oldest=1"),
        ("case list, older than the middle case (?after=)", as_engineer, f"/?{after_middle}"),
        ("case list, older than the middle, as a supervisor", as_supervisor, f"/?{after_middle}"),
        ("case list, text search (?q=hafnium)", as_engineer, "/?q=hafnium"),
        ("case list, text search, as a supervisor", as_supervisor, "/?q=hafnium"),
        ("case list, text search, oldest page", as_engineer, "/?q=hafnium&oldest=1"),
        ("case list, text search for one case number", as_engineer, f"/?{rare}"),
        ("case list, search of 2 characters (?q=P-)", as_engineer, "/?q=P-"),
        ("case list, search of 1 character, no match (?q=9)", as_engineer, "/?q=9"),
        ("case list, search of 2 characters, as a supervisor", as_supervisor, "/?q=zq"),
        ("case list, status filter (?status=submitted)", as_engineer, "/?status=submitted"),
        ("case list, status filter, oldest page", as_engineer, "/?status=returned&oldest=1"),
        ("case list, engineer filter (?engineer=)", as_engineer, f"/?engineer={engineer.username}"),
        *((f"case list, due filter (?due={due})" + (", as a supervisor" if client is as_supervisor else ""),
           client, f"/?due={due}") for due in ("overdue", "within", "stopped", "none")
          for client in (as_engineer, as_supervisor)),
        ("case list, no calendar, oldest page", as_engineer, "/?due=none&oldest=1"),
        ("due-date list, soonest first  /due/", as_engineer, "/due/"),
        ("due-date list, as a supervisor", as_supervisor, "/due/"),
        ("due-date list, mine (?mine=1)", as_engineer, "/due/?mine=1"),
        ("review queue  /review/ (a supervisor)", as_supervisor, "/review/"),
        ("case page  /cases/<pk>/", as_engineer, f"/cases/{target['submission']}/"),
        ("case page, as a supervisor", as_supervisor, f"/cases/{target['submission']}/"),
        ("assessment page  /assessments/<pk>/", as_engineer, f"/assessments/{target['assessment']}/"),
        ("results page  /scenarios/<pk>/", as_engineer, f"/scenarios/{target['scenario']}/"),
        ("trivial page: login form (anonymous)", anonymous, "/accounts/login/"),
    ]
    rows, figures = [], {}
    for name, client, url in pages:
        m = measure(client, url, args.repeat)
        figures[name] = m
        rows.append([name, ms(m["median_s"]), ms(m["p90_s"]), m["queries"], ms(m["db_s"]), f"{m['kib']:.0f}",
                     f"{m['rows_examined']:,}", ", ".join(m["seq_scans"]) or "—"])
    cases = Submission.objects.count()
    print(f"Page server time, in-process (Django test client, DEBUG off), {cases:,} cases, "
          f"median and p90 of {args.repeat} requests")
    print(table(["page", "median ms", "p90 ms", "queries", "SQL ms", "KiB", "rows examined", "seq scan of"], rows))
    save_figures(f"pages-{cases}", figures)


if __name__ == "__main__":
    main()
