#!/usr/bin/env bash
# Quick start: install, migrate, load the demo data (first run only) and serve
# the application at http://127.0.0.1:8000 on the embedded SQLite database.
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
export DEBUG=${DEBUG:-1}
.venv/bin/python manage.py migrate --no-input -v0
.venv/bin/python manage.py load_demo
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
