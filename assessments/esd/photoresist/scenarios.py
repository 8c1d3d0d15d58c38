"""The three registered scenarios: effective inputs in, :class:`Result` out (pure).

``photoresist-2010`` is the 2010 ESD as published; ``photoresist-2018`` is the same with
the EPA 2018 update's media and stripping-process split and EPA's current hand areas;
``photoresist-2004`` reproduces assessments made with the 2004 edition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..calc import Calc
from ..models import dermal
from ..options import INCLUDE_EXPOSURES, NO
from ..registry import Scenario
from ..results import Facts, Release, Result, Trace
from ..text import change, count, given, irer_percent, num, share
from . import constants as c
from . import equations as eq
from .exposures import Workers, exposures_2004, revised_exposures, workers
from .facility import (
    FACILITY_LABELS,
    FACILITY_LABELS_2004,
    Facility,
    facility_2004,
    known_sites_comparison,
    revised_facility,
    site_count_warnings,
)
from .params import (
    BOTH_ENDS,
    CHEMSTEER,
    STRIPPING_PROCESSES,
    consortium_presets,
    facility_presets,
    param_set_2004,
    revised_param_set,
)
from .releases import (
    CONTEXT_2010,
    MEDIA_2004,
    MEDIA_2010,
    SECTIONS_2018,
    RevisedReleases,
    context_2018,
    open_media,
    open_media_2018,
    releases_2004,
    revised_releases,
)
from .volatile import revised_volatility, volatility_2004

KEY_2004, KEY_2010, KEY_2018 = "photoresist-2004", "photoresist-2010", "photoresist-2018"
SUBMITTED = "submitted"

_RELEASE_FUNCTIONS_2018 = {
    "chemical_received_daily": 1, "container_residue_release_few": 1, "container_residue_release_daily": 1,
    "container_release_days": 1, "equipment_cleaning_release": 2, "cleaning_interval": 2,
    "accumulated_cleaning_release": 2, "spin_off_release": 3, "developer_release": 4, "etch_strip_release": 5,
}
CITATIONS_2018 = {
    name: f"{getattr(eq, name).info.citation} ({c.EPA_2018} {SECTIONS_2018[number]}, unchanged)"
    for name, number in _RELEASE_FUNCTIONS_2018.items()
}
CITATIONS_2004 = {
    "photoresist_daily_use": f"{c.ESD_2004} Eqn 3-1, §3.1, p. 11",
    "chemical_daily_use": f"{c.ESD_2004} Eqn 3-2, §3.1, p. 12",
    "number_of_sites": f"{c.ESD_2004} Eqn 3-3, §3.1, p. 12",
    "whole_sites": f"{c.ESD_2004} Eqn 3-3, rounded up to whole sites (the edition states no rounding rule above one site)",
    "chemical_daily_use_for_sites": f"{c.ESD_2004} Eqn 3-3, p. 12, solved for Qchem_day",
    "dermal_exposure": f"{c.ESD_2004} Eqn 3-9, §3.3.3, p. 17",
    "exposure_days": f"{c.ESD_2004} ¶63, p. 17",
}

def hand_area_set(inputs: Mapping[str, Any], default: str) -> tuple[str, str]:
    """The named hand-area set the areas used belong to (the scenario's default first), else ``submitted``.

    >>> hand_area_set({"AREAsurface_1hand": 535.0, "AREAsurface_2hand": 1070.0}, "esd-2010")[0]
    'epa-2013'
    >>> hand_area_set({"AREAsurface_1hand": 500.0, "AREAsurface_2hand": 1000.0}, "esd-2010")[0]
    'submitted'
    """
    one, two = inputs["AREAsurface_1hand"], inputs.get("AREAsurface_2hand")
    keys = [default, *(k for k in dermal.HAND_AREA_SETS if k != default)]
    for key in keys:
        areas = dermal.HAND_AREA_SETS[key]
        if one == areas.one_hand and (two is None or two == areas.two_hands):
            return key, areas.source
    shown = given(one) if two is None else f"{given(one)}/{given(two)}"
    return SUBMITTED, f"hand areas entered by the reviewer: {shown} cm²"


def _default_set(inputs: Mapping[str, Any], default: str, reason: str) -> dict[str, str]:
    """The default set the result used, with ``summary``, the one line a reviewer reads.

    >>> _default_set({"AREAsurface_1hand": 535.0, "AREAsurface_2hand": 1070.0}, "epa-2013", "")["summary"]
    'hand areas epa-2013 (535/1070 cm²)'
    """
    key, source = hand_area_set(inputs, default)
    areas = given(inputs["AREAsurface_1hand"])
    if inputs.get("AREAsurface_2hand") is not None:
        areas += f"/{given(inputs['AREAsurface_2hand'])}"
    out = {"hand_areas": key, "hand_areas_cm2": areas, "hand_areas_source": source, "scenario_default": default}
    if reason:
        out["scenario_default_reason"] = reason
    out["summary"] = f"hand areas {key} ({areas} cm²)"
    return out


def process_steps(containers: str, Fchem: float) -> list[str]:
    """The IRER's process description, one step an item (EPA 2018 update, Section 7 sample IRER).

    The concentration is printed as the IRER prints a percentage (:func:`..text.irer_percent`),
    one of the spellings the report's CBI check finds of a claimed fraction.

    A photoresist is a liquid formulation (ESD 2010 §2), so the state printed is "liquid".

    >>> process_steps(f"{litres(3.785411784)}-liter containers", 0.15)[:3]
    ['Chemical is unloaded from 3.79-liter containers (liquid, 15%)', 'charged to application equipment', 'Application (spin-coat)']
    """
    return [f"Chemical is unloaded from {containers} (liquid, {irer_percent(Fchem)})", *c.PROCESS_STEPS]


def litres(volume: float) -> str:
    """A container volume for prose, to three significant figures.

    >>> litres(3.8), litres(3.785411784), litres(208.0), litres(1000.0)
    ('3.8', '3.79', '208', '1,000')
    """
    return f"{volume:,.0f}" if volume >= 1_000 else f"{volume:.3g}"


def release_total(releases: list[Release]) -> float:
    """kg/yr over all sites of every release in one consistent set where estimates name a
    ``case`` (:meth:`Result.one_set_released_kg_yr`; the totals by medium take each medium's
    own set, issue 26)."""
    return Result(scenario="", inputs={}, facility={}, releases=releases, exposures=[], warnings=[],
                  trace=[]).one_set_released_kg_yr()


def _basis_note(fac: Facility, inputs: Mapping[str, Any], total: float, last: int) -> str:
    pv = inputs["Qchem_yr"]
    if fac.daily_use_basis == CHEMSTEER:
        rule = (f"ChemSTEER's rule, as its IRERs print it: Qchem_day = Qchem_yr ÷ (Nsites × TIMEapply_days) = "
                f"{num(fac.Qchem_day)} kg/site-day, container residue included")
    else:
        rule = (f"the ESD's rule (Eqn 3-3 footnote): Qchem_day = (1 − Fcontainer_disp) × Qchem_yr ÷ "
                f"(Nsites × TIMEapply_days) = {num(fac.Qchem_day)} kg/site-day")
    return (f"Daily use after rounding the sites up: {rule}. Releases 1 to {last} add up to {share(total, pv)} of the production volume "
            "(the sum of their kg/yr over all sites, as each release lists it).")


# --- What the documents' own conventions release beyond the use -----------------------

#: Below this fraction of the use an excess is floating-point noise, not an allowance.
_NOISE = 1e-12


def _allowance(parts: list[tuple[float, str]], used: float) -> tuple[float, str]:
    """(kg/yr, sentence) from (kg/yr, reason) parts; the sentence gives each part as a
    share of the use (an annual all-site amount would reveal a claimed production volume)."""
    parts = [(kg, why) for kg, why in parts if kg > _NOISE * used]
    if not parts:
        return 0.0, ""
    total = sum(kg for kg, _ in parts)
    reasons = "; ".join(f"{why}: {change(kg / used)}" for kg, why in parts)
    return total, (f"The releases may exceed the use by {change(total / used)} of it at most, by the documents' own "
                   f"conventions: {reasons}.")


def revised_allowance(inputs: Mapping[str, Any], fac: Facility, rel: RevisedReleases) -> tuple[float, str]:
    """What the 2010 ESD's conventions (and the chosen daily-use basis) release beyond the use, kg/yr all sites.

    - Eqn 4-1a: whole containers, Ncont_site_day a day on whole days, against the
      Ncont_site_yr of Eqn 3-4 (rounded up, §6.1.5 prints 2,924 for 2,923.98).
    - ``daily_use_basis = "chemsteer"`` (EPA 2018 update, Section 7 sample IRER): Qchem_day
      divides the whole production volume, so Releases 2 to 5 release the container
      residue again (Fcontainer_disp × Qchem_yr) and, with Eqn 4-1b, Qchem_received_day
      grows by the same factor.
    - Less frequent cleaning (§4.3 note): cleanings × interval days of residue against
      TIMEapply_days application days, when more.
    Each is computed from the figures of the releases (before any evaporation: a vapour
    release is taken from the residue, so it adds nothing).
    """
    used, Fc = inputs["Qchem_yr"], inputs["Fcontainer_disp"]
    days, sites = fac.TIMEapply_days, fac.Nsites
    residue_kg_yr = rel.releases[0].estimates[0].kg_year_all_sites
    few = fac.containers().Ncont_site_yr < days  # Eqn 4-1a (releases.container_release's rule)
    parts: list[tuple[float, str]] = []
    if few:
        parts.append((residue_kg_yr - Fc * used,
                      "Release 1 counts whole containers emptied on whole days (Eqn 4-1a, containers rounded up)"))
    if fac.daily_use_basis == CHEMSTEER:
        why = ("ChemSTEER's daily use counts the container residue again (Qchem_day divides the whole "
               "production volume, as ChemSTEER's IRERs do)")
        parts.append((_counted_again(inputs, fac, residue_kg_yr, few), why))
    cleanings = inputs["cleanings_per_year"]
    if cleanings is not None:
        given_interval = inputs["cleaning_interval_days"]
        interval = given_interval if given_interval is not None else eq.cleaning_interval(days, cleanings)
        extra_days = cleanings * interval - days
        source = "the interval entered" if given_interval is not None else "ESD 2010 §4.3 note"
        parts.append((fac.Qchem_day * inputs["Fequip_disp"] * sites * extra_days,
                      f"Release 2 accumulates {count(cleanings, 'cleaning', shown=given)} × "
                      f"{count(interval, 'day', shown=num)} of residue against "
                      f"{count(days, 'application day', shown=num)} ({source})"))
    return _allowance(parts, used)


def _counted_again(inputs: Mapping[str, Any], fac: Facility, residue_kg_yr: float, few: bool) -> float:
    """kg/yr all sites that ChemSTEER's daily use (``daily_use_basis = "chemsteer"``)
    releases again: Releases 2 to 5 from the whole production volume, and with Eqn 4-1b
    Release 1 from the larger Qchem_received_day too."""
    used, Fc = inputs["Qchem_yr"], inputs["Fcontainer_disp"]
    again = fac.Qchem_day * fac.TIMEapply_days * fac.Nsites - (1 - Fc) * used
    if not few:
        again += residue_kg_yr - Fc * used  # Eqn 4-1b: Qchem_received_day from the larger Qchem_day
    return float(again)


def revised_rounding_limit(inputs: Mapping[str, Any], fac: Facility, rel: RevisedReleases) -> float:
    """The most the 2010 ESD's rounding conventions can release beyond the use, kg/yr all
    sites (issue 26): more than this is not rounding, and the result warns
    (:mod:`..over_release`).

    - Whole containers (Eqn 3-4 rounded up, Eqn 4-1a's Ncont_site_day containers a day on
      whole days, Table B-4): at most one day's containers' residue per site,
      Fcontainer_disp × Ncont_site_day × Qcont × Fchem, each day's containers holding no
      more of the chemical than the production volume (a container larger than the whole
      use is not rounding: issue 26's 1E+9 L container released 2.4E+6 kg/yr of 5,000).
    - ChemSTEER's daily use (EPA 2018 update, Section 7 sample IRER): the container residue
      counted again, as :func:`revised_allowance` computes it; its own documented rule.
    - Less frequent cleaning (§4.3 note): the note's intervals are calendar days (12 × 30,
      26 × 14, 52 × 7: 360 to 364 days), so up to a calendar year's residue
      (:data:`~.constants.DAYS_PER_YEAR` days) against the application days; an interval
      that accumulates more than a year is not the note's.
    """
    used, Fc = inputs["Qchem_yr"], inputs["Fcontainer_disp"]
    days, sites = fac.TIMEapply_days, fac.Nsites
    _, Qcont, n_cont = fac.containers()
    few = n_cont < days  # Eqn 4-1a (releases.container_release's rule)
    limit = 0.0
    if few:
        day_of_containers = inputs["Ncont_site_day"] * Qcont * inputs["Fchem"]
        limit += sites * Fc * min(day_of_containers, used)
    if fac.daily_use_basis == CHEMSTEER:
        limit += max(_counted_again(inputs, fac, rel.releases[0].estimates[0].kg_year_all_sites, few), 0.0)
    cleanings = inputs["cleanings_per_year"]
    if cleanings is not None:
        given_interval = inputs["cleaning_interval_days"]
        interval = given_interval if given_interval is not None else eq.cleaning_interval(days, cleanings)
        calendar_days = min(cleanings * interval, c.DAYS_PER_YEAR)
        limit += fac.Qchem_day * inputs["Fequip_disp"] * sites * max(calendar_days - days, 0.0)
    return float(limit)


def allowance_2004(inputs: Mapping[str, Any], fac: Facility) -> tuple[float, str]:
    """What the 2004 edition's convention releases beyond the use, kg/yr all sites: it keeps
    Qchem_day after rounding Nsites up (Eqn 3-3; its worked example carries 5.4 kg/site-day
    into every release), so the releases grow by Qchem_day × TIMEapply_days × (Nsites −
    Nsites from Eqn 3-3). Nothing when Nsites is known or below one (days recalculated)."""
    calculated = fac.Nsites_calculated
    if calculated is None or calculated < 1:
        return 0.0, ""
    return _allowance([(fac.Qchem_day * fac.TIMEapply_days * (fac.Nsites - calculated),
                        f"the 2004 edition keeps Qchem_day after rounding Nsites up to {fac.Nsites} (ESD 2004 Eqn 3-3; "
                        "the 2010 revision recalculates it)")], inputs["Qchem_yr"])


def workers_basis(staff: Workers, inputs: Mapping[str, Any]) -> str:
    """How the 2010 ESD counts the distinct workers exposed per site (Eqn 5-1, 5-2)."""
    return (f"{count(staff.operators, 'operator')} changing out the photoresist containers (Exposure A; Eqn 5-1: "
            f"{inputs['Noperators_line_shift']} per line-shift × {count(inputs['Nlines_site'], 'line')} × "
            f"{count(inputs['Nshifts_day'], 'shift')}) and {count(staff.technicians, 'technician')} doing Exposures B "
            f"to E, one pool (Eqn 5-2: {inputs['Ntechs_shift']} per shift × {count(inputs['Nshifts_day'], 'shift')}): "
            f"{count(staff.total, 'distinct worker')} per site (ESD 2010 §5.2).")


def workers_basis_2004(inputs: Mapping[str, Any]) -> str:
    """How the 2004 edition counts them: a range, of which the high end is counted."""
    return (f"{inputs['Nworkers_low']} to {count(inputs['Nworkers_high'], 'worker')} per site handling the photoresist "
            "(ESD 2004 "
            f"¶60, p. 16, and Table B-2); the high end, {inputs['Nworkers_high']}, is counted.")


def _revised(key: str, inputs: Mapping[str, Any]) -> Result:
    """The 2010 ESD (and its 2018 update): facility, releases 1-5, workers, exposures A-E, volatility."""
    is_2018 = key == KEY_2018
    calc = Calc(Trace(), CITATIONS_2018 if is_2018 else {})
    fac = revised_facility(calc, inputs)
    ctx = context_2018(inputs["stripping_process"]) if is_2018 else CONTEXT_2010
    rel = revised_releases(calc, inputs, fac, ctx)
    staff = workers(calc, inputs)
    hand_default = c.HAND_AREAS_2018 if is_2018 else c.HAND_AREAS_2010
    hand_key, _ = hand_area_set(inputs, hand_default)
    exposures = revised_exposures(calc, inputs, fac, staff, rel.cleaning_days, f"hand-area set {hand_key}")
    vol = revised_volatility(calc, inputs, fac, rel, {e.letter: e for e in exposures})
    releases = vol.replace_liquid(rel.releases) + vol.releases
    total = release_total(releases)
    allowance, allowance_basis = revised_allowance(inputs, fac, rel)
    rounding_limit = revised_rounding_limit(inputs, fac, rel)
    notes, warnings = _revised_messages(key, inputs, fac, staff, hand_key, total, releases[-1].number)
    facility = {
        **fac.as_dict(),
        "container_release_equation": rel.releases[0].equation,
        "TIMEdays_container_residue": rel.container_days,
        "TIMEdays_equip_residue": rel.cleaning_days,
        "Noperators_site_day": staff.operators,
        "Ntechs_site_day": staff.technicians,
        # Releases only: no route is assessed, so no worker is counted as exposed (options.finish).
        **({} if releases_only(inputs) else {"Nworkers_exposed_site": staff.total}),
        "release_total_kg_yr": total,
        **({"stripping_process": inputs["stripping_process"]} if is_2018 else {}),
    }
    facts = Facts(sites=fac.Nsites, sites_known=inputs["Nsites"] is not None, operating_days=fac.TIMEapply_days,
                  workers_per_site=staff.total, workers_basis=workers_basis(staff, inputs),
                  used_kg_yr=inputs["Qchem_yr"])
    return Result(scenario=key, inputs=dict(inputs), facility=facility, releases=releases,
                  exposures=exposures + vol.exposures, warnings=warnings + vol.warnings, trace=calc.trace.steps,
                  notes=notes[:1] + vol.notes + notes[1:],
                  default_set=_default_set(inputs, hand_default, c.HAND_AREAS_2018_REASON if is_2018 else ""),
                  process=process_steps(f"{litres(inputs['Vcont'])}-liter containers", inputs["Fchem"]),
                  facts=facts, consumed_kg_yr=0.0, allowance_kg_yr=allowance, allowance_basis=allowance_basis,
                  rounding_limit_kg_yr=rounding_limit)


def releases_only(inputs: Mapping[str, Any]) -> bool:
    """Whether the reviewer chose releases only (``options.INCLUDE_EXPOSURES``): the notes then
    count the workers without calling them exposed, and the facility estimates leave out the
    workers exposed (the report's total of workers exposed via the assessed routes is 0)."""
    return inputs.get(INCLUDE_EXPOSURES) == NO


def _revised_messages(key: str, inputs: Mapping[str, Any], fac: Facility, staff: Workers, hand_key: str,
                      total: float, last: int) -> tuple[list[str], list[str]]:
    """(notes, warnings): the daily-use basis first, then the known-sites check and the standing notes."""
    warnings = site_count_warnings(fac.Nsites, c.US_FABS_50_PLUS_2010, c.US_FABS_ALL_2010, "ESD 2010, Section 1.4")
    notes = [_basis_note(fac, inputs, total, last)]
    if inputs["Nsites"] is not None:
        more_notes, more_warnings = known_sites_comparison(fac, "ESD 2010 §3.6")
        notes += more_notes
        warnings += more_warnings
    return notes + _revised_notes(key, inputs, staff, hand_key), warnings


def _wafer_note(inputs: Mapping[str, Any]) -> str:
    if inputs["Fphoto_wafer_range"] == BOTH_ENDS:
        return (f"Releases 3 to 5 are given at both ends of the Fphoto_wafer range ({given(inputs['Fphoto_wafer_low'])} "
                f"and {given(inputs['Fphoto_wafer'])}; ESD 2010 §4.4), as the 2004 edition gives them; each end is one "
                "set (its case), and the totals add Releases 3 to 5 at one end, never the high end of both sides.")
    return (f"Fphoto_wafer = {given(inputs['Fphoto_wafer'])}: 0.07 maximises the water releases (4 and 5), 0.01 the "
            "incineration release (3) (ESD 2010 §4.4); the five releases add up to the same total either way.")


def _revised_notes(key: str, inputs: Mapping[str, Any], staff: Workers, hand_key: str) -> list[str]:
    notes = [
        "The daily releases listed for any source may coincide with daily releases from the other sources to the "
        "same medium; releases to one medium on the same days may be summed (ESD 2010 §4).",
        _wafer_note(inputs),
        (f"Workers: {count(staff.operators, 'operator')} and {count(staff.technicians, 'technician')} per site "
         "(Eqn 5-1, 5-2); no route of exposure is assessed (releases only), so none is counted as exposed."
         if releases_only(inputs) else
         f"Workers: {count(staff.operators, 'operator')} (Exposure A) and {count(staff.technicians, 'technician')} "
         "per site; "
         f"Exposures B to E fall on the same technicians, so {count(staff.total, 'distinct worker')} per site "
         f"{'is' if staff.total == 1 else 'are'} exposed (Eqn 5-1, 5-2)."),
        "Nonroutine manual handling of coated wafers is assumed negligible (ESD 2010 §5.8).",
    ]
    cleanings, interval = inputs["cleanings_per_year"], inputs["cleaning_interval_days"]
    days = inputs["TIMEapply_days"]
    if cleanings is not None and interval is not None and abs(cleanings * interval - days) > 1e-9 * days:
        notes.append(
            f"Release 2 accumulates {count(cleanings, 'cleaning')} × {count(interval, 'day', shown=given)} = "
            f"{count(cleanings * interval, 'day', shown=given)} of residue against "
            f"{count(days, 'application day', shown=given)} "
            "(the days of residue collected per cleaning as entered; "
            "ESD 2010 §4.3: TIMEapply_days ÷ the cleanings a year when left out).")
    if key == KEY_2018:
        assessed = ("they are not assessed here (releases only)" if releases_only(inputs) else
                    f"they follow ESD 2010 Section 5 with EPA's current hand areas (set used: {hand_key}; scenario "
                    f"default {c.HAND_AREAS_2018})")
        notes.append(
            f"Occupational exposures are outside the scope of the {c.EPA_2018} (Section 7); {assessed}. Release 5 "
            f"stripping process: “{dict(STRIPPING_PROCESSES)[inputs['stripping_process']]}”.")
    return notes


def run_2010(inputs: Mapping[str, Any]) -> Result:
    """The 2010 ESD as published."""
    return _revised(KEY_2010, inputs)


def run_2018(inputs: Mapping[str, Any]) -> Result:
    """The 2010 ESD with EPA's 2018 update."""
    return _revised(KEY_2018, inputs)


def run_2004(inputs: Mapping[str, Any]) -> Result:
    """The 2004 edition."""
    calc = Calc(Trace(), CITATIONS_2004)
    fac = facility_2004(calc, inputs)
    releases = releases_2004(calc, inputs, fac)
    hand_key, _ = hand_area_set(inputs, c.HAND_AREAS_2004)
    exposures = exposures_2004(calc, inputs, fac, f"hand-area set {hand_key}")
    vol = volatility_2004(inputs["VPchem"])
    total, pv = release_total(releases), inputs["Qchem_yr"]
    warnings = site_count_warnings(fac.Nsites, c.US_FABS_50_PLUS_2004, c.US_FABS_ALL_2004, c.US_FABS_SOURCE_2004)
    notes = [f"Releases 1 to 5 add up to {share(total, pv)} of the production volume: the 2004 equations release "
             "Qchem_day per site-day."]
    if total > pv * (1 + 1e-9):
        warnings.append(
            f"The releases add up to {num(total, 4)} kg/yr, {change(total / pv - 1)} against the production volume: "
            f"the 2004 edition keeps Qchem_day = {num(fac.Qchem_day)} kg/site-day after rounding Nsites up from "
            f"{num(fac.Nsites_calculated or fac.Nsites)} to {fac.Nsites} (the 2010 revision recalculates it; "
            "photoresist-2010).")
    if fac.Nsites_calculated is not None and fac.Nsites_calculated < 1:
        notes.append(f"Eqn 3-3 gives {num(fac.Nsites_calculated)} site: one site, TIMEapply_days recalculated to "
                     f"{count(fac.TIMEapply_days, 'day', shown=num)}/yr (ESD 2004 footnote 5, p. 12).")
    notes += vol.notes
    warnings += vol.warnings
    notes.append(f"Releases 3 to 5 are given at both ends of the Fphoto_wafer range ({given(inputs['Fphoto_wafer_low'])} "
                 f"and {given(inputs['Fphoto_wafer_high'])}), as the 2004 edition carries it (§3.2.3); each end is one set "
                 "(its case), and the totals add Releases 3 to 5 at one end, never the high end of both sides.")
    facility = {**fac.as_dict(), "Nworkers_low": inputs["Nworkers_low"], "Nworkers_high": inputs["Nworkers_high"],
                "release_total_kg_yr": total}
    allowance, allowance_basis = allowance_2004(inputs, fac)
    facts = Facts(sites=fac.Nsites, sites_known=inputs["Nsites"] is not None, operating_days=fac.TIMEapply_days,
                  workers_per_site=inputs["Nworkers_high"], workers_basis=workers_basis_2004(inputs), used_kg_yr=pv)
    return Result(scenario=KEY_2004, inputs=dict(inputs), facility=facility, releases=releases, exposures=exposures,
                  warnings=warnings, trace=calc.trace.steps, notes=notes,
                  default_set=_default_set(inputs, c.HAND_AREAS_2004,
                                           "the 2004 edition prints one hand, 420 cm² (ref 21, CEB 2000)"),
                  process=process_steps(c.CONTAINERS_2004, inputs["Fchem"]), facts=facts, consumed_kg_yr=0.0,
                  allowance_kg_yr=allowance, allowance_basis=allowance_basis,
                  # whole sites (Eqn 3-3 rounded up): less than one site's use, the edition's own rounding
                  rounding_limit_kg_yr=allowance)


PHOTORESIST_2004 = Scenario(
    KEY_2004,
    "Photoresist use in semiconductor manufacturing: OECD ESD, 2004 edition (legacy)",
    c.ESD_2004_TITLE,
    param_set_2004(),
    run_2004,
    facility_presets(c.TABLE_3_1_2004_SOURCE),
    open_media(MEDIA_2004),
    edition=2004,
    superseded_by=KEY_2010,
    facility_labels=FACILITY_LABELS_2004,
)
PHOTORESIST_2010 = Scenario(
    KEY_2010,
    "Photoresist use in semiconductor manufacturing: OECD ESD No. 9, 2010 revision, as published",
    c.ESD_2010_TITLE,
    revised_param_set(c.HAND_AREAS_2010, stripping=False),
    run_2010,
    facility_presets(c.TABLE_3_2_SOURCE),
    open_media(MEDIA_2010),
    edition=2010,
    # EPA's 2018 update revises the 2010 ESD; the 2010 revision as published reproduces
    # assessments made before it.
    superseded_by=KEY_2018,
    facility_labels=FACILITY_LABELS,
)
PHOTORESIST_2018 = Scenario(
    KEY_2018,
    "Photoresist use in semiconductor manufacturing: the 2010 ESD with EPA's 2018 update",
    f"{c.ESD_2010_TITLE}; {c.EPA_2018_TITLE}",
    revised_param_set(c.HAND_AREAS_2018, stripping=True),
    run_2018,
    facility_presets(c.TABLE_3_2_SOURCE) + consortium_presets(),
    open_media_2018(),
    irer_per="per revised ESD",
    edition=2018,
    facility_labels=FACILITY_LABELS,
)

SCENARIOS = (PHOTORESIST_2004, PHOTORESIST_2010, PHOTORESIST_2018)
