"""``import_case`` lets nothing in that the application would refuse. Each test below is
a file a probe showed the import accepting, permanently, before it checked rows as the
application does (issue "Nothing gets in that the web form would refuse"), or a guard that
what the application writes still goes through. Every refusal exits 2 with a message
naming the place in the file and writes nothing.

The case is the one of ``tests/test_export_import.py`` (the toy engine; revision 1
returned, resubmitted and approved by ``mlee``; revision 2 a recomputed draft), exported
and received by another installation (``sent``, made by ``elsewhere``: the case as
P-26-0778, the people as ``j.smith``, ``a.kumar``, ``m.lee``). A property test then
mutates that export at random and asserts the import either writes a case every row of
which passes the model's validation and whose pages render, or refuses with nothing
written.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from assessments import transfer
from assessments.esd import results
from assessments.limits import TEXT_LIMITS
from assessments.models import Assessment, Scenario, Submission
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from assessments.transfer.errors import NOT_FINITE
from tests._review_support import toy_engine
from tests.conftest import make_user
from tests.test_export_import import (
    OTHER_CASE,
    case,
    db_state,
    elsewhere,
    export,
    exported,
    import_file,
    people,
    write,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

ROOT = Path(__file__).resolve().parent.parent

NAN, INF = float("nan"), float("inf")


@pytest.fixture
def sent(request) -> dict:
    """The export of the case, as another installation receives it (``exported``)."""
    return request.getfixturevalue("exported")


def raw(document) -> str:
    """The document as a file, NaN and Infinity written as Python's json writes them."""
    return json.dumps(document, allow_nan=True)


def refused(tmp_path, document, message: str | None = None, *, startswith: str | None = None) -> str:
    """Import ``document`` (a dict, or the file's text or bytes): exit status 2, the
    message, nothing written. Returns the message."""
    path = tmp_path / "case.json"
    if isinstance(document, bytes):
        path.write_bytes(document)
    else:
        path.write_text(document if isinstance(document, str) else raw(document), encoding="utf-8")
    before = db_state()
    with pytest.raises(CommandError) as caught:
        import_file(path)
    assert caught.value.returncode == 2
    text = str(caught.value)
    if message is not None:
        assert text == message
    if startswith is not None:
        assert text.startswith(startswith), text
    assert db_state() == before
    return text


def numbers_zeroed(value):
    """Every number in ``value`` (not true/false) replaced by 0."""
    if isinstance(value, dict):
        return {k: numbers_zeroed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [numbers_zeroed(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0
    return value


# Non-finite numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("field,value", [
    ("production_volume_kg_yr", NAN),
    ("molecular_weight", INF),
    ("vapour_pressure_torr", NAN),
    ("vapour_pressure_torr", -INF),
])
def test_nan_or_infinity_in_a_case_number_field_is_refused(sent, tmp_path, field, value):
    sent["case"][field] = value
    refused(tmp_path, sent, f"case.{field}: {NOT_FINITE}")


def test_a_number_beyond_a_double_is_refused(sent, tmp_path):
    # Python's json reads 1e999 as inf without complaint.
    text = raw(sent).replace('"production_volume_kg_yr": 5000.0', '"production_volume_kg_yr": 1e999')
    assert "1e999" in text
    refused(tmp_path, text, f"case.production_volume_kg_yr: {NOT_FINITE}")


def test_a_number_a_double_reads_as_0_is_refused(sent, tmp_path):
    # Python's json reads 1e-400 as 0.0 without complaint: a production volume of 0.
    text = raw(sent).replace('"production_volume_kg_yr": 5000.0', '"production_volume_kg_yr": 1e-400')
    assert "1e-400" in text
    refused(tmp_path, text, f"case.production_volume_kg_yr: {NOT_FINITE}")


def test_nan_nested_in_a_scenarios_json_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["result"]["releases"][0]["estimates"][0]["kg_site_day"] = NAN
    refused(
        tmp_path, sent,
        f"assessments[1].scenarios[1].result.releases[0].estimates[0].kg_site_day: {NOT_FINITE}",
    )


def test_infinity_in_inputs_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][0]["inputs"]["Qchem_yr"] = INF
    refused(tmp_path, sent, f"assessments[1].scenarios[0].inputs.Qchem_yr: {NOT_FINITE}")


