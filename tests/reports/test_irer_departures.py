"""The IRER's optional "Defaults against the case" appendix (issue 43,
``reports.departures_appendix``): printed only when the reviewer chose it on the notes page;
for each use, the inputs departing from the document's defaults with their source and reason,
and what each alone does to the releases and exposures, as ``assessments.departures`` finds
them; the sanitised copy withholds the inputs that carry a claimed value and the figures that
derive from one, the same whatever the claimed values are; the PDF and the Word copy print it.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from assessments import services
from assessments.departures import DEFAULTS_REFUSED, REVIEWER, SUBMITTER_DATA
from assessments.esd import registry
from assessments.models import Assessment, Submission
from assessments.reports import departures_appendix as appendix
from assessments.reports.context import irer_context
from assessments.reports.document import CBI_TEXT, plain_text
from assessments.reports.docx import irer_docx
from assessments.reports.render import irer_pdf
from tests.conftest import make_assessment, make_submission
from tests.contract.sanitised import NUMERIC, PLAIN, branch_for, build, docx_text, first_difference, sanitised_copies
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))
KEYS = [s.key for s in registry.scenarios()]
PHOTORESIST = "photoresist-2018"
#: The container residue the reviewer sets against the ESD's default of 0.006 (ESD 2010 §4.2).
CONTAINER_RESIDUE = 0.01
RESIDUE_REASON = "Site survey: drums are not triple-rinsed."


def _text(assessment: Assessment, *, sanitised: bool = False) -> str:
    return plain_text(irer_context(assessment=assessment, sanitised=sanitised)["document"])


def _appendix(text: str) -> str:
    """The appendix's text, from its heading on."""
    assert appendix.TITLE in text
    return text[text.index(appendix.TITLE):]


def _use(reviewer, *, claims=(), **case) -> Assessment:
    """A case and one computed photoresist use whose container residue the reviewer sets
    away from its default, with the departures appendix chosen."""
    submission = make_submission(cbi_claims=list(claims), **case)
    assessment = make_assessment(submission, reviewer, irer_departures=True)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=PHOTORESIST)
    scenario.inputs |= {"Fcontainer_disp": CONTAINER_RESIDUE}
    scenario.reasons |= {"Fcontainer_disp": RESIDUE_REASON}
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


@pytest.fixture
def demo_revision_2(demo_data) -> Assessment:
    """The demo's sample case P-18-0123, revision 2: photoresist-2018 with the stripping
    process the submitter gave (organic solvent) against the document's "unknown"."""
    return Assessment.objects.get(submission__case_number="P-18-0123", revision=2)


# --- printed when chosen ---------------------------------------------------------------------


def test_appendix_not_printed_by_default(demo_revision_2):
    assert demo_revision_2.irer_departures is False
    for sanitised in (False, True):
        assert appendix.TITLE not in _text(demo_revision_2, sanitised=sanitised)


def test_demo_revision_2_lists_the_stripping_process_and_what_it_does_to_the_releases(demo_revision_2):
    demo_revision_2.irer_departures = True
    demo_revision_2.save()
    text = _appendix(_text(demo_revision_2))
    assert "Use 1: Photoresist in Semiconductor Manufacturing: defaults against the case" in text
    # The departure's row: the input, the document's default, this case's value, source, reason.
    reason = demo_revision_2.scenarios.get().reasons["stripping_process"]
    assert (f"Stripping process | Unknown: water or incineration | Organic solvent stripping: 25 % to water, 75 % "
            f"to incineration | {REVIEWER} | {reason}") in text
    # EPA 2018 update §4.7: the stripping solutions' release goes 25 % to water, 75 % to
    # incineration, its amount unchanged: no figure moves, release 5 changes media.
    part = text[text.index("Stripping process alone"):]
    assert part.startswith(f"Stripping process alone\n{appendix.MEDIA_LEAD.format(input='Stripping process')}\n"
                           "Release 5: Residual photoresist in waste etching and stripping solutions: Water or "
                           "incineration")
    assert "→ Water 25 %, Incineration 75 %" in part.splitlines()[2]
    # The concentration is the submitter's (0.15 against the ESD's 0.4), with the case's reason.
    assert (f"Fchem Mass fraction of the chemical in the photoresist | 0.4 kg/kg | 0.15 kg/kg | {SUBMITTER_DATA} | "
            "Submission: concentration in the use formulation.") in text


