"""No module of the application is over 700 lines (migrations aside).

A module that long holds more than one reason to change; it is split by reason, as
``assessments/transfer/`` is (reading the file, checking each row, writing the case) and
as the review's reads are (``review.py``, ``timeline.py``, ``comparison.py``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The application's packages; tests, benchmarks and scripts are not part of it.
PACKAGES = ("assessments", "contacts", "calendar_review", "notices", "audit", "reviewer")
MAX_LINES = 700

#: Modules known to be over the limit, each to be split by reason to change and then taken
#: off this list. Any other module over the limit fails the test; so does a module listed
#: here that is no longer over it.
OVER_THE_LIMIT = {
}


def line_counts() -> dict[str, int]:
    """Lines of every Python module of the application, by path from the repository root."""
    counts = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.relative_to(ROOT).parts:
                continue
            counts[path.relative_to(ROOT).as_posix()] = len(path.read_text(encoding="utf-8").splitlines())
    return counts


def test_the_walk_finds_the_application_modules():
    counts = line_counts()
    assert {"assessments/services.py", "contacts/models.py", "reviewer/settings.py"} <= set(counts)
    assert not [path for path in counts if "/migrations/" in path]


def test_no_module_is_over_700_lines():
    offenders = {
        path: lines for path, lines in line_counts().items() if lines > MAX_LINES and path not in OVER_THE_LIMIT
    }
    assert not offenders, "Over {} lines; split by reason to change: {}".format(
        MAX_LINES, ", ".join(f"{path} ({lines} lines)" for path, lines in sorted(offenders.items()))
    )


def test_every_module_on_the_list_is_still_over_the_limit():
    counts = line_counts()
    done = sorted(path for path in OVER_THE_LIMIT if counts.get(path, 0) <= MAX_LINES)
    assert not done, f"At most {MAX_LINES} lines now (or gone): take off OVER_THE_LIMIT: {', '.join(done)}"
