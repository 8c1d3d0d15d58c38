"""One convention for shares of a whole (issue 26): an input declares its scale once
(``Param.share``: a fraction, 0 to 1, or a percentage, 0 to 100), and a value that could
be read on either scale is never read silently.

EIIP asks for the control efficiency and the weight percent in per cent (Forms C1 to C4
"Control Efficiency"; Eqn 6.4-2 divides wt%_x by 100), the ESDs for their loss fractions
and efficiencies as fractions (ESD 2015 Table A-4: the POU abatement efficiency 0.99).
Before, a reviewer typing 0.9 for a 90 % control efficiency got a release ten times too
large, silently.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assessments.esd import registry
from assessments.esd.parameters import (
    CHOICE,
    FRACTION,
    PERCENT,
    EngineValidationError,
    Param,
    error_words,
)
from assessments.esd.site_data import METHODS, parse_entries

CE = Param("CE", "Control efficiency of the device", "%", 0.0, "EIIP Forms C1 to C4", "s",
           lower=0, upper=100, share=PERCENT)
EF = Param("EF", "Efficiency of the POU abatement", "kg/kg", 0.99, "ESD 2015 Table A-4", "s",
           lower=0, upper=1, share=FRACTION)
FCHEM = Param("Fchem", "Mass fraction of the chemical", "kg/kg", 0.15, "ESD 2010", "s",
              lower=0, upper=1, lower_open=True, share=FRACTION)
VOLUME = Param("Qchem_yr", "Production volume", "kg/yr", None, "The case", "s", lower=0, lower_open=True)

#: The question a percentage given a bare 0.9 asks, in a form's words.
QUESTION_09 = ("is in per cent (between 0 and 100 %): 0.9 would be read as 0.9 %, not 90 %; "
               "type 90 for 90 %, or 0.9% (with the sign) if you mean 0.9 %")


def refusal(param: Param, raw) -> str:
    """The message ``param`` refuses ``raw`` with, as ``validate`` keeps it."""
    with pytest.raises(ValueError) as refused:
        value = param.coerce(raw)
        message = param.check(value)
        if message:
            raise ValueError(message)
    return error_words(refused.value)


# --- A percentage -------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "value"), [
    (90, 90.0), ("90", 90.0), (99.5, 99.5), ("90%", 90.0), ("90 %", 90.0), (" 90% ", 90.0),
    ("0.9%", 0.9), ("0.9 %", 0.9), ("1%", 1.0), ("100", 100.0), (0, 0.0), ("0", 0.0), ("0%", 0.0),
    (1.5, 1.5),
])
def test_a_percentage_reads_a_number_as_per_cent_and_text_with_the_sign_as_that_percentage(raw, value):
    assert CE.coerce(raw) == value and CE.check(CE.coerce(raw)) == ""


@pytest.mark.parametrize("raw", [0.9, "0.9", 1, "1", 1.0, "0.5", 0.001, "1e-3", ".25"])
def test_a_percentage_given_a_bare_number_up_to_1_asks_which_was_meant(raw):
    message = refusal(CE, raw)
    assert message.startswith("is in per cent (between 0 and 100 %): ")  # the field's range
    assert "% (with the sign) if you mean" in message


def test_the_question_says_how_to_type_either_reading():
    assert refusal(CE, "0.9") == QUESTION_09
    assert refusal(CE, 1) == ("is in per cent (between 0 and 100 %): 1 would be read as 1 %, not 100 %; "
                              "type 100 for 100 %, or 1% (with the sign) if you mean 1 %")


def test_the_question_names_json_values_for_a_reader_of_json():
    with pytest.raises(ValueError) as refused:
        CE.coerce(0.9)
    message = error_words(refused.value)
    assert str(message) == QUESTION_09  # the form's words, wherever it is read as text
    assert message.json_words == (  # type: ignore[attr-defined]
        'is in per cent (between 0 and 100 %): the JSON value 0.9 would be read as 0.9 %, not 90 %; '
        'give 90 for 90 %, or the JSON string "0.9%" if you mean 0.9 %')


def test_a_percentage_out_of_its_range_says_the_range():
    assert refusal(CE, 150) == "must be between 0 and 100 %"
    assert refusal(CE, "150%") == "must be between 0 and 100 %"
    assert refusal(CE, "-5%") == "must be between 0 and 100 %"
    assert refusal(CE, "abc%") == "must be a number before the % sign (between 0 and 100 %)"


# --- A fraction ------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "value"), [
    (0.9, 0.9), ("0.9", 0.9), ("90%", 0.9), ("90 %", 0.9), ("99%", 0.99), ("5.5%", 0.055), ("0.6%", 0.006),
    ("100%", 1.0), (1, 1.0), (0, 0.0), ("0%", 0.0), ("1,000e-1%", 1.0),
])
def test_a_fraction_reads_a_number_as_a_fraction_and_text_with_the_sign_as_a_percentage(raw, value):
    assert EF.coerce(raw) == value and EF.check(EF.coerce(raw)) == ""


@pytest.mark.parametrize(("raw", "typed", "fraction"), [
    (90, "90", "0.9"), ("90", "90", "0.9"), ("5.5", "5.5", "0.055"), (100, "100", "1"), (33.3, "33.3", "0.333"),
])
def test_a_fraction_given_a_percentage_says_it_is_a_fraction_and_how_to_type_one(raw, typed, fraction):
    assert refusal(EF, raw) == f"must be between 0 and 1 kg/kg (a fraction: {typed} % is {fraction}, or type {typed}%)"


def test_the_fraction_message_names_json_values_for_a_reader_of_json():
    message = EF.check(90.0)
    assert message == "must be between 0 and 1 kg/kg (a fraction: 90 % is 0.9, or type 90%)"
    assert message.json_words == (  # type: ignore[attr-defined]
        'must be between 0 and 1 kg/kg (a fraction: 90 % is 0.9, or the JSON string "90%")')


def test_a_fraction_typed_as_a_percentage_out_of_range_says_both_ranges():
    assert refusal(EF, "150%") == "must be between 0 and 1 kg/kg (a fraction; with the % sign, between 0 and 100 %)"
    assert refusal(FCHEM, "0%") == ("must be greater than 0 and at most 1 kg/kg "
                                    "(a fraction; with the % sign, greater than 0 and at most 100 %)")


def test_a_sign_on_an_input_that_is_no_share_is_refused():
    message = refusal(VOLUME, "10%")
    assert message == "is not a percentage: type the number without the % sign (greater than 0 kg/yr)"


def test_zero_is_uncontrolled_on_both_scales():
    assert CE.coerce(0) == CE.coerce("0") == CE.coerce("0%") == EF.coerce(0) == EF.coerce("0%") == 0.0


# --- Stored as confirmed ---------------------------------------------------------------------


def test_a_small_percentage_is_stored_as_the_text_confirmed_and_read_back_alike():
    assert CE.as_input(0.9) == "0.9%" and CE.coerce("0.9%") == 0.9
    assert CE.as_input(90.0) == 90.0 and CE.as_input(0.0) == 0.0 and CE.as_input(1.0) == "1%"
    assert EF.as_input(0.9) == 0.9  # a fraction is stored as the number it is
    assert CE.from_input("0.9%") == 0.9 and CE.from_input(90.0) == 90.0


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=1, exclude_min=True))
def test_every_percentage_up_to_1_reads_back_as_stored(value):
    assert CE.coerce(CE.as_input(value)) == value


@settings(max_examples=300, deadline=None)
@given(st.decimals(min_value=0, max_value=100, places=4))
def test_a_percentage_typed_for_a_fraction_is_its_hundredth_exactly(percent):
    assert EF.coerce(f"{percent}%") == float(percent / 100)


# --- The declaration ---------------------------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"units": "kg/kg", "share": PERCENT, "upper": 100}, "only one, has the units %"),
    ({"units": "%", "share": FRACTION, "upper": 1}, "only one, has the units %"),
    ({"units": "%", "share": None, "upper": 100}, "must declare share=PERCENT"),
    ({"units": "kg/kg", "share": FRACTION, "upper": 100}, "bounds within 0 and 1"),
    ({"units": "%", "share": PERCENT, "upper": 1000}, "bounds within 0 and 100"),
    ({"units": "%", "share": PERCENT, "upper": None}, "bounds within 0 and 100"),
    ({"units": "-", "share": "ratio", "upper": 1}, "share must be FRACTION or PERCENT"),
])
def test_a_declaration_keeps_the_convention(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        Param("X", "A share", kwargs["units"], None, "doc", "s", lower=0, upper=kwargs["upper"],
              share=kwargs["share"])


def test_the_wizard_shows_each_scale_in_words():
    assert CE.share_text == "per cent, 0 to 100 (90 = 90 %)"
    assert EF.share_text == "fraction, 0 to 1 (0.9 = 90 %)"
    assert VOLUME.share_text == ""


#: Words of a label that make an input a share of a whole.
SHARE_WORDS = re.compile(r"fraction|efficiency|utilisation|percent|per cent|share|ratio of", re.IGNORECASE)


def every_input():
    """Every input of every registered scenario, and of every EIIP method of the site-data
    step (which every scenario takes)."""
    for scenario in registry.scenarios():
        for p in scenario.params.params:
            yield pytest.param(p, id=f"{scenario.key}-{p.symbol}")
    for method in METHODS.values():
        for p in method.params.params:
            yield pytest.param(p, id=f"site-{method.key}-{p.symbol}")


@pytest.mark.parametrize("param", list(every_input()))
def test_every_share_of_every_scenario_declares_its_scale(param):
    if param.kind == CHOICE:
        assert param.share is None
        return
    bounded_as_a_fraction = (param.lower, param.upper) == (0, 1)
    if bounded_as_a_fraction or SHARE_WORDS.search(param.label) or param.units == "%":
        assert param.share in (FRACTION, PERCENT), f"{param.symbol} ({param.label}) declares no share"
    if bounded_as_a_fraction:
        assert param.share == FRACTION
    if param.share is not None:
        assert param.share_text
        assert param.as_dict()["share"] == param.share  # esd defaults says it too


def test_the_eiip_inputs_stay_in_per_cent():
    # EIIP Eqn 6.4-2 divides wt%_x by 100; Forms C1 to C4 ask for the control efficiency in %.
    shares = {p.symbol: p.share for m in METHODS.values() for p in m.params.params if p.share}
    assert shares == {"CE": PERCENT, "wt_pct_x": PERCENT}


# --- Through the engine: the site-data entries and a scenario's own inputs ---------------------

ENTRY = {"method": "emission_factor", "source": "PMN attachment 2",
         "inputs": {"pollutant_class": "voc", "EF_x": 1.0, "AF": 10.0, "OH": 100, "days_per_year": 10}}
# By hand (EIIP Eqn 6.5-3, 6.5-2): E_x = 1 lb/unit × 10 units/hr = 10 lb/hr; × 100 hr/yr
# = 1,000 lb/yr × 0.45359237 kg/lb = 453.59237 kg/yr, uncontrolled.
UNCONTROLLED_KG_YR = 453.59237


def site_release_kg_yr(ce) -> float:
    result = registry.compute("cvd-2015", {"Qchem_yr": 10000, "site_specific": [
        {**ENTRY, "inputs": {**ENTRY["inputs"], "CE": ce}}]})
    (release,) = [r for r in result.releases if r.site_specific]
    return release.estimates[0].kg_site_year


@pytest.mark.parametrize(("ce", "kept"), [(90, 0.10), ("90", 0.10), ("90%", 0.10), ("0.9%", 0.991), (0, 1.0)])
def test_a_control_efficiency_releases_what_it_does_not_capture(ce, kept):
    # By hand: E_x × (1 − CE/100): 90 % keeps 10 %, 0.9 % keeps 99.1 %, 0 keeps all.
    assert site_release_kg_yr(ce) == pytest.approx(UNCONTROLLED_KG_YR * kept, rel=1e-12)


@pytest.mark.parametrize("ce", [0.9, "0.9"])
def test_a_control_efficiency_of_0_9_is_asked_about_never_computed(ce):
    with pytest.raises(EngineValidationError) as refused:
        site_release_kg_yr(ce)
    assert refused.value.errors == {"site_specific[0].CE": QUESTION_09}


def test_a_weight_percent_is_asked_about_as_the_control_efficiency_is():
    entry = {"method": "material_balance_speciated", "source": "MSDS", "inputs": {
        "pollutant_class": "organic", "Q_in": 2, "Q_out": 1.5, "d": 7.5, "wt_pct_x": 0.25, "OH": 100,
        "days_per_year": 10}}
    with pytest.raises(EngineValidationError) as refused:
        parse_entries([entry])
    assert refused.value.errors["site_specific[0].wt_pct_x"].startswith(
        "is in per cent (between 0 and 100 %): 0.25 would be read as 0.25 %, not 25 %")
    (parsed,) = parse_entries([{**entry, "inputs": {**entry["inputs"], "wt_pct_x": "25%"}}])
    assert parsed.inputs["wt_pct_x"] == 25.0


def test_a_scenario_fraction_takes_a_percentage_with_its_sign():
    params = registry.get("cvd-2015").params
    assert params.validate({"Qchem_yr": 10000, "EF": "99%"})["EF"] == 0.99
    with pytest.raises(EngineValidationError) as refused:
        params.validate({"Qchem_yr": 10000, "EF": 99})
    assert refused.value.errors == {"EF": "must be between 0 and 1 kg/kg (a fraction: 99 % is 0.99, or type 99%)"}
