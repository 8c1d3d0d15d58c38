"""Bad inputs to the photoresist scenarios: a validation error naming each bad symbol.

One test per kind of bad input (DESIGN.md: "Bad input raises a validation error naming
the symbol and the allowed range; nothing is silently clamped").
"""

from __future__ import annotations

import pytest

from assessments.esd import registry
from assessments.esd.parameters import EngineValidationError

KEYS = ("photoresist-2004", "photoresist-2010", "photoresist-2018")
GOOD = {"Qchem_yr": 5000, "Fchem": 0.15}


def errors(key: str, inputs) -> dict[str, str]:
    with pytest.raises(EngineValidationError) as caught:
        registry.compute(key, inputs)
    return caught.value.errors


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("symbol, value, words", [
    ("Qchem_yr", -5, "greater than 0"),
    ("Qchem_yr", 0, "greater than 0"),
    ("Fchem", 1.5, "greater than 0 and at most 1"),
    ("Fchem", 0, "greater than 0 and at most 1"),
    ("TIMEapply_days", 0, "between 1 and 365"),
    ("TIMEapply_days", 366, "between 1 and 365"),
    ("TIMEapply_hours", 25, "at most 24"),
    ("Fcontainer_disp", 1, "less than 1"),
    ("Fequip_disp", -0.01, "at least 0"),
    ("Nsites", 0, "between 1 and 10000"),  # a known number of sites: at most 10,000 (issue 26)
    ("AREAsurface_1hand", 42_000, "at most 1000"),  # mm² entered for cm²
    ("max_exposure_days", 0, "between 1 and 365"),
])
def test_out_of_range_names_the_symbol_and_range(key, symbol, value, words):
    found = errors(key, {**GOOD, symbol: value})
    assert list(found) == [symbol]
    assert words in found[symbol]


@pytest.mark.parametrize("key", KEYS)
def test_a_string_where_a_number_belongs(key):
    found = errors(key, {**GOOD, "Fchem": "fifteen percent"})
    assert found == {"Fchem": "must be a number (greater than 0 and at most 1)"}


@pytest.mark.parametrize("key", KEYS)
def test_a_boolean_is_not_a_number(key):
    assert "Fchem" in errors(key, {**GOOD, "Fchem": True})


@pytest.mark.parametrize("key", KEYS)
def test_a_count_must_be_whole(key):
    assert "whole number" in errors(key, {**GOOD, "Nsites": 2.5})["Nsites"]


@pytest.mark.parametrize("key", KEYS)
def test_an_unknown_symbol(key):
    assert errors(key, {**GOOD, "Qchem_yearly": 5000}) == {"Qchem_yearly": "unknown input symbol for this scenario"}


@pytest.mark.parametrize("key", KEYS)
def test_the_production_volume_is_required(key):
    assert "is required" in errors(key, {"Fchem": 0.15})["Qchem_yr"]


@pytest.mark.parametrize("key", KEYS)
def test_not_a_mapping(key):
    assert "__all__" in errors(key, [["Qchem_yr", 5000]])


@pytest.mark.parametrize("key", KEYS)
def test_every_bad_symbol_is_reported_at_once(key):
    found = errors(key, {"Qchem_yr": -1, "Fchem": 2, "Bogus": 1})
    assert set(found) == {"Qchem_yr", "Fchem", "Bogus"}


@pytest.mark.parametrize("key", KEYS)
def test_low_above_high_skin_loading(key):
    found = errors(key, {**GOOD, "Qliquid_skin_low": 3.0})
    # the other input named by its label, with its value and units, as the wizard shows it
    assert found == {"Qliquid_skin_low": "must not exceed “Liquid photoresist left on skin, high end” "
                                         "(2.1 mg/cm²-incident)"}


@pytest.mark.parametrize("key", KEYS)
def test_volatile_chemical_needs_its_molecular_weight(key):
    assert "MWchem" in errors(key, {**GOOD, "VPchem": 0.5})


@pytest.mark.parametrize("key", KEYS)
def test_numerically_impossible_inputs_fail_cleanly(key):
    # A positive but denormal photoresist use underflows to zero: no ZeroDivisionError escapes
    found = errors(key, {**GOOD, "Napply": 1e-320, "Qapply": 1e-10})
    assert "__all__" in found


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018"])
@pytest.mark.parametrize("symbol, value", [
    ("daily_use_basis", "purchased"),
    ("Fphoto_wafer", 1.2),
    ("Vcont", 0),
    ("Ncont_site_day", 0),
    ("cleanings_per_year", 0),
    ("Nshifts_day", 25),
    ("Fphoto_waste", 0),
])
def test_revised_edition_bounds(key, symbol, value):
    assert symbol in errors(key, {**GOOD, symbol: value})


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018"])
def test_cleanings_cannot_exceed_the_application_days(key):
    found = errors(key, {**GOOD, "TIMEapply_days": 250, "cleanings_per_year": 300})
    assert list(found) == ["cleanings_per_year"]


