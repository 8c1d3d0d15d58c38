"""Every printed name of every trace names one value (issue 41), for every registered scenario
down the documents' worked examples, a plain case and each branch: where a scenario computes
one symbol twice, it declares what tells the values apart (a step's ``qualifier``, or its
note), so ``printed_names`` never has to fall back to numbering steps."""

from __future__ import annotations

import pytest

from assessments.esd import registry
from assessments.esd.names import input_names, printed_names, trace_repeats
from assessments.esd.parameters import EngineValidationError
from tests.contract.varied_inputs import input_sets

SCENARIOS = registry.scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_every_step_of_every_trace_has_a_name_of_its_own(scenario):
    computed = 0
    for inputs in input_sets(scenario):
        try:
            trace = scenario.compute(inputs).as_dict()["trace"]
        except EngineValidationError:
            continue
        computed += 1
        assert trace_repeats(trace) == [], (scenario.key, inputs)
        names = printed_names(trace)
        assert len(set(names)) == len(names)
    assert computed > 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_a_steps_input_computed_before_is_named_as_the_step_that_holds_its_value(scenario):
    """An input that an earlier step of its own symbol computed prints under that step's name,
    and that step holds the very value the input read, where one does."""
    for inputs in input_sets(scenario):
        try:
            trace = scenario.compute(inputs).as_dict()["trace"]
        except EngineValidationError:
            continue
        names = printed_names(trace)
        for i, (step, named) in enumerate(zip(trace, input_names(trace))):
            for key, value in step["inputs"].items():
                holders = [j for j in range(i) if trace[j]["symbol"] == key and trace[j]["value"] == value]
                if holders:
                    assert named[key] == names[holders[-1]], (scenario.key, i, key)


def test_a_repeat_with_nothing_to_tell_it_apart_is_found():
    trace = [{"symbol": "x", "note": ""}, {"symbol": "x", "note": ""}]
    assert trace_repeats(trace) == ["x"]
    assert printed_names(trace) == ["x (step 1)", "x (step 2)"]
    trace = [{"symbol": "x", "note": "a"}, {"symbol": "x", "note": "a"}, {"symbol": "x"}]
    assert trace_repeats(trace) == ["x (a)"]
    assert printed_names(trace) == ["x (a, step 1)", "x (a, step 2)", "x"]
