"""Fill an empty, migrated database with a realistic workload for the page and load
benchmarks: users with a known password, ``--cases`` cases, each with an assessment
(some with a second revision) and a use (scenario), every ``--computed-every``-th
assessment computed (its result a copy of one real engine computation), and the review
decisions of the submitted, returned and approved ones, written in the order the
workflow writes them (approved work is final: migration 0006's triggers). Rows are
bulk-created (no history records: the measured pages do not read history), then each
case's copy of its latest assessment is filled (``models.refresh_latest_assessment``).
Prints the time it took and writes the ids the other benchmarks need to ``--out`` (JSON).

Refuses a database that already has cases: it is meant for the throwaway database
``run.py`` creates.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pmn_bench SECRET_KEY=... \\
        .venv/bin/python benchmarks/seed.py --out /tmp/seed.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reviewer.settings")

from _report import save_figures

PASSWORD = "bench-password-2026"  # benchmark users only, in a throwaway database
SUPERVISORS = 4  # of the --users, the first ones are supervisors; the others reviewers
SUBMITTERS = ("Acme Photochemicals", "Deposition Materials Supplier Inc.", "Photoresist Application Company",
              "Northern Specialty Polymers", "Lakeside Fine Chemicals", "Semiconductor Materials Co.")
CHEMICALS = (("Non-Volatile Photoresist Additive", "Substituted onium salt"),
             ("Tetrakis(ethylmethylamino)hafnium", "Hafnium amide CVD precursor"),
             ("2-Example-ethyl photoacid generator", "Sulfonium triflate"),
             ("Polyhydroxystyrene copolymer", "Phenolic polymer"),
             ("Trimethylaluminium", "Organoaluminium CVD precursor"))
# The two real computations copied into the computed scenarios.
COMPUTATIONS = (
    ("photoresist-2018", "Photoresist in semiconductor manufacturing",
     {"Qchem_yr": 5000.0, "Fchem": 0.15, "stripping_process": "unknown", "daily_use_basis": "chemsteer"}),
    ("cvd-2015", "Chemical vapour deposition", {"Qchem_yr": 1200.0}),
)


CASE_EVERY_HOURS = 4  # one case entered every 4 hours: 100,000 cases span 45 years
OPEN_DAYS, STRAGGLER_EVERY = 365, 50


def seed(*, cases: int, computed_every: int, users: int, rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group, Permission
    from django.db import connection, transaction
    from django.utils import timezone

    from assessments.esd import registry
    from assessments.models import (
        Assessment,
        CaseType,
        DecisionAction,
        PhysicalState,
        ReviewDecision,
        Scenario,
        Status,
        Submission,
        VolumeQualifier,
        refresh_latest_assessment,
    )
    from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP

    if Submission.objects.exists():
        raise SystemExit("seed.py: the database has cases already; it seeds only an empty, throwaway database.")
    User = get_user_model()
    now = timezone.now()
    timings = {}

    with transaction.atomic():
        start = time.perf_counter()
        password = make_password(PASSWORD)  # hashed once (the production hasher), shared
        names = [f"bench-user-{i:02d}" for i in range(1, users + 1)]
        User.objects.bulk_create(
            User(username=name, password=password, first_name="Bench", last_name=f"User {i + 1}",
                 email=f"{name}@example.invalid")
            for i, name in enumerate(names)
        )
        people = list(User.objects.filter(username__in=names).order_by("username"))
        groups = {g.name: g for g in Group.objects.filter(name__in=[REVIEWER_GROUP, SUPERVISOR_GROUP])}
        cbi = Permission.objects.get(codename="view_cbi", content_type__app_label="assessments")
        User.groups.through.objects.bulk_create(
            User.groups.through(user_id=u.pk, group_id=groups[SUPERVISOR_GROUP if i < SUPERVISORS else REVIEWER_GROUP].pk)
            for i, u in enumerate(people)
        )
        User.user_permissions.through.objects.bulk_create(
            User.user_permissions.through(user_id=u.pk, permission_id=cbi.pk) for u in people
        )
        supervisors, reviewers = people[:SUPERVISORS], people[SUPERVISORS:] or people
        timings["users_s"] = time.perf_counter() - start

        start = time.perf_counter()
        case_types = [CaseType.PMN] * 6 + [CaseType.LVE, CaseType.SNUN, CaseType.LOREX, CaseType.TMEA]
        submissions = []
        for i in range(cases):
            chemical, generic = CHEMICALS[i % len(CHEMICALS)]
            claims = ["chemical_name", "submitter"] if i % 20 == 0 else []  # 5 % CBI cases
            submissions.append(Submission(
                case_number=f"P-{16 + i * 10 // max(cases, 1):02d}-{i:05d}",
                case_type=case_types[i % len(case_types)],
                case_name=f"Bench case {i}",
                submitter=SUBMITTERS[i % len(SUBMITTERS)],
                chemical_name=f"{chemical} {i}",
                generic_name=generic,
                cas_number="" if i % 3 else f"{1000 + i}-{i % 90 + 10}-{i % 10}",
                production_volume_kg_yr=float(rng.choice((500, 1200, 5000, 10000, 45000))),
                volume_qualifier=VolumeQualifier.IMPORT_ONLY if i % 2 == 0 else VolumeQualifier.MANUFACTURE,
                molecular_weight=float(rng.choice((200, 410.9, 1500))),
                vapour_pressure_torr=rng.choice((1e-6, 0.05, 2.0)),
                vapour_pressure_temp_c=25.0,
                physical_state=rng.choice((PhysicalState.LIQUID, PhysicalState.SOLID)),
                use_description="Component of a photoresist formulation used in semiconductor manufacturing.",
                use_concentration=rng.choice((0.05, 0.15, 1.0)),
                **dict(zip(("pbt_persistence", "pbt_bioaccumulation", "pbt_toxicity"),
                           rng.choice((("", "", ""), ("2", "1", ""), ("1", "1", "1"))))),
                cbi_claims=claims,
                is_cbi=bool(claims),  # bulk_create skips Submission.save(), which derives it
                created_by=rng.choice(reviewers),
            ))
        Submission.objects.bulk_create(submissions, batch_size=2000)
        # Received dates spread over the past years, one case every 4 hours, newest last.
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Submission._meta.db_table} SET created_at = %s - (%s - id) * interval '{CASE_EVERY_HOURS} hours', "
                f"updated_at = %s - (%s - id) * interval '{CASE_EVERY_HOURS} hours'",
                [now, submissions[-1].pk, now, submissions[-1].pk],
            )
        timings["cases_s"] = time.perf_counter() - start

        start = time.perf_counter()
        statuses = [Status.DRAFT] * 4 + [Status.SUBMITTED] * 2 + [Status.RETURNED] + [Status.APPROVED] * 3
        # As a team's cases age: those entered in the last OPEN_DAYS in every status (the
        # mix above), older ones approved but one in STRAGGLER_EVERY still open (draft,
        # submitted or returned), so the open work grows with the archive, as a backlog does.
        newest_open = cases - OPEN_DAYS * 24 // CASE_EVERY_HOURS

        def status_of(i: int) -> str:
            if i >= newest_open:
                return statuses[i % len(statuses)]
            return statuses[i % 7] if i % STRAGGLER_EVERY == 17 else Status.APPROVED
        # Approved work is final (migration 0006's triggers refuse a use or a decision added
        # under it), so the rows are written as the workflow writes them: an assessment to be
        # approved is written submitted, with its use and submit decision, then approved,
        # then its approve decision added. ``final`` holds each one's status and approver.
        assessments, final = [], []
        for i, submission in enumerate(submissions):
            revisions = 2 if i % 25 == 0 else 1  # every 25th case: an approved revision 1, then revision 2
            for revision in range(1, revisions + 1):
                status = Status.APPROVED if revision < revisions else status_of(i)
                assessments.append(Assessment(
                    submission=submission, revision=revision, engineer=reviewers[i % len(reviewers)],
                    status=Status.SUBMITTED if status == Status.APPROVED else status,
                    notes="Key assumptions as in the ESD." if i % 2 else "",
                    **dict(zip(("occupational_exposure_rating", "occupational_exposure_rating_reason"),
                               rng.choice((("", ""), ("NR", "Closed system."), ("1-2B", "Spray step not modelled."))))),
                ))
                final.append((status, supervisors[i % len(supervisors)]))
        Assessment.objects.bulk_create(assessments, batch_size=2000)
        timings["assessments_s"] = time.perf_counter() - start

        start = time.perf_counter()
        results = []
        for key, title, inputs in COMPUTATIONS:
            results.append((key, title, inputs, registry.compute(key, inputs).as_dict()))
        scenarios, computed_ids = [], []
        for i, assessment in enumerate(assessments):
            key, title, inputs, result = results[i % len(results)]
            computed = i % computed_every == 0
            scenarios.append(Scenario(
                assessment=assessment, scenario_key=key, title=title, position=1,
                inputs=inputs, reasons={symbol: "From the submission." for symbol in inputs if symbol != "Qchem_yr"},
                result=result if computed else None, computed_inputs=dict(inputs) if computed else None,
                computed_at=now if computed else None,
            ))
            if computed:
                computed_ids.append(assessment.pk)
        Scenario.objects.bulk_create(scenarios, batch_size=500)
        timings["scenarios_s"] = time.perf_counter() - start

        start = time.perf_counter()
        decisions, approvals, approved_by = [], [], {}
        for assessment, (status, supervisor) in zip(assessments, final):
            if status == Status.DRAFT:
                continue
            decisions.append(ReviewDecision(assessment=assessment, action=DecisionAction.SUBMIT, from_status=Status.DRAFT,
                                            to_status=Status.SUBMITTED, by=assessment.engineer, comment="Ready."))
            if status == Status.RETURNED:
                decisions.append(ReviewDecision(assessment=assessment, action=DecisionAction.RETURN,
                                                from_status=Status.SUBMITTED, to_status=Status.RETURNED,
                                                by=supervisor, comment="Check the vapour pressure."))
            elif status == Status.APPROVED:
                approvals.append(ReviewDecision(assessment=assessment, action=DecisionAction.APPROVE,
                                                from_status=Status.SUBMITTED, to_status=Status.APPROVED,
                                                by=supervisor, comment=""))
                approved_by.setdefault(supervisor, []).append(assessment.pk)
        ReviewDecision.objects.bulk_create(decisions, batch_size=2000)
        for supervisor, ids in approved_by.items():  # submitted -> approved, then the approvals
            for first in range(0, len(ids), 5000):
                Assessment.objects.filter(pk__in=ids[first:first + 5000]).update(
                    status=Status.APPROVED, approved_by=supervisor, approved_at=now)
        ReviewDecision.objects.bulk_create(approvals, batch_size=2000)
        timings["decisions_s"] = time.perf_counter() - start

        start = time.perf_counter()
        # As a team works: each revision started a day after its case (revision 2 a day later),
        # submitted three days after it started, returned or approved six days after that, so
        # the portfolio's months and times in each status spread as the cases do. The times are
        # set after the rows are written, past the triggers that keep approved work final
        # (migration 0006), as a restore of a dump would (session_replication_role).
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute(
                f"UPDATE {Assessment._meta.db_table} AS a SET created_at = s.created_at + a.revision * interval '1 day', "
                f"approved_at = CASE WHEN a.approved_at IS NULL THEN NULL "
                f"ELSE s.created_at + a.revision * interval '1 day' + interval '9 days' END "
                f"FROM {Submission._meta.db_table} AS s WHERE a.submission_id = s.id")
            cursor.execute(
                f"UPDATE {ReviewDecision._meta.db_table} AS d SET at = a.created_at + CASE d.action "
                f"WHEN 'submit' THEN interval '3 days' ELSE interval '9 days' END "
                f"FROM {Assessment._meta.db_table} AS a WHERE d.assessment_id = a.id")
            cursor.execute("SET LOCAL session_replication_role = origin")
        timings["times_s"] = time.perf_counter() - start

        start = time.perf_counter()
        # Each case's copy of its latest assessment (bulk_create skips it); its signal builds
        # the portfolio's ledger from every row (portfolio.receivers: a full rebuild).
        refresh_latest_assessment()
        timings["latest_s"] = time.perf_counter() - start

        start = time.perf_counter()
        calendars = seed_calendars(reviewers=reviewers, today=timezone.localdate(now))
        timings["calendars_s"] = time.perf_counter() - start

    start = time.perf_counter()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Fresh planner statistics and visibility maps (index-only scans), and the dead
            # rows of the bulk updates above gone, as autovacuum would leave it soon after.
            cursor.execute("VACUUM ANALYZE")
    timings["analyze_s"] = time.perf_counter() - start

    # The page the in-process benchmark measures: a computed draft, as its own engineer
    # sees it (the heaviest variant: the edit and submit panels look at every use).
    target = (Assessment.objects.filter(pk__in=computed_ids, status=Status.DRAFT, revision=1)
              .select_related("engineer").order_by("pk").first())
    scenario = target.scenarios.get()
    return {
        "users": names,
        "supervisors": [u.username for u in supervisors],
        "password": PASSWORD,
        "computed_assessments": computed_ids,
        "computed_scenarios": list(
            Scenario.objects.filter(assessment_id__in=computed_ids).order_by("pk").values_list("pk", flat=True)
        ),
        "submissions_of_computed": list(
            Assessment.objects.filter(pk__in=computed_ids).order_by("pk").values_list("submission_id", flat=True)
        ),
        "portfolio_method": scenario.scenario_key,
        "target": {"user": target.engineer.username, "submission": target.submission_id,
                   "assessment": target.pk, "scenario": scenario.pk},
        "rows": {
            "cases": Submission.objects.count(), "assessments": Assessment.objects.count(),
            "scenarios": Scenario.objects.count(),
            "computed scenarios": Scenario.objects.filter(result__isnull=False).count(),
            "review decisions": ReviewDecision.objects.count(), "users": User.objects.count(),
            **calendars,
        },
        "timings": timings,
    }


# The review calendars, as a team keeps them: recorded for most cases (a case entered in the
# last UNRECORDED_DAYS days, and one older case in UNRECORDED_EVERY, still has none: due on its
# default date), received the day the case was entered, the TSCA period; one in
# EXTENDED_EVERY extended, one open case in STOPPED_EVERY suspended (the clock stopped) since
# a month after receipt, one in ASSIGNED_EVERY assigned on the calendar (to its engineer or
# another reviewer). The approved cases' calendars are closed; the open ones are due soon
# or overdue by their age.
UNRECORDED_DAYS, UNRECORDED_EVERY = 30, 20
EXTENDED_EVERY, STOPPED_EVERY, ASSIGNED_EVERY = 10, 50, 2
PERIOD_DAYS, EXTENSION_DAYS, STOPPED_AFTER_DAYS = 90, 30, 30


def seed_calendars(*, reviewers: list, today) -> dict:
    """Bulk-create the review calendars, their extensions and open suspensions (no history
    records: the lists read the calendars, not their history); the counts made."""
    from datetime import timedelta

    from django.utils import timezone

    from assessments.models import Status, Submission
    from calendar_review.due import due_date
    from calendar_review.models import Extension, ReviewCalendar, Suspension, refresh_case_due

    calendars, extended, stopped = [], [], []
    cases = Submission.objects.order_by("pk").values_list("pk", "created_at", "latest_status", "latest_engineer_id")
    for i, (pk, created_at, status, engineer_id) in enumerate(cases.iterator(chunk_size=5000)):
        received_on = timezone.localdate(created_at)
        if (today - received_on).days < UNRECORDED_DAYS or i % UNRECORDED_EVERY == 7:
            continue
        extension = [EXTENSION_DAYS] if i % EXTENDED_EVERY == 3 else []
        stop = (status != Status.APPROVED and i % STOPPED_EVERY == 11
                and received_on + timedelta(days=STOPPED_AFTER_DAYS) <= today)
        assigned = None
        if i % ASSIGNED_EVERY == 0:
            assigned = engineer_id if i % 8 else reviewers[i % len(reviewers)].pk
        calendar = ReviewCalendar(
            submission_id=pk, received_on=received_on, period_days=PERIOD_DAYS, assigned_engineer_id=assigned,
            due_on=due_date(received_on, period_days=PERIOD_DAYS, extension_days=extension, today=today),
            clock_stopped_on=received_on + timedelta(days=STOPPED_AFTER_DAYS) if stop else None,
        )
        calendars.append(calendar)
        if extension:
            extended.append(calendar)
        if stop:
            stopped.append(calendar)
    ReviewCalendar.objects.bulk_create(calendars, batch_size=2000)
    Extension.objects.bulk_create(
        (Extension(calendar=c, granted_on=min(c.received_on + timedelta(days=60), today), days=EXTENSION_DAYS,
                   reason="The submitter's request, to send test data.") for c in extended), batch_size=2000)
    Suspension.objects.bulk_create(
        (Suspension(calendar=c, starts_on=c.clock_stopped_on, reason="The submitter's request of that day.")
         for c in stopped), batch_size=2000)
    refresh_case_due()  # each case's copy of its calendar, or its default due date (bulk_create skips it)
    return {"review calendars": len(calendars), "extensions": len(extended), "open suspensions": len(stopped)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--computed-every", type=int, default=10, help="compute one assessment in N (1: all)")
    parser.add_argument("--users", type=int, default=20, help="benchmark users (the first 4 are supervisors)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (the data is repeatable)")
    parser.add_argument("--out", required=True, help="write the ids the other benchmarks need here (JSON)")
    args = parser.parse_args()

    import django

    django.setup()
    start = time.perf_counter()
    info = seed(cases=args.cases, computed_every=args.computed_every, users=args.users,
                rng=random.Random(args.seed))
    total = time.perf_counter() - start
    info["timings"]["total_s"] = total
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(info, handle)
    from django.db import connection

    with connection.cursor() as cursor:
        size = ""
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
            size = f", database {cursor.fetchone()[0]}"
    rows = ", ".join(f"{count:,} {name}" for name, count in info["rows"].items())
    print(f"Seeded in {total:.1f} s{size}: {rows}")
    print("  " + ", ".join(f"{k[:-2]} {v:.1f} s" for k, v in info["timings"].items() if k != "total_s"))
    save_figures(f"seed-{info['rows']['cases']}", {"rows": info["rows"], "timings": info["timings"]})


if __name__ == "__main__":
    main()
