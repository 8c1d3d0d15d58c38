"""Hostile input, posted as a script could post it, to every form and to ``esd compute``.

Nothing gets in that the web form would refuse, and nothing gives a server error:

- no answer has a status of 500 or more, and no view lets an exception through (the test
  client re-raises it; here it is recorded with where it was raised);
- where the input is refused, nothing is written: the row is as it was, field for field
  (its version and ``updated_at`` too), and no row is added;
- where the input is taken, the row written passes the model's own checks
  (``full_clean``), and free text is stored as sent (stripped), never cut short;
- ``esd compute`` exits 0 with JSON on stdout or 2 with JSON errors on stderr; never a
  traceback, nor the command's catch-all message (an exception the engine let through).

The forms: the case form (create and edit), every step of every registered scenario's
wizard (values, reasons, preset, the step's token, the step name), the add-use form, the
notes form, and the review actions (submit as the engineer; approve and return as a
supervisor). The posts are made by a CBI-cleared reviewer and a supervisor.

Each explicit case (:data:`HOSTILE`) goes to every field of each form: to the case form
in every field at once (the page that refuses it shows it back in every box), then in one
field of each kind alone wherever the form takes it, so that it reaches the service and
the database; to the wizards in every value box of every step at once, and in a reason,
the preset, the step's token and the step's name. Hypothesis then draws a form, any one
of its fields and a value (any text, number-like text, the explicit cases) for breadth.

Each post runs in a savepoint, so that a database error inside a view (PostgreSQL refuses
a NUL character: ``ValueError: A string literal cannot contain NUL``; a value longer than
a ``varchar``) is recorded as the server error it is, and the next post still runs. Run
it on PostgreSQL too: SQLite stores what PostgreSQL refuses.

A failure found and not yet fixed is marked ``xfail(strict=True)`` (see :func:`xfail`)
with the exception and where it is raised: once fixed, the mark makes the test fail, and
comes off. None is marked now.

About 30 s on SQLite and 40 s on PostgreSQL on the 2-core machine: 19 explicit cases a
form (the wizards: 20 steps each), 60 hypothesis posts, 900 parse_number examples.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
import traceback
from pathlib import Path

import pytest
from django import forms
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from assessments import input_rules, services, workflow
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, NumberTextError, parse_number
from assessments.forms import AssessmentNotesForm, SubmissionForm
from assessments.forms.scenarios import SEEN_FIELD, step_form_class, step_initial
from assessments.management.commands import esd as esd_command
from assessments.models import Assessment, Scenario, Status, Submission
from tests.conftest import make_assessment, make_submission
from tests.properties.strategies import number_text, special_text
from tests.views.test_cases import VALID as VALID_CASE
from tests.views.wizard_helpers import management_key, step_url

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
KEYS = [s.key for s in registry.scenarios()]

#: What a script may post where a browser posts a text box: the explicit cases.
#: A list is the field repeated (``a=1&a=2``).
HOSTILE: dict[str, str | list[str]] = {
    "nan": "NaN",
    "infinity": "Infinity",
    "minus-zero": "-0",
    "1e309": "1e309",
    "nul": "a\x00b",
    "nul-alone": "\x00",
    "10kb-text": "x" * 10_240,
    "10kb-digits": "9" * 10_240,
    "arabic-digits": "١٢٣",
    "fullwidth-digits": "１２３",
    "decimal-comma": "0,15",
    "underscore": "1_000",
    "nested-json": json.dumps({"a": [1, {"b": [2.5, {"c": None}]}], "d": "NaN"}),
    "list": ["0.5", "x\x00y"],
    "dict-like": "{'a': 1}",
    "control-characters": "\x01\x1b[31m\x7f\u202e",
    "over-long-41": "P-26-" + "1" * 36,
    "over-long-201": "T" * 201,
    # 21 characters, 42 once upper-cased ("ß".upper() == "SS"): the case number is
    # upper-cased after its length was checked.
    "grows-when-upper-cased": "ß" * 21,
}


def xfail(reason: str):
    """A known failure: strict, so that the fix makes the test fail (then remove the mark)."""
    return pytest.mark.xfail(strict=True, reason=reason)


def cases(known: dict[str, pytest.MarkDecorator] | None = None) -> list:
    """The explicit cases as pytest params, the known failures marked."""
    known = known or {}
    return [pytest.param(value, id=key, marks=known.get(key, ())) for key, value in HOSTILE.items()]


# --- posting and recording ---------------------------------------------------------------


def where(exc: BaseException) -> str:
    """The innermost frame of the project's code (not a test, not a library) in the traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if str(ROOT) in f.filename and "/.venv/" not in f.filename and "/tests/" not in f.filename]
    if not frames:
        return "(raised outside the project's code)"
    frame = frames[-1]
    return f"{Path(frame.filename).relative_to(ROOT)}:{frame.lineno} in {frame.name}"


