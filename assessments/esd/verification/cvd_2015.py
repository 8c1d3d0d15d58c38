"""The CVD ESD's printed figures: Section 6, Appendix B (Method 1, Table B-1), Appendix C and
D sample calculations and Table C-3.

OECD ESD No. 35, Chemical Vapour Deposition in the Semiconductor Industry, ENV/JM/MONO(2015)5
(seed ``004_0329b8505f36c53a``; catalogue spec/esd-cvd-2015.md §7 and §10). ¶ are the
document's numbered paragraphs. Section 6 assumes 10,000 kg/yr of a pure liquid precursor
and works with the Eqn 3-1 daily use rate (¶78, 2.8 kg/site-day, kept after the sites are
found) and Fcontainer_disp = 0.006 (¶79): the engine's presets 'esd-2015-section-6' and
'-gas' carry exactly these choices (the stated default is 0.1: §3.6, Table A-4). The
document rounds 2.78 to 2.8 and 1.2236 ppm to 1.22 and carries the rounded values into the
next equations; the engine carries full precision, hence the notes on the chained figures.
"""

from __future__ import annotations

from typing import Any

from ..cvd import CVD_2015, HCFC22_CONCENTRATIONS_PPM, percentile
from .sources import NOT_COMPUTED, Document, Equation, Figure, Run, Source

DOCUMENT = Document(
    "cvd-2015",
    "CVD ESD 2015",
    "OECD ESD No. 35, Chemical Vapour Deposition in the Semiconductor Industry (2015), ENV/JM/MONO(2015)5",
)

#: ¶76: "Precursor chemical production volume (Qchem_yr) is 10,000 kg chemical/yr".
GIVEN = {"Qchem_yr": 10000}
SECTION_6 = Run(CVD_2015, GIVEN, preset="esd-2015-section-6")
#: ¶83: critical temperature 132 °C, critical pressure 112.8 bar, MW 32 g/mol; ¶83-84: z ~ 0.15.
SECTION_6_GAS = Run(CVD_2015, GIVEN, preset="esd-2015-section-6-gas")
#: App. B Method 1: trimethylsilane, 26 kg in a 49.8-L X49S cylinder.
METHOD_1 = Run(CVD_2015, {**GIVEN, "physical_state": "gas", "density_method": "fill_mass",
                          "m_container": 26, "Vcontainer": 49.8})
#: App. C and D samples: VP 2,000 torr, mole fraction 1, MW 100 g/mol, at the supplier site.
APPENDIX_C_D = Run(CVD_2015, GIVEN, preset="esd-2015-appendix-c-d")


def _figure(section: str, quantity: str, printed: str, source: Source, **more: Any) -> Figure:
    return Figure(DOCUMENT, section, quantity, printed, source, **more)


_CHAINED_2_8 = (
    "The document's own rounding: ¶78 rounds Eqn 3-1's 1,000/360 = 2.78 kg/site-day to 2.8 and ¶86 "
    "carries 2.8: 2.8 × (1 − 0.3) = 1.96, printed 2.0. From the unrounded 2.78 (the ESD's Eqn 3-1 and "
    "default Qchem_site_yr 1,000 kg/site-yr, ¶78) Eqn 4-1 gives 1.94 (1.9); the engine carries full precision."
)
_CHAINED_1_22 = (
    "The document's own rounding: the App. C sample rounds Eqn C-2's 4.8 × 2,000/7,846 = 1.2236 ppm to "
    "1.22 ppm and carries 1.22 into Eqn C-4{more}. From the unrounded 1.2236 ppm the engine gets {engine}."
)
_NO_CRITICAL_CONSTANTS = (
    "Not reproducible from the document: Table B-1 (App. B) prints the reduced {what} of {chemical} but "
    "not the critical {constant} it divides by (Eqn B-3); the engine computes it (facility {symbol}) "
    "only from an entered {constant}, and the ESD gives one for its §6.1.4.2 example only (¶83)."
)


