"""The engine's validation table (assessments.esd.verification) and ``manage.py esd verify``
(spec INTERFACE.md, "Additions, version 2", "Self-verification").

The table's rows are the documents' printed figures; the expected differences below are
each the document's own doing (the row's note cites where). The comparison function has
unit tests of its reading rules, with figures the documents print.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from assessments.esd import registry, verification
from assessments.esd.photoresist import PHOTORESIST_2010
from assessments.esd.verification import Figure, Run, evaluation, matches, parse_printed
from assessments.esd.verification import photoresist_2010 as declared_2010
from assessments.management.commands import esd as esd_command

ROOT = Path(__file__).resolve().parents[2]

# Each figure that differs, by (document, section, printed): the documents' own rounding
# carried forward, their contradictions, an illegible figure, and figures the engine does
# not compute (the row's note says which and cites the page or section).
EXPECTED_DIFFERENCES = {
    ("Photoresist ESD 2004", "Table 3-1, p. 11 (niche)", "2,500"),
    ("Photoresist ESD 2004", "Table 3-1, p. 11 (large scale, low end)", "9,900"),
    ("Photoresist ESD 2004", "Table 3-1, p. 11 (large scale, high end)", "12,960"),
    ("Photoresist ESD 2004", "§4 ¶64, Eqn 3-3, p. 18", "blsites"),
    ("CVD ESD 2015", "§6.2.1 ¶86, Eqn 4-1", "2.0"),
    ("CVD ESD 2015", "App. B, Table B-1 (PH₃)", "0.90"),
    ("CVD ESD 2015", "App. B, Table B-1 (PH₃)", "1.58"),
    ("CVD ESD 2015", "App. B, Table B-1 (PH₃)", "0.66"),
    ("CVD ESD 2015", "App. B, Table B-1 (WF₆)", "0.66"),
    ("CVD ESD 2015", "App. B, Table B-1 (WF₆)", "2.41"),
    ("CVD ESD 2015", "App. B, Table B-1 (WF₆)", "3.92"),
    ("CVD ESD 2015", "App. B, Table B-1 (SiH₄)", "1.09"),
    ("CVD ESD 2015", "App. B, Table B-1 (SiH₄)", "2.13"),
    ("CVD ESD 2015", "App. B, Table B-1 ((CH₃)₃SiH)", "0.68"),
    ("CVD ESD 2015", "App. B, Table B-1 ((CH₃)₃SiH)", "3.30"),
    ("CVD ESD 2015", "App. C, sample calculation, Eqn C-4", "3.13E-6"),
    ("CVD ESD 2015", "App. C, sample calculation, Eqn C-5", "1.88E-4"),
    ("EIIP Vol. II Ch. 6", "§5, engineering calculations, Example 6.5-4, Eqn 6.5-5", "5.84 × 10⁻⁵"),
}


@pytest.fixture(scope="module")
def rows():
    return verification.table()


def row(rows, document, section, quantity_start):
    (found,) = [r for r in rows if r.document == document and r.section == section
                and r.quantity.startswith(quantity_start)]
    return found


# --- the comparison function --------------------------------------------------------------


@pytest.mark.parametrize("printed, value, quantum", [
    # ESD 2010 §6.1.5 "2,924"; EIIP Ex. 6.4-3 "109,020"; ESD 2004 Table 3-1 "12,960"
    ("2,924", "2924", "1"),
    ("109,020", "109020", "10"),
    ("12,960", "12960", "10"),
    # ESD 2010 Table B-8 "1,800" (1,764 to two significant figures), "8,650", "290"
    ("1,800", "1800", "100"),
    ("8,650", "8650", "10"),
    ("290", "290", "10"),
    # decimals as printed: ESD 2010 §6.1.4 "4.60", §6.2.1 "0.0278"; CVD ¶87 "0.02"
    ("4.60", "4.60", "0.01"),
    ("0.0278", "0.0278", "0.0001"),
    ("0.02", "0.02", "0.01"),
])
def test_plain_figures_read_with_separators_and_precision(printed, value, quantum):
    figure = parse_printed(printed)
    assert (figure.value, figure.quantum) == (Decimal(value), Decimal(quantum))


@pytest.mark.parametrize("printed, value, quantum", [
    # the 2018 sample IRER's E-notation: "4.3E+0", "1.6E-1", "5E+1" (one figure), "5.0E+3"
    ("4.3E+0", "4.3", "0.1"),
    ("1.6E-1", "0.16", "0.01"),
    ("5E+1", "50", "10"),
    ("5.0E+3", "5000", "100"),
    # CVD App. C: "3.13E-6", "1.88E-4"
    ("3.13E-6", "0.00000313", "0.00000001"),
    ("1.88E-4", "0.000188", "0.000001"),
    # EIIP Ex. 6.5-2 and 6.5-4, typeset: "1.8 × 10⁻⁴", "5.84 × 10⁻⁵"; and as typed, "6.0 * 10^-6"
    ("1.8 × 10⁻⁴", "0.00018", "0.00001"),
    ("5.84 × 10⁻⁵", "0.0000584", "0.0000001"),
    ("6.0 * 10^-6", "0.0000060", "0.0000001"),
])
def test_e_notation_gives_its_significant_figures(printed, value, quantum):
    figure = parse_printed(printed)
    assert figure.value == Decimal(value) and figure.quantum == Decimal(quantum)


@pytest.mark.parametrize("printed, value, quantum", [
    # the sample IRER's bases: "Fphoto_wafer = 7%", "Fphoto_develop = 50%", "0.6% residual", "1% residual"
    ("7%", "0.07", "0.01"),
    ("50%", "0.50", "0.01"),
    ("0.6%", "0.006", "0.001"),
    ("1%", "0.01", "0.01"),
])
def test_percentages_divide_value_and_precision_by_100(printed, value, quantum):
    figure = parse_printed(printed)
    assert figure.value == Decimal(value) and figure.quantum == Decimal(quantum)


@pytest.mark.parametrize("text", ["blsites", "0054 kg", "1,5", "12,96", "4.6.0", "", "E+1", "4.3E", "--3"])
def test_text_that_is_no_figure_is_refused(text):
    with pytest.raises(ValueError):
        parse_printed(text)
    assert matches(text, 3.0) is False


@pytest.mark.parametrize("printed, computed", [
    # each the engine's unrounded number for the figure, by hand
    ("4.60", 0.994 * 5000 / (3 * 360)),  # ESD 2010 §6.1.4: 4.6018519
    ("0.0278", 5000 / 3 / 360 * 0.006),  # §6.2.1: 0.0277778
    ("265", 2.1 * 840 * 0.15),  # §6.3.4: 264.6
    ("1,800", 840 * 2.1),  # Table B-8: 1,764
    ("4.3E+0", 5000 / 3 / 360 * 0.99 * 0.93),  # sample IRER spin-off: 4.2625
    ("5E+1", 5000 / 3 / 360 * 0.01 * 360 * 3),  # sample IRER equipment cleaning: 50.0
    ("7%", 0.07),
    ("0.0345", 0.0345),
])
def test_a_figure_matches_when_it_rounds_as_printed(printed, computed):
    assert matches(printed, computed)


def test_rounding_is_half_up_at_the_printed_place():
    # 0.0345 to three decimals is 0.035 (half up), not 0.034 (half to even)
    assert matches("0.035", 0.0345) and not matches("0.034", 0.0345)
    # 2.646 (ESD 2010 §6.3.7, Exposure E high end) is 2.6, not 2.7; 2.65 is 2.7
    assert matches("2.6", 2.646) and matches("2.7", 2.65) and not matches("2.6", 2.65)


@pytest.mark.parametrize("printed, computed", [
    ("0.0277", 5000 / 3 / 360 * 0.006),  # 0.0277778 is 0.0278: the last printed digit differs
    ("4.61", 0.994 * 5000 / (3 * 360)),
    ("3.14E-6", 3.1329e-6),  # CVD Eqn C-4 from the printed 1.22 ppm: 3.13E-6
    ("5.84 × 10⁻⁵", 32 * 0.0054693 * 1.91 / (10.73 * 533)),  # EIIP Ex. 6.5-4 unrounded: 5.845E-5
    ("1,700", 840 * 2.1),
    ("6%", 0.07),
])
def test_a_figure_that_differs_in_its_last_printed_digit_does_not_match(printed, computed):
    assert not matches(printed, computed)


def test_counts_are_compared_exactly():
    # "360 days/year": 359 would read as 360 to the tens, but a count must be equal
    assert matches("360", 359) and not matches("360", 359, count=True)
    assert matches("2,924", 2924, count=True) and not matches("2,924", 2923.98, count=True)
    assert matches("~19", 19, count=True)  # CVD ¶85: "~19 container/site-yr"


def test_nothing_computed_never_matches():
    assert not matches("36", None) and not matches("36", float("nan")) and not matches("1", True)


# --- the table --------------------------------------------------------------------------


def test_the_table_holds_at_least_the_202_audited_figures(rows):
    assert len(rows) >= 202


def test_every_document_has_its_figures(rows):
    counts = {group.document.key: group.summary.figures for group in verification.validation().documents}
    assert list(counts) == ["photoresist-2004", "photoresist-2010", "photoresist-2018", "cvd-2015", "eiip"]
    assert all(n >= 10 for n in counts.values()), counts


def test_every_figure_that_differs_has_a_note(rows):
    assert [r for r in rows if not r.match and not r.note] == []
    assert verification.summarise(rows).unexplained == 0


def test_a_note_explains_a_difference_only(rows):
    # A note says why a figure differs; a figure with a note that now matches means the note is stale.
    assert [(r.section, r.quantity) for r in rows if r.match and r.note] == []


def test_the_figures_that_differ_are_the_documents_own(rows):
    assert {(r.document, r.section, r.printed) for r in rows if not r.match} == EXPECTED_DIFFERENCES


def test_no_row_failed_to_compute(rows):
    assert [(r.section, r.error) for r in rows if r.error] == []


def test_every_printed_figure_reads_as_a_figure_but_the_illegible_one(rows):
    unreadable = []
    for r in rows:
        try:
            parse_printed(r.printed)
        except ValueError:
            unreadable.append(r)
    assert [(r.printed, r.note.split(":")[0]) for r in unreadable] == [("blsites", "Illegible")]


def test_every_row_says_how_the_engine_computed_it(rows):
    assert all(r.method for r in rows)
    # the whole scenario, as a user runs it, for the worked examples of the ESDs
    n_sites = row(rows, "Photoresist ESD 2010", "§6.1.4", "Number of sites, rounded up")
    assert n_sites.method == "photoresist-2010 (Qchem_yr = 5000, Fchem = 0.15) → facility Nsites"
    # an equation function where the example is of one equation: as the document writes it,
    # each argument by its name (issue 26: no module path or function name)
    assert row(rows, "EIIP Vol. II Ch. 6", "§4.1, Example 6.4-1, Eqn 6.4-1", "VOC").method == (
        "E_x = (Q_in − Q_out) × C_x (EIIP Vol. II Ch. 6 Eqn 6.4-1) with Q_in = 2, Q_out = 1.5, C_x = 7.5")


def test_headline_figures(rows):
    # ESD 2010 §6.1.5: "Ncont_site_yr = 2,924 containers/site-yr"
    containers = row(rows, "Photoresist ESD 2010", "§6.1.5, Eqn 3-4", "Containers")
    assert (containers.printed, containers.computed, containers.match) == ("2,924", 2924, True)
    # 2018 sample IRER, spin-off: "Output 2: 4.3E+0 kg/site-day" (ChemSTEER's daily use rate, irer.md)
    spin_off = row(rows, "Photoresist 2018 update", "§7 sample IRER, releases: Incineration (Spin-Off)",
                   "Release 3, daily release")
    assert spin_off.match and spin_off.computed == pytest.approx(5000 / 3 / 360 * 0.99 * 0.93)
    # CVD ¶86: "2.0" is 2.8 × 0.7 = 1.96; the engine's 1,000/360 × 0.7 = 1.944 differs, explained
    control = row(rows, "CVD ESD 2015", "§6.2.1 ¶86, Eqn 4-1", "Precursor to POU abatement at U_process = 0.3")
    assert not control.match and control.computed == pytest.approx(1000 / 360 * 0.7)
    assert "own rounding" in control.note and "¶78" in control.note


def test_the_table_is_computed_once_per_process():
    assert verification.table() is verification.table()


def test_the_table_does_not_depend_on_the_registry(monkeypatch, rows):
    # A test may hold the registry to a toy scenario (tests/_review_support.toy_engine): the
    # table runs the engine modules' own scenarios.
    monkeypatch.setattr(registry, "_registry", dict)
    again = verification.evaluate(verification.figures())
    assert [(r.computed, r.match) for r in again] == [(r.computed, r.match) for r in rows]


def test_match_is_computed_from_the_printed_text():
    inputs = {"Qchem_yr": 5000, "Fchem": 0.15}
    figures = [Figure(declared_2010.DOCUMENT, "§6.1.5", "Containers", printed,
                      Run(PHOTORESIST_2010, inputs).facility("Ncont_site_yr"), count=True)
               for printed in ("2,924", "2,925")]
    good, off = verification.evaluate(figures)
    assert good.match and not off.match and not off.explained
    assert off.computed == 2924


def test_a_failing_source_gives_a_row_with_its_error_not_an_exception():
    broken = Figure(declared_2010.DOCUMENT, "§6.1.5", "Containers", "2,924",
                    Run(PHOTORESIST_2010, {"Qchem_yr": -1}).facility("Ncont_site_yr"))
    (result,) = verification.evaluate([broken])
    assert result.computed is None and not result.match
    assert result.error.startswith("EngineValidationError: Qchem_yr")


def test_the_summary_counts(rows):
    summary = verification.summarise(rows)
    assert summary.figures == len(rows) == summary.matches + summary.explained + summary.unexplained
    assert summary.text == (f"{len(rows)} figures: {summary.matches} match; {summary.differ} differ, "
                            "each explained in its note.")
    groups = verification.validation().documents
    assert sum(g.summary.figures for g in groups) == len(rows)
    assert [r for g in groups for r in g.rows] == list(rows)


# --- manage.py esd verify ---------------------------------------------------------------


def run(*args: str):
    """(exit status, stdout, stderr) of ``esd`` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exc:
        status = exc.code
    return status, out.getvalue(), err.getvalue()


