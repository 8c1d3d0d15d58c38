"""The five releases, numbered as the documents number them, with media and labels.

ESD 2010 Section 4 (Eqns 4-1a to 4-5); the EPA 2018 update's Section 4 changes the media
(Table 1-1) and splits Release 5 by stripping process (§4.7); ESD 2004 §3.2 (Eqns 3-4 to
3-8). Releases 1 and 2 use standard EPA models, labelled as those models label their
loss fractions (Table B-3 and B-5); Releases 3 to 5 are user-defined loss rates, which
ChemSTEER's IRER prints as "Output 2" (EPA 2018 update, Section 7).

Reading: the EPA 2018 update's Table 1-1 writes the loss fractions against the amount
received ("(1 – 0.006 – 0.01) x (1 – 0.07) = 0.915"); its Eqns 4-3 to 4-5, its worked
example and its IRER ("(1-0.01)x(1-0.07) = 0.9207") apply them to Qchem_day, the amount
dispensed. The code follows the equations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..calc import Calc
from ..irer import standard_sentence
from ..models import residue
from ..options import Alternative, OpenMedium
from ..parameters import when
from ..results import Medium, Release, ReleaseEstimate, release_estimate
from ..text import count, figure, given, num
from . import equations as eq
from . import equations_2004 as eq04
from .constants import (
    EPA_2018,
    ESD_2004,
    ESD_2010,
    FPHOTO_WAFER_DEFAULT,
    FPHOTO_WAFER_LOW_2004,
    VCONT_2004_L,
)
from .facility import Facility
from .params import AQUEOUS, CONTAINERS, ORGANIC_SOLVENT, PLASMA, PROCESS, UNKNOWN

SOURCES = {
    1: "Container residue",
    2: "Equipment cleaning and supply-line filter residues",
    3: "Excess photoresist (spin-off)",
    4: "Residual photoresist in waste developer solution",
    5: "Residual photoresist in waste etching and stripping solutions",
}
SOURCES_2004 = {
    1: "Container residue",
    2: "Residual from equipment cleaning",
    3: "Application excess (spin-off)",
    4: "Residual in developer",
    5: "Residual in etching and stripping",
}

#: The releases' sources as EPA's IRER names them ("from:"), from the EPA 2018 update's
#: sample IRER (§7), which every edition's report follows.
IRER_SOURCES = {
    1: "Cleaning Liquid Residuals from Bottles Used to Transport the Raw Material",
    2: "Equipment Cleaning Losses of Liquids from a Single, Large Vessel",
    3: "Spin-Off",
    4: "Waste Developer Solution",
    5: "Etching and Stripping Waste",
    6: "Unloading Photoresist Containers (vapour)",
    7: "Equipment Cleaning (vapour)",
}

OUTPUT = "output"
WHAT_IF = "what-if"
#: Equal loss fractions: a fraction entered as 0.006 is the model's 0.006.
_SAME = 1e-12


#: What tells a residue release as its model gives it apart, in the trace's printed names
#: (``names.printed_names``), from the same release less what evaporates from it (a volatile
#: chemical: ``volatile.py``).
BEFORE_EVAPORATION = "as the model gives it, before evaporation"

def _open(*media: str) -> list[Medium]:
    """Media left open among those listed (any one of them)."""
    return [Medium(m) for m in media]


#: Media as each document prints them: (media, prose with the citation).
MEDIA_2010: dict[int, tuple[list[Medium], str]] = {
    1: (_open("water", "incineration", "landfill"), "water, incineration or landfill (uncertain; ESD 2010 §4.2)"),
    2: (_open("incineration", "landfill"), "incineration or landfill (ESD 2010 §4.3)"),
    3: (_open("incineration"), "incineration (ESD 2010 §4.4)"),
    4: (_open("water"), "water (ESD 2010 §4.5)"),
    5: (_open("water"), "water (ESD 2010 §4.6 and Table A-2; Figure 2-2b adds 'or recycle')"),
}
MEDIA_2018: dict[int, tuple[list[Medium], str]] = {
    1: (_open("incineration"), f"incineration ({EPA_2018} Table 1-1 and §4.3: cleanout residues are "
                                "incinerated with solvent waste, or the container is)"),
    2: (_open("incineration", "landfill"), f"incineration or landfill ({EPA_2018} Table 1-1 and §4.4: the "
                                            "Consortium's 50 %/50 % split was not adopted)"),
    3: (_open("incineration"), f"incineration ({EPA_2018} Table 1-1 and §4.5; the Consortium's "
                                "'incineration/fuel blending' was not adopted)"),
    4: (_open("water"), f"water, to on-site wastewater treatment ({EPA_2018} §4.6)"),
}
STRIPPING_MEDIA_2018: dict[str, tuple[list[Medium], str]] = {
    PLASMA: ([Medium("destroyed", 1.0)], f"destroyed: plasma stripping/ashing ({EPA_2018} §4.7)"),
    AQUEOUS: ([Medium("water", 1.0)], f"100 % water: aqueous stripping ({EPA_2018} §4.7)"),
    ORGANIC_SOLVENT: ([Medium("water", 0.25), Medium("incineration", 0.75)],
                      f"25 % water, 75 % incineration: organic solvent stripping ({EPA_2018} §4.7)"),
    UNKNOWN: (_open("water", "incineration"),
              f"on-site wastewater treatment or incineration: stripping process unknown ({EPA_2018} §4.7)"),
}
MEDIA_2004: dict[int, tuple[list[Medium], str]] = {
    1: (_open("water", "landfill", "incineration"), "water, land or incineration (uncertain; ESD 2004 ¶48, p. 13)"),
    2: (_open("landfill", "incineration"), "land or incineration (ESD 2004 ¶50, p. 13)"),
    3: (_open("incineration"), "incineration (ESD 2004 ¶52, p. 14)"),
    4: (_open("water"), "water (ESD 2004 ¶54, p. 14)"),
    5: (_open("water"), "water (ESD 2004 ¶56, p. 15, and Section 4: 'waste water or recycle')"),
}


# --- The media a reviewer chooses (options.OpenMedium) -----------------------------------

_FIRST = "the document prefers none: its first is the default"
_STEPS = {1: CONTAINERS, 2: PROCESS, 3: PROCESS, 4: PROCESS, 5: PROCESS}
#: EPA 2018 update, Table 1-1: the Consortium's media, which EPA did not adopt.
CONSORTIUM = "Semiconductor Onium PAG Consortium (2017), as the EPA 2018 update's Table 1-1 reports it"
FUEL_BLENDING_2018 = Alternative(
    "fuel_blending", "Fuel blending (the Consortium's alternative)", (Medium("fuel_blending", 1.0),),
    f"{CONSORTIUM}: Release 3 to 'incineration/fuel blending'; EPA kept incineration ({EPA_2018} §4.5)")
SPLIT_50_50_2018 = Alternative(
    "incineration_landfill_50_50", "50 % incineration, 50 % landfill (the Consortium's split)",
    (Medium("incineration", 0.5), Medium("landfill", 0.5)),
    f"{CONSORTIUM}: Release 2 'to 50 % incineration, 50 % landfill'; EPA left it at incineration or landfill, "
    f"'to account for different equipment cleaning procedures' ({EPA_2018} §4.4)")


def open_media(media: Mapping[int, tuple[list[Medium], str]]) -> tuple[OpenMedium, ...]:
    """A choice for each release a document sends to one of several media (its first the default)."""
    return tuple(
        OpenMedium(number, tuple(m.medium for m in listed), listed[0].medium, f"{prose}; {_FIRST}", _STEPS[number])
        for number, (listed, prose) in media.items()
        if len(listed) > 1 and all(m.fraction is None for m in listed)
    )


def open_media_2018() -> tuple[OpenMedium, ...]:
    """The 2018 update's open media, the stripping release when the process is unknown, and
    the Consortium's media as alternatives (Releases 2 and 3)."""
    listed, prose = MEDIA_2018[2]
    release_2 = OpenMedium(2, tuple(m.medium for m in listed), listed[0].medium, f"{prose}; {_FIRST}", PROCESS,
                           alternatives=(SPLIT_50_50_2018,))
    release_3 = OpenMedium(3, ("incineration",), "incineration", MEDIA_2018[3][1], PROCESS,
                           alternatives=(FUEL_BLENDING_2018,))
    stripping, prose = STRIPPING_MEDIA_2018[UNKNOWN]
    release_5 = OpenMedium(5, tuple(m.medium for m in stripping), stripping[0].medium, f"{prose}; {_FIRST}",
                           PROCESS, applies="It applies when the stripping process is unknown.",
                           applies_when=when(stripping_process=UNKNOWN))
    return (*open_media({1: MEDIA_2018[1]}), release_2, release_3, release_5)


