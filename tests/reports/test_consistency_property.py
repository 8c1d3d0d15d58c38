"""The sealed record never contradicts itself (issue 41): every copy of the IRER (full and
sanitised; the HTML as the preview and the PDF draw it, the PDF's own text, the Word
document's text), for every registered scenario, down each of its presets, choices and
branches, keeps the rules of :mod:`tests.reports.consistency`, read from the rendered text:
no statement that a value is missing beside the value, no printed name with two values, no
empty ``=``, ``@``, ``()`` or field, and the workers' total agreeing with its basis.

The rules themselves are shown to fail on each example the issue found in the sealed sample
IRER (:data:`FOUND`), so a rule that stopped reading would fail here first.
"""

from __future__ import annotations

import os
from datetime import date

import pytest

from assessments.esd import registry
from assessments.esd.parameters import CHOICE
from assessments.models import Submission
from assessments.reports.context import irer_context
from assessments.reports.docx import irer_docx
from assessments.reports.html import report_html
from assessments.reports.render import irer_html, irer_pdf
from tests.contract.sanitised import PLAIN, build, docx_text
from tests.contract.varied_inputs import BRANCHES
from tests.reports.conftest import pdf_text
from tests.reports.consistency import field_labels, html_text, problems

pytestmark = pytest.mark.django_db

#: The header's field labels as the sample prints them (for the texts below, which have no HTML).
LABELS = ["PV (kg/yr):", "ENGINEER:", "SUBMITTER:", "USE:", "OTHER USES:", "MSDS:", "TLV/PEL:", "Chemical Name:",
          "CAS No.:", "S-H2O:", "Physical State:", "MW:", "VP:", "Consumer Use:", "Migration to groundwater:",
          "PBT rating:", "Health:", "Eco:", "OCCUPATIONAL EXPOSURE RATING:", "EXPOSURE-BASED REVIEW:"]

#: What the sealed sample IRER printed before issue 41 (text read from its PDF), one example a
#: rule, and the same lines as they print now: each rule fails on the first and passes the second.
FOUND = {
    "missing beside printed": (
        "VP: 1.0E-6 torr @ 20.00 Consumer Use: not given ... EXAMPLE: USE 1 ... Inhalation: not assessed, negligible "
        "for nonvolatile chemicals (VP < 0.001 torr; no vapour pressure was given); ESD 2010 assesses dermal",
        "VP: 1E-6 torr @ 20 °C Consumer Use: not given ... EXAMPLE: USE 1 ... Inhalation: not assessed, negligible for "
        "nonvolatile chemicals (VP < 0.001 torr; VPchem = 1E-6 torr is below it); ESD 2010 assesses dermal",
    ),
    "one name, two values": (
        "EXAMPLE: USE 1 • [2] Qchem_day = 5.4 kg chemical/site-day (ESD 2010 Eqn 3-2, §3.4) • [3] Nsites = 2.56 sites "
        "(ESD 2010 Eqn 3-3, §3.5) • [4] Nsites = 3 sites (ESD 2010 Eqn 3-3 footnote, §3.5) • [5] Qchem_day = 4.63 kg",
        "EXAMPLE: USE 1 • [2] Qchem_day (Eqn 3-2, before the sites are counted) = 5.4 kg chemical/site-day (ESD 2010 "
        "Eqn 3-2, §3.4) • [3] Nsites (Eqn 3-3, unrounded) = 2.56 sites (ESD 2010 Eqn 3-3, §3.5) • [4] Nsites = 3 sites "
        "(ESD 2010 Eqn 3-3 footnote, §3.5) • [5] Qchem_day = 4.63 kg",
    ),
    "empty “=”": (
        "Health: not given Eco: Water (All releases to water with a CC =) OCCUPATIONAL EXPOSURE RATING: NR",
        "Health: not given Eco: Water (all releases to water; no concern concentration set) OCCUPATIONAL EXPOSURE "
        "RATING: NR",
    ),
    "empty “@”": (
        "CAS No.: not given S-H2O: 1E-06 g/L @ Physical State: Liquid",
        "CAS No.: not given S-H2O: 1E-6 g/L (temperature not given) Physical State: Liquid",
    ),
    "empty field": (
        "Physical State: Liquid MW: 200.00 %<500: %<1000: VP: 1.0E-6 torr @ 20.00 Consumer Use: OCCUPATIONAL",
        "Physical State: Liquid MW: 200 %<500: not given %<1000: not given VP: 1E-6 torr @ 20 °C Consumer Use: not "
        "given OCCUPATIONAL",
    ),
    "counts disagree": (
        "EXAMPLE: USE 1 ... Tot. # of workers exposed via assessed routes: 0 Basis: Worker exposures are not assessed "
        "in this assessment (releases only). ... Workers: 48 operators (Exposure A) and 18 technicians per site; "
        "Exposures B to E fall on the same technicians, so 66 distinct workers per site are exposed (Eqn 5-1, 5-2).",
        "EXAMPLE: USE 1 ... Tot. # of workers exposed via assessed routes: 0 Basis: Worker exposures are not assessed "
        "in this assessment (releases only). ... Workers: 48 operators and 18 technicians per site (Eqn 5-1, 5-2); no "
        "route of exposure is assessed (releases only), so none is counted as exposed.",
    ),
}


