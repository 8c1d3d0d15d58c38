"""What a reviewer reads is clean: no raw Python values and no long float tails on the
pages and the report preview of any computed scenario."""

import re

import pytest

from assessments import services
from assessments.esd import registry
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")


def significant_digits(number: str) -> int:
    return len(number.replace(".", "").lstrip("0"))


@pytest.mark.parametrize("key", [s.key for s in registry.scenarios()])
def test_pages_show_no_none_and_no_long_float_tails(client, reviewer, key):
    assessment = make_assessment(make_submission(use_concentration=0.15), reviewer)
    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
    services.scenario_compute(scenario=scenario, by=reviewer)
    first_step = registry.get(key).params.steps[0].key
    client.force_login(reviewer)
    for url in (f"/scenarios/{scenario.pk}/", f"/assessments/{assessment.pk}/", f"/assessments/{assessment.pk}/irer/",
                f"/scenarios/{scenario.pk}/wizard/{first_step}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        text = re.sub(r"<[^>]+>", " ", response.content.decode())
        raw = re.search(r".{0,80}\bNone\b(?!:).{0,40}", text, re.S)  # "None: ..." is a sentence
        assert not raw, (url, raw and raw.group())
        long = [n for n in NUMBER.findall(text) if significant_digits(n) > 6]
        assert not long, (url, long[:5])