class Problems(list):
    """The failures of one test, each one line: what was posted and what went wrong."""

    def send(self, client, method: str, url: str, data, label: str, **extra):
        """The response, or None when the view raised (recorded, as the 500 it would be)."""
        try:
            with transaction.atomic():  # a database error must not end the test's transaction
                response = getattr(client, method)(url, data, **extra)
        except Exception as exc:
            self.append(f"{label}: {type(exc).__name__}: {str(exc)[:200]} at {where(exc)}")
            return None
        if response.status_code >= 500:
            self.append(f"{label}: status {response.status_code}")
            return None
        return response

    def check(self):
        assert not self, "\n".join(self)


def row(model, pk: int) -> dict:
    return model.objects.filter(pk=pk).values().get()


def last(value):
    """What a form reads from a field posted as ``value`` (a repeated field: the last)."""
    return value[-1] if isinstance(value, list) else value


def fits(instance, problems: Problems, label: str) -> None:
    """A row written must pass the model's own checks."""
    try:
        instance.full_clean()
    except Exception as exc:
        problems.append(f"{label}: stored a row that fails full_clean: {exc}")


def check_page(problems: Problems, client, url: str, label: str) -> None:
    """Pages that print what was stored still render."""
    problems.send(client, "get", url, None, f"{label}: GET {url}")


# --- the case form ------------------------------------------------------------------------

CASE_FIELDS = list(SubmissionForm().fields)
#: One field of each kind: the unique and upper-cased case number, short and long text,
#: a required and an optional number, a number with no bounds, choices, a CBI checkbox,
#: and the edit form's version. (Hypothesis, below, draws from every field.)
CASE_SAMPLE = ["case_number", "case_name", "cas_number", "submitter", "use_description", "sat_health",
               "production_volume_kg_yr", "molecular_weight", "vapour_pressure_temp_c", "physical_state",
               "case_type", "cbi_submitter", "version_seen"]
TEXT_KEPT_AS_SENT = {"case_name", "submitter", "chemical_name", "generic_name", "use_description", "other_uses",
                     "consumer_use", "sat_health", "sat_eco"}
_numbers = itertools.count(1)


def new_case_number() -> str:
    return f"P-29-{next(_numbers):05d}"


def case_edit_data(case: Submission) -> dict:
    """The edit form as the page shows it, as a browser posts it."""
    form = SubmissionForm(instance=case)
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else value
    return data


def as_posted(data: dict) -> MultiValueDict:
    return MultiValueDict({k: v if isinstance(v, list) else [v] for k, v in data.items()})


def post_case_create(problems: Problems, client, data: dict, label: str) -> None:
    count = Submission.objects.count()
    label = f"POST /cases/new/ {label}"
    response = problems.send(client, "post", "/cases/new/", data, label)
    if response is None:
        return
    if response.status_code == 302:
        case = Submission.objects.order_by("-pk").first()
        fits(case, problems, label)
        for field in TEXT_KEPT_AS_SENT & set(data):
            if getattr(case, field) != last(data[field]).strip():
                problems.append(f"{label}: stored {field}={getattr(case, field)!r:.60}, not what was sent")
    elif Submission.objects.count() != count:
        problems.append(f"{label}: refused ({response.status_code}) but a case was written")


