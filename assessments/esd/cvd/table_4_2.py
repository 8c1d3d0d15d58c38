"""ESD 2015 Table 4-2: compound removal efficiencies of POU control technologies
(SEMATECH 1997), the precursor and fed reactant-gas entries.

Each row keeps the entry as printed; :func:`efficiency_from_printed` says which fraction
the engine takes from it (package docstring, decision 10). Only precursors and fed reactant
gases are offered, not by-products (HF, SiF4), chamber-cleaning gases (ClF3) or carrier
gases.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AbatementEfficiency:
    """One row of ESD 2015 Table 4-2, with the efficiency the engine takes from it."""

    key: str
    process: str
    technology: str
    compound: str
    printed: str

    @property
    def efficiency(self) -> float:
        return efficiency_from_printed(self.printed)

    @property
    def label(self) -> str:
        return f"{self.process}; {self.technology}; {self.compound}: {self.printed}"

    @property
    def option_text(self) -> str:
        """The row under its process's heading: technology, compound and the printed efficiency."""
        return f"{self.technology}; {self.compound}: {self.printed}"


def efficiency_from_printed(printed: str) -> float:
    """The removal efficiency a Table 4-2 entry stands for, as a fraction [kg/kg].

    ">x%" → x/100 (the bound); "a – b%" → a/100 (the lower end); "x%" → x/100

    Parameters
    ----------
    printed : the entry as printed, e.g. ">99.9%", "55 – 99%", "0 – 96%*"

    Notes
    -----
    ESD 2015, Table 4-2 (§4.1, p.32 ff.; SEMATECH 1997). The bound and the lower end give the
    larger release (conservative); the phosphine "0 – 96%*" footnote expects "minimal
    removal". Package docstring, decision 10.

    >>> efficiency_from_printed(">99.9%"), efficiency_from_printed("55 – 99%")
    (0.999, 0.55)
    """
    text = printed.replace("*", "").replace("%", "").replace(">", "").strip()
    low = text.replace("–", "-").split("-")[0].strip()
    return round(float(low) / 100.0, 6)


_PROCESSES = {
    "epi-h2-vented": "Silicon EPI with dopants (hydrogen vented)",
    "epi-h2-abated": "Silicon EPI with dopants (hydrogen abated)",
    "poly": "Poly deposition, non-PFC clean",
    "doped-poly": "Doped poly deposition",
    "nitride-silane": "Nitride deposition with silane; PFC clean",
    "nitride-dcs": "Nitride deposition with dichlorosilane; PFC clean",
    "oxide": "Oxide deposition; PFC clean",
    "tungsten": "Tungsten deposition; PFC clean",
    "bpsg": "BPSG oxide deposition",
}
_TECHNOLOGIES = {
    "wet-scrub-no-chem": "Wet scrubbing (without chemical addition)",
    "oxid-h2-wet": "Oxidation with hydrogen present/wet scrubbing",
    "cold-bed": "Cold bed",
    "oxid-electric-wet": "Oxidation using electric/wet scrubbing",
    "oxid-fuel-cold-bed": "Oxidation using fuel (for dep. only); cold bed (for clean only)",
    "oxid-fuel": "Oxidation using fuel",
    "oxid-fuel-wet": "Oxidation using fuel/wet scrubbing",
    "pre-pump": "Pre-pump reactor",
    "wet-scrub-chem": "Wet scrubbing (with chemical addition)",
    "wet-scrub": "Wet scrubbing (with or without chemical addition)",
    "hot-bed": "Hot chemical bed",
    "hot-bed-nh3": "Hot chemical bed / ammonia control system",
}
_COMPOUNDS = {
    "silane": "Silane",
    "phosphine": "Phosphine",
    "diborane": "Diborane",
    "dichlorosilane": "Dichlorosilane",
    "ammonia": "Ammonia",
    "sicl4": "Silicon tetrachloride",
    "wf6": "Tungsten hexafluoride",
    "n2o": "Nitrous oxide",
}

