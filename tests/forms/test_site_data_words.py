"""The "Submitter's site data" step in a reviewer's words: an input left empty says what
stands in for it (its declaration's ``if_empty``), and the messages name the EIIP methods
by their titles and the entries by their number, never by a code."""

from __future__ import annotations

import html

import pytest

from assessments.esd.parameters import EngineValidationError
from assessments.esd.site_data import METHODS, parse_entries
from assessments.esd.site_data.entries import UNKNOWN_METHOD
from assessments.forms.site_data import SiteDataForm
from assessments.site_data import SITE_STEP
from tests.conftest import make_assessment, make_submission
from tests.views.wizard_helpers import step_url

OPTIONAL = [(m.key, p) for m in METHODS.values() for p in m.params.params if p.default is None and not p.required]


@pytest.mark.parametrize("method, param", OPTIONAL, ids=[f"{k}-{p.symbol}" for k, p in OPTIONAL])
def test_every_optional_method_input_says_what_stands_in_for_it(method, param):
    assert param.if_empty, f"{method}.{param.symbol}: declare if_empty"


def _rows(form: SiteDataForm) -> dict[tuple[str, str], str]:
    (block,) = form.entry_blocks()
    return {(m["key"], p.symbol): default for m in block["methods"] for p, _, default in m["rows"]}


def test_the_step_shows_if_empty_for_an_input_without_a_default():
    rows = _rows(SiteDataForm(releases=[(1, "Container residue")]))
    assert rows[("source_test", "days_per_year")] == (
        "none: the days of the release it replaces (required for a release added beside the others)")
    assert rows[("source_test", "Nsites")] == "none: the sites of the release it replaces, else one site"
    assert rows[("saturation", "d_x")] == "none: computed from the molecular weight of the pollutant"
    assert rows[("source_test", "C_x")] == "none: required"
    assert "none: optional" not in rows.values()


@pytest.mark.django_db
def test_the_page_shows_what_stands_in_for_an_empty_input(client, reviewer):
    assessment = make_assessment(make_submission(production_volume_kg_yr=10000), reviewer)
    client.force_login(reviewer)
    client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": "cvd-2015", "title": ""})
    scenario = assessment.scenarios.get()
    page = html.unescape(client.get(step_url(scenario, SITE_STEP)).content.decode())
    assert "none: the sites of the release it replaces, else one site" in page
    assert "none: optional" not in page


def _error(entries) -> dict[str, str]:
    with pytest.raises(EngineValidationError) as caught:
        parse_entries(entries)
    return caught.value.errors


def test_an_unknown_method_is_refused_naming_the_methods_by_their_titles():
    errors = _error([{"method": "stack", "source": "test", "inputs": {}}])
    assert errors["site_specific[0].method"] == UNKNOWN_METHOD
    assert UNKNOWN_METHOD == (
        "must be one of the EIIP methods: “Material balance (pollutant content)”, “Material balance (weight "
        "percent)”, “Source test (stack concentration and flow)”, “Emission factor × activity”, “Engineering "
        "calculation: saturation upper limit” or “Engineering calculation: evaporation (mass transfer)”")
    assert "material_balance" not in UNKNOWN_METHOD and "source_test" not in UNKNOWN_METHOD


def test_an_input_of_another_method_is_refused_naming_the_method_by_its_title():
    inputs = {"pollutant_class": "inorganic", "EF_x": 1, "AF": 30, "OH": 1760, "days_per_year": 220, "Q_in": 5}
    errors = _error([{"method": "emission_factor", "source": "test", "inputs": inputs}])
    assert errors["site_specific[0].Q_in"] == "is not an input of the method “Emission factor × activity”"


def test_a_release_replaced_twice_names_the_entry_by_its_number():
    inputs = {"pollutant_class": "inorganic", "EF_x": 1, "AF": 30, "OH": 1760}
    entry = {"method": "emission_factor", "source": "test", "inputs": inputs, "replaces": 1}
    errors = _error([entry, dict(entry)])
    assert errors["site_specific[1].replaces"] == "release 1 is already replaced by site-data entry 1"
