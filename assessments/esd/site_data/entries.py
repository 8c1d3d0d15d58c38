"""The ``site_specific`` input: parsing and validating its entries.

Every error is keyed by the entry's position, ``"site_specific[i].SYMBOL"`` for one of the
method's inputs, ``.method``, ``.inputs``, ``.replaces``, ``.source`` or ``.activity`` for
the entry itself; all errors of all entries are raised together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..parameters import EngineValidationError
from .methods import METHODS, SiteMethod

#: The input key every scenario accepts beside its own symbols.
SITE_SPECIFIC = "site_specific"
#: What a reviewer calls the entries (the wizard step's title, the warnings' and the pages' words).
SITE_DATA_NAME = "Submitter's site data"

_ENTRY_KEYS = ("method", "inputs", "replaces", "source", "activity")

NOT_A_LIST = "must be a list of site-specific entries"
NOT_AN_OBJECT = 'must be an object {"method", "inputs", "replaces", "source"}'
UNKNOWN_KEY = "unknown key (allowed: " + ", ".join(_ENTRY_KEYS) + ")"
#: The methods by their titles, as the choices of an input are named (``Param.choice_error``).
_TITLES = [f"“{m.title}”" for m in METHODS.values()]
UNKNOWN_METHOD = "must be one of the EIIP methods: " + ", ".join(_TITLES[:-1]) + " or " + _TITLES[-1]
SOURCE_REQUIRED = "is required: where the facility data come from"
ACTIVITY_NOT_TEXT = "must be text"
BAD_REPLACES = "must be a release number (a whole number, at least 1) or null"
INPUTS_NOT_AN_OBJECT = "must be an object {SYMBOL: value}"
DAYS_REQUIRED = "is required when the entry replaces no release"
ALREADY_REPLACED = "release {number} is already replaced by site-data entry {entry}"
# The scenario-level message of parameters.validate, and what an entry says instead.
_UNKNOWN_SYMBOL = "unknown input symbol for this scenario"
UNKNOWN_SYMBOL = "is not an input of the method “{method}”"


@dataclass(frozen=True)
class SiteEntry:
    """One validated ``site_specific`` entry with its effective inputs."""

    index: int
    method: SiteMethod
    inputs: dict[str, Any]
    replaces: int | None
    source: str
    activity: str | None = None

    @property
    def prefix(self) -> str:
        """The key of the entry's errors (``site_specific[0]``): the command line's and the forms' key."""
        return f"{SITE_SPECIFIC}[{self.index}]"

    @property
    def name(self) -> str:
        """The entry as a reviewer reads it: ``Submitter's site data, entry 1: Material balance
        (pollutant content)``, numbered from one as the wizard lists the entries."""
        return f"{SITE_DATA_NAME}, entry {self.index + 1}: {self.method.title}"

    def as_dict(self) -> dict[str, Any]:
        """The entry as the result's ``inputs["site_specific"]`` records it."""
        return {"method": self.method.key, "inputs": dict(self.inputs), "replaces": self.replaces,
                "source": self.source, "activity": self.activity}


def parse_entries(raw: Any) -> list[SiteEntry]:
    """Validate the ``site_specific`` list; raise one error per bad field, keyed by position.

    >>> parse_entries([{"method": "emission_factor", "source": "test",
    ...                 "inputs": {"pollutant_class": "inorganic", "EF_x": -1, "AF": 30,
    ...                            "OH": 1760, "days_per_year": 220}}])
    Traceback (most recent call last):
    ...
    assessments.esd.parameters.EngineValidationError: site_specific[0].EF_x: must be at least 0 lb/unit
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise EngineValidationError({SITE_SPECIFIC: NOT_A_LIST})
    errors: dict[str, str] = {}
    entries: list[SiteEntry] = []
    for i, item in enumerate(raw):
        entry = _parse_entry(i, item, errors)
        if entry is not None:
            entries.append(entry)
    taken: dict[int, int] = {}
    for e in entries:
        if e.replaces is not None:
            if e.replaces in taken:
                errors[f"{e.prefix}.replaces"] = ALREADY_REPLACED.format(
                    number=e.replaces, entry=taken[e.replaces] + 1)
            taken[e.replaces] = e.index
    if errors:
        raise EngineValidationError(errors)
    return entries


def _parse_entry(i: int, item: Any, errors: dict[str, str]) -> SiteEntry | None:
    """Entry ``i`` validated, or None with its errors added to ``errors``."""
    prefix = f"{SITE_SPECIFIC}[{i}]"
    if not isinstance(item, Mapping):
        errors[prefix] = NOT_AN_OBJECT
        return None
    bad = False
    for key in item:
        if key not in _ENTRY_KEYS:
            errors[f"{prefix}.{key}"] = UNKNOWN_KEY
            bad = True
    name = item.get("method")
    method = METHODS.get(name) if isinstance(name, str) else None
    if method is None:
        errors[f"{prefix}.method"] = UNKNOWN_METHOD
        bad = True
    source = item.get("source")
    source = source.strip() if isinstance(source, str) else ""
    if not source:
        errors[f"{prefix}.source"] = SOURCE_REQUIRED
        bad = True
    activity = item.get("activity")
    if activity is not None and not isinstance(activity, str):
        errors[f"{prefix}.activity"] = ACTIVITY_NOT_TEXT
        bad = True
    replaces = item.get("replaces")
    if replaces is not None and (isinstance(replaces, bool) or not isinstance(replaces, int)
                                 or replaces < 1):
        errors[f"{prefix}.replaces"] = BAD_REPLACES
        bad = True
    inputs = item.get("inputs", {})
    if not isinstance(inputs, Mapping):
        errors[f"{prefix}.inputs"] = INPUTS_NOT_AN_OBJECT
        return None
    if method is None:
        return None
    try:
        effective = method.params.validate(inputs)
    except EngineValidationError as exc:
        for symbol, message in exc.errors.items():
            if message == _UNKNOWN_SYMBOL:
                message = UNKNOWN_SYMBOL.format(method=method.title)
            errors[f"{prefix}.{symbol}"] = message
        return None
    if replaces is None and effective["days_per_year"] is None:
        errors[f"{prefix}.days_per_year"] = DAYS_REQUIRED
        bad = True
    if bad:
        return None
    return SiteEntry(i, method, effective, replaces, source, activity)
