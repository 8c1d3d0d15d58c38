"""The occupational exposure rating derived from the results as ChemSTEER v3.2 derives it
(``ChemStrX.SetOER()``, decompilation/source/ChemSteer/ChemStrX.cs in the public
ChemSteer4 repository), the reviewer's override with its reason, and the warning when the
rating printed is "NR" or blank beside exposed workers.

Every expected rating below is read off SetOER's own expression, quoted in
``exposure_rating.occupational_exposure_rating``:
``(!flag) ? (SAT dermal|inhalation ? "0-1" : "NR") : ((dermal == 0 & inhalation == 0) || workers == 0)
? "0-1" : inhalation == 0 ? "1" : inhalation < 1 ? "1-2" : !(inhalation <= 10) ? "2-3" : "2"``, then
``workers < 10 ? "A" : workers < 100 ? "B" : workers >= 1000 ? "D" : "C"``.
"""

from unittest import mock

import pytest
from django.apps import apps
from django.utils.html import escape

from assessments import services
from assessments.exposure_rating import (
    RATING_BESIDE_WORKERS,
    derive_rating,
    occupational_exposure_rating,
    printed_rating,
    rating_warnings,
)
from assessments.models.case_fields import OCCUPATIONAL_EXPOSURE_RATINGS, RATING_REASON_MISSING
from tests.conftest import make_assessment, make_submission


def rate(inhalation, workers, dermal=5.0):
    return occupational_exposure_rating(has_exposure_models=True, sat_dermal_or_inhalation=False,
                                        max_dermal_mg_day=dermal, max_inhalation_mg_day=inhalation, workers=workers)


@pytest.mark.parametrize("inhalation,band", [
    (0.0, "1"),      # array[1] == 0f: dermal exposure only
    (0.999, "1-2"),  # array[1] < 1f
    (1.0, "2"),      # not < 1 and <= 10
    (10.0, "2"),     # !(array[1] <= 10f) is false at 10
    (10.001, "2-3"),
])
def test_the_band_follows_the_highest_inhalation_dose(inhalation, band):
    assert rate(inhalation, 50) == band + "B"


@pytest.mark.parametrize("workers,letter", [
    (1, "A"), (9, "A"),        # num < 10
    (10, "B"), (99, "B"),      # num < 100
    (100, "C"), (999, "C"),    # otherwise
    (1000, "D"), (5000, "D"),  # num >= 1000
])
def test_the_letter_follows_the_total_workers(workers, letter):
    assert rate(5.0, workers) == "2" + letter


def test_no_exposure_model_is_not_rated_unless_the_sat_names_a_route():
    kwargs = {"has_exposure_models": False, "max_dermal_mg_day": 0, "max_inhalation_mg_day": 0, "workers": 198}
    assert occupational_exposure_rating(sat_dermal_or_inhalation=False, **kwargs) == "NR"
    assert occupational_exposure_rating(sat_dermal_or_inhalation=True, **kwargs) == "0-1"


def test_no_dose_or_no_workers_is_0_1_with_no_letter():
    assert rate(0.0, 50, dermal=0.0) == "0-1"
    assert rate(40.0, 0) == "0-1"


def test_every_rating_the_rule_gives_is_a_choice():
    given = {rate(i, w) for i in (0, 0.5, 5, 50) for w in (5, 50, 500, 5000)} | {"NR", "0-1"}
    assert given == set(OCCUPATIONAL_EXPOSURE_RATINGS)


def exposure(route, mg_day, workers_per_site, days=250):
    return {"route": route, "workers_per_site": workers_per_site, "days_per_year": days,
            "estimates": [{"label": "High End", "mg_day": mg_day}, {"label": "Low End", "mg_day": mg_day / 10}]}


def use(title, sites, workers_per_site, *exposures):
    return mock.Mock(title=title, result={"facts": {"sites": sites, "workers_per_site": workers_per_site},
                                          "exposures": list(exposures)})


def test_the_rating_reads_the_highest_doses_and_the_workers_over_all_uses():
    # Use A: 3 sites x 22 workers = 66, dermal 168 mg/day; use B: 12 x 11 = 132, inhalation 0.4 mg/day.
    # 66 + 132 = 198 workers -> "C"; highest inhalation 0.4 mg/day < 1 -> "1-2".
    uses = [use("A", 3, 22, exposure("dermal", 168, 22)), use("B", 12, 11, exposure("inhalation", 0.4, 11)),
            mock.Mock(title="C", result=None)]
    derived = derive_rating(scenarios=uses, sat_health="")
    assert (derived.rating, derived.workers, derived.max_inhalation_mg_day, derived.max_dermal_mg_day) == (
        "1-2C", 198, 0.4, 168)
    assert derived.not_computed == ["C"]


def test_dermal_exposure_only_rates_band_1():
    assert derive_rating(scenarios=[use("A", 3, 22, exposure("dermal", 168, 22))]).rating == "1B"  # 66 workers


def test_no_exposure_in_the_results_is_nr_or_0_1_by_the_sat_concerns():
    uses = [use("A", 3, 0)]
    assert derive_rating(scenarios=uses, sat_health="").rating == "NR"
    assert derive_rating(scenarios=uses, sat_health="Drinking Water").rating == "NR"
    assert derive_rating(scenarios=uses, sat_health="Dermal, Inhalation").rating == "0-1"


