"""The engine as changed, for ``esd impact`` (:mod:`assessments.impact`): which engine computes
the new figures, and which stored results they are compared with.

``esd impact --against REF`` (docs/interface.md, "Impact of a change") names another release:

- an **engine version** (``1.1.0``: digits and dots, as ``Result.engine_version`` records
  it) selects the stored results that engine computed: each is compared with the installed
  engine's figures for the same stored inputs, so the answer is what the change from that
  release to this one does to the record (:attr:`Against.stored_by`);
- ``older`` (:data:`OLDER`) selects every stored result an engine other than the installed
  one computed, compared with the installed engine's figures: what installing this release
  does to the record;
- anything else is a **git ref** of the repository this application runs from (setting
  ``ENGINE_REPOSITORY``, by default the project's folder): that commit's engine
  (``assessments/esd``, which imports nothing but itself and the standard library) is taken
  out of the repository into a temporary folder and run in a Python process of its own
  (:class:`ReleaseEngine`), so the stored results are compared with what the engine of that
  release computes. The installed code is never replaced.

Without ``--against`` the installed engine computes (:class:`InstalledEngine`). Overrides
(``--override``) apply to either engine alike: they change the stored inputs, not the engine.

An engine here is what :class:`Engine` says: ``compute(key, inputs)`` gives the result's JSON
(a dict, as ``Scenario.result`` stores it) or raises
:class:`~assessments.esd.parameters.EngineValidationError` with the engine's errors.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import IO, Any, Protocol

from django.conf import settings

from .esd import registry
from .esd.parameters import EngineValidationError
from .esd.results import ENGINE_VERSION

#: Where the errors of a bad ``--against`` are reported.
AGAINST_FIELD = "--against"
#: ``--against older``: the stored results of every engine version but the installed one (what
#: the installed release changes in the record: the supervisor's page of the last engine change).
OLDER = "older"
#: An engine version as results record it (``ENGINE_VERSION``): digits and dots.
VERSION = re.compile(r"^\d+(\.\d+)+$")
#: The files of a release's engine, as the repository holds them.
ENGINE_PATHS = ("assessments/__init__.py", "assessments/esd")
#: git's longest wait for one command; a repository on this machine answers in a second.
GIT_TIMEOUT_SECONDS = 60

NOT_A_REF = ("{ref!r} is neither an engine version (digits and dots, e.g. {version}) nor a git ref of {repository} "
             "({reason})")
NO_REPOSITORY = "{ref!r}: there is no git repository at {repository} (setting ENGINE_REPOSITORY) to take its engine from"
NO_ENGINE_THERE = "{ref!r}: the commit has no engine (assessments/esd) to run ({reason})"
ENGINE_STOPPED = "the engine of {ref!r} stopped ({reason})"
SAME_VERSION = ("{ref!r} is the installed engine's own version: its stored results are the installed engine's; "
                "name an earlier release")

#: The other release's side of the conversation: one JSON line in ({"key", "inputs"}), one out
#: ({"result"} or {"errors"}), until stdin closes. It reads that release's registry, whose
#: ``compute(key, inputs)`` and ``EngineValidationError.errors`` every release has had.
RUNNER = """\
import json, sys
from assessments.esd import registry
for line in sys.stdin:
    item = json.loads(line)
    try:
        out = {"result": registry.compute(item["key"], item["inputs"]).as_dict()}
    except Exception as exc:
        errors = getattr(exc, "errors", None)
        if isinstance(errors, dict):
            out = {"errors": {str(k): str(v) for k, v in errors.items()}}
        else:
            out = {"errors": {"__all__": type(exc).__name__ + ": " + str(exc)}}
    sys.stdout.write(json.dumps(out) + "\\n")
    sys.stdout.flush()
