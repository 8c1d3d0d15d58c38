# Sourced by run.sh and test.sh: makes .venv with Python 3.11+ and installs
# $REQUIREMENTS into it when the file has changed since the last install.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "Python 3.11 or newer is needed (found $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# REQUIREMENTS: requirements.txt (the application, for run.sh) or requirements-dev.txt
# (it and the tests' tools, for test.sh); each is installed again when it or what it
# includes has changed.
REQUIREMENTS=${REQUIREMENTS:-requirements.txt}
stamp=.venv/.${REQUIREMENTS%.txt}.sha256
want=$(cat requirements.txt "$REQUIREMENTS" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
  echo "$want" > "$stamp"
fi
# WeasyPrint renders the IRER without libharfbuzz-subset0, only slower (it then subsets
# the embedded fonts in Python): warn, don't fail.
if ! ldconfig -p 2>/dev/null | grep 'libharfbuzz-subset\.so\.0' >/dev/null && ! dpkg -s libharfbuzz-subset0 >/dev/null 2>&1; then
  echo "Warning: libharfbuzz-subset0 is not installed; IRER PDFs will render slower." \
    "Install it with: sudo apt-get install libharfbuzz-subset0" >&2
fi

# A signing key of this checkout's own, so manage.py commands run without DEBUG (settings
# read it when SECRET_KEY is not in the environment). Random, owner-only, never committed.
if [ -z "${SECRET_KEY:-}" ] && [ ! -s .secret_key ]; then
  (umask 077 && .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))' > .secret_key)
fi
