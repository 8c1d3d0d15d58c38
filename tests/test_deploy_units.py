"""The systemd units of deploy/systemd/ (docs/deployment.md) run this project's commands
with options those commands accept, as the user and in the folder the docs name."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from reviewer import settings_test as project_settings

ROOT = Path(__file__).resolve().parent.parent
UNITS = sorted((ROOT / "deploy" / "systemd").iterdir())


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser


def manage_commands(path: Path) -> list[list[str]]:
    """The ``manage.py`` command lines of a unit's Exec lines, %-specifiers as sample values."""
    service = unit(path)
    lines = []
    for key in ("ExecStartPre", "ExecStart"):
        value = service.get("Service", key, fallback="")
        words = shlex.split(value.replace("%H", "host").replace("%i", "1"))
        if "manage.py" in words:
            lines.append(words[words.index("manage.py") + 1:])
    return lines


def test_there_are_units_for_the_web_the_workers_and_their_health():
    names = {path.name for path in UNITS}
    assert {"pmn-web.service", "pmn-report-worker@.service", "pmn-report-worker-health@.service",
            "pmn-report-worker-health@.timer", "pmn-report-worker-restart@.service"} <= names


@pytest.mark.parametrize("path", [p for p in UNITS if p.suffix == ".service"], ids=lambda p: p.name)
def test_each_manage_command_exists_and_accepts_its_options(path, settings):
    settings.TASKS = project_settings.QUEUE_TASKS  # the production queue: report_worker checks its backend
    for words in manage_commands(path):
        name, arguments = words[0], words[1:]
        assert name in get_commands(), f"{path.name}: manage.py {name} is not a command of this project"
        command = load_command_class(get_commands()[name], name)
        command.create_parser("manage.py", name).parse_args(arguments)  # exits (fails the test) on a bad option


@pytest.mark.parametrize("path", [p for p in UNITS if p.suffix == ".service"], ids=lambda p: p.name)
def test_only_the_restart_unit_runs_as_root(path):
    service = unit(path)
    if path.name.startswith("pmn-report-worker-restart@"):
        assert "User" not in service["Service"]
        assert service["Service"]["ExecStart"] == "/bin/systemctl restart pmn-report-worker@%i.service"
    else:
        assert service["Service"]["User"] == "pmn"
        assert service["Service"]["WorkingDirectory"] == "/srv/pmn"
        assert service["Service"]["EnvironmentFile"] == "/etc/pmn/env"


def test_workers_get_longer_to_stop_than_the_longest_report_and_ids_unique_across_hosts():
    worker = unit(ROOT / "deploy" / "systemd" / "pmn-report-worker@.service")["Service"]
    assert int(worker["TimeoutStopSec"]) >= 120
    assert "--worker-id %H-%i" in worker["ExecStart"]
    health = unit(ROOT / "deploy" / "systemd" / "pmn-report-worker-health@.service")
    assert health["Unit"]["OnFailure"] == "pmn-report-worker-restart@%i.service"
    assert "--worker-id %H-%i" in health["Service"]["ExecStart"]