def test_nothing_computed_derives_no_rating():
    assert derive_rating(scenarios=[mock.Mock(title="A", result=None)]).rating == ""
    assert derive_rating(scenarios=[]).rating == ""


@pytest.mark.django_db
def test_the_irer_prints_the_override_else_the_derived_rating(reviewer):
    uses = [use("A", 3, 22, exposure("dermal", 168, 22))]
    derived = make_assessment(make_submission(), reviewer)
    overridden = make_assessment(make_submission(), reviewer, occupational_exposure_rating="2B",
                                 occupational_exposure_rating_reason="Spray step not modelled.")
    assert printed_rating(derived, uses) == "1B"
    assert printed_rating(overridden, uses) == "2B"


@pytest.mark.django_db
def test_nr_beside_exposed_workers_is_warned(reviewer):
    uses = [use("A", 9, 22, exposure("dermal", 168, 22))]  # 198 workers
    nr = make_assessment(make_submission(), reviewer, occupational_exposure_rating="NR")
    assert rating_warnings(nr, uses) == [RATING_BESIDE_WORKERS.format(printed="NR", workers=198, derived="1C")]
    assert rating_warnings(make_assessment(make_submission(), reviewer), uses) == []
    # No exposed worker: "NR" is what ChemSTEER derives, and no warning.
    assert rating_warnings(make_assessment(make_submission(), reviewer), [use("A", 3, 0)]) == []


@pytest.mark.django_db
def test_a_blank_rating_gives_chemsteers_missing_information(reviewer):
    [warning] = rating_warnings(make_assessment(make_submission(), reviewer), [])
    assert warning.startswith("Missing Information: Your assessment currently does not have an Occupational")


@pytest.fixture
def computed(reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    services.scenario_compute(scenario=scenario, by=reviewer)
    return assessment


def post_notes(client, assessment, **data):
    url = f"/assessments/{assessment.pk}/notes/"
    seen = client.get(url).context["form"]["version_seen"].value()
    return client.post(url, {"notes": "", "version_seen": seen, **data})


@pytest.mark.django_db
def test_an_override_needs_its_reason(client, reviewer, computed):
    client.force_login(reviewer)
    derived = printed_rating(computed)
    assert derived and derived != "2-3D"
    response = post_notes(client, computed, occupational_exposure_rating="2-3D")
    assert response.status_code == 200
    assert escape(RATING_REASON_MISSING.format(derived=derived)) in response.content.decode()
    computed.refresh_from_db()
    assert computed.occupational_exposure_rating == ""
    response = post_notes(client, computed, occupational_exposure_rating="2-3D",
                          occupational_exposure_rating_reason="Spray application not modelled.")
    assert response.status_code == 302
    computed.refresh_from_db()
    assert (computed.occupational_exposure_rating, computed.occupational_exposure_rating_reason) == (
        "2-3D", "Spray application not modelled.")


@pytest.mark.django_db
def test_choosing_the_derived_rating_leaves_it_derived(client, reviewer, computed):
    client.force_login(reviewer)
    response = post_notes(client, computed, occupational_exposure_rating=printed_rating(computed),
                          occupational_exposure_rating_reason="Same.")
    assert response.status_code == 302
    computed.refresh_from_db()
    assert (computed.occupational_exposure_rating, computed.occupational_exposure_rating_reason) == ("", "")


@pytest.mark.django_db
def test_the_pages_show_the_derived_rating_and_the_override(client, reviewer, computed):
    client.force_login(reviewer)
    derived = printed_rating(computed)
    for url in (f"/assessments/{computed.pk}/", f"/assessments/{computed.pk}/notes/"):
        page = client.get(url).content.decode()
        assert f"Occupational exposure rating derived from the results (ChemSTEER&#x27;s rule): {derived}." in page
    computed.occupational_exposure_rating, computed.occupational_exposure_rating_reason = "NR", "Closed system."
    computed.save()
    page = client.get(f"/assessments/{computed.pk}/").content.decode()
    assert '<span id="rating-printed">NR</span>' in page and f"derived: {derived}" in page
    assert "Reason: Closed system." in page
    assert 'id="rating-beside-workers"' in page


@pytest.mark.django_db
def test_a_rating_typed_before_it_was_derived_is_kept_with_its_reason(reviewer):
    from importlib import import_module

    migration = import_module("assessments.migrations.0019_chemsteer_parity")
    typed = make_assessment(make_submission(), reviewer, occupational_exposure_rating="2B")
    blank = make_assessment(make_submission(), reviewer)
    migration.keep_typed_ratings(apps, None)
    typed.refresh_from_db(), blank.refresh_from_db()
    assert (typed.occupational_exposure_rating, typed.occupational_exposure_rating_reason) == (
        "2B", migration.KEPT_REASON)
    assert blank.occupational_exposure_rating_reason == ""


@pytest.mark.django_db
def test_the_reason_has_a_limit(client, reviewer, computed):
    client.force_login(reviewer)
    response = post_notes(client, computed, occupational_exposure_rating="2-3D",
                          occupational_exposure_rating_reason="r" * 4001)
    assert response.status_code == 200 and "occupational_exposure_rating_reason" in response.context["form"].errors
    assert 'maxlength="4000"' in response.content.decode()