# Scenarios: the engine's checks -------------------------------------------------------------------


def test_scenario_inputs_that_are_a_string_are_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["inputs"] = '{"Qchem_yr": 5000}'
    refused(tmp_path, sent, "assessments[1].scenarios[1].inputs: must be a JSON object of {symbol: value}")


def test_a_result_that_is_a_list_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["result"] = [1, 2, 3]
    refused(tmp_path, sent, "assessments[1].scenarios[1].result: must be a JSON object or null")


def test_an_unknown_scenario_key_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["scenario_key"] = "photoresist-1999"
    refused(
        tmp_path, sent,
        "assessments[1].scenarios[1].scenario_key: unknown scenario 'photoresist-1999'; known: review-toy",
    )


def test_an_input_out_of_its_range_is_refused(sent, tmp_path):
    scenario = sent["assessments"][1]["scenarios"][1]
    scenario["inputs"]["Fchem"] = 1.5
    scenario["result"] = scenario["computed_inputs"] = scenario["computed_at"] = None
    refused(tmp_path, sent, "assessments[1].scenarios[1].inputs.Fchem: must be greater than 0 and at most 1 kg/kg")


def test_an_unknown_input_symbol_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["inputs"]["Fwhatever"] = 0.5
    refused(tmp_path, sent, startswith="assessments[1].scenarios[1].inputs.Fwhatever: unknown input symbol")


def test_a_number_given_as_text_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["inputs"]["Qchem_yr"] = "١٢٣"
    refused(tmp_path, sent, startswith="assessments[1].scenarios[1].inputs.Qchem_yr: must be a number")


def test_an_override_without_its_reason_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["reasons"] = {}
    refused(
        tmp_path, sent,
        "assessments[1].scenarios[1].inputs.Fchem: an input other than its default needs a reason (reasons.Fchem)",
    )


@pytest.mark.parametrize("reasons", [["Fchem"], {"Fchem": 20}, "MSDS"])
def test_reasons_that_are_not_text_by_symbol_are_refused(sent, tmp_path, reasons):
    sent["assessments"][1]["scenarios"][1]["reasons"] = reasons
    refused(tmp_path, sent, "assessments[1].scenarios[1].reasons: must be a JSON object of {symbol: text}")


def test_a_result_without_its_computation_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["computed_inputs"] = None
    refused(
        tmp_path, sent,
        "assessments[1].scenarios[1].result: a stored result needs its computed_inputs and computed_at",
    )


def test_a_result_from_another_engine_version_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["result"]["engine_version"] = "0.9.0"
    refused(
        tmp_path, sent,
        f"assessments[1].scenarios[1].result.engine_version: computed by engine version \"0.9.0\"; this "
        f"installation runs engine version {results.ENGINE_VERSION}, so the stored result cannot be checked: "
        "import refused. Import it into an installation running engine \"0.9.0\".",
    )


def test_a_result_that_is_not_what_the_engine_computes_is_refused(sent, tmp_path):
    # Toy engine (tests/_review_support.py), by hand: Qchem_yr 1234.5678 kg/yr × Fchem 0.2 / 250 days
    # = 0.98765424 kg/site-day.
    estimate = sent["assessments"][1]["scenarios"][1]["result"]["releases"][0]["estimates"][0]
    assert estimate["kg_site_day"] == pytest.approx(0.98765424, rel=1e-12)
    estimate["kg_site_day"] = 0.98765
    refused(
        tmp_path, sent,
        "assessments[1].scenarios[1].result.releases[0].estimates[0].kg_site_day: the stored result is not "
        "what the engine computes from computed_inputs (stored 0.98765, computed 0.9876542400000001)",
    )


