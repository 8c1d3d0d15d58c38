"""The IRER's optional "Sensitivity" appendix (issue 30, item 5): printed only when the
reviewer chose it on the notes page; its tables give the engine's figures; the sanitised copy
withholds a use's part whole when a claimed case value reaches the use, the same sentence
whatever the claimed values are."""

from __future__ import annotations

import pytest

from assessments import services
from assessments.esd import sensitivity
from assessments.numbers import quantity
from assessments.reports import sensitivity_appendix
from assessments.reports.context import irer_context, irer_report
from assessments.reports.document import Table as DocTable
from assessments.reports.document import Words, plain_text, walk
from assessments.reports.use_report import UseBuilder
from tests.conftest import make_assessment, make_submission
from tests.contract import sanitised

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"


def _assessment(reviewer, claims=(), **values):
    case = make_submission(production_volume_kg_yr=values.get("pv", 5000), use_concentration=0.15,
                           molecular_weight=200.0, cbi_claims=list(claims))
    assessment = make_assessment(case, reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=KEY)
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


def _report_of(assessment, sanitised_copy: bool):
    """The appendix as the report's document holds it, and its copy (full or sanitised)."""
    from assessments.reports.context import redaction_for

    report = irer_report(assessment)
    submission = assessment.submission
    uses = [UseBuilder(s, n, submission, frozenset(submission.cbi_claims or []), Words(submission.case_name))
            for n, s in enumerate(assessment.scenarios.all(), start=1)]
    from dataclasses import replace

    report = replace(report, blocks=(sensitivity_appendix.appendix(uses),))
    return report.copy(redaction_for(submission) if sanitised_copy else None)


def test_appendix_not_printed_by_default(reviewer):
    assessment = _assessment(reviewer)
    assert assessment.irer_sensitivity is False
    assert sensitivity_appendix.TITLE not in plain_text(irer_context(assessment=assessment)["document"])


def test_appendix_printed_when_chosen(reviewer):
    """Needs ``context.irer_report`` to append ``sensitivity_appendix.appendix(uses)`` when
    ``assessment.irer_sensitivity`` (the wiring reported to the lead)."""
    assessment = _assessment(reviewer)
    assessment.irer_sensitivity = True
    assessment.save()
    text = plain_text(irer_context(assessment=assessment)["document"])
    assert sensitivity_appendix.TITLE in text and "not printed" in text


def test_tables_give_the_engines_figures(reviewer):
    assessment = _assessment(reviewer)
    scenario = assessment.scenarios.get()
    analysed = sensitivity.analyse(KEY, scenario.computed_inputs, samples=0)
    tables = [b for b in walk(_report_of(assessment, False).blocks) if isinstance(b, DocTable)]
    charted = [o for o in analysed["outputs"] if o["drivers"]]
    tornadoes = tables[:len(charted)]
    assert len(tables) == len(charted) + 1  # and the override table
    for table, output in zip(tornadoes, charted):
        units = sensitivity.UNITS[output["quantity"]]
        assert table.caption == f"{output['label']}: {quantity(output['base'], units)} as computed"
        rows = [[c.content[0].text if c.content else "" for c in row] for row in table.bodies[0]]
        assert [(r[2], r[3]) for r in rows] == [(quantity(d["output_at_low"], units), quantity(d["output_at_high"], units))
                                                for d in output["drivers"]]


def test_no_band_in_the_appendix(reviewer):
    text = plain_text(_report_of(_assessment(reviewer), False))
    assert "P5" not in text and "band (every ranged input varied at once) is not printed" in text


def test_sanitised_copy_withholds_a_use_a_claim_reaches(reviewer):
    text = plain_text(_report_of(_assessment(reviewer, claims=["production_volume_kg_yr"]), True))
    assert sensitivity_appendix.USE_WITHHELD.format(number=1) in text
    assert " as computed\n" not in text and "At the low end" not in text


def test_full_copy_of_a_claimed_case_prints_the_figures(reviewer):
    text = plain_text(_report_of(_assessment(reviewer, claims=["production_volume_kg_yr"]), False))
    assert "At the low end" in text and sensitivity_appendix.USE_WITHHELD.format(number=1) not in text


def test_sanitised_copy_of_an_unclaimed_case_prints_the_figures(reviewer):
    text = plain_text(_report_of(_assessment(reviewer, claims=["submitter"]), True))
    assert "At the low end" in text


def test_two_cases_differing_only_in_claimed_values_print_the_same_sanitised_appendix(reviewer):
    first = _assessment(reviewer, claims=["production_volume_kg_yr"], pv=5000)
    second = _assessment(reviewer, claims=["production_volume_kg_yr"], pv=7300)
    assert plain_text(_report_of(first, True)) == plain_text(_report_of(second, True))
    assert plain_text(_report_of(first, False)) != plain_text(_report_of(second, False))


def test_sanitised_copies_through_every_writer_are_alike(reviewer):
    """The sanitised copy as the sheet, the PDF's HTML and Word print it (``tests.contract.sanitised``)."""
    copies = []
    for pv in (5000.0, 7300.0):
        values = {**sanitised.PLAIN, "production_volume_kg_yr": pv}
        assessment = sanitised.build(KEY, values, ["production_volume_kg_yr"], branch={}, site_data=False,
                                     reviewer=reviewer)
        assessment.irer_sensitivity = True
        assessment.save()
        copies.append(sanitised.sanitised_copies(assessment))
    for name in copies[0]:
        assert copies[0][name] == copies[1][name], (name, sanitised.first_difference(copies[0][name], copies[1][name]))