@dataclass(frozen=True)
class ReleaseContext:
    """Edition-specific wording: equation labels and media."""

    media: Mapping[int, tuple[list[Medium], str]]
    equation_suffix: Mapping[int, str]

    def equation(self, number: int, eqn: str) -> str:
        return f"{ESD_2010} Eqn {eqn}{self.equation_suffix.get(number, '')}"


CONTEXT_2010 = ReleaseContext(MEDIA_2010, {})
SECTIONS_2018 = {1: "§4.3", 2: "§4.4", 3: "§4.5", 4: "§4.6", 5: "§4.7"}


def context_2018(stripping_process: str) -> ReleaseContext:
    media = {**MEDIA_2018, 5: STRIPPING_MEDIA_2018[stripping_process]}
    return ReleaseContext(media, {n: f" ({EPA_2018} {s})" for n, s in SECTIONS_2018.items()})


# --- Labels of the standard models -----------------------------------------------------


def _matching(estimates: tuple[tuple[str, float], ...], fraction: float) -> str | None:
    for label, value in estimates:
        if abs(value - fraction) < _SAME:
            return label
    return None


def container_model(Vcont_L: float, Fcontainer_disp: float) -> tuple[str, str]:
    """(model, label) for the container residue: the Table B-3 model of the container's
    size, labelled as the model labels the fraction used, else ``what-if``.

    >>> container_model(3.8, 0.006)
    ('EPA/OPPT Small Container Residual Model', 'high end')
    >>> container_model(3.8, 0.003)[1], container_model(3.8, 0.01)[1], container_model(208, 0.006)[1]
    ('central tendency', 'what-if', 'high end')
    """
    gallons = residue.gallons_from_litres(Vcont_L)
    defaults = [residue.container_residue_defaults(gallons)]
    if residue.container_type(gallons).key == residue.DRUM:
        defaults.append(residue.container_residue_defaults(gallons, drum_emptying="pouring"))
    for d in defaults:
        label = _matching(d.estimates, Fcontainer_disp)
        if label:
            return d.model, label
    return defaults[0].model, WHAT_IF


