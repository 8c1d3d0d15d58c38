"""A scenario registered at test time works through the whole product with no code
outside the engine knowing it: the wizard, the results page, the IRER as HTML and PDF."""

from __future__ import annotations

import pytest

from assessments.models import Scenario
from tests.conftest import make_assessment, make_submission
from tests.reports.conftest import pdf_text
from tests.views.wizard_helpers import walk

pytestmark = pytest.mark.django_db


def test_synthetic_scenario_through_wizard_results_and_report(client, reviewer, synthetic):
    case = make_submission(production_volume_kg_yr=2500.0, use_concentration=0.4, molecular_weight=250.0)
    assessment = make_assessment(case, reviewer)
    client.force_login(reviewer)

    page = client.get(f"/assessments/{assessment.pk}/")
    assert synthetic.title in page.content.decode()  # offered in the scenario select
    client.post(f"/assessments/{assessment.pk}/scenarios/new/", {"scenario_key": synthetic.key, "title": "Mixing"})
    scenario = Scenario.objects.get(assessment=assessment)
    # Prefilled from the case by the declarations alone.
    assert scenario.inputs == {"yearly_mass": 2500.0, "part_of_mix": 0.4, "molar_mass": 250.0}

    results = walk(client, scenario, {"plants": ({"run_days": "100"}, {"run_days": "Plant log"})})
    assert results.status_code == 200
    scenario.refresh_from_db()
    # By hand: 3 plants (ceil 2500/1000); 2500/(3 × 100) = 8.333 kg/site-day; × 0.4 × 0.1 = 0.3333 kg/site-day.
    release = scenario.result["releases"][0]
    assert release["estimates"][0]["kg_site_day"] == pytest.approx(2500 / 300 * 0.4 * 0.1)
    assert scenario.result["facts"]["sites"] == 3
    text = results.content.decode()
    assert "Rinse of the mixing vessel" in text and "Mass balance" in text
    # an input the scenario keys by a name of its own is named by its label (issue 26)
    assert synthetic.params["yearly_mass"].label in text and "Synthetic test document Eqn 3" in text

    preview = client.get(f"/assessments/{assessment.pk}/irer/").content.decode()
    assert "Chemical arrives in drums (40%) --&gt; mixed into the product --&gt; rinsed" in preview
    assert "Number of Sites/Location:</dt><dd>3</dd>" in preview
    assert "Days/yr:</dt><dd>100</dd>" in preview
    assert "Tot. # of workers exposed via assessed routes: 9<br>Basis: 3 workers per site × 3 sites;" in preview
    assert "synthetic defaults, Tables 1 to 3" in preview

    pdf = client.get(f"/assessments/{assessment.pk}/irer.pdf")
    assert pdf.status_code == 200
    text = " ".join(pdf_text(pdf.content).split())
    assert "Rinse of the mixing vessel" in text and "Number of Sites/Location: 3" in text
    assert "mass balance" in text.lower()