# (process, technology, compound, printed), in the order Table 4-2 prints them. P3/P4's
# slid labels (see the catalogue) do not change any of these precursor entries.
_TABLE_4_2_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("epi-h2-vented", "wet-scrub-no-chem", "diborane", ">98%"),
    ("epi-h2-vented", "wet-scrub-no-chem", "dichlorosilane", ">99.9%"),
    ("epi-h2-vented", "wet-scrub-no-chem", "phosphine", "0 – 96%*"),
    ("epi-h2-abated", "oxid-h2-wet", "diborane", ">99%"),
    ("epi-h2-abated", "oxid-h2-wet", "dichlorosilane", ">99.9%"),
    ("epi-h2-abated", "oxid-h2-wet", "phosphine", ">99%"),
    ("poly", "cold-bed", "silane", ">99%"),
    ("poly", "cold-bed", "sicl4", ">99%"),
    ("poly", "oxid-electric-wet", "silane", ">99.9%"),
    ("poly", "oxid-electric-wet", "sicl4", ">99%"),
    ("poly", "oxid-fuel-cold-bed", "silane", ">99%"),
    ("poly", "oxid-fuel-cold-bed", "sicl4", ">99%"),
    ("poly", "oxid-fuel-wet", "silane", ">99.9%"),
    ("poly", "oxid-fuel-wet", "sicl4", ">99%"),
    ("poly", "pre-pump", "silane", ">99%"),
    ("poly", "pre-pump", "sicl4", "0%"),
    ("poly", "wet-scrub-chem", "silane", ">80%"),
    ("poly", "wet-scrub-chem", "sicl4", ">99%"),
    ("doped-poly", "cold-bed", "phosphine", ">99%"),
    ("doped-poly", "cold-bed", "silane", ">99%"),
    ("doped-poly", "oxid-electric-wet", "phosphine", ">99%"),
    ("doped-poly", "oxid-electric-wet", "silane", ">99.9%"),
    ("doped-poly", "oxid-fuel", "phosphine", ">99%"),
    ("doped-poly", "oxid-fuel", "silane", ">99%"),
    ("doped-poly", "oxid-fuel-wet", "phosphine", ">99.9%"),
    ("doped-poly", "oxid-fuel-wet", "silane", ">99.9%"),
    ("doped-poly", "pre-pump", "phosphine", ">99%"),
    ("doped-poly", "pre-pump", "silane", ">99%"),
    ("doped-poly", "wet-scrub-chem", "phosphine", "0%"),
    ("doped-poly", "wet-scrub-chem", "silane", "80%"),
    ("nitride-silane", "cold-bed", "ammonia", ">99%"),
    ("nitride-silane", "cold-bed", "silane", ">99%"),
    ("nitride-silane", "oxid-electric-wet", "ammonia", ">99.9%"),
    ("nitride-silane", "oxid-electric-wet", "silane", ">99.9%"),
    ("nitride-silane", "oxid-fuel-wet", "ammonia", ">99%"),
    ("nitride-silane", "oxid-fuel-wet", "silane", ">98%"),
    ("nitride-silane", "pre-pump", "ammonia", "55 – 99%"),
    ("nitride-silane", "pre-pump", "silane", ">99%"),
    ("nitride-silane", "wet-scrub-chem", "ammonia", ">99%"),
    ("nitride-silane", "wet-scrub-chem", "silane", "80%"),
    ("nitride-dcs", "cold-bed", "ammonia", ">99%"),
    ("nitride-dcs", "cold-bed", "dichlorosilane", ">99%"),
    ("nitride-dcs", "hot-bed-nh3", "ammonia", ">99.9%"),
    ("nitride-dcs", "hot-bed-nh3", "dichlorosilane", ">99.9%"),
    ("nitride-dcs", "oxid-electric-wet", "ammonia", ">99.9%"),
    ("nitride-dcs", "oxid-electric-wet", "dichlorosilane", ">99%"),
    ("nitride-dcs", "pre-pump", "ammonia", "55 – 99%"),
    ("nitride-dcs", "pre-pump", "dichlorosilane", ">99%"),
    ("nitride-dcs", "wet-scrub-chem", "ammonia", ">99%"),
    ("nitride-dcs", "wet-scrub-chem", "dichlorosilane", ">99.9%"),
    ("oxide", "cold-bed", "silane", ">99%"),
    ("oxide", "hot-bed", "silane", ">99.9%"),
    ("oxide", "oxid-electric-wet", "n2o", ">50%"),
    ("oxide", "oxid-electric-wet", "silane", ">99.9%"),
    ("oxide", "oxid-fuel", "silane", ">98%"),
    ("oxide", "pre-pump", "n2o", "28%"),
    ("oxide", "pre-pump", "silane", ">99%"),
    ("oxide", "wet-scrub-chem", "n2o", "0%"),
    ("oxide", "wet-scrub-chem", "silane", "80%"),
    ("tungsten", "cold-bed", "silane", ">99%"),
    ("tungsten", "cold-bed", "wf6", ">99%"),
    ("tungsten", "hot-bed", "silane", ">99%"),
    ("tungsten", "hot-bed", "wf6", ">99.9%"),
    ("tungsten", "oxid-electric-wet", "silane", ">95%"),
    ("tungsten", "oxid-electric-wet", "wf6", ">99.9%"),
    ("tungsten", "oxid-fuel-wet", "silane", ">99%"),
    ("tungsten", "oxid-fuel-wet", "wf6", ">99%"),
    ("tungsten", "pre-pump", "silane", ">99%"),
    ("tungsten", "pre-pump", "wf6", "99%"),
    ("tungsten", "wet-scrub", "silane", "80%"),
    ("tungsten", "wet-scrub", "wf6", "99%"),
    ("bpsg", "cold-bed", "diborane", ">99%"),
    ("bpsg", "cold-bed", "phosphine", ">99%"),
    ("bpsg", "cold-bed", "silane", ">99%"),
    ("bpsg", "hot-bed", "diborane", ">99.9%"),
    ("bpsg", "hot-bed", "phosphine", ">99.9%"),
    ("bpsg", "hot-bed", "silane", ">99.9%"),
    ("bpsg", "oxid-electric-wet", "diborane", ">99%"),
    ("bpsg", "oxid-electric-wet", "n2o", ">41%"),
    ("bpsg", "oxid-electric-wet", "phosphine", ">99%"),
    ("bpsg", "oxid-electric-wet", "silane", ">99.9%"),
    ("bpsg", "oxid-fuel", "diborane", ">96%"),
    ("bpsg", "oxid-fuel", "phosphine", ">92%"),
    ("bpsg", "oxid-fuel", "silane", ">95%"),
    ("bpsg", "oxid-fuel-wet", "diborane", ">99%"),
    ("bpsg", "oxid-fuel-wet", "n2o", ">99%"),
    ("bpsg", "oxid-fuel-wet", "phosphine", ">99%"),
    ("bpsg", "oxid-fuel-wet", "silane", ">99.9%"),
    ("bpsg", "pre-pump", "diborane", ">99%"),
    ("bpsg", "pre-pump", "n2o", "28%"),
    ("bpsg", "pre-pump", "phosphine", ">99%"),
    ("bpsg", "pre-pump", "silane", ">99%"),
    ("bpsg", "wet-scrub", "diborane", "99%"),
    ("bpsg", "wet-scrub", "n2o", "0%"),
    ("bpsg", "wet-scrub", "phosphine", "0%"),
    ("bpsg", "wet-scrub", "silane", "80%"),
)

#: ESD 2015 Table 4-2, precursor and reactant-gas entries, keyed "process/technology/compound".
TABLE_4_2: dict[str, AbatementEfficiency] = {
    f"{p}/{t}/{c}": AbatementEfficiency(
        f"{p}/{t}/{c}", _PROCESSES[p], _TECHNOLOGIES[t], _COMPOUNDS[c], printed
    )
    for p, t, c, printed in _TABLE_4_2_ROWS
}
