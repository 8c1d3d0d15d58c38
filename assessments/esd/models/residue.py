"""Container and process-equipment residue release models (loss fractions).

The EPA/OPPT residual models release a fixed fraction of the chemical held in an emptied
shipping container (Eq B-11) or in emptied process equipment (Eq B-12) to water,
incineration or landfill. The fractions come from a 1988 EPA study of residues in
containers and equipment emptied by pouring, pumping or gravity draining, summarised in
the CEB "Standard Assumptions for PMN Assessments" memorandum (October 1992).

Document: OECD ESD No. 9, *Photoresist Use in Semiconductor Manufacturing* (2010),
Appendix B, Sections B.3 and B.4, Tables B-3 to B-6 (called "the 2010 ESD" below).
Every constant below was checked against those tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._validate import check_range, fraction, non_negative, positive, whole_number

_DOC = "OECD ESD No. 9, Photoresist Use in Semiconductor Manufacturing (2010)"
_B3 = f"{_DOC}, Appendix B.3, Table B-3"
_B5 = f"{_DOC}, Appendix B.4, Table B-5"
_BASIS = "1988 EPA residue study, summarised in the CEB memorandum 'Standard Assumptions for PMN Assessments' (October 1992)"

# --- Model names, as the 2010 ESD prints them (Appendix B.3 and B.4) -----------------

SMALL_CONTAINER_MODEL = "EPA/OPPT Small Container Residual Model"
DRUM_MODEL = "EPA/OPPT Drum Residual Model"
BULK_MODEL = "EPA/OPPT Bulk Transport Residual Model"
SOLIDS_MODEL = "EPA/OPPT Solid Residuals in Transport Containers Model"
SINGLE_VESSEL_MODEL = "EPA/OPPT Single Process Vessel Residual Model"
MULTIPLE_VESSEL_MODEL = "EPA/OPPT Multiple Process Vessel Residual Model"
#: Not a standard model: an ESD-specific loss fraction, with its basis stated beside it
#: (the name ChemSTEER's IRER prints, e.g. the 2018 photoresist update, Section 7).
USER_DEFINED_MODEL = "User-Defined Loss Rate Model"

# --- Loss fractions [kg released / kg in the full container or equipment] -----------

#: Bottle (< 5 gal) and small container (5 to < 20 gal), liquid, central tendency.
SMALL_CONTAINER_CT = 0.003
#: Bottle and small container, liquid, high end.
SMALL_CONTAINER_HE = 0.006
#: Drum (20 to < 100 gal), liquid pumped out, central tendency.
DRUM_PUMPING_CT = 0.025
#: Drum, liquid pumped out, high end (replaced the 1992 memo's 0.04 in 2002).
DRUM_PUMPING_HE = 0.03
#: Drum, liquid poured out (alternative default), central tendency.
DRUM_POURING_CT = 0.003
#: Drum, liquid poured out (alternative default), high end.
DRUM_POURING_HE = 0.006
#: Tote, tank truck, rail car (>= 100 gal), liquid, central tendency.
BULK_CT = 0.0007
#: Tote, tank truck, rail car, liquid, high end.
BULK_HE = 0.002
#: Solids, any container.
SOLIDS_CONTAINER = 0.01
#: Single process vessel, pumped: "Conservative".
SINGLE_VESSEL_CONSERVATIVE = 0.01
#: Single process vessel, gravity drained (alternative default), central tendency.
SINGLE_VESSEL_GRAVITY_CT = 0.0007
#: Single process vessel, gravity drained (alternative default), "High End to Bounding".
SINGLE_VESSEL_GRAVITY_HE = 0.002
#: Multiple process vessels: "Conservative".
MULTIPLE_VESSEL_CONSERVATIVE = 0.02

LOSS_FRACTION_SOURCES: dict[str, str] = {
    "SMALL_CONTAINER_CT": f"{_B3}: {SMALL_CONTAINER_MODEL}, liquid, bottle (1 gal, < 5) and small container (5 gal, 5 to < 20), Central Tendency 0.003. Basis: {_BASIS}.",
    "SMALL_CONTAINER_HE": f"{_B3}: {SMALL_CONTAINER_MODEL}, liquid, bottle and small container, High End 0.006. Basis: {_BASIS}.",
    "DRUM_PUMPING_CT": f"{_B3}: {DRUM_MODEL}, liquid, drum (55 gal, 20 to < 100), Central Tendency 0.025 'for pumping liquid out of the drum'. Basis: {_BASIS}.",
    "DRUM_PUMPING_HE": f"{_B3}: {DRUM_MODEL}, liquid, drum, High End 0.03 for pumping; footnote b: supersedes the 1992 memo's 0.04 (EPA policy decision, 2002); consistent with RCRA 40 CFR 261.7(b)(1) (<= 3 % by weight left in a container of <= 110 gal is 'empty').",
    "DRUM_POURING_CT": f"{_B3}: {DRUM_MODEL}, 'Alternative defaults ... for pouring liquid out of the drum', Central Tendency 0.003. Basis: {_BASIS}.",
    "DRUM_POURING_HE": f"{_B3}: {DRUM_MODEL}, alternative defaults for pouring, High End 0.006. Basis: {_BASIS}.",
    "BULK_CT": f"{_B3}: {BULK_MODEL}, liquid, tote (550 gal, 100 to < 1,000), tank truck (5,000 gal, 1,000 to < 10,000), rail car (20,000 gal, 10,000 and up), Central Tendency 0.0007. Basis: {_BASIS}.",
    "BULK_HE": f"{_B3}: {BULK_MODEL}, liquid, tote, tank truck, rail car, High End 0.002. Basis: {_BASIS}.",
    "SOLIDS_CONTAINER": f"{_B3}: {SOLIDS_MODEL}, solid, any container, 0.01 (no characterisation printed). Basis: {_BASIS}.",
    "SINGLE_VESSEL_CONSERVATIVE": f"{_B5}: {SINGLE_VESSEL_MODEL}, Conservative 0.01 'for pumping process materials from the vessel'. Basis: {_BASIS}.",
    "SINGLE_VESSEL_GRAVITY_CT": f"{_B5}: {SINGLE_VESSEL_MODEL}, 'alternative defaults for gravity-draining materials from the vessel', Central Tendency 0.0007. Basis: {_BASIS}.",
    "SINGLE_VESSEL_GRAVITY_HE": f"{_B5}: {SINGLE_VESSEL_MODEL}, alternative defaults for gravity draining, High End to Bounding 0.002. Basis: {_BASIS}.",
    "MULTIPLE_VESSEL_CONSERVATIVE": f"{_B5}: {MULTIPLE_VESSEL_MODEL}, Conservative 0.02. Basis: {_BASIS}.",
}

# --- Container types by volume (Tables B-1 and B-3) ----------------------------------

#: US gallon [L]; exact (NIST). Converts a container volume given in litres (the
#: photoresist ESD's 3.8-L bottle, the CVD ESD's 60.6-L container) to gallons.
LITRES_PER_GALLON = 3.785411784

BOTTLE = "bottle"
SMALL_CONTAINER = "small_container"
DRUM = "drum"
TOTE = "tote"
TANK_TRUCK = "tank_truck"
RAIL_CAR = "rail_car"


@dataclass(frozen=True)
class ContainerType:
    """A container class of Tables B-1 and B-3: volume range, default, residual model.

    ``max_gal`` is exclusive (``None``: no upper bound). The loss fractions are the
    Table B-3 liquid defaults (for drums, the pumping defaults).
    """

    key: str
    label: str
    default_volume_gal: float
    min_gal: float
    max_gal: float | None
    residual_model: str
    liquid_ct: float
    liquid_he: float


CONTAINER_TYPES: tuple[ContainerType, ...] = (
    ContainerType(BOTTLE, "Bottle", 1, 0, 5, SMALL_CONTAINER_MODEL, SMALL_CONTAINER_CT, SMALL_CONTAINER_HE),
    ContainerType(SMALL_CONTAINER, "Small container", 5, 5, 20, SMALL_CONTAINER_MODEL, SMALL_CONTAINER_CT, SMALL_CONTAINER_HE),
    ContainerType(DRUM, "Drum", 55, 20, 100, DRUM_MODEL, DRUM_PUMPING_CT, DRUM_PUMPING_HE),
    ContainerType(TOTE, "Tote", 550, 100, 1_000, BULK_MODEL, BULK_CT, BULK_HE),
    ContainerType(TANK_TRUCK, "Tank truck", 5_000, 1_000, 10_000, BULK_MODEL, BULK_CT, BULK_HE),
    ContainerType(RAIL_CAR, "Rail car", 20_000, 10_000, None, BULK_MODEL, BULK_CT, BULK_HE),
)
CONTAINER_TYPES_SOURCE = (
    f"{_DOC}, Appendix B, Table B-1 and Table B-3 (Vcont_empty column: default and range in gallons)"
)


def gallons_from_litres(V_L: float) -> float:
    """Container volume in US gallons from litres [gal].

    V_gal = V_L / 3.785411784

    Parameters
    ----------
    V_L : container volume [L]

    Notes
    -----
    Unit conversion (NIST exact US gallon); the 2010 ESD's default bottle is printed as
    "1-gallon bottle" and "3.8 L photoresist/container" (Section 3.6 footnote).

    >>> round(gallons_from_litres(3.8), 3)
    1.004
    """
    return non_negative("V_L", V_L, "L") / LITRES_PER_GALLON


def container_type(volume_gal: float) -> ContainerType:
    """The Table B-1/B-3 container class for a container volume.

    bottle < 5 gal; small container 5 to < 20; drum 20 to < 100; tote 100 to < 1,000;
    tank truck 1,000 to < 10,000; rail car 10,000 and up.

    Parameters
    ----------
    volume_gal : container volume [gal], greater than 0

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Table B-1 and Table B-3 (Vcont_empty ranges).

    >>> container_type(1).key, container_type(16).key, container_type(55).key
    ('bottle', 'small_container', 'drum')
    >>> container_type(20).residual_model
    'EPA/OPPT Drum Residual Model'
    """
    v = positive("volume_gal", volume_gal, "gal")
    for ctype in CONTAINER_TYPES:
        if v >= ctype.min_gal and (ctype.max_gal is None or v < ctype.max_gal):
            return ctype
    raise AssertionError("unreachable: the container ranges cover every positive volume")


# --- Loss-fraction defaults by model ---------------------------------------------------


@dataclass(frozen=True)
class LossFractionDefaults:
    """A residual model's default fraction(s), each with its characterisation label."""

    model: str
    estimates: tuple[tuple[str, float], ...]
    source: str


