"""The IRER's doses, airborne concentrations and TLV/PEL, read back from
the PDF: beside each use's exposure blocks a compact table of each estimate's mg/day with
its mg/m³ and ppm (inhalation, where the engine gives them) and its APDR, ADD and LADD,
the dose basis once per use; the TLV/PEL in the header as value, unit and note; flags
where an airborne concentration is above the limit. The doses print once, in that table,
under the IRER's labels (no second summary of them across the uses). A result stored
before the engine reported doses prints "not computed: recompute
the use", never a dose."""

from __future__ import annotations

import re

import pytest

from assessments import services
from assessments.models import Scenario
from assessments.reports.context import irer_context
from assessments.reports.document import text_of
from assessments.reports.render import irer_html, irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.reports import reading
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def sample_text(sample_pdf):
    return flat(pdf_text(sample_pdf))


@pytest.fixture
def volatile(reviewer):
    """Photoresist 2010, a volatile chemical (VP 5 torr, MW 100): the engine adds inhalation
    estimates from vapour (mg/m³ and ppm); the case's limit is 1 ppm."""
    case = make_submission(case_number="P-26-0900", vapour_pressure_torr=5.0, molecular_weight=100.0,
                           tlv_pel_value=1.0, tlv_pel_unit="ppm", tlv_pel="ACGIH TLV 2024")
    assessment = make_assessment(case, reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010", title="Volatile use")
    services.scenario_compute(scenario=use, by=reviewer)
    return assessment


def test_the_sample_prints_the_doses_beside_each_mg_day(sample_text):
    # Exposure A, 0.7 × 535 × 1 × 0.15 = 56.175 mg/day (low end) and 2.1 × 535 × 0.15 = 168.525 (high end);
    # body weight 80 kg, 250 days/yr, 40 working years, averaging 40 and 70 yr:
    # APDR 56.175 / 80 = 0.702; ADD 56.175 × 250 × 40 / (80 × 40 × 365) = 0.481; LADD × 40/70 = 0.275.
    assert "A Dermal Low End of Range 5.6E+1 7.0E-1 4.8E-1 2.7E-1" in sample_text
    # 168.525 / 80 = 2.11; × 250 / 365 = 1.44; × 40/70 = 0.825.
    assert "A Dermal High End of Range 1.7E+2 2.1E+0 1.4E+0 8.2E-1" in sample_text


def test_the_dose_basis_is_printed_once_per_use(sample_text):
    assert sample_text.count("Dose basis: body weight 80 kg; 40 working years; averaging time 40 yr (ADD), 70 yr (LADD)") == 1


def test_the_sample_keeps_its_printed_exposure_lines(sample_text):
    assert "Low End of Range: 5.6E+1 mg/day. basis:" in sample_text and "High End of Range: 1.7E+2 mg/day. basis:" in sample_text


def test_the_doses_are_printed_once(sample_text):
    # Exposure A's high end: APDR 2.1E+0, ADD 1.4E+0, LADD 8.2E-1, in the use's table only.
    assert sample_text.count("2.1E+0 1.4E+0 8.2E-1") == 1
    assert "OCCUPATIONAL EXPOSURE SUMMARY" not in sample_text.upper().replace("OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY", "")


def test_the_header_prints_the_limit_and_inhalation_is_flagged_against_it(volatile):
    text = flat(pdf_text(irer_pdf(irer_context(assessment=volatile))))
    assert "TLV/PEL: 1 ppm (ACGIH TLV 2024)" in text
    assert "mg/day mg/m³ ppm APDR ADD LADD TLV/PEL" in text  # the use's doses table
    assert "above the TLV/PEL of 1 ppm" in text and "not above the TLV/PEL of 1 ppm" in text


def test_each_inhalation_flag_follows_the_engines_concentration(volatile):
    context = irer_context(assessment=volatile)
    use = volatile.scenarios.get()
    inhalation = [e for x in use.result["exposures"] if x["route"] == "inhalation" for e in x["estimates"]]
    [table] = reading.tables(context, "doses")
    limit_column = [text_of(c.content) for c in table.head].index("TLV/PEL")
    rows = [row for row in reading.cells(table) if text_of(row[1].content) == "Inhalation"]
    assert len(rows) == len(inhalation) > 0
    for row, estimate in zip(rows, inhalation):
        limit = row[limit_column]
        assert (limit.cls == "above") == (estimate["ppm"] > 1.0)
        assert text_of(limit.content) == ("above" if estimate["ppm"] > 1.0 else "not above") + " the TLV/PEL of 1 ppm"
    assert all(text_of(row[limit_column].content) == "—" for row in reading.cells(table)
               if text_of(row[1].content) == "Dermal")


def test_a_result_stored_before_doses_prints_recompute_and_no_dose(sample_assessment):
    use = sample_assessment.scenarios.get()
    old = dict(use.result)
    old.pop("dose_basis", None)
    old["exposures"] = [
        {**x, "estimates": [{"label": e["label"], "mg_day": e["mg_day"], "basis": e["basis"]} for e in x["estimates"]]}
        for x in old["exposures"]
    ]
    Scenario.objects.filter(pk=use.pk).update(result=old)
    html = flat(irer_html(irer_context(assessment=sample_assessment), for_pdf=False))
    assert "Doses (APDR, ADD, LADD) and airborne concentrations: not computed: recompute the use." in html
    assert "7.0E-1" not in html and "Dose basis:" not in html


def test_the_sanitised_copy_hides_the_ppm_when_the_molecular_weight_is_claimed(volatile):
    case = volatile.submission
    case.cbi_claims = ["molecular_weight"]
    case.save()
    full = irer_context(assessment=volatile)
    sanitised = irer_context(assessment=volatile, sanitised=True)

    def inhalation(context):
        [table] = reading.tables(context, "doses")
        head = [text_of(c.content) for c in table.head]
        return [dict(zip(head, row)) for row in reading.rows(table) if row[1] == "Inhalation"]

    assert all(r["ppm"] != "[CBI]" and r["mg/m³"] != "[CBI]" for r in inhalation(full))
    # The vapour models' generation rate moves with the molecular weight, so the mg/m³ derives
    # from it; and mg/m³ and ppm side by side would give MW = mg/m³ × 24.45 / ppm away.
    rows = inhalation(sanitised)
    assert rows and all(r["ppm"] == "[CBI]" and r["mg/m³"] == "[CBI]" for r in rows)
    # The dermal estimates do not move with it: they print.
    [table] = reading.tables(sanitised, "doses")
    dermal = [row for row in reading.rows(table) if row[1] == "Dermal"]
    assert dermal and all(row[3] != "[CBI]" for row in dermal)