def equipment_model(Fequip_disp: float) -> tuple[str, str]:
    """(model, label) for the equipment residue (Table B-5), else ``what-if``.

    >>> equipment_model(0.01)
    ('EPA/OPPT Single Process Vessel Residual Model', 'conservative')
    >>> equipment_model(0.02)[0], equipment_model(0.002)[1], equipment_model(0.05)[1]
    ('EPA/OPPT Multiple Process Vessel Residual Model', 'high end', 'what-if')
    """
    for kwargs in ({}, {"draining": "gravity"}, {"vessels": "multiple"}):
        d = residue.equipment_residue_defaults(**kwargs)
        label = _matching(d.estimates, Fequip_disp)
        if label:
            return d.model, label
    return residue.SINGLE_VESSEL_MODEL, WHAT_IF


# --- 2010 and 2018 ---------------------------------------------------------------------


@dataclass(frozen=True)
class RevisedReleases:
    releases: list[Release]
    container_days: float
    cleaning_days: float


def _release(number: int, ctx: ReleaseContext, model: str, eqn: str, estimates: list[ReleaseEstimate],
             standard_basis: str = "") -> Release:
    media, _ = ctx.media[number]
    return Release(number, SOURCES[number], model, ctx.equation(number, eqn), list(media), estimates,
                   irer_source=IRER_SOURCES[number], standard_basis=standard_basis)


