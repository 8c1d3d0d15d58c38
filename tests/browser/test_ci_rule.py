"""The rule of tests/browser/conftest.py: without Chromium the browser tests skip on a
developer's machine but fail under CI, so a CI run cannot pass by skipping them.

Checked by running pytest on a browser test in a subprocess, with Chromium pointed at a
path that does not exist.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BROWSER_TEST = "tests/browser/test_reviewer_flow.py"


def run_browser_tests(**env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    environ.update(CHROMIUM="/nonexistent/chromium", **env)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", BROWSER_TEST],
                          capture_output=True, text=True, cwd=ROOT, env=environ, timeout=300)


def test_without_chromium_ci_fails_instead_of_skipping():
    proc = run_browser_tests(CI="true")
    summary = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "error" in summary and "skipped" not in summary and "passed" not in summary, summary
    assert "Chromium is not installed at /nonexistent/chromium: CI must run the browser tests" in proc.stdout


def test_without_chromium_a_local_run_skips():
    proc = run_browser_tests()
    summary = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "1 skipped" in summary and "error" not in summary, summary
