"""The site-specific release's calculation trace: each step is one EIIP equation, recorded
by the call that evaluated it, under the symbols and citations the trace has always used.
"""

from __future__ import annotations

import inspect

import pytest

from assessments.esd import registry
from assessments.esd.site_data import SITE_SPECIFIC
from assessments.esd.site_data import equations as eq

DOC = "EIIP Vol. II Ch. 6"
#: Every equation function, by the (symbol, formula) its trace steps carry.
EQUATIONS = {(f.info.symbol, f.info.formula): f
             for _, f in inspect.getmembers(eq, inspect.isfunction) if hasattr(f, "info")}
TAIL = [("E_a", f"{DOC} Eqn 6.4-4, 6.5-2"), ("kg_site_yr", "lb to kg (NIST)"),
        ("kg_site_day", "days of release")]

CASES = [
    ({"method": "material_balance",
      "inputs": {"pollutant_class": "voc", "Q_in": 2, "Q_out": 1.5, "C_x": 7.5, "OH": 1000}},
     [("E_x", f"{DOC} Eqn 6.4-1")]),
    ({"method": "material_balance_speciated",
      "inputs": {"pollutant_class": "organic", "Q_in": 2, "Q_out": 1.5, "d": 7.5, "wt_pct_x": 25,
                 "OH": 2000}},
     [("E_x", f"{DOC} Eqn 6.4-2")]),
    ({"method": "source_test",
      "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0, "V": 109020, "OH": 1760}},
     [("E_x", f"{DOC} Eqn 6.4-3")]),
    ({"method": "source_test",
      "inputs": {"pollutant_class": "organic", "C_x": 15.4, "MW_x": 92.0, "V": 109020, "OH": 1760}},
     [("E_x", f"{DOC} Eqn 6.5-1")]),
    ({"method": "emission_factor",
      "inputs": {"pollutant_class": "inorganic", "EF_x": 6.0e-6, "AF": 30, "OH": 5000}},
     [("E_x", f"{DOC} Eqn 6.5-3")]),
    ({"method": "saturation",
      "inputs": {"pollutant_class": "organic", "P_sat_x": 0.13, "V": 6000, "d_x": 0.083, "OH": 2000}},
     [("E_x_sat", f"{DOC} Eqn 6.5-4"), ("E_x", f"{DOC} §3.1.4, §5.3 (dilution to saturation)")]),
    ({"method": "saturation",
      "inputs": {"pollutant_class": "voc", "P_sat_x": 0.13, "V": 6000, "MW_x": 32,
                 "dilution_ratio": 800, "OH": 1000}},
     [("d_x", f"{DOC} Eqn 6.5-4 (d_x read as vapour density, Example 6.5-3)"),
      ("E_x_sat", f"{DOC} Eqn 6.5-4"), ("E_x", f"{DOC} §3.1.4, §5.3 (dilution to saturation)")]),
    ({"method": "evaporation",
      "inputs": {"pollutant_class": "voc", "MW_x": 32, "U": 1.7, "A": 1, "P_vap_x": 1.91, "T": 533,
                 "OH": 1}},
     [("K", f"{DOC} Eqn 6.5-5"), ("W_x", f"{DOC} Eqn 6.5-5"), ("E_x", f"{DOC} Eqn 6.5-5")]),
]


def site_steps(entry):
    plain = registry.compute("cvd-2015", {"Qchem_yr": 10000})
    result = registry.compute("cvd-2015", {"Qchem_yr": 10000,
                                           SITE_SPECIFIC: [{**entry, "replaces": 1, "source": "test"}]})
    assert result.trace[:len(plain.trace)] == plain.trace  # the scenario's own steps come first
    return result.trace[len(plain.trace):]


@pytest.mark.parametrize("entry, head", CASES, ids=[f"{c[0]['method']}-{i}" for i, c in enumerate(CASES)])
def test_steps_keep_their_symbols_and_citations(entry, head):
    assert [(s.symbol, s.citation) for s in site_steps(entry)] == head + TAIL


@pytest.mark.parametrize("entry, head", CASES, ids=[f"{c[0]['method']}-{i}" for i, c in enumerate(CASES)])
def test_each_step_is_its_equation_of_its_recorded_inputs(entry, head):
    for step in site_steps(entry):
        fn = EQUATIONS[(step.symbol, step.equation)]
        assert fn(**step.inputs) == step.value, step
        assert step.units == fn.info.units


def test_the_evaporation_steps_chain_example_6_5_4():
    entry = CASES[-1][0]
    k, w, e_x, *_ = site_steps(entry)
    # EIIP Example 6.5-4: K "0.00547 ft/sec", W "5.84 × 10^-5 lb/sec" (5.845E-5 unrounded)
    assert k.value == pytest.approx(0.00547, abs=5e-6)
    assert w.inputs["K"] == k.value and w.value == pytest.approx(5.845e-5, rel=1e-3)
    # Hand calculation: 5.845E-5 lb/s × 3,600 s/hr = 0.2104 lb/hr
    assert e_x.inputs == {"W_x": w.value} and e_x.value == pytest.approx(0.2104, rel=1e-3)