def _where(ctx: ReleaseContext, number: int, kg_day: float, days: float, sites: int) -> str:
    return (f" = {num(kg_day)} kg/site-day over {count(days, 'day', shown=num)}/yr from {count(sites, 'site')}; "
            f"medium: {ctx.media[number][1]}.")


def wafer_reason(Fphoto_wafer: float) -> str:
    """Why this Fphoto_wafer, in the ESD's words (§4.4).

    >>> wafer_reason(0.07), wafer_reason(0.01), wafer_reason(0.055)
    ('conservative for water releases', 'maximises incineration', 'entered by the reviewer')
    """
    if abs(Fphoto_wafer - FPHOTO_WAFER_DEFAULT) < _SAME:
        return "conservative for water releases"
    if abs(Fphoto_wafer - FPHOTO_WAFER_LOW_2004) < _SAME:
        return "maximises incineration"
    return "entered by the reviewer"


def container_release(calc: Calc, inputs: Mapping[str, Any], fac: Facility, ctx: ReleaseContext) -> tuple[Release, float]:
    """Release 1: Eqn 4-1a when fewer containers than application days, else 4-1b."""
    Fc = inputs["Fcontainer_disp"]
    model, label = container_model(inputs["Vcont"], Fc)
    received, Qcont, n_cont = fac.containers()
    days_apply = fac.TIMEapply_days
    days: float
    if n_cont < days_apply:
        kg = calc(eq.container_residue_release_few, qualifier=BEFORE_EVAPORATION, Qcont=Qcont, Fchem=inputs["Fchem"], Fcontainer_disp=Fc,
                  Ncont_site_day=inputs["Ncont_site_day"])
        days = calc(eq.container_release_days, Ncont_site_yr=n_cont, Ncont_site_day=inputs["Ncont_site_day"])
        eqn = "4-1a"
        why = (f"{count(n_cont, 'container', shown=num)}/site-yr are fewer than the "
               f"{count(days_apply, 'application day', shown=num)}, so the "
               f"residue of {count(inputs['Ncont_site_day'], 'container')} is released on each day containers are "
               "emptied "
               f"(Eqn {eqn}): Qcont {num(Qcont)} kg × Fchem {given(inputs['Fchem'])} × {given(Fc)} × "
               f"{inputs['Ncont_site_day']}")
    else:
        kg = calc(eq.container_residue_release_daily, qualifier=BEFORE_EVAPORATION, Qchem_received_day=received, Fcontainer_disp=Fc)
        days, eqn = days_apply, "4-1b"
        why = (f"{count(n_cont, 'container', shown=num)}/site-yr ({given(inputs['Vcont'])} L each) exceed the "
               f"{count(days_apply, 'application day', shown=num)}, so containers are emptied every application day "
               f"(Eqn {eqn}): "
               f"Qchem_received_day {num(received)} kg/site-day × {given(Fc)}")
    basis = (f"{model}, {label} loss fraction Fcontainer_disp = {given(Fc)} (Table B-3; CEB, 1992). {why}"
             + _where(ctx, 1, kg, days, fac.Nsites))
    estimate = release_estimate(label, kg, days, fac.Nsites, basis)
    return _release(1, ctx, model, eqn, [estimate], standard_sentence(model, Fc)), days


