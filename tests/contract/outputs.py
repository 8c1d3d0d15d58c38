"""Every output of an ``esd compute`` result, read as the contract names it, for the tests that
compare figures across runs (the impact property, the departures property)."""

from __future__ import annotations

from assessments.esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES


def outputs(result: dict) -> dict[tuple[str, str | None, int, str], tuple[str, float]]:
    """Every output of a result, written out here as the contract names them: (id, route, the
    estimate's place, quantity) -> (the estimate's label, value)."""
    found = {}
    for kind, subjects, name, quantities in (("release", result["releases"], "number", RELEASE_QUANTITIES),
                                             ("exposure", result["exposures"], "letter", EXPOSURE_QUANTITIES)):
        for subject in subjects:
            route = subject.get("route") if kind == "exposure" else None
            for index, estimate in enumerate(subject["estimates"]):
                for quantity, field, _ in quantities:
                    if estimate.get(field) is not None:
                        found[(f"{kind}-{subject[name]}", route, index, quantity)] = (estimate["label"], estimate[field])
    return found
