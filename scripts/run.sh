#!/usr/bin/env bash
# Quick start: install, migrate, load the demo data (first run only) and serve
# the application at http://127.0.0.1:8000 on the embedded SQLite database, with a report
# worker beside the server (it draws the IRER PDFs; docs/reports.md, "Report rendering and workers").
# Ctrl-C, or stopping this script, stops both.
# DEVELOPMENT=1 (reviewer/settings.py): plain HTTP, static files served from static/,
# load_demo allowed, mail to the console, and the application's own error pages. DEBUG=1
# bash scripts/run.sh shows Django's debug pages instead.
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
export DEVELOPMENT=${DEVELOPMENT:-1}
.venv/bin/python manage.py migrate --no-input -v0
.venv/bin/python manage.py load_demo

server= worker=
stop() {
  trap - EXIT INT TERM HUP
  # The worker finishes the report it is drawing (seconds), then exits.
  kill ${server:+"$server"} ${worker:+"$worker"} 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
# --no-reload: a worker stopped for a reload would abandon the report it is drawing.
.venv/bin/python manage.py report_worker --no-reload --interval 0.5 &
worker=$!
.venv/bin/python manage.py runserver 127.0.0.1:8000 &
server=$!
wait "$server"