def container_residue_defaults(
    volume_gal: float, *, physical_form: str = "liquid", drum_emptying: str = "pumping"
) -> LossFractionDefaults:
    """The Table B-3 model and loss fraction(s) for a container.

    Parameters
    ----------
    volume_gal : container volume [gal]
    physical_form : ``"liquid"`` or ``"solid"`` (solids: one fraction, any container)
    drum_emptying : ``"pumping"`` (default) or ``"pouring"``; used for drums only

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.3, Table B-3. Table B-3 prints no
    characterisation for the solids fraction; it is labelled ``"output"`` here.

    >>> container_residue_defaults(1).estimates
    (('central tendency', 0.003), ('high end', 0.006))
    >>> container_residue_defaults(55, drum_emptying="pouring").estimates
    (('central tendency', 0.003), ('high end', 0.006))
    >>> container_residue_defaults(55, physical_form="solid").model
    'EPA/OPPT Solid Residuals in Transport Containers Model'
    """
    if physical_form not in ("liquid", "solid"):
        raise ValueError(f"physical_form must be one of liquid, solid (got {physical_form!r})")
    if drum_emptying not in ("pumping", "pouring"):
        raise ValueError(f"drum_emptying must be one of pumping, pouring (got {drum_emptying!r})")
    ctype = container_type(volume_gal)
    if physical_form == "solid":
        return LossFractionDefaults(
            SOLIDS_MODEL, (("output", SOLIDS_CONTAINER),), LOSS_FRACTION_SOURCES["SOLIDS_CONTAINER"]
        )
    if ctype.key == DRUM and drum_emptying == "pouring":
        return LossFractionDefaults(
            DRUM_MODEL,
            (("central tendency", DRUM_POURING_CT), ("high end", DRUM_POURING_HE)),
            LOSS_FRACTION_SOURCES["DRUM_POURING_CT"],
        )
    ct_name = {SMALL_CONTAINER_MODEL: "SMALL_CONTAINER_CT", DRUM_MODEL: "DRUM_PUMPING_CT", BULK_MODEL: "BULK_CT"}
    return LossFractionDefaults(
        ctype.residual_model,
        (("central tendency", ctype.liquid_ct), ("high end", ctype.liquid_he)),
        LOSS_FRACTION_SOURCES[ct_name[ctype.residual_model]],
    )


