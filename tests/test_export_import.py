"""Moving a case between installations: ``export_case`` then ``import_case`` into another
installation reproduces the case field by field; an import refuses, with exit status 2,
a clear message and nothing written, an existing case, missing users and bad files.

Approved work cannot be deleted (``models.ApprovedWorkLocked``; PostgreSQL triggers), so
"another installation" is this database with the case under another number and its people
under other names and ids (:func:`elsewhere`): what the import sees is the same.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from assessments import services, workflow
from assessments.models import Assessment, ReviewDecision, Scenario, Status, Submission
from assessments.roles import REVIEWER_GROUP, SUPERVISOR_GROUP
from tests._review_support import add_computed_scenario, toy_engine
from tests.conftest import make_assessment, make_submission, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_engine")]

ROOT = Path(__file__).resolve().parent.parent


# Reading a case back, independently of the code under test ---------------------------------------


def _row(instance, skip: set[str]) -> dict:
    row = {}
    for field in instance._meta.concrete_fields:
        if field.primary_key or field.name in skip:
            continue
        if field.is_relation:
            related = getattr(instance, field.name)
            row[field.name] = related.username if related is not None else None
        else:
            row[field.name] = field.value_from_object(instance)
    return row


def case_as_stored(case_number: str) -> dict:
    """Every field of the case, its assessments, scenarios and decisions (users by name)."""
    case = Submission.objects.get(case_number=case_number)
    return {
        "case": _row(case, set()),
        "assessments": [
            {
                **_row(a, {"submission"}),
                "scenarios": [_row(s, {"assessment"}) for s in a.scenarios.order_by("position", "id")],
                "decisions": [_row(d, {"assessment"}) for d in a.decisions.order_by("at", "id")],
            }
            for a in case.assessments.order_by("revision")
        ],
    }


# The case used throughout ------------------------------------------------------------------------


@pytest.fixture
def people(django_user_model):
    return {
        "engineer": make_user(django_user_model, "jsmith", group=REVIEWER_GROUP, cbi=True),
        "second": make_user(django_user_model, "akumar", group=REVIEWER_GROUP, cbi=True),
        "boss": make_user(django_user_model, "mlee", group=SUPERVISOR_GROUP, cbi=True),
    }


@pytest.fixture
def case(people):
    """A CBI case with two revisions: revision 1 returned once, then approved;
    revision 2 a draft by another engineer with a changed input, recomputed."""
    engineer, second, boss = people["engineer"], people["second"], people["boss"]
    submission = make_submission(
        case_number="P-26-0777", case_name="Photoacid generator", cas_number="144317-44-2",
        molecular_weight=562.4, vapour_pressure_torr=1.0e-6, vapour_pressure_temp_c=25.0,
        use_concentration=0.03, volume_qualifier="import_only", pbt_persistence="2", pbt_bioaccumulation="1", cbi_claims=["chemical_name", "submitter"],
        created_by=engineer,
    )
    first = make_assessment(submission, engineer)
    services.assessment_update_notes(
        assessment=first, by=engineer,
        data={"notes": "One site, 250 days.", "occupational_exposure_rating": "NR", "exposure_based_review": True,
              "occupational_exposure_rating_reason": "No exposure assessed in this review."},
    )
    add_computed_scenario(first, title="Spin coating")
    add_computed_scenario(first, title="Edge bead removal", volume=1234.5678)
    workflow.assessment_submit(assessment=first, by=engineer, note="First pass.")
    workflow.assessment_return(assessment=first, by=boss, comment="Explain Fchem.")
    workflow.assessment_submit(assessment=first, by=engineer, note="Fchem from the MSDS.")
    workflow.assessment_approve(assessment=first, by=boss, comment="Approved.")
    second_revision = workflow.assessment_revise(assessment=first, by=second)
    scenario = second_revision.scenarios.order_by("position").first()
    services.scenario_save_step(
        scenario=scenario, by=second, step="volume", values={"Qchem_yr": 9000, "Fchem": 0.25},
        reasons={"Fchem": "New MSDS, 25 %."},
    )
    services.scenario_compute(scenario=scenario, by=second)
    return submission


def export(case_number: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("export_case", case_number, stdout=out, stderr=err)
    return out.getvalue()


def import_file(path, *args):
    out = io.StringIO()
    call_command("import_case", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


OTHER_CASE = "P-26-0778"
OTHER_NAMES = {"jsmith": "j.smith", "akumar": "a.kumar", "mlee": "m.lee"}


def elsewhere(document: dict, *, people, create=tuple(OTHER_NAMES)) -> dict:
    """``document`` as it arrives in another installation: the case under ``OTHER_CASE``,
    each person under their name there (``OTHER_NAMES``), those named in ``create``
    created there with the same role, in another order (other primary keys)."""
    text = json.dumps(document).replace('"P-26-0777"', f'"{OTHER_CASE}"')
    for old, new in OTHER_NAMES.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    roles = {user.username: user.groups.get().name for user in people.values()}
    for old in reversed(list(OTHER_NAMES)):
        if old in create:
            make_user(get_user_model(), OTHER_NAMES[old], group=roles[old], cbi=True)
    return json.loads(text)


def as_elsewhere(stored: dict) -> dict:
    """``case_as_stored`` of the original case, with the number and names of ``elsewhere``."""
    text = json.dumps(stored, default=str).replace('"P-26-0777"', f'"{OTHER_CASE}"')
    for old, new in OTHER_NAMES.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def db_state():
    return [list(model.objects.order_by("pk").values()) for model in (Submission, Assessment, Scenario, ReviewDecision)] + [
        [model.history.count() for model in (Submission, Assessment, Scenario, ReviewDecision)]
    ]


def write(tmp_path, document) -> Path:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(document) if not isinstance(document, str) else document, encoding="utf-8")
    return path


# Round trip --------------------------------------------------------------------------------------


def test_export_then_import_into_another_installation_reproduces_the_case(case, people, tmp_path):
    before = as_elsewhere(case_as_stored("P-26-0777"))
    old_user_ids = {user.pk for user in people.values()}
    path = write(tmp_path, elsewhere(json.loads(export("P-26-0777")), people=people))
    new_user_ids = set(get_user_model().objects.filter(username__in=OTHER_NAMES.values()).values_list("pk", flat=True))
    assert new_user_ids.isdisjoint(old_user_ids)  # users are matched by name, not id
    message = import_file(path)

    after = json.loads(json.dumps(case_as_stored(OTHER_CASE), default=str))
    assert after == before
    first_line, *seals = message.strip().splitlines()
    assert first_line == f"Imported case {OTHER_CASE} with 2 revision(s)."
    # Revision 1's sealed copies (a CBI case: full and sanitised), drawn here: the report prints the new number.
    assert [line.split(":")[0] for line in seals] == [
        f"Revision 1's sealed {copy} copy was drawn again on import" for copy in ("full", "sanitised")]
    # Spot checks on what the comparison covers (so an empty comparison cannot pass).
    assert len(after["assessments"]) == 2
    first, second = after["assessments"]
    assert (first["status"], first["approved_by"], second["status"], second["engineer"]) == ("approved", "m.lee", "draft", "a.kumar")
    assert [d["action"] for d in first["decisions"]] == ["submit", "return", "submit", "approve"]
    assert first["decisions"][1]["comment"] == "Explain Fchem."
    assert second["scenarios"][0]["inputs"] == {"Qchem_yr": 9000, "Fchem": 0.25}
    assert second["scenarios"][0]["reasons"] == {"Fchem": "New MSDS, 25 %."}
    assert first["scenarios"][1]["inputs"]["Qchem_yr"] == 1234.5678
    assert after["case"]["is_cbi"] is True and after["case"]["vapour_pressure_torr"] == 1.0e-6


def test_imported_rows_start_their_history_with_the_import(case, people, tmp_path):
    document = json.loads(export("P-26-0777"))
    path = write(tmp_path, elsewhere(document, people=people))
    import_file(path)
    imported = Submission.objects.get(case_number=OTHER_CASE)
    rows = {
        Submission: Submission.objects.filter(pk=imported.pk),
        Assessment: Assessment.objects.filter(submission=imported),
        Scenario: Scenario.objects.filter(assessment__submission=imported),
        ReviewDecision: ReviewDecision.objects.filter(assessment__submission=imported),
    }
    for model, queryset in rows.items():
        history = model.history.filter(id__in=queryset.values("pk"))
        assert history.count() == queryset.count() > 0
        reason = f"Imported from a case export made {document['exported_at']}."
        [(kind, said)] = set(history.values_list("history_type", "history_change_reason"))
        assert kind == "+"
        if model is Submission:  # the case's record says, besides, what became of the sealed copies
            assert said.startswith(reason + " Revision 1's sealed full copy was drawn again on import")
        else:
            assert said == reason


def test_imported_approved_revision_stays_frozen_and_the_draft_can_go_on(case, people, tmp_path):
    import_file(write(tmp_path, elsewhere(json.loads(export("P-26-0777")), people=people)))
    User = get_user_model()
    akumar, mlee = User.objects.get(username="a.kumar"), User.objects.get(username="m.lee")
    first = Assessment.objects.get(submission__case_number=OTHER_CASE, revision=1)
    draft = Assessment.objects.get(submission__case_number=OTHER_CASE, revision=2)
    with pytest.raises(Exception) as refused:
        services.assessment_update_notes(assessment=first, by=akumar, data={"notes": "x"})
    assert str(refused.value) == services.EDIT_ASSESSMENT_NOT_ALLOWED
    # The imported results count as computed from their inputs: the draft can be submitted.
    workflow.assessment_submit(assessment=draft, by=akumar)
    workflow.assessment_approve(assessment=draft, by=mlee)
    draft.refresh_from_db()
    assert draft.status == Status.APPROVED


def test_export_document_has_the_format_and_version(case):
    document = json.loads(export("P-26-0777"))
    assert (document["format"], document["format_version"]) == ("pmn-review-case", 1)
    assert [a["revision"] for a in document["assessments"]] == [1, 2]
    assert document["assessments"][0]["engineer"] == "jsmith"
    assert "id" not in document["case"] and "submission" not in document["assessments"][0]


def test_export_of_a_cbi_case_warns_on_stderr(case):
    err = io.StringIO()
    call_command("export_case", "P-26-0777", stdout=io.StringIO(), stderr=err)
    assert err.getvalue().strip() == (
        "Case P-26-0777 contains confidential business information (CBI): handle the export accordingly."
    )


def test_export_to_a_file(case, tmp_path):
    path = tmp_path / "out.json"
    call_command("export_case", "P-26-0777", "--output", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert json.loads(path.read_text(encoding="utf-8"))["case"]["case_number"] == "P-26-0777"


def test_export_of_an_unknown_case_exits_2():
    with pytest.raises(CommandError) as caught:
        call_command("export_case", "P-00-0000", stdout=io.StringIO())
    assert caught.value.returncode == 2
    assert str(caught.value) == "No case P-00-0000 in this installation."


# Refusals ----------------------------------------------------------------------------------------


def refused(path, message: str, *args) -> None:
    before = db_state()
    with pytest.raises(CommandError) as caught:
        import_file(path, *args)
    assert caught.value.returncode == 2
    assert str(caught.value) == message
    assert db_state() == before


def test_import_never_overwrites_an_existing_case(case, tmp_path):
    path = write(tmp_path, export("P-26-0777"))
    refused(path, "Case P-26-0777 exists already in this installation: import refused, nothing was written.")


def test_import_names_every_missing_user_and_writes_nothing(case, people, tmp_path):
    path = write(tmp_path, elsewhere(json.loads(export("P-26-0777")), people=people, create=("jsmith",)))
    refused(
        path,
        "These users do not exist in this installation: a.kumar, m.lee. Create them first, or map each to an "
        "existing user with --map-user OLD=NEW. Nothing was written.",
    )


def test_import_maps_users_with_map_user(case, people, tmp_path, django_user_model):
    path = write(tmp_path, elsewhere(json.loads(export("P-26-0777")), people=people, create=("jsmith", "akumar")))
    make_user(django_user_model, "mary.lee", group=SUPERVISOR_GROUP, cbi=True)
    import_file(path, "--map-user", "m.lee=mary.lee")
    first = Assessment.objects.get(submission__case_number=OTHER_CASE, revision=1)
    assert first.approved_by.username == "mary.lee"
    assert set(first.decisions.exclude(action="submit").values_list("by__username", flat=True)) == {"mary.lee"}


def test_map_user_to_a_missing_user_is_refused(case, people, tmp_path):
    path = write(tmp_path, elsewhere(json.loads(export("P-26-0777")), people=people))
    refused(path, "--map-user maps to user(s) that do not exist here: nobody.", "--map-user", "m.lee=nobody")


def test_map_user_needs_old_equals_new(tmp_path):
    refused(tmp_path / "x.json", "--map-user takes OLD=NEW (user names), not 'mlee'.", "--map-user", "mlee")


@pytest.fixture
def exported(case, people):
    """The case's export as a dictionary, as another installation receives it."""
    return elsewhere(json.loads(export("P-26-0777")), people=people)