def test_a_result_within_float_noise_of_the_engines_is_accepted(sent, tmp_path):
    estimate = sent["assessments"][1]["scenarios"][1]["result"]["releases"][0]["estimates"][0]
    estimate["kg_site_day"] *= 1 + 1e-12
    import_file(write(tmp_path, sent))
    assert Submission.objects.filter(case_number=OTHER_CASE).exists()


def test_a_result_with_an_added_part_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["result"]["approved_by_epa"] = True
    refused(tmp_path, sent, startswith="assessments[1].scenarios[1].result.approved_by_epa: the stored result")


# The review trail ---------------------------------------------------------------------------------


def test_the_probes_self_approved_revision_is_refused(sent, tmp_path):
    """The probe's file: revision 2 edited to be approved by its own engineer, with no
    decisions and its results zeroed."""
    revision = sent["assessments"][1]
    revision.update(status="approved", approved_by="a.kumar", approved_at="2026-11-20T10:00:00+00:00", decisions=[])
    del revision["case_snapshot"]  # as a file from before snapshots has it (a null one is refused first)
    for scenario in revision["scenarios"]:
        scenario["result"] = numbers_zeroed(scenario["result"])
    refused(tmp_path, sent, startswith="assessments[1].scenarios[0].result.")


def test_an_approved_revision_without_decisions_is_refused(sent, tmp_path):
    sent["assessments"][0]["decisions"] = []
    refused(
        tmp_path, sent,
        "assessments[0].status: is 'approved', but its review decisions leave it 'draft' (an approved revision "
        "needs a submit decision by its engineer, then an approve decision by another supervisor)",
    )


def test_a_revision_approved_by_its_own_engineer_is_refused(sent, tmp_path, django_user_model):
    # j.smith made a supervisor, so only the rule "not your own work" refuses it.
    get_user_model().objects.get(username="j.smith").groups.add(
        django_user_model.groups.field.related_model.objects.get(name=SUPERVISOR_GROUP)
    )
    revision = sent["assessments"][0]
    revision["approved_by"] = revision["decisions"][3]["by"] = "j.smith"
    refused(
        tmp_path, sent,
        "assessments[0].decisions[3].by: j.smith is the revision's engineer: another supervisor must approve "
        "or return it",
    )


def test_a_revision_approved_by_a_non_supervisor_is_refused(sent, tmp_path, django_user_model):
    make_user(django_user_model, "r.other", group=REVIEWER_GROUP, cbi=True)
    revision = sent["assessments"][0]
    revision["approved_by"] = revision["decisions"][3]["by"] = "r.other"
    refused(
        tmp_path, sent,
        "assessments[0].decisions[3].by: r.other is not a supervisor here: only a supervisor approves or "
        "returns a revision",
    )


def test_approved_by_must_be_who_approved(sent, tmp_path, django_user_model):
    make_user(django_user_model, "s.other", group=SUPERVISOR_GROUP, cbi=True)
    sent["assessments"][0]["approved_by"] = "s.other"
    refused(
        tmp_path, sent,
        "assessments[0].approved_by: must be m.lee, who made the approve decision (the file has s.other)",
    )


def test_approved_at_must_be_when_it_was_approved(sent, tmp_path):
    sent["assessments"][0]["approved_at"] = "2020-01-01T00:00:00+00:00"
    refused(tmp_path, sent, startswith="assessments[0].approved_at: must be the time of the approve decision")


def test_an_approval_without_a_submission_before_it_is_refused(sent, tmp_path):
    decisions = sent["assessments"][0]["decisions"]
    sent["assessments"][0]["decisions"] = [decisions[3]]  # the approve decision only
    refused(
        tmp_path, sent,
        "assessments[0].decisions[0].from_status: is 'submitted', but the revision was 'draft' at that point",
    )


