"""The IRER as ChemSTEER prints it: the quick start's sample case (demo data: ChemSTEER's
daily-use basis, releases only) gives the release blocks of the EPA 2018 update's sample
IRER (§7, seed 002) line by line, its release total and its header lines; the text layer
reads in order (no watermark letters, no hidden running text, each label before its value);
the blocks print in the seed's order: the releases heading by heading as the seed prints
them, RELEASE TOTAL last, inhalation before dermal.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from assessments import services
from assessments.models import Assessment, IrerNote
from assessments.reports.context import irer_context
from assessments.reports.document import plain_text
from assessments.reports.render import irer_pdf
from tests.reports import reading

pytestmark = pytest.mark.django_db

#: The seed sample's release blocks (§7, pp. 7-4 and 7-5), as printed: heading, label,
#: kg/site-day, days, sites, kg/site-yr, kg/yr-all sites, to:, from:.
SAMPLE_BLOCKS = (
    ("Water", "Output 2", "1.6E-1", "360", "3", "5.8E+1", "1.7E+2",
     "On-Site Wastewater Treatment (per revised ESD)", "Waste Developer Solution"),
    ("Water or Incineration", "Output 2", "1.6E-1", "360", "3", "5.8E+1", "1.7E+2",
     "On-Site Wastewater Treatment or Incineration(per revised ESD)", "Etching and Stripping Waste"),
    ("Incineration", "High End", "2.8E-2", "360", "3", "1.0E+1", "3.0E+1",
     "Incineration (per revised ESD)", "Cleaning Liquid Residuals from Bottles Used to Transport the Raw Material"),
    ("Incineration or Landfill", "Conservative", "4.6E-2", "360", "3", "1.7E+1", "5E+1",
     "Incineration or Landfill (per revised ESD)", "Equipment Cleaning Losses of Liquids from a Single, Large Vessel"),
    ("Incineration", "Output 2", "4.3E+0", "360", "3", "1.5E+3", "4.6E+3",
     "Incinerating (per revised ESD)", "Spin-Off"),
)


def _flat(text: str) -> str:
    """One line of words: the PDF's line breaks and the sample's missing space before "(" aside."""
    return re.sub(r"\s*\(", " (", " ".join(text.split()))


def _figure(printed: str) -> str:
    # irer.md: "5E+1" in the sample is "5.0E+1" at the report's two figures
    return {"5E+1": "5.0E+1"}.get(printed, printed)


@pytest.fixture
def sample(db, settings) -> Assessment:
    """The sample case's revision 1, as load_demo computes and approves it."""
    settings.DEBUG = True
    call_command("load_demo")
    return Assessment.objects.get(submission__case_number="P-18-0123", revision=1)


@pytest.fixture
def draft(sample) -> Assessment:
    """The sample case's revision 2 (load_demo's draft: the stripping process known, the
    workers and the header as in revision 1)."""
    return sample.submission.assessments.get(revision=2)


def _pdf(assessment) -> bytes:
    return irer_pdf(irer_context(assessment=assessment))


def test_the_sample_release_blocks_line_by_line(sample):
    text = _flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(_pdf(sample))).pages))
    releases = text[text.index("ENVIRONMENTAL RELEASES ESTIMATE SUMMARY"):text.index("RELEASE TOTAL")]
    for heading, label, per_day, days, sites, per_site_year, all_sites, to, source in SAMPLE_BLOCKS:
        block = (f"{label}: {per_day} kg/site-day over {days} days/yr from {sites} sites "
                 f"or {per_site_year} kg/site-yr from {sites} sites or {_figure(all_sites)} kg/yr-all sites "
                 f"to: {_flat(to)} from: {source} basis:")
        assert block in releases, block
        assert heading in releases
    assert "RELEASE TOTAL 5.0E+3 kg/yr - all sites" in text
    assert "IRER Note: The daily releases listed for any source below may coincide with daily releases from " \
           "the other sources to the same medium." in text
    # the model's standard sentence opens the basis, the engineer's words follow
    assert "basis: EPA/OPPT Small Container Residual Model, CEB standard 0.6% residual. Per the revised 2010 ESD" in text
    assert "basis: User-Defined Loss Rate Model. Per the revised 2010 ESD on Photoresist Use in Semiconductor " \
           "Manufacturing, RAD assumes that 50% of the adhered photoresist" in text
    # releases only: no worker is exposed via an assessed route, as the sample prints
    assert "Tot. # of workers exposed via assessed routes: 0" in text


