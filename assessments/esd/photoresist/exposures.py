"""Workers and dermal exposures (ESD 2010 Section 5; ESD 2004 §3.3).

Exposures A to E (ESD 2010 Table 5-1), each low and high end (Qliquid_skin 0.7 and 2.1),
with their days a year capped at max_exposure_days (250). Inhalation is not assessed for
the nonvolatile chemicals these documents cover; :mod:`.volatile` adds it when the
chemical is volatile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..calc import Calc
from ..models import dermal
from ..results import Exposure, ExposureEstimate
from ..text import count, given, num
from . import equations as eq
from .constants import ESD_2004, ESD_2010
from .facility import Facility

LOW, HIGH = "low end", "high end"


@dataclass(frozen=True)
class Workers:
    operators: int
    technicians: int

    @property
    def total(self) -> int:
        """Distinct workers exposed per site-day: B to E share one technician pool (§5.2.2)."""
        return self.operators + self.technicians


@dataclass(frozen=True)
class Activity:
    letter: str
    name: str
    eqn: str
    section: str
    two_hands: bool
    operators: bool
    waste_solvent: bool = False


ACTIVITIES = (
    Activity("A", "Change-out of liquid photoresist containers", "5-3", "§5.3", False, True),
    Activity("B", "Cleaning/handling of empty photoresist containers", "5-4", "§5.4", True, False),
    Activity("C", "Routine equipment cleaning/maintenance", "5-5", "§5.5", True, False),
    Activity("D", "Change-out of excess (spun-off) photoresist collection containers", "5-6", "§5.6", True, False),
    Activity("E", "Change-out of waste solvent (developer, etching, stripping) collection containers",
             "5-7", "§5.7", True, False, waste_solvent=True),
)


def workers(calc: Calc, inputs: Mapping[str, Any]) -> Workers:
    """Eqn 5-1 and 5-2."""
    operators = calc(eq.operators_per_site, Noperators_line_shift=inputs["Noperators_line_shift"],
                     Nlines_site=inputs["Nlines_site"], Nshifts_day=inputs["Nshifts_day"])
    techs = calc(eq.technicians_per_site, Ntechs_shift=inputs["Ntechs_shift"], Nshifts_day=inputs["Nshifts_day"])
    return Workers(operators, techs)


def _activity_days(a: Activity, fac: Facility, cleaning_days: float) -> tuple[float, str]:
    """Days a year of an activity, before the per-worker cap, as ESD 2010 §5.3 to 5.7 print them.

    A and B: "the lesser of Ncont_site_yr ... or TIMEapply_days, up to 250" (§5.3 Eqn 5-3,
    §5.4 Eqn 5-4), as printed: the containers a year, not the days on which containers
    are emptied (Release 1's days, Eqn 4-1a). At the ESD's default of one container a day
    the two agree; with Ncont_site_day > 1 the printed rule counts more days, which is
    the conservative side and the document's own. C: the cleanings a year (§5.5). D and
    E: TIMEapply_days (§5.6, §5.7).
    """
    applying = f"the application days ({num(fac.TIMEapply_days)})"
    if a.letter in "AB":
        n_cont = fac.containers().Ncont_site_yr
        return (min(n_cont, fac.TIMEapply_days),
                f"Ncont_site_yr ({count(n_cont, 'container', shown=num)} a year), {applying}")
    if a.letter == "C":
        return cleaning_days, f"the cleanings a year ({num(cleaning_days)})"
    return fac.TIMEapply_days, applying


def _dermal_estimates(calc: Calc, a: Activity, inputs: Mapping[str, Any], area: float, hand_set: str,
                      tail: str, eqn_label: str) -> list[ExposureEstimate]:
    citation = f"{eqn_label}, {a.section}"
    model = dermal.TWO_HAND_CONTACT_MODEL if a.two_hands else dermal.ONE_HAND_CONTACT_MODEL
    out = []
    for label, symbol in ((LOW, "Qliquid_skin_low"), (HIGH, "Qliquid_skin_high")):
        q = inputs[symbol]
        args = {"Qliquid_skin": q, "AREAsurface": area, "Nexp_incident": inputs["Nexp_incident"], "Fchem": inputs["Fchem"]}
        if a.waste_solvent:
            mg = calc(eq.waste_solvent_dermal_exposure, **args, Fphoto_waste=inputs["Fphoto_waste"],
                      note=f"Exposure {a.letter}, {label}", citation=citation)
            extra = f" × Fphoto_waste {given(inputs['Fphoto_waste'])}"
        else:
            mg = calc(eq.dermal_exposure, **args, note=f"Exposure {a.letter}, {label}", citation=citation)
            extra = ""
        basis = (f"{model}: Qliquid_skin {given(q)} mg/cm²-incident ({label}; CEB, 2000) × AREAsurface "
                 f"{given(area)} cm² ({'two hands' if a.two_hands else 'one hand'}; {hand_set}) × Nexp_incident "
                 f"{inputs['Nexp_incident']}/day × Fchem {given(inputs['Fchem'])}{extra} = {num(mg)} mg/day "
                 f"({eqn_label}); {tail}")
        out.append(ExposureEstimate(label, mg, basis))
    return out


def revised_exposures(calc: Calc, inputs: Mapping[str, Any], fac: Facility, staff: Workers,
                      cleaning_days: float, hand_set: str) -> list[Exposure]:
    """Exposures A to E of ESD 2010 Section 5 (Eqns 5-3 to 5-7)."""
    exposures = []
    for a in ACTIVITIES:
        activity_days, why = _activity_days(a, fac, cleaning_days)
        days = calc(eq.exposure_days, activity_days=activity_days, max_exposure_days=inputs["max_exposure_days"],
                    note=f"Exposure {a.letter}", citation=f"{ESD_2010} {a.section} (Eqn {a.eqn}: 'up to 250' days/yr)")
        workers, (role, why_workers) = ((staff.operators, ("operator", "per site (Eqn 5-1)")) if a.operators
                                        else (staff.technicians,
                                              ("technician", "per site (Eqn 5-2; the same pool for B to E)")))
        area = inputs["AREAsurface_2hand" if a.two_hands else "AREAsurface_1hand"]
        tail = (f"up to {count(workers, role)} {why_workers}, {count(days, 'day', shown=num)}/yr: the lesser of "
                f"{why} and {count(inputs['max_exposure_days'], 'day', shown=given)} per worker ({ESD_2010} "
                f"{a.section}); no gloves assumed "
                f"(Appendix B.6).")
        estimates = _dermal_estimates(calc, a, inputs, area, hand_set, tail, f"{ESD_2010} Eqn {a.eqn}")
        model = dermal.TWO_HAND_CONTACT_MODEL if a.two_hands else dermal.ONE_HAND_CONTACT_MODEL
        exposures.append(Exposure(a.letter, a.name, "dermal", model, f"{ESD_2010} Eqn {a.eqn}", workers, days,
                                  estimates))
    return exposures


ACTIVITY_2004 = Activity(
    "A", "Transferring photoresist to the application apparatus (changing bottles) and limited manual "
         "wafer transfers", "3-9", "§3.3.3, p. 17", False, True)


def exposures_2004(calc: Calc, inputs: Mapping[str, Any], fac: Facility, hand_set: str) -> list[Exposure]:
    """ESD 2004 Eqn 3-9: one one-hand activity for 20 to 25 workers per site.

    The edition letters no activities; its bottle change-out is lettered A, as the 2010
    revision letters the same activity. ``workers_per_site`` is the high end (25).
    """
    a = ACTIVITY_2004
    days = calc(eq.exposure_days, activity_days=fac.TIMEapply_days, max_exposure_days=inputs["max_exposure_days"],
                note="ESD 2004 ¶63: up to 250 days/yr, or TIMEapply_days if less")
    workers_high = inputs["Nworkers_high"]
    tail = (f"{inputs['Nworkers_low']} to {count(workers_high, 'worker')} per site (¶60), "
            f"{count(days, 'day', shown=num)}/yr (the lesser of "
            f"{count(fac.TIMEapply_days, 'application day', shown=num)} and {inputs['max_exposure_days']}, ¶63); "
            "no dermal "
            f"protection assumed (¶62).")
    estimates = _dermal_estimates(calc, a, inputs, inputs["AREAsurface_1hand"], hand_set, tail, f"{ESD_2004} Eqn 3-9")
    return [Exposure(a.letter, a.name, "dermal", dermal.ONE_HAND_CONTACT_MODEL, f"{ESD_2004} Eqn 3-9",
                     workers_high, days, estimates)]
