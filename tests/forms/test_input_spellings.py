"""An input shows as entered (``numbers.entered``) in a step's box and in its default: the
pages' separators and E-notation, every digit of the stored number, and it reads back as
the same number."""

from __future__ import annotations

from assessments.esd.parameters import CHOICE, Param, parse_number
from assessments.forms.scenarios import default_text, format_value, step_initial
from assessments.input_rules import REASON_REQUIRED
from assessments.input_rules import default_text as services_default_text


def test_a_saved_input_shows_as_entered_and_reads_back():
    volume = Param("Vcont", "Container volume", "L", 5000.0, "doc", "s")
    initial = step_initial((volume,), {"Vcont": 2_500_000.0}, {})
    assert initial["Vcont"] == "2.5E+6" and parse_number(initial["Vcont"]) == 2_500_000.0
    assert (format_value(5000.0), format_value(1e-6), format_value(123.45678901234)) == ("5,000", "1E-6", "123.45678901234")


def test_a_default_reads_alike_on_the_step_and_in_the_reason_message():
    volume = Param("Vcont", "Container volume", "L", 5000.0, "doc", "s")
    state = Param("state", "Physical state", "", "liquid", "doc", "s", kind=CHOICE,
                  choices=(("gas", "Gas"), ("liquid", "Liquid")))
    assert default_text is services_default_text
    assert default_text(volume) == "5,000 L"
    assert REASON_REQUIRED.format(default=default_text(state)) == "Give a reason for changing the default (Liquid)."
