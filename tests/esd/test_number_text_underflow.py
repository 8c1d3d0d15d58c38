"""A number a double cannot hold is refused, never taken as another (issue 27): text that
underflows to 0 (``1e-400``) or overflows to infinity (``1e309``), and text with look-alike
characters (``１２``, a U+2212 minus, a zero-width space), by every input of every
scenario and of every site-data method, with a message naming the input and its range.
Temperatures are never below absolute zero."""

from __future__ import annotations

import json
import math

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from assessments import input_rules, services
from assessments.esd import registry
from assessments.esd.number_text import (
    SMALLEST_NUMBER,
    TOO_SMALL,
    NumberTextError,
    is_plain,
    json_number,
    parse_number,
)
from assessments.esd.parameters import CHOICE, Param
from assessments.esd.site_data import METHODS


def every_number_input():
    for scenario in registry.scenarios():
        for param in scenario.params.params:
            if param.kind != CHOICE:
                yield scenario.key, param
    for method in METHODS.values():
        for param in method.params.params:
            if param.kind != CHOICE:
                yield f"site data {method.key}", param


NUMBER_INPUTS = list(every_number_input())
IDS = [f"{where}:{p.symbol}" for where, p in NUMBER_INPUTS]

#: Text a double reads as 0 though it is not 0 (each by hand: below 4.9E-324 in size).
UNDERFLOWS = ["1e-400", "-1e-400", "0.000001e-320", "2.4e-324", "1,000e-330", " 5E-999 "]
#: Text a double reads as infinity.
OVERFLOWS = ["1e309", "-1e309", "1.8e308", "9" * 400]
#: Look-alikes: full-width digits, a U+2212 minus, a zero-width space, a full-width point,
#: Arabic-Indic digits, a thin space between digit groups.
LOOK_ALIKES = ["１２", "\u22125", "5\u200b000", "1\uff0e5", "١٢٣", "5\u2009000"]


@pytest.mark.parametrize("text", UNDERFLOWS)
def test_text_that_underflows_to_zero_is_refused(text):
    with pytest.raises(NumberTextError) as refused:
        parse_number(text)
    assert refused.value.tiny and refused.value.hint == TOO_SMALL


@given(mantissa=st.integers(min_value=1, max_value=10**6), exponent=st.integers(min_value=331, max_value=10**4))
def test_every_nonzero_number_a_double_holds_as_zero_is_refused(mantissa, exponent):
    """A property: any non-zero mantissa times 10^-331 or less (below 4.9E-324 for
    mantissas up to a million) is refused, never read as 0."""
    with pytest.raises(NumberTextError):
        parse_number(f"{mantissa}e-{exponent}")


@given(value=st.floats(min_value=SMALLEST_NUMBER, max_value=1e300))
def test_every_number_a_double_holds_reads_as_itself(value):
    assert parse_number(repr(value)) == value


@pytest.mark.parametrize("text", ["0", "0e-400", "0.000e-999", "-0"])
def test_zero_written_any_way_is_zero(text):
    assert parse_number(text) == 0.0


@pytest.mark.parametrize(("where", "param"), NUMBER_INPUTS, ids=IDS)
def test_every_input_refuses_underflow_naming_itself_and_its_range(where, param: Param):
    """The wizard's message (``input_rules.clean_step_values``: the form, the CLI and the import
    say it alike) names the input and its range, and nothing is saved as 0."""
    for text in ("1e-400", "1e309", "１２"):
        with pytest.raises(ValidationError) as refused:
            input_rules.clean_step_values([param], {param.symbol: text}, {param.symbol: "a reason"})
        message = refused.value.message_dict[param.symbol][0]
        assert message.startswith(param.label), (where, text, message)
        assert param.range_text() in message, (where, text, message)


@pytest.mark.parametrize("text", OVERFLOWS)
def test_text_that_overflows_is_refused_with_the_range(text):
    param = Param("Vcont", "Container volume", "L", 5000.0, "doc", "s", lower=0, lower_open=True)
    with pytest.raises(ValueError, match=r"must be a finite number \(greater than 0\)"):
        param.coerce(text)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_characters_are_refused_not_folded(text):
    assert not is_plain(text)
    with pytest.raises(NumberTextError) as refused:
        parse_number(text)
    assert refused.value.hint


@given(st.text(min_size=1, max_size=12))
def test_no_text_with_a_character_outside_ascii_reads_as_a_number(text):
    """A property: whatever the text, if it holds a character outside plain ASCII (other
    than blanks around it, and the infinity sign, refused anyway), it is no number."""
    if is_plain(text.strip()):
        return
    with pytest.raises(NumberTextError):
        parse_number(text)


def test_a_json_reader_keeps_the_text_of_a_number_a_double_cannot_hold():
    """``json.loads(..., parse_float=json_number)`` hands the input's reader the text of
    ``1e-400``, which it then refuses by name, instead of a silent 0."""
    inputs = json.loads('{"Vcont": 1e-400, "Fchem": 0.15, "big": 1e999}', parse_float=json_number)
    assert inputs == {"Vcont": "1e-400", "Fchem": 0.15, "big": "1e999"}
    vcont = registry.get("photoresist-2010").params["Vcont"]
    with pytest.raises(ValueError, match="too close to 0"):
        vcont.coerce(inputs["Vcont"])


# --- temperatures: never below absolute zero ------------------------------------------------

#: Absolute zero in each temperature unit the engine declares (K and °R by definition;
#: °C = -273.15 by ITS-90; °F = -459.67 = -273.15 × 9/5 + 32).
ABSOLUTE_ZERO = {"K": 0.0, "°R": 0.0, "°C": -273.15, "°F": -459.67}
TEMPERATURES = [(where, p) for where, p in NUMBER_INPUTS if p.units in ABSOLUTE_ZERO]


def test_the_engine_declares_temperatures():
    assert {p.symbol for _, p in TEMPERATURES} >= {"T"}


@pytest.mark.parametrize(("where", "param"), TEMPERATURES, ids=[f"{w}:{p.symbol}" for w, p in TEMPERATURES])
def test_every_temperature_input_refuses_below_absolute_zero(where, param: Param):
    zero = ABSOLUTE_ZERO[param.units]
    assert param.lower is not None and param.lower >= zero, where
    below = zero - 1e-9 if zero else -1e-9
    assert param.check(param.coerce(repr(below))), (where, param.symbol)
    assert math.isfinite(param.lower)


@pytest.mark.parametrize("text", ["1e-400", "1e999"])
def test_esd_compute_refuses_a_json_number_a_double_cannot_hold_by_name(text):
    """The command line reads its JSON with the same reader: ``1e-400`` is not a production
    volume of 0, ``1e999`` not infinity; the error names the input and its range."""
    import io

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    body = '{"Qchem_yr": ' + text + '}'
    with pytest.raises(SystemExit) as exited:
        call_command("esd", "compute", "photoresist-2010", stdin=io.StringIO(body), stdout=out, stderr=err)
    assert exited.value.code == 2
    errors = json.loads(err.getvalue())["errors"]
    assert "Qchem_yr" in errors and "greater than 0" in errors["Qchem_yr"], errors
