"""Release 1 (ESD 2015 §4.3): the unreacted precursor sent to point-of-use abatement
(Eqn 4-1) and what passes it (Eqn 4-2), over the utilisation range.

The efficiency is the ESD's 0.99, a Table 4-2 entry, or any value entered; EF = 0 is the
what-if "no abatement" case. What deposition consumes (¶59) and what abatement captures
(¶61) are the precursor the process consumes or destroys (the mass balance's
``consumed_kg_yr``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..calc import Calc
from ..options import OpenMedium
from ..parameters import when
from ..results import Medium, Release, release_estimate
from ..text import figure, given
from . import equations as eq
from .constants import DOC, EF_POU
from .params import PARAM_SET
from .table_4_2 import TABLE_4_2

#: Release1_media choice -> the media named, and the words of the process description.
RELEASE_1_MEDIA: dict[str, tuple[tuple[str, ...], str]] = {
    "air_or_water": (("air", "water"), "air or water"),
    "air": (("air",), "air"),
    "water": (("water",), "water"),
    "table_a_2": (("air", "water", "incineration"), "air, wastewater treatment or incineration"),
}

#: Release 1 when its media are left open (Release1_media "air_or_water" or "table_a_2"),
#: and the supplier's container residue (Release 2, App. C): the medium the totals count.
OPEN_MEDIA = (
    OpenMedium(1, RELEASE_1_MEDIA["table_a_2"][0], "air",
               f"{DOC} §4.3 ¶62 and §6.2.1: air or water (Table A-2 adds incineration); the ESD prefers none: "
               "its first, air, is the default", "release",
               applies="It applies when the media of Release 1 are left open (air or water, or Table A-2).",
               applies_when=when(Release1_media=("air_or_water", "table_a_2"))),
    OpenMedium(2, ("water", "incineration", "landfill"), "water",
               f"{DOC} Appendix C: wastewater treatment (POTW), incineration or landfill; the appendix prefers "
               "none: its first, water, is the default", "supplier",
               applies="It applies when the supplier site is assessed.",
               applies_when=when(supplier_site="yes")),
)

_POSITION = {
    "low end": "Low end of the range (the highest utilisation). ",
    "high end": "High end of the range (the lowest utilisation). ",
    "output": "One utilisation (chemical-specific, ¶60). ",
}


@dataclass(frozen=True)
class FabRelease:
    """Release 1 and what the fab consumes or destroys in the same estimate as the totals
    (the lowest utilisation, the highest release) [kg/site-day]."""

    release: Release
    consumed_kg_site_day: float


def release_1_media(choice: str) -> list[Medium]:
    """The media of Release 1: one medium takes all of it; several leave it open (decision 5).

    >>> [(m.medium, m.fraction) for m in release_1_media("air")]
    [('air', 1.0)]
    >>> [(m.medium, m.fraction) for m in release_1_media("air_or_water")]
    [('air', None), ('water', None)]
    """
    names, _ = RELEASE_1_MEDIA[choice]
    if len(names) == 1:
        return [Medium(names[0], 1.0)]
    return [Medium(n) for n in names]


def _efficiency(calc: Calc, v: Mapping[str, Any]) -> tuple[float, str]:
    if v["EF_table_4_2"] is not None:
        row = TABLE_4_2[v["EF_table_4_2"]]
        ef, ef_basis = row.efficiency, f"Table 4-2 ({row.label})"
    else:
        ef = v["EF"]
        ef_basis = "ESD default (SEMATECH 1997)" if ef == EF_POU else "entered"
    calc.given("EF", ef, "kg/kg", "POU abatement efficiency", f"{DOC} §4.3 ¶61, Table 4-2", note=ef_basis,
               label=PARAM_SET["EF"].label)
    return ef, ef_basis


def release_1(calc: Calc, v: Mapping[str, Any], facility: dict[str, Any], warnings: list[str]) -> FabRelease:
    """Eqn 4-1 and 4-2 at each end of the utilisation range (one estimate when they meet)."""
    q_day, n_sites, days = facility["Qchem_site_day"], facility["Nsites"], v["TIME_operating_days"]
    ef, ef_basis = _efficiency(calc, v)
    no_abatement = ef == 0 and v["EF_table_4_2"] is None
    if ef == 0 and not no_abatement:
        warnings.append(
            f"The chosen Table 4-2 abatement removes none of this compound ({ef_basis}): "
            "Release 1 equals the unreacted precursor sent to POU control"
        )
    if no_abatement:
        warnings.append(
            "Release 1 is assessed without POU abatement (EF = 0), a what-if: the ESD assumes "
            "interlocked POU abatement is always present (ESD 2015 §4.1 ¶55, §4.3 ¶61)"
        )
    cases = [("low end", v["U_process_high"]), ("high end", v["U_process_low"])]
    if v["U_process_low"] == v["U_process_high"]:
        cases = [("output", v["U_process_low"])]
    estimates = []
    consumed = 0.0
    for label, u in cases:
        tag = label.replace(" ", "_")
        control = calc(eq.release_to_pou_control, symbol=f"Elocal_control_{tag}", Qchem_site_day=q_day, U_process=u)
        reacted = calc(eq.precursor_consumed, symbol=f"Qconsumed_{tag}", Qchem_site_day=q_day, U_process=u)
        released = calc(eq.release_after_pou_control, symbol=f"Elocal_process_disp_{tag}",
                        Elocal_control=control, EF=ef)
        facility[f"Elocal_control_{tag}"] = control
        facility[f"Qconsumed_{tag}"] = reacted
        if u == v["U_process_low"]:  # the lowest utilisation: the totals' estimate
            consumed = reacted + eq.destroyed_in_abatement(control, ef)
        basis = _POSITION[label] + (
            f"Daily use {figure(q_day)} kg/site-day × (1 − {given(u)} utilisation) = "
            f"{figure(control)} kg/site-day to POU abatement (Eqn 4-1), × (1 − {given(ef)}) efficiency, "
            f"{ef_basis} (Eqn 4-2): the ESD's what-if release from central house abatement "
            "(¶61)."
        )
        if no_abatement:
            label = "what-if"
            basis += " Assessed without abatement (EF = 0)."
        estimates.append(release_estimate(label, released, days, n_sites, basis))
    facility.update(EF=ef, EF_basis=ef_basis)
    release = Release(
        number=1,
        source="Deposition process: unreacted precursor passed through abatement",
        irer_source="CVD Process Exhaust (unreacted precursor after point-of-use abatement)",
        model="Loss rate based on industry-specific data (utilisation and POU efficiency)",
        equation=f"{DOC} Eqn 4-1, 4-2",
        media=release_1_media(v["Release1_media"]),
        estimates=estimates,
    )
    return FabRelease(release, consumed)