def post_case_edit(problems: Problems, client, case: Submission, change: dict, label: str) -> None:
    case.refresh_from_db()
    before = row(Submission, case.pk)
    label = f"POST /cases/N/edit/ {label}"
    response = problems.send(client, "post", f"/cases/{case.pk}/edit/", {**case_edit_data(case), **change}, label)
    if response is None:
        return
    if response.status_code == 302:
        case.refresh_from_db()
        fits(case, problems, label)
    elif row(Submission, case.pk) != before:
        problems.append(f"{label}: refused ({response.status_code}) but the case changed")


def case_posts(problems: Problems, client, value, case: Submission | None = None) -> None:
    """Every field at once (the page that refuses it echoes the value in every box); then
    each sample field alone where the form takes the value, so that it reaches the
    service and the database."""
    def base() -> dict:
        return case_edit_data(case) if case else {**VALID_CASE, "case_number": new_case_number()}

    def post(change: dict, label: str) -> None:
        if case:
            post_case_edit(problems, client, case, change, label)
        else:
            post_case_create(problems, client, {**base(), **change}, label)

    post(dict.fromkeys(CASE_FIELDS, value), f"every field={value!r:.60}")
    for field in CASE_SAMPLE:
        data = {**base(), field: value}
        if SubmissionForm(as_posted(data), instance=case).is_valid():
            post({field: value}, f"{field}={value!r:.60}")


@pytest.mark.parametrize("value", cases())
def test_the_case_form_refuses_or_stores_a_valid_case_never_a_server_error(client, reviewer, value):
    client.force_login(reviewer)
    problems = Problems()
    case_posts(problems, client, value)
    problems.check()


@pytest.mark.parametrize("value", cases())
def test_editing_a_case_refuses_or_stores_a_valid_case_never_a_server_error(client, reviewer, value):
    client.force_login(reviewer)
    case = make_submission(use_concentration=0.15, molecular_weight=250.0)
    problems = Problems()
    case_posts(problems, client, value, case)
    check_page(problems, client, f"/cases/{case.pk}/", "after the posts")
    problems.check()


# --- the wizards --------------------------------------------------------------------------


def valid_override(param) -> str | None:
    """A value in range that differs from the default (so it needs a reason), as typed."""
    if param.kind == CHOICE:
        return next((v for v, _ in param.choices if v != param.default), None)
    candidates = [param.lower, param.upper, 1, 2, 0.5, 10, 100]
    for candidate in candidates:
        if candidate is None or candidate == param.default:
            continue
        try:
            value = param.coerce(str(candidate))
        except ValueError:
            continue
        if not param.check(value):
            return str(value)
    return None


def step_data(scenario: Scenario, step: str) -> dict:
    """The step's form as its page shows it (``wizards.step_form``: the saved inputs and
    reasons, the step's token), as a browser posts it back."""
    scenario.refresh_from_db()
    params = tuple(registry.get(scenario.scenario_key).params.for_step(step))
    initial = step_initial(params, scenario.inputs, scenario.reasons)
    initial[SEEN_FIELD] = input_rules.step_token(scenario, step)
    data = {f"{step}-{name}": initial.get(name, "") for name in step_form_class(scenario.scenario_key, step).base_fields}
    data[management_key(scenario)] = step
    return data