def test_missing_file_exits_2(tmp_path):
    refused(tmp_path / "nope.json", f"Cannot read {tmp_path / 'nope.json'}: No such file or directory.")


def test_not_json_exits_2(tmp_path):
    path = write(tmp_path, "{not json")
    refused(path, f"{path} is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1).")


def test_other_json_exits_2(tmp_path):
    path = write(tmp_path, {"model": "assessments.submission"})
    refused(path, f'{path} is not a case export: expected "format": "pmn-review-case".')


def test_unsupported_version_exits_2(exported, tmp_path):
    exported["format_version"] = 99
    path = write(tmp_path, exported)
    refused(path, f"{path} has format_version 99; this installation reads format_version 1.")


def test_invalid_row_is_named_and_nothing_is_written(exported, tmp_path):
    exported["assessments"][1]["scenarios"][0]["title"] = "x" * 300
    refused(write(tmp_path, exported), "assessments[1].scenarios[0]: title: Ensure this value has at most 200 characters (it has 300).")


def test_a_value_out_of_its_range_is_named_with_the_range(exported, tmp_path):
    exported["case"]["production_volume_kg_yr"] = -5
    refused(write(tmp_path, exported), "case: production_volume_kg_yr: The production volume must be greater than 0 kg/yr.")


def test_an_approved_revision_without_approver_is_refused(exported, tmp_path):
    exported["assessments"][0]["approved_by"] = None
    refused(write(tmp_path, exported), "assessments[0]: Constraint “assessment_approved_has_approver” is violated.")


