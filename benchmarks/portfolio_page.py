"""The portfolio page on the seeded database (``seed.py``: its revisions spread over the years,
returned, approved and open as a team's are; its ledger built by the seed's
``refresh_latest_assessment``): the server time of the page and its CSV under each filter, as
a supervisor (the team) and as a reviewer (their own), the queries, and the rows the database
examined (``pages.plan_figures``): these read the ledger's cells and one page of the due-date
index, so the rows examined stay flat as the cases grow. Also the ledger's size and the time of
``manage.py portfolio rebuild``. Prints figures; asserts nothing.

    DATABASE_URL=... SECRET_KEY=... .venv/bin/python benchmarks/portfolio_page.py --seed-info /tmp/seed.json
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

from _report import ms, save_figures, table
from pages import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-info", required=True, help="the JSON seed.py wrote")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rebuild", action="store_true", help="also time manage.py portfolio rebuild")
    args = parser.parse_args()
    with open(args.seed_info, encoding="utf-8") as handle:
        info = json.load(handle)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from assessments.models import Submission
    from portfolio import ledger
    from portfolio.models import CaseRecord, DepartureCell, DueCell, RevisionRecord, ReworkCell

    figures: dict = {}
    if args.rebuild:
        start = time.perf_counter()
        ledger.rebuild()
        figures["rebuild_s"] = time.perf_counter() - start
    User = get_user_model()
    engineer = User.objects.get(username=info["target"]["user"])
    supervisor = User.objects.get(username=info["supervisors"][0])

    def client_for(user):
        client = Client(HTTP_HOST="127.0.0.1")  # an ALLOWED_HOSTS name: DEBUG is off
        client.force_login(user)
        return client

    as_engineer, as_supervisor = client_for(engineer), client_for(supervisor)
    pages = [
        ("portfolio  /portfolio/ (a supervisor: the team, 12 months)", as_supervisor, "/portfolio/"),
        ("portfolio, the team, 3 years", as_supervisor, "/portfolio/?period=36"),
        ("portfolio, one engineer and one method", as_supervisor,
         f"/portfolio/?engineer={engineer.pk}&scenario={info['portfolio_method']}"),
        ("portfolio, a reviewer's own", as_engineer, "/portfolio/"),
        ("portfolio CSV  /portfolio.csv (the team)", as_supervisor, "/portfolio.csv"),
    ]
    rows = []
    for name, client, url in pages:
        found = measure(client, url, args.repeat)
        figures[name] = found
        rows.append([name, ms(found["median_s"]), ms(found["p90_s"]), found["queries"], ms(found["db_s"]),
                     f"{found['rows_examined']:,}", ", ".join(found["seq_scans"]) or "—"])
    ledger_rows = {model.__name__: model.objects.count()
                   for model in (CaseRecord, RevisionRecord, ReworkCell, DepartureCell, DueCell)}
    figures["ledger"] = ledger_rows
    cases = Submission.objects.count()
    figures["cases"] = cases
    print(table(["page", "median ms", "p90 ms", "queries", "SQL ms", "rows examined", "seq scan of"], rows))
    print("  ledger: " + ", ".join(f"{name} {count:,}" for name, count in ledger_rows.items())
          + (f"; rebuilt in {figures['rebuild_s']:.1f} s" if args.rebuild else ""))
    save_figures(f"portfolio-{cases}", figures)


if __name__ == "__main__":
    main()