def test_a_departure_prints_each_release_it_moves_with_its_change_and_threshold(reviewer):
    """ESD 2010 Eqn 4-1, the container residue: release 1 = Qchem_yr × Fcontainer_disp = 5,000 ×
    0.006 = 30 kg/yr with the default, 5,000 × 0.01 = 50 kg/yr with the departure (+66.7 %);
    release 2 (Eqn 4-2) = (5,000 − release 1) × Fequip_disp 0.01 = 49.7, then 49.5 kg/yr: release
    1 passes release 2, so both change rank."""
    text = _appendix(_text(_use(reviewer, use_concentration=None)))
    assert (f"Fcontainer_disp Fraction of the photoresist left in emptied containers | 0.006 kg/kg | 0.01 kg/kg | "
            f"{REVIEWER} | {RESIDUE_REASON}") in text
    part = text[text.index("(Fcontainer_disp) alone"):]
    # The estimate the ESD calls the high end is the reviewer's what-if once its input departs.
    assert ("Release 1: Container residue | high end → what-if | kg/yr, all sites | 3.0E+1 | 5.0E+1 | +66.7 % | "
            "rank changed") in part
    # Two figures EPA's two digits cannot tell apart print with as many as can (4.97E+1, 4.95E+1).
    assert "| kg/yr, all sites | 4.97E+1 | 4.95E+1 | -0.402 % | rank changed" in part


def test_an_approved_revision_prints_the_case_as_approved(demo_data):
    """Revision 1 was approved with the case's concentration; the case amended since leaves the
    input the submitter's as approved (its reason the case's own)."""
    approved = Assessment.objects.get(submission__case_number="P-18-0123", revision=1)
    Submission.objects.filter(pk=approved.submission_id).update(use_concentration=0.2)
    # Approved work is final (on PostgreSQL a trigger refuses the write): the appendix is
    # chosen on the copy in memory only.
    approved = Assessment.objects.get(pk=approved.pk)
    approved.irer_departures = True
    text = _appendix(_text(approved))
    assert f"| 0.4 kg/kg | 0.15 kg/kg | {SUBMITTER_DATA} |" in text


# --- CBI ---------------------------------------------------------------------------------------


def test_the_sanitised_copy_withholds_the_claimed_input_and_the_figures_derived_from_claims(reviewer):
    assessment = _use(reviewer, claims=["production_volume_kg_yr", "use_concentration"], use_concentration=0.15)
    full, sanitised = _appendix(_text(assessment)), _appendix(_text(assessment, sanitised=True))
    residue = "Fraction of the photoresist left in emptied containers (Fcontainer_disp)"
    concentration = "Mass fraction of the chemical in the photoresist (Fchem)"
    # The full copy: the claimed concentration's departure, and every figure.
    assert "| 0.4 kg/kg | 0.15 kg/kg |" in full and "3.0E+1 | 5.0E+1 | +66.7 %" in full
    # The sanitised copy: the concentration's line in place of its departure, whatever its value ...
    assert appendix.CLAIMED_WITHHELD.format(inputs=concentration) in sanitised
    assert "0.15" not in sanitised and "0.4 kg/kg" not in sanitised
    # ... the reviewer's departure (no claim) as it is, and its figures that move with the claimed
    # production volume withheld: the releases, here every figure it moves.
    assert f"| 0.006 kg/kg | 0.01 kg/kg | {REVIEWER} | {RESIDUE_REASON}" in sanitised
    assert appendix.EFFECTS_WITHHELD.format(input=residue) in sanitised
    assert "3.0E+1" not in sanitised and "+66.7 %" not in sanitised and "Container residue" not in sanitised


def test_a_figure_no_claim_reaches_is_printed_in_the_sanitised_copy(reviewer):
    """The molecular weight, claimed, reaches no figure of a nonvolatile chemical's use: the
    sanitised copy prints them all. For a volatile one (5 torr) it reaches the releases whose
    vapour the ESD computes with it (1 and 2): those are withheld, the others printed, and the
    others' ranks, which are read against the withheld ones, withheld."""
    limit = {"tlv_pel_value": 1.0, "tlv_pel_unit": "ppm", "tlv_pel": "ACGIH TLV"}
    residue = "Fraction of the photoresist left in emptied containers (Fcontainer_disp)"
    nonvolatile = _use(reviewer, claims=["molecular_weight"], molecular_weight=200.0, vapour_pressure_torr=1e-6,
                       use_concentration=None, **limit)
    text = _appendix(_text(nonvolatile, sanitised=True))
    assert ("Release 1: Container residue | high end → what-if | kg/yr, all sites | 3.0E+1 | 5.0E+1 | +66.7 % | "
            "rank changed") in text
    assert appendix.EFFECTS_WITHHELD.format(input=residue) not in text
    volatile = _use(reviewer, claims=["molecular_weight"], molecular_weight=200.0, vapour_pressure_torr=5.0,
                    use_concentration=None, **limit)
    text = _appendix(_text(volatile, sanitised=True))
    assert "Container residue" not in text and "Equipment cleaning" not in text
    assert "Release 3: Excess photoresist (spin-off) | output | kg/yr, all sites | 4.58E+3 | 4.56E+3 | -0.402 % | " \
           f"{CBI_TEXT}" in text
    assert appendix.EFFECTS_WITHHELD.format(input=residue) in text
    assert "Container residue" in _appendix(_text(volatile))


