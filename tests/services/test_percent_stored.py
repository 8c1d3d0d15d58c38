"""Shares as stored (issue 26): a use's inputs hold effective values, and every computation
validates them again, so a value must be stored as what reads back the same.

A control efficiency of 0.9 % that the reviewer confirmed with its sign is stored as the
text ``"0.9%"`` (a bare 0.9 would be asked about); a bare 0.9 stored before the question
existed is asked about on the next computation, never read silently; a fraction typed as
a percentage is stored as the fraction. The export and import carry ``"0.9%"`` as it is.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from assessments import input_rules, services, transfer
from assessments.esd import registry
from assessments.forms.site_data import input_field, site_initial
from assessments.models import Scenario
from assessments.site_data import entries_text
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

ENTRY = {"method": "emission_factor", "source": "PMN attachment 2", "replaces": None,
         "inputs": {"pollutant_class": "voc", "EF_x": "1", "AF": "10", "OH": "100", "days_per_year": "10"}}
# By hand (EIIP Eqn 6.5-3, 6.5-2): 1 lb/unit × 10 units/hr × 100 hr/yr = 1,000 lb/yr
# × 0.45359237 kg/lb = 453.59237 kg/yr before the control device.
UNCONTROLLED_KG_YR = 453.59237
QUESTION = ("is in per cent (between 0 and 100 %): 0.9 would be read as 0.9 %, not 90 %; "
            "type 90 for 90 %, or 0.9% (with the sign) if you mean 0.9 %")


def with_ce(ce) -> dict:
    return {**ENTRY, "inputs": {**ENTRY["inputs"], "CE": ce}}


@pytest.fixture
def use(reviewer) -> Scenario:
    case = make_submission(production_volume_kg_yr=10000)
    assessment = make_assessment(case, reviewer)
    return services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="CVD precursor")


def site_release_kg_yr(scenario: Scenario) -> float:
    (release,) = [r for r in scenario.result["releases"] if r["site_specific"]]
    return release["estimates"][0]["kg_site_year"]


@pytest.mark.parametrize(("typed", "stored"), [("0.9%", "0.9%"), ("0.9 %", "0.9%"), ("90", 90.0), ("90%", 90.0),
                                                ("1%", "1%"), ("0", None)])
def test_a_percentage_is_stored_as_what_reads_back_the_same(typed, stored):
    (row,) = input_rules.clean_site_entries([with_ce(typed)])
    assert row["inputs"].get("CE") == stored  # 0: the default, left out (linked to it)


def test_a_confirmed_small_percentage_is_computed_as_such_every_time(reviewer, use):
    use = services.scenario_save_site_data(scenario=use, by=reviewer, entries=[with_ce("0.9%")])
    assert use.inputs["site_specific"][0]["inputs"]["CE"] == "0.9%"
    use = services.scenario_compute(scenario=use, by=reviewer)
    # By hand: 453.59237 kg/yr × (1 − 0.9/100)
    assert site_release_kg_yr(use) == pytest.approx(UNCONTROLLED_KG_YR * 0.991, rel=1e-12)
    use = services.scenario_compute(scenario=use, by=reviewer)  # computed again from the stored inputs
    assert site_release_kg_yr(use) == pytest.approx(UNCONTROLLED_KG_YR * 0.991, rel=1e-12)


def test_a_bare_0_9_stored_before_the_question_is_asked_about_on_the_next_computation(reviewer, use):
    # As an earlier version stored a control efficiency typed as 0.9: the effective float.
    stored = {"pollutant_class": "voc", "EF_x": 1.0, "AF": 10.0, "OH": 100.0, "days_per_year": 10.0, "CE": 0.9}
    use.inputs = {**use.inputs, "site_specific": [{**ENTRY, "inputs": stored}]}
    use.save()
    with pytest.raises(ValidationError) as refused:
        services.scenario_compute(scenario=use, by=reviewer)
    assert refused.value.message_dict == {"site_specific[0].CE": [QUESTION]}
    use.refresh_from_db()
    assert use.result is None and use.computed_at is None  # nothing computed, nothing written


def test_saving_the_step_again_asks_about_a_stale_bare_0_9(reviewer, use):
    with pytest.raises(ValidationError) as refused:
        services.scenario_save_site_data(scenario=use, by=reviewer, entries=[with_ce(0.9)])
    assert refused.value.message_dict == {"site_specific[0].CE": [QUESTION]}


def test_the_wizard_shows_a_stored_small_percentage_as_confirmed():
    stored = input_rules.clean_site_entries([with_ce("0.9%")])
    initial = site_initial(stored)
    assert initial[input_field(0, "emission_factor", "CE")] == "0.9%"
    assert "CE = 0.9 %" in entries_text(stored)  # the history's words: the number with its units


def test_a_fraction_typed_as_a_percentage_is_stored_as_the_fraction():
    ef = registry.get("cvd-2015").params["EF"]
    inputs, _ = input_rules.clean_step_values([ef], {"EF": "90%"}, {"EF": "Vendor data sheet"})
    assert inputs == {"EF": 0.9}
    with pytest.raises(ValidationError) as refused:
        input_rules.clean_step_values([ef], {"EF": "90"}, {"EF": "Vendor data sheet"})
    assert refused.value.message_dict == {"EF": [
        "Efficiency of the point-of-use (POU) abatement must be between 0 and 1 kg/kg "
        "(a fraction: 90 % is 0.9, or type 90%)."]}


def test_the_export_and_import_carry_a_confirmed_small_percentage(reviewer, use):
    use = services.scenario_save_site_data(scenario=use, by=reviewer, entries=[with_ce("0.9%")])
    use = services.scenario_compute(scenario=use, by=reviewer)
    number = use.assessment.submission.case_number
    document = transfer.case_export(case_number=number)
    text = transfer.dumps(document).replace(f'"{number}"', '"P-26-0999"')
    imported = transfer.case_import(document=transfer.loads(text, source="the test's export"))
    (copy,) = Scenario.objects.filter(assessment__submission=imported)
    assert copy.inputs["site_specific"][0]["inputs"]["CE"] == "0.9%"
    copy = services.scenario_compute(scenario=copy, by=reviewer)
    assert site_release_kg_yr(copy) == pytest.approx(UNCONTROLLED_KG_YR * 0.991, rel=1e-12)
