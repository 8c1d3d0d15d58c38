"""Inputs that apply only sometimes (``Param.applies_when``): the declaration, what the
engine does with an input that does not apply (not required, not checked, not recorded,
a value given for it ignored), the conditions of each scenario, and the words every
declaration shows a reviewer (labels, not codes; no remarks about the project's files)."""

from __future__ import annotations

import json
import re

import pytest

from assessments.esd import registry
from assessments.esd.parameters import (
    CHOICE,
    CHOICE_RANGE,
    EngineValidationError,
    Param,
    ParamSet,
    Step,
    cross_errors,
    each_input,
    when,
)

CVD = "cvd-2015"
GAS_ONLY = {"z", "P", "T", "Tc", "Pc"}
SUPPLIER_INPUTS = {
    "TIME_operating_days_supplier", "Nsites_supplier", "VP_chem", "toxic_reactive_pyrophoric", "X_chem", "Cv_k",
    "VP_k", "X_k", "FSA", "v_NF", "Q_FF", "RATE_fill", "V_molar", "RATE_breathing", "TIME_exposure",
    "Nworkers_supplier", "medium_2",
}
SCENARIOS = registry.scenarios()
IDS = [s.key for s in SCENARIOS]


def _set(*params: Param) -> ParamSet:
    return ParamSet(params=params, steps=(Step("s", "Step"), Step("t", "Later")))


STATE = Param("state", "Physical state", "", "liquid", "doc", "s", kind=CHOICE,
              choices=(("liquid", "Liquid"), ("gas", "Gas")))
METHOD = Param("method", "Density method", "", "default", "doc", "s", kind=CHOICE,
               choices=(("default", "Default"), ("z", "Compressibility")), applies_when=when(state="gas"))
Z = Param("z", "Compressibility factor", "", None, "doc", "s", lower=0, lower_open=True, required=True,
          applies_when=when(method="z"))


# --- The declaration -------------------------------------------------------------------------


def test_a_condition_holds_when_any_alternative_holds_in_full():
    condition = when(state="gas", method="z") | when(site="yes")
    assert condition.holds({"state": "gas", "method": "z", "site": "no"})
    assert condition.holds({"state": "liquid", "method": "default", "site": "yes"})
    assert not condition.holds({"state": "gas", "method": "default", "site": "no"})
    assert condition.symbols == ("state", "method", "site")


def test_a_condition_is_plain_data_for_the_browser():
    condition = when(state="gas", method=("z", None)) | when(site="yes")
    assert json.loads(json.dumps(condition.as_data())) == [{"state": ["gas"], "method": ["z", None]},
                                                           {"site": ["yes"]}]


def test_an_input_applies_only_when_its_controls_apply_themselves():
    params = _set(STATE, METHOD, Z)
    # "z" is chosen but the method does not apply to a liquid: neither does z
    assert params.applicable({"method": "z"}) == {"state"}
    assert params.applicable({"state": "gas"}) == {"state", "method"}
    assert params.applicable({"state": "gas", "method": "z"}) == {"state", "method", "z"}


def test_a_blank_choice_takes_its_default_when_deciding():
    params = _set(STATE, METHOD, Z)
    assert params.applicable({"state": " ", "method": "z"}) == {"state"}


@pytest.mark.parametrize("bad, message", [
    (Param("x", "X", "", 1.0, "doc", "s", applies_when=when(nothing="yes")), "not a choice input"),
    (Param("x", "X", "", 1.0, "doc", "s", applies_when=when(z=1.0)), "not a choice input"),
    (Param("x", "X", "", 1.0, "doc", "s", applies_when=when(state="plasma")), "cannot take"),
    (Param("x", "X", "", 1.0, "doc", "s", applies_when=when(state=None)), "cannot take"),
])
def test_a_condition_names_a_choice_input_and_values_it_can_take(bad, message):
    with pytest.raises(ValueError, match=message):
        _set(STATE, METHOD, Z, bad)


def test_conditions_may_not_run_in_a_circle():
    a = Param("a", "A", "", "x", "doc", "s", kind=CHOICE, choices=(("x", "X"), ("y", "Y")), applies_when=when(b="x"))
    b = Param("b", "B", "", "x", "doc", "s", kind=CHOICE, choices=(("x", "X"), ("y", "Y")), applies_when=when(a="x"))
    with pytest.raises(ValueError, match="circle"):
        _set(a, b)


def test_the_condition_in_words_uses_labels():
    params = _set(STATE, METHOD, Z)
    assert Z.applies_when.in_words(params) == "“Density method” is “Compressibility”"


# --- The engine and an input that does not apply ------------------------------------------


def test_an_input_that_does_not_apply_is_neither_required_nor_checked():
    params = _set(STATE, METHOD, Z)
    effective, errors = each_input(params, {"state": "liquid", "z": -4})
    assert errors == {} and effective["z"] is None  # the value given is ignored: the default stands
    _, errors = each_input(params, {"state": "gas", "method": "z"})
    assert list(errors) == ["z"] and errors["z"].startswith("is required")
    _, errors = each_input(params, {"state": "gas", "method": "z", "z": -4})
    assert errors == {"z": "must be greater than 0"}


