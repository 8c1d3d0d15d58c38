"""The README is a newcomer's page: short, every link leads somewhere, and every command it
gives is one the tests or CI run (the quick start's two: ``scripts/run.sh``, whose every step
``tests/test_error_pages_logging.py`` runs on a new database, and ``scripts/test.sh``, which
``.ci/run`` runs)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README's commands, and where each is run.
RUN_BY = {
    "bash scripts/run.sh": ROOT / "tests" / "test_error_pages_logging.py",
    "bash scripts/test.sh": ROOT / ".ci" / "run",
}


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 150


def test_every_link_of_the_readme_leads_to_a_file_or_a_heading():
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", README, re.M)}
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert links
    broken = [link for link in links if not (link.lstrip("#") in headings if link.startswith("#")
                                             else (ROOT / link.split("#")[0]).exists())]
    assert not broken, broken


def test_every_command_of_the_readme_is_run_by_a_test_or_ci():
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    commands = [c for c in commands if c]
    assert commands and set(commands) <= set(RUN_BY), set(commands) - set(RUN_BY)
    for command, runner in RUN_BY.items():
        script = command.split()[-1]
        assert script in runner.read_text(encoding="utf-8"), f"{runner.name} does not run {script}"