class Wizard:
    """One scenario's wizard, posted as a browser posts it: each post the form as its
    page shows it (``step_data``), to the step's address; the answer must be that step.
    The step's page need not have been opened in this session: the step is the address's."""

    def __init__(self, problems: Problems, client, scenario: Scenario):
        self.problems, self.client, self.scenario = problems, client, scenario

    def post(self, step: str, change: dict, label: str) -> None:
        problems, scenario = self.problems, self.scenario
        data = {**step_data(scenario, step), **change}
        before = row(Scenario, scenario.pk)
        label = f"POST {scenario.scenario_key} {step}: {label}"
        response = problems.send(self.client, "post", step_url(scenario, step), data, label)
        if response is None:
            return
        if response.status_code == 302:
            scenario.refresh_from_db()
            fits(scenario, problems, label)
            params = registry.get(scenario.scenario_key).params
            for symbol, value in scenario.inputs.items():
                if symbol in params and params[symbol].check(value):
                    problems.append(f"{label}: stored {symbol}={value!r}, out of its range")
            for symbol, reason in scenario.reasons.items():
                if "\x00" in reason or len(reason) > 500:
                    problems.append(f"{label}: stored the reason of {symbol} ({len(reason)} characters)")
        else:
            if row(Scenario, scenario.pk) != before:
                problems.append(f"{label}: refused ({response.status_code}) but the scenario changed")
            if response.status_code == 200 and response.context["wizard"]["steps"].current != step:
                problems.append(f"{label}: answered as step {response.context['wizard']['steps'].current}")


def wizard_posts(problems: Problems, client, reviewer, assessment: Assessment, key: str, value, *,
                 the_rest: bool) -> None:
    """Every step of one scenario with every value box at once; then (``the_rest``), on
    its first step with a preset, a reason, the preset, the step's token, the step's name
    and the step to go to: the same code for every scenario, so posted to one."""
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    wizard = Wizard(problems, client, scenario)
    spec = registry.get(key)
    for step in [s.key for s in spec.params.steps]:
        symbols = [p.symbol for p in spec.params.for_step(step)]
        wizard.post(step, {**{f"{step}-{s}": value for s in symbols},
                           **{f"{step}-reason_{s}": "Submitter's data sheet" for s in symbols}},
                    f"every value={value!r:.60}")
    if not the_rest:
        return
    step = next((s.key for s in spec.params.steps if "preset" in step_form_class(key, s.key).base_fields),
                spec.params.steps[0].key)
    param = next(p for p in spec.params.for_step(step) if valid_override(p) is not None)
    for name, change in (
        (f"reason_{param.symbol}", {f"{step}-{param.symbol}": valid_override(param), f"{step}-reason_{param.symbol}": value}),
        ("preset", {f"{step}-preset": value}),
        ("seen", {f"{step}-seen": value}),
        ("current_step", {management_key(scenario): value}),
        ("wizard_goto_step", {"wizard_goto_step": value}),
    ):
        wizard.post(step, change, f"{name}={value!r:.60}")


@pytest.fixture
def assessment(reviewer):
    return make_assessment(make_submission(production_volume_kg_yr=5000, use_concentration=0.15), reviewer)


@pytest.mark.parametrize("value", cases())
def test_every_wizard_step_refuses_or_saves_valid_inputs_never_a_server_error(client, reviewer, assessment, value):
    client.force_login(reviewer)
    problems = Problems()
    for key in KEYS:
        wizard_posts(problems, client, reviewer, assessment, key, value, the_rest=key == KEYS[0])
    problems.check()


# --- the add-use and notes forms -----------------------------------------------------------


def add_use(problems: Problems, client, assessment: Assessment, change: dict, label: str) -> None:
    url = f"/assessments/{assessment.pk}/scenarios/new/"
    data = {"scenario_key": "photoresist-2010", "title": "Spin coating, line 2", **change}
    count = assessment.scenarios.count()
    label = f"POST {url} {label}"
    response = problems.send(client, "post", url, data, label)
    if response is None:
        return
    if response.status_code == 302 and response["Location"].endswith("/wizard/"):
        scenario = assessment.scenarios.order_by("-pk").first()
        fits(scenario, problems, label)
        title = last(data["title"]).strip() or registry.get(scenario.scenario_key).title
        if scenario.title != title:
            problems.append(f"{label}: stored the title {scenario.title!r:.60}, not what was sent")
    elif assessment.scenarios.count() != count:
        problems.append(f"{label}: refused ({response.status_code}) but a use was added")


@pytest.mark.parametrize("value", cases())
def test_adding_a_use_refuses_or_adds_a_valid_use_never_a_server_error(client, reviewer, assessment, value):
    client.force_login(reviewer)
    problems = Problems()
    for field in ("scenario_key", "title"):
        add_use(problems, client, assessment, {field: value}, f"{field}={value!r:.60}")
    check_page(problems, client, f"/assessments/{assessment.pk}/", "after the posts")
    problems.check()