def test_a_submitted_revision_needs_a_submission_as_its_latest_decision(sent, tmp_path):
    revision = sent["assessments"][0]
    revision.update(status="submitted", approved_by=None, approved_at=None, case_snapshot=None)
    revision["decisions"] = revision["decisions"][:2]  # submitted, then returned
    sent["assessments"] = [revision]
    refused(
        tmp_path, sent,
        "assessments[0].status: is 'submitted', but its review decisions leave it 'returned' (an approved "
        "revision needs a submit decision by its engineer, then an approve decision by another supervisor)",
    )


def test_a_draft_may_not_claim_an_approver(sent, tmp_path):
    sent["assessments"][1]["approved_by"] = "m.lee"
    refused(tmp_path, sent, "assessments[1].approved_by: must be null: the revision is not approved")


def test_a_revision_after_an_unapproved_one_is_refused(sent, tmp_path):
    sent["assessments"][0]["revision"] = 3
    refused(
        tmp_path, sent,
        "assessments: revisions must be numbered 1, 2, 3 ... without gaps; the file has 2, 3",
    )


# Case numbers --------------------------------------------------------------------------------------


def test_a_case_number_differing_only_in_blanks_and_case_is_an_existing_case(sent, tmp_path):
    write(tmp_path, sent)
    import_file(tmp_path / "case.json")  # P-26-0778 is now here
    sent["case"]["case_number"] = " p-26-0778 "
    refused(
        tmp_path, sent,
        "Case P-26-0778 exists already in this installation: import refused, nothing was written.",
    )


def test_an_imported_case_number_is_stored_normalised(sent, tmp_path):
    sent["case"]["case_number"] = "  p-26-0779 "
    import_file(write(tmp_path, sent))
    assert Submission.objects.filter(case_number="P-26-0779").exists()


# Text ----------------------------------------------------------------------------------------------


def test_a_nul_character_is_refused(sent, tmp_path):
    sent["case"]["submitter"] = "Acme\x00 Photochemicals"
    refused(tmp_path, sent, "case.submitter: must not contain NUL characters (PostgreSQL cannot store them)")


def test_a_nul_character_in_a_reason_is_refused(sent, tmp_path):
    sent["assessments"][1]["scenarios"][1]["reasons"]["Fchem"] = "MSDS\x00"
    refused(
        tmp_path, sent,
        "assessments[1].scenarios[1].reasons.Fchem: must not contain NUL characters (PostgreSQL cannot store them)",
    )


def test_a_lone_surrogate_is_refused(sent, tmp_path):
    text = raw(sent).replace('"Spin coating"', '"Spin \\ud800coating"', 1)
    refused(tmp_path, text, startswith="assessments[0].scenarios[0].title: must be text")


def test_text_over_the_applications_limit_is_refused(sent, tmp_path):
    sent["assessments"][1]["notes"] = "x" * 20_001
    refused(
        tmp_path, sent,
        "assessments[1]: notes: Notes and key assumptions is 20,001 characters long; at most 20,000 are allowed.",
    )


def test_a_value_of_the_wrong_json_type_is_refused(sent, tmp_path):
    sent["case"]["production_volume_kg_yr"] = "5000"
    refused(tmp_path, sent, f"case.production_volume_kg_yr: {NOT_FINITE}")


def test_a_list_for_a_text_field_is_refused(sent, tmp_path):
    sent["case"]["submitter"] = ["Acme"]
    refused(tmp_path, sent, "case.submitter: must be text")


# The file itself -------------------------------------------------------------------------------------


def test_a_deeply_nested_file_is_a_clear_error(tmp_path):
    path = tmp_path / "case.json"
    text = '{"format": "pmn-review-case", "format_version": 1, "case": ' + "[" * 10_000 + "]" * 10_000 + "}"
    refused(tmp_path, text, f"{path} nests deeper than 64 levels, more than any case export: import refused.")


def test_nesting_beyond_the_limit_but_within_pythons_is_a_clear_error(sent, tmp_path):
    nested: list = []
    for _ in range(100):
        nested = [nested]
    sent["assessments"][1]["scenarios"][1]["reasons"]["Fchem"] = nested
    path = tmp_path / "case.json"
    refused(tmp_path, sent, f"{path} nests deeper than 64 levels, more than any case export: import refused.")


