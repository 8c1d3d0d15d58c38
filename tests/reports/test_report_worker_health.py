"""``manage.py report_worker_health``: exit 0 for a worker alive by its heartbeat, 1 else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from assessments.models import ReportWorker
from assessments.reports.heartbeat import silent_after

pytestmark = pytest.mark.django_db


def worker(worker_id: str, *, beat_ago: timedelta, stopped: bool = False) -> ReportWorker:
    now = timezone.now()
    return ReportWorker.objects.create(worker_id=worker_id, host="web-1", pid=4242, started_at=now - timedelta(hours=1),
                                       beat_at=now - beat_ago, stopped_at=now if stopped else None)


def health(capsys, *args) -> tuple[int, str]:
    try:
        call_command("report_worker_health", *args)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code)
    return code, capsys.readouterr().out.strip()


def test_a_worker_that_beat_recently_is_alive(capsys):
    worker("web-1-1", beat_ago=timedelta(seconds=3))
    code, out = health(capsys, "--worker-id", "web-1-1")
    assert code == 0 and "web-1-1 is alive: last heartbeat 3 s ago" in out


def test_a_silent_a_stopped_and_an_unknown_worker_are_not(capsys):
    worker("silent", beat_ago=silent_after() + timedelta(seconds=5))
    worker("stopped", beat_ago=timedelta(seconds=1), stopped=True)
    for worker_id, words in (("silent", "is not alive: last heartbeat 35 s ago"), ("stopped", "it stopped"),
                             ("never", "has never beaten")):
        code, out = health(capsys, "--worker-id", worker_id)
        assert code == 1 and words in out, (worker_id, out)


def test_without_an_id_any_worker_alive_will_do(capsys):
    assert health(capsys)[0] == 1  # none at all
    worker("silent", beat_ago=timedelta(minutes=5))
    code, out = health(capsys)
    assert code == 1 and "No report worker is alive" in out
    worker("web-2-1", beat_ago=timedelta(seconds=1))
    assert health(capsys) == (0, "1 report worker(s) alive: web-2-1.")
