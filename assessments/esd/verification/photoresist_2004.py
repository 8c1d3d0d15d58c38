"""The 2004 photoresist ESD's printed figures: Table 3-1 and the worked example of Section 4.

OECD ESD on Photoresist Use in Semiconductor Manufacturing, ENV/JM/MONO(2004)14 (seed
``003_f5cab2c3bf65f497``; catalogue spec/esd-photoresist-2004.md §6 and §7). Pages are
the document's. Table 3-1 (p. 11) prints the daily and annual photoresist use of three
example facilities; Section 4 (¶64, pp. 18-20) works the equations of Section 3 for
Qchem_yr = 5,000 kg/yr at 15 % in the photoresist, with the large-scale defaults.
"""

from __future__ import annotations

from typing import Any

from ..photoresist import PHOTORESIST_2004
from .sources import NOT_COMPUTED, Document, Figure, Run, Source

DOCUMENT = Document(
    "photoresist-2004",
    "Photoresist ESD 2004",
    "OECD ESD on Photoresist Use in Semiconductor Manufacturing, 2004 edition, ENV/JM/MONO(2004)14",
)

#: ¶64, p. 18: "Chemical of interest production volume (Qchem_yr) is 5,000 kg/yr";
#: "Chemical of interest is 15% by weight in the photoresist formulation".
GIVEN = {"Qchem_yr": 5000, "Fchem": 0.15}
EXAMPLE = Run(PHOTORESIST_2004, GIVEN)
NICHE = Run(PHOTORESIST_2004, GIVEN, preset="niche")
LARGE_LOW = Run(PHOTORESIST_2004, GIVEN, preset="large-low")
LARGE_HIGH = Run(PHOTORESIST_2004, GIVEN, preset="large-high")

_QPHOTO_YR = (
    "The engine does not compute the annual photoresist use Qphoto_yr: ¶41 (p. 11) defines "
    "it (Qphoto_day × TIMEapply_days) for Table 3-1 only, and no equation of the edition uses "
    "it. The engine reports both factors (facility Qphoto_day and TIMEapply_days); their "
    "product by hand is the printed {product}."
)


def _figure(section: str, quantity: str, printed: str, source: Source, **more: Any) -> Figure:
    return Figure(DOCUMENT, section, quantity, printed, source, **more)