def test_the_command_line_says_so_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    completed = subprocess.run(
        [sys.executable, "manage.py", "import_case", str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip() == (
        f"CommandError: {path} nests deeper than 64 levels, more than any case export: import refused."
    )


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path):
    assert transfer.MAX_FILE_BYTES == 20 * 1024 * 1024
    path = tmp_path / "case.json"
    padding = " " * transfer.MAX_FILE_BYTES  # valid JSON whitespace: only its size is wrong
    refused(
        tmp_path, '{"format": "pmn-review-case"}' + padding,
        f"{path} is larger than 20 MB, more than any case export: import refused, nothing was written.",
    )


def test_a_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "case.json"
    refused(tmp_path, '{"format": "pmn-review-case", "case": "Société"}'.encode("latin-1"), f"{path} is not UTF-8 text.")


@pytest.mark.parametrize("text,kind", [("[]", "a JSON list"), ('"case"', "a string"), ("42", "a number"), ("null", "null")])
def test_a_top_level_that_is_not_an_object_is_a_clear_error(tmp_path, text, kind):
    path = tmp_path / "case.json"
    refused(tmp_path, text, f"{path} is not a case export: its top level is {kind}, not a JSON object.")


def test_a_key_given_twice_is_refused(sent, tmp_path):
    text = raw(sent).replace('"status": "draft"', '"status": "draft", "status": "approved"', 1)
    refused(tmp_path, text, 'assessments[1]: the key "status" appears more than once in this object')


def test_an_unknown_top_level_key_is_refused(sent, tmp_path):
    sent["signed_by"] = "EPA"
    refused(tmp_path, sent, "(top level): unknown field(s) signed_by.")


# The real engine: what the application computes goes through ------------------------------------------


def test_a_case_computed_by_the_real_engine_travels(tmp_path, django_user_model, monkeypatch):
    """The demo cases (photoresist 2018 and CVD 2015) as load_demo makes them, computed, the
    sample approved in revision 1 and a draft in revision 2: exported and received
    elsewhere, the recompute of every stored result agrees with it."""
    from django.test import override_settings

    from assessments.esd import registry

    monkeypatch.undo()  # this test only: the real engine, not the module's toy one
    registry._registry.cache_clear()
    with override_settings(DEBUG=True):
        call_command("load_demo", stdout=io.StringIO())
    for number, other in (("P-18-0123", "P-18-9123"), ("P-26-0042", "P-26-9042")):
        document = json.loads(export(number))
        document["case"]["case_number"] = other
        import_file(write(tmp_path, document))
        uses = {
            case_number: list(
                Scenario.objects.filter(assessment__submission__case_number=case_number)
                .order_by("assessment__revision", "position")
                .values_list("scenario_key", "inputs", "computed_inputs", "result")
            )
            for case_number in (number, other)
        }
        assert uses[other] == uses[number] and all(result for *_, result in uses[other])
        statuses = [
            list(Assessment.objects.filter(submission__case_number=n).order_by("revision").values_list("status"))
            for n in (number, other)
        ]
        assert statuses[0] == statuses[1]


# Whatever the file holds (hypothesis) -------------------------------------------------------------------


def _paths(value, path=()):
    """Every place in a JSON value (not the root), as a tuple of keys and indices."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield path + (key,)
        yield from _paths(item, path + (key,))


HOSTILE = st.one_of(
    st.sampled_from([
        NAN, INF, -INF, None, True, False, 0, -1, 1e308, 2**70, "", "١٢٣", "１２３", "a\x00b", "x" * 10_240,
        "draft", "approved", "m.lee", "a.kumar", "review-toy", "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00",
        '{"Fchem": 0.5}', [], {}, [1, 2], {"Fchem": 0.5}, {"a": [{"b": None}]}, [[[[[]]]]],
    ]),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers() | st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=8), st.integers() | st.none(), max_size=3),
)


def _at(document, place):
    for key in place:
        document = document[key]
    return document


def _alike(value) -> st.SearchStrategy:
    """A value of the same JSON kind as ``value``, hostile within that kind."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, (int, float)):
        return st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(2**70), 2**70)
    if isinstance(value, str):
        return st.text(max_size=40) | st.sampled_from(["x" * 10_240, "١٢٣", "a\x00b", " " + value.lower() + " ", value * 3])
    return st.none()