def _table_b_1(chemical: str, z: float, mw: float, reduced: tuple[str, str], molar_volume: str, density: str,
               critical: Run | None = None, density_note: str = "") -> tuple[Figure, ...]:
    """One row of Table B-1 ("Compressibility Factor and Density of Several Common CVD
    Precursors at 103 bar and 293 K"): Eqn B-3 where the ESD gives the critical constants
    (``critical``: a run that has them), Eqn B-2 with the row's printed z and MW."""
    run = Run(CVD_2015, {**GIVEN, "physical_state": "gas", "density_method": "compressibility",
                         "z": z, "MW_chem": mw})
    section = f"App. B, Table B-1 ({chemical})"
    t_r, p_r = reduced
    if critical is not None:
        remark = "The §6.1.4.2 example's precursor (T_c = 132 °C, P_c = 112.8 bar, ¶83)."
        rows = [_figure(section, "Reduced temperature, T_r = T/T_c", t_r, critical.facility("T_r"), remark=remark),
                _figure(section, "Reduced pressure, P_r = P/P_c", p_r, critical.facility("P_r"), remark=remark)]
    else:
        rows = [
            _figure(section, "Reduced temperature, T_r = T/T_c", t_r, NOT_COMPUTED,
                    note=_NO_CRITICAL_CONSTANTS.format(what="temperature", chemical=chemical,
                                                       constant="temperature T_c", symbol="T_r")),
            _figure(section, "Reduced pressure, P_r = P/P_c", p_r, NOT_COMPUTED,
                    note=_NO_CRITICAL_CONSTANTS.format(what="pressure", chemical=chemical,
                                                       constant="pressure P_c", symbol="P_r")),
        ]
    rows += [
        _figure(section, "Molar volume, Ṽ = z·R·T/P [L/mol]", molar_volume, run.facility("Vmolar")),
        _figure(section, "Density of the compressed gas, ρ = MW/Ṽ [kg/L]", density, run.facility("RHOformulation"),
                note=density_note),
    ]
    return tuple(rows)


