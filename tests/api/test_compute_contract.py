"""The API's compute is ``esd compute`` over HTTP (shared spec INTERFACE.md): for every
registered scenario, the same JSON in gives the same JSON out, and the same bad input the
same errors (400 where the command exits 2). Only the name of where the JSON came from
differs: "the request body" for the command's "standard input". Sensitivity likewise."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from assessments.esd import registry
from tests.contract.varied_inputs import BRANCHES, SITE_DATA, case_inputs

from .conftest import Api, make_token

pytestmark = pytest.mark.django_db

BAD = [
    '{"Qchem_yr": -1}',
    '{"Qchem_yr": "lots"}',
    '{"no_such_symbol": 1}',
    '{"Qchem_yr": 1e999}',
    '{"Qchem_yr": 5000,',
    "[1, 2]",
    "",
    '{"include_exposures": "perhaps"}',
]


def command(action: str, key: str, text: str) -> tuple[int, dict]:
    out, err = StringIO(), StringIO()
    try:
        call_command("esd", action, key, "-", stdin=StringIO(text), stdout=out, stderr=err)
    except SystemExit as exit_:
        errors = json.loads(err.getvalue())
        return exit_.code, json.loads(json.dumps(errors).replace("standard input", "the request body"))
    return 0, json.loads(out.getvalue())


def bodies(scenario) -> list[str]:
    case = case_inputs(scenario)
    sets = [case] + [{**case, **{k: v for k, v in b.items() if k in scenario.params}} for b in BRANCHES]
    sets.append({**case, "site_specific": [SITE_DATA]})
    return [json.dumps(s) for s in sets] + BAD


@pytest.fixture
def api(client, reviewer):
    return Api(client, make_token(reviewer))


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()])
def test_api_compute_is_esd_compute_for_every_scenario(api, key):
    scenario = registry.get(key)
    compared = {0: 0, 2: 0}
    for text in bodies(scenario):
        code, expected = command("compute", key, text)
        response = api.post(f"/api/v1/scenarios/{key}/compute", raw=text.encode(), key=None)
        assert response.status_code == {0: 200, 2: 400}[code], (text, response.content[:300])
        assert response.json() == expected, text
        compared[code] += 1
    assert compared[0] > 1 and compared[2] >= len(BAD) - 1  # both outcomes compared


def test_an_unknown_scenario_is_the_commands_error(api):
    code, expected = command("compute", "no-such-scenario", "{}")
    response = api.post("/api/v1/scenarios/no-such-scenario/compute", {}, key=None)
    assert code == 2 and response.status_code == 400 and response.json() == expected


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()][:1])
def test_api_sensitivity_is_esd_sensitivity(api, key):
    text = json.dumps({**case_inputs(registry.get(key)), "samples": 20, "seed": 3})
    code, expected = command("sensitivity", key, text)
    response = api.post(f"/api/v1/scenarios/{key}/sensitivity", raw=text.encode(), key=None)
    assert code == 0 and response.status_code == 200 and response.json() == expected
    code, expected = command("sensitivity", key, '{"samples": -1}')
    response = api.post(f"/api/v1/scenarios/{key}/sensitivity", raw=b'{"samples": -1}', key=None)
    assert code == 2 and response.status_code == 400 and response.json() == expected
