"""``esd impact`` against the engine, for every registered scenario: for any numeric input a
use leaves at its default and any value within the input's allowed range, the changed
default gives, for each output of the use that moves, exactly what ``registry.compute``
gives for the use's stored inputs with that value (``new``), and every output that differs
from the stored result is listed, nothing else.

The use is the scenario's as added to a case that gives a molecular weight, a vapour pressure
and a TLV in ppm (so inhalation estimates are compared with a limit), computed and stored;
the override is typed as a reviewer types it (the in-range strategies of
``tests/properties/strategies.py``: numbers, their text, extremes a bound allows). Where the
engine refuses the stored inputs with that value, the use is listed with the engine's errors.

Examples per scenario: ``PMN_PROPERTY_EXAMPLES`` (default 4); raise it locally for a longer
search.
"""

from __future__ import annotations

import io
import json
import math
import os
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assessments import services
from assessments.engine_results import RESULT_REL_TOL
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, EngineValidationError
from assessments.esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES
from tests.conftest import make_assessment, make_submission
from tests.contract.outputs import outputs
from tests.properties.strategies import in_range

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))
KEYS = [s.key for s in registry.scenarios()]
CASE = {"molecular_weight": 200.0, "vapour_pressure_torr": 5.0, "vapour_pressure_temp_c": 25.0,
        "physical_state": "liquid", "use_concentration": 0.15, "tlv_pel_value": 1.0, "tlv_pel_unit": "ppm"}


def stored_use(key: str, reviewer):
    case = make_submission(**CASE)
    assessment = make_assessment(case, reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    return services.scenario_compute(scenario=use, by=reviewer)


def impact_json(override: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    call_command("esd", "impact", "--override", override, "--json", stdout=out, stderr=err)
    assert err.getvalue() == ""
    return json.loads(out.getvalue())


def counts(result: dict) -> dict[tuple[str, str | None], int]:
    """How many estimates each release and exposure has."""
    return {**{(f"release-{r['number']}", None): len(r["estimates"]) for r in result["releases"]},
            **{(f"exposure-{x['letter']}", x.get("route")): len(x["estimates"]) for x in result["exposures"]}}


def typed(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)


def check(key: str, use, symbol: str, value: Any) -> None:
    override = f"{key}.{symbol}={typed(value)}"
    printed = impact_json(override)
    listed = [c for c in printed["cases"] if c["case"] == use.assessment.submission.case_number]
    try:
        fresh = json.loads(json.dumps(registry.compute(key, {**use.computed_inputs, symbol: typed(value)}).as_dict()))
    except EngineValidationError as exc:
        assert [c["refused"] for c in listed] == [[{"use": use.position, "errors": dict(exc.errors)}]], override
        return
    old, new = outputs(use.result), outputs(fresh)
    moves = [m for c in listed for m in c["moves"]]
    assert all(c["refused"] == [] for c in listed) and (moves or not listed), override
    for move in moves:
        assert move["relative"] == (None if move["old"] in (None, 0) or move["new"] is None
                                    else (move["new"] - move["old"]) / move["old"])
    # A release or exposure with as many estimates in both results: its moves are exactly its
    # outputs that differ, each with the stored value and the fresh compute's.
    before_counts, after_counts = counts(use.result), counts(fresh)
    reshaped = {s for s, n in before_counts.items() if after_counts.get(s, n) != n}
    expected = []
    for place in old.keys() | new.keys():
        before, after = old.get(place), new.get(place)
        if place[:2] in reshaped or (before and after and math.isclose(before[1], after[1], rel_tol=RESULT_REL_TOL)):
            continue
        expected.append({"use": use.position, "id": place[0], "route": place[1], "quantity": place[3],
                         "estimate": (before or after)[0], "new_estimate": after[0] if after else None,
                         "old": before[1] if before else None, "new": after[1] if after else None})
    exact = [{k: m[k] for k in expected_keys()} for m in moves if (m["id"], m["route"]) not in reshaped]
    assert sorted(exact, key=repr) == sorted(expected, key=repr), override
    # One whose number of estimates changes (a range whose ends an input makes equal): its
    # estimates are paired as esd sensitivity pairs them; each figure is still the engine's.
    for move in (m for m in moves if (m["id"], m["route"]) in reshaped):
        for value, result in ((move["old"], old), (move["new"], new)):
            assert value is None or value in [v for (i, r, _, q), (_, v) in result.items()
                                              if (i, r, q) == (move["id"], move["route"], move["quantity"])]


def expected_keys() -> tuple[str, ...]:
    return ("use", "id", "route", "quantity", "estimate", "new_estimate", "old", "new")


@pytest.mark.parametrize("key", KEYS)
def test_every_new_is_a_fresh_compute_and_every_output_that_differs_is_listed(key, reviewer):
    use = stored_use(key, reviewer)
    scenario = registry.get(key)
    left = [p for p in scenario.params.params
            if p.kind != CHOICE and not p.required and use.computed_inputs.get(p.symbol) is None]
    assert left

    @settings(max_examples=EXAMPLES * 4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                              HealthCheck.too_slow])
    @given(data=st.data())
    def examples(data):
        param = data.draw(st.sampled_from(left), label="input")
        check(key, use, param.symbol, data.draw(in_range(param), label="value"))

    examples()