class _Undo(Exception):
    """Raised to roll back one example's import."""


#: Mutated files tried: 100 on a developer's machine, 25 in CI (``PMN_PROPERTY_EXAMPLES``,
#: docs/using.md): each example imports a case and renders its pages (about 0.2 s).
MUTATED_FILES = 25 * int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))


@settings(max_examples=MUTATED_FILES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_export_is_imported_whole_and_valid_or_refused_with_nothing_written(
    sent, tmp_path, client, django_user_model, data
):
    viewer = get_user_model().objects.filter(username="viewer").first() or make_user(
        django_user_model, "viewer", group=SUPERVISOR_GROUP, cbi=True
    )
    client.force_login(viewer)
    document = copy.deepcopy(sent)
    places = sorted(_paths(document), key=repr)
    # Three mutations in four hit a row's own fields (a case, revision, use or decision field,
    # or one input or reason): most of those files are importable, so the pages are tried.
    fields = [p for p in places if "result" not in p and "computed_inputs" not in p and not isinstance(_at(document, p), (dict, list))]
    for _ in range(data.draw(st.sampled_from([1, 1, 1, 2, 3]), label="mutations")):
        place = data.draw(st.sampled_from(fields) if data.draw(st.integers(0, 3), label="anywhere") else st.sampled_from(places), label="place")
        target = document
        try:
            for key in place[:-1]:
                target = target[key]
            if isinstance(target, dict) and data.draw(st.integers(0, 4), label="delete") == 0:
                del target[place[-1]]
            else:
                target[place[-1]] = data.draw(_alike(target[place[-1]]) | HOSTILE, label="value")
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation replaced or removed the container
    path = tmp_path / "case.json"
    path.write_text(raw(document), encoding="utf-8")
    before = db_state()
    try:
        with transaction.atomic():
            try:
                import_file(path)
            except CommandError as exc:
                assert exc.returncode == 2
                assert str(exc)
                event("refused")
                raise _Undo from None
            event("imported")
            _assert_imported_case_is_valid_and_renders(client)
            raise _Undo
    except _Undo:
        pass
    assert db_state() == before


def _assert_imported_case_is_valid_and_renders(client) -> None:
    submission = Submission.objects.exclude(case_number="P-26-0777").get()
    rows = [submission]
    for assessment in submission.assessments.all():
        rows.append(assessment)
        rows.extend(assessment.scenarios.all())
        rows.extend(assessment.decisions.all())
    for row in rows:
        row.full_clean()
        for field in row._meta.concrete_fields:
            value = field.value_from_object(row)
            assert not (isinstance(value, float) and not math.isfinite(value)), (row, field.name)
    urls = [f"/cases/{submission.pk}/"]
    for assessment in submission.assessments.all():
        urls.append(f"/assessments/{assessment.pk}/")
        urls.extend(f"/scenarios/{scenario.pk}/" for scenario in assessment.scenarios.all())
    for url in urls:
        assert client.get(url).status_code < 500, url


def test_an_over_long_rating_reason_is_refused_as_the_form_refuses_it(sent, tmp_path):
    """The rating override's reason has its own limit (``limits.TEXT_LIMITS``), which the
    notes form reads (``RATING_REASON_LIMIT``) and the import enforces in the same words."""
    from assessments.forms.cases import RATING_REASON_LIMIT

    sent["assessments"][1]["occupational_exposure_rating_reason"] = "r" * (RATING_REASON_LIMIT + 1)
    message = refused(tmp_path, sent, startswith="assessments[1]: occupational_exposure_rating_reason: ")
    assert f"{RATING_REASON_LIMIT:,}" in message
