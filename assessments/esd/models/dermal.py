"""Worker dermal exposure models (EPA/OPPT, screening level, no gloves).

All five standard models use one equation (Eq B-16): skin area × amount left on the
skin per event × weight fraction of the chemical × events a day. The liquid models give
a low and a high amount per cm²; the solids models give only an upper bound on
area × amount per event.

The hand areas changed in September 2013: the 2010 ESD prints 420 cm² (one hand) and
840 cm² (two hands), the 1997 Exposure Factors Handbook means for men adopted by CEB in
2000; EPA/OPPT has used 535 and 1,070 cm² (Exposure Factors Handbook 2011) since. Which
set an assessment used is part of its record (:data:`HAND_AREA_SETS`), so that an old
report can be reproduced exactly.

Document: OECD ESD No. 9, *Photoresist Use in Semiconductor Manufacturing* (2010),
Appendix B.6, Tables B-8 and B-9.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._validate import check_range, fraction, non_negative, positive

_DOC = "OECD ESD No. 9, Photoresist Use in Semiconductor Manufacturing (2010)"
_T_B8 = f"{_DOC}, Appendix B.6, Table B-8"

# --- Model names (2010 ESD, Appendix B.6) ------------------------------------------------

ONE_HAND_CONTACT_MODEL = "EPA/OPPT 1-Hand Dermal Contact with Liquid Model"
TWO_HAND_CONTACT_MODEL = "EPA/OPPT 2-Hand Dermal Contact with Liquid Model"
TWO_HAND_IMMERSION_MODEL = "EPA/OPPT 2-Hand Dermal Immersion in Liquid Model"
CONTAINER_SURFACE_SOLIDS_MODEL = "EPA/OPPT 2-Hand Dermal Contact with Container Surfaces Model"
#: The catalogue calls it "Direct 2-Hand Contact with Solids"; the name is the 2010 ESD's.
DIRECT_SOLIDS_MODEL = "EPA/OPPT 2-Hand Dermal Contact with Solids Model"

# --- Hand areas ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandAreas:
    """Skin areas of the dermal models [cm²] and where they come from."""

    one_hand: float
    two_hands: float
    source: str


ESD_2010 = "esd-2010"
EPA_2013 = "epa-2013"

HAND_AREA_SETS: dict[str, HandAreas] = {
    ESD_2010: HandAreas(
        420.0,
        840.0,
        f"{_T_B8} (printed: 420 cm2 '1 hand mean', 840 cm2 '2 hand mean'; the same values "
        "in the ESD's Table A-4 and Section 6.3): mean values for men from the EPA Exposure "
        "Factors Handbook (1997), adopted in CEB's 2000 report 'Options for Revising CEB's "
        "Method for Screening-Level Estimates of Dermal Exposure'",
    ),
    EPA_2013: HandAreas(
        535.0,
        1070.0,
        "EPA/OPPT default since September 2013: mean hand surface area for adult men from "
        "the EPA Exposure Factors Handbook, 2011 Edition (EPA/600/R-09/052F), Chapter 7 "
        "(1,070 cm2 for both hands, half for one hand)",
    ),
}
#: The set a scenario reproduced "as published" from the 2010 ESD uses.
DEFAULT_HAND_AREA_SET = ESD_2010


def hand_areas(key: str) -> HandAreas:
    """The hand-area set named ``key`` (``"esd-2010"`` or ``"epa-2013"``).

    >>> hand_areas("epa-2013").two_hands
    1070.0
    """
    try:
        return HAND_AREA_SETS[key]
    except (KeyError, TypeError):
        raise ValueError(
            f"hand_area_set must be one of {', '.join(HAND_AREA_SETS)} (got {key!r})"
        ) from None


# --- Amount left on the skin [mg/cm²-event] (Table B-8, Qremain_skin) --------------------

#: Contact with liquid (1-hand and 2-hand), low and high (U.S. EPA, EPA 747-R-92-003,
#: 1992, via CEB 2000).
QU_CONTACT_LOW = 0.7
QU_CONTACT_HIGH = 2.1
#: Immersion in liquid (2-hand), low and high (EPA 747-R-92-003, 1992, via CEB 2000).
QU_IMMERSION_LOW = 1.3
QU_IMMERSION_HIGH = 10.3

#: Upper bounds of area × amount for the solids models [mg/event] (Table B-8: "< 1,100"
#: and "< 3,100"; the second is printed "< 3,10023", footnote markers run into it; TNO
#: report V 96.064, 1996, via CEB 2000).
CONTAINER_SURFACE_SOLIDS_CAP_MG_EVENT = 1_100.0
DIRECT_SOLIDS_CAP_MG_EVENT = 3_100.0

#: Events a worker-day (Eq B-16: "EPA default = 1 event/worker-day"; the footnote says
#: wiping or repeated contact does not change the film on the skin much).
FT_DEFAULT = 1.0


@dataclass(frozen=True)
class DermalModel:
    """A Table B-8 model: hands covered and its defaults.

    Liquid models have ``Qu_low``/``Qu_high`` [mg/cm²-event]; solids models have only
    ``cap_mg_event``, the upper bound of area × amount per event.
    """

    name: str
    hands: int
    Qu_low: float | None = None
    Qu_high: float | None = None
    cap_mg_event: float | None = None


DERMAL_MODELS: dict[str, DermalModel] = {
    m.name: m
    for m in (
        DermalModel(ONE_HAND_CONTACT_MODEL, 1, QU_CONTACT_LOW, QU_CONTACT_HIGH),
        DermalModel(TWO_HAND_CONTACT_MODEL, 2, QU_CONTACT_LOW, QU_CONTACT_HIGH),
        DermalModel(TWO_HAND_IMMERSION_MODEL, 2, QU_IMMERSION_LOW, QU_IMMERSION_HIGH),
        DermalModel(CONTAINER_SURFACE_SOLIDS_MODEL, 2, cap_mg_event=CONTAINER_SURFACE_SOLIDS_CAP_MG_EVENT),
        DermalModel(DIRECT_SOLIDS_MODEL, 2, cap_mg_event=DIRECT_SOLIDS_CAP_MG_EVENT),
    )
}


def surface_area_cm2(model: str, hand_area_set: str = DEFAULT_HAND_AREA_SET) -> float:
    """Skin area a liquid dermal model assumes [cm²], from a hand-area set.

    Parameters
    ----------
    model : one of the three liquid model names
    hand_area_set : ``"esd-2010"`` (420/840) or ``"epa-2013"`` (535/1,070)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.6, Table B-8 (AREAsurface); the solids
    models have no area default.

    >>> surface_area_cm2(ONE_HAND_CONTACT_MODEL), surface_area_cm2(TWO_HAND_IMMERSION_MODEL, "epa-2013")
    (420.0, 1070.0)
    """
    m = DERMAL_MODELS.get(model)
    if m is None or m.cap_mg_event is not None:
        liquid = ", ".join(n for n, d in DERMAL_MODELS.items() if d.cap_mg_event is None)
        raise ValueError(f"model must be one of {liquid} (got {model!r})")
    areas = hand_areas(hand_area_set)
    return areas.one_hand if m.hands == 1 else areas.two_hands


# --- Equations ----------------------------------------------------------------------------


def dermal_dose(S_cm2: float, Qu_mg_cm2: float, Yderm: float, FT: float = FT_DEFAULT) -> float:
    """Dermal exposure per worker-day [mg/day].

    EXPdermal = AREAsurface × Qremain_skin × Fchem × Nevent

    Parameters
    ----------
    S_cm2 : skin area in contact [cm²] (Table B-8)
    Qu_mg_cm2 : amount of material left on the skin per event [mg/cm²-event] (Table B-8)
    Yderm : weight fraction of the chemical in the material [-]
    FT : events per worker-day [events/day], greater than 0 (default 1)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.6, Eq B-16 (and the ESD's Eqn 5-3 to 5-7).

    >>> round(dermal_dose(420, 2.1, 0.15), 1)
    132.3
    """
    S = non_negative("S_cm2", S_cm2, "cm2")
    Qu = non_negative("Qu_mg_cm2", Qu_mg_cm2, "mg/cm2-event")
    Y = fraction("Yderm", Yderm)
    ft = positive("FT", FT, "events/day")
    return S * Qu * Y * ft


def solids_dermal_dose_bound(cap_mg_event: float, Yderm: float, FT: float = FT_DEFAULT) -> float:
    """Upper bound of dermal exposure to a solid [mg/day]: the report says "less than".

    EXPdermal < (AREAsurface × Qremain_skin)max × Fchem × Nevent

    Parameters
    ----------
    cap_mg_event : upper bound of area × amount per event [mg/event]
        (1,100 container surfaces; 3,100 direct contact with solids)
    Yderm : weight fraction of the chemical in the solid [-]
    FT : events per worker-day [events/day], greater than 0 (default 1)

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.6, Eq B-16 with the Table B-8 solids bounds.

    >>> solids_dermal_dose_bound(DIRECT_SOLIDS_CAP_MG_EVENT, 0.5)
    1550.0
    """
    cap = positive("cap_mg_event", cap_mg_event, "mg/event")
    Y = fraction("Yderm", Yderm)
    ft = positive("FT", FT, "events/day")
    return cap * Y * ft


# --- Qualitative assessments (Table B-9) -----------------------------------------------

#: Corrosive: pH below 2 or above 12 (Table B-9: "pH>12, pH<2").
CORROSIVE_PH_LOW = 2.0
CORROSIVE_PH_HIGH = 12.0
#: Handled above 140 °F (60 °C) (Table B-9: "Materials at temperatures >140°F (60°C)").
HOT_MATERIAL_C = 60.0
TABLE_B9_SOURCE = (
    f"{_DOC}, Appendix B.6, Table B-9 (from the CEB Manual for the Preparation of "
    "Engineering Assessment, Volume 1, 1991)"
)
#: Table B-9 categories assessed as "Non-Quantifiable", with the table's comment.
NON_QUANTIFIABLE_CATEGORIES: dict[str, str] = {
    "cast solids": "Some surface contact may occur if manually transferred (e.g. molded plastic parts, extruded pellets)",
    "dry surface coatings": "If manual handling is necessary and the material may abrade from the surface, quantify contact with fingers/palms as appropriate (e.g. fiber spin finishes, dried paint)",
    "gases/vapors": "Some contact may occur in the absence of protective clothing",
}
#: The CEB Manual's qualitative categories for gases and vapours (CVD ESD 2015, Appendix D).
QUALITATIVE_DERMAL_CATEGORIES: tuple[str, ...] = (
    "None",
    "Very low",
    "Incidental contact",
    "Intermittent contact",
    "Routine contact",
    "Routine immersion",
)


def dermal_negligible_reason(pH: float | None = None, temperature_C: float | None = None) -> str | None:
    """Why Table B-9 rates dermal exposure negligible, or ``None`` when it does not.

    Negligible for corrosive substances (pH < 2 or pH > 12) and for materials handled
    above 60 °C (140 °F).

    Parameters
    ----------
    pH : pH of the material handled [-], or None if unknown
    temperature_C : temperature of the material handled [°C], at least -273.15, or None

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.6, Table B-9. The limits are strict:
    pH 2, pH 12 and 60 °C themselves are not negligible.

    >>> dermal_negligible_reason(pH=1)
    'corrosive (pH 1 < 2): dermal exposure negligible (Table B-9)'
    >>> dermal_negligible_reason(pH=7, temperature_C=25) is None
    True
    """
    if pH is not None:
        ph = check_range("pH", pH, units="")
        if ph < CORROSIVE_PH_LOW:
            return f"corrosive (pH {ph:g} < 2): dermal exposure negligible (Table B-9)"
        if ph > CORROSIVE_PH_HIGH:
            return f"corrosive (pH {ph:g} > 12): dermal exposure negligible (Table B-9)"
    if temperature_C is not None:
        t = check_range("temperature_C", temperature_C, lower=-273.15, units="°C")
        if t > HOT_MATERIAL_C:
            return f"handled at {t:g} °C (> 60 °C / 140 °F): dermal exposure negligible (Table B-9)"
    return None


def is_dermal_negligible(pH: float | None = None, temperature_C: float | None = None) -> bool:
    """True when Table B-9 rates dermal exposure negligible (corrosive, or above 60 °C).

    Notes
    -----
    OECD ESD Photoresist (2010), Appendix B.6, Table B-9.

    >>> is_dermal_negligible(pH=12.5), is_dermal_negligible(temperature_C=60)
    (True, False)
    """
    return dermal_negligible_reason(pH, temperature_C) is not None
