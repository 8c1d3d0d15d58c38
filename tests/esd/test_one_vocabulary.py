"""One way to say each thing: the allowed range in words (the input forms and the
models' argument checks), a percentage as the IRER prints it, and one list of the media."""

from __future__ import annotations

import pytest

from assessments.esd import registry
from assessments.esd.models._validate import check_range
from assessments.esd.options import MEDIUM_NAMES as OPTIONS_MEDIUM_NAMES
from assessments.esd.parameters import CHOICE, INT
from assessments.esd.results import MEDIA, MEDIUM_NAMES
from assessments.esd.text import allowed_range, irer_percent
from assessments.reports.releases import _IN_HEADING, DESTINATIONS

NUMBER_PARAMS = [
    pytest.param(p, id=f"{scenario.key}-{p.symbol}")
    for scenario in registry.scenarios() for p in scenario.params.params
    if p.kind != CHOICE and (p.lower is not None or p.upper is not None)
]


@pytest.mark.parametrize("param", NUMBER_PARAMS)
def test_a_model_check_says_a_range_in_the_words_of_the_input_form(param):
    words = param.range_text().removeprefix("a whole number ") if param.kind == INT else param.range_text()
    below = (param.lower - 1) if param.lower is not None else (param.upper + 1)
    with pytest.raises(ValueError) as refused:
        check_range("X", below, lower=param.lower, upper=param.upper, lower_open=param.lower_open,
                    upper_open=param.upper_open)
    assert str(refused.value) == f"X must be {words} (got {below!r})"


def test_a_range_reads_its_bounds_as_entered():
    # 0 < x <= 365 (operating days); 0 <= x <= 1 (a fraction); bounds past a million in
    # E-notation as every number on the pages.
    assert allowed_range(0, 365, lower_open=True) == "greater than 0 and at most 365"
    assert allowed_range(0, 1) == "between 0 and 1"
    assert allowed_range(1, 2.5e6) == "between 1 and 2.5E+6"
    assert allowed_range(None, None) == ""


def test_the_irer_prints_a_percentage_without_a_space_to_four_figures():
    # EPA 2018 photoresist update, Section 7 sample IRER: "(liquid, 15%)", "CEB standard 0.6% residual".
    assert (irer_percent(0.15), irer_percent(0.006), irer_percent(0.5)) == ("15%", "0.6%", "50%")
    # 1/3 to four significant figures, as the IRER's "0.03465" loss fraction is printed.
    assert irer_percent(1 / 3) == "33.33%"


def test_the_media_are_listed_once():
    assert OPTIONS_MEDIUM_NAMES is MEDIUM_NAMES
    assert MEDIA == ("air", "water", "incineration", "landfill", "fuel_blending", "destroyed")
    assert set(DESTINATIONS) == set(MEDIA) == set(_IN_HEADING)
    assert _IN_HEADING[0] == "water"  # ChemSTEER's "Water or Air", never "Air or Water"
    assert (DESTINATIONS["water"], DESTINATIONS["fuel_blending"]) == ("On-Site Wastewater Treatment", "Fuel Blending")