def test_unknown_field_is_refused(exported, tmp_path):
    exported["assessments"][0]["colour"] = "blue"
    refused(write(tmp_path, exported), "assessments[0]: unknown field(s) colour.")


def test_a_bad_value_type_is_refused(exported, tmp_path):
    exported["assessments"][0]["decisions"][0]["at"] = "yesterday"
    refused(
        write(tmp_path, exported),
        "assessments[0].decisions[0].at: “yesterday” value has an invalid format. It must be in "
        "YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format.",
    )


def test_a_missing_timestamp_is_refused(exported, tmp_path):
    del exported["assessments"][0]["decisions"][0]["at"]
    refused(write(tmp_path, exported), "assessments[0].decisions[0].at: a date and time is required.")


def test_a_wrong_structure_is_refused(exported, tmp_path):
    exported["assessments"] = {"revision": 1}
    refused(write(tmp_path, exported), "assessments: expected a JSON list.")


def test_the_command_line_exits_2_without_a_traceback(tmp_path):
    path = write(tmp_path, "[1, 2")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    completed = subprocess.run(
        [sys.executable, "manage.py", "import_case", str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip() == f"CommandError: {path} is not valid JSON: Expecting ',' delimiter: line 1 column 6 (char 5)."


def test_every_model_field_travels(case):
    """A field added to a model is exported without touching the transfer module."""
    document = json.loads(export("P-26-0777"))
    for model, row, skip in (
        (Submission, document["case"], set()),
        (Assessment, document["assessments"][0], {"submission"}),
        # A deleted use, waiting for its undo, is not exported: nor is the mark (transfer.NOT_EXPORTED).
        (Scenario, document["assessments"][0]["scenarios"][0], {"assessment", "deleted_at"}),
        (ReviewDecision, document["assessments"][0]["decisions"][0], {"assessment"}),
    ):
        fields = {f.name for f in model._meta.concrete_fields if not f.primary_key} - skip
        assert fields <= set(row), (model.__name__, fields - set(row))
