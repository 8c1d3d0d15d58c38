"""``manage.py portfolio rebuild``: make the portfolio's ledger (every case's and revision's
record, and the cells they add up to) again from the history. Run it once after installing
this version on a database that already holds cases, and after a bulk load that writes rows
without ``save()`` and without ``refresh_latest_assessment``; ``manage.py portfolio check``
says whether every cell equals the sum of its records (exit 1 when one does not)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from portfolio import ledger


class Command(BaseCommand):
    help = "Rebuild or check the portfolio's ledger (docs/portfolio.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("rebuild", "check"))

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "rebuild":
            start = time.perf_counter()
            written = ledger.rebuild()
            self.stdout.write(", ".join(f"{name}: {count:,}" for name, count in written.items())
                              + f" ({time.perf_counter() - start:.1f} s)")
            return
        wrong = ledger.differences()
        for line in wrong:
            self.stdout.write(line)
        if wrong:
            raise CommandError(f"{len(wrong)} cells differ from the sum of their records; run: manage.py portfolio rebuild")
        self.stdout.write("Every cell equals the sum of its records.")