def test_cross_errors_within_a_step_skip_checks_reading_later_inputs():
    low = Param("low", "Low end", "", 0.3, "doc", "s", lower=0, upper=1)
    high = Param("high", "High end", "", 0.5, "doc", "t", lower=0, upper=1)
    params = ParamSet(params=(low, high), steps=(Step("s", "S"), Step("t", "T")),
                      cross_checks=(lambda v: {"low": "above the high end"} if v["low"] > v["high"] else {},))
    assert cross_errors(params, {"low": 0.7, "high": 0.5}) == {"low": "above the high end"}
    assert cross_errors(params, {"low": 0.7, "high": 0.5}, within={"low"}) == {}
    assert cross_errors(params, {"low": 0.7, "high": 0.5}, within={"low", "high"}) == {"low": "above the high end"}


def test_gas_only_inputs_do_not_apply_to_a_liquid():
    params = registry.get(CVD).params
    assert not GAS_ONLY & params.applicable({"Qchem_yr": 1000})
    assert not GAS_ONLY & params.applicable({"physical_state": "gas"})  # density by the state's default
    assert params.applicable({"physical_state": "gas", "density_method": "compressibility"}) >= GAS_ONLY


def test_the_supplier_inputs_apply_only_when_the_supplier_site_is_assessed():
    params = registry.get(CVD).params
    assert not SUPPLIER_INPUTS & params.applicable({"supplier_site": "no"})
    assert params.applicable({"supplier_site": "yes"}) >= SUPPLIER_INPUTS
    # a toxic, reactive or pyrophoric precursor is cleaned under engineering controls: no vapour inputs
    contained = params.applicable({"supplier_site": "yes", "toxic_reactive_pyrophoric": "yes"})
    assert {"Nsites_supplier", "RATE_fill", "Nworkers_supplier"} <= contained
    assert not {"Cv_k", "V_molar", "TIME_exposure", "X_chem"} & contained


def test_other_choices_that_make_inputs_unused():
    cvd = registry.get(CVD).params
    assert "EF" in cvd.applicable({}) and "EF" not in cvd.applicable({"EF_table_4_2": "oxide/cold-bed/silane"})
    assert "RHOformulation" not in cvd.applicable({"density_method": "fill_mass"})
    assert "m_container" in cvd.applicable({"density_method": "fill_mass"})
    assert "medium_1" not in cvd.applicable({"Release1_media": "air"})
    assert "MW_chem" not in cvd.applicable({}) and "MW_chem" in cvd.applicable({"supplier_site": "yes"})
    r2018 = registry.get("photoresist-2018").params
    assert "Fphoto_wafer_low" not in r2018.applicable({})
    assert "Fphoto_wafer_low" in r2018.applicable({"Fphoto_wafer_range": "both"})
    assert "medium_5" in r2018.applicable({}) and "medium_5" not in r2018.applicable({"stripping_process": "plasma"})
    assert {"BW", "EY", "AT", "ATc"} & r2018.applicable({"include_exposures": "no"}) == set()


def test_a_value_given_for_an_input_that_does_not_apply_changes_nothing():
    plain = registry.compute(CVD, {"Qchem_yr": 10000}).as_dict()
    ignored = registry.compute(CVD, {"Qchem_yr": 10000, "z": -3, "P": "high", "Cv_k": 40, "VP_chem": None}).as_dict()
    assert ignored == plain
    # a Table 4-2 row makes the efficiency entered unused
    row = {"Qchem_yr": 10000, "EF_table_4_2": "oxide/cold-bed/silane"}
    assert registry.compute(CVD, {**row, "EF": 0.5}).as_dict() == registry.compute(CVD, row).as_dict()


