"""Numbers as people type them, read the same way everywhere (``parameters.parse_number``):
the case form, every wizard field and ``esd compute`` accept ``5,000`` and ``1e-6`` and
refuse a decimal comma with the same words, and nothing is written on a refusal.

``1,5`` and ``0,15`` were read as 15 (every comma stripped): a fraction 100 times the one
meant, which no range check catches on a production volume.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.utils.html import escape

from assessments import services
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, DECIMAL_COMMA
from assessments.models import Scenario, Submission
from tests.conftest import make_assessment, make_submission
from tests.views.test_cases import VALID
from tests.views.wizard_helpers import post_step

pytestmark = pytest.mark.django_db

CASE_DECIMAL_COMMA = f"Enter a number: {DECIMAL_COMMA}."


# The case form ---------------------------------------------------------------------------


@pytest.mark.parametrize("field, text, number", [
    ("production_volume_kg_yr", "5,000", 5000.0),
    ("production_volume_kg_yr", "1,234,567.5", 1234567.5),
    ("production_volume_kg_yr", " 5000 ", 5000.0),
    ("production_volume_kg_yr", "5e3", 5000.0),
    ("vapour_pressure_torr", "1.0E-6", 1e-6),
    ("vapour_pressure_temp_c", "-20", -20.0),
    ("use_concentration", ".15", 0.15),
])
def test_the_case_form_reads_numbers_as_people_type_them(client, reviewer, field, text, number):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: text})
    assert response.status_code == 302
    assert getattr(Submission.objects.get(case_number=VALID["case_number"]), field) == number


@pytest.mark.parametrize("field, text", [
    ("production_volume_kg_yr", "1,5"),
    ("production_volume_kg_yr", "0,15"),
    ("production_volume_kg_yr", "1,23"),
    ("production_volume_kg_yr", "12,3456"),
    ("use_concentration", "0,15"),
    ("molecular_weight", "562,4"),
])
def test_the_case_form_refuses_a_decimal_comma_saying_to_use_a_decimal_point(client, reviewer, field, text):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, field: text})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [CASE_DECIMAL_COMMA]
    assert escape(CASE_DECIMAL_COMMA) in response.content.decode()
    assert not Submission.objects.exists()


@pytest.mark.parametrize("text", ["1_000", "١٢٣", "１２３", "nan", "inf", "Infinity", "1e309", "0x10", "5 000"])
def test_the_case_form_refuses_what_float_reads_but_people_do_not_type(client, reviewer, text):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "production_volume_kg_yr": text})
    assert response.status_code == 200
    message = response.context["form"].errors["production_volume_kg_yr"][0]
    assert message.startswith("Enter a number")
    assert not Submission.objects.exists()


def test_editing_a_case_with_a_decimal_comma_changes_nothing(client, reviewer):
    case = make_submission(use_concentration=0.15)
    client.force_login(reviewer)
    form = client.get(f"/cases/{case.pk}/edit/").context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {name: ("" if value is None else value) for name, value in data.items() if value is not False}
    response = client.post(f"/cases/{case.pk}/edit/", {**data, "use_concentration": "0,2"})
    assert response.status_code == 200
    assert response.context["form"].errors["use_concentration"] == [CASE_DECIMAL_COMMA]
    case.refresh_from_db()
    assert case.use_concentration == 0.15 and case.version == 1


def test_a_blank_number_on_the_case_form_is_no_value(client, reviewer):
    client.force_login(reviewer)
    assert client.post("/cases/new/", {**VALID, "molecular_weight": "   "}).status_code == 302
    assert Submission.objects.get().molecular_weight is None


# The wizard ------------------------------------------------------------------------------


@pytest.fixture
def assessment(reviewer):
    return make_assessment(make_submission(production_volume_kg_yr=5000, use_concentration=0.15), reviewer)


def add(assessment, reviewer, key: str) -> Scenario:
    return services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)


def test_a_wizard_field_reads_thousands_separators(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(assessment, reviewer, "photoresist-2010")
    response = post_step(client, scenario, "production", {"Qchem_yr": "12,500"}, {"Qchem_yr": "Submission"})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["Qchem_yr"] == 12500


def test_a_wizard_field_refuses_a_decimal_comma_naming_the_range(client, reviewer, assessment):
    client.force_login(reviewer)
    scenario = add(assessment, reviewer, "photoresist-2010")
    param = registry.get("photoresist-2010").params["Fchem"]
    response = post_step(client, scenario, "production", {"Fchem": "0,15"}, {"Fchem": "Submission"})
    assert response.status_code == 200
    assert response.context["wizard"]["form"].errors["Fchem"] == [
        f"{param.label} must be a number (greater than 0 and at most 1): {DECIMAL_COMMA}."
    ]
    scenario.refresh_from_db()
    assert scenario.inputs == {"Qchem_yr": 5000, "Fchem": 0.15} and scenario.current_step == ""


STEPS = [(s.key, step.key) for s in registry.scenarios() for step in s.params.steps]


def opened(key: str, step: str) -> tuple[dict, list]:
    """The choices that make a step's number fields apply (none, else a preset's: the
    supplier site of ``cvd-2015`` opens its step), and those fields."""
    scenario = registry.get(key)
    for values in ({}, *(dict(p.values) for p in scenario.presets)):
        applying = scenario.params.applicable(values)  # an input that does not apply is not read
        numbers = [p for p in scenario.params.for_step(step) if p.kind != CHOICE and p.symbol in applying]
        if numbers:
            return values, numbers
    return {}, []


@pytest.mark.parametrize(("key", "step"), STEPS)
def test_every_number_field_of_every_wizard_refuses_a_decimal_comma(client, reviewer, assessment, key, step):
    client.force_login(reviewer)
    scenario = add(assessment, reviewer, key)
    choices, numbers = opened(key, step)
    assert numbers, f"{key} {step} has no number field: every step asks for one"
    on_step = {p.symbol for p in registry.get(key).params.for_step(step)}
    scenario.inputs = {**scenario.inputs, **{k: v for k, v in choices.items() if k not in on_step}}
    scenario.save()
    before = Scenario.objects.get(pk=scenario.pk).inputs
    chosen = {k: v for k, v in choices.items() if k in on_step}
    response = post_step(client, scenario, step, {**chosen, **{p.symbol: "1,5" for p in numbers}},
                         {p.symbol: "Submission" for p in numbers})
    assert response.status_code == 200
    errors = response.context["wizard"]["form"].errors
    for p in numbers:
        assert errors[p.symbol] == [f"{p.label} must be a number ({p.range_text()}): {DECIMAL_COMMA}."], p.symbol
    assert Scenario.objects.get(pk=scenario.pk).inputs == before


# esd compute, and one message everywhere ---------------------------------------------------


def esd_compute(key: str, inputs: dict) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", "compute", key, stdin=io.StringIO(json.dumps(inputs)), stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, json.loads(err.getvalue())
    return 0, json.loads(out.getvalue())


def test_esd_compute_reads_a_string_with_thousands_separators():
    status, out = esd_compute("photoresist-2010", {"Qchem_yr": "5,000", "Fchem": 0.15})
    assert status == 0 and out["inputs"]["Qchem_yr"] == 5000


def test_the_form_the_wizard_and_esd_compute_give_the_same_words_for_a_decimal_comma(client, reviewer, assessment):
    client.force_login(reviewer)
    status, out = esd_compute("photoresist-2010", {"Qchem_yr": 5000, "Fchem": "0,15"})
    assert status == 2
    assert out == {"errors": {"Fchem": f"must be a number (greater than 0 and at most 1): {DECIMAL_COMMA}"}}

    scenario = add(assessment, reviewer, "photoresist-2010")
    wizard = post_step(client, scenario, "production", {"Fchem": "0,15"}, {"Fchem": "Submission"})
    param = registry.get("photoresist-2010").params["Fchem"]
    assert wizard.context["wizard"]["form"].errors["Fchem"] == [f"{param.label} {out['errors']['Fchem']}."]

    case = client.post("/cases/new/", {**VALID, "use_concentration": "0,15"})
    assert case.context["form"].errors["use_concentration"] == [f"Enter a number: {DECIMAL_COMMA}."]
