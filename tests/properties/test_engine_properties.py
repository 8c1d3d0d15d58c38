"""The engine's front door, ``registry.compute(key, inputs)``, under arbitrary input
(hypothesis): it answers with a ``Result`` or an ``EngineValidationError`` that names the
inputs at fault, never with another exception; and a result it returns holds only finite,
non-negative amounts, writable as strict JSON (what ``esd compute`` prints).

Inputs range from in-range values at the extremes their bounds allow (1e308 where there
is no upper bound, subnormal fractions, counts up to 10**15) to any JSON value under any
key, Python numbers JSON cannot carry, and ``site_specific`` entries, well formed or not.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from assessments.esd import registry
from assessments.esd.parameters import ALL, EngineValidationError
from assessments.esd.results import Result
from assessments.esd.site_data import SITE_SPECIFIC
from tests.properties.strategies import json_values, scenario_inputs, text_values

KEYS = [s.key for s in registry.scenarios()]
SITE_KEY = re.compile(r"^site_specific(\[\d+\](\..*)?)?$", re.DOTALL)
RELEASE_AMOUNTS = ("kg_site_day", "days_per_year", "sites", "kg_site_year", "kg_year_all_sites")

# About 15 s for the whole module on the 2-core reference machine (100 + 80 examples a key).
VALID = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WILD = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compute_or_error(key: str, inputs) -> Result | EngineValidationError:
    """The engine's answer; any exception other than a validation error fails the test."""
    try:
        return registry.compute(key, inputs)
    except EngineValidationError as exc:
        return exc


def assert_errors_name_inputs(error: EngineValidationError, key: str, inputs) -> None:
    """Each error is keyed by an input symbol (declared, or the unknown one given),
    ``__all__`` or a ``site_specific[...]`` position, with a message."""
    params = registry.get(key).params
    given_keys = set(inputs) if isinstance(inputs, dict) else set()
    assert error.errors, "a validation error must say what is wrong"
    for name, message in error.errors.items():
        assert isinstance(name, str) and isinstance(message, str) and message.strip(), (name, message)
        assert name == ALL or name in params or name in given_keys or SITE_KEY.match(name), name


