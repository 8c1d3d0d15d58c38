#!/usr/bin/env bash
# Lint (ruff) and type-check (mypy) as CI does; the settings are in pyproject.toml.
# Extra arguments go to ruff, e.g. scripts/lint.sh --fix.
REQUIREMENTS=requirements-dev.txt source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
.venv/bin/ruff check . "$@"
.venv/bin/mypy
