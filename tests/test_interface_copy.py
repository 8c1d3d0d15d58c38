"""``docs/interface.md`` is the engine's command-line contract (the shared specification's
spec/INTERFACE.md) copied byte for byte: its body has the digest its header records, and where
the specification is present (CI, the team's machines) the specification has that digest too,
so the copy cannot drift from it unnoticed, nor be edited by hand."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPY = ROOT / "docs" / "interface.md"
SPEC = ROOT.parent / "shared" / "spec" / "INTERFACE.md"
HEADER = re.compile(rb"\A<!--.*?sha256: ([0-9a-f]{64}) -->\n\n", re.S)


def test_the_copy_is_the_specification_it_names():
    text = COPY.read_bytes()
    header = HEADER.match(text)
    assert header, "docs/interface.md starts with the comment naming its source and digest"
    body = text[header.end():]
    assert hashlib.sha256(body).hexdigest() == header.group(1).decode(), "the copy was edited: copy it again"
    if SPEC.exists():
        assert SPEC.read_bytes() == body, "spec/INTERFACE.md changed: copy it into docs/interface.md with its digest"


def test_the_command_line_help_names_every_action_of_the_contract():
    from assessments.management.commands.esd import ACTIONS, HELP

    body = COPY.read_text(encoding="utf-8")
    for action in (*ACTIONS, "verify"):
        assert f"esd {action}" in HELP and f"esd {action}" in body, action