@pytest.mark.parametrize("rule", sorted(FOUND))
def test_each_rule_fails_on_the_example_the_issue_found_and_passes_it_mended(rule):
    before, after = FOUND[rule]
    assert rule in {p.rule for p in problems(before, LABELS)}, rule
    assert problems(after, LABELS) == []


def test_a_trace_input_named_as_an_earlier_step_must_print_its_value():
    """The old trace read Eqn 3-4's input ``Nsites = 2.56`` beside step 4's ``Nsites = 3``."""
    old = ("Use 1: x: calculation trace 3. Nsites = (1 − Fcontainer_disp) × Qchem_yr / (Qchem_day × TIMEapply_days) "
           "with Fcontainer_disp = 0.006, Qchem_yr = 5,000 → 2.56 sites (ESD 2010 Eqn 3-3, §3.5) 4. Nsites = Nsites "
           "rounded up to a whole number with Nsites = 2.56 → 3 sites (ESD 2010 Eqn 3-3 footnote, §3.5)")
    assert [p.rule for p in problems(old)] == ["one name, two values"]
    new = old.replace("3. Nsites =", "3. Nsites (Eqn 3-3, unrounded) =").replace(
        "with Nsites = 2.56", "with Nsites (Eqn 3-3, unrounded) = 2.56")
    assert problems(new) == []


def test_an_equations_own_argument_is_local_to_its_step():
    """``with Qliquid_skin = 0.7`` and ``= 2.1`` in two steps: arguments named nowhere else."""
    text = ("Use 1: x: calculation trace 18. EXPdermal (Exposure A, low end) = Qliquid_skin × AREAsurface with "
            "Qliquid_skin = 0.7, AREAsurface = 535 → 56.2 mg/day (ESD 2010 Eqn 5-3) 19. EXPdermal (Exposure A, high "
            "end) = Qliquid_skin × AREAsurface with Qliquid_skin = 2.1, AREAsurface = 535 → 169 mg/day (ESD 2010)")
    assert problems(text) == []


def test_two_uses_may_each_name_their_own_value():
    text = "X: USE 1 • [4] Nsites = 3 sites (a) X: USE 2 • [4] Nsites = 5 sites (b)"
    assert problems(text) == []
    assert problems(text.replace("X: USE 2", "also")) != []


# The property over every scenario ---------------------------------------------------------------

#: ``PMN_PROPERTY_EXAMPLES`` below 4 (CI draws 1): the real PDF of each scenario's plain case
#: only; the sheets and the Word copy are read for every variant either way.
PDF_EVERY_VARIANT = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4")) >= 4