FIGURES = (
    # --- §6.1 General facility estimates ----------------------------------------------------
    _figure("§6.1.1 ¶77", "Days of operation, TIME_operating_days [days/yr]", "360",
            SECTION_6.facility("TIME_operating_days"), count=True),
    _figure("§6.1.2 ¶78, Eqn 3-1", "Daily use rate of the precursor, Qchem_site_day [kg/site-day]", "2.8",
            SECTION_6.facility("Qchem_site_day_eqn_3_1")),
    _figure("§6.1.3 ¶79, Eqn 3-2", "Number of sites, Nsites", "10", SECTION_6.facility("Nsites"), count=True,
            remark=("The example uses Fcontainer_disp = 0.006 where §3.6, Table A-4 and App. C state 0.1 "
                    "(with 0.1: 9 sites); the engine's preset follows the example, and ¶80 agrees with the "
                    "assumed 10 end-use sites.")),
    _figure("§6.1.4.1 ¶81, Eqn 3-3", "Containers unloaded per site-year, liquid, N_container_unload_site_yr",
            "17", SECTION_6.facility("Ncontainer_unload_site_yr"), count=True),
    _figure("§6.1.4.2 ¶83, Eqn B-3", "Reduced temperature, T_r = 293 K / (132 + 273) K", "0.72",
            SECTION_6_GAS.facility("T_r"), remark='The ESD labels Eqn B-3 "C-3" here.'),
    _figure("§6.1.4.2 ¶83, Eqn B-3", "Reduced pressure, P_r = 103 bar / 112.8 bar", "0.91",
            SECTION_6_GAS.facility("P_r")),
    _figure("§6.1.4.2 ¶84, Eqn B-2", "Density of the compressed gas, ρ_formulation [kg/L]", "0.90",
            SECTION_6_GAS.facility("RHOformulation"), remark='The ESD labels Eqn B-2 "C-2" here.'),
    _figure("§6.1.4.2 ¶85, Eqn 3-3", "Containers unloaded per site-year, gas, N_container_unload_site_yr", "~19",
            SECTION_6_GAS.facility("Ncontainer_unload_site_yr"), count=True,
            remark="Rounded up, as the sites are: 18.3 from the unrounded 2.78 kg/site-day (18.5 from the ESD's 2.8)."),
    # --- §6.2.1 Release 1 -------------------------------------------------------------------
    _figure("§6.2.1 ¶86, Eqn 4-1", "Precursor to POU abatement at U_process = 0.5, Elocal_control [kg/site-day]",
            "1.4", SECTION_6.facility("Elocal_control_low_end")),
    _figure("§6.2.1 ¶86, Eqn 4-1", "Precursor to POU abatement at U_process = 0.3, Elocal_control [kg/site-day]",
            "2.0", SECTION_6.facility("Elocal_control_high_end"), note=_CHAINED_2_8),
    _figure("§6.2.1 ¶87, Eqn 4-2", "Release 1 after POU abatement, low end, Elocal_process_disp [kg/site-day]",
            "0.014", SECTION_6.release(1, label="low end")),
    _figure("§6.2.1 ¶87, Eqn 4-2", "Release 1 after POU abatement, high end, Elocal_process_disp [kg/site-day]",
            "0.02", SECTION_6.release(1, label="high end"),
            remark="The document's 2.0 × 0.01 = 0.02; the engine's 0.0194 also reads 0.02 at the printed precision."),
    _figure("§6.2.1 ¶88", "Release 1, days of release [days/yr]", "360",
            SECTION_6.release(1, "days_per_year", label="high end"), count=True),
    _figure("§6.2.1 ¶88", "Release 1, sites releasing", "10", SECTION_6.release(1, "sites", label="high end"),
            count=True),
    # --- Appendix B -------------------------------------------------------------------------
    _figure("App. B, Method 1, Eqn B-1", "Density of trimethylsilane, 26 kg / 49.8 L [kg/L]", "0.52",
            METHOD_1.facility("RHOformulation")),
    *_table_b_1("NH₃", 0.15, 32, ("0.72", "0.91"), "0.035", "0.90", critical=SECTION_6_GAS),
    *_table_b_1("PH₃", 0.21, 33.4, ("0.90", "1.58"), "0.050", "0.66", density_note=(
        "A contradiction within Table B-1: at its stated 103 bar and 293 K, its own z (0.21) and MW (33.4 "
        "g/mol) give ρ = 0.0334 × 103 / (0.21 × 0.08314 × 293) = 0.672 kg/L (0.668 from the printed molar "
        "volume 0.050); the printed 0.66 is what Eqn B-2 gives at 298 K (0.661).")),
    *_table_b_1("WF₆", 0.32, 297.8, ("0.66", "2.41"), "0.076", "3.92", density_note=(
        "The document's own rounding: Table B-1 divides the MW by its printed, rounded molar volume "
        "(0.2978 / 0.076 = 3.918, printed 3.92); from the unrounded 0.07568 L/mol Eqn B-2 gives 3.935 "
        "(3.93).")),
    *_table_b_1("SiH₄", 0.40, 32.1, ("1.09", "2.13"), "0.095", "0.34"),
    *_table_b_1("(CH₃)₃SiH", 0.46, 74.2, ("0.68", "3.30"), "0.109", "0.68"),
    # --- Appendix C sample calculations (supplier site) -------------------------------------
    _figure("App. C, sample calculation, Eqn C-1a", "Container residue at the supplier, "
            "Elocal_container_residue_disp [kg/site-day]", "6.06", APPENDIX_C_D.release(2),
            remark=("The engine's Release 2 is the residue less what evaporates from it as Release 3 "
                    "(1.9E-4 kg/site-day), 6.0598: still 6.06.")),
    _figure("App. C, sample calculation, Eqn C-2", "Airborne concentration by analogy with HCFC-22, "
            "C_v,chem [ppm]", "1.22", APPENDIX_C_D.facility("supplier.Cv_chem")),
    _figure("App. C, sample calculation, Eqn C-3", "Near-field ventilation rate, Q_NF [ft³/min]", "2,391",
            APPENDIX_C_D.facility("supplier.Q_NF")),
    _figure("App. C, sample calculation, Eqn C-4", "Vapour generation rate, G_air [kg/s]", "3.13E-6",
            APPENDIX_C_D.facility("supplier.G_air"),
            note=_CHAINED_1_22.format(more="", engine="3.142E-6 kg/s (3.14E-6)")),
    _figure("App. C, sample calculation, Eqn C-5", "Air release during container cleaning, "
            "Elocal_air_cleaning [kg/site-day]", "1.88E-4", APPENDIX_C_D.release(3),
            note=_CHAINED_1_22.format(more=" and the rounded 3.13E-6 kg/s into Eqn C-5",
                                      engine="G_air = 3.142E-6 kg/s and 1.885E-4 kg/site-day (1.89E-4)")),
    # --- Appendix D sample calculation --------------------------------------------------------
    _figure("App. D, sample calculation, Eqn D-1", "Inhalation exposure during container cleaning, "
            "EXP_inhalation [mg/day]", "0.1", APPENDIX_C_D.exposure("A", label="high end", route="inhalation"),
            remark=("The sample uses TIME_exposure = 0.016 hr/day (one container at 60 an hour) against the "
                    "stated default of 8 hr/day; the engine's default is that container-handling time "
                    "(1/60 hr): 0.104 mg/day.")),
    _figure("App. D", "Workers exposed at the supplier site", "4",
            APPENDIX_C_D.exposure("A", field_name="workers_per_site", route="inhalation"), count=True),
    # --- Table C-3 ---------------------------------------------------------------------------
    _figure("App. C, Table C-3", "90th percentile of the HCFC-22 container-handling data, C_v,k [ppm]", "4.8",
            Equation(percentile, (HCFC22_CONCENTRATIONS_PPM, 90))),
)
