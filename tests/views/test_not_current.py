"""Stale is never current: a use whose inputs changed since it was computed (or that was
never computed) is marked on the assessment page, the results page, the IRER preview and
PDF, and ``manage.py irer`` refuses it unless told otherwise."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from assessments import services
from assessments.presentation import NOT_COMPUTED, NOT_CURRENT
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def stale(reviewer):
    """A computed use whose concentration was then changed without computing again."""
    case = make_submission(case_number="P-26-0777", production_volume_kg_yr=5000, use_concentration=0.15)
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010",
                                     title="Spin coating")
    services.scenario_compute(scenario=scenario, by=reviewer)
    services.scenario_save_step(scenario=scenario, by=reviewer, step="production",
                                values={"Qchem_yr": "5000", "Fchem": "0.3"}, reasons={"Fchem": "Amended MSDS"})
    return scenario


def test_assessment_page_marks_a_stale_use_and_its_totals(client, reviewer, stale):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{stale.assessment.pk}/").content.decode()
    assert "not current: inputs changed since computed" in html
    assert "Includes results that are not current: “Spin coating”" in html


def test_fresh_use_is_not_marked(client, reviewer, stale):
    services.scenario_compute(scenario=stale, by=reviewer)
    client.force_login(reviewer)
    html = client.get(f"/assessments/{stale.assessment.pk}/").content.decode()
    assert "not current" not in html.lower()
    preview = client.get(f"/assessments/{stale.assessment.pk}/irer/").content.decode()
    assert "NOT CURRENT" not in preview


def test_results_page_says_the_figures_are_not_current(client, reviewer, stale):
    client.force_login(reviewer)
    html = client.get(f"/scenarios/{stale.pk}/").content.decode()
    assert NOT_CURRENT in html


def test_irer_preview_marks_the_first_page_and_the_use(client, reviewer, stale):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{stale.assessment.pk}/irer/").content.decode()
    first_use = html.index('<section class="use">')
    assert html.index("NOT CURRENT") < first_use  # on the first page, before the uses
    assert f"Use 1, Spin coating: {NOT_CURRENT}" in html
    assert html.count(NOT_CURRENT) >= 3  # first page, beside the use, beside its mass balance


def test_irer_pdf_prints_not_current(stale):
    text = " ".join(pdf_text(irer_pdf(irer_context(assessment=stale.assessment))).split())
    assert "NOT CURRENT" in text.split("page 1 of")[0]
    assert NOT_CURRENT in text


def test_uncomputed_use_is_marked_in_the_report(client, reviewer, stale):
    services.scenario_add(assessment=stale.assessment, by=reviewer, scenario_key="cvd-2015", title="Deposition")
    client.force_login(reviewer)
    html = client.get(f"/assessments/{stale.assessment.pk}/irer/").content.decode()
    assert f"Use 2, Deposition: {NOT_COMPUTED}" in html


def test_irer_command_refuses_a_stale_use_with_exit_2(stale, tmp_path, capsys):
    out = tmp_path / "r.pdf"
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", "P-26-0777", "-o", str(out))
    assert exit_info.value.code == 2
    assert f"Use “Spin coating”: {NOT_CURRENT}." in capsys.readouterr().err
    assert not out.exists()


def test_irer_command_writes_a_stale_report_when_allowed(stale, tmp_path):
    out = tmp_path / "r.pdf"
    call_command("irer", "P-26-0777", "--allow-stale", "-o", str(out))
    assert NOT_CURRENT in " ".join(pdf_text(out.read_bytes()).split())