def variants(key: str) -> list[tuple[str, dict]]:
    """The inputs that take scenario ``key`` down each of its presets, each value of each of
    its choices (one at a time) and each branch of the contract tests that it has."""
    scenario = registry.get(key)
    params = scenario.params
    found = [("plain", {})]
    found += [(f"preset {p.key}", dict(p.values)) for p in scenario.presets]
    found += [(f"{p.symbol}={value}", {p.symbol: value}) for p in params.params if p.kind == CHOICE
              for value, _ in p.choices if value != p.default]
    carried = {p.symbol for p in params.params if p.from_case}
    found += [(f"branch {i}", dict(b)) for i, b in enumerate(BRANCHES)
              if all(k in params for k in b) and not carried & set(b)]
    return found


ALL_CASES = [(key, name, inputs) for key in (s.key for s in registry.scenarios()) for name, inputs in variants(key)]
#: ``PMN_PROPERTY_EXAMPLES`` below 4 (CI draws 1): each scenario's plain case, and a third of the
#: other variants, a different third each day (``PMN_PROPERTY_ROTATION``, by default the day's
#: number; modulo 3), so that three days of CI read every variant; a developer's machine reads
#: them all at each run. A variant keeps its place in :data:`ALL_CASES` (its claims and limits).
ROTATION = int(os.environ.get("PMN_PROPERTY_ROTATION", str(date.today().toordinal()))) % 3
CASES = [case for place, case in enumerate(ALL_CASES)
         if PDF_EVERY_VARIANT or case[1] == "plain" or place % 3 == ROTATION]


def copies(assessment, *, pdf: bool) -> dict[str, tuple[str, list[str]]]:
    """Each copy's text and the header's field labels it prints: the full copy, and for a case
    that claims CBI the sanitised one (a case that claims nothing has nothing to withhold)."""
    out = {}
    for sanitised in (False, True) if assessment.submission.cbi_claims else (False,):
        context = irer_context(assessment=assessment, sanitised=sanitised, appendix=True)
        which = "sanitised" if sanitised else "full"
        sheet = report_html(context["document"], preview=True)
        labels = field_labels(sheet)
        out[f"{which} preview"] = (html_text(sheet), labels)
        out[f"{which} pdf html"] = (html_text(irer_html(context, for_pdf=True)), labels)
        out[f"{which} word"] = (docx_text(irer_docx(context)), labels)
        if pdf:
            out[f"{which} pdf"] = (pdf_text(irer_pdf(context)), labels)
    return out


def claimed_case(index: int) -> list[str]:
    """The claims a variant's case makes: none, or every claimable field (every other variant)."""
    return list(Submission.CBI_CLAIMABLE) if index % 2 else []


@pytest.mark.parametrize(("key", "name", "inputs"), CASES, ids=[f"{k}-{n}" for k, n, _ in CASES])
def test_every_copy_of_every_scenario_keeps_the_rules(key, name, inputs, reviewer):
    index = ALL_CASES.index((key, name, inputs))
    assessment = build(key, dict(PLAIN), claimed_case(index), branch=inputs, site_data=name == "plain",
                       reviewer=reviewer, tlv_ppm=index % 3 == 0)
    if assessment is None:
        pytest.skip("the engine refuses these inputs for this scenario (shown by its own tests)")
    # The optional appendix of the defaults against the case (the variants take inputs away from their
    # defaults: it prints each with its effects), in every third variant that sets an input and claims
    # nothing (its copy prints every figure; a third keeps the suite's time within CI's). The sanitised
    # appendix is the property of tests/reports/test_irer_departures.py (there the engine is asked what
    # each figure derives from: seconds a variant when all is claimed).
    if inputs and index % 6 == 0 and not assessment.submission.cbi_claims:
        assessment.irer_departures = True
        assessment.save()
    for copy, (text, labels) in copies(assessment, pdf=PDF_EVERY_VARIANT or name == "plain").items():
        found = problems(text, labels)
        assert not found, f"{key} {name}, {copy}:\n" + "\n".join(map(str, found))
