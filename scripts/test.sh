#!/usr/bin/env bash
# Quick start: install and run the whole test suite (SQLite unless DATABASE_URL is set),
# one pytest worker per core (pytest-xdist; each worker has its own test database).
# Extra arguments go to pytest, e.g. scripts/test.sh tests/esd -x, or -n 0 for one process.
REQUIREMENTS=requirements-dev.txt source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# worksteal: a worker that runs out of tests takes some of the other's (a few tests take a
# minute; the default split leaves one worker idle at the end).
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
