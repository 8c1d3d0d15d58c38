"""``esd impact --against REF`` (docs/interface.md, "Impact of a change"): the stored results of
one engine version against the installed engine, every earlier version's (``older``), or the
engine of a git ref against every stored result.

The git ref test builds a repository whose one commit is this engine with photoresist-2018's
container residue default changed to 0.01 in its registry: the answer must be exactly what
``--override photoresist-2018.Fcontainer_disp=0.01`` gives with the installed engine, because
both compute the same inputs (the release's engine runs in its own process).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from assessments import impact
from assessments.esd.results import ENGINE_VERSION
from assessments.impact_engines import OLDER, Against, parse_against
from assessments.models import Scenario
from benchmarks._sample import sample_assessment

from .test_esd_impact import CHANGE, run

#: What the release in the test repository changes: the default of one input, in its registry.
CHANGED_REGISTRY = '''

_installed_compute = compute


def compute(key, inputs):
    """This release: photoresist-2018's container residue defaults to 0.01."""
    if key == "photoresist-2018" and inputs.get("Fcontainer_disp") in (None, ""):
        inputs = {**inputs, "Fcontainer_disp": 0.01}
    return _installed_compute(key, inputs)
'''


def git(folder: Path, *arguments: str) -> None:
    subprocess.run(["git", "-C", str(folder), "-c", "user.name=Engine", "-c", "user.email=engine@example.gov",
                    *arguments], check=True, capture_output=True)


def make_release(tmp_path, settings, *, changed: bool) -> Path:
    """A repository whose HEAD is this engine (with the changed default when ``changed``);
    ENGINE_REPOSITORY points at it."""
    folder = tmp_path / "release"
    (folder / "assessments").mkdir(parents=True)
    shutil.copy(Path(settings.BASE_DIR) / "assessments" / "__init__.py", folder / "assessments" / "__init__.py")
    shutil.copytree(Path(settings.BASE_DIR) / "assessments" / "esd", folder / "assessments" / "esd",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if changed:
        with open(folder / "assessments" / "esd" / "registry.py", "a", encoding="utf-8") as registry:
            registry.write(CHANGED_REGISTRY)
    git(folder, "init", "-q")
    git(folder, "add", "assessments")
    git(folder, "commit", "-q", "-m", "Container residue 0.01")
    git(folder, "tag", "residue-0.01")
    settings.ENGINE_REPOSITORY = str(folder)
    return folder


@pytest.fixture
def release(tmp_path, settings):
    return make_release(tmp_path, settings, changed=True)


def impact_json(*arguments: str) -> dict:
    status, out, err = run("impact", *arguments, "--json")
    assert (status, err) == (0, "")
    return json.loads(out)


@pytest.mark.django_db
def test_the_engine_of_a_git_ref_moves_what_the_same_default_as_an_override_moves(reviewer, release):
    sample_assessment(reviewer)
    against = impact_json("--against", "residue-0.01")
    overridden = impact_json("--override", CHANGE)
    assert against["change"] == {"overrides": [], "against": "residue-0.01", "stored_by": None}
    assert against["cases"] == overridden["cases"]
    (case,) = against["cases"]
    assert [m["id"] for m in case["moves"]] == ["release-1", "release-1"]
    assert case["moves"][0]["new"] == pytest.approx(5000 * 0.01 / 0.99, rel=1e-12)


@pytest.mark.django_db
def test_a_release_whose_engine_is_the_installed_one_moves_nothing(reviewer, tmp_path, settings):
    """The same engine run in its own process gives every stored figure again: what moves with
    a ref is the ref's engine, not the way it is run."""
    make_release(tmp_path, settings, changed=False)
    sample_assessment(reviewer)
    found = impact_json("--against", "HEAD")
    assert found["change"]["against"] == "HEAD" and found["cases"] == []


@pytest.mark.django_db
def test_an_engine_version_selects_the_results_it_stored(reviewer):
    first = sample_assessment(reviewer)
    second = sample_assessment(reviewer, case_number="P-26-0100")
    use = Scenario.objects.get(assessment=first)
    stored = dict(use.result)
    stored["engine_version"] = "1.1.0"
    stored["releases"][0]["estimates"][0]["kg_year_all_sites"] = 31.0  # what that release printed
    Scenario.objects.filter(pk=use.pk).update(result=stored)
    for ref in ("1.1.0", OLDER):
        found = impact_json("--against", ref)
        assert found["change"] == {"overrides": [], "against": ref, "stored_by": ref}
        assert [(c["case"], c["revision"]) for c in found["cases"]] == [("P-18-0123", 1)]
        (move,) = found["cases"][0]["moves"]
        assert (move["id"], move["quantity"], move["old"]) == ("release-1", "kg_yr", 31.0)
        assert move["new"] == pytest.approx(5000 * 0.006 / 0.994, rel=1e-12)
    assert impact_json("--against", "1.0.0")["cases"] == []  # no result of that release is stored
    # Without --against every stored result is compared: the changed one moves, the other does not.
    assert [c["case"] for c in impact_json()["cases"]] == ["P-18-0123"]
    assert second.scenarios.get().result["engine_version"] == ENGINE_VERSION


@pytest.mark.parametrize(("ref", "words"), [
    ("no-such-ref", "'no-such-ref' is neither an engine version (digits and dots, e.g. "),
    ("--upload-pack=x", "'--upload-pack=x' is neither an engine version"),
    (ENGINE_VERSION, f"'{ENGINE_VERSION}' is the installed engine's own version"),
])
@pytest.mark.django_db
def test_a_bad_ref_exits_2_naming_against(ref, words):
    status, out, err = run("impact", f"--against={ref}")
    assert (status, out) == (2, "")
    errors = json.loads(err)["errors"]
    assert list(errors) == ["--against"] and errors["--against"].startswith(words)


@pytest.mark.django_db
def test_a_repository_that_is_not_there_is_named(tmp_path, settings):
    settings.ENGINE_REPOSITORY = str(tmp_path / "nowhere")
    status, out, err = run("impact", "--against", "main")
    assert (status, out) == (2, "")
    assert json.loads(err)["errors"]["--against"] == (
        f"'main': there is no git repository at {tmp_path / 'nowhere'} (setting ENGINE_REPOSITORY) to take its "
        "engine from")


def test_against_is_an_option_of_impact_only():
    for action in ("list", "verify", "conformance"):
        status, out, err = run(action, "--against", "1.1.0")
        assert (status, out) == (2, "")
        assert json.loads(err)["errors"]["__all__"].startswith("--against is an option of impact only; usage: esd")


def test_parse_against_reads_versions_older_and_refs(settings):
    assert parse_against(None) == Against()
    assert parse_against(" 1.1.0 ") == Against(stored_by="1.1.0")
    assert parse_against("older") == Against(stored_by=OLDER)


@pytest.mark.django_db
def test_a_release_whose_engine_cannot_start_is_an_error_not_a_traceback(reviewer, release):
    sample_assessment(reviewer)
    (release / "assessments" / "esd" / "registry.py").write_text("raise SystemExit('broken release')\n")
    git(release, "commit", "-q", "-am", "Broken")
    status, out, err = run("impact", "--against", "HEAD")
    assert (status, out) == (2, "")
    message = json.loads(err)["errors"]["__all__"]
    assert message.startswith("the impact could not be worked out (RuntimeError: the engine of 'HEAD' stopped (")
    assert "broken release" in message
