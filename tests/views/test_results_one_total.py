"""The results page gives one total of a use's releases, saying what it adds (issue 26).

Before, its summary read "Annual releases by medium, all sites: 7,722 kg/yr in all" (the
submitter's site data counted) while its facility estimates listed "All releases added up,
all sites: 5,000 kg/yr" (one consistent set, before the site data), neither saying what it
added.
"""

from __future__ import annotations

import html
import re

import pytest

from assessments import presentation, services
from assessments.numbers import quantity
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

#: EIIP Eqn 6.4-1, added beside the ESD's releases at one site: (Q_in − Q_out) × C_x =
#: (2 − 0.5) gal/hr × 2 lb/gal = 3 lb/hr; × 2,000 hr/yr × 0.45359237 kg/lb = 2,721.55 kg/yr.
SITE_DATA = [{
    "method": "material_balance",
    "inputs": {"pollutant_class": "organic", "OH": 2000.0, "days_per_year": 250.0, "Q_in": 2.0, "Q_out": 0.5,
               "C_x": 2.0},
    "replaces": None,
    "source": "Submitter's mass balance",
}]
SITE_DATA_KG_YR = 3 * 2000 * 0.45359237


@pytest.fixture
def with_site_data(reviewer):
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    use = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer,
                                scenario_key="photoresist-2010")
    use = services.scenario_save_site_data(scenario=use, by=reviewer, entries=SITE_DATA)
    return services.scenario_compute(scenario=use, by=reviewer)


def page_text(client, reviewer, use) -> tuple[str, str]:
    client.force_login(reviewer)
    body = client.get(f"/scenarios/{use.pk}/").content.decode()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return body, text


def test_a_use_with_site_data_shows_one_total_saying_what_it_adds(client, reviewer, with_site_data):
    body, text = page_text(client, reviewer, with_site_data)
    media = with_site_data.result["totals_by_medium"]
    assert media["air"] == pytest.approx(SITE_DATA_KG_YR)  # the site data's release, the only one to air
    total = quantity(sum(media.values()), "kg/yr")
    line = re.search(r'<p[^>]*id="release-total"[^>]*>(.*?)</p>', body, flags=re.S).group(1)
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split()) == (
        f"{total} in all, all sites: the document's releases and the submitter's site data (2,722 kg/yr), "
        "each release at its highest estimate.")
    assert text.count(" in all") == 1


def test_no_other_sum_of_the_releases_is_shown_without_saying_what_it_is(client, reviewer, with_site_data):
    _, text = page_text(client, reviewer, with_site_data)
    total = quantity(sum(with_site_data.result["totals_by_medium"].values()), "kg/yr")
    figure = total.removesuffix(" kg/yr")
    assert text.count(" in all") == 1
    # The facility estimates' sum of the document's releases alone (one set, no site data) is not listed
    assert "All releases added up" not in text
    # The mass balance's released figure is the same total, and says so
    assert f"released {total} (the summary's total: {presentation.RELEASED_IS})" in text
    assert f"Released, all media (the summary's total) {figure}" in text
    # The warning that the site data take the releases above the use says what it adds up
    assert f"brings the total released (every release) to {total}," in text