def notes_data(assessment: Assessment) -> dict:
    form = AssessmentNotesForm(instance=assessment)
    data = {name: ("" if form[name].value() is None else form[name].value()) for name in form.fields}
    if not data["exposure_based_review"]:
        del data["exposure_based_review"]
    return data


def post_notes(problems: Problems, client, assessment: Assessment, field: str, value) -> None:
    url = f"/assessments/{assessment.pk}/notes/"
    assessment.refresh_from_db()
    before = row(Assessment, assessment.pk)
    label = f"POST {url} {field}={value!r:.60}"
    response = problems.send(client, "post", url, {**notes_data(assessment), field: value}, label)
    if response is None:
        return
    if response.status_code == 302:
        assessment.refresh_from_db()
        fits(assessment, problems, label)
        if field in ("notes", "pollution_prevention") and getattr(assessment, field) != last(value).strip():
            problems.append(f"{label}: stored {getattr(assessment, field)!r:.60}, not what was sent")
    elif row(Assessment, assessment.pk) != before:
        problems.append(f"{label}: refused ({response.status_code}) but the assessment changed")


@pytest.mark.parametrize("value", cases())
def test_the_notes_form_refuses_or_stores_valid_notes_never_a_server_error(client, reviewer, assessment, value):
    client.force_login(reviewer)
    problems = Problems()
    for field in AssessmentNotesForm().fields:
        post_notes(problems, client, assessment, field, value)
    check_page(problems, client, f"/assessments/{assessment.pk}/", "after the posts")
    problems.check()


# --- the review actions ---------------------------------------------------------------------


