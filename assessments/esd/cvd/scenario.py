"""The ``cvd-2015`` scenario: effective inputs in, :class:`Result` out (pure).

Besides the figures, the result declares what the rest of the product reads instead of
knowing the scenario: the process as the IRER describes it (:func:`process_steps`), the
facility facts (:func:`facility_facts`), what the process consumes or destroys, and the
allowance the document's own conventions make over the use (:func:`allowance`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..calc import Calc
from ..registry import Scenario
from ..results import Facts, Result, Trace
from ..text import count, figure, irer_percent, num
from .constants import DOC, DOCUMENT
from .facility import FACILITY_LABELS, available_to_sites, containers, density, facility_estimates
from .params import EQN_3_1, PARAM_SET, PRESETS
from .release import OPEN_MEDIA, RELEASE_1_MEDIA, release_1
from .supplier import Supplier, supplier

SCENARIO_KEY = "cvd-2015"
DEFAULTS = "ESD 2015 as published (Table A-4)"

#: The IRER's process description after its first step (ESD 2015 §2, Figure 2-1, ¶51-61).
PROCESS_STEPS = (
    "connected to the gas cabinet or liquid delivery system",
    "vaporised and delivered to the CVD chamber",
    "Deposition (a fraction of the precursor reacts onto the wafer)",
    "unreacted precursor exhausted to point-of-use abatement",
)
SUPPLIER_STEP = "empty containers returned to the supplier for cleaning (Appendix C)"

#: Relative size below which a difference of annual amounts is floating-point noise.
_NOISE = 1e-12


def process_steps(v: Mapping[str, Any]) -> list[str]:
    """The process as the IRER's arrow chain, one step an item.

    >>> process_steps({"Vcontainer": 60.6, "physical_state": "liquid", "Fchem": 1.0,
    ...                "Release1_media": "air", "supplier_site": "no"})[::5]
    ['Precursor is received in 60.6-liter cylinders or canisters (liquid, 100%)', 'abatement effluent to air']
    """
    first = (f"Precursor is received in {figure(v['Vcontainer'])}-liter cylinders or canisters "
             f"({v['physical_state']}, {irer_percent(v['Fchem'])})")
    _, media = RELEASE_1_MEDIA[v["Release1_media"]]
    steps = [first, *PROCESS_STEPS, f"abatement effluent to {media}"]
    if v["supplier_site"] == "yes":
        steps.append(SUPPLIER_STEP)
    return steps


def facility_facts(v: Mapping[str, Any], facility: Mapping[str, Any], sup: Supplier | None) -> Facts:
    """Sites, days and workers: nobody is exposed at the fab (§5.2, §6.3); the supplier's
    workers when their inhalation is quantified (App. D)."""
    fab = (f"up to {count(v['Nworkers_site'], 'production worker')} per fab working on CVD, none exposed: "
           "worker exposure to "
           "CVD precursors is expected to be negligible at the fab (ESD 2015 §5.2 ¶69, §6.3 ¶89)")
    if sup is not None and sup.exposures:
        workers = v["Nworkers_supplier"]
        basis = (f"Up to {count(workers, 'worker')} per supplier site, handling and cleaning the returned containers, "
                 "exposed by "
                 f"inhalation (ESD 2015 App. D, Exposure A); at the fab{'s' if facility['Nsites'] != 1 else ''}, "
                 f"{fab}.")
    else:
        workers = 0
        basis = f"None: {fab}."
        if sup is not None:
            basis += " At the supplier site the inhalation exposure is negligible or mitigated (App. D)."
    return Facts(
        sites=facility["Nsites"],
        sites_known=v["Nsites"] is not None,
        operating_days=v["TIME_operating_days"],
        workers_per_site=workers,
        workers_basis=basis,
        used_kg_yr=v["Qchem_yr"],
    )


def allowance(v: Mapping[str, Any], facility: Mapping[str, Any], sup: Supplier | None) -> tuple[float, str]:
    """What the document's own conventions release beyond the use [kg/yr], and why.

    Eqn 3-2 divides the production volume less the container residue among the sites
    (§3.6 ¶43), and the residue returns to the supplier. Two conventions can put more
    through than that: the §6 sample's Eqn 3-1 daily use kept after the number of sites
    (``Qchem_site_day_basis = "eqn_3_1"``), and Appendix C's one whole container a day
    (Eqn C-1a) when the containers, rounded up, hold more residue than Fcontainer_disp of
    the production volume.
    """
    pv, f_disp = v["Qchem_yr"], v["Fcontainer_disp"]
    parts: list[tuple[float, str]] = []
    used = facility["Qchem_site_day"] * facility["Nsites"] * v["TIME_operating_days"]
    available = available_to_sites(v)
    if v["Qchem_site_day_basis"] == EQN_3_1 and used - available > _NOISE * pv:
        how = "rounded up" if v["Nsites"] is None else "known"
        parts.append((used - available, (
            f"the §6 sample's convention (Qchem_site_day_basis = {EQN_3_1}): the Eqn 3-1 daily use "
            f"{figure(facility['Qchem_site_day'])} kg/site-day, kept for the {how} "
            f"{count(facility['Nsites'], 'site')}, "
            f"uses {figure(used)} kg/yr against the {figure(available)} kg/yr Eqn 3-2 divides among the sites "
            f"({DOC} §6.1.3; the ESD recalculates, §3.6 footnote 9)")))
    if sup is not None:
        shipped_residue = pv * f_disp
        if sup.residue_kg_yr - shipped_residue > _NOISE * pv:
            parts.append((sup.residue_kg_yr - shipped_residue, (
                f"Appendix C's whole containers: {count(sup.containers_site_yr, 'container')} a year at each supplier "
                f"site ({count(v['Nsites_supplier'], 'supplier site')}), one a day with "
                f"{figure(sup.residue.kg_site_day)} kg of "
                f"residue (Eqn {sup.residue.equation}), {figure(sup.residue_kg_yr)} kg/yr against the "
                f"{figure(shipped_residue)} kg/yr residue of the production volume (Fcontainer_disp × Qchem_yr)")))
    if not parts:
        return 0.0, ""
    total = sum(amount for amount, _ in parts)
    return total, f"{num(total)} kg/yr: " + "; ".join(text for _, text in parts) + "."


def rounding_limit(v: Mapping[str, Any], facility: Mapping[str, Any], sup: Supplier | None) -> float:
    """The most the document's rounding conventions can release beyond the use [kg/yr]
    (issue 26): more than this is not rounding, and the result warns (:mod:`..over_release`).

    - Whole sites: with the §6 sample's Eqn 3-1 daily use kept and the number of sites
      computed (Eqn 3-2 rounded up, footnote 9), the sites use less than one site's
      Eqn 3-1 use beyond what Eqn 3-2 divides among them: that excess, all of it (with a
      known number of sites it is not rounding).
    - Whole containers at the supplier (Eqn C-1a, one container a day): each fab's
      containers are rounded up (Eqn 3-3) and so are the supplier's (footnote 23), so at
      most one container's residue more per fab and per supplier site, each container holding
      no more of the precursor than the production volume (Vcontainer × RHOformulation ×
      Fchem, at most Qchem_yr); and the residue of the whole sites' excess above, whose
      containers return to the supplier too.
    """
    pv, f_disp = v["Qchem_yr"], v["Fcontainer_disp"]
    whole_sites = 0.0
    if v["Qchem_site_day_basis"] == EQN_3_1 and v["Nsites"] is None:
        used = facility["Qchem_site_day"] * facility["Nsites"] * v["TIME_operating_days"]
        whole_sites = max(used - available_to_sites(v), 0.0)
    limit = whole_sites
    if sup is not None and sup.residue.equation == "C-1a":
        per_container = v["Vcontainer"] * facility["RHOformulation"] * v["Fchem"]
        limit += (facility["Nsites"] + v["Nsites_supplier"]) * f_disp * min(per_container, pv)
        limit += f_disp * whole_sites
    return float(limit)


def run(v: dict[str, Any]) -> Result:
    """Compute the ``cvd-2015`` scenario from validated, effective inputs; pure."""
    calc = Calc(Trace())
    warnings: list[str] = []
    notes: list[str] = []
    facility = facility_estimates(calc, v, warnings, notes)
    rho = density(calc, v, facility)
    containers(calc, v, facility, rho)
    fab = release_1(calc, v, facility, warnings)
    releases = [fab.release]
    facility["Nworkers_site"] = v["Nworkers_site"]
    facility["worker_exposure_fab"] = (
        "None: worker exposure to CVD precursors is expected to be negligible at the "
        "semiconductor site (ESD 2015 §5, §6.3 ¶89, Table A-3)"
    )
    notes.append(
        "Occupational exposure at the fab: none; worker exposure is expected to be negligible. "
        f"Up to {count(v['Nworkers_site'], 'production worker')} per site working on CVD, none exposed: "
        "closed, automated systems, gas cabinets, interlocks "
        "and purging; 24 monitoring results, all below detection (ESD 2015 §5.2 ¶69, ¶74, "
        "App. E)."
    )
    notes.append(
        "Container residue, chamber cleaning and volatilisation at the fab: no release (closed "
        "system; containers return to the supplier; no precursor present during chamber "
        "cleaning; ESD 2015 §4.2 ¶57, ¶51)."
    )
    sup = supplier(calc, v, facility, rho, notes) if v["supplier_site"] == "yes" else None
    if sup is not None:
        releases.extend(sup.releases)
    consumed = fab.consumed_kg_site_day * v["TIME_operating_days"] * facility["Nsites"]
    extra, extra_basis = allowance(v, facility, sup)
    summary = DEFAULTS + (", with the supplier site of Appendices C and D" if sup is not None else "")
    return Result(
        scenario=SCENARIO_KEY,
        inputs=dict(v),
        facility=facility,
        releases=releases,
        exposures=sup.exposures if sup is not None else [],
        warnings=warnings,
        trace=calc.trace.steps,
        notes=notes,
        default_set={"document": DOCUMENT, "defaults": DEFAULTS, "summary": summary},
        process=process_steps(v),
        facts=facility_facts(v, facility, sup),
        consumed_kg_yr=consumed,
        allowance_kg_yr=extra,
        allowance_basis=extra_basis,
        rounding_limit_kg_yr=rounding_limit(v, facility, sup),
    )


CVD_2015 = Scenario(
    key=SCENARIO_KEY,
    title="Chemical vapour deposition (CVD) precursor at semiconductor fabs (OECD ESD No. 35, 2015)",
    source=DOCUMENT,
    params=PARAM_SET,
    run=run,
    presets=PRESETS,
    open_media=OPEN_MEDIA,
    edition=2015,
    facility_labels=FACILITY_LABELS,
)

SCENARIOS = (CVD_2015,)
