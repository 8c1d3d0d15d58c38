"""CBI redaction, for every registered scenario × every claimable case field.

A case carries a distinctive value in each claimable field; one field at a time is
claimed, a use of each scenario is added (prefilled from the case by the engine's
``from_case`` declarations) and computed, and the sanitised report (the HTML preview
and the PDF's text) must not print the claimed value in any spelling, while the full
copy does (so the search itself is shown to find what it looks for).
"""

from __future__ import annotations

import html
import re

import pytest

from assessments import services
from assessments.esd import registry
from assessments.models import Submission
from assessments.reports.context import irer_context
from assessments.reports.render import irer_html, irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db

# Values no scenario would print unless it prints the claimed field.
DISTINCT = {
    "submitter": "Zyxwvut Fabrication Ltd",
    "chemical_name": "3-Quuxyl-qorbane sulfonate",
    "cas_number": "76543-21-9",  # shares no digits run with the claimed numbers below
    "production_volume_kg_yr": 98765.4,
    "molecular_weight": 473.21,
    "use_description": "Qorbane resist for gallium wafers",
    "other_uses": "Plovercraft inks",
    "use_concentration": 0.0371,
    "consumer_use": "Snorkelwidget toys",
}
assert set(DISTINCT) == set(Submission.CBI_CLAIMABLE), "every claimable field needs a distinctive value"

# The spellings a leak would take: three or more significant figures in every format the
# engine's prose, the trace and the report's figures use (two figures, e.g. 4.7E+2, are
# too common to search for and reveal little).
SPELLINGS = {
    "production_volume_kg_yr": ("98765.4", "98,765.4", "98,765", "98765", "9.88E+4", "9.877E+4", "9.88e+04", "98800",
                                "98,800", "9.8765E+4"),
    "molecular_weight": ("473.21", "473.2", "473", "4.73E+2", "4.732E+2", "4.73e+02"),
    "use_concentration": ("0.0371", "3.71%", "3.71 %", "3.71E-2", "3.71e-02", "0.037100"),
}


def _spellings(field: str) -> tuple[str, ...]:
    return SPELLINGS.get(field, (DISTINCT[field],))


def _found(text: str, spelling: str) -> bool:
    pattern = rf"(?<![\w.,]){re.escape(spelling)}(?![\w]|[.,]\d)"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def _plain(page: str) -> str:
    text = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(text))


def _computed_case(reviewer, scenario_key: str, claimed: str):
    case = make_submission(
        generic_name="Substituted sulfonate salt",
        physical_state="liquid",
        vapour_pressure_torr=2.5,
        cbi_claims=[claimed],
        **DISTINCT,
    )
    assessment = make_assessment(case, reviewer, notes=f"Reviewed with {DISTINCT['submitter']}'s data sheet.")
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=scenario_key)
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


SCENARIO_KEYS = [scenario.key for scenario in registry.scenarios()]
PAIRS = [(key, field) for key in SCENARIO_KEYS for field in Submission.CBI_CLAIMABLE]


@pytest.mark.parametrize(("scenario_key", "field"), PAIRS)
def test_sanitised_preview_never_prints_a_claimed_value(reviewer, scenario_key, field):
    assessment = _computed_case(reviewer, scenario_key, field)
    sanitised = _plain(irer_html(irer_context(assessment=assessment, sanitised=True), for_pdf=False))
    full = _plain(irer_html(irer_context(assessment=assessment, sanitised=False), for_pdf=False))
    leaks = [s for s in _spellings(field) if _found(sanitised, s)]
    assert not leaks, f"{scenario_key}: claimed {field} printed as {leaks}"
    assert any(_found(full, s) for s in _spellings(field)), f"the full copy must show {field}"
    assert "[CBI]" in sanitised


#: The PDF draws the same document as the preview (``reports.document``); what only the PDF
#: adds is its page furniture (running header and footer, the title, the watermark), which
#: does not depend on the scenario. So each field is claimed in one PDF, the scenarios taken
#: in turn (every scenario and every field appear); every scenario's PDF with every field
#: claimed is ``test_sanitised_copy_property.test_the_pdf_text_is_the_same_too``.
PDF_PAIRS = [(SCENARIO_KEYS[n % len(SCENARIO_KEYS)], field) for n, field in enumerate(Submission.CBI_CLAIMABLE)]
assert {key for key, _ in PDF_PAIRS} == set(SCENARIO_KEYS) or len(SCENARIO_KEYS) > len(PDF_PAIRS)


@pytest.mark.parametrize(("scenario_key", "field"), PDF_PAIRS)
def test_sanitised_pdf_never_prints_a_claimed_value(reviewer, scenario_key, field):
    assessment = _computed_case(reviewer, scenario_key, field)
    text = re.sub(r"\s+", " ", pdf_text(irer_pdf(irer_context(assessment=assessment, sanitised=True))))
    leaks = [s for s in _spellings(field) if _found(text, s)]
    assert not leaks, f"{scenario_key}: claimed {field} printed in the PDF as {leaks}"
    assert "[CBI]" in text


def test_synthetic_scenario_is_redacted_from_its_declarations(reviewer, synthetic):
    for field in ("molecular_weight", "use_concentration", "production_volume_kg_yr"):
        assessment = _computed_case(reviewer, synthetic.key, field)
        sanitised = _plain(irer_html(irer_context(assessment=assessment, sanitised=True), for_pdf=False))
        full = _plain(irer_html(irer_context(assessment=assessment, sanitised=False), for_pdf=False))
        assert not [s for s in _spellings(field) if _found(sanitised, s)], field
        # The synthetic scenario prints the value in its trace and basis: the full copy shows it there.
        param = next(p for p in synthetic.params.params if p.from_case == field)
        # named by its symbol, or, for a key of the scenario's own, by its label (issue 26)
        name = param.shown_symbol or param.label[:1].lower() + param.label[1:]
        assert re.search(rf"{re.escape(name)} = \S", full)
        assert f"{name} = [CBI]" in sanitised
