"""The case form, POST /cases/new/, under arbitrary field values (hypothesis): a redirect
to the new case, or the form again (200) with its errors; never a server error, and no
case row unless the answer was the redirect.

Values are what a browser can send: any text (NUL characters too, and longer than a
field allows), number-shaped text and the spellings float() accepts but a finite number
must refuse, values outside a choice list, checkboxes with any value, a case number that
exists already. A careful post (every field valid, a new case number) must create the case.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from assessments.forms import SubmissionForm
from assessments.models import (
    PBT_SCORES,
    CaseType,
    ExposureLimitKind,
    ExposureLimitUnit,
    GroundwaterMigration,
    PhysicalState,
    Submission,
    VolumeQualifier,
)
from assessments.models.case_fields import CASE_NUMBER_PREFIXES
from tests.properties.strategies import number_text, special_text

pytestmark = pytest.mark.django_db

FORM = SubmissionForm()
TEXT_FIELDS = {"case_number", "case_name", "submitter", "chemical_name", "generic_name", "cas_number",
               "use_description", "other_uses", "consumer_use", "tlv_pel", "groundwater_migration_other",
               "pbt_note", "sat_health", "sat_eco"}
NUMBER_FIELDS = {"production_volume_kg_yr", "use_concentration", "molecular_weight", "vapour_pressure_torr",
                 "vapour_pressure_temp_c", "water_solubility_g_l", "water_solubility_temp_c",
                 "pct_below_500_da", "pct_below_1000_da", "tlv_pel_value"}
CHOICE_FIELDS = {"case_type": CaseType.values, "physical_state": PhysicalState.values,
                 "tlv_pel_unit": ["", *ExposureLimitUnit.values], "volume_qualifier": VolumeQualifier.values,
                 "tlv_pel_kind": ["", *ExposureLimitKind.values],  # left out or blank: an 8-hour TWA
                 "groundwater_migration": ["", *GroundwaterMigration.values],
                 **{name: ["", *PBT_SCORES] for name in ("pbt_persistence", "pbt_bioaccumulation", "pbt_toxicity")}}
BOOLEAN_FIELDS = {name for name in FORM.fields if name.startswith("cbi_")} | {"msds", "label"}
EXISTING_CASE = "P-26-9000"
_new_case_numbers = itertools.count(1)

CASES = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def test_the_strategy_covers_every_field_of_the_form():
    assert set(FORM.fields) == TEXT_FIELDS | NUMBER_FIELDS | set(CHOICE_FIELDS) | BOOLEAN_FIELDS | {"version_seen"}


def anything_for(name: str) -> st.SearchStrategy:
    text = st.one_of(st.text(max_size=30), st.just("x" * 501), st.just("a\x00b"), st.just(" "))
    if name in NUMBER_FIELDS:
        return st.one_of(number_text, special_text, text, st.floats().map(repr))
    if name in CHOICE_FIELDS:
        return st.one_of(st.sampled_from(CHOICE_FIELDS[name]), text)
    if name in BOOLEAN_FIELDS:
        return st.one_of(st.just("on"), st.just(""), text)
    if name == "case_number":
        return st.one_of(st.just(EXISTING_CASE), number_text, text)
    return text


def careful_for(name: str) -> st.SearchStrategy:
    """A valid value: a new case number, in-range numbers as typed (5,000 too)."""
    fraction = st.floats(min_value=1e-6, max_value=1, allow_nan=False)
    positive = st.floats(min_value=1e-6, max_value=1e12, allow_nan=False)
    if name == "case_number":
        return st.builds(lambda: f"P-27-{next(_new_case_numbers):04d}")
    if name in ("submitter", "chemical_name", "generic_name", "use_description"):
        return st.text(alphabet=st.characters(categories=["L", "N", "P"]), min_size=1, max_size=40)
    if name == "production_volume_kg_yr":
        return st.one_of(positive.map(repr), st.integers(1, 10**9).map(lambda n: f"{n:,}"))
    if name == "use_concentration":
        return st.one_of(fraction.map(repr), st.just(""))
    if name in ("molecular_weight", "vapour_pressure_torr", "water_solubility_g_l"):
        return st.one_of(positive.map(repr), st.just(""))
    if name in ("vapour_pressure_temp_c", "water_solubility_temp_c"):
        return st.one_of(st.floats(-50, 400).map(repr), st.just(""))
    if name in ("pct_below_500_da", "pct_below_1000_da"):
        return st.just("")  # their order is checked together; the wild posts cover them
    if name in ("tlv_pel_value", "tlv_pel_unit"):
        return st.just("")  # a value needs its unit and a unit its value; the wild posts cover them
    if name == "groundwater_migration":  # "Other" needs its text, and the text needs "Other": the wild posts cover them
        return st.sampled_from([v for v in CHOICE_FIELDS[name] if v != GroundwaterMigration.OTHER])
    if name in CHOICE_FIELDS:
        return st.sampled_from(CHOICE_FIELDS[name])
    if name in BOOLEAN_FIELDS:
        return st.sampled_from(["on", ""])
    return st.just("")


careful_post = st.fixed_dictionaries({name: careful_for(name) for name in FORM.fields if name != "version_seen"}).map(
    # The number as its case type numbers it (P- for a PMN, L- for an LVE, ...: CASE_NUMBER_PREFIXES).
    lambda post: {**post, "case_number": CASE_NUMBER_PREFIXES[post["case_type"]] + post["case_number"][1:]}
)
wild_post = st.fixed_dictionaries({}, optional={name: anything_for(name) for name in FORM.fields})


@CASES
@given(data=st.data())
def test_a_case_post_redirects_to_the_new_case_or_shows_errors_and_saves_nothing(client, reviewer, data):
    client.force_login(reviewer)
    if not Submission.objects.filter(case_number=EXISTING_CASE).exists():
        Submission.objects.create(case_number=EXISTING_CASE, submitter="s", chemical_name="c", generic_name="g",
                                  production_volume_kg_yr=1, use_description="u")
    careful = data.draw(st.booleans(), label="careful")
    post = data.draw(careful_post if careful else wild_post, label="post")
    count = Submission.objects.count()

    response = client.post("/cases/new/", post)

    event(f"{'careful' if careful else 'anything'}: {response.status_code}")
    assert response.status_code in (200, 302), response.status_code
    if careful:
        assert response.status_code == 302, response.context["form"].errors
    if response.status_code == 302:
        case = Submission.objects.get(case_number=post["case_number"].strip())
        assert response["Location"] == f"/cases/{case.pk}/"
        assert Submission.objects.count() == count + 1
        assert case.production_volume_kg_yr > 0 and math.isfinite(case.production_volume_kg_yr)
        assert case.created_by == reviewer
    else:
        assert response.context["form"].errors, "a form shown again must say what is wrong"
        assert Submission.objects.count() == count