def cleaning_release(calc: Calc, inputs: Mapping[str, Any], fac: Facility, ctx: ReleaseContext) -> tuple[Release, float]:
    """Release 2: Eqn 4-2, daily or accumulated over a cleaning interval (§4.3 note)."""
    Fe = inputs["Fequip_disp"]
    model, label = equipment_model(Fe)
    daily = calc(eq.equipment_cleaning_release, qualifier=BEFORE_EVAPORATION, Qchem_day=fac.Qchem_day, Fequip_disp=Fe)
    cleanings = inputs["cleanings_per_year"]
    if cleanings is None:
        kg, days = daily, fac.TIMEapply_days
        how = (f"equipment cleaned every application day (the conservative default, §4.3; Eqn 4-2): "
               f"{num(fac.Qchem_day)} kg/site-day dispensed × {given(Fe)}")
    else:
        interval = inputs["cleaning_interval_days"]
        if interval is None:
            interval = calc(eq.cleaning_interval, TIMEapply_days=fac.TIMEapply_days, cleanings_per_year=cleanings)
        kg = calc(eq.accumulated_cleaning_release, Elocalequip_disp=daily, interval_days=interval)
        days = cleanings
        how = (f"equipment cleaned {count(cleanings, 'time')} a year, so {count(interval, 'day', shown=num)} of "
               f"residue accumulate (§4.3 note; Eqn 4-2): {num(fac.Qchem_day)} kg/site-day dispensed × {given(Fe)} × "
               f"{count(interval, 'day', shown=num)}")
    basis = (f"{model}, {label} loss fraction Fequip_disp = {given(Fe)} (Table B-5; CEB, 1992), {how}"
             + _where(ctx, 2, kg, days, fac.Nsites))
    return (_release(2, ctx, model, "4-2", [release_estimate(label, kg, days, fac.Nsites, basis)],
                     standard_sentence(model, Fe)), days)


#: Labels of Releases 3 to 5 at the (low, high) ends of the Fphoto_wafer range: less on the
#: wafer is more spin-off (Release 3) and less to the developer and stripper (4 and 5).
RANGE_LABELS = {3: ("high end", "low end"), 4: ("low end", "high end"), 5: ("low end", "high end")}


def wafer_releases(calc: Calc, inputs: Mapping[str, Any], fac: Facility, ctx: ReleaseContext) -> list[Release]:
    """Releases 3 to 5: user-defined loss rates from industry data (Eqns 4-3 to 4-5).

    With ``Fphoto_wafer_range`` "both", at both ends of the §4.4 range (Fphoto_wafer_low and
    Fphoto_wafer), each end one consistent set (``case``) as the 2004 edition gives them
    (:func:`releases_2004`), so the totals never add the high end of both sides.
    """
    if inputs.get("Fphoto_wafer_range") != "both":
        return [_wafer_release(ctx, fac, number, [(OUTPUT, kg, basis, "")])
                for number, kg, basis in _wafer_end(calc, inputs, fac, ctx, inputs["Fphoto_wafer"], "")]
    ends = (("low", inputs["Fphoto_wafer_low"]), ("high", inputs["Fphoto_wafer"]))
    by_number: dict[int, list[tuple[str, float, str, str]]] = {3: [], 4: [], 5: []}
    for i, (end, Fw) in enumerate(ends):
        for number, kg, basis in _wafer_end(calc, inputs, fac, ctx, Fw, end):
            by_number[number].append((RANGE_LABELS[number][i], kg, basis, wafer_case(Fw)))
    return [_wafer_release(ctx, fac, number, estimates) for number, estimates in by_number.items()]


_WAFER_EQUATIONS = {3: "4-3", 4: "4-4", 5: "4-5"}


def _wafer_release(ctx: ReleaseContext, fac: Facility, number: int,
                   estimates: list[tuple[str, float, str, str]]) -> Release:
    """Release ``number`` (3 to 5) from its (label, kg/site-day, basis, case) estimates."""
    return _release(number, ctx, residue.USER_DEFINED_MODEL, _WAFER_EQUATIONS[number],
                    [release_estimate(label, kg, fac.TIMEapply_days, fac.Nsites, basis, case)
                     for label, kg, basis, case in estimates])