@pytest.mark.parametrize("key", ["photoresist-2010", "photoresist-2018"])
def test_a_cleaning_interval_needs_the_cleanings(key):
    assert list(errors(key, {**GOOD, "cleaning_interval_days": 30})) == ["cleaning_interval_days"]


def test_stripping_process_must_be_one_of_the_four():
    found = errors("photoresist-2018", {**GOOD, "stripping_process": "wet"})
    # the choices by their labels, never their codes
    assert found == {"stripping_process": (
        "must be one of the listed choices: “Plasma stripping/ashing: the chemical is destroyed”, "
        "“Aqueous wet stripping: 100 % to water”, “Organic solvent stripping: 25 % to water, 75 % to "
        "incineration” or “Unknown: water or incineration”")}


def test_stripping_process_belongs_to_the_2018_update_only():
    found = errors("photoresist-2010", {**GOOD, "stripping_process": "plasma"})
    assert "only in the 2010 ESD with EPA's 2018 update" in found["stripping_process"]


@pytest.mark.parametrize("symbol", ["Vcont", "cleanings_per_year", "daily_use_basis", "Nlines_site",
                                    "AREAsurface_2hand", "Fphoto_waste", "Fphoto_wafer"])
def test_2004_names_symbols_its_method_has_no_place_for(symbol):
    value = "dispensed" if symbol == "daily_use_basis" else 1
    found = errors("photoresist-2004", {**GOOD, symbol: value})
    assert list(found) == [symbol]
    assert "2004 edition" in found[symbol]


def test_2004_reports_its_own_errors_with_the_foreign_symbols():
    found = errors("photoresist-2004", {"Qchem_yr": -1, "Vcont": 3.8})
    assert set(found) == {"Qchem_yr", "Vcont"}


def test_2004_range_must_be_ordered():
    found = errors("photoresist-2004", {**GOOD, "Fphoto_wafer_low": 0.08})
    assert found == {"Fphoto_wafer_low": "must not exceed “Fraction adhering to the wafer, high end of the range” "
                                         "(0.07 kg/kg)"}


# Numbers as text (a form's value, or a JSON string): read by parameters.parse_number.


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text, number", [
    ("5,000", 5000.0),
    ("1,234,567.5", 1234567.5),
    (" 5000 ", 5000.0),
    ("5e3", 5000.0),
    ("5.0E+3", 5000.0),
    ("+5000", 5000.0),
])
def test_a_volume_typed_as_people_type_it_is_read(key, text, number):
    assert registry.compute(key, {**GOOD, "Qchem_yr": text}).as_dict()["inputs"]["Qchem_yr"] == number


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["0,15", "0,5", "1,5"])
def test_a_decimal_comma_is_refused_saying_to_use_a_decimal_point(key, text):
    # "0,15" was read as 15 (every comma stripped): 100 times the fraction meant.
    assert errors(key, {**GOOD, "Fchem": text}) == {
        "Fchem": "must be a number (greater than 0 and at most 1): use a decimal point, not a comma (1.5, not 1,5)"
    }


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["1,23", "12,3456", "5000,5"])
def test_a_comma_that_is_not_a_thousands_separator_is_refused_on_the_volume(key, text):
    found = errors(key, {**GOOD, "Qchem_yr": text})
    assert list(found) == ["Qchem_yr"]
    assert found["Qchem_yr"].startswith("must be a number (greater than 0)")
    assert "use a decimal point, not a comma" in found["Qchem_yr"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["1_000", "١٢٣", "１２３", "nan", "NaN", "0x10", "1e", "5 000", "5\u00a0000"])
def test_spellings_float_reads_but_a_person_does_not_type_are_refused(key, text):
    assert errors(key, {**GOOD, "Qchem_yr": text})["Qchem_yr"].startswith("must be a number (greater than 0)")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["inf", "-inf", "Infinity", "infinity", "1e309", "9" * 400])
def test_an_infinite_text_is_refused_as_not_finite(key, text):
    assert errors(key, {**GOOD, "Qchem_yr": text}) == {"Qchem_yr": "must be a finite number (greater than 0)"}


@pytest.mark.parametrize("key", KEYS)
def test_a_count_typed_with_a_decimal_comma_is_refused(key):
    assert "use a decimal point, not a comma" in errors(key, {**GOOD, "Nsites": "2,5"})["Nsites"]


@pytest.mark.parametrize("key", KEYS)
def test_json_numbers_are_taken_as_they_are(key):
    result = registry.compute(key, {"Qchem_yr": 5000, "Fchem": 0.15, "Nsites": 3.0}).as_dict()
    assert result["inputs"]["Qchem_yr"] == 5000 and result["inputs"]["Fchem"] == 0.15
    assert result["inputs"]["Nsites"] == 3
