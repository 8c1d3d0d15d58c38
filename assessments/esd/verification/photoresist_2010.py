"""The 2010 photoresist ESD's printed figures: Section 6, Table 3-2 and Table B-8.

OECD ESD No. 9, Photoresist Use in Semiconductor Manufacturing, ENV/JM/MONO(2004)14/REV1
(2010 revision; seed ``000_d29d57f7318cbf60``; catalogue spec/esd-photoresist-2010.md §7
and spec/epa-standard-models.md). The extracted text has no page numbers: figures are
located by section. Section 6 works Sections 3 to 5 for Qchem_yr = 5,000 kg/yr at 15 % in
the photoresist with the large-scale defaults; its release ranges run over Fphoto_wafer =
0.01 to 0.07, so the example is run at both ends (0.07 is the default, Table A-4).
Table 3-2 prints Eqn 3-1 for its three example facilities, Table B-8 the products
AREAsurface × Qremain_skin of the standard dermal models.
"""

from __future__ import annotations

from typing import Any

from ..models import dermal, residue
from ..photoresist import PHOTORESIST_2010
from .sources import Document, Equation, Figure, Run, Source

DOCUMENT = Document(
    "photoresist-2010",
    "Photoresist ESD 2010",
    "OECD ESD No. 9, Photoresist Use in Semiconductor Manufacturing, 2010 revision, ENV/JM/MONO(2004)14/REV1",
)

#: §6: "Chemical of interest production volume (Qchem_yr) is 5,000 kg chemical/yr";
#: "Chemical of interest is 15 percent by weight in the photoresist formulation (Fchem)".
GIVEN = {"Qchem_yr": 5000, "Fchem": 0.15}
EXAMPLE = Run(PHOTORESIST_2010, GIVEN)
LOW_WAFER = Run(PHOTORESIST_2010, {**GIVEN, "Fphoto_wafer": 0.01})

_DAYS, _SITES = "Days of release [days/yr]", "Sites releasing"
# The ranges below are read from §6.3 as "88-265" (840 cm²), "44-132" and "0.88-6.2"; the
# text the engine was built from runs their figures together ("26588", "132-44", "6.20.88").
_RANGE_2 = "Printed as the range 88-265 mg/day (840 cm², two hands)."


def _figure(section: str, quantity: str, printed: str, source: Source, **more: Any) -> Figure:
    return Figure(DOCUMENT, section, quantity, printed, source, **more)


def _over_360_days_from_3_sites(section: str, number: int) -> tuple[Figure, Figure]:
    """"…over 360 days/year from 3 sites", printed under each release of §6.2."""
    return (_figure(section, _DAYS, "360", EXAMPLE.release(number, "days_per_year"), count=True),
            _figure(section, _SITES, "3", EXAMPLE.release(number, "sites"), count=True))


def _two_hand(section: str, letter: str, remark: str = _RANGE_2) -> tuple[Figure, ...]:
    """Exposures B to D: "88-265 mg chem./day … over 250 days/year" (2-Hand model, 840 cm²)."""
    return (
        _figure(section, f"Exposure {letter}, low end (0.7 mg/cm²), EXPdermal [mg/day]", "88",
                EXAMPLE.exposure(letter, label="low end"), remark=remark),
        _figure(section, f"Exposure {letter}, high end (2.1 mg/cm²), EXPdermal [mg/day]", "265",
                EXAMPLE.exposure(letter, label="high end"), remark=remark),
        _figure(section, f"Exposure {letter}, days of exposure [days/yr]", "250",
                EXAMPLE.exposure(letter, field_name="days_per_year"), count=True),
    )


def _table_b_8(model: str, area: str, qu_low: float, qu_high: float, low: str, high: str) -> tuple[Figure, ...]:
    """Table B-8's "Resulting Contact AREAsurface × Qremain_skin (mg/event)": Eqn B-16 with
    Yderm = 1 and one event."""
    surface = Equation(dermal.surface_area_cm2, (model, dermal.ESD_2010))
    return tuple(
        _figure("Table B-8 (App. B.6)", f"{model}: {area} × {qu} mg/cm²-event ({end}), AREAsurface × "
                "Qremain_skin [mg/event]", printed,
                Equation(dermal.dermal_dose, (surface, qu, 1.0)))
        for end, qu, printed in (("low", qu_low, low), ("high", qu_high, high))
    )