def with_an_unexplained_difference(monkeypatch, rows):
    """The table with one more row: a figure that differs and has no note."""
    bad = evaluation.Row("Photoresist ESD 2010", "§6.1.5, Eqn 3-4", "Containers emptied per site-year", "2,925",
                         2924, False, "", "", "photoresist-2010 → facility Ncont_site_yr")
    monkeypatch.setattr(evaluation, "table", lambda: (*rows, bad))
    return bad


def test_verify_prints_the_table_and_the_count(rows):
    status, out, err = run("verify")
    assert (status, err) == (0, "")
    lines = out.rstrip("\n").split("\n")
    assert lines[0].split() == ["document", "section", "quantity", "printed", "computed", "match", "note"]
    assert lines[-1] == verification.summarise(rows).text
    table = lines[2:-2]  # the heading, its rule, ..., a blank line, the count
    assert len(table) == len(rows)
    (containers,) = [line for line in table if "§6.1.5, Eqn 3-4" in line]
    assert "2,924" in containers and " yes" in containers
    (wf6,) = [line for line in table if "(WF₆)" in line and "3.92" in line]
    assert " NO " in wf6 and "own rounding" in wf6


def test_verify_json_is_one_array_of_rows(rows):
    status, out, err = run("verify", "--json")
    assert status == 0
    answer = json.loads(out)
    assert len(answer) == len(rows)
    assert list(answer[0])[:7] == ["document", "section", "quantity", "printed", "computed", "match", "note"]
    assert answer == [r.as_dict() for r in rows]
    assert err.strip() == verification.summarise(rows).text  # the count, off stdout


