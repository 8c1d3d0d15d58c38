#!/usr/bin/env bash
# Quick start: install and run the whole test suite (SQLite unless DATABASE_URL is set),
# one pytest worker per core (pytest-xdist; each worker has its own test database).
# Extra arguments go to pytest, e.g. scripts/test.sh tests/esd -x, or -n 0 for one process.
REQUIREMENTS=requirements-dev.txt source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# The sign-in tests' OpenID Connect provider (tests/oidc/provider: oidc-provider from npm), when
# Node is here; without it those tests skip (and fail under CI).
provider=tests/oidc/provider
if command -v npm >/dev/null && { [ ! -d "$provider/node_modules" ] || [ "$provider/package-lock.json" -nt "$provider/node_modules" ]; }; then
  npm ci --prefix "$provider" --no-audit --no-fund --loglevel=error >/dev/null && touch "$provider/node_modules"
fi
# worksteal: a worker that runs out of tests takes some of the other's (a few tests take a
# minute; the default split leaves one worker idle at the end).
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
