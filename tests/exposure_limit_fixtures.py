"""What the exposure-limit tests share (tests/test_exposure_limits.py and
tests/test_exposure_limit_kinds.py): a stored result of an engine that reports
concentrations, a limit of 5 mg/m³ as an 8-hour TWA, and the check of one estimate
against a limit (``assessments.exposure_limits.check_estimate``)."""

from __future__ import annotations

from assessments.exposure_limits import ExposureLimit, LimitCheck, check_estimate

#: A result stored since the engine reported concentrations: it carries its ``dose_basis``
#: (``exposure_limits`` reads that, not the figures; one without it says "recompute").
REPORTS_CONCENTRATIONS = {"dose_basis": {"body_weight_kg": 80.0, "working_years": 40.0, "averaging_time_yr": 40.0,
                                         "averaging_time_cancer_yr": 70.0, "source": "s"}}
#: 5 mg/m³, an 8-hour TWA (the kind a limit has unless told otherwise).
TWA_5 = ExposureLimit(5.0, "mg/m3")


def check(estimate: dict, limit: ExposureLimit | None, mw: float | None = None, result: dict = REPORTS_CONCENTRATIONS,
          route: str = "inhalation") -> LimitCheck | None:
    """``estimate`` of ``route`` against ``limit``, with the case's molecular weight ``mw`` [g/mol]."""
    return check_estimate(estimate, route=route, limit=limit, molecular_weight=mw, result=result)
