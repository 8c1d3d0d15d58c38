"""What the tests of uses computed by an older engine share (issue 42, "After a change
lands"): a case with a use computed by the installed engine, and the stored result rewritten
as an earlier release of the engine would have stored it (its ``engine_version`` label, and a
figure of its own where the test wants a move)."""

from __future__ import annotations

import copy

from assessments import services
from assessments.models import Scenario
from tests.conftest import make_assessment, make_submission

#: The engine version the tests' stored results carry: an earlier release than the installed one.
EARLIER = "1.1.0"


def computed_use(engineer, *, case=None, key: str = "photoresist-2018", title: str = "Spin coating") -> Scenario:
    """A use of a new draft of ``case`` (a new case when none), computed by the installed
    engine through the services."""
    case = case or make_submission(molecular_weight=200.0, vapour_pressure_torr=1.0e-6, use_concentration=0.15)
    assessment = make_assessment(case, engineer)
    scenario = services.scenario_add(assessment=assessment, by=engineer, scenario_key=key, title=title)
    return services.scenario_compute(scenario=scenario, by=engineer)


def stored_by(scenario: Scenario, version: str | None = EARLIER, *, release_kg_yr: float | None = None) -> Scenario:
    """``scenario``'s stored result as engine ``version`` stored it (None: a result that names
    no version), saved as the earlier release's compute saved it (its history record too); with
    ``release_kg_yr``, its first release's annual total (all sites) is that figure instead."""
    result = copy.deepcopy(scenario.result)
    if version is None:
        result.pop("engine_version", None)
    else:
        result["engine_version"] = version
    if release_kg_yr is not None:
        result["releases"][0]["estimates"][0]["kg_year_all_sites"] = release_kg_yr
    scenario = Scenario.objects.get(pk=scenario.pk)
    scenario.result = result
    scenario.save()  # with its history record, as the earlier release's compute wrote one
    return scenario

