"""The report workers (``manage.py report_worker``) and their heartbeats.

django-tasks-db records which worker took a task (``DBTaskResult.worker_ids``) but nothing
about the worker afterwards. Each report worker keeps one row here, written by its
heartbeat thread (``reports.heartbeat``) every few seconds while it runs: so the queue can
tell a worker that is drawing a report from one that was killed while drawing it, the
download page can say how many workers are running, and the admin lists them.

A row is the worker's own (only its heartbeat writes it; nothing else depends on it) and
is kept after the worker stops, with ``stopped_at``, so the admin shows when it went.
"""

from __future__ import annotations

from django.db import models

#: db_worker's limit on a worker id (``validate_worker_id``).
WORKER_ID_MAX_LENGTH = 64


class ReportWorker(models.Model):
    """One report worker process, by its ``--worker-id``: where it runs and its last beat.

    All times are the worker's host's clock (the task's ``started_at`` is too), so hosts
    sharing a queue keep their clocks in step (NTP): a skew of seconds is harmless next to
    the 30 s of silence that counts a worker lost."""

    worker_id = models.CharField(
        max_length=WORKER_ID_MAX_LENGTH, unique=True,
        help_text="db_worker's --worker-id, as in the tasks' worker ids; unique across the hosts.",
    )
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField("process id")
    started_at = models.DateTimeField(help_text="When this process started (a restart under the same id resets it).")
    beat_at = models.DateTimeField("last heartbeat", db_index=True)
    current_task_id = models.UUIDField(
        "current task", null=True, blank=True,
        help_text="The task it was drawing at its last heartbeat (DBTaskResult id); empty when idle.",
    )
    stopped_at = models.DateTimeField(null=True, blank=True, help_text="When it stopped on a signal; empty while it "
                                      "runs, and after a kill (SIGKILL, a crash), which leaves no time to record.")

    class Meta:
        ordering = ["-beat_at"]
        verbose_name = "report worker"

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.host}, pid {self.pid})"
