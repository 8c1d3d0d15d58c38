#!/usr/bin/env bash
# Quick start: install and run the whole test suite (SQLite unless DATABASE_URL is set).
# Extra arguments go to pytest, e.g. scripts/test.sh tests/esd -x
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
exec .venv/bin/python -m pytest "$@"
