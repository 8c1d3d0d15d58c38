"""Two cases that differ only in their claimed values, and their sanitised copies as text:
what ``test_sanitised_copy_property.py`` compares.

A case is built from the claimed values given and from everything else fixed here; the
people's words in it (the notes, a use's title, the engineer's report text for a release)
quote the claimed values, as a person might, so they differ between the two cases exactly
as the claimed values do. A use of the scenario is added (its inputs prefilled from the
case by the engine's ``from_case`` declarations), taken down a branch, given the
submitter's site data when asked, and computed.
"""

from __future__ import annotations

import io
import itertools
import re

from django.core.exceptions import ValidationError
from docx import Document

from assessments import input_rules, services
from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError
from assessments.models import Submission
from assessments.reports.context import irer_context
from assessments.reports.derivation import NUMERIC_CLAIMS
from assessments.reports.docx import irer_docx
from assessments.reports.html import report_html
from assessments.reports.render import irer_html
from tests.conftest import make_assessment, make_submission
from tests.contract.varied_inputs import BRANCHES, SITE_DATA

NUMERIC = NUMERIC_CLAIMS
CLAIMABLE = Submission.CBI_CLAIMABLE
_numbers = itertools.count(1)

#: What stays the same in both cases.
FIXED = {
    "generic_name": "Substituted onium salt",
    "physical_state": "liquid",
    "vapour_pressure_torr": 5.0,
    "vapour_pressure_temp_c": 25.0,
}
#: Every claimable field's value when it is not the one varied.
PLAIN = {
    "submitter": "Acme Photochemicals",
    "chemical_name": "2-Example-ethyl photoacid",
    "cas_number": "12345-67-8",
    "production_volume_kg_yr": 5000.0,
    "molecular_weight": 200.0,
    "use_description": "Component of a photoresist.",
    "other_uses": "Inks",
    "use_concentration": 0.15,
    "consumer_use": "None",
}


def branch_for(key: str, index: int) -> dict:
    """A branch of :data:`BRANCHES` the scenario has, none that sets a claimed input."""
    params = registry.get(key).params
    carried = {p.symbol for p in params.params if p.from_case}
    usable = [b for b in BRANCHES if all(k in params for k in b) and not carried & set(b)]
    return dict(usable[index % len(usable)]) if usable and index >= 0 else {}


def people_words(values: dict) -> dict:
    """Notes and titles as a reviewer might write them, quoting the claimed values."""
    pv, mw, conc = values["production_volume_kg_yr"], values["molecular_weight"], values["use_concentration"]
    return {
        "notes": (f"{values['submitter']} sent a data sheet for {values['chemical_name']} (CAS {values['cas_number']}): "
                  f"{pv:,.1f} kg/yr at {conc * 100:.1f} %, MW {mw:g}.\nUse: {values['use_description']}; "
                  f"also {values['other_uses']}, {values['consumer_use']}."),
        "pollution_prevention": f"{values['submitter']} recycles {pv / 3:,.0f} kg/yr.",
        "title": f"Line at {values['submitter']}, {pv:g} kg/yr",
        "release_basis": f"The submitter reports {pv * 0.01:.3g} kg/yr from this source.",
    }


def build(key: str, values: dict, claims: list[str], *, branch: dict, site_data: bool, reviewer,
          tlv_ppm: bool = False):
    """An assessment of a case with ``values`` (claimed: ``claims``) and one computed use of
    ``key``; None when the engine refuses the branch for these values."""
    words = people_words(values)
    case = make_submission(
        case_number=f"P-27-{next(_numbers):04d}",
        case_name=f"Review of {values['chemical_name']}",
        cbi_claims=list(claims),
        **({"tlv_pel_value": 1.0, "tlv_pel_unit": "ppm", "tlv_pel": "ACGIH TLV"} if tlv_ppm else {}),
        **FIXED,
        **values,
    )
    assessment = make_assessment(case, reviewer, notes=words["notes"], pollution_prevention=words["pollution_prevention"])
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key, title=words["title"])
    scenario.inputs = {**scenario.inputs, **branch}
    if site_data:
        scenario.inputs["site_specific"] = input_rules.clean_site_entries([SITE_DATA])
    scenario.release_texts = {"1": {"basis": words["release_basis"], "to": ""}}
    scenario.save()
    try:
        services.scenario_compute(scenario=scenario, by=reviewer)
    except (ValidationError, EngineValidationError):  # a branch these values cannot take: not this test's subject
        return None
    return assessment


def _case_free(text: str, assessment) -> str:
    """``text`` with the case's own number and ids, which differ between any two cases, made alike."""
    text = text.replace(assessment.submission.case_number, "CASE")
    return re.sub(r"P-27-\d{4}", "CASE", text)


def docx_text(data: bytes) -> str:
    document = Document(io.BytesIO(data))
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            lines += [cell.text for cell in row.cells]
    section = document.sections[0]
    for part in (section.header, section.first_page_header, section.footer, section.first_page_footer):
        lines += [p.text for p in part.paragraphs]
    return "\n".join(lines)


def sanitised_copies(assessment) -> dict[str, str]:
    """The sanitised copy as the writers print it: the sheet as the PDF and the preview
    draw it, the PDF's whole HTML, and the Word document's text."""
    context = irer_context(assessment=assessment, sanitised=True)
    document = context["document"]
    copies = {
        "sheet (print)": report_html(document, preview=False),
        "sheet (preview)": report_html(document, preview=True),
        "pdf html": irer_html(context, for_pdf=True),
        "word": docx_text(irer_docx(context)),
    }
    return {name: _case_free(text, assessment) for name, text in copies.items()}


def first_difference(a: str, b: str) -> str:
    """Where two texts part, for a failure message."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"...{a[max(0, i - 120):i + 80]!r}\n   vs ...{b[max(0, i - 120):i + 80]!r}"
    return f"lengths {len(a)} and {len(b)}"