def test_headings_follow_chemsteers_list_and_order(sample):
    context = irer_context(assessment=sample)
    # The seed's headings in its order (§7, pp. 7-4 and 7-5): the spin-off's Incineration
    # block follows "Incineration or Landfill", under a heading of its own.
    assert reading.headings(context, 4) == [block[0] for block in SAMPLE_BLOCKS]
    assert [block["from"] for block in reading.release_blocks(context)] == [block[8] for block in SAMPLE_BLOCKS]


def test_the_pdf_prints_the_blocks_in_the_seeds_order(sample):
    text = _flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(_pdf(sample))).pages))
    start = text.index("ENVIRONMENTAL RELEASES ESTIMATE SUMMARY")
    places = []
    for heading, label, per_day, *_, source in SAMPLE_BLOCKS:
        places.append(text.index(f"{heading} {label}: {per_day} kg/site-day", start))
        assert text.index(f"from: {source}", places[-1]) < text.index("RELEASE TOTAL", start)
    assert places == sorted(places)
    assert places[-1] < text.index("RELEASE TOTAL 5.0E+3 kg/yr - all sites") < text.index(
        "OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY")


def test_inhalation_is_printed_before_dermal(draft):
    scenario = draft.scenarios.get()
    scenario.inputs.pop("include_exposures")
    scenario.save()
    services.scenario_compute(scenario=scenario, by=draft.engineer)
    text = plain_text(irer_context(assessment=draft)["document"])
    exposures = text[text.index("OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY"):]
    assert exposures.index("\nInhalation:") < exposures.index("\nDermal:") < exposures.index("\nA. ")


def test_the_irer_note_is_the_engineers_choice(draft):
    draft.irer_note = IrerNote.NOT_EXPECTED
    draft.save()
    text = _flat(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(_pdf(draft))).pages))
    assert "are not expected to coincide with daily releases from the other sources to the same medium" in text
    assert "IRER Note: The daily releases listed for any source below may coincide" not in text


def test_workers_are_counted_over_all_sites(draft):
    scenario = draft.scenarios.get()
    scenario.inputs.pop("include_exposures")
    scenario.save()
    services.scenario_compute(scenario=scenario, by=draft.engineer)
    text = _flat(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(_pdf(draft))).pages))
    # 48 operators and 18 technicians a site (ESD 2010 Eqn 5-1, 5-2) at 3 sites
    assert "Tot. # of workers exposed via assessed routes: 198 Basis: 66 workers per site × 3 sites;" in text


def test_the_text_layer_reads_in_order(draft):
    pdf = _pdf(draft)
    first = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    lines = [line.strip() for line in first.splitlines() if line.strip()]
    assert "DRAFT" not in first and "D R A F T" not in first  # the watermark is drawn, not written
    assert first.count("INITIAL REVIEW ENGINEERING REPORT") == 1  # page 1 has no running header
    assert "PV (kg/yr): 5,000" in _flat(first)
    assert any(line.startswith("MW:") and "200" in line for line in lines)
    # pdftotext's reading order, as a reviewer's copy and paste gets it
    import shutil
    import subprocess
    if shutil.which("pdftotext"):
        out = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                             check=True).stdout.decode()
        assert "PV (kg/yr): 5,000" in _flat(out)
        assert not re.search(r"\bD\s+R\s+A\s+F\s+T\b", out)