def test_no_equation_reads_an_input_that_does_not_apply():
    """The contract's ``inputs`` keeps every effective input (INTERFACE.md), one that does
    not apply at its default whatever was given for it; the trace never reads it."""
    plain = registry.compute(CVD, {"Qchem_yr": 10000})
    assert set(plain.inputs) >= (SUPPLIER_INPUTS | GAS_ONLY)
    given = registry.compute(CVD, {"Qchem_yr": 10000, "z": 0.5})
    assert given.inputs["z"] == plain.inputs["z"]
    assert registry.get(CVD).params.applicable(plain.inputs).isdisjoint(SUPPLIER_INPUTS | GAS_ONLY)
    traced = {symbol for step in plain.trace for symbol in step.inputs} | {step.symbol for step in plain.trace}
    assert not (SUPPLIER_INPUTS | GAS_ONLY) & traced
    supplier = registry.compute(CVD, {"Qchem_yr": 10000, "supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100})
    assert SUPPLIER_INPUTS - {"TIME_exposure"} <= set(supplier.inputs)


def test_a_required_input_is_required_only_when_it_applies():
    assert registry.compute(CVD, {"Qchem_yr": 10000}).releases  # no vapour pressure needed without the supplier
    with pytest.raises(EngineValidationError) as exc:
        registry.compute(CVD, {"Qchem_yr": 10000, "supplier_site": "yes"})
    assert exc.value.errors["VP_chem"].startswith("is required")


# --- The words every scenario shows ----------------------------------------------------------

#: Remarks about the text the engine was built from or the project's own files.
DEVELOPER_WORDS = re.compile(
    r"extracted|irer\.md|INTERFACE|\.md\b|spec/|catalogue|misprint|body lost|display lost|decision \d|"
    r"docstring|\(cleaned contained\)|printed as 2,924", re.IGNORECASE)


def _reviewer_texts(scenario) -> list[tuple[str, str]]:
    texts = [(f"step {s.key}", f"{s.title} {s.help}") for s in scenario.params.steps]
    for p in scenario.params.params:
        texts.append((p.symbol, " ".join([p.label, p.source, p.help, p.if_empty, p.range_text()]
                                         + [label for _, label in p.choices]
                                         + [words for _, words in p.choice_help])))
    return texts


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_no_declaration_speaks_of_the_projects_files(scenario):
    found = [(where, DEVELOPER_WORDS.search(text).group(0)) for where, text in _reviewer_texts(scenario)
             if DEVELOPER_WORDS.search(text)]
    assert not found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_a_choice_is_described_by_its_labels_never_its_codes(scenario):
    for p in scenario.params.params:
        if p.kind != CHOICE:
            continue
        assert p.range_text() == CHOICE_RANGE, p.symbol
        codes = [value for value, label in p.choices if value != label and re.search(r"[_/]", value)]
        message = p.choice_error()
        assert not [code for code in codes if code in message], (p.symbol, message)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_every_input_without_a_default_says_what_happens_when_left_empty(scenario):
    for p in scenario.params.params:
        if p.optional:
            assert p.if_empty, f"{p.symbol}: say what happens when it is left empty"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_every_condition_reads_in_words_and_ships_as_json(scenario):
    for p in scenario.params.conditional():
        words = p.applies_when.in_words(scenario.params)
        assert "“" in words and "_" not in words.replace(p.symbol, ""), (p.symbol, words)
        assert json.loads(json.dumps(p.applies_when.as_data()))


def test_the_table_4_2_choice_is_grouped_by_process():
    param = registry.get(CVD).params["EF_table_4_2"]
    headings = [heading for heading, _ in param.choice_groups]
    assert headings[0] == "Silicon EPI with dopants (hydrogen vented)" and len(headings) == 9
    assert sum(len(rows) for _, rows in param.choice_groups) == len(param.choices)
    # each option under its process reads technology; compound: the efficiency as printed
    assert param.choice_groups[0][1][0] == ("epi-h2-vented/wet-scrub-no-chem/diborane",
                                            "Wet scrubbing (without chemical addition); Diborane: >98%")


def test_cross_check_messages_name_both_inputs_by_label():
    with pytest.raises(EngineValidationError) as exc:
        registry.compute(CVD, {"Qchem_yr": 10000, "U_process_low": 0.7, "U_process_high": 0.5})
    message = exc.value.errors["U_process_low"]
    assert message.startswith("must not exceed “Utilisation of the precursor, high end” (0.5)")
    assert "U_process" not in message


def test_the_current_edition_is_declared_and_offered_first():
    offered = registry.offered()
    assert [heading for heading, _ in offered] == [registry.CURRENT_EDITIONS, registry.EARLIER_EDITIONS]
    current, earlier = ([s.key for s in group] for _, group in offered)
    assert current == ["photoresist-2018", "cvd-2015"] and earlier == ["photoresist-2010", "photoresist-2004"]
    assert registry.default_key() == "photoresist-2018"
    assert registry.get("photoresist-2004").superseded_by == "photoresist-2010"
    assert all(str(s.edition) in s.full_title for s in SCENARIOS)


SAMPLES = [
    ("photoresist-2004", {"Qchem_yr": 5000, "Fchem": 0.15, "VPchem": 0.5, "MWchem": 200}),
    ("photoresist-2010", {"Qchem_yr": 5000, "Fchem": 0.15, "daily_use_basis": "chemsteer", "VPchem": 0.5,
                          "MWchem": 200, "cleanings_per_year": 12}),
    ("photoresist-2018", {"Qchem_yr": 5000, "Fchem": 0.15, "daily_use_basis": "chemsteer"}),
    (CVD, {"Qchem_yr": 10000, "supplier_site": "yes", "VP_chem": 2000, "MW_chem": 100}),
]


@pytest.mark.parametrize("key, inputs", SAMPLES, ids=[k for k, _ in SAMPLES])
def test_no_result_speaks_of_the_projects_files(key, inputs):
    # the trace's citations, the notes, the warnings and the bases a reviewer reads
    text = json.dumps(registry.compute(key, inputs).as_dict(), ensure_ascii=False)
    assert not DEVELOPER_WORDS.findall(text)


def test_the_method_validation_page_speaks_of_the_documents_not_the_text_read_from_them():
    from assessments.esd import verification

    rows = verification.table()
    words = [(row.section, DEVELOPER_WORDS.search(f"{row.note} {row.remark}").group(0)) for row in rows
             if DEVELOPER_WORDS.search(f"{row.note} {row.remark}")]
    assert not words
