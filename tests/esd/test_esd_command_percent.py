"""``manage.py esd compute``: a share given on the wrong scale is refused in the words of a
reader of JSON (issue 26). The command line's messages name the JSON values it accepts
(as ``Param.json_choice_error`` does for a choice): a JSON number 0.9 for a control
efficiency in per cent is asked about with "give 90, or the JSON string "0.9%"", never
computed as 0.9 % when 90 % was meant, nor the other way round."""

from __future__ import annotations

import json

import pytest

from tests.esd.test_esd_command import bad, ok

ENTRY = {"method": "emission_factor", "source": "PMN attachment 2",
         "inputs": {"pollutant_class": "voc", "EF_x": 1.0, "AF": 10.0, "OH": 100, "days_per_year": 10}}
# By hand (EIIP Eqn 6.5-3, 6.5-2): 1 lb/unit × 10 units/hr × 100 hr/yr = 1,000 lb/yr
# × 0.45359237 kg/lb = 453.59237 kg/yr before the control device.
UNCONTROLLED_KG_YR = 453.59237


def compute_with_ce(ce) -> str:
    return json.dumps({"Qchem_yr": 10000, "site_specific": [{**ENTRY, "inputs": {**ENTRY["inputs"], "CE": ce}}]})


def site_release(out: dict) -> dict:
    (release,) = [r for r in out["releases"] if r["site_specific"]]
    return release["estimates"][0]


def test_a_json_number_0_9_for_a_control_efficiency_in_per_cent_is_asked_about_in_json_values():
    errors = bad("compute", "cvd-2015", stdin=compute_with_ce(0.9))
    assert errors == {"site_specific[0].CE": (
        'is in per cent (between 0 and 100 %): the JSON value 0.9 would be read as 0.9 %, not 90 %; '
        'give 90 for 90 %, or the JSON string "0.9%" if you mean 0.9 %')}


def test_a_json_string_0_9_is_asked_about_alike():
    errors = bad("compute", "cvd-2015", stdin=compute_with_ce("0.9"))
    assert errors["site_specific[0].CE"].startswith(
        'is in per cent (between 0 and 100 %): the JSON value "0.9" would be read as 0.9 %')


@pytest.mark.parametrize(("ce", "kept"), [("0.9%", 0.991), (90, 0.10), ("90%", 0.10)])
def test_a_control_efficiency_with_its_sign_or_above_1_is_computed(ce, kept):
    out = ok("compute", "cvd-2015", stdin=compute_with_ce(ce))
    # By hand: E_x × (1 − CE/100)
    assert site_release(out)["kg_site_year"] == pytest.approx(UNCONTROLLED_KG_YR * kept, rel=1e-12)


def test_a_fraction_given_as_a_percentage_says_how_to_give_one_in_json():
    errors = bad("compute", "cvd-2015", stdin=json.dumps({"Qchem_yr": 10000, "EF": 90}))
    assert errors == {"EF": 'must be between 0 and 1 kg/kg (a fraction: 90 % is 0.9, or the JSON string "90%")'}
    out = ok("compute", "cvd-2015", stdin=json.dumps({"Qchem_yr": 10000, "EF": "90%"}))
    assert out["inputs"]["EF"] == 0.9


def test_defaults_say_each_inputs_scale():
    inputs = ok("defaults", "cvd-2015")["inputs"]
    assert inputs["EF"]["share"] == "fraction" and inputs["Fchem"]["share"] == "fraction"
    assert "share" not in inputs["Qchem_yr"]