def equipment_residue_defaults(*, vessels: str = "single", draining: str = "pumping") -> LossFractionDefaults:
    """The Table B-5 model and loss fraction(s) for equipment cleaning.

    Parameters
    ----------
    vessels : ``"single"`` or ``"multiple"``
    draining : ``"pumping"`` (the default, "Conservative") or ``"gravity"`` (the
        alternative central tendency / high-end-to-bounding pair); single vessel only

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.4, Table B-5.

    >>> equipment_residue_defaults().estimates
    (('conservative', 0.01),)
    >>> equipment_residue_defaults(draining="gravity").estimates
    (('central tendency', 0.0007), ('high end', 0.002))
    >>> equipment_residue_defaults(vessels="multiple").estimates
    (('conservative', 0.02),)
    """
    if vessels not in ("single", "multiple"):
        raise ValueError(f"vessels must be one of single, multiple (got {vessels!r})")
    if draining not in ("pumping", "gravity"):
        raise ValueError(f"draining must be one of pumping, gravity (got {draining!r})")
    if vessels == "multiple":
        if draining == "gravity":
            raise ValueError(
                "draining must be pumping for multiple vessels: Table B-5 gives gravity-drain "
                "defaults for a single vessel only (got 'gravity')"
            )
        return LossFractionDefaults(
            MULTIPLE_VESSEL_MODEL,
            (("conservative", MULTIPLE_VESSEL_CONSERVATIVE),),
            LOSS_FRACTION_SOURCES["MULTIPLE_VESSEL_CONSERVATIVE"],
        )
    if draining == "gravity":
        return LossFractionDefaults(
            SINGLE_VESSEL_MODEL,
            (("central tendency", SINGLE_VESSEL_GRAVITY_CT), ("high end", SINGLE_VESSEL_GRAVITY_HE)),
            LOSS_FRACTION_SOURCES["SINGLE_VESSEL_GRAVITY_CT"],
        )
    return LossFractionDefaults(
        SINGLE_VESSEL_MODEL,
        (("conservative", SINGLE_VESSEL_CONSERVATIVE),),
        LOSS_FRACTION_SOURCES["SINGLE_VESSEL_CONSERVATIVE"],
    )


