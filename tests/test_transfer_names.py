"""``assessments.transfer`` is a package of modules by reason to change (the file's
reading, old files, each row's checks, the writing); what the management commands, the
contacts' transfer and the tests use is imported from the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

from assessments import transfer

PACKAGE = Path(transfer.__file__).parent
#: What callers import from ``assessments.transfer``.
API = {"case_export", "case_import", "loads", "dumps", "set_fields", "TransferError"}


def constants_defined_in(path: Path) -> set[str]:
    """The module-level constants (upper-case names assigned) a module defines itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        target.id
        for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and target.id.isupper()
    }


def test_every_limit_and_message_is_importable_from_the_package():
    constants = set().union(*(constants_defined_in(path) for path in PACKAGE.glob("[!_]*.py")))
    assert {"MAX_FILE_BYTES", "CASE_EXISTS", "FORMAT", "APPROVAL_TIME_TOLERANCE", "LEGACY_CASE_FIELDS"} <= constants
    assert sorted(constants - set(transfer.__all__)) == []
    for name in constants:
        assert hasattr(transfer, name), name


def test_the_export_and_import_are_importable_from_the_package():
    assert set(transfer.__all__) >= API
    for name in transfer.__all__:
        assert hasattr(transfer, name), name
