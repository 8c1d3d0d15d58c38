"""``manage.py report_worker_health``: whether a report worker is alive, for a process
supervisor (deploy/systemd/pmn-report-worker-health@.service, docs/deployment.md).

    python manage.py report_worker_health --worker-id host-1
    python manage.py report_worker_health          # any worker alive

Exit status 0 when the worker (or, without ``--worker-id``, at least one worker) has beaten
within ``REPORT_WORKER_SILENT_AFTER_SECONDS`` and has not stopped; 1 otherwise (stopped,
silent, hung or never started: its report, if any, is meanwhile returned to the queue by
another worker). One line on standard output says which, with the heartbeat's age.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from assessments.models.workers import ReportWorker
from assessments.reports.heartbeat import alive_workers, silent_after

ALIVE = "Report worker {worker} is alive: last heartbeat {age:.0f} s ago (silent after {limit:.0f} s)."
SILENT = "Report worker {worker} is not alive: last heartbeat {age:.0f} s ago (silent after {limit:.0f} s)."
STOPPED = "Report worker {worker} is not alive: it stopped {age:.0f} s ago."
UNKNOWN = "Report worker {worker} is not alive: it has never beaten (no such worker has run)."
SOME_ALIVE = "{count} report worker(s) alive: {workers}."
NONE_ALIVE = "No report worker is alive (none has beaten within {limit:.0f} s): reports are not being drawn."


class Command(BaseCommand):
    help = "Exit 0 when a report worker (--worker-id, else any) is alive by its heartbeat, 1 when not"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--worker-id", help="the worker's id, as given to report_worker (default: any worker)")

    def handle(self, *args: Any, worker_id: str | None, **options: Any) -> None:
        now, limit = timezone.now(), silent_after().total_seconds()
        if worker_id is None:
            alive = list(alive_workers(now=now).order_by("worker_id").values_list("worker_id", flat=True))
            if alive:
                self.stdout.write(SOME_ALIVE.format(count=len(alive), workers=", ".join(alive)))
                return
            self.stdout.write(NONE_ALIVE.format(limit=limit))
            sys.exit(1)
        worker = ReportWorker.objects.filter(worker_id=worker_id).first()
        if worker is None:
            self.stdout.write(UNKNOWN.format(worker=worker_id))
            sys.exit(1)
        if worker.stopped_at is not None:
            self.stdout.write(STOPPED.format(worker=worker_id, age=(now - worker.stopped_at).total_seconds()))
            sys.exit(1)
        age = (now - worker.beat_at).total_seconds()
        if alive_workers(now=now).filter(pk=worker.pk).exists():
            self.stdout.write(ALIVE.format(worker=worker_id, age=age, limit=limit))
            return
        self.stdout.write(SILENT.format(worker=worker_id, age=age, limit=limit))
        sys.exit(1)
