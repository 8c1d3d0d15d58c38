"""Defaults against the case (issue 43, ``assessments.departures``): each input of a computed use
that departs from the document's default, its source and reason, and what it alone does to the
use's figures, checked against ``manage.py esd compute`` (docs/interface.md: the inputs as a
JSON object on standard input, the result's JSON on standard output, ``{"errors": ...}`` and
exit status 2 when refused).

The property over every registered scenario builds a use with one to three inputs set away
from their defaults (values its declaration allows: a choice other than the default, a number
within the range its document prints or within its bounds), computes it with ``esd compute``
and checks that every figure a departure lists, with the defaults alone and with it alone, is
what ``esd compute`` prints for those inputs, and that every figure that differs is listed.
Examples per scenario: ``PMN_PROPERTY_EXAMPLES`` (default 4) × 2; about 0.1 s an example.
"""

from __future__ import annotations

import io
import json
import math
import os
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from assessments import departures
from assessments.esd import registry
from assessments.esd.parameters import CHOICE, INT, PERCENT, EngineValidationError, Param
from assessments.esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES
from assessments.exposure_limits import ABOVE_TEXT, ExposureLimit
from assessments.impact import NOW_ABOVE, RANK_CHANGED, at_default
from assessments.impact_engines import InstalledEngine
from assessments.models import Scenario, Submission
from tests.contract.outputs import outputs
from tests.contract.varied_inputs import case_inputs

EXAMPLES = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))
KEYS = [s.key for s in registry.scenarios()]
PHOTORESIST = "photoresist-2018"


# --- helpers -------------------------------------------------------------------------------------


