"""The API's case list and compute beside the pages' (issue 31): server time in-process with
Django's test client, median and 90th percentile of ``--repeat`` requests each.

- case list: the page ``/`` (session) beside ``GET /api/v1/cases`` (bearer token), the same
  selector (``selectors.submission_search`` + ``case_page``), the newest page of 25;
- compute: ``POST /api/v1/scenarios/KEY/compute`` beside the engine called in-process (what
  the wizard's compute step runs) and ``manage.py esd compute`` through ``call_command``.

Quick (a throwaway test database, SQLite in memory unless DATABASE_URL names PostgreSQL):

    .venv/bin/python benchmarks/api.py --cases 2000

At 100,000 cases, on the database benchmarks/seed.py fills (its users' password is known):

    createdb -h 127.0.0.1 -U postgres pmn_bench
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/pmn_bench SECRET_KEY=bench
    .venv/bin/python manage.py migrate
    .venv/bin/python benchmarks/seed.py --cases 100000 --out /tmp/seed.json
    .venv/bin/python benchmarks/api.py --seeded
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _django import test_database


def timed(fn, repeat: int) -> tuple[float, float]:
    for _ in range(3):
        response = fn()
        status = getattr(response, "status_code", 200)
        if status != 200:
            raise SystemExit(f"HTTP {status}: {response.content[:300]!r}")
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.9))]


def _seed_cases(count: int):
    from assessments.models import Submission
    from calendar_review.models import refresh_case_due

    Submission.objects.bulk_create(
        (Submission(case_number=f"P-26-{n:06d}", submitter="Acme Photochemicals", chemical_name=f"Chemical {n}",
                    generic_name="Substituted onium salt", production_volume_kg_yr=5000.0,
                    use_description="Component of a photoresist.") for n in range(count)), batch_size=2000)
    refresh_case_due()  # each case's default due date (bulk_create skips the writer)


def _user(seeded: bool):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    model = get_user_model()
    if seeded:
        return model.objects.filter(is_active=True, groups__name="reviewer").order_by("pk").first()
    from assessments.roles import REVIEWER_GROUP, ensure_roles
    from tests.conftest import make_user

    ensure_roles()
    user = make_user(model, "bench-api", group=REVIEWER_GROUP)
    user.user_permissions.add(Permission.objects.get(codename="view_cbi"))
    return model.objects.get(pk=user.pk)


def run(args) -> list[tuple[str, float, float]]:
    from django.core.management import call_command
    from django.test import Client

    from api import tokens
    from assessments.esd import registry
    from assessments.models import Submission
    from tests.contract.varied_inputs import case_inputs

    if not args.seeded:
        _seed_cases(args.cases)
    user = _user(args.seeded)
    token = tokens.token_create(owner=user, name=f"benchmark {time.time()}", days=1).token
    page, api = Client(), Client(headers={"Authorization": f"Bearer {token}"})
    page.force_login(user)
    from django.test import override_settings

    rows = []
    with override_settings(API_RATE_LIMIT_PER_MINUTE=10**9, ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        rows.append((f"case list page / ({Submission.objects.count()} cases)",
                     *timed(lambda: page.get("/"), args.repeat)))
        rows.append(("case list GET /api/v1/cases", *timed(lambda: api.get("/api/v1/cases"), args.repeat)))
        rows.append(("case list GET /api/v1/cases?q=onium",
                     *timed(lambda: api.get("/api/v1/cases", {"q": "onium"}), args.repeat)))
        for scenario in registry.scenarios():
            body = json.dumps(case_inputs(scenario))
            rows.append((f"compute {scenario.key}: engine in-process",
                         *timed(lambda s=scenario, b=body: s.compute(json.loads(b)).as_dict() and None, args.repeat)))
            rows.append((f"compute {scenario.key}: esd compute (call_command)",
                         *timed(lambda s=scenario, b=body: call_command("esd", "compute", s.key, "-",
                                                                       stdin=StringIO(b), stdout=StringIO()) or None,
                                args.repeat)))
            rows.append((f"compute {scenario.key}: POST /api/v1/.../compute",
                         *timed(lambda s=scenario, b=body: api.post(f"/api/v1/scenarios/{s.key}/compute", b,
                                                                    content_type="application/json"), args.repeat)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases made in the throwaway database")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seeded", action="store_true",
                        help="use the database DATABASE_URL names, as benchmarks/seed.py filled it")
    args = parser.parse_args()
    if args.seeded:
        import os

        import django

        os.environ["DJANGO_SETTINGS_MODULE"] = "reviewer.settings"
        django.setup()
        rows = run(args)
    else:
        with test_database():
            rows = run(args)
    width = max(len(name) for name, *_ in rows)
    print(f"{'':{width}}  median ms   p90 ms")
    for name, median, p90 in rows:
        print(f"{name:{width}}  {median * 1000:9.1f} {p90 * 1000:8.1f}")


if __name__ == "__main__":
    main()