def is_amount(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def assert_finite_non_negative(result: Result) -> None:
    out = result.as_dict()
    assert_amounts_finite_non_negative(out)
    # esd compute prints the result with json.dumps(allow_nan=False): no NaN or ±inf anywhere.
    json.dumps(out, allow_nan=False)


def assert_amounts_finite_non_negative(out: dict) -> None:
    """Every amount of a result's JSON (releases, exposures, totals) is finite and >= 0."""
    for release in out["releases"]:
        for estimate in release["estimates"]:
            for name in RELEASE_AMOUNTS:
                assert is_amount(estimate[name]), (release["number"], estimate["label"], name, estimate[name])
    for exposure in out["exposures"]:
        assert is_amount(exposure["workers_per_site"]), (exposure["letter"], exposure["workers_per_site"])
        assert is_amount(exposure["days_per_year"]), (exposure["letter"], exposure["days_per_year"])
        for estimate in exposure["estimates"]:
            assert is_amount(estimate["mg_day"]), (exposure["letter"], estimate["label"], estimate["mg_day"])
    for medium, amount in out["totals_by_medium"].items():
        assert is_amount(amount), (medium, amount)


def note_outcome(outcome: str) -> None:
    if currently_in_test_context():  # --hypothesis-show-statistics shows the split
        event(outcome)


def check(key: str, inputs) -> None:
    answer = compute_or_error(key, inputs)
    if isinstance(answer, EngineValidationError):
        note_outcome("validation error")
        assert_errors_name_inputs(answer, key, inputs)
    else:
        note_outcome("computed")
        assert isinstance(answer, Result) and answer.scenario == key
        assert_finite_non_negative(answer)


@pytest.mark.parametrize("key", KEYS)
@VALID
@given(data=st.data())
def test_in_range_inputs_compute_to_finite_non_negative_amounts_or_a_named_error(key, data):
    scenario = registry.get(key)
    check(key, data.draw(scenario_inputs(scenario, wild=False), label="inputs"))


@pytest.mark.parametrize("key", KEYS)
@WILD
@given(data=st.data())
def test_arbitrary_inputs_give_a_result_or_a_named_error_never_another_exception(key, data):
    scenario = registry.get(key)
    check(key, data.draw(scenario_inputs(scenario, wild=True), label="inputs"))


@settings(max_examples=100, deadline=None)
@given(key=st.one_of(text_values, st.sampled_from(KEYS).map(str.upper)), inputs=json_values)
def test_an_unknown_scenario_key_is_an_error_on_all(key, inputs):
    if key in KEYS:
        return
    with pytest.raises(EngineValidationError) as raised:
        registry.compute(key, inputs)
    assert set(raised.value.errors) == {ALL}


# --- examples hypothesis found, kept as plain regression cases -------------------------------

FOUND = [
    # An integer beyond a double's range (json.loads gives one for 1 followed by 400 zeros).
    ("photoresist-2010", {"Qchem_yr": 10**400}),
    ("cvd-2015", {"Qchem_yr": 5000, "Nsites": 10**19}),
    # In-range values whose products overflow or underflow a double.
    ("photoresist-2010", {"Qchem_yr": 5000, "Nexp_incident": 1e308}),
    ("cvd-2015", {"Qchem_yr": 5000, "Fchem": 1e-320}),
    ("cvd-2015", {"Qchem_yr": 5000, "TIME_operating_days": 5e-324}),
    # A production volume so small that the number of sites rounded to 0.
    ("cvd-2015", {"Qchem_yr": 1e-9}),
    ("photoresist-2010", {"Qchem_yr": 1e-9}),
    ("cvd-2015", {"Qchem_yr": 5000, "Qchem_site_yr": 1e15}),
    (
        "cvd-2015",
        {"Qchem_yr": 5000, SITE_SPECIFIC: [{"method": "emission_factor", "source": "s", "replaces": 1,
                                            "inputs": {"pollutant_class": "voc", "EF_x": 1e308, "AF": 1e308,
                                                       "OH": 8000, "days_per_year": 200}}]},
    ),
]


@pytest.mark.parametrize(("key", "inputs"), FOUND)
def test_found_examples_give_a_result_or_a_named_error(key, inputs):
    check(key, inputs)


@pytest.mark.parametrize("key", ["cvd-2015", "photoresist-2010", "photoresist-2004", "photoresist-2018"])
def test_a_tiny_positive_production_volume_still_needs_one_site(key):
    # ESD 2015 §3.6 footnote 9 / ESD 2010 Eqn 3-3: the number of sites is rounded *up*;
    # any positive volume needs at least one site (0.9e-9 sites rounds up to 1, not 0).
    result = registry.compute(key, {"Qchem_yr": 1e-9})
    assert result.facility["Nsites"] == 1


def test_an_integer_beyond_a_double_is_refused_on_its_own_symbol():
    # json.loads("1" + "0" * 400) is a Python int that float() cannot convert (OverflowError).
    with pytest.raises(EngineValidationError) as raised:
        registry.compute("photoresist-2010", {"Qchem_yr": 10**400, "Fchem": 0.15})
    assert list(raised.value.errors) == ["Qchem_yr"]
    assert raised.value.errors["Qchem_yr"].startswith("must be a finite number")


def test_in_range_inputs_whose_result_overflows_are_refused_on_all():
    # The production volume has no upper bound (Nexp_incident, which had none, is at most 10 since
    # issue 26); ChemSTEER's daily use releases Qchem_yr / (1 − Fcontainer_disp), ten times 1e308
    # at a residue of 0.9: the total overflows to infinity.
    with pytest.raises(EngineValidationError) as raised:
        registry.compute("photoresist-2010", {"Qchem_yr": 1e308, "daily_use_basis": "chemsteer",
                                              "Fcontainer_disp": 0.9})
    assert list(raised.value.errors) == [ALL]
    assert "beyond what can be computed" in raised.value.errors[ALL]