def test_a_claimed_input_at_its_default_prints_the_same_sanitised_line(reviewer):
    """Whether a claimed concentration departs from the document's 0.4 is itself withheld: the
    full copies differ (a departure, or the input at its default), the sanitised ones do not."""
    at_default = _use(reviewer, claims=["use_concentration"], use_concentration=0.4)
    departing = _use(reviewer, claims=["use_concentration"], use_concentration=0.15)
    concentration = "Mass fraction of the chemical in the photoresist (Fchem)"
    assert appendix.CLAIMED_AT_DEFAULT.format(inputs=concentration) in _appendix(_text(at_default))
    assert "| 0.4 kg/kg | 0.15 kg/kg |" in _appendix(_text(departing))
    sanitised = [_cased(_appendix(_text(a, sanitised=True)), a) for a in (at_default, departing)]
    assert sanitised[0] == sanitised[1]
    assert appendix.CLAIMED_WITHHELD.format(inputs=concentration) in sanitised[0]


def test_whether_the_engine_refuses_the_defaults_alone_is_withheld(reviewer):
    """Found by the property below: with its departures at their defaults, the engine refuses
    this use of a 2.83E+6 kg/yr case and computes that of a 2 kg/yr one. The production
    volume claimed, the refusal is said in the full copy only, and each departure's effects
    are withheld in both sanitised copies alike."""
    claims = list(NUMERIC)
    big = {**PLAIN, "production_volume_kg_yr": 2829993.089685856, "molecular_weight": 405.0,
           "use_concentration": 0.835}
    small = {**PLAIN, "production_volume_kg_yr": 2.0, "molecular_weight": 2650.7046998499973,
             "use_concentration": 0.31995624650251353}
    cases = [build(PHOTORESIST, values, claims, branch=branch_for(PHOTORESIST, 36), site_data=False,
                   reviewer=reviewer) for values in (big, small)]
    for assessment in cases:
        assessment.irer_departures = True
        assessment.save()
    refused = DEFAULTS_REFUSED.split(":")[0]
    assert refused in _text(cases[0]) and refused not in _text(cases[1])
    first, second = (sanitised_copies(a) for a in cases)
    assert first == second
    assert refused not in first["word"]


def _cased(text: str, assessment: Assessment) -> str:
    return text.replace(assessment.submission.case_number, "CASE")


NUMERIC_CLAIMS = [(field,) for field in NUMERIC] + [tuple(NUMERIC)]
_VALUES = {
    "production_volume_kg_yr": st.floats(min_value=1.0, max_value=5e7, allow_nan=False),
    "molecular_weight": st.floats(min_value=30.0, max_value=3000.0, allow_nan=False),
    "use_concentration": st.floats(min_value=0.001, max_value=1.0, allow_nan=False),
}


@pytest.mark.parametrize("claims", NUMERIC_CLAIMS, ids=lambda c: "all" if len(c) > 1 else c[0])
@pytest.mark.parametrize("key", KEYS)
def test_cases_differing_only_in_claimed_values_print_the_same_sanitised_appendix(key, claims, reviewer):
    """As ``tests/contract/test_sanitised_copy_property.py``, with the appendix chosen and the
    use taken down a branch of the contract tests (inputs away from their defaults). Examples:
    half ``PMN_PROPERTY_EXAMPLES`` (each asks the engine what every figure of each run derives
    from: seconds an example when every number is claimed)."""

    @settings(max_examples=max(1, EXAMPLES // 2), deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(a=st.fixed_dictionaries({f: _VALUES[f] for f in claims}),
           b=st.fixed_dictionaries({f: _VALUES[f] for f in claims}),
           branch=st.integers(-1, len(registry.get(key).params.params)), tlv_ppm=st.booleans())
    def check(a, b, branch, tlv_ppm):
        copies = []
        for values in (a, b):
            assessment = build(key, {**PLAIN, **values}, list(claims), branch=branch_for(key, branch),
                               site_data=False, reviewer=reviewer, tlv_ppm=tlv_ppm)
            assume(assessment is not None)
            assessment.irer_departures = True
            assessment.save()
            copies.append(sanitised_copies(assessment))
        for name in copies[0]:
            assert copies[0][name] == copies[1][name], f"{key}, claimed {claims}, {name}:\n" + first_difference(
                copies[0][name], copies[1][name])
        assert appendix.TITLE in copies[0]["word"]

    check()


# --- the writers -------------------------------------------------------------------------------


def test_the_pdf_and_the_word_copy_print_the_appendix(demo_revision_2):
    demo_revision_2.irer_departures = True
    demo_revision_2.save()
    context = irer_context(assessment=demo_revision_2)
    pdf = " ".join(pdf_text(irer_pdf(context)).split())
    word = " ".join(docx_text(irer_docx(context)).split())
    assert appendix.TITLE.upper() in pdf  # the print stylesheet sets the report's second-level headings in capitals
    assert appendix.TITLE in word
    for text in (pdf, word):
        assert "Use 1: Photoresist in Semiconductor Manufacturing: defaults against the case" in text
        assert "Organic solvent stripping: 25 % to water, 75 % to incineration" in text
        assert "Water 25 %, Incineration 75 %" in text
    assert CBI_TEXT not in plain_text(context["document"])