# --- Equations ----------------------------------------------------------------------


def loss_fraction_release(amount_kg_day: float, loss_fraction: float) -> float:
    """Daily release from a loss fraction applied to a daily amount [kg/site-day].

    DR = LF × Amt

    Parameters
    ----------
    amount_kg_day : daily amount the fraction applies to [kg/site-day]
    loss_fraction : fraction released [-], between 0 and 1

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B, Eq B-11 (Section B.3) and Eq B-12
    (Section B.4); the same shell serves user-defined loss fractions.

    >>> round(loss_fraction_release(4.60, 0.01), 4)
    0.046
    """
    return non_negative("amount_kg_day", amount_kg_day, "kg/site-day") * fraction(
        "loss_fraction", loss_fraction
    )


def container_residue_release(Qtotal_daily_container: float, Fcontainer_residue: float) -> float:
    """Daily release of residue from emptied shipping containers [kg/site-day].

    Elocal_container_residue_disp = Fcontainer_residue × Qtotal_daily_container

    Parameters
    ----------
    Qtotal_daily_container : chemical in the containers emptied a day [kg/site-day]
        (Table B-4; see :func:`container_residue_daily_quantity`)
    Fcontainer_residue : fraction left in the emptied container [-] (Table B-3)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.3, Eq B-11.

    >>> round(container_residue_release(4.63, SMALL_CONTAINER_HE), 4)
    0.0278
    """
    return loss_fraction_release(Qtotal_daily_container, Fcontainer_residue)


def equipment_residue_release(Qequip_chem_capacity: float, Fequip_residue: float) -> float:
    """Daily release of residue from cleaning emptied process equipment [kg/site-day].

    Elocal_equip_cleaning = Fequip_residue × Qequip_chem_capacity

    Parameters
    ----------
    Qequip_chem_capacity : chemical the equipment holds before emptying [kg/site-day]
        (Table B-6; see :func:`equipment_residue_daily_quantity`)
    Fequip_residue : fraction left in the emptied equipment [-] (Table B-5)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.4, Eq B-12.

    >>> round(equipment_residue_release(4.60, SINGLE_VESSEL_CONSERVATIVE), 4)
    0.046
    """
    return loss_fraction_release(Qequip_chem_capacity, Fequip_residue)


