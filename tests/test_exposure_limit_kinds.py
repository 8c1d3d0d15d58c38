"""The TLV/PEL's kind (spec/INTERFACE.md, "Additions, version 3"; issue 26): a case's limit is
an 8-hour TWA, a 15-minute STEL or a ceiling, and each inhalation estimate's flag compares the
matching concentration (``assessments.exposure_limits``):

- an 8-hour TWA with the estimate's 8-hour TWA, as before the kind existed;
- a STEL with the highest 15-minute average of the task, C × min(t, 15) / 15 (ACGIH's TLV-STEL,
  a 15-minute TWA; no exposure outside the task, the TWA's own assumption);
- a ceiling with the concentration during the task (29 CFR 1910.1000(a)(1): "at no time");
- never a short-term limit with the 8-hour TWA: where the estimate has no task concentration,
  the flag says it cannot be compared, and why.

The kind is a field of the case on every way in and out (form, admin, import and export, the
database, history, the case as approved), existing cases keep their meaning (8-hour TWA), and
the pages and the IRER name it.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from assessments import exposure_limits, presentation, services, transfer
from assessments.exposure_limits import (
    ABOVE,
    CANNOT_COMPARE,
    NOT_ABOVE,
    RECOMPUTE,
    ExposureLimit,
    tlv_pel_text,
)
from assessments.models import TLV_PEL_KIND_INVALID, ExposureLimitKind, Submission, case_snapshot
from assessments.reports.context import irer_context
from assessments.reports.render import irer_html
from assessments.timeline import assessment_history
from tests.conftest import admin_case_post, make_assessment, make_submission
from tests.exposure_limit_fixtures import TWA_5, check
from tests.views.test_cases import VALID

CEILING_5 = ExposureLimit(5.0, "mg/m3", ExposureLimitKind.CEILING)
STEL_5 = ExposureLimit(5.0, "mg/m3", ExposureLimitKind.STEL_15MIN)
# The case: a one-minute task at 6 mg/m³ is 6 × 1 / 480 = 0.0125 mg/m³ as an 8-hour TWA.
ONE_MINUTE = {"mg_day": 0.125, "mg_m3": 0.0125, "ppm": None, "task_mg_m3": 6.0, "task_ppm": None, "task_minutes": 1.0}
# ESD 2015 (CVD) App. C/D sample (tests/esd/test_task_concentration.py): 1.22355 ppm for 1 min a day.
APP_D = {"Qchem_yr": 10000, "supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100}


# The rule --------------------------------------------------------------------------------------


def test_a_ceiling_is_compared_with_the_task_concentration_not_the_twa():
    # The issue: 0.0125 mg/m³ as a TWA is far below 5 mg/m³, but for the minute of the task the
    # worker breathes 6 mg/m³ (480 times the TWA), above a ceiling that is never to be exceeded.
    assert ONE_MINUTE["task_mg_m3"] / ONE_MINUTE["mg_m3"] == 480
    outcome = check(ONE_MINUTE, CEILING_5)
    assert outcome.state == ABOVE
    assert outcome.text == "above the ceiling of 5 mg/m³: 6 mg/m³ during the task (1 min a day)"
    assert check({**ONE_MINUTE, "task_mg_m3": 4.0}, CEILING_5).text.startswith("not above the ceiling of 5 mg/m³")


def test_an_8_hour_twa_limit_is_compared_with_the_twa_as_before():
    outcome = check(ONE_MINUTE, TWA_5)
    assert outcome.state == NOT_ABOVE and outcome.text == "not above the TLV/PEL of 5 mg/m³"
    assert check({**ONE_MINUTE, "mg_m3": 7.5}, TWA_5).text == "above the TLV/PEL of 5 mg/m³"


@pytest.mark.parametrize(("task", "minutes", "state", "average"), [
    (6.0, 1.0, NOT_ABOVE, "0.4"),     # 6 × 1 / 15 = 0.4 mg/m³
    (48.0, 2.0, ABOVE, "6.4"),        # 48 × 2 / 15 = 6.4 mg/m³
    (6.0, 30.0, ABOVE, "6"),          # 15 minutes within a 30-minute task: 6 mg/m³
    (4.0, 30.0, NOT_ABOVE, "4"),
])
def test_a_stel_is_compared_with_the_highest_15_minute_average_of_the_task(task, minutes, state, average):
    outcome = check({**ONE_MINUTE, "task_mg_m3": task, "task_minutes": minutes}, STEL_5)
    assert outcome.state == state
    assert outcome.text.startswith(f"{'above' if state == ABOVE else 'not above'} the 15-minute STEL of 5 mg/m³: "
                                   f"15-minute average {average} mg/m³")


def test_a_ppm_ceiling_converts_the_task_concentration_with_the_molecular_weight():
    # 6 mg/m³ × 24.45 / 100 g/mol = 1.467 ppm, above a 1 ppm ceiling
    outcome = check(ONE_MINUTE, ExposureLimit(1.0, "ppm", ExposureLimitKind.CEILING), mw=100.0)
    assert outcome.state == ABOVE and "1.47 ppm during the task" in outcome.text
    no_mw = check(ONE_MINUTE, ExposureLimit(1.0, "ppm", ExposureLimitKind.CEILING), mw=None)
    assert no_mw.state == CANNOT_COMPARE and "no molecular weight" in no_mw.text


def test_without_a_task_concentration_a_short_term_limit_is_not_compared_with_the_twa():
    full_shift = {**ONE_MINUTE, "task_mg_m3": None, "task_ppm": None, "task_minutes": None}
    for limit, name in ((CEILING_5, "ceiling"), (STEL_5, "15-minute STEL")):
        outcome = check(full_shift, limit)
        assert outcome.state == CANNOT_COMPARE and not outcome.above
        assert outcome.text == exposure_limits.NO_TASK.format(name=name, limit="5 mg/m³")
        assert "not above" not in outcome.text


def test_a_result_stored_before_task_concentrations_says_recompute():
    stored = {"mg_day": 0.125, "mg_m3": 0.0125, "ppm": None, "apdr_mg_kg_day": 0.0016}
    outcome = check(stored, CEILING_5)
    assert outcome.state == RECOMPUTE
    assert outcome.text == ("not computed: recompute the use to compare it with the ceiling of 5 mg/m³ (the stored "
                            "result has no concentration during the task)")
    assert check(stored, TWA_5).state == NOT_ABOVE  # an 8-hour TWA limit still reads the stored TWA


def test_the_limit_prints_its_kind():
    assert (TWA_5.text, CEILING_5.text, STEL_5.text) == ("5 mg/m³", "5 mg/m³ ceiling", "5 mg/m³ 15-minute STEL")


# The engine's estimate against the case's limit -------------------------------------------------


def test_the_cvd_supplier_sample_is_above_a_1_ppm_ceiling_and_not_above_a_1_ppm_twa():
    from assessments.esd import registry

    data = registry.compute("cvd-2015", APP_D).as_dict()
    [estimate] = data["exposures"][0]["estimates"]
    # 1.22355 ppm for one minute; 0.10426 mg/day / 10 m³ = 0.010426 mg/m³ × 24.45 / 100 = 0.002549 ppm as a TWA
    ceiling = check(estimate, ExposureLimit(1.0, "ppm", ExposureLimitKind.CEILING), result=data)
    assert ceiling.state == ABOVE and ceiling.text == "above the ceiling of 1 ppm: 1.22 ppm during the task (1 min a day)"
    assert check(estimate, ExposureLimit(1.0, "ppm"), result=data).state == NOT_ABOVE
    # 15-minute average 1.22355 × 1 / 15 = 0.0816 ppm: not above a 1 ppm STEL, above a 0.05 ppm one
    assert check(estimate, ExposureLimit(1.0, "ppm", ExposureLimitKind.STEL_15MIN), result=data).state == NOT_ABOVE
    assert check(estimate, ExposureLimit(0.05, "ppm", ExposureLimitKind.STEL_15MIN), result=data).state == ABOVE


# The case's field ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_case_has_an_8_hour_twa_limit_unless_told_otherwise():
    case = make_submission(tlv_pel_value=5.0, tlv_pel_unit="mg/m3")
    assert case.tlv_pel_kind == ExposureLimitKind.TWA_8H
    assert exposure_limits.case_limit(case) == TWA_5


@pytest.mark.django_db
def test_the_form_saves_the_kind_and_the_case_page_and_header_print_it(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "tlv_pel_value": "5", "tlv_pel_unit": "mg/m3",
                                            "tlv_pel_kind": "ceiling", "tlv_pel": "OSHA PEL"})
    assert response.status_code == 302
    case = Submission.objects.get(case_number=VALID["case_number"])
    assert case.tlv_pel_kind == "ceiling"
    assert tlv_pel_text(case) == "5 mg/m³ ceiling (OSHA PEL)"
    page = client.get(case.get_absolute_url()).content.decode()
    assert "5 mg/m³ ceiling" in page
    form = client.get(f"/cases/{case.pk}/edit/").content.decode()
    assert '<option value="stel_15min">STEL (15-minute)</option>' in form


@pytest.mark.django_db
def test_the_form_refuses_a_kind_not_in_the_list_and_saves_nothing(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "tlv_pel_value": "5", "tlv_pel_unit": "mg/m3",
                                            "tlv_pel_kind": "peak"})
    assert response.status_code == 200
    assert response.context["form"].errors["tlv_pel_kind"] == [TLV_PEL_KIND_INVALID]
    assert not Submission.objects.exists()


@pytest.mark.django_db
def test_a_form_posted_without_the_kind_means_an_8_hour_twa(client, reviewer):
    # A case page opened before the kind existed posts no kind: the limit keeps the meaning it had.
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "tlv_pel_value": "5", "tlv_pel_unit": "mg/m3"})
    assert response.status_code == 302
    assert Submission.objects.get(case_number=VALID["case_number"]).tlv_pel_kind == ExposureLimitKind.TWA_8H


@pytest.mark.django_db
def test_the_admin_refuses_a_bad_kind_with_the_same_words(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    case = make_submission()
    client.force_login(admin)
    url, data = admin_case_post(client, case, tlv_pel_value="5", tlv_pel_unit="ppm", tlv_pel_kind="peak")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "tlv_pel_kind" in response.context["adminform"].form.errors
    response = client.post(url, data | {"tlv_pel_kind": "stel_15min"})
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.tlv_pel_kind == "stel_15min"


@pytest.mark.django_db
def test_the_database_refuses_a_kind_not_in_the_list():
    case = make_submission()
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.filter(pk=case.pk).update(tlv_pel_kind="peak")


@pytest.mark.django_db
def test_an_export_carries_the_kind_and_the_import_keeps_it():
    case = make_submission(case_number="P-26-0801", tlv_pel_value=2.0, tlv_pel_unit="ppm", tlv_pel_kind="ceiling")
    document = transfer.case_export(case_number=case.case_number)
    assert document["case"]["tlv_pel_kind"] == "ceiling"
    case.delete()
    imported = transfer.case_import(document=document)
    assert (imported.tlv_pel_value, imported.tlv_pel_unit, imported.tlv_pel_kind) == (2.0, "ppm", "ceiling")


@pytest.mark.django_db
def test_an_export_from_before_the_kind_imports_as_an_8_hour_twa():
    case = make_submission(case_number="P-26-0802", tlv_pel_value=2.0, tlv_pel_unit="ppm")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    del document["case"]["tlv_pel_kind"]
    assert transfer.case_import(document=document).tlv_pel_kind == ExposureLimitKind.TWA_8H


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["peak", "", "Ceiling"])
def test_the_import_refuses_a_bad_kind_as_the_form_does(kind):
    case = make_submission(case_number="P-26-0803")
    document = transfer.case_export(case_number=case.case_number)
    case.delete()
    document["case"].update(tlv_pel_value=2.0, tlv_pel_unit="ppm", tlv_pel_kind=kind)
    with pytest.raises(transfer.TransferError) as caught:
        transfer.case_import(document=document)
    assert "tlv_pel_kind" in str(caught.value)
    if kind:  # a blank is refused as blank (the field is required), a wrong one in the form's words
        assert TLV_PEL_KIND_INVALID in str(caught.value)
    assert not Submission.objects.exists()


@pytest.mark.django_db
def test_the_history_and_the_case_as_approved_keep_the_kind(reviewer):
    case = make_submission(tlv_pel_value=5.0, tlv_pel_unit="mg/m3")
    assessment = make_assessment(case, reviewer)
    assert case_snapshot(case)["tlv_pel_kind"] == "twa_8h"
    data = {name: getattr(case, name) for name in case_snapshot(case) if name != "cbi_claims"}
    services.submission_update(submission=case, by=reviewer, data=data | {"tlv_pel_kind": "ceiling"}, cbi_claims=[],
                               seen_version=case.version)
    changes = [c for entry in assessment_history(assessment=assessment) for c in entry.changes
               if c.name == "tlv_pel_kind"]
    assert any((c.field, c.old, c.new) == ("TLV/PEL kind", "8-hour TWA", "Ceiling") for c in changes)


# The pages and the report ---------------------------------------------------------------------


@pytest.fixture
def ceiling_case(reviewer):
    """The CVD supplier sample (a one-minute task at 1.22 ppm) and a case whose limit is a 1 ppm ceiling."""
    case = make_submission(case_number="P-26-0910", vapour_pressure_torr=2000.0, molecular_weight=100.0,
                           production_volume_kg_yr=10000.0, tlv_pel_value=1.0, tlv_pel_unit="ppm",
                           tlv_pel_kind="ceiling", tlv_pel="ACGIH TLV-C 2024")
    assessment = make_assessment(case, reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="Supplier")
    use.inputs = {**use.inputs, **APP_D}
    use.save()
    services.scenario_compute(scenario=use, by=reviewer)
    return assessment


@pytest.mark.django_db
def test_the_exposure_summary_names_the_kind_and_flags_the_task(ceiling_case):
    summary = presentation.exposure_summary(assessment=ceiling_case)
    assert summary["limit"] == "1 ppm ceiling"
    assert summary["limit_compared"] == "compared with each inhalation estimate's concentration during its task"
    [group] = [g for g in summary["groups"] if g["route"] == "inhalation"]
    assert group["any_above"]
    [limit_row] = [row for row in group["rows"] if row["kind"] == "limit"]
    assert [c.text for c in limit_row["cells"] if c] == ["above the ceiling of 1 ppm: 1.22 ppm during the task (1 min a day)"]


@pytest.mark.django_db
def test_the_irer_prints_the_kind_in_the_header_and_the_flags(ceiling_case):
    html = irer_html(irer_context(assessment=ceiling_case), for_pdf=False)
    assert "1 ppm ceiling (ACGIH TLV-C 2024)" in html
    assert "above the ceiling of 1 ppm: 1.22 ppm during the task (1 min a day)" in html
    assert "not above the ceiling" not in html


# The migration --------------------------------------------------------------------------------

BEFORE = ("assessments", "0015_case_number_ranges")
AFTER = ("assessments", "0016_submission_tlv_pel_kind")


@pytest.fixture
def migrator(transactional_db):
    """The project's migrations back to 0015 and forward again; the database is left at the latest."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_existing_limits_become_8_hour_twas(migrator):
    old = migrator.loader.project_state([BEFORE]).apps.get_model("assessments", "Submission")
    case = old.objects.create(case_number="P-18-0124", submitter="Acme", chemical_name="c", generic_name="g",
                              production_volume_kg_yr=5000, use_description="u", tlv_pel_value=5.0,
                              tlv_pel_unit="mg/m3")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps.get_model("assessments", "Submission")
    assert new.objects.get(pk=case.pk).tlv_pel_kind == "twa_8h"
