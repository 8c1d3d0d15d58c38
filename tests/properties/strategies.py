"""Hypothesis strategies shared by the property tests: what a careless or hostile caller
may hand the engine, the ``esd`` command and the forms.

Three families of values:

- *number-like text*: what a reviewer types or a file holds, including the spellings
  Python's ``float()`` accepts but a finite number must refuse (``nan``, ``inf``,
  ``1e400``), thousands separators, blanks and padding;
- *JSON values*: anything ``json.loads`` can return (``NaN``/``Infinity`` literals too),
  nested lists and objects, integers far beyond a double's range;
- *in-range values* of one declared :class:`~assessments.esd.parameters.Param`, from its
  own bounds, with the extremes a bound allows (subnormal fractions, 1e308 where there
  is no upper bound), so that a computation runs and its numbers can be checked.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import strategies as st

from assessments.esd.parameters import CHOICE, INT, PERCENT, Param
from assessments.esd.site_data import METHODS, SITE_SPECIFIC

#: Text shaped like a number: what a form or a file carries (the brief's regex).
number_text = st.from_regex(r"-?[0-9]{1,6}(\.[0-9]{1,6})?(e-?[0-9]{1,3})?", fullmatch=True)

#: Spellings that ``float()`` accepts or nearly accepts, and the edges of a double.
special_text = st.sampled_from([
    "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400",
    "1e308", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "0", "-0", "0.0",
    "1,000", "1,000,000.5", "1_000", " 5 ", "\t0.5\n", "", " ", "0x10", "1e", "e5", ".", "-",
    "+1", "1/2", "½", "١٢٣", "٠.٥", "1 000", "∞", "true", "null", "None", "[]", "{}",
    "9" * 400, "0." + "0" * 400 + "1",
])

#: Numbers a Python caller or ``json.loads`` may produce (NaN and ±inf included).
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.sampled_from([0, -0.0, 1, -1, 5e-324, 1e-320, 1e308, 1.7976931348623157e308, 10**19, 10**400]),
)

#: Values Python callers may pass that JSON cannot carry.
python_numbers = st.one_of(st.from_type(Decimal), st.from_type(Fraction), st.from_type(complex))

text_values = st.one_of(number_text, special_text, st.text(max_size=40))

json_scalars = st.one_of(st.none(), st.booleans(), numbers, text_values)

#: Any value ``json.loads`` can return, nested a little.
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=8), children, max_size=4),
    ),
    max_leaves=10,
)


def is_json_safe(value) -> bool:
    """True when ``json.dumps(value, allow_nan=False)`` can write it (no NaN or ±inf)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(is_json_safe(v) for v in value)
    if isinstance(value, dict):
        return all(is_json_safe(v) for v in value.values())
    return True


# --- values of one declared parameter -----------------------------------------------------


def in_range(param: Param) -> st.SearchStrategy:
    """Values the declaration accepts, as numbers or as the text a reviewer types."""
    if param.kind == CHOICE:
        return st.sampled_from([value for value, _ in param.choices])
    lower = param.lower if param.lower is not None else -1e9
    if param.kind == INT:
        low = math.floor(lower) + (1 if param.lower_open and lower == int(lower) else 0)
        high = int(param.upper) - (1 if param.upper_open else 0) if param.upper is not None else None
        small = st.integers(min_value=low, max_value=high if high is not None else low + 10_000)
        large = st.integers(min_value=low, max_value=high if high is not None else 10**15)
        values = st.one_of(small, small, large)
        return st.one_of(values, values.map(str))
    upper = param.upper
    near = st.floats(
        min_value=lower, max_value=upper if upper is not None else max(lower, 0) + 1e6,
        exclude_min=param.lower_open, exclude_max=param.upper_open and upper is not None,
        allow_nan=False, allow_infinity=False,
    )
    wide = st.floats(
        min_value=lower, max_value=upper if upper is not None else 1.7976931348623157e308,
        exclude_min=param.lower_open, exclude_max=param.upper_open and upper is not None,
        allow_nan=False, allow_infinity=False,
    )
    values = st.one_of(near, near, near, wide)
    if param.share == PERCENT:  # up to 1 %, a percentage is given with its sign ("0.9%"), else asked about
        return st.one_of(values, values, values.map(repr)).map(lambda v: param.as_input(float(v)))
    return st.one_of(values, values, values.map(repr))


def out_of_range(param: Param) -> st.SearchStrategy:
    """Values a caller might send that the declaration should refuse (or just accept)."""
    edges = [v for v in (param.lower, param.upper) if v is not None]
    around = [v * f for v in edges for f in (-1, 1 + 1e-12, 1 - 1e-12, 10)] + edges
    return st.one_of(st.sampled_from(around or [0.0]), numbers, text_values, st.booleans(), st.none())


def param_value(param: Param) -> st.SearchStrategy:
    """Mostly in range (so computations run), sometimes anything."""
    good = in_range(param)
    return st.one_of(good, good, good, good, good, out_of_range(param))


# --- site-specific entries (EIIP methods, available to every scenario) ---------------------


def valid_site_entry() -> st.SearchStrategy:
    """A well-formed ``site_specific`` entry: a method with in-range inputs that replaces
    release 1 or is added beside the document's releases."""

    def entry(method_key: str) -> st.SearchStrategy:
        params = METHODS[method_key].params.params
        required = {p.symbol: in_range(p) for p in params if p.required}
        required["days_per_year"] = in_range(METHODS[method_key].params["days_per_year"])
        inputs = st.fixed_dictionaries(
            required, optional={p.symbol: in_range(p) for p in params if not p.required and p.symbol not in required},
        )
        return st.fixed_dictionaries({
            "method": st.just(method_key), "inputs": inputs, "source": st.just("Stack test, 2023"),
            "replaces": st.sampled_from([None, 1]),
        })

    return st.sampled_from(sorted(METHODS)).flatmap(entry)


def site_entry() -> st.SearchStrategy:
    """A ``site_specific`` entry: well formed, or a dictionary of anything, or not one."""
    malformed = st.dictionaries(
        st.one_of(st.sampled_from(["method", "inputs", "replaces", "source", "activity"]), st.text(max_size=6)),
        json_values, max_size=5,
    )
    return st.one_of(valid_site_entry(), malformed, json_scalars)


site_specific_value = st.one_of(st.lists(site_entry(), max_size=3), json_values)


def scenario_inputs(scenario, *, wild: bool) -> st.SearchStrategy:
    """Inputs for one scenario: declared symbols with plausible values (``wild=False``,
    in range), or any keys with any JSON values (``wild=True``)."""
    params = scenario.params.params
    if not wild:
        optional = {p.symbol: in_range(p) for p in params if not p.required}
        optional[SITE_SPECIFIC] = st.lists(valid_site_entry(), max_size=1)
        return st.fixed_dictionaries({p.symbol: in_range(p) for p in params if p.required}, optional=optional)
    keys = st.one_of(st.sampled_from([p.symbol for p in params] + [SITE_SPECIFIC]), st.text(max_size=12))
    mixed = st.fixed_dictionaries(
        {}, optional={p.symbol: param_value(p) for p in params} | {SITE_SPECIFIC: site_specific_value},
    )
    anything = st.dictionaries(keys, st.one_of(json_values, python_numbers), max_size=8)
    return st.one_of(mixed, mixed, anything, json_values)