def annual_release(kg_day: float, days: float, sites: int = 1) -> float:
    """Annual release over all sites [kg/yr].

    AR = DR × days × Nsites

    Parameters
    ----------
    kg_day : daily release per site [kg/site-day]
    days : days of release per year [days/site-yr], between 0 and 366
    sites : number of sites [-], a whole number, at least 1

    Notes
    -----
    The annual shell of every release in the 2010 photoresist ESD ("... over 360
    days/year from 3 sites", Section 6.2) and of ChemSTEER's IRER ("kg/site-yr ...
    kg/yr-all sites").

    >>> round(annual_release(0.0277778, 360, 3), 2)
    30.0
    """
    return (
        non_negative("kg_day", kg_day, "kg/site-day")
        * check_range("days", days, lower=0, upper=366, units="days/yr")
        * whole_number("sites", sites, lower=1)
    )


def _daily_quantity_rule(
    kg_each: float, n_per_year: float, operating_days: float, names: tuple[str, str]
) -> tuple[float, float]:
    kg_name, n_name = names
    kg = non_negative(kg_name, kg_each, "kg")
    n = positive(n_name, n_per_year, "per site-yr")
    days = check_range("operating_days", operating_days, lower=0, upper=366, lower_open=True, units="days/yr")
    per_day = n / days
    if per_day >= 1:
        return kg * per_day, days
    return kg, n


def container_residue_daily_quantity(
    kg_per_container: float, containers_per_year: float, operating_days: float
) -> tuple[float, float]:
    """Daily container quantity and days of release, by the Table B-4 rule.

    One or more containers emptied a day: Qtotal_daily_container = kg per container ×
    containers a day, released over the operating days. Fewer than one a day: kg per
    container, released on as many days as containers are emptied a year.

    Parameters
    ----------
    kg_per_container : chemical in each container [kg/container]
    containers_per_year : containers emptied per site-year [containers/site-yr], > 0
    operating_days : operating days of the site [days/yr], > 0 and at most 366

    Returns
    -------
    (Qtotal_daily_container [kg/site-day], TIMEdays_container_residue [days/site-yr])

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.3, Table B-4. Exactly one container a day
    falls in the first row; both rows then give the same answer. The CVD ESD's Eq C-1a
    and C-1b (Appendix C) are the two rows of this table.

    >>> q, d = container_residue_daily_quantity(0.57, 2924, 360)
    >>> round(q, 2), d
    (4.63, 360.0)
    >>> container_residue_daily_quantity(60.6, 17, 250)
    (60.6, 17.0)
    """
    return _daily_quantity_rule(
        kg_per_container, containers_per_year, operating_days, ("kg_per_container", "containers_per_year")
    )


def equipment_residue_daily_quantity(
    kg_per_batch: float, batches_per_year: float, operating_days: float
) -> tuple[float, float]:
    """Daily equipment capacity and days of release for a batch process (Table B-6).

    One or more batches a day: Qequip_chem_capacity = kg per batch × batches a day,
    over the operating days. Fewer than one a day: kg per batch, on as many days as
    batches are run a year. (A continuous process uses the daily quantity processed,
    over the operating days: no rule needed.)

    Parameters
    ----------
    kg_per_batch : chemical in each batch [kg/batch]
    batches_per_year : batches run per site-year [batches/site-yr], > 0
    operating_days : operating days of the site [days/yr], > 0 and at most 366

    Returns
    -------
    (Qequip_chem_capacity [kg/site-day], TIMEdays_equip_residue [days/site-yr])

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.4, Table B-6. The table's note: cleaning
    may be less frequent (campaigns); an ESD may override the days.

    >>> equipment_residue_daily_quantity(100, 500, 250)
    (200.0, 250.0)
    >>> equipment_residue_daily_quantity(100, 50, 250)
    (100.0, 50.0)
    """
    return _daily_quantity_rule(kg_per_batch, batches_per_year, operating_days, ("kg_per_batch", "batches_per_year"))