def test_verify_json_honours_indent():
    status, out, _ = run("verify", "--json", "--indent", "0")
    assert status == 0 and out.count("\n") == 1


def test_verify_exits_1_and_names_the_unexplained_rows(monkeypatch, rows):
    with_an_unexplained_difference(monkeypatch, rows)
    status, out, err = run("verify")
    assert status == 1
    assert out.rstrip().endswith("1 with no note.")
    assert err.splitlines() == [
        "1 printed figure(s) differ from the engine with no note to explain them:",
        "  Photoresist ESD 2010, §6.1.5, Eqn 3-4: Containers emptied per site-year: printed 2,925, engine 2,924",
    ]


def test_verify_json_exits_1_too_with_the_rows_still_on_stdout(monkeypatch, rows):
    with_an_unexplained_difference(monkeypatch, rows)
    status, out, err = run("verify", "--json")
    assert status == 1
    assert len(json.loads(out)) == len(rows) + 1
    assert "printed 2,925, engine 2,924" in err


def test_verify_takes_no_key():
    status, out, err = run("verify", "photoresist-2010")
    assert (status, out) == (2, "")
    assert json.loads(err)["errors"]["__all__"].startswith("unexpected argument 'photoresist-2010'; usage: esd")


def test_json_is_an_option_of_verify_impact_and_conformance_only():
    status, out, err = run("compute", "photoresist-2010", "--json")
    assert (status, out) == (2, "")
    assert "--json is an option of verify, impact and conformance only" in json.loads(err)["errors"]["__all__"]


def test_help_and_usage_name_verify():
    parser = esd_command.Command().create_parser("manage.py", "esd")
    assert "esd verify [--json]" in parser.format_help()
    assert "esd verify [--json]" in esd_command.USAGE
    status, _, err = run("frobnicate")
    assert status == 2 and "esd verify [--json]" in json.loads(err)["errors"]["__all__"]


def test_verify_in_a_subprocess_exits_0_with_no_traceback():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reviewer.settings_test"}
    proc = subprocess.run([sys.executable, "manage.py", "esd", "verify"], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout.rstrip().endswith("each explained in its note.")
