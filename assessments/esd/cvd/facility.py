"""General facility estimates (ESD 2015 §3) and the precursor's density (§3.7, App. B).

The daily use rate (Eqn 3-1), the number of sites (Eqn 3-2, rounded up) or a known number,
the daily use recalculated for the whole number of sites (§3.6 summary box) or kept as the
§6 sample keeps it, the density by state, fill mass (Eqn B-1), compressibility (Eqn B-2,
B-3) or as entered, and the containers unloaded a year (Eqn 3-3, rounded up).

Each function adds its figures to the ``facility`` mapping of the result (the contract's
``facility`` object) and records every step in the trace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..calc import Calc, equation_info
from ..figures import FacilityFigure, computed_by, entered
from ..text import count, figure, given
from . import equations as eq
from . import equations_supplier as eqs
from .constants import DOC, N_US_FABS, Q_CHEM_SITE_YR, Q_CHEM_SITE_YR_LOW, R_GAS, RHO_GAS, RHO_LIQUID
from .params import COMPRESSIBILITY, FILL_MASS, PARAM_SET, RECALCULATED


def _both_ends(fn: Callable[..., Any], symbol: str) -> dict[str, FacilityFigure]:
    """A figure of Release 1 at each end of the utilisation range (one, ``output``, when
    the ends meet): ``release.release_1`` records ``<symbol>_low_end`` and so on."""
    label = equation_info(fn).label
    return {f"{symbol}_{tag}": computed_by(fn, step=f"{symbol}_{tag}", label=label + words)
            for tag, words in (("low_end", ", low end"), ("high_end", ", high end"), ("output", ""))}


#: Every key of a result's ``facility`` mapping, as the pages and the report name it
#: (``Scenario.facility_labels``, :class:`~assessments.esd.figures.FacilityFigure`); the
#: supplier site's (Appendices C and D) by their path under ``supplier``.
FACILITY_LABELS = {
    "TIME_operating_days": entered(PARAM_SET["TIME_operating_days"]),
    "Qchem_site_day_eqn_3_1": computed_by(eq.daily_use_rate, step="Qchem_site_day_eqn_3_1"),
    "Nsites_unrounded": computed_by(eq.number_of_sites, step="Nsites_unrounded"),
    # Computed (Eqn 3-2 rounded up) or known: named by the equation that gave it.
    "Nsites": FacilityFigure("Number of sites", "sites", step="Nsites", by_equation=True, basis="Nsites_basis"),
    "Nsites_basis": FacilityFigure("How the number of sites was found", ""),
    # Recalculated for the whole number of sites (§3.6) or kept from Eqn 3-1 (§6 sample).
    "Qchem_site_day": FacilityFigure("Daily use rate of the precursor at one site, for the number of sites",
                                     "kg/site-day", step="Qchem_site_day", by_equation=True),
    "Qchem_site_yr_used": FacilityFigure(
        "Use of the precursor per site a year (the daily use rate × the operating days)", "kg/site-yr"),
    # The ESD's default, as entered, from the fill mass or from the compressibility factor.
    "RHOformulation": FacilityFigure("Density of the precursor as received", "kg/L", step="RHOformulation",
                                     by_equation=True),
    "density_basis": FacilityFigure("Where the density of the precursor comes from", ""),
    "T_r": computed_by(eq.reduced_temperature),
    "P_r": computed_by(eq.reduced_pressure),
    "Vmolar": computed_by(eq.molar_volume),
    "Ncontainer_unload_site_yr_unrounded": computed_by(eq.containers_unloaded_per_site_year,
                                                       step="Ncontainer_unload_site_yr_unrounded"),
    "Ncontainer_unload_site_yr": computed_by(eq.whole_containers),
    **_both_ends(eq.release_to_pou_control, "Elocal_control"),
    **_both_ends(eq.precursor_consumed, "Qconsumed"),
    "EF": entered(PARAM_SET["EF"], step="EF", basis="EF_basis"),
    "EF_basis": FacilityFigure("Where the efficiency of the POU abatement comes from", ""),
    "Nworkers_site": entered(PARAM_SET["Nworkers_site"]),
    "worker_exposure_fab": FacilityFigure("Worker exposure at the fab", ""),
    "supplier/Nsites_supplier": entered(PARAM_SET["Nsites_supplier"]),
    "supplier/TIME_operating_days_supplier": entered(PARAM_SET["TIME_operating_days_supplier"]),
    "supplier/Ncontainer_supplier_site_yr": computed_by(eqs.supplier_containers_per_site_year),
    "supplier/residue_equation": FacilityFigure(
        "Equation of the container-residue release at the supplier (Release 2, App. C)", ""),
    "supplier/containers_per_day": FacilityFigure("Containers cleaned a day at one supplier site",
                                                  "containers/site-day"),
    "supplier/volatility": FacilityFigure("Volatility of the precursor (App. C and D)", ""),
    "supplier/Nworkers_supplier": entered(PARAM_SET["Nworkers_supplier"]),
    "supplier/TIME_activity_hours": computed_by(eqs.activity_hours),
    "supplier/Cv_chem": computed_by(eqs.analogue_airborne_concentration),
    "supplier/Q_NF": computed_by(eqs.near_field_ventilation_rate),
    "supplier/G_air": computed_by(eqs.generation_rate),
}


def facility_estimates(calc: Calc, v: Mapping[str, Any], warnings: list[str],
                       notes: list[str]) -> dict[str, Any]:
    """Eqn 3-1, Eqn 3-2 (or the known number of sites) and the daily use for those sites."""
    days = v["TIME_operating_days"]
    q_eq31 = calc(eq.daily_use_rate, symbol="Qchem_site_day_eqn_3_1",
                  Qchem_site_yr=v["Qchem_site_yr"], TIME_operating_days=days)
    if not Q_CHEM_SITE_YR_LOW <= v["Qchem_site_yr"] <= Q_CHEM_SITE_YR:
        warnings.append(
            f"Qchem_site_yr ({figure(v['Qchem_site_yr'])} kg/site-yr) is outside the ESD's range "
            f"of {given(Q_CHEM_SITE_YR_LOW)} to {Q_CHEM_SITE_YR:,.0f} kg/site-yr (ESD 2015 §3.5 ¶41)"
        )
    facility: dict[str, Any] = {"TIME_operating_days": days, "Qchem_site_day_eqn_3_1": q_eq31}
    if v["Nsites"] is None:
        n_raw = calc(eq.number_of_sites, symbol="Nsites_unrounded", Qchem_yr=v["Qchem_yr"],
                     Fcontainer_disp=v["Fcontainer_disp"], Qchem_site_day=q_eq31, TIME_operating_days=days)
        n_sites = calc(eq.whole_sites, Nsites_unrounded=n_raw)
        facility.update(Nsites_unrounded=n_raw, Nsites_basis="Eqn 3-2, rounded up")
    else:
        n_sites = v["Nsites"]
        facility.update(Nsites_unrounded=None, Nsites_basis="known (entered)")
    if n_sites > N_US_FABS:
        warnings.append(
            f"Nsites ({n_sites}) exceeds the {N_US_FABS} US semiconductor facilities "
            "(ESD 2015 §3.6 ¶45, Table 3-2): enter a larger Qchem_site_yr or a known Nsites"
        )
    if v["Qchem_site_day_basis"] == RECALCULATED:
        q_day = calc(eq.daily_use_rate_for_sites, Fcontainer_disp=v["Fcontainer_disp"], Qchem_yr=v["Qchem_yr"],
                     Nsites=n_sites, TIME_operating_days=days)
        notes.append(
            "Daily use recalculated for the whole number of sites with the ESD's §3.6 "
            "summary-box equation, (1 − Fcontainer_disp) × Qchem_yr / (Nsites × days); "
            "footnote 9 prints it without (1 − Fcontainer_disp). Eqn 3-1 gave "
            f"{figure(q_eq31)} kg/site-day (EPA recommends comparing the two, §3.6)."
        )
    else:
        q_day = calc(eq.kept_daily_use_rate, Qchem_site_day_eqn_3_1=q_eq31)
        available = available_to_sites(v)
        used = q_day * n_sites * days
        if used > available * (1 + 1e-9):
            warnings.append(
                f"With the Eqn 3-1 daily use kept, {count(n_sites, 'site')} would use {figure(used)} kg/yr, more "
                f"than the {figure(available)} kg/yr available after container residue (Eqn 3-2); "
                "the ESD recalculates the daily use (§3.6 footnote 9)"
            )
    site_year = q_day * days
    if site_year > Q_CHEM_SITE_YR * (1 + 1e-9) and v["Nsites"] is not None:
        warnings.append(
            f"The known Nsites gives {figure(site_year)} kg/site-yr, above the ESD's range of up "
            f"to {Q_CHEM_SITE_YR:,.0f} kg/site-yr (ESD 2015 §3.5 ¶41-42)"
        )
    facility.update(Nsites=n_sites, Qchem_site_day=q_day, Qchem_site_yr_used=site_year)
    return facility


def available_to_sites(v: Mapping[str, Any]) -> float:
    """What Eqn 3-2 divides among the sites: the production volume less the container
    residue that returns to the supplier unused (§3.6 ¶43) [kg/yr]."""
    return float(v["Qchem_yr"] * (1.0 - v["Fcontainer_disp"]))


def density(calc: Calc, v: Mapping[str, Any], facility: dict[str, Any]) -> float:
    """The density of the precursor in its container (§3.7, App. B), with T_r and P_r."""
    method = v["density_method"]
    state = v["physical_state"]
    if v["Tc"] is not None:
        facility["T_r"] = calc(eq.reduced_temperature, T=v["T"], Tc=v["Tc"], note="to read z from Figure B-1")
    if v["Pc"] is not None:
        facility["P_r"] = calc(eq.reduced_pressure, P=v["P"], Pc=v["Pc"], note="to read z from Figure B-1")
    if method == FILL_MASS:
        rho = calc(eq.density_from_fill_mass, m=v["m_container"], Vcontainer=v["Vcontainer"])
        basis = "fill mass / container volume (Eqn B-1)"
    elif method == COMPRESSIBILITY:
        mw_kg = calc(eq.molecular_weight_kg_mol, MW_chem=v["MW_chem"])
        facility["Vmolar"] = calc(eq.molar_volume, z=v["z"], R=R_GAS, T=v["T"], P=v["P"])
        rho = calc(eq.density_from_compressibility, MW=mw_kg, P=v["P"], z=v["z"], R=R_GAS, T=v["T"])
        basis = f"compressibility factor z = {given(v['z'])} from Figure B-1 (Eqn B-2)"
    elif v["RHOformulation"] is not None:
        rho = calc.given("RHOformulation", v["RHOformulation"], "kg/L", "entered", "reviewer (chemical-specific)",
                         label=PARAM_SET["RHOformulation"].label)
        basis = "entered (chemical-specific)"
    else:
        source = (f"{DOC} §3.7 footnote 11, App. B Method 1 (trimethylsilane)" if state == "gas"
                  else f"{DOC} §3.7, App. B (water)")
        rho = calc.given("RHOformulation", RHO_GAS if state == "gas" else RHO_LIQUID, "kg/L",
                         f"ESD default for a {state}", source, label=PARAM_SET["RHOformulation"].label)
        basis = f"ESD default for a {state}"
    facility.update(RHOformulation=rho, density_basis=basis)
    return rho


def containers(calc: Calc, v: Mapping[str, Any], facility: dict[str, Any], rho: float) -> int:
    """Eqn 3-3 in its Table A-1 form, rounded up (decisions 3 and 4)."""
    n_raw = calc(eq.containers_unloaded_per_site_year, symbol="Ncontainer_unload_site_yr_unrounded",
                 Qchem_site_day=facility["Qchem_site_day"], TIME_operating_days=v["TIME_operating_days"],
                 Fchem=v["Fchem"], Vcontainer=v["Vcontainer"], RHOformulation=rho)
    facility["Ncontainer_unload_site_yr_unrounded"] = n_raw
    whole = calc(eq.whole_containers, Ncontainer_unload_site_yr_unrounded=n_raw)
    facility["Ncontainer_unload_site_yr"] = whole
    return whole
