"""The report says each thing once: an equation in the appendix's trace, a clause every
estimate of an activity shares once per activity, a route's statement once. And it
draws with the vendored font only, in a font configuration made once per thread."""

import re
import threading
from pathlib import Path

import pytest

from assessments.basis_text import shared_clauses as shared_basis
from assessments.reports import render
from assessments.reports.context import irer_context
from assessments.reports.document import text_of
from tests.reports import reading
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def text(sample_pdf):
    return flat(pdf_text(sample_pdf))


def test_an_equation_is_printed_once_in_the_trace_not_again_in_the_use_section(text):
    assert text.count("Qphoto_day = Napply × TIMEapply_hours × Qapply") == 1
    assert text.count("Nsites (Eqn 3-3, unrounded) = (1 − Fcontainer_disp) × Qchem_yr") == 1


def test_the_use_section_points_each_facility_estimate_at_its_trace_step(sample_assessment):
    context = irer_context(assessment=sample_assessment)
    [trace] = reading.items(context, "trace")
    trace_names = [text_of(item).split(" = ")[0] for item in trace]
    [facility] = reading.items(context, "facility")
    assert facility
    for line in facility:  # each printed under its step's own name (Nsites (Eqn 3-3, unrounded), Nsites)
        step, name = re.match(r"\[(\d+)\] (.+?) = ", text_of(line)).groups()
        assert trace_names[int(step) - 1] == name


def test_what_every_estimate_of_an_activity_shares_is_printed_once_per_activity(text):
    # Five dermal activities, each with a low and a high end estimate.
    assert text.count("no gloves assumed (Appendix B.6)") == 5
    assert text.count("250 days per worker (ESD 2010 §5.3)") == 1
    assert "mg/day. basis: Qliquid_skin 0.7 mg/cm²-incident (low end; CEB, 2000)" in text


def test_a_routes_statement_is_not_repeated_in_the_notes(text):
    assert text.count("negligible for nonvolatile chemicals") == 1


def test_shared_basis_cuts_at_top_level_semicolons_only():
    model = "Two-Hand Model"
    low = "Two-Hand Model: Q 0.7 (low end; CEB, 2000) × A 1070 = 749 mg/day (Eqn 5-4); up to 18 per site (Eqn 5-2; one pool); no gloves."
    high = "Two-Hand Model: Q 2.1 (high end; CEB, 2000) × A 1070 = 2247 mg/day (Eqn 5-4); up to 18 per site (Eqn 5-2; one pool); no gloves."
    common, own = shared_basis(model, [low, high])
    assert common == "up to 18 per site (Eqn 5-2; one pool); no gloves"
    assert own == ["Q 0.7 (low end; CEB, 2000) × A 1070 = 749 mg/day (Eqn 5-4)",
                   "Q 2.1 (high end; CEB, 2000) × A 1070 = 2247 mg/day (Eqn 5-4)"]


def test_a_single_estimate_keeps_its_whole_basis():
    common, own = shared_basis("M", ["M: a = 1 (Eqn 1); b"])
    assert common == "" and own == ["a = 1 (Eqn 1); b"]


def test_estimates_with_nothing_in_common_keep_their_own_words():
    common, own = shared_basis("M", ["x (Eqn 1)", "y (Eqn 2)"])
    assert common == "" and own == ["x (Eqn 1)", "y (Eqn 2)"]


def test_each_thread_keeps_one_font_configuration():
    first = render._font_config()
    assert render._font_config() is first
    other = []
    thread = threading.Thread(target=lambda: other.append(render._font_config()))
    thread.start()
    thread.join()
    assert other[0] is not first


def test_the_report_names_no_font_it_does_not_bring():
    """Every font family the print stylesheet asks for first is the vendored one; the
    monospace face symbols used to be set in is a system font and is gone."""
    from django.contrib.staticfiles import finders

    css = re.sub(r"(?s)/\*.*?\*/", "", Path(finders.find(render.STYLESHEET)).read_text(encoding="utf-8"))
    assert "monospace" not in css and "DejaVu Sans Mono" not in css
    for family in re.findall(r'font(?:-family)?:[^;}]*?("[^"]+")', css):
        assert family == '"Reviewer Sans"', family


def test_the_garbage_collector_is_paused_while_drawing_and_resumed_after(monkeypatch):
    import gc

    from weasyprint import HTML

    seen = []
    monkeypatch.setattr(render, "mark_untagged_content_as_artifacts", lambda pdf: pdf)  # the stub's bytes are no PDF
    monkeypatch.setattr(HTML, "write_pdf", lambda self, **kw: seen.append(gc.isenabled()) or b"%PDF-")
    assert gc.isenabled()
    render.html_to_pdf("<p>x</p>")
    assert seen == [False] and gc.isenabled()

    monkeypatch.setattr(HTML, "write_pdf", lambda self, **kw: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        render.html_to_pdf("<p>x</p>")
    assert gc.isenabled()
