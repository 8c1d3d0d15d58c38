"""``manage.py esd`` under arbitrary input (hypothesis), against the contract of
spec/INTERFACE.md: exit 0 with JSON on stdout and nothing on stderr, or exit 2 with
``{"errors": {SYMBOL or "__all__": message}}`` on stderr and nothing on stdout; never a
traceback, and never the command's catch-all "the engine failed" message either (that
would be an exception the engine let through, hidden rather than prevented).

Most examples run in-process (call_command with stdin or a temporary file); a few run
the command as other programs do, in a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError
from assessments.management.commands import esd as esd_command
from tests.properties.strategies import json_values, scenario_inputs, special_text, text_values
from tests.properties.test_engine_properties import assert_amounts_finite_non_negative, assert_errors_name_inputs

ROOT = Path(__file__).resolve().parents[2]
KEYS = [s.key for s in registry.scenarios()]
INTERNAL_PREFIX = esd_command.INTERNAL.split("(")[0]  # "the engine failed on these inputs "

IN_PROCESS = settings(max_examples=60, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``esd`` run in-process.

    sys.stdout and sys.stderr are captured too: call_command parses the arguments before
    it hands the command the streams passed here, so argument errors go to sys.stderr.
    """
    out, err = io.StringIO(), io.StringIO()
    kwargs = {"stdout": out, "stderr": err}
    if stdin is not None:
        kwargs["stdin"] = io.StringIO(stdin)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            call_command("esd", *args, **kwargs)
            status = 0
        except SystemExit as exc:
            status = exc.code
    return status, out.getvalue(), err.getvalue()


def assert_contract(status: int, out: str, err: str):
    """The answer obeys the contract; returns the parsed JSON (stdout's or the errors)."""
    assert "Traceback" not in err and "Traceback" not in out
    assert status in (0, 2), (status, out[:200], err[:500])
    if status == 0:
        assert err == "", err[:500]
        return json.loads(out)
    assert out == "", out[:200]
    payload = json.loads(err)
    assert list(payload) == ["errors"], payload
    errors = payload["errors"]
    assert isinstance(errors, dict) and errors, payload
    for name, message in errors.items():
        assert isinstance(name, str) and isinstance(message, str) and message.strip(), (name, message)
        assert not message.startswith(INTERNAL_PREFIX), message  # an exception the engine let through
    return errors


def json_text(value) -> str:
    # allow_nan: Python's json writes NaN and Infinity, which json.loads reads back.
    return json.dumps(value, allow_nan=True, default=str)


def inputs_text(key: str) -> st.SearchStrategy:
    scenario = registry.get(key)
    return st.one_of(
        scenario_inputs(scenario, wild=False).map(json_text),
        scenario_inputs(scenario, wild=True).map(json_text),
        json_values.map(json_text),
        text_values,
        st.text(max_size=60),
        # almost JSON: a number too big for a double, a NaN literal, a truncated object
        st.sampled_from(['{"Qchem_yr": 1e400}', '{"Qchem_yr": NaN}', '{"Qchem_yr": -Infinity}',
                         '{"Qchem_yr": 1' + "0" * 400 + "}", '{"Qchem_yr": 5000', '{"Qchem_yr": 5000}}',
                         "\ufeff{}", "[]", "null", '"x"', "{}", "{\"Qchem_yr\": 5000, \"Qchem_yr\": \"x\"}"]),
    )


@pytest.mark.parametrize("key", KEYS)
@IN_PROCESS
@given(data=st.data())
def test_compute_reading_stdin_exits_0_with_json_or_2_with_json_errors(key, data):
    text = data.draw(inputs_text(key), label="stdin")
    status, out, err = run("compute", key, "-", stdin=text)
    answer = assert_contract(status, out, err)
    if status == 0:
        assert answer["scenario"] == key
        assert_amounts_finite_non_negative(answer)
        return
    try:
        inputs = json.loads(text)
    except ValueError:
        return
    if isinstance(inputs, dict):
        assert_errors_name_inputs(EngineValidationError(answer), key, inputs)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(KEYS), content=st.one_of(st.binary(max_size=200),
                                                     st.text(max_size=100).map(str.encode),
                                                     json_values.map(lambda v: json_text(v).encode())))
def test_compute_reading_a_file_of_arbitrary_bytes_obeys_the_contract(tmp_path, key, content):
    path = tmp_path / "inputs.json"
    path.write_bytes(content)
    assert_contract(*run("compute", key, str(path)))


@pytest.mark.parametrize("where", ["missing.json", ".", "sub/"])
def test_compute_reading_a_missing_file_or_a_directory_is_an_error_on_all(tmp_path, where):
    (tmp_path / "sub").mkdir()
    errors = assert_contract(*run("compute", "photoresist-2010", str(tmp_path / where)))
    assert set(errors) == {"__all__"}


option_like = st.sampled_from(["--indent", "--indent=x", "--indent=0", "--indent=-3", "--indent=4", "-x",
                               "--bogus", "--", "-", "--indent=1e3", "-1", "--indent=", "---"])
argument = st.one_of(st.sampled_from([*esd_command.ACTIONS, *KEYS]), text_values, option_like)


@settings(max_examples=120, deadline=None)
@given(args=st.lists(argument, max_size=5), stdin=st.one_of(st.just("{}"), text_values))
def test_any_arguments_exit_0_with_json_or_2_with_json_errors(args, stdin):
    # --help and --version print text by design (argparse); everything else obeys the contract.
    if any(a.startswith(("--h", "--v")) or a == "-h" for a in args):
        return
    assert_contract(*run(*args, stdin=stdin))


def subprocess_esd(*args: str, stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    return subprocess.run([sys.executable, "manage.py", "esd", *args], input=stdin.encode("utf-8", "surrogatepass"),
                          capture_output=True, cwd=ROOT, env=env, timeout=120)


# A subprocess costs about a second (Python and Django start): a handful of examples.
@settings(max_examples=4, deadline=None)
@given(key=st.sampled_from(KEYS),
       text=st.one_of(special_text, json_values.map(json_text), st.just('{"Qchem_yr": 1' + "0" * 400 + "}")))
def test_in_a_subprocess_the_answer_is_json_and_never_a_traceback(key, text):
    proc = subprocess_esd("compute", key, stdin=text)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert "Traceback" not in err, err
    assert_contract(proc.returncode, out, err.rstrip("\n"))