FIGURES = (
    # --- Table 3-1 (p. 11): Eqn 3-1 for three example facilities ---------------------------
    _figure("Table 3-1, p. 11 (niche)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "10",
            NICHE.facility("Qphoto_day")),
    _figure("Table 3-1, p. 11 (large scale, low end)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]",
            "33", LARGE_LOW.facility("Qphoto_day")),
    _figure("Table 3-1, p. 11 (large scale, high end)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]",
            "36", LARGE_HIGH.facility("Qphoto_day"),
            # The text the engine was built from prints this row's Qapply as "15".
            remark="This row dispenses 1.5 mL an application (1,000 × 24 × 1.5 / 1,000 = 36)."),
    _figure("Table 3-1, p. 11 (niche)", "Annual use rate of photoresist, Qphoto_yr [kg/site-yr]", "2,500",
            NOT_COMPUTED, note=_QPHOTO_YR.format(product="10 × 250 = 2,500")),
    _figure("Table 3-1, p. 11 (large scale, low end)", "Annual use rate of photoresist, Qphoto_yr [kg/site-yr]",
            "9,900", NOT_COMPUTED, note=_QPHOTO_YR.format(product="33 × 300 = 9,900")),
    _figure("Table 3-1, p. 11 (large scale, high end)", "Annual use rate of photoresist, Qphoto_yr [kg/site-yr]",
            "12,960", NOT_COMPUTED, note=_QPHOTO_YR.format(product="36 × 360 = 12,960")),
    # --- Section 4, ¶64: general facility estimates (p. 18) --------------------------------
    _figure("§4 ¶64, p. 18 (Table 3-1 default)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "36",
            EXAMPLE.facility("Qphoto_day")),
    _figure("§4 ¶64, p. 18 (Table 3-1 default)", "Days of photoresist application, TIMEapply_days [days/yr]",
            "360", EXAMPLE.facility("TIMEapply_days"), count=True),
    _figure("§4 ¶64, Eqn 3-2, p. 18", "Daily use rate of the chemical, Qchem_day [kg/site-day]", "5.4",
            EXAMPLE.facility("Qchem_day")),
    _figure("§4 ¶64, Eqn 3-3, p. 18", "Number of sites, Nsites", "blsites", EXAMPLE.facility("Nsites"),
            note=("Illegible: Eqn 3-3's result on p. 18 cannot be read. By hand "
                  "(1 − 0.006) × 5,000 / (5.4 × 360) = 2.56; the engine counts whole sites, 3, as the "
                  "2010 revision's example does with the same numbers (ESD 2010 §6.1.4: \"2.6 sites\", "
                  "\"3 manufacturing sites\"), and keeps Qchem_day = 5.4 as every later step of p. 18-19 does."),
            count=True),
    # --- releases (pp. 18-19) --------------------------------------------------------------
    _figure("§4 ¶64, Eqn 3-4, p. 18", "Container residue release, Elocalcontainer_residue_disp [kg/site-day]",
            "0.032", EXAMPLE.release(1)),
    _figure("§4 ¶64, Eqn 3-5, p. 19", "Equipment cleaning release, Elocalequip_disp [kg/site-day]", "0.054",
            EXAMPLE.release(2)),  # read as 0.054 (the text the engine was built from runs it as "0054")
    _figure("§4 ¶64, Eqn 3-6, p. 19", "Spin-off release at Fphoto_wafer = 0.07, Elocalexcess_disp [kg/site-day]",
            "4.9", EXAMPLE.release(3, label="low end"), remark="Printed as the range 4.9 to 5.3."),
    _figure("§4 ¶64, Eqn 3-6, p. 19", "Spin-off release at Fphoto_wafer = 0.01, Elocalexcess_disp [kg/site-day]",
            "5.3", EXAMPLE.release(3, label="high end"), remark="Printed as the range 4.9 to 5.3."),
    _figure("§4 ¶64, Eqn 3-7, p. 19", "Developer release, Elocaldeveloper [kg/site-day]", "0.027",
            EXAMPLE.release(4, label="low end"),
            remark=("One value printed for the range Fphoto_wafer = 0.01 to 0.07: it is the 0.01 end; the "
                    "0.07 end (0.19 kg/site-day, the engine's high end) is not printed.")),
    _figure("§4 ¶64, Eqn 3-8, p. 19", "Etching and stripping release, Elocaletch_strip_disp [kg/site-day]",
            "0.027", EXAMPLE.release(5, label="low end"),
            remark="As for the developer: the Fphoto_wafer = 0.01 end of the range; 0.19 at 0.07 is not printed."),
    # --- exposure (p. 20) ------------------------------------------------------------------
    _figure("§4 ¶64, Eqn 3-9, p. 20", "Dermal exposure, high end (2.1 mg/cm²), EXPdermal [mg/day]", "132",
            EXAMPLE.exposure("A", label="high end"),
            remark="Only the high end is printed; the low end (0.7 mg/cm², ¶63) would be 44 mg/day."),
    _figure("§4 ¶64, p. 20", "Workers exposed per site, low end", "20", EXAMPLE.facility("Nworkers_low"),
            count=True),
    _figure("§4 ¶64, p. 20", "Workers exposed per site, high end", "25", EXAMPLE.facility("Nworkers_high"),
            count=True),
    _figure("§4 ¶64, p. 20", "Days of dermal exposure [days/yr]", "250",
            EXAMPLE.exposure("A", field_name="days_per_year"), count=True),
)
