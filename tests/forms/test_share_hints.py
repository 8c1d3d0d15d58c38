"""The wizard shows each share's scale beside its field (issue 26), from the declaration
(``Param.share``, ``Param.share_text``), in the field's help, which the field's
``aria-describedby`` names: "per cent, 0 to 100" for EIIP's control efficiency and weight
percent, "fraction, 0 to 1 (0.9 = 90 %)" for the ESDs' fractions and efficiencies."""

from __future__ import annotations

import re

import pytest

from assessments import services
from assessments.esd import registry
from assessments.esd.site_data import METHODS
from assessments.forms.scenarios import step_form_class
from assessments.forms.site_data import SiteDataForm, input_field
from assessments.site_data import SITE_STEP
from tests.conftest import make_assessment, make_submission
from tests.views.wizard_helpers import step_url

pytestmark = pytest.mark.django_db

PERCENT_HINT = "per cent, 0 to 100 (90 = 90 %)"
FRACTION_HINT = "fraction, 0 to 1 (0.9 = 90 %)"


@pytest.fixture
def use(reviewer):
    assessment = make_assessment(make_submission(production_volume_kg_yr=10000), reviewer)
    return services.scenario_add(assessment=assessment, by=reviewer, scenario_key="cvd-2015", title="CVD")


def helptext(html: str, field_id: str) -> str:
    """The help beside the field ``field_id``, after checking the field names it in its
    ``aria-describedby``."""
    tag = re.search(rf'<input[^>]*id="{re.escape(field_id)}"[^>]*>', html)
    assert tag is not None, field_id
    described = re.search(r'aria-describedby="([^"]*)"', tag.group(0))
    assert described is not None and f"{field_id}_helptext" in described.group(1).split()
    block = re.search(rf'<div[^>]*id="{re.escape(field_id)}_helptext">(.*?)</div>\s*</div>', html, re.DOTALL)
    assert block is not None, field_id
    return re.sub(r"<[^>]+>", "", block.group(1))


def test_the_site_data_step_says_the_control_efficiency_is_in_per_cent(client, reviewer, use):
    client.force_login(reviewer)
    html = client.get(step_url(use, SITE_STEP)).content.decode()
    for method in ("emission_factor", "material_balance_speciated"):
        text = helptext(html, f"id_{SITE_STEP}-{input_field(0, method, 'CE')}")
        assert f"Scale: {PERCENT_HINT}" in " ".join(text.split())
    weight = helptext(html, f"id_{SITE_STEP}-{input_field(0, 'material_balance_speciated', 'wt_pct_x')}")
    assert f"Scale: {PERCENT_HINT}" in " ".join(weight.split())
    hours = helptext(html, f"id_{SITE_STEP}-{input_field(0, 'emission_factor', 'OH')}")
    assert "Scale:" not in hours  # no share, no scale


def test_a_scenario_step_says_a_fraction_is_a_fraction(client, reviewer, use):
    client.force_login(reviewer)
    html = client.get(step_url(use, "release")).content.decode()
    for symbol in ("U_process_low", "EF"):
        text = helptext(html, f"id_release-{symbol}")
        assert f"Scale: {FRACTION_HINT}" in " ".join(text.split())


def test_every_share_field_carries_its_scale_in_its_help_text():
    for scenario in registry.scenarios():
        for step in scenario.params.steps:
            form = step_form_class(scenario.key, step.key)
            for p in scenario.params.for_step(step.key):
                assert (f"Scale: {p.share_text}." in form.base_fields[p.symbol].help_text) == bool(p.share), p.symbol
    form = SiteDataForm()
    for method in METHODS.values():
        for p in method.params.params:
            field = form.fields[input_field(0, method.key, p.symbol)]
            assert (f"Scale: {p.share_text}." in field.help_text) == bool(p.share), p.symbol
