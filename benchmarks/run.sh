#!/usr/bin/env bash
# Every benchmark in one command: the engine, the pages at 10,000 cases, the IRER and a
# load run against gunicorn on 127.0.0.1 (about 5 minutes). Needs PostgreSQL: makes and
# drops its own database pmn_bench on the server of DATABASE_URL (default 127.0.0.1:5432).
#   bash benchmarks/run.sh [--duration 60] [--users 20] [--think 1] [--skip load] ...
# See benchmarks/run.py --help.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/_venv.sh"
exec .venv/bin/python benchmarks/run.py "$@"