def _wafer_end(calc: Calc, inputs: Mapping[str, Any], fac: Facility, ctx: ReleaseContext, Fw: float,
               end: str) -> list[tuple[int, float, str]]:
    """(release number, kg/site-day, basis) of Releases 3 to 5 with Fphoto_wafer = ``Fw``."""
    Fe, Fd = inputs["Fequip_disp"], inputs["Fphoto_develop"]
    common = {"Qchem_day": fac.Qchem_day, "Fequip_disp": Fe, "Fphoto_wafer": Fw}
    days, sites = fac.TIMEapply_days, fac.Nsites
    note = f"Fphoto_wafer at the {end} end of the range" if end else ""
    spin = calc(eq.spin_off_release, **common, note=note)
    dev = calc(eq.developer_release, **common, Fphoto_develop=Fd, note=note)
    etch = calc(eq.etch_strip_release, **common, Fphoto_develop=Fd, note=note)
    why_fw = f"{end} end of the range 1 to 7 %, §4.4" if end else wafer_reason(Fw)
    adhered = f"Fphoto_wafer = {given(Fw)} of the applied photoresist adheres to the wafer ({why_fw})"
    rows = (
        (3, "4-3", spin, (1 - Fe) * (1 - Fw),
         f"{adhered}, so LF = (1 − Fequip_disp) × (1 − Fphoto_wafer) = (1 − {given(Fe)}) × (1 − {given(Fw)})"),
        (4, "4-4", dev, (1 - Fe) * Fw * Fd,
         f"Fphoto_develop = {given(Fd)} of the adhered photoresist is removed in development ({adhered}), so LF = "
         f"(1 − Fequip_disp) × Fphoto_wafer × Fphoto_develop = (1 − {given(Fe)}) × {given(Fw)} × {given(Fd)}"),
        (5, "4-5", etch, (1 - Fe) * Fw * (1 - Fd),
         f"the remaining 1 − Fphoto_develop = {given(1 - Fd)} of the adhered photoresist is removed in etching and "
         f"stripping ({adhered}), so LF = (1 − Fequip_disp) × Fphoto_wafer × (1 − Fphoto_develop) = "
         f"(1 − {given(Fe)}) × {given(Fw)} × (1 − {given(Fd)})"),
    )
    out = []
    for number, eqn, kg, lf, why in rows:
        basis = (f"{residue.USER_DEFINED_MODEL} (industry data, Table 4-1): {why} = {figure(lf, 4)} (Eqn {eqn}): "
                 f"{num(fac.Qchem_day)} kg/site-day dispensed × {figure(lf, 4)}" + _where(ctx, number, kg, days, sites))
        out.append((number, kg, basis))
    return out


def revised_releases(calc: Calc, inputs: Mapping[str, Any], fac: Facility, ctx: ReleaseContext) -> RevisedReleases:
    """Releases 1 to 5 of the 2010 ESD (media per ``ctx``)."""
    r1, container_days = container_release(calc, inputs, fac, ctx)
    r2, cleaning_days = cleaning_release(calc, inputs, fac, ctx)
    return RevisedReleases([r1, r2, *wafer_releases(calc, inputs, fac, ctx)], container_days, cleaning_days)


# --- 2004 ------------------------------------------------------------------------------


def _release_2004(number: int, model: str, eqn: str, estimates: list[ReleaseEstimate],
                  standard_basis: str = "") -> Release:
    media, _ = MEDIA_2004[number]
    return Release(number, SOURCES_2004[number], model, f"{ESD_2004} Eqn {eqn}", list(media), estimates,
                   irer_source=IRER_SOURCES[number], standard_basis=standard_basis)


def _where_2004(number: int, kg: float, days: float, sites: int) -> str:
    return (f" = {num(kg)} kg/site-day over {count(days, 'day', shown=num)}/yr from {count(sites, 'site')}; "
            f"medium: {MEDIA_2004[number][1]}.")


