"""Whether a stored result is what the engine computes: one rule for submitting, approving
and importing a case.

A stored result is the engine's when ``registry.compute(key, computed_inputs)`` gives it
again today: every part (facility, releases, exposures, totals, mass balance, trace ...;
the engine version label aside), text and flags identical, numbers within a relative
:data:`RESULT_REL_TOL` (the noise of a JSON round trip), mappings in any key order, a
part missing or added on either side a difference.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .esd import registry
from .esd.parameters import EngineValidationError

RESULT_REL_TOL = 1e-9
# Which engine release computed a result is a label, not part of what it computed.
NOT_COMPARED = ("engine_version",)
RESULT_DIFFERS = (
    "{where}: the stored result is not what the engine computes from computed_inputs "
    "(stored {stored}, computed {computed})"
)
NOT_COMPUTABLE = "{where}: the engine cannot compute these inputs now ({errors})"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def engine_result_difference(*, scenario_key: str, computed_inputs: Any, stored: Any, where: str = "result") -> str:
    """Where the stored result first differs from a recompute of ``computed_inputs`` by the
    engine (``""`` when it is the engine's), as a message naming the place."""
    try:
        fresh = registry.compute(scenario_key, computed_inputs if isinstance(computed_inputs, dict) else {})
    except EngineValidationError as exc:
        return NOT_COMPUTABLE.format(where=where, errors="; ".join(exc.errors.values()))
    computed = json.loads(json.dumps(fresh.as_dict()))  # as the JSON field stores it (tuples as lists)
    if isinstance(stored, dict):
        stored = {k: v for k, v in stored.items() if k not in NOT_COMPARED}
    return result_difference(stored, {k: v for k, v in computed.items() if k not in NOT_COMPARED}, where)


def result_difference(stored: Any, computed: Any, where: str) -> str:
    """The first place where ``stored`` is not ``computed`` (``""``: none). Text, true/false
    and null must be identical, numbers equal within :data:`RESULT_REL_TOL`, objects have
    the same keys and lists the same length.

    >>> result_difference({"a": [1.0, "x"]}, {"a": [1.0 + 1e-12, "x"]}, "result")
    ''
    >>> result_difference({"a": [1.0]}, {"a": [1.1]}, "result")
    'result.a[0]: the stored result is not what the engine computes from computed_inputs (stored 1.0, computed 1.1)'
    """
    stack = [(stored, computed, where)]
    while stack:
        a, b, at = stack.pop()
        if isinstance(b, dict):
            if not isinstance(a, dict):
                return RESULT_DIFFERS.format(where=at, stored=show(a), computed="an object")
            for key in list(b) + [k for k in a if k not in b]:
                if key not in a or key not in b:
                    present = "missing" if key not in a else "present"
                    return RESULT_DIFFERS.format(
                        where=join_path(at, key), stored=present, computed="present" if key in b else "missing"
                    )
            stack.extend(reversed([(a[key], b[key], join_path(at, key)) for key in b]))
        elif isinstance(b, list):
            if not isinstance(a, list) or len(a) != len(b):
                shown = f"{len(a)} items" if isinstance(a, list) else show(a)
                return RESULT_DIFFERS.format(where=at, stored=shown, computed=f"{len(b)} items")
            stack.extend(reversed([(x, y, f"{at}[{i}]") for i, (x, y) in enumerate(zip(a, b))]))
        elif isinstance(b, (int, float)) and not isinstance(b, bool):
            same = (
                isinstance(a, (int, float))
                and not isinstance(a, bool)
                and (a == b or math.isclose(a, b, rel_tol=RESULT_REL_TOL, abs_tol=0.0))
            )
            if not same:
                return RESULT_DIFFERS.format(where=at, stored=show(a), computed=show(b))
        elif type(a) is not type(b) or a != b:
            return RESULT_DIFFERS.format(where=at, stored=show(a), computed=show(b))
    return ""


def join_path(where: str, key: str) -> str:
    """``where.key``, or ``where["odd key"]`` for a key that is not a plain name."""
    if _NAME.fullmatch(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{short(json.dumps(key, ensure_ascii=False))}]"


def short(text: str, limit: int = 60) -> str:
    """``text``, cut with an ellipsis beyond ``limit`` characters (for messages)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: Any) -> str:
    """A JSON value as a message shows it, shortened."""
    return short(json.dumps(value, ensure_ascii=False, default=str))