def computed_assessment(reviewer) -> Assessment:
    """A draft with one computed use: ready to submit."""
    assessment = make_assessment(make_submission(production_volume_kg_yr=5000, use_concentration=0.15), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


def review_post(problems: Problems, client, assessment: Assessment, action: str, field: str, value,
                to_status: str) -> None:
    url = f"/assessments/{assessment.pk}/{action}/"
    before = row(Assessment, assessment.pk)
    decisions = assessment.decisions.count()
    label = f"POST {url} {field}={value!r:.60}"
    response = problems.send(client, "post", url, {field: value}, label)
    if response is None:
        return
    assessment.refresh_from_db()
    if assessment.status == to_status:
        fits(assessment, problems, label)
        decision = assessment.decisions.order_by("-pk").first()
        fits(decision, problems, label)
        if field in ("note", "comment") and decision.comment != last(value).strip():
            problems.append(f"{label}: stored the comment {decision.comment!r:.60}, not what was sent")
    elif row(Assessment, assessment.pk) != before or assessment.decisions.count() != decisions:
        problems.append(f"{label}: refused but the assessment or its decisions changed")


@pytest.mark.parametrize("value", cases())
def test_the_review_actions_refuse_or_record_the_text_never_a_server_error(client, reviewer, supervisor, value):
    problems = Problems()
    client.force_login(reviewer)
    for field in ("note", "volume_reason"):
        review_post(problems, client, computed_assessment(reviewer), "submit", field, value, Status.SUBMITTED)
    boss = Client()
    boss.force_login(supervisor)
    for action, to_status in (("approve", Status.APPROVED), ("return", Status.RETURNED)):
        assessment = computed_assessment(reviewer)
        workflow.assessment_submit(assessment=assessment, by=reviewer)
        review_post(problems, boss, assessment, action, "comment", value, to_status)
        check_page(problems, boss, f"/assessments/{assessment.pk}/", "after the posts")
        check_page(problems, boss, f"/assessments/{assessment.pk}/history/", "after the posts")
    problems.check()


# --- a body that is not a form ---------------------------------------------------------------


def test_a_json_body_with_objects_where_text_belongs_writes_nothing_but_blank_notes(client, reviewer, assessment):
    """``request.POST`` is empty for a JSON body: each form is refused, except the notes
    form, for which no fields is a valid post (every note may be blank): it blanks them."""
    client.force_login(reviewer)
    case = make_submission()
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    problems = Problems()
    body = json.dumps({"case_number": {"a": [1, {"b": None}]}, "title": ["x"], "notes": {"$gt": ""},
                       "production_volume_kg_yr": {"value": 5000}, "scenario_key": ["photoresist-2010"],
                       f"{management_key(scenario)}": ["production"]})

    def rows():
        return (Submission.objects.count(), Scenario.objects.count(), row(Submission, case.pk), row(Scenario, scenario.pk))

    before = rows()
    for url in ("/cases/new/", f"/cases/{case.pk}/edit/", f"/assessments/{assessment.pk}/notes/",
                f"/assessments/{assessment.pk}/scenarios/new/", step_url(scenario, "production"),
                f"/assessments/{assessment.pk}/submit/"):
        problems.send(client, "post", url, body, f"POST {url} JSON body", content_type="application/json")
    problems.check()
    assert rows() == before
    assessment.refresh_from_db()
    assert (assessment.status, assessment.notes, assessment.decisions.count()) == (Status.DRAFT, "", 0)


def test_bytes_that_are_not_utf8_are_refused_or_read_never_a_server_error(client, reviewer, assessment):
    client.force_login(reviewer)
    problems = Problems()
    count = Submission.objects.count()
    for url in ("/cases/new/", f"/assessments/{assessment.pk}/notes/", f"/assessments/{assessment.pk}/scenarios/new/"):
        problems.send(client, "post", url, "case_number=%FF%FE&notes=%C3%28&title=%ED%A0%80&scenario_key=%FF",
                      f"POST {url} invalid UTF-8", content_type="application/x-www-form-urlencoded")
    problems.check()
    assert Submission.objects.count() == count


# --- what the forms took, printed; and the search ------------------------------------------

#: Text every form takes (no NUL, within the limits) that a page or a PDF may choke on.
PRINTABLE_TROUBLE = "\x01\x1b[31m\x7f\u202eevil\ufeff\u200b<b>&amp;</b>\x0b\x0c{{ x }}{% if %}" + "ü" * 2_000


def test_text_the_forms_take_prints_on_the_pages_and_in_the_report(client, reviewer, assessment):
    client.force_login(reviewer)
    problems = Problems()
    case = assessment.submission
    post_case_edit(problems, client, case, {"case_name": PRINTABLE_TROUBLE[:200], "use_description": PRINTABLE_TROUBLE,
                                            "chemical_name": PRINTABLE_TROUBLE[:500]}, "trouble")
    post_notes(problems, client, assessment, "notes", PRINTABLE_TROUBLE)
    add_use(problems, client, assessment, {"title": PRINTABLE_TROUBLE[:200]}, "trouble")
    scenario = assessment.scenarios.get()
    param = registry.get(scenario.scenario_key).params["Fchem"]
    Wizard(problems, client, scenario).post(
        "production", {"production-Fchem": "0.2", "production-reason_Fchem": PRINTABLE_TROUBLE[:500],
                       "wizard_finish": "1"}, "trouble")
    problems.check()
    scenario.refresh_from_db()
    case.refresh_from_db()
    assert case.use_description == PRINTABLE_TROUBLE.strip() and scenario.result is not None
    assert scenario.reasons[param.symbol] == PRINTABLE_TROUBLE[:500].strip()
    for url in (f"/cases/{case.pk}/", f"/assessments/{assessment.pk}/", f"/scenarios/{scenario.pk}/",
                f"/assessments/{assessment.pk}/history/", f"/assessments/{assessment.pk}/irer/",
                f"/assessments/{assessment.pk}/irer.pdf", f"/assessments/{assessment.pk}/irer/?copy=sanitised"):
        response = problems.send(client, "get", url, None, f"GET {url}")
        if response is not None and response.status_code != 200:
            problems.append(f"GET {url}: {response.status_code}")
    problems.check()


@pytest.mark.parametrize("value", cases())
def test_the_case_search_and_the_comparison_take_any_query(client, reviewer, assessment, value):
    client.force_login(reviewer)
    problems = Problems()
    for query in ({"q": value}, {"status": value}, {"engineer": value}, {"page": value}, {"q": value, "page": "2"}):
        problems.send(client, "get", "/", query, f"GET / {query!r:.80}")
    problems.send(client, "get", f"/assessments/{assessment.pk}/compare/", {"with": value}, "GET compare")
    problems.check()


# --- esd compute ---------------------------------------------------------------------------


def run_esd(*args: str, stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            call_command("esd", *args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
            status = 0
        except SystemExit as exc:
            status = exc.code
    return status, out.getvalue(), err.getvalue()


def esd_contract(status: int, out: str, err: str) -> str:
    """What is wrong with the answer, or ``""``."""
    if "Traceback" in out or "Traceback" in err:
        return "a traceback"
    if status == 0:
        return "" if err == "" and isinstance(json.loads(out), dict) else f"exit 0 with stderr {err[:200]!r}"
    if status != 2:
        return f"exit {status}"
    errors = json.loads(err).get("errors")
    if out or not isinstance(errors, dict) or not errors:
        return f"exit 2 without JSON errors: {err[:200]!r}"
    internal = [m for m in errors.values() if m.startswith(esd_command.INTERNAL.split("(")[0])]
    return f"the catch-all message: {internal[0][:200]}" if internal else ""


#: JSON texts, as a file or a pipe may hold them (NaN and Infinity are Python's extensions).
ESD_INPUTS: dict[str, str] = {
    **{f"string-{key}": json.dumps({"Qchem_yr": last(value), "Fchem": 0.15}) for key, value in HOSTILE.items()},
    "nan-literal": '{"Qchem_yr": NaN, "Fchem": 0.15}',
    "infinity-literal": '{"Qchem_yr": Infinity}',
    "minus-zero-number": '{"Qchem_yr": 5000, "Fchem": -0.0, "Nsites": -0}',
    "1e309-number": '{"Qchem_yr": 1e309}',
    "int-beyond-a-double": '{"Qchem_yr": 1' + "0" * 400 + "}",
    "int-beyond-the-digit-limit": '{"Qchem_yr": 1' + "0" * 5000 + "}",
    "nested-object-value": '{"Qchem_yr": {"a": [1, {"b": [null, NaN]}]}, "Fchem": [0.15]}',
    "list-where-a-string-belongs": '{"Qchem_yr": 5000, "stripping_process": ["plasma"], "daily_use_basis": {"a": 1}}',
    "dict-where-a-number-belongs": '{"Qchem_yr": {"value": 5000, "units": "kg/yr"}}',
    "nul-in-a-key": '{"Qchem_yr": 5000, "F\\u0000chem": 0.15}',
    "nul-in-a-value": '{"Qchem_yr": "5000\\u0000"}',
    "10kb-key": json.dumps({"Q" * 10_240: 1, "Qchem_yr": 5000}),
    "lone-surrogate": '{"Qchem_yr": "\\ud800"}',
    "deeply-nested": "[" * 100_000 + "]" * 100_000,
    "deeply-nested-value": '{"Qchem_yr": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "not-an-object": "[5000, 0.15]",
    "site-specific-garbage": '{"Qchem_yr": 5000, "site_specific": [{"method": "\\u0000", "inputs": [1]}, 7, null]}',
}


@pytest.mark.parametrize("text", [pytest.param(text, id=key) for key, text in ESD_INPUTS.items()])
def test_esd_compute_answers_json_or_json_errors_never_a_traceback(text):
    problems = Problems()
    for key in KEYS:
        wrong = esd_contract(*run_esd("compute", key, stdin=text))
        if wrong:
            problems.append(f"esd compute {key} < {text[:60]!r}: {wrong}")
    problems.check()


# --- hypothesis: parse_number -----------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(number_text, special_text, st.text(max_size=30),
                      st.text(alphabet="0123456789,.eE+- _", max_size=20)))
def test_parse_number_reads_a_finite_float_or_refuses_with_its_own_error(text):
    try:
        value = parse_number(text)
    except NumberTextError:
        event("refused")
        return
    event("read")
    assert isinstance(value, float) and math.isfinite(value)
    assert value == float(text.strip().replace(",", ""))  # what the digits say; commas only group
    assert all(c in "0123456789,.eE+-" for c in text.strip())


@settings(max_examples=300, deadline=None)
@given(number=st.one_of(st.integers(-(10**15), 10**15), st.floats(allow_nan=False, allow_infinity=False)))
def test_a_number_written_with_thousands_separators_reads_back_as_itself(number):
    assert parse_number(f"{number:,}") == number


@settings(max_examples=200, deadline=None)
@given(whole=st.integers(0, 10**9), decimals=st.integers(1, 99).map(str).filter(lambda d: len(d) != 3))
def test_a_decimal_comma_is_never_read_as_a_number(whole, decimals):
    # 1,5 0,15 12,3456: refused, never read as 15 or 123456
    with pytest.raises(NumberTextError):
        parse_number(f"{whole},{decimals}")


# --- hypothesis: any form, any field, any text --------------------------------------------------

hostile_text = st.one_of(
    st.sampled_from([v for v in HOSTILE.values() if isinstance(v, str)]),
    special_text, number_text, st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Nd", "No", "Zs"]), max_size=20),
    st.lists(st.text(max_size=10), min_size=2, max_size=3),
)
FORMS = ["case-create", "case-edit", "add-use", "notes", "wizard", "submit"]
WIZARD_STEPS = [(s.key, step.key) for s in registry.scenarios() for step in s.params.steps]

# About 25 ms a post on the 2-core machine: 60 examples, under 3 s.
ANY_FORM = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@ANY_FORM
@given(data=st.data())
def test_any_text_in_any_field_of_any_form_is_refused_or_stored_valid(client, reviewer, assessment, data):
    client.force_login(reviewer)
    problems = Problems()
    form = data.draw(st.sampled_from(FORMS), label="form")
    value = data.draw(hostile_text, label="value")
    event(form)
    if form == "case-create":
        field = data.draw(st.sampled_from(CASE_FIELDS), label="field")
        post_case_create(problems, client, {**VALID_CASE, "case_number": new_case_number(), field: value},
                         f"{field}={value!r:.60}")
    elif form == "case-edit":
        case = Submission.objects.filter(case_number="P-29-0999").first() or make_submission(case_number="P-29-0999")
        field = data.draw(st.sampled_from(CASE_FIELDS), label="field")
        post_case_edit(problems, client, case, {field: value}, f"{field}={value!r:.60}")
    elif form == "add-use":
        field = data.draw(st.sampled_from(["scenario_key", "title"]), label="field")
        add_use(problems, client, assessment, {field: value}, f"{field}={value!r:.60}")
    elif form == "notes":
        field = data.draw(st.sampled_from(list(AssessmentNotesForm().fields)), label="field")
        post_notes(problems, client, assessment, field, value)
    elif form == "wizard":
        key, step = data.draw(st.sampled_from(WIZARD_STEPS), label="step")
        scenario = assessment.scenarios.filter(scenario_key=key).first() or services.scenario_add(
            assessment=assessment, by=reviewer, scenario_key=key)
        names = [f"{step}-{name}" for name in step_form_class(key, step).base_fields] + [management_key(scenario)]
        name = data.draw(st.sampled_from(names), label="field")
        Wizard(problems, client, scenario).post(step, {name: value}, f"{name}={value!r:.60}")
    else:
        field = data.draw(st.sampled_from(["note", "volume_reason"]), label="field")
        review_post(problems, client, computed_assessment(reviewer), "submit", field, value, Status.SUBMITTED)
    problems.check()


def test_the_explicit_cases_reach_every_form():
    # a guard against an explicit case dropped from a form's parametrisation
    assert [p.id for p in cases()] == list(HOSTILE)
    assert {f"string-{key}" for key in HOSTILE} <= set(ESD_INPUTS)