FIGURES = (
    # --- Table 3-2: Eqn 3-1 for three example facilities -----------------------------------
    _figure("Table 3-2 (niche)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "10",
            Run(PHOTORESIST_2010, GIVEN, preset="niche").facility("Qphoto_day")),
    _figure("Table 3-2 (large scale, low end)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "33",
            Run(PHOTORESIST_2010, GIVEN, preset="large-low").facility("Qphoto_day")),
    _figure("Table 3-2 (large scale, high end)", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "36",
            Run(PHOTORESIST_2010, GIVEN, preset="large-high").facility("Qphoto_day")),
    # --- 6.1 General facility estimates ----------------------------------------------------
    _figure("§6.1.1, Eqn 3-1", "Daily use rate of photoresist, Qphoto_day [kg/site-day]", "36",
            EXAMPLE.facility("Qphoto_day")),
    _figure("§6.1.2", "Days of photoresist application, TIMEapply_days [days/yr]", "360",
            EXAMPLE.facility("TIMEapply_days"), count=True),
    _figure("§6.1.3, Eqn 3-2", "Daily use rate of the chemical, Qchem_day [kg/site-day]", "5.4",
            EXAMPLE.facility("Qchem_day_eqn_3_2")),
    _figure("§6.1.4, Eqn 3-3", "Number of sites before rounding, Nsites", "2.6",
            EXAMPLE.facility("Nsites_calculated")),
    _figure("§6.1.4", "Number of sites, rounded up, Nsites", "3", EXAMPLE.facility("Nsites"), count=True),
    _figure("§6.1.4", "Daily use rate recalculated for 3 sites, Qchem_day [kg/site-day]", "4.60",
            EXAMPLE.facility("Qchem_day")),
    _figure("§6.1.5", "Volume of the default bottle [gal]", "1",
            Equation(residue.gallons_from_litres, (EXAMPLE.input("Vcont"),)),
            remark=('Printed "1-gallon (3.8-liter) bottles": the engine holds the litres; the gallons are its '
                    "conversion.")),
    _figure("§6.1.5", "Photoresist per container, Qcont [kg/container]", "3.8", EXAMPLE.facility("Qcont")),
    _figure("§6.1.5, Eqn 3-4", "Containers emptied per site-year, Ncont_site_yr", "2,924",
            EXAMPLE.facility("Ncont_site_yr"), count=True),
    # --- 6.2 Releases ----------------------------------------------------------------------
    _figure("§6.2.1", "Daily amount received, Qchem_received_day [kg/site-day]", "4.63",
            EXAMPLE.facility("Qchem_received_day")),
    _figure("§6.2.1, Eqn 4-1b", "Release 1, container residue, Elocalcontainer_residue_disp [kg/site-day]",
            "0.0278", EXAMPLE.release(1)),
    *_over_360_days_from_3_sites("§6.2.1", 1),
    _figure("§6.2.2, Eqn 4-2", "Release 2, equipment cleaning, Elocalequip_disp [kg/site-day]", "0.046",
            EXAMPLE.release(2)),
    *_over_360_days_from_3_sites("§6.2.2", 2),
    _figure("§6.2.3, Eqn 4-3", "Release 3, spin-off at Fphoto_wafer = 0.07, Elocalexcess_disp [kg/site-day]",
            "4.2", EXAMPLE.release(3)),
    _figure("§6.2.3, Eqn 4-3", "Release 3, spin-off at Fphoto_wafer = 0.01, Elocalexcess_disp [kg/site-day]",
            "4.5", LOW_WAFER.release(3)),
    *_over_360_days_from_3_sites("§6.2.3", 3),
    _figure("§6.2.4, Eqn 4-4", "Release 4, developer at Fphoto_wafer = 0.01, Elocaldeveloper [kg/site-day]",
            "0.023", LOW_WAFER.release(4)),
    _figure("§6.2.4, Eqn 4-4", "Release 4, developer at Fphoto_wafer = 0.07, Elocaldeveloper [kg/site-day]",
            "0.16", EXAMPLE.release(4)),
    *_over_360_days_from_3_sites("§6.2.4", 4),
    _figure("§6.2.5, Eqn 4-5", "Release 5, etching and stripping at Fphoto_wafer = 0.01 [kg/site-day]", "0.023",
            LOW_WAFER.release(5),
            remark='Printed as "Elocaldeveloper = 0.023-0.16": a typo for Elocaletch_strip_disp (Eqn 4-5, Table A-2).'),
    _figure("§6.2.5, Eqn 4-5", "Release 5, etching and stripping at Fphoto_wafer = 0.07 [kg/site-day]", "0.16",
            EXAMPLE.release(5),
            remark='Printed as "Elocaldeveloper = 0.023-0.16": a typo for Elocaletch_strip_disp (Eqn 4-5, Table A-2).'),
    *_over_360_days_from_3_sites("§6.2.5", 5),
    # --- 6.3 Occupational exposures --------------------------------------------------------
    _figure("§6.3.1, Eqn 5-1", "Operators per site, Noperators_site_day", "48",
            EXAMPLE.facility("Noperators_site_day"), count=True),
    _figure("§6.3.2, Eqn 5-2", "Technicians per site, Ntechs_site_day", "18",
            EXAMPLE.facility("Ntechs_site_day"), count=True),
    _figure("§6.3.3, Eqn 5-3", "Exposure A, low end (0.7 mg/cm²), EXPdermal [mg/day]", "44",
            EXAMPLE.exposure("A", label="low end"), remark="Printed as the range 44-132 mg/day."),
    _figure("§6.3.3, Eqn 5-3", "Exposure A, high end (2.1 mg/cm²), EXPdermal [mg/day]", "132",
            EXAMPLE.exposure("A", label="high end"), remark="Printed as the range 44-132 mg/day."),
    _figure("§6.3.3", "Exposure A, days of exposure [days/yr]", "250",
            EXAMPLE.exposure("A", field_name="days_per_year"), count=True),
    *_two_hand("§6.3.4, Eqn 5-4", "B"),
    *_two_hand("§6.3.5, Eqn 5-5", "C"),
    *_two_hand("§6.3.6, Eqn 5-6", "D"),
    _figure("§6.3.7, Eqn 5-7", "Exposure E, low end (0.7 mg/cm²), EXPdermal [mg/day]", "0.88",
            EXAMPLE.exposure("E", label="low end"), remark="Printed as the range 0.88-6.2 mg/day."),
    _figure("§6.3.7, Eqn 5-7", "Exposure E, high end (2.1 mg/cm²), EXPdermal [mg/day]", "2.6",
            EXAMPLE.exposure("E", label="high end"), remark="Printed as the range 0.88-6.2 mg/day."),
    _figure("§6.3.7", "Exposure E, days of exposure [days/yr]", "250",
            EXAMPLE.exposure("E", field_name="days_per_year"), count=True),
    # --- Table B-8: the standard dermal models' contact products --------------------------
    *_table_b_8(dermal.ONE_HAND_CONTACT_MODEL, "420 cm²", dermal.QU_CONTACT_LOW, dermal.QU_CONTACT_HIGH,
                "290", "880"),
    *_table_b_8(dermal.TWO_HAND_CONTACT_MODEL, "840 cm²", dermal.QU_CONTACT_LOW, dermal.QU_CONTACT_HIGH,
                "590", "1,800"),
    *_table_b_8(dermal.TWO_HAND_IMMERSION_MODEL, "840 cm²", dermal.QU_IMMERSION_LOW, dermal.QU_IMMERSION_HIGH,
                "1,100", "8,650"),
)
