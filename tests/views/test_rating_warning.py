"""The occupational exposure rating: ChemSTEER's "Missing Information" warning on the
assessment page and before the IRER download (which still works), and the exposure-based
review criteria counted from the results, shown beside the rating as help."""

from unittest import mock

import pytest
from django.utils.html import escape

from assessments import services
from assessments.exposure_rating import (
    CRITERIA_COUNT,
    MISSING_RATING,
    THE_RATING_IS_YOURS,
    exposure_based_criteria,
    use_criteria,
)
from tests.conftest import make_assessment, make_submission
from tests.reports.conftest import report_cache

pytestmark = pytest.mark.django_db

CHEMSTEER_WORDS = (
    "Your assessment currently does not have an Occupational Exposure Rating specified. "
    "Are you sure you want to continue?"
)


def test_the_warning_is_chemsteers_wording():
    assert MISSING_RATING == CHEMSTEER_WORDS


def test_the_assessment_page_warns_when_the_rating_is_blank(client, reviewer):
    blank = make_assessment(make_submission(), reviewer)
    rated = make_assessment(make_submission(), reviewer, occupational_exposure_rating="NR")
    client.force_login(reviewer)
    page = client.get(f"/assessments/{blank.pk}/").content.decode()
    assert 'id="rating-missing"' in page and "Missing Information:" in page and escape(CHEMSTEER_WORDS) in page
    assert 'id="rating-missing"' not in client.get(f"/assessments/{rated.pk}/").content.decode()


def test_the_download_warns_and_still_works(client, reviewer, report_cache):
    assessment = make_assessment(make_submission(), reviewer)
    client.force_login(reviewer)
    # A report not drawn yet: the page that follows it carries the warning.
    with mock.patch("assessments.views.report_services.irer_download",
                    return_value=mock.Mock(pdf=None, filename="x.pdf", render=mock.Mock(
                        state="queued", task_id="t1", steps=[], tone="info", message="Queued", action="Download"))):
        page = client.get(f"/assessments/{assessment.pk}/irer.pdf")
    assert page.status_code == 202 and escape(CHEMSTEER_WORDS) in page.content.decode()
    # The download itself is not refused.
    response = client.get(f"/assessments/{assessment.pk}/irer.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def exposure(route, mg_day, workers_per_site, days=250):
    return {"route": route, "workers_per_site": workers_per_site, "days_per_year": days,
            "estimates": [{"label": "High End", "mg_day": mg_day}, {"label": "Low End", "mg_day": mg_day / 10}]}


def result(sites, workers_per_site, *exposures):
    return {"facts": {"sites": sites, "workers_per_site": workers_per_site}, "exposures": list(exposures)}


@pytest.mark.parametrize("stored,count", [
    # ChemSTEER's count: [> 1,000 workers] + [> 100 workers > 10 mg/day inhaled]
    #   + ([> 100 workers 1-10 mg/day inhaled > 100 days/yr] or [> 250 workers dermal > 100 days/yr])
    (result(3, 22, exposure("dermal", 168, 22, 360)), 0),  # the sample: 66 workers
    (result(100, 11, exposure("dermal", 5, 3, days=50)), 1),  # 1,100 workers; dermal not routine
    (result(20, 6, exposure("inhalation", 12, 6)), 1),  # 120 workers above 10 mg/day
    (result(20, 6, exposure("inhalation", 5, 6)), 1),  # 120 workers at 1-10 mg/day, 250 days
    (result(20, 6, exposure("inhalation", 5, 6, days=100)), 0),  # not more than 100 days
    (result(30, 9, exposure("dermal", 5, 9)), 1),  # 270 workers, routine dermal contact
    (result(120, 9, exposure("inhalation", 40, 9), exposure("dermal", 50, 9)), 3),
])
def test_the_exposure_based_criteria_count(stored, count):
    assert use_criteria(stored).count == count


def test_the_criteria_add_up_over_the_uses_and_name_uncomputed_ones():
    uses = [mock.Mock(result=result(10, 6, exposure("inhalation", 20, 6)), title="A"),
            mock.Mock(result=result(10, 6, exposure("inhalation", 20, 6)), title="B"),
            mock.Mock(result=None, title="C")]
    criteria = exposure_based_criteria(scenarios=uses)
    assert (criteria.high_inhalation_workers, criteria.count, criteria.not_computed) == (120, 1, ["C"])


def test_the_criteria_are_shown_beside_the_rating_as_help_not_as_the_rating(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010")
    services.scenario_compute(scenario=scenario, by=reviewer)
    client.force_login(reviewer)
    for url in (f"/assessments/{assessment.pk}/notes/", f"/assessments/{assessment.pk}/"):
        page = client.get(url).content.decode()
        assert 'id="rating-criteria"' in page
        assert escape(CRITERIA_COUNT.format(count=0)) in page and escape(THE_RATING_IS_YOURS) in page
    assessment.refresh_from_db()
    assert assessment.occupational_exposure_rating == ""
