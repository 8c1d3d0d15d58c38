"""A change measured over the stored work on the report workers, and the supervisors' engine-change
page, at scale (issue 42). Prints figures; asserts nothing.

    bash benchmarks/run.sh --skip engine --skip pages --skip irer --skip load --impact
    # or alone, on a database seed.py filled:
    DATABASE_URL=... SECRET_KEY=... .venv/bin/python benchmarks/impact.py --seed-info /tmp/seed.json

1. **The workload.** The seeded cases (``seed.py``: one computed use in ``--computed-every``,
   most of the archive approved) get more computed uses on their open revisions (draft,
   submitted, returned), each a copy of one real engine computation, until ``--open-uses``
   open uses are computed (bulk-created: the replay reads the stored inputs and result, as it
   reads a use the wizard computed).
2. **The run.** A supervisor's run of ``esd impact --override photoresist-2018.Fcontainer_disp=0.01``
   (``impact_runs.start_run``), replayed by ``--workers`` report workers (``manage.py
   report_worker``, as the README runs them): the time from the start to the last part done,
   the uses replayed, the rows written. For comparison, the same replay in one process
   (``manage.py esd impact --json``).
3. **The page.** ``/engine/changes/?run=`` as a supervisor, in-process (``pages.measure``):
   the default (open work), every status, thresholds only, one method, one engineer; then the
   same after a run that moved every case (one row a case, copied: the worst case the page
   meets).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reviewer.settings")

from _report import ms, save_figures, table
from load import ReportWorkers
from pages import measure

ROOT = Path(__file__).resolve().parent.parent
CHANGE = "photoresist-2018.Fcontainer_disp=0.01"
POLL_S = 0.2


def add_open_uses(target: int) -> dict:
    """Computed uses on the open revisions until ``target`` open uses are computed; returns the counts."""
    from django.db.models import Count

    from assessments.models import Assessment, Scenario, Status

    open_statuses = (Status.DRAFT, Status.SUBMITTED, Status.RETURNED)
    computed_open = Scenario.objects.filter(result__isnull=False, assessment__status__in=open_statuses)
    have = computed_open.count()
    model = Scenario.objects.filter(result__isnull=False, scenario_key="photoresist-2018").first()
    other = Scenario.objects.filter(result__isnull=False).exclude(scenario_key="photoresist-2018").first()
    templates = [t for t in (model, other) if t is not None]
    revisions = list(Assessment.objects.filter(status__in=open_statuses).annotate(uses=Count("scenarios"))
                     .order_by("pk").values_list("pk", "uses"))
    added, round_ = [], 0
    while have + len(added) < target and revisions:
        for pk, uses in revisions:
            if have + len(added) >= target:
                break
            template = templates[(pk + round_) % len(templates)]
            added.append(Scenario(assessment_id=pk, scenario_key=template.scenario_key, title=template.title,
                                  position=uses + round_ + 1, inputs=template.inputs, reasons=template.reasons,
                                  result=template.result, computed_inputs=template.computed_inputs,
                                  computed_at=template.computed_at))
        round_ += 1
    Scenario.objects.bulk_create(added, batch_size=2000)
    return {"open computed uses": computed_open.count(),
            "all computed uses": Scenario.objects.filter(result__isnull=False).count(), "added": len(added)}


def timed_run(supervisor, workers: int) -> dict:
    from assessments import impact_runs
    from assessments.models import ImpactRun

    with ReportWorkers(count=workers, log_path="/tmp/impact-bench-workers.log"):
        start = time.perf_counter()
        run = impact_runs.start_run(by=supervisor, kind=ImpactRun.Kind.OVERRIDE, overrides=[CHANGE])
        while True:
            run.refresh_from_db()
            if run.finished_at or run.failed:
                break
            time.sleep(POLL_S)
        seconds = time.perf_counter() - start
    if run.failed:
        raise SystemExit(f"the run stopped: {run.failed}")
    done = impact_runs.progress(run)
    return {"run": run.pk, "seconds": seconds, "uses": done.uses, "parts": done.parts, "rows": run.uses.count()}


def one_process(env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", "esd", "impact", "--override", CHANGE, "--json"],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def every_case_moved(run_pk: int) -> int:
    """A run that moved every case: one row a revision, with its status, copied from a real row."""
    from django.db import connection

    from assessments.models import Assessment, ImpactRun, ImpactUse

    real = ImpactUse.objects.filter(run_id=run_pk).first()
    worst = ImpactRun.objects.create(kind=ImpactRun.Kind.OVERRIDE, change={"overrides": []},
                                     engine_version=real.run.engine_version)
    rows = []
    for pk, case, status in Assessment.objects.values_list("pk", "submission_id", "status").iterator(chunk_size=5000):
        rows.append(ImpactUse(run=worst, assessment_id=pk, submission_id=case, scenario_key=real.scenario_key,
                              position=1, title=real.title, status=status,
                              action="note only" if status == "approved" else "recompute",
                              moves=real.moves, largest=(pk % 997) / 997, crossed=pk % 7 == 0))
    ImpactUse.objects.bulk_create(rows, batch_size=5000)
    worst.finished_at = real.run.finished_at
    worst.save(update_fields=["finished_at"])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE assessments_impactuse")
    return worst.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-info", required=True, help="the JSON seed.py wrote")
    parser.add_argument("--open-uses", type=int, default=10_000, help="computed open uses (default 10,000)")
    parser.add_argument("--workers", type=int, default=2, help="report workers (default 2)")
    parser.add_argument("--repeat", type=int, default=20, help="requests per page (default 20)")
    args = parser.parse_args()
    with open(args.seed_info, encoding="utf-8") as handle:
        info = json.load(handle)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from assessments.models import Submission

    supervisor = get_user_model().objects.get(username=info["supervisors"][0])
    start = time.perf_counter()
    counts = add_open_uses(args.open_uses)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE assessments_scenario")
    print(f"Workload: {Submission.objects.count():,} cases; {counts['open computed uses']:,} computed open uses "
          f"({counts['added']:,} added), {counts['all computed uses']:,} computed uses in all "
          f"({time.perf_counter() - start:.1f} s)")

    alone = one_process(os.environ.copy())
    run = timed_run(supervisor, args.workers)
    print(table(["replay", "seconds", "uses replayed", "rows written"], [
        ["esd impact --override, one process", f"{alone:.1f}", f"{counts['all computed uses']:,}", "—"],
        [f"start_run, {args.workers} report workers, {run['parts']} parts", f"{run['seconds']:.1f}",
         f"{run['uses']:,}", f"{run['rows']:,}"],
    ]))

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(supervisor)
    worst = every_case_moved(run["run"])
    engineer = info["target"]["user"]
    engineer_pk = get_user_model().objects.get(username=engineer).pk
    pages = [
        ("engine changes, open work (the default)", f"/engine/changes/?run={run['run']}"),
        ("engine changes, every status", f"/engine/changes/?run={run['run']}&status=all"),
        ("engine changes, thresholds crossed only", f"/engine/changes/?run={run['run']}&crossed=1"),
        ("engine changes, one method", f"/engine/changes/?run={run['run']}&scenario=photoresist-2018&status=all"),
        ("engine changes, one engineer", f"/engine/changes/?run={run['run']}&engineer={engineer_pk}&status=all"),
        ("engine changes, every case moved, open work", f"/engine/changes/?run={worst}"),
        ("engine changes, every case moved, every status", f"/engine/changes/?run={worst}&status=all"),
    ]
    rows, figures = [], {"run": run, "one_process_s": alone, "workload": counts}
    for name, url in pages:
        found = measure(client, url, args.repeat)
        figures[name] = found
        rows.append([name, ms(found["median_s"]), ms(found["p90_s"]), found["queries"], ms(found["db_s"]),
                     f"{found['rows_examined']:,}", ", ".join(found["seq_scans"]) or "—"])
    print(f"Engine-change page, server time in-process, {Submission.objects.count():,} cases, "
          f"median and p90 of {args.repeat} requests")
    print(table(["page", "median ms", "p90 ms", "queries", "SQL ms", "rows examined", "seq scan of"], rows))
    save_figures("impact", figures)


if __name__ == "__main__":
    main()