def wafer_case(Fphoto_wafer: float) -> str:
    """The set of estimates one end of the 2004 Fphoto_wafer range gives (``ReleaseEstimate.case``).

    >>> wafer_case(0.01), wafer_case(0.07)
    ('Fphoto_wafer = 0.01', 'Fphoto_wafer = 0.07')
    """
    return f"Fphoto_wafer = {given(Fphoto_wafer)}"


def releases_2004(calc: Calc, inputs: Mapping[str, Any], fac: Facility) -> list[Release]:
    """ESD 2004 Eqns 3-4 to 3-8; Releases 3 to 5 at both ends of the Fphoto_wafer range.

    Each end is one consistent set (§3.2.3: the fraction on the wafer moves chemical
    between spin-off and the water releases), tagged with its ``case`` so that the totals
    add Releases 3 to 5 at the same end, never the high end of both sides.
    """
    Q, Fc, Fe, Fd = fac.Qchem_day, inputs["Fcontainer_disp"], inputs["Fequip_disp"], inputs["Fphoto_develop"]
    days, sites = fac.TIMEapply_days, fac.Nsites
    model1, label1 = container_model(VCONT_2004_L, Fc)
    kg1 = calc(eq04.container_residue_release_2004, Qchem_day=Q, Fcontainer_disp=Fc)
    basis1 = (f"{model1}, {label1} loss fraction {given(Fc)} (up to 0.6 % left in small containers, ref 19) "
              f"applied to the daily use, several bottles a day (¶49; Eqn 3-4): {num(Q)} kg/site-day × {given(Fc)}"
              + _where_2004(1, kg1, days, sites))
    model2, label2 = equipment_model(Fe)
    kg2 = calc(eq04.equipment_cleaning_release_2004, Qchem_day=Q, Fcontainer_disp=Fc, Fequip_disp=Fe)
    basis2 = (f"{model2}, {label2} loss fraction {given(Fe)} of the daily use less the container residue, cleaned "
              f"daily (¶50; Eqn 3-5): {num(Q)} kg/site-day × (1 − {given(Fc)}) × {given(Fe)}"
              + _where_2004(2, kg2, days, sites))
    releases = [
        _release_2004(1, model1, "3-4", [release_estimate(label1, kg1, days, sites, basis1)],
                      standard_sentence(model1, Fc)),
        _release_2004(2, model2, "3-5", [release_estimate(label2, kg2, days, sites, basis2)],
                      standard_sentence(model2, Fe)),
    ]
    ends = (("low", inputs["Fphoto_wafer_low"]), ("high", inputs["Fphoto_wafer_high"]))
    rows: tuple[tuple[int, str, Callable[..., float], dict[str, Any], tuple[str, str]], ...] = (
        (3, "3-6", eq04.spin_off_release_2004, {}, ("high end", "low end")),
        (4, "3-7", eq04.developer_release_2004, {"Fphoto_develop": Fd}, ("low end", "high end")),
        (5, "3-8", eq04.etch_strip_release_2004, {"Fphoto_develop": Fd}, ("low end", "high end")),
    )
    for number, eqn, fn, extra, labels in rows:
        estimates = []
        for (end, Fw), label in zip(ends, labels):
            kg = calc(fn, Qchem_day=Q, Fcontainer_disp=Fc, Fequip_disp=Fe, Fphoto_wafer=Fw, **extra,
                      note=f"Fphoto_wafer at the {end} end of the range")
            basis = (f"{residue.USER_DEFINED_MODEL}: Fphoto_wafer = {given(Fw)} ({end} end of the 2004 range "
                     f"0.01 to 0.07) in Eqn {eqn}, after the container residue ({given(Fc)}) and the equipment "
                     f"residue ({given(Fe)}), from {num(Q)} kg/site-day" + _where_2004(number, kg, days, sites))
            estimates.append(release_estimate(label, kg, days, sites, basis, wafer_case(Fw)))
        releases.append(_release_2004(number, residue.USER_DEFINED_MODEL, eqn, estimates))
    return releases
