"""Which claimed case fields each part of a use's stored result derives from.

A claim reaches a use through the engine inputs that carry its case field
(``Param.from_case``: the production volume, the concentration and the molecular weight
each have an input of every scenario that uses them), and through any input whose stored
reason records that it took the case field's value (``case_links.recorded_case_field``). The engine says which parts of the result
move with each of those inputs (:func:`assessments.esd.provenance.dependence`); this module
asks it about the inputs that carry a *claimed* field and answers in case fields, for the
report's builder (:mod:`.context`).

A result the engine no longer reproduces from its inputs (computed by an earlier engine),
or a use of a method the engine no longer offers, is taken to derive wholly from every
claimed field that could reach it: the sanitised copy withholds rather than guesses.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.db import models

from ..case_links import recorded_case_field
from ..esd import registry
from ..esd.parameters import EngineValidationError
from ..esd.provenance import NONE, Provenance, dependence
from ..models import Submission

#: Claimable case fields that are numbers, which engine inputs may carry (read from the model).
NUMERIC_CLAIMS = tuple(name for name in Submission.CBI_CLAIMABLE
                       if isinstance(Submission._meta.get_field(name), models.FloatField))


@lru_cache(maxsize=512)
def _provenance(key: str, inputs_json: str, symbols: tuple[str, ...], stored_json: str) -> Provenance:
    spec = registry.get(key)
    return dependence(spec.compute, spec.params.params, json.loads(inputs_json), symbols,
                      stored=json.loads(stored_json))


class UseDerivation:
    """The claimed case fields each part of one use's stored result derives from.

    ``claimed``: the case's claimed fields (only these are asked about: a field that is not
    claimed hides nothing, whatever derives from it).
    """

    def __init__(self, scenario: Any, claimed: frozenset[str]):
        self.result: dict[str, Any] = scenario.result or {}
        self.carried: dict[str, str] = {}
        self.provenance: Provenance = NONE
        self.everything: frozenset[str] = frozenset()
        reaching = claimed & frozenset(NUMERIC_CLAIMS)
        if not self.result or not reaching:
            return
        try:
            params = registry.get(scenario.scenario_key).params.params
        except EngineValidationError:  # a method this engine does not offer: anything may derive
            self.everything = reaching
            return
        # What the declarations carry, and what the stored reasons record was taken from the
        # case (an input that has since stopped declaring it, case_links.recorded_case_field).
        reasons = scenario.reasons if isinstance(scenario.reasons, dict) else {}
        self.carried = {p.symbol: p.from_case for p in params if p.from_case in reaching}
        for p in params:
            recorded = recorded_case_field(reasons.get(p.symbol), reaching)
            if recorded and p.symbol not in self.carried:
                self.carried[p.symbol] = recorded
        if not self.carried:
            return
        inputs = scenario.computed_inputs
        if inputs is None:
            self.everything = frozenset(self.carried.values())
            return
        try:
            self.provenance = _provenance(
                scenario.scenario_key, json.dumps(inputs, sort_keys=True), tuple(sorted(self.carried)),
                json.dumps(self.result, sort_keys=True),
            )
        except (EngineValidationError, ArithmeticError, ValueError, TypeError):
            self.everything = frozenset(self.carried.values())

    def _fields(self, symbols: frozenset[str]) -> frozenset[str]:
        return self.everything | frozenset(self.carried[s] for s in symbols if s in self.carried)

    def of(self, *paths: str) -> frozenset[str]:
        """The claimed fields the parts at ``paths`` derive from (each with the lists it is in)."""
        found: frozenset[str] = self.everything
        for path in paths:
            found |= self._fields(self.provenance.of(path))
        return found

    def under(self, *paths: str) -> frozenset[str]:
        """The claimed fields any part at or below ``paths`` derives from."""
        found: frozenset[str] = self.everything
        for path in paths:
            found |= self._fields(self.provenance.under(path))
        return found

    def input(self, symbol: str) -> frozenset[str]:
        """The claimed field an input carries, if any (its value is the case's, or was)."""
        field = self.carried.get(symbol)
        return self.everything | (frozenset({field}) if field else frozenset())