"""


class Engine(Protocol):
    """What computes the new figures."""

    @property
    def ref(self) -> str:
        """How the change names this engine (``--against``'s REF, or "" for the installed one)."""

    def compute(self, key: str, inputs: dict[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class InstalledEngine:
    """The engine this application runs (``esd compute``)."""

    ref: str = ""

    def compute(self, key: str, inputs: dict[str, Any]) -> dict[str, Any]:
        return registry.compute(key, inputs).as_dict()


class ReleaseEngine:
    """The engine of a git ref, in a process of its own (:data:`RUNNER`), fed one use at a time.
    Use it within :func:`release_engine`, which starts and ends the process."""

    def __init__(self, ref: str, process: subprocess.Popen[str]) -> None:
        self._ref = ref
        self._process = process

    @property
    def ref(self) -> str:
        return self._ref

    def compute(self, key: str, inputs: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self._pipes()
        try:
            stdin.write(json.dumps({"key": key, "inputs": inputs}) + "\n")
            stdin.flush()
            line = stdout.readline()
        except OSError as exc:
            raise RuntimeError(ENGINE_STOPPED.format(ref=self.ref, reason=exc)) from None
        if not line:
            raise RuntimeError(ENGINE_STOPPED.format(ref=self.ref, reason=self._stderr()))
        answer = json.loads(line)
        if "errors" in answer:
            raise EngineValidationError(answer["errors"])
        result: dict[str, Any] = answer["result"]
        return result

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self._process.stdin is not None and self._process.stdout is not None  # opened as PIPEs
        return self._process.stdin, self._process.stdout

    def _stderr(self) -> str:
        self._process.kill()
        _, err = self._process.communicate()
        return (err or "").strip().splitlines()[-1] if (err or "").strip() else "no message"


def repository() -> Path:
    """The git repository a release's engine is taken from: setting ``ENGINE_REPOSITORY``,
    else the project's folder."""
    return Path(getattr(settings, "ENGINE_REPOSITORY", "") or settings.BASE_DIR)


def _git(*arguments: str) -> bytes:
    done = subprocess.run(["git", "-C", str(repository()), *arguments], capture_output=True,
                          timeout=GIT_TIMEOUT_SECONDS, check=False)
    if done.returncode:
        words = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ValueError(words[-1] if words else f"git exited {done.returncode}")
    return done.stdout


def commit_of(ref: str) -> str:
    """The commit ``ref`` names in :func:`repository`, or raise
    :class:`~assessments.esd.parameters.EngineValidationError` under :data:`AGAINST_FIELD`."""
    if not (repository() / ".git").exists() and not (repository() / "HEAD").exists():
        raise EngineValidationError({AGAINST_FIELD: NO_REPOSITORY.format(ref=ref, repository=repository())})
    try:
        if ref.startswith("-"):
            raise ValueError("a ref does not start with '-'")
        return _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
    except (ValueError, OSError, subprocess.TimeoutExpired) as exc:
        raise EngineValidationError({AGAINST_FIELD: NOT_A_REF.format(
            ref=ref, version=ENGINE_VERSION, repository=repository(), reason=exc or "not found")}) from None


@contextmanager
def release_engine(ref: str) -> Iterator[ReleaseEngine]:
    """The engine of git ref ``ref``, running, for as long as the ``with`` block lasts; its
    files are deleted after. Raises ``EngineValidationError`` for a ref that is not there."""
    commit = commit_of(ref)
    folder = Path(tempfile.mkdtemp(prefix="engine-"))
    try:
        try:
            archive = _git("archive", "--format=tar", commit, *ENGINE_PATHS)
        except (ValueError, OSError, subprocess.TimeoutExpired) as exc:
            raise EngineValidationError({AGAINST_FIELD: NO_ENGINE_THERE.format(ref=ref, reason=exc)}) from None
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        # -I: the other release's files only (no PYTHONPATH, no user site, no current folder).
        process = subprocess.Popen([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n"
                                    + RUNNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, cwd=folder)
        try:
            yield ReleaseEngine(ref, process)
        finally:
            if process.stdin:
                process.stdin.close()
            try:
                process.wait(timeout=GIT_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
            for stream in (process.stdout, process.stderr):
                if stream:
                    stream.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class Against:
    """What ``--against`` selects: the stored results of one engine version (``stored_by``),
    or the engine of a git ref (``ref``); neither for the installed engine over every result."""

    ref: str = ""
    stored_by: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"against": self.ref or self.stored_by or None, "stored_by": self.stored_by or None}


#: No ``--against``: the installed engine over every stored result.
INSTALLED = Against()


def parse_against(text: str | None) -> Against:
    """``--against``'s REF read: an engine version (not the installed one), ``older``, or a git ref that
    names a commit (:func:`commit_of`); raises ``EngineValidationError`` naming it otherwise."""
    if text is None:
        return INSTALLED
    text = text.strip()
    if text == OLDER:
        return Against(stored_by=OLDER)
    if VERSION.match(text):
        if text == ENGINE_VERSION:
            raise EngineValidationError({AGAINST_FIELD: SAME_VERSION.format(ref=text)})
        return Against(stored_by=text)
    commit_of(text)
    return Against(ref=text)


@contextmanager
def engine_for(against: Against) -> Iterator[Engine]:
    """The engine that computes the new figures for ``against``, for the ``with`` block."""
    if not against.ref:
        yield InstalledEngine()
        return
    with release_engine(against.ref) as engine:
        yield engine