def esd_compute(key: str, inputs: dict) -> tuple[dict | None, dict | None]:
    """``manage.py esd compute KEY -`` with ``inputs`` on standard input: (result, None), or
    (None, the errors) when it refuses them."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("esd", "compute", key, "-", stdin=io.StringIO(json.dumps(inputs)), stdout=out, stderr=err)
    except SystemExit as exit_:
        assert exit_.code == 2
        return None, json.loads(err.getvalue())["errors"]
    return json.loads(out.getvalue()), None


def use_of(key: str, inputs: dict, *, reasons: dict | None = None, result: dict | None = None) -> Scenario:
    """A use computed with ``inputs`` (not saved: the departures read its fields only)."""
    if result is None:
        result, errors = esd_compute(key, inputs)
        assert errors is None, errors
    return Scenario(scenario_key=key, title="A use", position=1, inputs=dict(inputs), computed_inputs=dict(inputs),
                    reasons=reasons or {}, result=result, computed_at=timezone.now())


def case_of(**fields: Any) -> Submission:
    values = {"case_number": "P-26-0999", "production_volume_kg_yr": 5000.0, "use_concentration": 0.15,
              "molecular_weight": 200.0, "vapour_pressure_torr": 5.0, "tlv_pel_value": 1.0, "tlv_pel_unit": "ppm"}
    return Submission(**{**values, **fields})


def counts(result: dict) -> dict[tuple[str, str | None], int]:
    return {**{(f"release-{r['number']}", None): len(r["estimates"]) for r in result["releases"]},
            **{(f"exposure-{x['letter']}", x.get("route")): len(x["estimates"]) for x in result["exposures"]}}


def values_at(result: dict, ident: str, route: str | None, quantity: str) -> list[float]:
    return [v for (i, r, _, q), (_, v) in outputs(result).items() if (i, r, q) == (ident, route, quantity)]


def same(a: float | None, b: float | None) -> bool:
    return a == b or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12))


# --- the demo case: the done-when --------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_revision_2_lists_the_stripping_process_with_its_effect_on_each_release(demo_data):
    use = Scenario.objects.get(assessment__submission__case_number="P-18-0123", assessment__revision=2, position=1)
    found = departures.use_departures(use, case=use.assessment.case_data)
    by_symbol = {d.symbol: d for d in found.departures}
    stripping = by_symbol["stripping_process"]
    assert (stripping.default, stripping.value) == ("unknown", "organic_solvent")
    assert stripping.source == departures.REVIEWER
    assert stripping.reason == use.reasons["stripping_process"]
    assert stripping.reason.startswith("The submitter's answer to EPA's question")
    assert stripping.default_text.startswith("Unknown") and stripping.value_text.startswith("Organic solvent")
    # The production volume is the case's, never a departure; the concentration is the submitter's.
    assert "Qchem_yr" not in by_symbol and by_symbol["Fchem"].source == departures.SUBMITTER_DATA

    # Each release with every departure at its default (without it) and with it alone, by esd compute.
    listed = [d.symbol for d in found.departures]
    without = {k: v for k, v in use.computed_inputs.items() if k not in listed}
    with_it = {**without, "stripping_process": "organic_solvent"}
    before, _ = esd_compute(use.scenario_key, without)
    after, _ = esd_compute(use.scenario_key, with_it)
    column = listed.index("stripping_process")
    releases = [row for row in found.rows if row.id.startswith("release-")]
    assert {row.id for row in releases} == {f"release-{r['number']}" for r in before["releases"]}
    for row in releases:
        assert row.defaults in values_at(before, row.id, None, row.quantity)
        assert row.each[column] in values_at(after, row.id, None, row.quantity)
    # The stripping process sends release 5 elsewhere (EPA 2018 update §4.7: 25 % to water, 75 % to
    # incineration) without changing an amount: no figure moves, its media change is listed.
    old, new = outputs(before), outputs(after)
    assert old.keys() == new.keys() and all(same(old[k][1], new[k][1]) for k in old)
    assert stripping.effects == [] and stripping.thresholds == []
    [media] = stripping.media
    assert media.id == "release-5" and media.default.startswith("Water or incineration")
    assert media.departed == "Water 25 %, Incineration 75 %"


# --- the rules, by example -----------------------------------------------------------------------


def test_inputs_without_a_default_are_case_data_and_stay_in_every_run():
    inputs = {"Qchem_yr": 5000.0, "Nsites": 2, "Fcontainer_disp": 0.01}
    found = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of())
    assert [d.symbol for d in found.departures] == ["Fcontainer_disp"]
    assert found.defaults_result["facility"]["Nsites"] == 2  # the known number of sites, kept


def test_an_input_stored_at_its_default_or_not_applying_is_no_departure():
    # The range's low end applies only when both ends are computed (Fphoto_wafer_range "both").
    inputs = {"Qchem_yr": 5000.0, "Fcontainer_disp": "0.006", "Fphoto_wafer_low": 0.02}
    found = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of())
    assert found.departures == [] and departures.summary_text(found) == departures.NO_DEPARTURE


def test_a_linked_input_is_submitter_data_and_one_the_reviewer_replaced_is_theirs():
    inputs = {"Qchem_yr": 5000.0, "Fchem": 0.15}
    linked = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of(use_concentration=0.15))
    assert [(d.source, d.reason) for d in linked.departures] == [
        (departures.SUBMITTER_DATA, "Submission: concentration in the use formulation.")]
    own = use_of(PHOTORESIST, inputs, reasons={"Fchem": "MSDS rev. 4: 15 %."})
    replaced = departures.use_departures(own, case=case_of(use_concentration=0.15))
    assert [(d.source, d.reason) for d in replaced.departures] == [(departures.REVIEWER, "MSDS rev. 4: 15 %.")]
    # The case says otherwise now: the use's value is no longer what the case gives it.
    moved = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of(use_concentration=0.2))
    assert [d.source for d in moved.departures] == [departures.REVIEWER]


def test_a_departure_that_changes_a_release_rank_is_flagged():
    # ESD 2010 Eqn 4-1 (the ESD's daily-use basis): release 1 = Qchem_yr × Fcontainer_disp = 5,000 × 0.006
    # = 30 kg/yr with the default, 5,000 × 0.01 = 50 with the departure; release 2 (Eqn 4-2) =
    # (5,000 − release 1) × Fequip_disp 0.01 = 49.7, then 49.5: release 1 passes release 2.
    found = departures.use_departures(use_of(PHOTORESIST, {"Qchem_yr": 5000.0, "Fcontainer_disp": 0.01}),
                                      case=case_of())
    [departure] = found.departures
    release_1 = next(e for e in departure.effects if (e.id, e.quantity) == ("release-1", "kg_yr"))
    release_2 = next(e for e in departure.effects if (e.id, e.quantity) == ("release-2", "kg_yr"))
    assert (release_1.default, release_1.departed) == (pytest.approx(30.0), pytest.approx(50.0))
    assert (release_2.default, release_2.departed) == (pytest.approx(49.7), pytest.approx(49.5))
    assert release_1.threshold == release_2.threshold == RANK_CHANGED
    assert release_1.relative == pytest.approx(50 / 30 - 1)
    assert departure.thresholds == [RANK_CHANGED]
    assert departures.summary_text(found) == "Defaults against the case: 1 departure, 1 crosses a review threshold"


def test_a_departure_that_alone_takes_an_exposure_above_the_case_limit_is_flagged():
    # 500 kg/yr fills one site; the vapour's concentration follows the chemical a day (ESD 2010 §5):
    # 360 operating days (the default) -> 100 raises it × 3.6. Exposure C's central tendency goes
    # from 0.662 to 2.38 mg/m³, across the case's 1 mg/m³; its high end is above the limit either way.
    inputs = {"Qchem_yr": 500.0, "VPchem": 5.0, "MWchem": 200.0, "TIMEapply_days": 100}
    case = case_of(production_volume_kg_yr=500.0, tlv_pel_value=1.0, tlv_pel_unit="mg/m3")
    found = departures.use_departures(use_of(PHOTORESIST, inputs), case=case)
    [departure] = found.departures
    flagged = [e for e in departure.effects if e.threshold and e.threshold != RANK_CHANGED]
    words = NOW_ABOVE.format(above=ExposureLimit(1.0, "mg/m3").words(ABOVE_TEXT))
    assert words == "now above the TLV/PEL of 1 mg/m³"
    assert [(e.id, e.route, e.estimate, e.quantity, e.threshold) for e in flagged] == [
        ("exposure-C", "inhalation", "central tendency", "mg_m3", words)]
    assert flagged[0].departed == pytest.approx(flagged[0].default * 360 / 100)
    assert flagged[0].default < 1.0 < flagged[0].departed
    assert words in departure.thresholds
    # Without the limit nothing is above or below it: no such flag.
    unlimited = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of(tlv_pel_value=None))
    assert all(words not in d.thresholds for d in unlimited.departures)


@dataclass
class Counting:
    """The installed engine, counting its runs."""

    ref: str = ""
    runs: list[dict] = field(default_factory=list)

    def compute(self, key: str, inputs: dict) -> dict:
        self.runs.append(inputs)
        return InstalledEngine().compute(key, inputs)


def test_a_use_is_one_run_with_the_defaults_and_one_per_departure_and_the_stored_result_is_reused():
    one = use_of(PHOTORESIST, {"Qchem_yr": 5000.0, "Fcontainer_disp": 0.01})
    engine = Counting()
    departures.use_departures(one, case=case_of(), engine=engine)
    assert len(engine.runs) == 1  # its departure alone is its stored inputs
    two = use_of(PHOTORESIST, {"Qchem_yr": 5000.0, "Fcontainer_disp": 0.01, "Fequip_disp": 0.02})
    engine = Counting()
    departures.use_departures(two, case=case_of(), engine=engine)
    assert len(engine.runs) == 3
    older = use_of(PHOTORESIST, two.computed_inputs, result={**two.result, "engine_version": "0.9.0"})
    engine = Counting()
    found = departures.use_departures(older, case=case_of(), engine=engine)
    assert len(engine.runs) == 4 and found.all_result["engine_version"] != "0.9.0"


@dataclass
class Refusing:
    """An engine that refuses every set of inputs without ``symbol``."""

    symbol: str
    ref: str = "refusing"

    def compute(self, key: str, inputs: dict) -> dict:
        if self.symbol not in inputs:
            raise EngineValidationError({"__all__": "refused for the test"})
        return InstalledEngine().compute(key, inputs)


def test_the_engine_refusing_the_defaults_alone_is_said_never_raised():
    use = use_of(PHOTORESIST, {"Qchem_yr": 5000.0, "Fcontainer_disp": 0.01})
    found = departures.use_departures(use, case=case_of(), engine=Refusing("Fcontainer_disp"))
    assert found.refused == {"__all__": "refused for the test"}
    assert [(d.symbol, d.effects, d.refused) for d in found.departures] == [("Fcontainer_disp", [], None)]
    assert departures.page(found)["refused"] == departures.DEFAULTS_REFUSED.format(errors="refused for the test")


def test_the_engine_refusing_a_departure_alone_is_said_on_it():
    # Both ends of the dermal loading raised: the low end alone (5, the high end at its default
    # 2.1) puts the low end above the high one, which the engine refuses.
    inputs = {"Qchem_yr": 5000.0, "Qliquid_skin_low": 5.0, "Qliquid_skin_high": 10.0}
    found = departures.use_departures(use_of(PHOTORESIST, inputs), case=case_of())
    low = next(d for d in found.departures if d.symbol == "Qliquid_skin_low")
    _, errors = esd_compute(PHOTORESIST, {"Qchem_yr": 5000.0, "Qliquid_skin_low": 5.0})
    assert errors and low.refused == errors and low.effects == []
    assert found.refused is None


def test_an_uncomputed_use_lists_nothing_and_says_so():
    use = Scenario(scenario_key=PHOTORESIST, title="A use", position=2, inputs={"Qchem_yr": 5000.0, "Fchem": 0.2})
    found = departures.use_departures(use, case=case_of())
    assert (found.computed, found.departures, found.rows) == (False, [], [])
    assert departures.NOT_COMPUTED in departures.summary_text(found)


# --- the property over every scenario ------------------------------------------------------------


def away_from_default(param: Param) -> st.SearchStrategy:
    """Values the declaration allows other than the default: another choice, or a number within
    the range its document prints (else within its bounds), as a use stores it."""
    if param.kind == CHOICE:
        return st.sampled_from([value for value, _ in param.choices if value != param.default])
    documented = param.documented_range
    default = float(param.default)
    low = documented.low if documented else param.lower if param.lower is not None else default - abs(default) - 1
    high = documented.high if documented else param.upper if param.upper is not None else 10 * abs(default) + 10
    if param.kind == INT:
        numbers = st.integers(min_value=math.ceil(low), max_value=math.floor(high))
    else:
        numbers = st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
        numbers = st.one_of(numbers, st.sampled_from([low, high]))
    stored = numbers.map(lambda v: param.as_input(float(v)) if param.share == PERCENT else v)
    return stored.filter(lambda v: not at_default(param, v) and not param.check(param.coerce(v)))


def check_departures(key: str, inputs: dict, case: Submission) -> None:
    stored, errors = esd_compute(key, inputs)
    assume(errors is None)
    params = registry.get(key).params
    found = departures.use_departures(use_of(key, inputs, result=stored), case=case)
    applying = params.applicable(inputs)
    expected = [p.symbol for p in params.params if p.default is not None and p.symbol in applying
                and not at_default(p, inputs.get(p.symbol))]
    assert [d.symbol for d in found.departures] == expected
    defaults_inputs = {k: v for k, v in inputs.items() if k not in expected}
    defaults, refused = esd_compute(key, defaults_inputs)
    assert found.refused == refused
    if refused:
        assert all(d.effects == [] for d in found.departures)
        return
    for column, departure in enumerate(found.departures):
        alone, alone_refused = esd_compute(key, {**defaults_inputs, departure.symbol: inputs[departure.symbol]})
        assert departure.refused == alone_refused
        if alone_refused:
            assert departure.effects == []
            continue
        check_effects(departure, defaults, alone)
        for row in found.rows:
            assert row.defaults is None or row.defaults in values_at(defaults, row.id, row.route, row.quantity)
            assert row.each[column] is None or row.each[column] in values_at(alone, row.id, row.route, row.quantity)
    for row in found.rows:
        assert row.all_departures is None or row.all_departures in values_at(stored, row.id, row.route, row.quantity)


def check_effects(departure, defaults: dict, alone: dict) -> None:
    """Each effect is (the defaults alone, the departure alone) as esd compute prints them, and
    every output that differs is an effect; a release or exposure whose number of estimates
    changes is paired as esd sensitivity pairs it, each figure still esd compute's."""
    old, new = outputs(defaults), outputs(alone)
    reshaped = {s for s, n in counts(defaults).items() if counts(alone).get(s, n) != n}
    expected = set()
    for place in old.keys() | new.keys():
        before, after = old.get(place), new.get(place)
        if place[:2] in reshaped or (before and after and same(before[1], after[1])):
            continue
        expected.add((place[0], place[1], place[3], (before or after)[0], before and before[1], after and after[1]))
    listed = {(e.id, e.route, e.quantity, e.estimate, e.default, e.departed)
              for e in departure.effects if (e.id, e.route) not in reshaped}
    assert listed == expected, departure.symbol
    for effect in departure.effects:
        assert effect.relative == (None if effect.default in (None, 0) or effect.departed is None
                                   else (effect.departed - effect.default) / effect.default)
        if (effect.id, effect.route) in reshaped:
            assert effect.default is None or effect.default in values_at(defaults, effect.id, effect.route,
                                                                         effect.quantity)
            assert effect.departed is None or effect.departed in values_at(alone, effect.id, effect.route,
                                                                           effect.quantity)


@pytest.mark.parametrize("key", KEYS)
def test_every_figure_of_a_departure_is_what_esd_compute_prints(key):
    scenario = registry.get(key)
    base = {symbol: value for symbol, value in case_inputs(scenario).items()
            if scenario.params[symbol].default is None}
    candidates = [p.symbol for p in scenario.params.params
                  if p.default is not None and (p.kind != CHOICE or len(p.choices) > 1)]
    case = case_of()

    @settings(max_examples=EXAMPLES * 2, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(data=st.data())
    def examples(data):
        symbols = data.draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3, unique=True), label="inputs")
        inputs = dict(base)
        for symbol in symbols:
            inputs[symbol] = data.draw(away_from_default(scenario.params[symbol]), label=symbol)
        check_departures(key, inputs, case)

    examples()
